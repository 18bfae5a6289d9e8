/**
 * The terminal report of `compare`: the per-category table under both
 * scores with attribution, pass rates per file, the first disagreements with
 * the reference's deciding rule and their minimised form, timings, and the
 * verdict of the gate (or the failure that stopped the run).
 */
import type { Evidence } from '../adapters/adapter.js'
import { oneLine, visibleBytes, visibleUrl } from '../case.js'
import { count, ms, pct, plural } from '../format.js'
import type { Semantics } from '../outcome.js'
import type { Report, ReportedAnswer, ReportedBody, ReportedDisagreement, ReportedExpected, Tally } from './report-model.js'

/** `allowed`, `disallowed (line 4)`, `error: …`. */
export function describeAnswer(a: ReportedAnswer): string {
  if (a.error !== undefined) return `error: ${oneLine(a.error)}`
  return `${a.allowed ? 'allowed' : 'disallowed'}${a.line !== undefined ? ` (line ${a.line})` : ''}`
}

/** `disallowed by line 4: Disallow: /x*`, or `allowed: no rule matches`. */
export function describeExpected(e: ReportedExpected): string {
  const verdict = e.allowed ? 'allowed' : 'disallowed'
  if (e.rule === null) return e.line ? `${verdict} (line ${e.line}: an empty rule)` : `${verdict}: no rule matches (line 0)`
  return `${verdict} by line ${e.rule.line}: ${e.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${e.rule.pattern}`
}

/** The headline's words: what the score counts. */
export function scoreWords(score: Report['score']): string {
  return score === 'lines' ? 'verdicts and lines' : 'verdicts alone'
}

/** Whose answers: `the reference` or `RFC 9309`. */
export function whose(semantics: Semantics): string {
  return semantics === 'rfc' ? 'RFC 9309' : 'the reference'
}

function sameExpected(a: ReportedExpected, b: ReportedExpected): boolean {
  return a.allowed === b.allowed && a.line === b.line
}

/** The evidence as lines: the raw answer, the exit status, stdout and stderr (each cut to `maxLines` lines). */
export function evidenceLines(e: Evidence | undefined, maxLines = 6): string[] {
  if (e === undefined) return []
  const out: string[] = []
  const block = (name: string, text: string | undefined): void => {
    if (text === undefined || text === '') return
    const lines = text.replace(/\n$/, '').split('\n')
    out.push(`${name}: ${visibleUrl(lines[0], 200)}`, ...lines.slice(1, maxLines).map((l) => `${' '.repeat(name.length + 2)}${visibleUrl(l, 200)}`))
    if (lines.length > maxLines) out.push(`${' '.repeat(name.length + 2)}… (${lines.length - maxLines} more lines)`)
  }
  block('raw answer', e.raw)
  if (e.signal) out.push(`killed by: ${e.signal}`)
  else if (e.status !== undefined) out.push(`exit status: ${e.status}`)
  block('stdout', e.stdout)
  block('stderr', e.stderr)
  return out
}

/** A reported body as visible text (see visibleBytes); a note when its bytes were left out of the report. */
export function bodyText(d: ReportedBody | { robots?: string; robots_base64?: string }, maxLine = 400): string {
  if ('omitted' in d && d.omitted) return `(a body of ${count(d.bytes)} bytes, left out: the report's bodies are over their size budget)`
  const bytes = d.robots !== undefined ? Buffer.from(d.robots, 'utf8') : Buffer.from(d.robots_base64 ?? '', 'base64')
  return visibleBytes(bytes, maxLine)
}

function indent(text: string, prefix: string, maxLines: number): string {
  if (text === '') return `${prefix}(empty robots.txt)`
  const lines = text.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  const shown = lines.slice(0, maxLines).map((l) => prefix + l)
  if (lines.length > maxLines) shown.push(`${prefix}… (${lines.length - maxLines} more lines)`)
  return shown.join('\n')
}

