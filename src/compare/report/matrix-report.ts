/**
 * The leaderboard of `compare --matrix`: agreement per implementation × case
 * set (the headline score, the other in brackets), start-up and throughput,
 * then agreement per category for each set; as terminal text, Markdown, a
 * self-contained HTML page and JSON lines. Each output names the date, the
 * tool, the versions and the command that produced it.
 */
import { CATEGORY_ORDER } from '../categories.js'
import type { Matrix, MatrixCell } from '../matrix.js'
import { esc } from './html-report.js'
import { count, ms } from '../format.js'

/** A percentage with one decimal (`97.0`). */
function p1(v: number): string {
  return v.toFixed(1)
}

/** A cell's agreement: the headline score, and the other in brackets when lines were compared. */
function agreementCell(c: MatrixCell, score: Matrix['score']): string {
  if (c.skipped) return '–'
  const t = c.totals!
  if (c.failure && t.cases === 0) return '✗'
  const other = score === 'lines' ? 'verdicts' : 'lines'
  const text = t.linesChecked > 0 ? `${p1(t.scores[score])} (${p1(t.scores[other])})` : p1(t.scores[score])
  return c.failure ? `${text} ✗` : text
}

/** The set's short name: `spec-test:…/CTC` → `spec-test`. */
export function setName(set: string): string {
  return set.startsWith('spec-test:') ? 'spec-test' : set.endsWith('.jsonl') ? set.slice(set.lastIndexOf('/') + 1) : set
}

/** The tables as rows of cells: agreement, timing, then per set the categories. */
interface Tables {
  readonly overview: { header: string[]; rows: string[][] }
  readonly timing: { header: string[]; rows: string[][] }
  readonly perSet: { set: string; header: string[]; rows: string[][] }[]
  readonly notes: string[]
}

function tables(m: Matrix): Tables {
  const notes: string[] = []
  const rows = m.rows.map((r) => {
    for (const c of r.cells) {
      if (c.failure) notes.push(`${r.name} on ${setName(c.set)}: ${c.failure}`)
      if (c.skipped && c === r.cells[0]) notes.push(`${r.name}: ${c.skipped}`)
    }
    if (r.note) notes.push(`${r.name}: ${r.note}`)
    return [r.name, r.version || '–', ...m.sets.map((_, i) => (r.cells[i] ? agreementCell(r.cells[i], m.score) : '–'))]
  })
  const header = ['implementation', 'version', ...m.sets.map((s) => `${setName(s)} (${cases(m, s)})`)]
  // Timing: cases/s per set (with the harness's ceiling for --batch), and the start-up (the same process for every set: the first set's).
  const timingHeader = ['implementation', 'start-up', ...m.sets.map((s) => `${setName(s)}: cases/s (ceiling)`)]
  const timingRows = m.rows.map((r) => {
    const first = r.cells.find((c) => c.timings?.startupMs !== undefined)
    return [
      r.name,
      first ? ms(first.timings!.startupMs!) : '–',
      ...m.sets.map((_, i) => {
        const t = r.cells[i]?.timings
        if (!t || r.cells[i].failure) return '–'
        return count(Math.round(t.casesPerSecond)) + (t.ceiling ? ` (${count(Math.round(t.ceiling.casesPerSecond))})` : '')
      }),
    ]
  })
  const perSet = m.sets.map((set, i) => {
    const ids = new Set<string>()
    for (const r of m.rows) for (const c of r.cells[i]?.categories ?? []) ids.add(c.id)
    const sorted = [...ids].sort((a, b) => (CATEGORY_ORDER.get(a) ?? 999) - (CATEGORY_ORDER.get(b) ?? 999) || (a < b ? -1 : 1))
    const caseCount = new Map<string, number>()
    for (const r of m.rows) for (const c of r.cells[i]?.categories ?? []) caseCount.set(c.id, Math.max(caseCount.get(c.id) ?? 0, c.cases))
    return {
      set,
      header: ['category', 'cases', ...m.rows.map((r) => r.name)],
      rows: sorted.map((id) => [
        id,
        count(caseCount.get(id) ?? 0),
        ...m.rows.map((r) => {
          const c = r.cells[i]?.categories?.find((x) => x.id === id)
          return c ? p1(c.agreement) : '–'
        }),
      ]),
    }
  })
  return { overview: { header, rows }, timing: { header: timingHeader, rows: timingRows }, perSet, notes }
}

function cases(m: Matrix, set: string): string {
  const i = m.sets.indexOf(set)
  let n = 0
  for (const r of m.rows) n = Math.max(n, r.cells[i]?.totals?.cases ?? 0)
  return count(n)
}

function scoreNote(m: Matrix): string {
  return m.score === 'lines'
    ? 'agreement in % on verdicts and deciding lines (on verdicts alone in brackets, where the implementation reports lines)'
    : 'agreement in % on verdicts alone (on verdicts and lines in brackets, where the implementation reports lines)'
}

/** What the timing table holds. */
const TIMING_NOTE =
  "the start-up (measured alone) and the cases/s of each set, with in brackets for --batch the harness's ceiling (a null adapter's cases/s through the same protocol); one run: on a busy machine, read as upper bounds"

