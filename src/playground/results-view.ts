/**
 * The results table of the tester page: one row per URL (or, comparing two
 * versions, per URL whose verdict changes), a page of rows at a time so
 * that 10,000 URLs stay cheap; a row's line button selects it, which
 * highlights its deciding line in the editor.
 */
import type { Change, Verdict } from './judge.js'

/** Rows drawn at a time ("Show more" draws the next ones). */
export const PAGE_ROWS = 200

/** What the table shows: verdicts of one robots.txt, or the changes between two. */
export type Rows = { kind: 'single'; verdicts: Verdict[] } | { kind: 'diff'; changes: Change[] }

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
      if (button instanceof HTMLButtonElement) this.select(Number(button.dataset.index))
    })
  }

  get length(): number {
    return this.rows.kind === 'single' ? this.rows.verdicts.length : this.rows.changes.length
  }

  /** Shows `rows`, keeping the selection on the same URL when it is still there (else the first row). */
  show(rows: Rows): void {
    const url = this.selectedUrl()
    this.rows = rows
    this.shown = 0
    this.body.replaceChildren()
    this.head.replaceChildren()
    const h = this.head.insertRow()
    const titles = rows.kind === 'single' ? ['Verdict', 'URL', 'Deciding rule'] : ['Change', 'URL', 'Old rule', 'New rule']
    for (const t of titles) {
      const th = document.createElement('th')
      th.scope = 'col'
      th.textContent = t
      h.append(th)
    }
    this.caption.textContent =
      rows.kind === 'single'
        ? 'Each URL with its verdict and the rule that decided it; a line button highlights that line in the editor.'
        : 'The URLs whose verdict changes from the old version to the new one, with the deciding rule on each side.'
    let index = url === undefined ? -1 : this.urls().indexOf(url)
    if (index < 0) index = this.firstWithLine()
    this.selected = -1
    this.drawMore(Math.max(PAGE_ROWS, index + 1))
    this.select(index)
  }

  /** Selects row `index` (-1: none) and tells `onSelect`. */
  select(index: number): void {
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

  /** The selected row's verdict or change. */
  selectedRow(): Verdict | Change | undefined {
    if (this.selected < 0) return undefined
    return this.rows.kind === 'single' ? this.rows.verdicts[this.selected] : this.rows.changes[this.selected]
  }

  /** The first row (of the first page) whose deciding rule has a line, else the first row; -1 when there are none. */
  private firstWithLine(): number {
    const end = Math.min(this.length, PAGE_ROWS)
    for (let i = 0; i < end; i++) {
      const r = this.rows.kind === 'single' ? this.rows.verdicts[i] : this.rows.changes[i]
      if ('line' in r ? r.line > 0 : r.old.line > 0 || r.new.line > 0) return i
    }
    return this.length > 0 ? 0 : -1
  }

  private selectedUrl(): string | undefined {
    return this.selectedRow()?.url
  }

  private urls(): string[] {
    return this.rows.kind === 'single' ? this.rows.verdicts.map((v) => v.url) : this.rows.changes.map((c) => c.url)
  }

  private drawMore(count = PAGE_ROWS): void {
    const end = Math.min(this.length, this.shown + count)
    const frag = document.createDocumentFragment()
    for (let i = this.shown; i < end; i++) frag.append(this.rows.kind === 'single' ? this.verdictRow(this.rows.verdicts[i], i) : this.changeRow(this.rows.changes[i], i))
    this.body.append(frag)
    this.shown = end
    const left = this.length - end
    this.more.hidden = left <= 0
    this.more.textContent = `Show ${Math.min(left, PAGE_ROWS).toLocaleString('en-US')} more (${left.toLocaleString('en-US')} not shown)`
  }

  private ruleCell(row: HTMLTableRowElement, v: Verdict, index: number): void {
    const td = row.insertCell()
    if (v.line > 0) {
      const b = document.createElement('button')
      b.type = 'button'
      b.className = 'line'
      b.dataset.index = String(index)
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
