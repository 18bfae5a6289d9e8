/**
 * The results table of the tester page: one row per URL (or, comparing two
 * versions, per URL whose verdict changes), a page of rows at a time so
 * that 10,000 URLs stay cheap; a row's line button selects it, which
 * highlights its deciding line in the editor.
 */
import type { Change, CrawlersChange, Verdict } from './judge.js'

/** Rows drawn at a time with one crawler ("Show more" draws the next ones). */
export const PAGE_ROWS = 200

/** Crawler cells drawn at a time: with several crawlers, a page holds this many over its rows (at least one row). */
export const PAGE_CELLS = 2 * PAGE_ROWS

/** Rows drawn at a time for `rows`: fewer as there are more crawlers, so that a page costs what one crawler's costs. */
export function pageRows(rows: Rows): number {
  return rows.kind === 'single' || rows.kind === 'diff' ? PAGE_ROWS : Math.max(1, Math.floor(PAGE_CELLS / Math.max(1, rows.names.length)))
}

/**
 * What the table shows: verdicts of one robots.txt, or the changes between
 * two; with several crawlers, a column per crawler (`names`).
 */
export type Rows =
  | { kind: 'single'; verdicts: Verdict[] }
  | { kind: 'diff'; changes: Change[] }
  | { kind: 'crawlers'; names: string[]; rows: Verdict[][] }
  | { kind: 'crawlers-diff'; names: string[]; changes: CrawlersChange[] }

/** One row of any kind. */
type Row = Verdict | Change | Verdict[] | CrawlersChange

function cell(row: HTMLTableRowElement, text: string, className?: string): HTMLTableCellElement {
  const td = row.insertCell()
  td.textContent = text
  if (className) td.className = className
  return td
}

export class ResultsView {
  private rows: Rows = { kind: 'single', verdicts: [] }
  private shown = 0
  private selected = -1
  /** The crawler (column) whose line button selected the row, with several crawlers. */
  private crawler = 0

  constructor(
    private readonly body: HTMLTableSectionElement,
    private readonly head: HTMLTableSectionElement,
    private readonly caption: HTMLElement,
    private readonly more: HTMLButtonElement,
    /** Called with the index of the row selected (by its button, or at a new result). */
    private readonly onSelect: (index: number) => void,
  ) {
    more.addEventListener('click', () => this.drawMore())
    body.addEventListener('click', (e) => {
      const button = (e.target as Element).closest('button[data-index]')
      if (button instanceof HTMLButtonElement) this.select(Number(button.dataset.index), Number(button.dataset.crawler ?? 0))
    })
  }

  get length(): number {
    return this.list().length
  }

  /** The crawler whose cell was selected last (0 with one crawler). */
  get selectedCrawler(): number {
    return this.crawler
  }

  private list(): readonly Row[] {
    const r = this.rows
    return r.kind === 'single' ? r.verdicts : r.kind === 'crawlers' ? r.rows : r.changes
  }

  /** Shows `rows`, keeping the selection on the same URL when it is still there (else the first row). */
  show(rows: Rows): void {
    const url = this.selectedUrl()
    this.rows = rows
    this.shown = 0
    this.body.replaceChildren()
    this.head.replaceChildren()
    const h = this.head.insertRow()
    const titles =
      rows.kind === 'single'
        ? ['Verdict', 'URL', 'Deciding rule']
        : rows.kind === 'diff'
          ? ['Change', 'URL', 'Old rule', 'New rule']
          : ['URL', ...rows.names]
    for (const t of titles) {
      const th = document.createElement('th')
      th.scope = 'col'
      th.textContent = t
      h.append(th)
    }
    this.caption.textContent =
      rows.kind === 'single'
        ? 'Each URL with its verdict and the rule that decided it; a line button highlights that line in the editor.'
        : rows.kind === 'diff'
          ? 'The URLs whose verdict changes from the old version to the new one, with the deciding rule on each side.'
          : rows.kind === 'crawlers'
            ? 'Each URL with every crawler\'s verdict and deciding rule, a column each; a line button highlights that line in the editor.'
            : 'The URLs whose verdict changes for some crawler from the old version to the new one: a column per crawler, with its rule on each side.'
    let index = url === undefined ? -1 : this.urls().indexOf(url)
    if (index < 0) index = this.firstWithLine()
    this.selected = -1
    this.drawMore(Math.max(pageRows(rows), index + 1))
    this.select(index)
  }

  /** Selects row `index` (-1: none; `crawler`: the column, with several crawlers) and tells `onSelect`. */
  select(index: number, crawler = 0): void {
    this.crawler = crawler
    this.body.querySelector('tr.selected')?.classList.remove('selected')
    this.body.querySelector('tr[aria-current]')?.removeAttribute('aria-current')
    this.selected = index
    const row = this.body.rows[index]
    if (row !== undefined) {
      row.classList.add('selected')
      row.setAttribute('aria-current', 'true')
    }
    this.onSelect(index)
  }

  /** The selected row's verdict or change; with several crawlers, the selected crawler's (see `selectedCrawler`). */
  selectedRow(): Verdict | Change | undefined {
    if (this.selected < 0) return undefined
    const r = this.rows
    if (r.kind === 'single') return r.verdicts[this.selected]
    if (r.kind === 'diff') return r.changes[this.selected]
    const k = this.crawler
    if (r.kind === 'crawlers') return r.rows[this.selected][k]
    const c = r.changes[this.selected]
    return { url: c.url, change: c.changes[k] ?? (c.new[k].allowed ? 'now-allowed' : 'now-disallowed'), old: c.old[k], new: c.new[k] }
  }

