/**
 * The leaderboard of `compare --matrix`: implementations ranked on their
 * verdicts (the mean over the sets of the agreement on verdicts, against the
 * run's semantics), with, per set, verdicts, lines, errors and RFC 9309 as
 * columns of their own; start-up and throughput; then agreement per category
 * for each set. As terminal text, Markdown, a self-contained HTML page (that
 * fits 1,280 px) and JSON lines. Each output names the date, the tool, the
 * versions and the command that produced it.
 */
import { CATEGORY_ORDER } from '../categories.js'
import type { Matrix, MatrixCell, MatrixRow } from '../matrix.js'
import { escLine } from './html-report.js'
import { oneLine } from '../case.js'
import { jsonLine, printable } from '../../tools/printable.js'
import { count, ms } from '../format.js'

/** A percentage with one decimal (`97.0`). */
function p1(v: number): string {
  return v.toFixed(1)
}

/** The set's short name: `spec-test:…/CTC` → `spec-test`. */
export function setName(set: string): string {
  return set.startsWith('spec-test:') ? 'spec-test' : set.endsWith('.jsonl') ? set.slice(set.lastIndexOf('/') + 1) : set
}

/** The columns of a set in the overview. */
const SET_COLUMNS = ['verdicts', 'lines', 'errors', 'RFC 9309'] as const

/** A cell's verdict agreement under the matrix's semantics, or undefined when it did not run. */
function verdicts(c: MatrixCell | undefined, m: Matrix): number | undefined {
  const t = c?.totals
  if (!t || t.cases === 0) return undefined
  return m.semantics === 'rfc' ? t.rfcScores.verdicts : t.scores.verdicts
}

/**
 * A cell's four columns: agreement on verdicts (against the reference),
 * on verdicts and lines where the implementation gives lines (a line that
 * differs only by the line-convention category counted as agreeing), the
 * share of errors (refusals, crashes, time-outs), and agreement on verdicts
 * with RFC 9309.
 */
function setCells(c: MatrixCell | undefined): string[] {
  if (!c || c.skipped) return ['–', '–', '–', '–']
  const t = c.totals!
  if (t.cases === 0) return [c.failure ? '✗' : '–', '–', '–', '–']
  const pct = (n: number): number => (100 * n) / t.cases
  const convention = c.categories?.find((k) => k.id === 'line-convention')?.line ?? 0
  const lines = t.linesChecked > 0 ? p1(pct(t.agreed + convention)) : '–'
  return [p1(t.scores.verdicts) + (c.failure ? ' ✗' : ''), lines, p1(pct(t.errors)), p1(t.rfcScores.verdicts)]
}

/** The rows in rank order: the mean verdict agreement over the sets that ran, highest first; rows that ran on none or failed (a score of the cases done) last, unranked. */
export function rankedRows(m: Matrix): { row: MatrixRow; score: number | undefined }[] {
  const scored = m.rows.map((row, i) => {
    const vs = row.cells.map((c) => verdicts(c, m)).filter((v): v is number => v !== undefined)
    const ranked = vs.length > 0 && !row.cells.some((c) => c.failure)
    return { row, i, score: ranked ? vs.reduce((a, b) => a + b, 0) / vs.length : undefined }
  })
  scored.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.i - b.i)
  return scored.map(({ row, score }) => ({ row, score }))
}

/** The tables as rows of cells: the ranking, timing, then per set the categories. */
interface Tables {
  readonly overview: { header: string[]; group: string[]; rows: string[][] }
  readonly timing: { header: string[]; rows: string[][] }
  readonly perSet: { index: number; set: string; header: string[]; rows: string[][] }[]
  readonly notes: string[]
}

function tables(m: Matrix): Tables {
  const notes: string[] = []
  const ranked = rankedRows(m)
  const rows = ranked.map(({ row: r, score }, k) => {
    for (const c of r.cells) {
      if (c.failure) notes.push(`${r.name} on ${setName(c.set)}: ${c.failure}`)
      if (c.skipped && c === r.cells[0]) notes.push(`${r.name}: ${c.skipped}`)
    }
    if (r.note) notes.push(`${r.name}: ${r.note}`)
    return [score === undefined ? '–' : String(k + 1), r.name, r.version || '–', r.needs ?? '', ...m.sets.flatMap((_, i) => setCells(r.cells[i]))]
  })
  const header = ['#', 'implementation', 'version', 'needs', ...m.sets.flatMap(() => [...SET_COLUMNS])]
  const group = ['', '', '', '', ...m.sets.flatMap((s, i) => [`${setName(s)} (${cases(m, i)})`, '', '', ''])]
  // Timing: cases/s per set (with the harness's ceiling for --batch), and the start-up (the same process for every set: the first set's).
  const timingHeader = ['implementation', 'start-up', ...m.sets.map((s) => `${setName(s)}: cases/s (ceiling)`)]
  const timingRows = ranked.map(({ row: r }) => {
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
      index: i,
      set,
      header: ['category', 'cases', ...ranked.map(({ row: r }) => r.name)],
      rows: sorted.map((id) => [
        id,
        count(caseCount.get(id) ?? 0),
        ...ranked.map(({ row: r }) => {
          const c = r.cells[i]?.categories?.find((x) => x.id === id)
          return c ? p1(m.semantics === 'rfc' ? c.rfcScores.verdicts : c.scores.verdicts) : '–'
        }),
      ]),
    }
  })
  return { overview: { header, group, rows }, timing: { header: timingHeader, rows: timingRows }, perSet, notes }
}

