/**
 * `compare --diff A.json B.json`: two runs' JSON reports compared case by
 * case (matched by id): which cases were fixed, which broke, which still
 * disagree in another way, which are in one run only; and the agreement per
 * category before and after.
 */
import { fails, type Outcome, type Score, type Semantics } from '../outcome.js'
import { count, pct, withoutBom } from '../format.js'
import type { Report, ReportedAnswer, ReportedCase } from './report-model.js'
import { describeAnswer } from './terminal-report.js'
import { oneLine } from '../case.js'
import { jsonLine } from '../../tools/printable.js'
import { CompareError, readError } from '../compare-error.js'
import { MAX_REPORT_BYTES, readInputFileFreeable } from '../input-file.js'

/** How one case changed from A to B. */
export type Change = 'fixed' | 'broken' | 'changed' | 'only-a' | 'only-b'

/** One case that changed. */
export interface ChangedCase {
  readonly id: string
  readonly change: Change
  readonly categories: readonly string[]
  readonly expected: { allowed: boolean; line: number }
  readonly a?: { outcome: ReportedCase['outcome']; answer: ReportedAnswer }
  readonly b?: { outcome: ReportedCase['outcome']; answer: ReportedAnswer }
}

/** A category's agreement in both runs (percent of its cases in each run). */
export interface CategoryChange {
  readonly id: string
  readonly a: { cases: number; agreed: number }
  readonly b: { cases: number; agreed: number }
}

/** The comparison of two runs. */
export interface RunDiff {
  readonly score: Score
  /** Whose answers the outcomes are against: the reference's or RFC 9309's. */
  readonly semantics: Semantics
  readonly a: { file: string; set: string; adapter: string; date: string; cases: number; agreed: number; stopped?: string }
  readonly b: { file: string; set: string; adapter: string; date: string; cases: number; agreed: number; stopped?: string }
  /** Cases in both runs with the same outcome and answer. */
  readonly same: number
  readonly counts: Record<Change, number>
  /** Every case that changed, in B's order (then A's cases missing from B). */
  readonly changed: readonly ChangedCase[]
  readonly categories: readonly CategoryChange[]
}

/** Reads a JSON report that lists its cases (format 2 or later, written by `--json`). */
export async function readRunReport(file: string): Promise<Report & { cases: ReportedCase[] }> {
  let text: string
  try {
    text = (await readInputFileFreeable(file, 'report', { limit: MAX_REPORT_BYTES })).toString('utf8')
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError('report', file, err)
  }
  let r: Report
  try {
    r = JSON.parse(withoutBom(text)) as Report
  } catch (err) {
    throw new CompareError('ERR_READ', `${file}: not JSON (${(err as Error).message})`)
  }
  if (typeof r !== 'object' || r === null || typeof r.format !== 'number') throw new CompareError('ERR_READ', `${file}: not a report of compare --json`)
  if (!Array.isArray(r.cases)) {
    throw new CompareError('ERR_READ', `${file}: the report lists no cases (format ${r.format}; reports of format 2 and later do: run compare --json again)`)
  }
  // Every case as --json writes it: a case of another shape (a file edited or cut) is named, not read into a TypeError.
  r.cases.forEach((c: unknown, i: number) => {
    if (!isReportedCase(c)) {
      throw new CompareError('ERR_READ', `${file}: case ${i + 1} of the report is not a case of compare --json (it needs an id, an outcome, categories, an answer and the expected answers)`)
    }
  })
  return r as Report & { cases: ReportedCase[] }
}

const OUTCOMES: ReadonlySet<unknown> = new Set<Outcome>(['agree', 'verdict', 'line', 'error'])

function isAnswerLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null
}

function isExpectedLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { allowed?: unknown }).allowed === 'boolean'
}

