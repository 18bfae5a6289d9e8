/**
 * The progress bar of `filter` on stderr: bytes done, URLs and their rate,
 * and with a known input size (files, or stdin redirected from a file) a
 * percentage, a bar and an ETA. Redrawn in place at most five times a
 * second and erased before any other stderr line (stdio.ts) and at the end.
 *
 * When it is drawn (`progressWanted`), decided once at the start:
 * - never with `--quiet`, and never when stderr is not a terminal (a log
 *   file must not fill with redraws);
 * - never on `TERM=dumb`, which cannot erase a line;
 * - never when stdout is the same kind of thing: a terminal. The output is
 *   then on screen, and a bar redrawn among its lines would mix with them;
 *   the bar is for `filter … > out` or `| next-stage`.
 * - `ROBOTS_AUTOMATON_PROGRESS=1` forces it on (and `=0` off) whatever the
 *   above, for scripts and tests that capture stderr.
 * `NO_COLOR` (set and not empty, as no-color.org says) draws it without
 * colour: the cursor moves and the line erase stay, they are not colour.
 *
 * `renderProgress` is the drawing as a pure function of counts, time and
 * width, so it is tested without a terminal.
 */
import { count, megabytes, rate } from './stats.js'
import { setStatusLine, type StatusLine } from './stdio.js'
import { PROGRAM } from './version.js'

/** The part of a terminal stream the bar needs. */
export interface Terminal {
  write(s: string): boolean
  readonly columns?: number
}

/** What the policy looks at (see the module comment). */
export interface ProgressContext {
  readonly quiet: boolean
  readonly stderrIsTTY: boolean
  readonly stdoutIsTTY: boolean
  readonly env: Readonly<Record<string, string | undefined>>
}

/** Whether to draw a progress bar (see the module comment). */
export function progressWanted(c: ProgressContext): boolean {
  if (c.quiet) return false
  const forced = c.env.ROBOTS_AUTOMATON_PROGRESS
  if (forced === '1') return true
  if (forced === '0') return false
  if (!c.stderrIsTTY || c.env.TERM === 'dumb') return false
  return !c.stdoutIsTTY
}

/** Whether colour is allowed (no-color.org: `NO_COLOR` set to anything but the empty string turns it off). */
export function colorAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.NO_COLOR
  return v === undefined || v === ''
}

/** The context of this process. */
export function processProgressContext(quiet: boolean): ProgressContext {
  return { quiet, stderrIsTTY: process.stderr.isTTY === true, stdoutIsTTY: process.stdout.isTTY === true, env: process.env }
}

/** One frame's figures. */
export interface ProgressFrame {
  /** Input bytes taken so far (as stored: compressed bytes for gzip). */
  readonly bytesDone: number
  /** Input size in the same bytes, when known. */
  readonly total: number | undefined
  readonly lines: number
  /** Seconds since the start. */
  readonly seconds: number
  /** Terminal width (the text stays within `columns - 1`). */
  readonly columns: number
  readonly color: boolean
}

/** Cells of the bar itself. */
const BAR_CELLS = 20
/** Seconds before an ETA is shown (the first rate is noise). */
const ETA_AFTER_S = 1

/** `0:07`, `12:34`, `1:02:03`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

/** Seconds left at the rate so far, or undefined (size unknown, too early, nothing done yet). */
export function etaSeconds(bytesDone: number, total: number | undefined, seconds: number): number | undefined {
  if (total === undefined || total <= 0 || bytesDone <= 0 || seconds < ETA_AFTER_S) return undefined
  return (Math.max(0, total - bytesDone) * seconds) / bytesDone
}

/**
 * The bar's text (no cursor control): `robots-automaton: 42% [########----]
 * 12.0 MB / 28.6 MB  1,234,567 URLs  987k URLs/s  ETA 0:13`. Parts are
 * dropped, least useful first (the bar, the sizes, the rate), until it fits
 * in `columns - 1`; a colour escape, when allowed, wraps only the bar's
 * filled cells and is not counted in the width.
 */
export function renderProgress(f: ProgressFrame): string {
  const width = Math.max(10, (f.columns || 80) - 1)
  const lines = `${count(f.lines)} URLs`
  const speed = `${rate(f.lines / Math.max(f.seconds, 1e-3))} URLs/s`
  const known = f.total !== undefined && f.total > 0
  const parts: { text: string; visible: number; drop: number }[] = []
  const add = (text: string, drop: number, visible = text.length) => parts.push({ text, visible, drop })
  if (known) {
    const fraction = Math.min(1, f.bytesDone / f.total!)
    add(`${(fraction * 100).toFixed(0).padStart(3)}%`, 0)
    const full = Math.round(fraction * BAR_CELLS)
    const filled = '#'.repeat(full)
    const bar = `[${f.color && full > 0 ? `\x1b[32m${filled}\x1b[0m` : filled}${'-'.repeat(BAR_CELLS - full)}]`
    add(bar, 4, BAR_CELLS + 2)
    add(`${megabytes(f.bytesDone)} / ${megabytes(f.total!)}`, 3)
  } else add(megabytes(f.bytesDone), 3)
  add(lines, 1)
  add(speed, 2)
  const eta = etaSeconds(f.bytesDone, f.total, f.seconds)
  if (eta !== undefined) add(`ETA ${clock(eta)}`, 0)
  const prefix = `${PROGRAM}: `
  const size = (ps: typeof parts) => prefix.length + ps.reduce((n, p, i) => n + p.visible + (i > 0 ? 2 : 0), 0)
  let kept = parts
  for (let level = 4; level >= 1 && size(kept) > width; level--) kept = kept.filter((p) => p.drop !== level)
  const text = prefix + kept.map((p) => p.text).join('  ')
  if (size(kept) <= width) return text
  // Still too wide (a very narrow terminal): plain text, cut.
  return (prefix + kept.map((p) => (p.visible === p.text.length ? p.text : p.text.replace(/\x1b\[[0-9;]*m/g, ''))).join('  ')).slice(0, width)
}

const REDRAW_MS = 200

/** A one-line progress display that redraws itself in place; the status line `note` erases. */
export class ProgressBar implements StatusLine {
  private lastDraw = -Infinity
  private drawn = false
  private readonly start = performance.now()

  /** `total`: input size in stored bytes, when known (enables the percentage and the ETA). */
  constructor(
    private readonly term: Terminal,
    private readonly total: number | undefined,
    private readonly color: boolean,
  ) {
    setStatusLine(this)
  }

  /** Reports progress; redraws when enough time has passed. */
  update(bytesDone: number, lines: number): void {
    const now = performance.now()
    if (now - this.lastDraw < REDRAW_MS) return
    this.lastDraw = now
    const text = renderProgress({ bytesDone, total: this.total, lines, seconds: (now - this.start) / 1000, columns: this.term.columns || 80, color: this.color })
    this.term.write(`\r${text}\x1b[K`)
    this.drawn = true
  }

  /** Erases the bar (it draws itself again on the next update). */
  clear(): void {
    if (this.drawn) this.term.write('\r\x1b[K')
    this.drawn = false
  }

  /** Erases the bar for good. */
  done(): void {
    this.clear()
    setStatusLine(undefined)
  }
}
