/**
 * The progress bar on stderr: shown only when stderr is a terminal, redrawn at
 * most five times a second, erased before the summary. It shows bytes done, the
 * line count and rate, and a percentage when the input size is known.
 */
import { count, megabytes, rate } from './stats.js'

/** The part of a terminal stream the bar needs. */
export interface Terminal {
  write(s: string): boolean
  readonly columns?: number
}

const REDRAW_MS = 200

/** A one-line progress display that redraws itself in place. */
export class ProgressBar {
  private lastDraw = 0
  private drawn = false
  private readonly start = performance.now()

  /** `total`: input size in stored bytes, when known (enables the percentage). */
  constructor(
    private readonly term: Terminal,
    private readonly total: number | undefined,
  ) {}

  /** Reports progress; redraws when enough time has passed. */
  update(bytesDone: number, lines: number): void {
    const now = performance.now()
    if (now - this.lastDraw < REDRAW_MS) return
    this.lastDraw = now
    const seconds = (now - this.start) / 1000
    const width = this.term.columns || 80
    let text = `${megabytes(bytesDone)}  ${count(lines)} URLs  ${rate(lines / Math.max(seconds, 1e-3))} URLs/s`
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, bytesDone / this.total)
      const barWidth = 20
      const full = Math.round(fraction * barWidth)
      text =
        `${(fraction * 100).toFixed(0).padStart(3)}% [${'#'.repeat(full)}${'-'.repeat(barWidth - full)}] ` +
        `${megabytes(bytesDone)} / ${megabytes(this.total)}  ${count(lines)} URLs  ` +
        `${rate(lines / Math.max(seconds, 1e-3))} URLs/s`
    }
    this.term.write(`\r${text.slice(0, Math.max(10, width - 1))}\x1b[K`)
    this.drawn = true
  }

  /** Erases the bar. */
  clear(): void {
    if (this.drawn) this.term.write('\r\x1b[K')
    this.drawn = false
  }
}