function cases(m: Matrix, i: number): string {
  let n = 0
  for (const r of m.rows) n = Math.max(n, r.cells[i]?.totals?.cases ?? 0)
  return count(n)
}

function scoreNote(m: Matrix): string {
  const whose = m.semantics === 'rfc' ? "RFC 9309's answers" : "the reference's (google/robotstxt)"
  return (
    `ranked on verdicts: the mean over the sets of the agreement on verdicts with ${whose}. Per set, in %: verdicts, agreement on verdicts with the reference; ` +
    'lines, on verdicts and deciding lines, where the implementation reports lines (the line of an empty Disallow: or Allow: that decided nothing, a convention, apart); ' +
    "errors, cases given no answer (refusals, crashes, time-outs); RFC 9309, agreement on verdicts with RFC 9309's answers (docs/semantics.md)"
  )
}

/** What the timing table holds. */
const TIMING_NOTE =
  "the start-up (measured alone) and the cases/s of each set, with in brackets for --batch the harness's ceiling (a null adapter's cases/s through the same protocol); one run: on a busy machine, read as upper bounds"

function textTable(header: readonly string[], rows: readonly (readonly string[])[], left = 1): string[] {
  const shown = rows.map((r) => r.map(oneLine))
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i].length)))
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
  return [line(header.map(oneLine)), line(widths.map((w) => '─'.repeat(w))), ...shown.map(line)]
}

/** The header of a set's columns as one row above the table's header (text and Markdown). */
function setsLine(t: Tables): string {
  return t.overview.group.filter((g) => g !== '').map((g, i) => `${i === 0 ? '' : ' · '}${g}`).join('')
}

/** The matrix as terminal text, each value on its line ({@link oneLine}). */
export function renderMatrixText(m: Matrix): string {
  const t = tables(m)
  const out = [`Leaderboard: ${scoreNote(m)}`, `${m.date} · ${m.tool}`, `command: ${m.command}`, '', `sets, 4 columns each: ${setsLine(t)}`, ...textTable(t.overview.header, t.overview.rows, 4)]
  out.push('', `Timing: ${TIMING_NOTE}`, ...textTable(t.timing.header, t.timing.rows))
  for (const s of t.perSet) out.push('', `${setName(s.set)}: agreement on verdicts per category (${m.setDescriptions[s.index]})`, ...textTable(s.header, s.rows))
  if (t.notes.length > 0) out.push('', ...t.notes.map((n) => `note: ${n}`))
  return out.map(oneLine).join('\n') + '\n'
}

/**
 * Text for a Markdown table cell or list item: shown as written, never read
 * as markup. Controls, line breaks, bidi overrides and invisible characters
 * are shown as on a terminal (`\xHH`, `\u{HHHH}`); the characters of inline
 * markup (`\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~`) are escaped with a
 * backslash, `&`, `<`, `>` written as entities (a name of `<img src=…>` or
 * `__proto__` is text, not an image or bold).
 */