function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)]
}

/** The matrix as terminal text. */
export function renderMatrixText(m: Matrix): string {
  const t = tables(m)
  const out = [`Leaderboard: ${scoreNote(m)}`, `${m.date} · ${m.tool}`, `command: ${m.command}`, '', ...textTable(t.overview.header, t.overview.rows)]
  out.push('', `Timing: ${TIMING_NOTE}`, ...textTable(t.timing.header, t.timing.rows))
  for (const s of t.perSet) out.push('', `${setName(s.set)}: agreement per category (${m.setDescriptions[m.sets.indexOf(s.set)]})`, ...textTable(s.header, s.rows))
  if (t.notes.length > 0) out.push('', ...t.notes.map((n) => `note: ${n}`))
  return out.join('\n') + '\n'
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.map(mdCell).join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)]
}

/** The matrix as Markdown: the date, tool and command, the agreement table and notes, the timing table, per set the categories. */
export function renderMatrixMarkdown(m: Matrix): string {
  const t = tables(m)
  const out = [
    `Produced ${m.date.slice(0, 10)} by ${m.tool} with:`,
    '',
    '```sh',
    m.command,
    '```',
    '',
    `**Agreement** in % ${scoreNote(m).replace(/^agreement in % /, '')}:`,
    '',
    ...mdTable(t.overview.header, t.overview.rows),
  ]
  if (t.notes.length > 0) out.push('', ...t.notes.map((n) => `- ${mdCell(n)}`))
  out.push('', `**Timing**: ${TIMING_NOTE}.`, '', ...mdTable(t.timing.header, t.timing.rows))
  for (const s of t.perSet) out.push('', `**${mdCell(setName(s.set))}**: agreement per category (${mdCell(m.setDescriptions[m.sets.indexOf(s.set)])})`, '', ...mdTable(s.header, s.rows))
  return out.join('\n') + '\n'
}

/** The matrix as JSON lines: one object per implementation × set × category (`category: null` for all cases). */
export function renderMatrixLines(m: Matrix): string {
  const lines: string[] = []
  for (const r of m.rows) {
    for (const c of r.cells) {
      const base = { implementation: r.name, version: r.version, set: c.set }
      if (c.skipped) {
        lines.push(JSON.stringify({ ...base, category: null, skipped: c.skipped }))
        continue
      }
      const t = c.totals!
      lines.push(
        JSON.stringify({
          ...base,
          category: null,
          cases: t.cases,
          agreement: t.scores,
          casesPerSecond: c.timings?.casesPerSecond,
          startupMs: c.timings?.startupMs,
          ...(c.timings?.ceiling ? { ceilingCasesPerSecond: c.timings.ceiling.casesPerSecond } : {}),
          ...(c.failure ? { failure: c.failure } : {}),
        }),
      )
      for (const k of c.categories ?? []) lines.push(JSON.stringify({ ...base, category: k.id, cases: k.cases, agreement: k.scores }))
    }
  }
  return lines.join('\n') + '\n'
}

/** The matrix as one self-contained page (no external resource; everything escaped). */
export function renderMatrixHtml(m: Matrix): string {
  const t = tables(m)
  const shade = (text: string): string => {
    const v = Number.parseFloat(text)
    if (!Number.isFinite(v)) return ''
    return v >= 100 ? ' class="full"' : v >= 95 ? ' class="high"' : v >= 80 ? ' class="mid"' : ' class="low"'
  }
  const table = (id: string, header: readonly string[], rows: readonly (readonly string[])[], shaded: (i: number) => boolean): string =>
    `<table id="${id}"><thead><tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>\n` +
    rows.map((r) => `<tr>${r.map((c, i) => `<td${shaded(i) ? shade(c) : ''}>${esc(c)}</td>`).join('')}</tr>`).join('\n') +
    '\n</tbody></table>'
  const n = m.sets.length
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>robots.txt leaderboard</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1.5em; } th, td { padding: .2em .6em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; } td.full { background: #c8e6c9; } td.high { background: #fff9c4; }
td.mid { background: #ffe0b2; } td.low { background: #ffcdd2; } code { background: #f3f3f3; padding: 0 .3em; }
</style>
</head>
<body>
<h1>robots.txt leaderboard: agreement with google/robotstxt</h1>
<p>${esc(m.date)} · ${esc(m.tool)}<br>command: <code>${esc(m.command)}</code></p>
<p>${esc(scoreNote(m))}.</p>
${table('overview', t.overview.header, t.overview.rows, (i) => i >= 2 && i < 2 + n)}
${t.notes.length > 0 ? `<ul id="notes">${t.notes.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}
<h2>Timing</h2>
<p>${esc(TIMING_NOTE)}.</p>
${table('timing', t.timing.header, t.timing.rows, () => false)}
${t.perSet.map((s, i) => `<h2>${esc(setName(s.set))}: agreement per category</h2>\n<p>${esc(m.setDescriptions[i])}</p>\n${table(`set-${i}`, s.header, s.rows, (k) => k >= 2)}`).join('\n')}
</body>
</html>
`
}