/** Whether `c` has what a diff reads of a case (the RFC 9309 fields only when given: reports of format 2 have none). */
function isReportedCase(c: unknown): boolean {
  if (typeof c !== 'object' || c === null) return false
  const x = c as Record<string, unknown>
  if (typeof x.id !== 'string' || !OUTCOMES.has(x.outcome) || !isAnswerLike(x.answer) || !isExpectedLike(x.expected)) return false
  if (!Array.isArray(x.categories) || !x.categories.every((k) => typeof k === 'string')) return false
  if (x.rfcOutcome !== undefined && (!OUTCOMES.has(x.rfcOutcome) || !isExpectedLike(x.rfc))) return false
  return true
}

function sameAnswer(x: ReportedAnswer, y: ReportedAnswer): boolean {
  return x.allowed === y.allowed && x.line === y.line && x.error === y.error
}

/** Compares two runs case by case, agreement counted under `score` against the answers of `semantics`. */
export function diffRuns(a: Report & { cases: ReportedCase[] }, b: Report & { cases: ReportedCase[] }, score: Score, files: [string, string], semantics: Semantics = 'reference'): RunDiff {
  if (semantics === 'rfc') {
    for (const [r, f] of [[a, files[0]], [b, files[1]]] as const) {
      if (r.cases.length > 0 && r.cases[0].rfcOutcome === undefined) throw new CompareError('ERR_READ', `${f}: the report has no RFC 9309 outcomes (format ${r.format}): --semantics rfc needs reports of format 3 or later`)
    }
  }
  // The outcome under the semantics, as the rest of the diff reads it.
  const view = (c: ReportedCase): ReportedCase => (semantics === 'rfc' ? { ...c, outcome: c.rfcOutcome as Outcome, expected: c.rfc } : c)
  a = { ...a, cases: a.cases.map(view) }
  b = { ...b, cases: b.cases.map(view) }
  const byId = new Map<string, ReportedCase>()
  for (const c of a.cases) byId.set(c.id, c)
  const counts: Record<Change, number> = { fixed: 0, broken: 0, changed: 0, 'only-a': 0, 'only-b': 0 }
  const changed: ChangedCase[] = []
  const cats = new Map<string, { a: { cases: number; agreed: number }; b: { cases: number; agreed: number } }>()
  const tally = (side: 'a' | 'b', c: ReportedCase): void => {
    for (const id of c.categories) {
      let e = cats.get(id)
      if (!e) cats.set(id, (e = { a: { cases: 0, agreed: 0 }, b: { cases: 0, agreed: 0 } }))
      e[side].cases++
      if (!fails(c.outcome, score)) e[side].agreed++
    }
  }
  for (const c of a.cases) tally('a', c)
  let same = 0
  const seen = new Set<string>()
  for (const cb of b.cases) {
    tally('b', cb)
    seen.add(cb.id)
    const ca = byId.get(cb.id)
    const side = (c: ReportedCase) => ({ outcome: c.outcome, answer: c.answer })
    if (ca === undefined) {
      counts['only-b']++
      changed.push({ id: cb.id, change: 'only-b', categories: cb.categories, expected: cb.expected, b: side(cb) })
      continue
    }
    const failA = fails(ca.outcome, score)
    const failB = fails(cb.outcome, score)
    let change: Change | undefined
    if (failA && !failB) change = 'fixed'
    else if (!failA && failB) change = 'broken'
    else if (failA && failB && (ca.outcome !== cb.outcome || !sameAnswer(ca.answer, cb.answer))) change = 'changed'
    if (change === undefined) {
      same++
      continue
    }
    counts[change]++
    changed.push({ id: cb.id, change, categories: cb.categories, expected: cb.expected, a: side(ca), b: side(cb) })
  }
  for (const ca of a.cases) {
    if (seen.has(ca.id)) continue
    counts['only-a']++
    changed.push({ id: ca.id, change: 'only-a', categories: ca.categories, expected: ca.expected, a: { outcome: ca.outcome, answer: ca.answer } })
  }
  const agreed = (r: Report & { cases: ReportedCase[] }): number => r.cases.filter((c) => !fails(c.outcome, score)).length
  // A run that stopped before its end (its adapter failed): its cases are those done, which the diff says.
  const head = (r: Report & { cases: ReportedCase[] }, file: string) => ({
    file, set: r.set, adapter: r.adapter, date: r.date, cases: r.cases.length, agreed: agreed(r),
    ...(r.complete === false ? { stopped: typeof r.failure?.message === 'string' ? r.failure.message : 'no reason given' } : {}),
  })
  const categories = [...cats].map(([id, e]) => ({ id, ...e })).filter((c) => c.a.agreed * c.b.cases !== c.b.agreed * c.a.cases || c.a.cases !== c.b.cases)
  return { score, semantics, a: head(a, files[0]), b: head(b, files[1]), same, counts, changed, categories }
}

