/**
 * The progress bar of `compare` on stderr, when progress.ts's policy allows it:
 * cases done (of all, when the count is known: a JSONL file is read as it
 * goes), disagreements so far and the rate; redrawn at most five times a
 * second and erased before the report.
 */
import type { Terminal } from './progress.js'
import { setStatusLine } from './stdio.js'
import { count, rate } from './numbers.js'
import type { ProgressSink } from '../../compare/run.js'

const REDRAW_MS = 200

/** A one-line progress display of cases. */
export class CaseProgress implements ProgressSink {
  private lastDraw = -Infinity
  private drawn = false
  private readonly start = performance.now()
  /** Width of the text drawn last (what spaces must cover without escapes). */
  private shown = 0

  constructor(
    private readonly term: Terminal,
    private readonly total: number | undefined,
    /** Cursor control allowed (`ESC [ K`); otherwise erased with spaces (NO_COLOR, as filter's bar). */
    private readonly escapes = true,
  ) {
    // The status line `note` erases before any other stderr line.
    setStatusLine(this)
  }

  update(done: number, disagreements: number): void {
    const now = performance.now()
    if (now - this.lastDraw < REDRAW_MS && (this.total === undefined || done < this.total)) return
    this.lastDraw = now
    const seconds = Math.max((now - this.start) / 1000, 1e-3)
    const tail = `${count(disagreements)} disagreements  ${rate(done / seconds)} cases/s`
    let text = `${count(done)} cases  ${tail}`
    if (this.total !== undefined) {
      const fraction = this.total > 0 ? Math.min(1, done / this.total) : 1
      const full = Math.round(fraction * 20)
      text = `${(fraction * 100).toFixed(0).padStart(3)}% [${'#'.repeat(full)}${'-'.repeat(20 - full)}] ${count(done)} / ${count(this.total)} cases  ${tail}`
    }
    text = text.slice(0, Math.max(10, (this.term.columns || 80) - 1))
    this.term.write(this.escapes ? `\r${text}\x1b[K` : `\r${text.padEnd(this.shown)}`)
    this.shown = text.length
    this.drawn = true
  }

  clear(): void {
    if (this.drawn) this.term.write(this.escapes ? '\r\x1b[K' : `\r${' '.repeat(this.shown)}\r`)
    this.drawn = false
    this.shown = 0
  }
}
