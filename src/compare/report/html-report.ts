/**
 * `--html FILE`: the report as one self-contained page. No external
 * resource of any kind (a Content-Security-Policy forbids them): inline CSS,
 * an inline SVG chart of agreement per category, the tables, the timings,
 * and every listed disagreement as a `<details>` element. Everything taken
 * from the cases is escaped ({@link esc}).
 */
import { oneLine, visibleUrl } from '../case.js'
import { writeReport } from '../output-files.js'
import { printableLines } from '../../tools/printable.js'
import { count, pct, plural } from '../format.js'
import type { Report, ReportedBody, ReportedDisagreement, Tally } from './report-model.js'
import { baselineLines, bodyText, tallyRate, describeAnswer, describeExpected, evidenceLines, explanationLine, resultLine, sameAnswer, scoreWords, timingLines, whose } from './terminal-report.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text escaped for HTML content and attribute values; its controls, bidi
 * overrides, invisible characters and lone surrogates shown as `\xHH` or
 * `\u{HHHH}` (tabs and line feeds kept), as on a terminal: a reader sees
 * every character the value holds, in its order.
 */
export function esc(text: string): string {
  return printableLines(text).replace(/[&<>"']/g, (c) => ESCAPES[c])
}

/**
 * A value that is one line (an id, an agent, a category, a file name): as
 * {@link esc}, its tabs and line breaks shown as `\xHH` too, as the text
 * report shows them; a page would show them as spaces, another value.
 */
export function escLine(text: string): string {
  return esc(oneLine(text))
}

/** Lines of a case's body shown at most (the minimised body is shown whole). */
const SHOWN_LINES = 500

function body(d: ReportedBody | { robots?: string; robots_base64?: string }, maxLines = Infinity): string {
  const text = bodyText(d, 2000)
  if (text === '') return '<em>(empty robots.txt)</em>'
  const lines = text.split('\n')
  if (lines.length <= maxLines + 1) return esc(text)
  return `${esc(lines.slice(0, maxLines).join('\n'))}\n<em>… ${count(lines.length - maxLines)} more lines</em>`
}

/** The bar chart: one bar per category, agreement in percent. */
function chart(report: Report): string {
  const rows = [...report.categories, { id: 'all cases', agreement: report.totals.agreement, cases: report.totals.cases }]
  const labelWidth = 190
  const barWidth = 420
  const rowHeight = 22
  const height = rows.length * rowHeight + 24
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="agreement per category" width="${labelWidth + barWidth + 80}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 80} ${height}">`,
  ]
  rows.forEach((r, i) => {
    const y = i * rowHeight + 4
    const w = r.cases === 0 ? 0 : (barWidth * r.agreement) / 100
    const colour = r.agreement >= 100 ? '#2e7d32' : r.agreement >= 99 ? '#f9a825' : '#c62828'
    parts.push(
      `<g><title>${escLine(r.id)}: ${tallyRate(r)(r.agreement)} of ${count(r.cases)} cases</title>` +
        `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" font-size="12">${escLine(r.id)}</text>` +
        `<rect x="${labelWidth}" y="${y}" width="${barWidth}" height="${rowHeight - 6}" fill="#eee"/>` +
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${rowHeight - 6}" fill="${colour}"/>` +
        `<text x="${labelWidth + barWidth + 6}" y="${y + 14}" font-size="12">${tallyRate(r)(r.agreement)}</text></g>`,
    )
  })
  const axis = rows.length * rowHeight + 16
  for (const p of [0, 50, 100]) {
    parts.push(`<text x="${labelWidth + (barWidth * p) / 100}" y="${axis}" font-size="10" text-anchor="middle">${p}%</text>`)
  }
  parts.push('</svg>')
  return parts.join('\n')
}