/** Rows of cells as aligned text: the first column left-aligned, the others right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[], total?: readonly string[]): string[] {
  const all = (total ? [...rows, total] : rows).map((r) => r.map(oneLine))
  const widths = header.map((h, i) => Math.max(h.length, ...all.map((r) => r[i].length)))
  const row = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
  const out = [row(header), ...all.slice(0, rows.length).map(row)]
  if (total) out.push(row(widths.map((w) => '─'.repeat(w))), row(all[rows.length]))
  return out
}

function cells(name: string, t: Tally, lines: boolean, score: Report['score'], only?: number): string[] {
  const rate = tallyRate(t)
  return [
    name, count(t.cases), count(t.agreed), count(t.verdict), lines ? count(t.line) : '-', count(t.errors), rate(t.scores.verdicts), rate(t.scores.lines),
    rate(t.rfcScores[score]), only === undefined ? '' : count(only),
  ]
}

/** A rate of a tally's cases: '–' when it has none (a run stopped before any answer agrees with nothing). */
export function tallyRate(t: { readonly cases: number }): (p: number) => string {
  return (p) => (t.cases === 0 ? '–' : pct(p))
}

/** One disagreement as a few lines; `body`: the case's body. */
export function describeDisagreement(d: ReportedDisagreement, body: ReportedBody): string {
  const agent = oneLine(Array.isArray(d.agent) ? d.agent.join(', ') : d.agent)
  const out = [
    `✗ ${oneLine(d.id)}  (${d.outcome === 'verdict' ? 'verdict differs' : d.outcome === 'line' ? 'line differs' : 'error'})  [${oneLine(d.categories.join(', ')) || 'no category'}]`,
    `    agent: ${agent}    url: ${visibleUrl(d.url)}`,
  ]
  if (d.source !== undefined) out.push(`    robots.txt: ${oneLine(d.source)}`)
  out.push(`    implementation: ${describeAnswer(d.answer)}`, `    reference:      ${describeExpected(d.expected)}`)
  if (d.rfc && !sameExpected(d.rfc, d.expected)) out.push(`    RFC 9309:       ${describeExpected(d.rfc)}  [${d.standard}]`)
  if (d.explanation !== undefined) out.push(`    why (the set's explanation): ${oneLine(d.explanation)}`)
  for (const l of evidenceLines(d.evidence)) out.push(`    ${l}`)
  const m = d.minimised
  if (m) {
    out.push(`    minimised (${m.linesBefore} → ${m.linesAfter} lines, ${m.calls} adapter calls${m.complete ? '' : ', budget used up'}): url ${visibleUrl(m.url)}`)
    out.push(indent(bodyText(m), '    │ ', 20))
    out.push(`    implementation: ${describeAnswer(m.answer)}; reference: ${describeExpected(m.expected)}`)
  } else {
    out.push('    robots.txt:')
    out.push(indent(bodyText(body), '    │ ', 12))
  }
  return out.join('\n')
}

/** The explanation line: the categories that tag every disagreement. */
export function explanationLine(report: Report): string | undefined {
  const e = report.explanation
  if (report.totals.disagreements === 0) return undefined
  const named = [...e].sort((a, b) => b.failures - a.failures).map((x) => `${x.id} (${count(x.failures)})`).join(', ')
  const none = report.uncategorised > 0 ? `${plural(report.uncategorised, 'disagreement')} ${report.uncategorised === 1 ? 'has' : 'have'} no category` : ''
  if (e.length === 0) return `Explained by: nothing (${none})`
  return `Explained by: ${named}: every disagreement${report.uncategorised > 0 ? ' with a category' : ''} is tagged with one of these${none ? `; ${none}` : ''}`
}

/** The timing lines. */
export function timingLines(report: Report): string[] {
  const t = report.totals
  const tm = report.timings
  const out = [
    `Timings: ${plural(t.cases, 'case')} in ${ms(tm.runWallMs)} (${count(Math.round(tm.casesPerSecond))} cases/s); ` +
      `per case p50 ${ms(tm.p50Ms)}, p99 ${ms(tm.p99Ms)}, mean ${ms(tm.meanMs)} (${tm.caseTime})`,
  ]
  const r = tm.repeats
  if (r) {
    out.push(
      `  ${r.wallMs.length} passes: ${count(Math.round(r.casesPerSecond.median))} cases/s median, ` +
        `from ${count(Math.round(r.casesPerSecond.min))} to ${count(Math.round(r.casesPerSecond.max))}` +
        (r.unstable > 0 ? `; ${plural(r.unstable, 'answer')} changed between passes` : ''),
    )
  }
  if (tm.ceiling) out.push(`  harness ceiling: ${count(Math.round(tm.ceiling.casesPerSecond))} cases/s (a null adapter through the same protocol, ${count(tm.ceiling.cases)} cases)`)
  if (tm.startupMs !== undefined) out.push(`  start-up, measured alone on an empty robots.txt: ${ms(tm.startupMs)}${tm.startupSubtracted ? ' (taken off each case)' : ''}`)
  if (tm.parse) out.push(`  parse: ${count(tm.parse.bodies)} ${tm.parse.bodies === 1 ? 'body' : 'bodies'}, p50 ${ms(tm.parse.p50Ms)}, p99 ${ms(tm.parse.p99Ms)}`)
  const h = tm.harness
  out.push(`  harness: cases ${ms(h.casesMs)}, run ${ms(h.runCpuMs)} CPU, minimise ${ms(h.minimiseMs)}, report ${ms(h.reportMs)}`)
  return out
}

