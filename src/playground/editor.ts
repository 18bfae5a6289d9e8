/**
 * The robots.txt editor of the tester page: a plain `<textarea>` (so editing,
 * undo, paste and screen readers work as everywhere), a gutter of line
 * numbers that marks the lines with diagnostics, and a layer behind the text
 * that highlights the deciding line. Lines do not wrap, so line N sits at
 * `(N - 1) * LINE_PX`; gutter and layer draw only the lines in view, so a
 * 500 KiB file costs what a screenful costs.
 */
import type { Diagnostic, Severity } from '../index.js'

/** Height of one line in pixels (the page's CSS sets the textarea's line-height to it). */
export const LINE_PX = 20
/** The textarea's top padding in pixels (the page's CSS sets it). */
const PAD_PX = 6

const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 }

/** Lines drawn beyond the visible ones, above and below. */
const SPARE_LINES = 4

export class RobotsEditor {
  readonly textarea: HTMLTextAreaElement
  private readonly gutter: HTMLElement
  private readonly layer: HTMLElement
  /** The highlighted line's bar (kept in the DOM; `data-line` says which line, `hidden` when none). */
  readonly highlight: HTMLElement
  /** The worst severity per line, and the messages, for the gutter. */
  private marks = new Map<number, { severity: Severity; text: string }>()
  private lineCount = 1
  private highlighted = 0
  private frame = 0

  constructor(root: HTMLElement) {
    this.textarea = root.querySelector('textarea')!
    this.gutter = root.querySelector('.gutter')!
    this.layer = root.querySelector('.layer')!
    this.highlight = document.createElement('div')
    this.highlight.className = 'hl'
    this.highlight.hidden = true
    this.highlight.dataset.line = '0'
    this.layer.append(this.highlight)
    const redraw = (): void => this.schedule()
    this.textarea.addEventListener('scroll', redraw)
    this.textarea.addEventListener('input', () => {
      this.countLines()
      this.schedule()
    })
    new ResizeObserver(redraw).observe(this.textarea)
    this.countLines()
    this.draw()
  }

  get value(): string {
    return this.textarea.value
  }

  set value(text: string) {
    this.textarea.value = text
    this.countLines()
    this.schedule()
  }

  /** Marks the lines of `diagnostics` in the gutter (line 0, about the file or the crawler, has no line to mark). */
  setDiagnostics(diagnostics: readonly Diagnostic[]): void {
    const marks = new Map<number, { severity: Severity; text: string }>()
    for (const d of diagnostics) {
      if (d.line <= 0) continue
      const m = marks.get(d.line)
      const text = `${d.severity}: ${d.message} [${d.code}]`
      if (m === undefined) marks.set(d.line, { severity: d.severity, text })
      else marks.set(d.line, { severity: RANK[d.severity] > RANK[m.severity] ? d.severity : m.severity, text: `${m.text}\n${text}` })
    }
    this.marks = marks
    this.schedule()
  }

  /** Highlights `line` as the deciding line (0: none), `kind` giving its colour. */
  setHighlight(line: number, kind: 'allow' | 'disallow' | 'none'): void {
    this.highlighted = line
    this.highlight.dataset.line = String(line)
    this.highlight.dataset.kind = kind
    this.schedule()
  }

  /** Scrolls `line` into view; with `focus`, puts the caret at its start. */
  revealLine(line: number, focus: boolean): void {
    if (line <= 0) return
    const ta = this.textarea
    const top = (line - 1) * LINE_PX
    if (top < ta.scrollTop || top + LINE_PX > ta.scrollTop + ta.clientHeight - 2 * PAD_PX) ta.scrollTop = Math.max(0, top - ta.clientHeight / 3)
    if (focus) {
      let at = 0
      for (let n = 1; n < line && at >= 0; n++) at = ta.value.indexOf('\n', at) + 1 || -1
      if (at >= 0) {
        ta.focus({ preventScroll: true })
        ta.setSelectionRange(at, at)
      }
    }
    this.schedule()
  }

  private countLines(): void {
    const text = this.textarea.value
    let n = 1
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
    this.lineCount = n
  }

  private schedule(): void {
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0
        this.draw()
      })
    }
  }

  /** Draws the gutter and the layer for the lines in view. */
  private draw(): void {
    const ta = this.textarea
    const scroll = ta.scrollTop
    const first = Math.max(1, Math.floor((scroll - PAD_PX) / LINE_PX) + 1 - SPARE_LINES)
    const last = Math.min(this.lineCount, Math.ceil((scroll + ta.clientHeight) / LINE_PX) + SPARE_LINES)
    const y = (line: number): string => `${PAD_PX + (line - 1) * LINE_PX - scroll}px`
    const numbers = document.createDocumentFragment()
    for (let line = first; line <= last; line++) {
      const n = document.createElement('div')
      n.className = 'n'
      n.style.top = y(line)
      n.textContent = String(line)
      const mark = this.marks.get(line)
      if (mark !== undefined) {
        n.classList.add(mark.severity)
        n.title = mark.text
      }
      numbers.append(n)
    }
    this.gutter.replaceChildren(numbers)
    const h = this.highlighted
    this.highlight.hidden = h <= 0
    this.highlight.style.top = y(h)
    // Diagnostic lines in view get a tint behind the text, as the gutter marks them.
    this.layer.querySelectorAll('.tint').forEach((old) => old.remove())
    for (let line = first; line <= last; line++) {
      const mark = this.marks.get(line)
      if (mark === undefined) continue
      const t = document.createElement('div')
      t.className = `tint ${mark.severity}`
      t.style.top = y(line)
      this.layer.append(t)
    }
  }
}