function mdCell(text: string): string {
  return printable(text)
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** Text for a Markdown list item: {@link mdCell}, and a start that would open a heading or a list (`# `, `- `, `1. `) escaped. */
function mdItem(text: string): string {
  return mdCell(text).replace(/^(#{1,6}|[-+]|\d{1,9}[.)])(?=[ \t]|$)/, (m) => `${m.slice(0, -1)}\\${m.slice(-1)}`)
}

/** A code fence longer than any run of backticks in `text`, so that the text cannot close it. */
function fence(text: string): string {
  let longest = 0
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  return '`'.repeat(Math.max(3, longest + 1))
}

function mdTable(header: readonly string[], rows: readonly (readonly string[])[], left = 1): string[] {
  return [`| ${header.map(mdCell).join(' | ')} |`, `| ${header.map((_, i) => (i < left ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)]
}

/** The matrix as Markdown: the date, tool and command, the agreement table and notes, the timing table, per set the categories. */
export function renderMatrixMarkdown(m: Matrix): string {
  const t = tables(m)
  const command = printable(m.command)
  const out = [
    `Produced ${m.date.slice(0, 10)} by ${m.tool} with:`,
    '',
    `${fence(command)}sh`,
    command,
    fence(command),
    '',
    `**Leaderboard**, ${scoreNote(m)}.`,
    '',
    `Sets, four columns each: ${mdCell(setsLine(t))}.`,
    '',
    ...mdTable(
      t.overview.header.map((h, i) => (t.overview.group[i] ? `${t.overview.group[i]}: ${h}` : h)),
      t.overview.rows,
      4,
    ),
  ]
  if (t.notes.length > 0) out.push('', ...t.notes.map((n) => `- ${mdItem(n)}`))
  out.push('', `**Timing**: ${TIMING_NOTE}.`, '', ...mdTable(t.timing.header, t.timing.rows))
  for (const s of t.perSet) out.push('', `**${mdCell(setName(s.set))}**: agreement on verdicts per category (${mdCell(m.setDescriptions[s.index])})`, '', ...mdTable(s.header, s.rows))
  return out.join('\n') + '\n'
}

/** The matrix as JSON lines: one object per implementation × set × category (`category: null` for all cases). */
export function renderMatrixLines(m: Matrix): string {
  const lines: string[] = []
  for (const r of m.rows) {
    for (const c of r.cells) {
      const base = { implementation: r.name, version: r.version, set: c.set }
      if (c.skipped) {
        lines.push(jsonLine({ ...base, category: null, skipped: c.skipped }))
        continue
      }
      const t = c.totals!
      lines.push(
        jsonLine({
          ...base,
          category: null,
          cases: t.cases,
          agreement: t.scores,
          rfcAgreement: t.rfcScores,
          errors: t.errors,
          linesChecked: t.linesChecked,
          casesPerSecond: c.timings?.casesPerSecond,
          startupMs: c.timings?.startupMs,
          ...(c.timings?.ceiling ? { ceilingCasesPerSecond: c.timings.ceiling.casesPerSecond } : {}),
          ...(c.failure ? { failure: c.failure } : {}),
        }),
      )
      for (const k of c.categories ?? []) lines.push(jsonLine({ ...base, category: k.id, cases: k.cases, agreement: k.scores, rfcAgreement: k.rfcScores }))
    }
  }
  return lines.join('\n') + '\n'
}

/** The matrix as one self-contained page (no external resource; everything escaped; within 1,280 px). */
export function renderMatrixHtml(m: Matrix): string {
  const t = tables(m)
  const shade = (text: string): string => {
    const v = Number.parseFloat(text)
    if (!Number.isFinite(v)) return ''
    return v >= 100 ? ' class="full"' : v >= 95 ? ' class="high"' : v >= 80 ? ' class="mid"' : ' class="low"'
  }
  const table = (id: string, header: readonly string[], rows: readonly (readonly string[])[], shaded: (i: number) => boolean, group?: readonly string[]): string => {
    const groupRow = group
      ? `<tr>${group.map((g, i) => (i < 4 ? (i === 0 ? '<th colspan="4"></th>' : '') : g !== '' ? `<th colspan="4" class="set">${escLine(g)}</th>` : '')).join('')}</tr>`
      : ''
    return (
      `<table id="${id}"><thead>${groupRow}<tr>${header.map((h) => `<th>${escLine(h)}</th>`).join('')}</tr></thead><tbody>\n` +
      rows.map((r) => `<tr>${r.map((c, i) => `<td${shaded(i) ? shade(c) : ''}>${escLine(c)}</td>`).join('')}</tr>`).join('\n') +
      '\n</tbody></table>'
    )
  }
  // Shaded: the verdicts, lines and RFC columns (not the errors).
  const overviewShaded = (i: number): boolean => i >= 4 && (i - 4) % 4 !== 2
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>robots.txt leaderboard</title>
<style>
* { box-sizing: border-box; }
body { font: 13px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1240px; padding: 0 10px; color: #222; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .5em 0 1.5em; max-width: 100%; table-layout: auto; }
th, td { padding: .15em .35em; border-bottom: 1px solid #ddd; text-align: right; }
th { font-weight: 600; font-size: 12px; vertical-align: bottom; max-width: 7em; word-break: break-word; }
th.set { text-align: center; border-bottom: 2px solid #888; max-width: none; }
th:first-child, td:first-child { text-align: left; } td.full { background: #c8e6c9; } td.high { background: #fff9c4; }
td.mid { background: #ffe0b2; } td.low { background: #ffcdd2; } code { background: #f3f3f3; padding: 0 .3em; word-break: break-all; }
#overview td:nth-child(2), #overview th:nth-child(2) { text-align: left; } #overview td:nth-child(4) { text-align: left; font-size: 12px; max-width: 11em; }
.perset th { max-width: 5.5em; }
</style>
</head>
<body>
<h1>robots.txt leaderboard: agreement with google/robotstxt and RFC 9309</h1>
<p>${escLine(m.date)} · ${escLine(m.tool)}<br>command: <code>${escLine(m.command)}</code></p>
<p>${escLine(scoreNote(m))}.</p>
${table('overview', t.overview.header, t.overview.rows, overviewShaded, t.overview.group)}
${t.notes.length > 0 ? `<ul id="notes">${t.notes.map((x) => `<li>${escLine(x)}</li>`).join('')}</ul>` : ''}
<h2>Timing</h2>
<p>${escLine(TIMING_NOTE)}.</p>
${table('timing', t.timing.header, t.timing.rows, () => false)}
${t.perSet.map((s) => `<h2>${escLine(setName(s.set))}: agreement on verdicts per category</h2>\n<p>${escLine(m.setDescriptions[s.index])}</p>\n<div class="perset">${table(`set-${s.index}`, s.header, s.rows, (k) => k >= 2)}</div>`).join('\n')}
</body>
</html>
`
}