const WORDS: Record<Change, string> = { fixed: 'fixed', broken: 'broken', changed: 'disagrees otherwise', 'only-a': 'only in A', 'only-b': 'only in B' }

/** The diff as text, each value on its line ({@link oneLine}); `show` changed cases listed at most. */
export function renderRunDiff(d: RunDiff, show: number): string {
  // No cases (a category only one run has): no agreement to give, not 100 %.
  const rate = (x: { cases: number; agreed: number }): string => (x.cases === 0 ? '–' : pct((100 * x.agreed) / x.cases))
  const out = [
    `A: ${d.a.file}: ${d.a.adapter}; ${d.a.set} (${d.a.date})`,
    ...(d.a.stopped !== undefined ? [`  ✗ the run stopped before its end, its cases those done: ${d.a.stopped}`] : []),
    `B: ${d.b.file}: ${d.b.adapter}; ${d.b.set} (${d.b.date})`,
    ...(d.b.stopped !== undefined ? [`  ✗ the run stopped before its end, its cases those done: ${d.b.stopped}`] : []),
    `agreement with ${d.semantics === 'rfc' ? 'RFC 9309' : 'the reference'} on ${d.score === 'lines' ? 'verdicts and lines' : 'verdicts alone'}: A ${rate(d.a)} of ${count(d.a.cases)} cases, B ${rate(d.b)} of ${count(d.b.cases)}`,
    `cases: ${count(d.same)} unchanged, ${count(d.counts.fixed)} fixed, ${count(d.counts.broken)} broken, ${count(d.counts.changed)} disagree otherwise, ` +
      `${count(d.counts['only-a'])} only in A, ${count(d.counts['only-b'])} only in B`,
  ]
  if (d.categories.length > 0) {
    out.push('', 'categories whose agreement changed:')
    for (const c of d.categories) out.push(`  ${c.id.padEnd(26)} ${rate(c.a).padStart(8)} → ${rate(c.b).padStart(8)}  (${count(c.a.cases)} → ${count(c.b.cases)} cases)`)
  }
  const listed = d.changed.slice(0, show)
  if (listed.length > 0) {
    out.push('', `changed cases${d.changed.length > listed.length ? ` (the first ${listed.length} of ${count(d.changed.length)}; --show N)` : ''}:`)
    for (const c of listed) {
      const a = c.a ? describeAnswer(c.a.answer) : '-'
      const b = c.b ? describeAnswer(c.b.answer) : '-'
      out.push(`  ${WORDS[c.change]}: ${c.id}  [${c.categories.join(', ')}]`, `    A: ${a}    B: ${b}    ${d.semantics === 'rfc' ? 'RFC 9309' : 'reference'}: ${c.expected.allowed ? 'allowed' : 'disallowed'} (line ${c.expected.line})`)
    }
  }
  return out.map(oneLine).join('\n') + '\n'
}

/** The diff as JSON lines: one object per changed case. */
export function runDiffLines(d: RunDiff): string {
  return d.changed.map((c) => jsonLine(c)).join('\n') + (d.changed.length > 0 ? '\n' : '')
}