/** That every case got the same verdict, when it did: an implementation that judges nothing. */
export function sameAnswer(report: Report): string {
  const t = report.totals
  const v = t.allowed === t.cases ? 'allowed' : t.allowed === 0 && t.errors === 0 ? 'disallowed' : ''
  return t.cases > 1 && v ? `the implementation answered ${v} to every case` : ''
}

/** The last line: the gate's verdict, or the failure. */
export function resultLine(report: Report): string {
  const t = report.totals
  const other = report.score === 'lines' ? 'verdicts' : 'lines'
  const sem = report.semantics ?? 'reference'
  const [gate, second] = sem === 'rfc' ? [t.rfcScores, t.scores] : [t.scores, t.rfcScores]
  const otherStandard = sem === 'rfc' ? 'the reference' : 'RFC 9309'
  const both =
    t.linesChecked === 0
      ? `${pct(gate.verdicts)} agreement with ${whose(sem)} on verdicts (the implementation gives no deciding lines); ${otherStandard}: ${pct(second.verdicts)}`
      : `${pct(t.agreement)} agreement with ${whose(sem)} on ${scoreWords(report.score)} (${pct(gate[other])} on ${scoreWords(other)}); ` +
        `${otherStandard}: ${pct(second[report.score])} (${pct(second[other])})`
  if (report.failure) return `Result: the run stopped ${t.cases ? `after ${plural(t.cases, 'case')} (${both} so far)` : 'before any case was answered'}: see above`
  const b = report.baseline
  if (b) {
    const verdict = b.newCount === 0 ? `passed: no disagreement is new (${count(b.known)} known to ${b.file})` : `failed: ${count(b.newCount)} new disagreement${b.newCount === 1 ? '' : 's'} (${count(b.known)} known to ${b.file})`
    const gateNote = !report.passed && b.newCount === 0 ? ` and below --min-agreement ${report.minAgreement}` : ''
    return `Result: ${both}: ${verdict}${gateNote}`
  }
  const needed = report.minAgreement < 100 ? `--min-agreement ${report.minAgreement}` : '100% needed; --min-agreement P or --baseline FILE to relax'
  return `Result: ${both}: ${report.passed ? 'passed' : 'failed'} (${needed})`
}

/** The baseline's lines: known, new (named), fixed (named), absent. */
export function baselineLines(report: Report, show = 20): string[] {
  const b = report.baseline
  if (!b) return []
  const ids = (list: readonly string[], n: number): string => oneLine(list.slice(0, show).join(', ')) + (n > Math.min(show, list.length) ? `, … (${count(n - Math.min(show, list.length))} more)` : '')
  const out = [`Baseline ${b.file}: ${count(b.known)} known disagreement${b.known === 1 ? '' : 's'} (not counted against the run)`]
  if (b.newCount > 0) out.push(`  new (${count(b.newCount)}): ${ids(b.new, b.newCount)}`)
  if (b.fixedCount > 0) out.push(`  fixed (${count(b.fixedCount)}): ${ids(b.fixed, b.fixedCount)}`)
  if (b.absent > 0) out.push(`  ${count(b.absent)} disagreement${b.absent === 1 ? '' : 's'} of the baseline ${b.absent === 1 ? 'has' : 'have'} no case in this run`)
  return out
}

/** The table of standards: cases whose answer follows RFC 9309 alone, Google's behaviour beyond it, or differs from it; agreement with each. */
export function standardLines(report: Report): string[] {
  if (!report.standards || report.standards.length === 0) return []
  const sc = report.score
  return table(
    ['standard', 'cases', 'reference', 'RFC 9309'],
    report.standards.map((s) => [s.id, count(s.cases), pct(s.scores[sc]), pct(s.rfcScores[sc])]),
  )
}

