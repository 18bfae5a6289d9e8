/**
 * The terminal report of `compare`: the per-category table under both
 * scores with attribution, pass rates per file, the first disagreements with
 * the reference's deciding rule and their minimised form, timings, and the
 * verdict of the gate (or the failure that stopped the run).
 */
import { visibleBytes, visibleUrl } from '../case.js'
import { count, ms, pct } from '../format.js'
import type { Report, ReportedAnswer, ReportedBody, ReportedDisagreement, ReportedExpected, Tally } from './report-model.js'

/** `allowed`, `disallowed (line 4)`, `error: …`. */
export function describeAnswer(a: ReportedAnswer): string {
  if (a.error !== undefined) return `error: ${a.error}`
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
  const all = total ? [...rows, total] : rows
  const widths = header.map((h, i) => Math.max(h.length, ...all.map((r) => r[i].length)))
  const row = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
  const out = [row(header), ...rows.map(row)]
  if (total) out.push(row(widths.map((w) => '─'.repeat(w))), row(total))
  return out
}

function cells(name: string, t: Tally, lines: boolean, only?: number): string[] {
  return [name, count(t.cases), count(t.agreed), count(t.verdict), lines ? count(t.line) : '-', count(t.errors), pct(t.scores.verdicts), pct(t.scores.lines), only === undefined ? '' : count(only)]
}

/** One disagreement as a few lines; `body`: the case's body. */
export function describeDisagreement(d: ReportedDisagreement, body: ReportedBody): string {
  const agent = Array.isArray(d.agent) ? d.agent.join(', ') : d.agent
  const out = [
    `✗ ${d.id}  (${d.outcome === 'verdict' ? 'verdict differs' : d.outcome === 'line' ? 'line differs' : 'error'})  [${d.categories.join(', ') || 'no category'}]`,
    `    agent: ${agent}    url: ${visibleUrl(d.url)}`,
  ]
  if (d.source !== undefined) out.push(`    robots.txt: ${d.source}`)
  out.push(`    implementation: ${describeAnswer(d.answer)}`, `    reference:      ${describeExpected(d.expected)}`)
  if (d.explanation !== undefined) out.push(`    why (the set's explanation): ${d.explanation}`)
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
  const none = report.uncategorised > 0 ? `${count(report.uncategorised)} disagreements have no category` : ''
  if (e.length === 0) return `Explained by: nothing (${none})`
  return `Explained by: ${named}: every disagreement${report.uncategorised > 0 ? ' with a category' : ''} is tagged with one of these${none ? `; ${none}` : ''}`
}

/** The timing lines. */
export function timingLines(report: Report): string[] {
  const t = report.totals
  const tm = report.timings
  const out = [
    `Timings: ${count(t.cases)} cases in ${ms(tm.runWallMs)} (${count(Math.round(tm.casesPerSecond))} cases/s); ` +
      `per case p50 ${ms(tm.p50Ms)}, p99 ${ms(tm.p99Ms)}, mean ${ms(tm.meanMs)} (${tm.caseTime})`,
  ]
  const r = tm.repeats
  if (r) {
    out.push(
      `  ${r.wallMs.length} passes: ${count(Math.round(r.casesPerSecond.median))} cases/s median, ` +
        `from ${count(Math.round(r.casesPerSecond.min))} to ${count(Math.round(r.casesPerSecond.max))}` +
        (r.unstable > 0 ? `; ${count(r.unstable)} answers changed between passes` : ''),
    )
  }
  if (tm.ceiling) out.push(`  harness ceiling: ${count(Math.round(tm.ceiling.casesPerSecond))} cases/s (a null adapter through the same protocol, ${count(tm.ceiling.cases)} cases)`)
  if (tm.startupMs !== undefined) out.push(`  start-up, measured alone on an empty robots.txt: ${ms(tm.startupMs)}${tm.startupSubtracted ? ' (taken off each case)' : ''}`)
  if (tm.parse) out.push(`  parse: ${count(tm.parse.bodies)} bodies, p50 ${ms(tm.parse.p50Ms)}, p99 ${ms(tm.parse.p99Ms)}`)
  const h = tm.harness
  out.push(`  harness: cases ${ms(h.casesMs)}, run ${ms(h.runCpuMs)} CPU, minimise ${ms(h.minimiseMs)}, report ${ms(h.reportMs)}`)
  return out
}

/** The last line: the gate's verdict, or the failure. */
export function resultLine(report: Report): string {
  const t = report.totals
  const other = report.score === 'lines' ? 'verdicts' : 'lines'
  const both =
    t.linesChecked === 0
      ? `${pct(t.scores.verdicts)} agreement on verdicts (the implementation gives no deciding lines)`
      : `${pct(t.agreement)} agreement on ${scoreWords(report.score)} (${pct(t.scores[other])} on ${scoreWords(other)})`
  if (report.failure) return `Result: the run stopped after ${count(t.cases)} cases (${both} so far): see above`
  const needed = report.minAgreement < 100 ? `--min-agreement ${report.minAgreement}` : '100% needed; --min-agreement P to relax'
  return `Result: ${both}: ${report.passed ? 'passed' : 'failed'} (${needed})`
}

/** The whole terminal report; `show` disagreements in full. */
export function renderTerminal(report: Report, show: number): string {
  const t = report.totals
  const lines = t.linesChecked > 0
  const out: string[] = [`${report.set}`, `  against ${report.adapter}`, '']
  if (report.failure) out.push(`✗ The run stopped: ${report.failure.message}`, `  (the counts below are those of the ${count(t.cases)} cases done)`, '')
  const header = ['category', 'cases', 'agree', 'verdict≠', 'line≠', 'errors', 'verdicts', 'lines', 'only']
  out.push(...table(header, report.categories.map((c) => cells(c.id, c, lines, c.only)), cells('all cases', t, lines)))
  out.push(`(verdicts, lines: agreement on verdicts alone, and on verdicts and lines; the headline counts ${scoreWords(report.score)}: --score)`)
  if (t.disagreements > 0) out.push('(only: the disagreements of a category that no other category of the explanation tags)')
  if (!lines) out.push('(the implementation gave no deciding lines: only verdicts were checked)')
  const explained = explanationLine(report)
  if (explained) out.push(explained)
  if (t.skipped > 0) out.push(`${count(t.skipped)} cases skipped: ${t.skippedWhy ?? ''}`)
  if (report.files) {
    const failing = report.files.filter((f) => f.agreement < 100)
    out.push('', `Files: ${count(report.files.length - failing.length)} of ${count(report.files.length)} pass every case`)
    if (failing.length > 0) out.push(...table(['file', 'cases', 'agree', 'agreement'], failing.map((f) => [f.file, count(f.cases), count(f.agreed), pct(f.agreement)])))
  }
  out.push('')
  if (t.disagreements > 0) {
    const n = Math.min(show, report.disagreements.length)
    out.push(
      (report.score === 'lines'
        ? `${count(t.disagreements)} disagreements (${count(t.verdict)} verdict, ${count(t.line)} line, ${count(t.errors)} errors)`
        : `${count(t.disagreements)} disagreements (${count(t.verdict)} verdict, ${count(t.errors)} errors; ${count(t.line)} line differences not counted: --score verdicts)`) +
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
    out.push(`Note: ${count(report.statedMismatchCount)} cases state an answer other than the reference's (first: ${report.statedMismatches[0].id}); the reference's is used.`)
  }
  out.push(resultLine(report))
  return out.join('\n') + '\n'
}
