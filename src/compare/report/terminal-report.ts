/**
 * The terminal report of `compare`: the per-category table, the first
 * disagreements with the reference's deciding rule and their minimised form,
 * timings and the verdict of the gate.
 */
import { visibleBytes, visibleUrl } from '../case.js'
import { count, ms, pct } from './report-format.js'
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

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
}

function cells(name: string, t: Tally, lines: boolean): string[] {
  return [name, count(t.cases), count(t.agreed), count(t.verdict), lines ? count(t.line) : '-', count(t.errors), pct(t.agreement)]
}

/** One disagreement as a few lines; `body`: the case's body. */
export function describeDisagreement(d: ReportedDisagreement, body: ReportedBody): string {
  const agent = Array.isArray(d.agent) ? d.agent.join(', ') : d.agent
  const out = [
    `✗ ${d.id}  (${d.outcome === 'verdict' ? 'verdict differs' : d.outcome === 'line' ? 'line differs' : 'error'})  [${d.categories.join(', ') || 'no category'}]`,
    `    agent: ${agent}    url: ${visibleUrl(d.url)}`,
    `    implementation: ${describeAnswer(d.answer)}`,
    `    reference:      ${describeExpected(d.expected)}`,
  ]
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

/** The whole terminal report; `show` disagreements in full. */
export function renderTerminal(report: Report, show: number): string {
  const t = report.totals
  const lines = t.linesChecked > 0
  const out: string[] = []
  out.push(`${report.set}`)
  out.push(`  against ${report.adapter}`)
  out.push('')
  const header = ['category', 'cases', 'agree', 'verdict≠', 'line≠', 'errors', 'agreement']
  const body = report.categories.map((c) => cells(c.id, c, lines))
  const all = cells('all cases', t, lines)
  const widths = header.map((h, i) => Math.max(h.length, all[i].length, ...body.map((b) => b[i].length)))
  out.push(row(header, widths))
  for (const b of body) out.push(row(b, widths))
  out.push(row(widths.map((w) => '─'.repeat(w)), widths))
  out.push(row(all, widths))
  if (!lines) out.push('(the implementation gave no deciding lines: only verdicts were checked)')
  if (t.skipped > 0) out.push(`${count(t.skipped)} cases skipped: ${t.skippedWhy ?? ''}`)
  out.push('')
  if (t.disagreements > 0) {
    const n = Math.min(show, report.disagreements.length)
    out.push(
      `${count(t.disagreements)} disagreements (${count(t.verdict)} verdict, ${count(t.line)} line, ${count(t.errors)} errors)` +
        (n > 0 ? `; ${n === t.disagreements ? 'all' : `the first ${n}, one of each kind first`}:` : ''),
    )
    for (const d of report.disagreements.slice(0, n)) {
      out.push('')
      out.push(describeDisagreement(d, report.bodies[d.robots_sha1]))
    }
    if (t.disagreements > n) out.push(`\n… ${count(t.disagreements - n)} more (--show N, or --json / --html for up to 1,000)`)
    out.push('')
  }
  const tm = report.timings
  out.push(
    `Timings: ${count(t.cases)} cases in ${ms(tm.runWallMs)} (${count(Math.round(tm.casesPerSecond))} cases/s); ` +
      `per case p50 ${ms(tm.p50Ms)}, p99 ${ms(tm.p99Ms)}, mean ${ms(tm.meanMs)} (${tm.caseTime})`,
  )
  if (tm.startupMs !== undefined) out.push(`  start-up, measured alone on an empty robots.txt: ${ms(tm.startupMs)}`)
  if (tm.parse) out.push(`  parse: ${count(tm.parse.bodies)} bodies, p50 ${ms(tm.parse.p50Ms)}, p99 ${ms(tm.parse.p99Ms)}`)
  const h = tm.harness
  out.push(`  harness: cases ${ms(h.casesMs)}, run ${ms(h.runCpuMs)} CPU, minimise ${ms(h.minimiseMs)}, report ${ms(h.reportMs)}`)
  if (report.statedMismatchCount > 0) {
    out.push(`Note: ${count(report.statedMismatchCount)} cases state an answer other than the reference's (first: ${report.statedMismatches[0].id}); the reference's is used.`)
  }
  const needed = report.minAgreement < 100 ? `--min-agreement ${report.minAgreement}` : '100% needed; --min-agreement P to relax'
  out.push(`Result: ${pct(t.agreement)} agreement: ${report.passed ? 'passed' : 'failed'} (${needed})`)
  return out.join('\n') + '\n'
}