/** The whole terminal report; `show` disagreements in full. */
export function renderTerminal(report: Report, show: number): string {
  const t = report.totals
  const lines = t.linesChecked > 0
  const sem = report.semantics ?? 'reference'
  const out: string[] = [`${report.set}`, `  against ${report.adapter}`, `  scored against the reference (google/robotstxt) and RFC 9309; the gate: ${whose(sem)} (--semantics)`, '']
  if (report.failure) out.push(`✗ The run stopped: ${oneLine(report.failure.message)}`, `  (the counts below are those of the ${plural(t.cases, 'case')} done)`, '')
  const header = ['category', 'cases', 'agree', 'verdict≠', 'line≠', 'errors', 'verdicts', 'lines', 'RFC 9309', 'only']
  out.push(...table(header, report.categories.map((c) => cells(c.id, c, lines, report.score, c.only)), cells('all cases', t, lines, report.score)))
  out.push(
    `(agree, verdict≠, line≠, verdicts, lines: against the reference; RFC 9309: agreement with RFC 9309's answers on ${scoreWords(report.score)}; ` +
      `the headline counts ${scoreWords(report.score)} (--score) against ${whose(sem)} (--semantics))`,
  )
  if (t.disagreements > 0) out.push('(only: the disagreements of a category that no other category of the explanation, at least half as precise, tags)')
  if (!lines) out.push('(the implementation gave no deciding lines: only verdicts were checked)')
  const same = sameAnswer(report)
  if (same) out.push(`(${same})`)
  const explained = explanationLine(report)
  if (explained) out.push(explained)
  if (t.skipped > 0) out.push(`${plural(t.skipped, 'case')} skipped: ${t.skippedWhy ?? ''}`)
  const standards = standardLines(report)
  if (standards.length > 0) out.push('', 'Standards (rfc: the answer follows RFC 9309 alone; google-specific: Google\'s behaviour beyond it; rfc-differs: RFC 9309 answers otherwise):', ...standards)
  const base = baselineLines(report)
  if (base.length > 0) out.push('', ...base)
  if (report.files) {
    const failing = report.files.filter((f) => f.agreement < 100)
    out.push('', `Files: ${count(report.files.length - failing.length)} of ${count(report.files.length)} pass every case`)
    if (failing.length > 0) out.push(...table(['file', 'cases', 'agree', 'agreement'], failing.map((f) => [f.file, count(f.cases), count(f.agreed), pct(f.agreement)])))
  }
  out.push('')
  if (t.disagreements > 0) {
    const n = Math.min(show, report.disagreements.length)
    const [v, l] = sem === 'rfc' ? [t.rfcVerdict, t.rfcLine] : [t.verdict, t.line]
    const what = sem === 'rfc' ? ' with RFC 9309' : ''
    out.push(
      (report.score === 'lines'
        ? `${plural(t.disagreements, 'disagreement')}${what} (${count(v)} verdict, ${count(l)} line, ${plural(t.errors, 'error')})`
        : `${plural(t.disagreements, 'disagreement')}${what} (${count(v)} verdict, ${plural(t.errors, 'error')}; ${plural(l, 'line difference')} not counted: --score verdicts)`) +
        (n > 0 ? `; ${n === t.disagreements ? 'all' : `the first ${n}, one of each kind first`}:` : ''),
    )
    for (const d of report.disagreements.slice(0, n)) {
      out.push('')
      out.push(describeDisagreement(d, report.bodies[d.robots_sha1]))
    }
    if (t.disagreements > n) out.push(`\n… ${count(t.disagreements - n)} more (--show N; --json / --html list up to 1,000, --csv and --junit every case)`)
    out.push('')
  }
  out.push(...timingLines(report))
  if (report.statedMismatchCount > 0) {
    out.push(`Note: ${plural(report.statedMismatchCount, 'case')} ${report.statedMismatchCount === 1 ? 'states' : 'state'} an answer other than the reference's (first: ${oneLine(report.statedMismatches[0].id)}); the reference's is used.`)
  }
  out.push(resultLine(report))
  return out.join('\n') + '\n'
}