function disagreement(d: ReportedDisagreement, original: ReportedBody): string {
  const agent = Array.isArray(d.agent) ? d.agent.join(', ') : d.agent
  const kind = d.outcome === 'verdict' ? 'verdict differs' : d.outcome === 'line' ? 'line differs' : 'error'
  const m = d.minimised
  return `<details class="disagreement ${d.outcome}">
<summary><code>${escLine(d.id)}</code> — ${kind} — ${d.categories.map((c) => `<span class="tag">${escLine(c)}</span>`).join(' ')}</summary>
<dl>
<dt>agent</dt><dd><code>${escLine(agent)}</code></dd>
<dt>URL</dt><dd><code>${esc(visibleUrl(d.url))}</code></dd>
${d.source !== undefined ? `<dt>robots.txt</dt><dd><code>${escLine(d.source)}</code></dd>` : ''}
<dt>implementation</dt><dd>${esc(describeAnswer(d.answer))}</dd>
<dt>reference</dt><dd>${esc(describeExpected(d.expected))}</dd>
<dt>RFC 9309</dt><dd>${esc(describeExpected(d.rfc))} <span class="tag">${escLine(d.standard)}</span></dd>
${d.explanation !== undefined ? `<dt>why</dt><dd class="why">${esc(d.explanation)}</dd>` : ''}
</dl>
${d.evidence ? `<h4>What the implementation gave</h4>\n<pre class="evidence">${esc(evidenceLines(d.evidence, 60).join('\n'))}</pre>` : ''}
${
  m
    ? `<h4>Minimised: ${m.linesBefore} → ${m.linesAfter} lines (${m.calls} adapter calls${m.complete ? '' : ', budget used up'})</h4>
<dl><dt>URL</dt><dd><code>${esc(visibleUrl(m.url))}</code></dd>
<dt>implementation</dt><dd>${esc(describeAnswer(m.answer))}</dd>
<dt>reference</dt><dd>${esc(describeExpected(m.expected))}</dd></dl>
<pre class="robots minimised">${body(m)}</pre>`
    : ''
}
<h4>robots.txt of the case</h4>
<pre class="robots">${body(original, SHOWN_LINES)}</pre>
</details>`
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; overflow-wrap: anywhere; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; } h4 { margin: .8em 0 .3em; font-size: 1em; }
table { border-collapse: collapse; } th, td { padding: .2em .7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; } tr.total td { font-weight: bold; border-top: 2px solid #888; }
td.bad { color: #c62828; } .pass { color: #2e7d32; } .fail { color: #c62828; }
details { border: 1px solid #ccc; border-radius: 4px; margin: .4em 0; padding: .3em .7em; }
details[open] { background: #fafafa; } summary { cursor: pointer; }
.tag { display: inline-block; background: #e3eaf3; border-radius: 3px; padding: 0 .35em; font-size: .85em; }
pre.robots, pre.evidence { background: #fff; border: 1px solid #ddd; padding: .5em; overflow-x: auto; max-height: 30em; }
dd.why { font-style: italic; }
dl { display: grid; grid-template-columns: 9em 1fr; margin: .3em 0; } dt { color: #666; } dd { margin: 0; }
`

/** The page. */
export function renderHtml(report: Report): string {
  const t = report.totals
  const lines = t.linesChecked > 0
  const cell = (n: number, bad = false): string => `<td${bad && n > 0 ? ' class="bad"' : ''}>${count(n)}</td>`
  const rowOf = (name: string, r: Tally, cls = '', title = '', only?: number): string =>
    `<tr${cls ? ` class="${cls}"` : ''}><td${title ? ` title="${esc(title)}"` : ''}>${escLine(name)}</td>${cell(r.cases)}${cell(r.agreed)}${cell(r.verdict, true)}` +
    `${lines ? cell(r.line, true) : '<td>-</td>'}${cell(r.errors, true)}<td>${tallyRate(r)(r.scores.verdicts)}</td><td>${tallyRate(r)(r.scores.lines)}</td>` +
    `<td>${tallyRate(r)(r.rfcScores[report.score])}</td><td>${only === undefined ? '' : count(only)}</td></tr>`
  const passed = report.passed ? 'pass' : 'fail'
  const explained = explanationLine(report)
  const files = report.files
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>robots.txt compare: ${t.cases ? `${pct(t.agreement)} agreement` : 'no case answered'}${report.failure ? ' (stopped)' : ''}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>robots.txt compare against the reference (google/robotstxt)</h1>
<p>${escLine(report.set)}<br>against <code>${escLine(report.adapter)}</code><br>${esc(report.date)} · ${esc(report.tool)}</p>
${report.failure ? `<p id="failure" class="fail"><strong>The run stopped:</strong> ${escLine(report.failure.message)}<br>The counts below are those of the ${plural(t.cases, 'case')} done.</p>\n${report.failure.stderr ? `<details><summary>the implementation's stderr (end)</summary><pre>${esc(report.failure.stderr)}</pre></details>` : ''}` : ''}
<p id="result"><strong class="${passed}">${esc(resultLine(report).replace(/^Result: /, ''))}</strong></p>
<p>${count(t.agreed)} of ${count(t.cases)} cases agree with the reference; ${count(t.verdict)} verdict and ${count(t.line)} line ${t.verdict + t.line === 1 ? 'disagreement' : 'disagreements'}, ${plural(t.errors, 'error')}${t.skipped ? `; ${plural(t.skipped, 'case')} skipped (${esc(t.skippedWhy ?? '')})` : ''}. With RFC 9309: ${count(t.rfcAgreed)} agree (${tallyRate(t)(t.rfcScores[report.score])}). The headline counts ${scoreWords(report.score)} against ${esc(whose(report.semantics))}.${sameAnswer(report) ? ` <strong>${sameAnswer(report)}.</strong>` : ''}</p>
${report.baseline ? `<ul id="baseline">${baselineLines(report, 50).map((l) => `<li>${esc(l.trim())}</li>`).join('')}</ul>` : ''}
<h2>Agreement per category</h2>
<figure id="chart">${chart(report)}</figure>
<table id="categories">
<thead><tr><th>category</th><th>cases</th><th>agree</th><th>verdict ≠</th><th>line ≠</th><th>errors</th><th>verdicts</th><th>lines</th><th title="agreement with RFC 9309's answers, under the headline's score">RFC 9309</th><th title="disagreements no other category of the explanation, at least half as precise, tags">only</th></tr></thead>
<tbody>
${report.categories.map((c) => rowOf(c.id, c, '', c.description, c.only)).join('\n')}
${rowOf('all cases', t, 'total')}
</tbody>
</table>
${lines ? '' : '<p>The implementation gave no deciding lines: only verdicts were checked.</p>'}
${
  report.standards.length > 0
    ? `<h2>Standards</h2>
<p>rfc: the reference's answer follows RFC 9309 alone; google-specific: it rests on Google's behaviour beyond the RFC; rfc-differs: RFC 9309 answers otherwise.</p>
<table id="standards"><thead><tr><th>standard</th><th>cases</th><th>reference</th><th>RFC 9309</th></tr></thead><tbody>
${report.standards.map((x) => `<tr><td>${escLine(x.id)}</td>${cell(x.cases)}<td>${pct(x.scores[report.score])}</td><td>${pct(x.rfcScores[report.score])}</td></tr>`).join('\n')}
</tbody></table>`
    : ''
}
${explained ? `<p id="explanation">${esc(explained)}</p>` : ''}
${
  files
    ? `<h2>Files</h2>
<table id="files">
<thead><tr><th>file</th><th>cases</th><th>agree</th><th>agreement</th></tr></thead>
<tbody>
${files.map((f) => `<tr><td>${escLine(f.file)}</td>${cell(f.cases)}${cell(f.agreed)}<td${f.agreement < 100 ? ' class="bad"' : ''}>${pct(f.agreement)}</td></tr>`).join('\n')}
</tbody>
</table>`
    : ''
}
<h2>Timings</h2>
<ul id="timings">
${timingLines(report).map((l) => `<li>${esc(l.trim())}</li>`).join('\n')}
</ul>
<h2>Disagreements (${count(t.disagreements)})</h2>
<section id="disagreements">
${report.disagreements.length === 0 ? '<p>None.</p>' : report.disagreements.map((d) => disagreement(d, report.bodies[d.robots_sha1])).join('\n')}
${report.unlisted > 0 ? `<p>… and ${count(report.unlisted)} more, not listed.</p>` : ''}
</section>
</body>
</html>
`
}

/** Writes the page to `file`. */
export async function writeHtmlReport(report: Report, file: string): Promise<void> {
  await writeReport(file, renderHtml(report))
}