  /** The first row (of the first page) whose deciding rule has a line, else the first row; -1 when there are none. */
  private firstWithLine(): number {
    const end = Math.min(this.length, pageRows(this.rows))
    const rows = this.list()
    for (let i = 0; i < end; i++) {
      const r = rows[i]
      if (hasLine(r)) return i
    }
    return this.length > 0 ? 0 : -1
  }

  private selectedUrl(): string | undefined {
    return this.selected < 0 ? undefined : urlOf(this.list()[this.selected])
  }

  private urls(): string[] {
    return this.list().map(urlOf)
  }

  private drawMore(count = pageRows(this.rows)): void {
    const end = Math.min(this.length, this.shown + count)
    const frag = document.createDocumentFragment()
    const r = this.rows
    for (let i = this.shown; i < end; i++) {
      frag.append(
        r.kind === 'single'
          ? this.verdictRow(r.verdicts[i], i)
          : r.kind === 'diff'
            ? this.changeRow(r.changes[i], i)
            : r.kind === 'crawlers'
              ? this.crawlersRow(r.rows[i], i)
              : this.crawlersChangeRow(r.changes[i], i),
      )
    }
    this.body.append(frag)
    this.shown = end
    const left = this.length - end
    this.more.hidden = left <= 0
    this.more.textContent = `Show ${Math.min(left, pageRows(r)).toLocaleString('en-US')} more (${left.toLocaleString('en-US')} not shown)`
  }

  private ruleCell(row: HTMLTableRowElement, v: Verdict, index: number, crawler?: number): HTMLTableCellElement {
    const td = row.insertCell()
    this.ruleInto(td, v, index, crawler)
    return td
  }

  /** A deciding rule into `td`: its line button (selecting the row, and the crawler's column) and its text. */
  private ruleInto(td: HTMLElement, v: Verdict, index: number, crawler?: number): void {
    if (v.line > 0) {
      const b = document.createElement('button')
      b.type = 'button'
      b.className = 'line'
      b.dataset.index = String(index)
      if (crawler !== undefined) b.dataset.crawler = String(crawler)
      b.textContent = `line ${v.line}`
      b.setAttribute('aria-label', `Highlight line ${v.line} in the editor`)
      td.append(b, ' ')
    }
    const text = document.createElement('span')
    text.className = v.implied ? 'rule implied' : 'rule'
    // `line 4: Disallow: /x` shows as the button `line 4` and `Disallow: /x`.
    text.textContent = v.line > 0 && v.rule.startsWith(`line ${v.line}: `) ? v.rule.slice(`line ${v.line}: `.length) : v.rule
    td.append(text)
  }

  private verdictRow(v: Verdict, index: number): HTMLTableRowElement {
    const row = document.createElement('tr')
    row.dataset.verdict = v.allowed ? 'allowed' : 'disallowed'
    row.dataset.line = String(v.line)
    cell(row, v.allowed ? 'allowed' : 'disallowed', `verdict ${row.dataset.verdict}`)
    cell(row, v.url, 'url')
    this.ruleCell(row, v, index)
    return row
  }

  /** A URL's row with several crawlers: the URL, then a verdict and its rule per crawler. */
  private crawlersRow(vs: Verdict[], index: number): HTMLTableRowElement {
    const row = document.createElement('tr')
    row.dataset.verdicts = vs.map((v) => (v.allowed ? 'allowed' : 'disallowed')).join(' ')
    row.dataset.lines = vs.map((v) => v.line).join(' ')
    cell(row, vs[0]?.url ?? '', 'url')
    vs.forEach((v, k) => {
      const td = row.insertCell()
      td.dataset.verdict = v.allowed ? 'allowed' : 'disallowed'
      const word = document.createElement('span')
      word.className = `verdict ${td.dataset.verdict}`
      word.textContent = td.dataset.verdict
      td.append(word, ' ')
      this.ruleInto(td, v, index, k)
    })
    return row
  }

  /** A changed URL's row with several crawlers: the URL, then per crawler its change (or none) and its rule on each side. */
  private crawlersChangeRow(c: CrawlersChange, index: number): HTMLTableRowElement {
    const row = document.createElement('tr')
    row.dataset.changes = c.changes.map((x) => x ?? 'unchanged').join(' ')
    cell(row, c.url, 'url')
    c.changes.forEach((x, k) => {
      const td = row.insertCell()
      td.dataset.change = x ?? 'unchanged'
      const word = document.createElement('span')
      word.className = x === null ? 'verdict' : `verdict ${x}`
      word.textContent = x === 'now-allowed' ? 'now allowed' : x === 'now-disallowed' ? 'now disallowed' : `unchanged (${c.new[k].allowed ? 'allowed' : 'disallowed'})`
      td.append(word, document.createElement('br'), 'old: ')
      this.ruleInto(td, c.old[k], index, k)
      td.append(document.createElement('br'), 'new: ')
      this.ruleInto(td, c.new[k], index, k)
    })
    return row
  }

  private changeRow(c: Change, index: number): HTMLTableRowElement {
    const row = document.createElement('tr')
    row.dataset.change = c.change
    cell(row, c.change === 'now-allowed' ? 'now allowed' : 'now disallowed', `verdict ${c.change}`)
    cell(row, c.url, 'url')
    this.ruleCell(row, c.old, index)
    this.ruleCell(row, c.new, index)
    return row
  }
}

/** The URL of a row of any kind. */
function urlOf(r: Row): string {
  return Array.isArray(r) ? (r[0]?.url ?? '') : r.url
}

/** Whether a row's deciding rule (any crawler's, either side's) has a line. */
function hasLine(r: Row): boolean {
  if (Array.isArray(r)) return r.some((v) => v.line > 0)
  if ('line' in r) return r.line > 0
  if ('changes' in r) return r.old.some((v, k) => v.line > 0 || r.new[k].line > 0)
  return r.old.line > 0 || r.new.line > 0
}
