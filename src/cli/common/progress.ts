/**
 * The one progress bar of the command line, on stderr: how much is done
 * (bytes of `filter`'s input, `compare`'s cases, `fetch`'s origins), the items
 * and their rate, a note, and with a known total a percentage, a bar and an
 * ETA. When it is drawn: {@link progressWanted}; the drawing, a pure function
 * tested without a terminal: {@link renderProgress}; redrawing and erasing:
 * {@link ProgressBar}.
 */
import { count, megabytes, rate } from './numbers.js'
import { setStatusLine, type StatusLine } from './stdio.js'

/** The part of a terminal stream the bar needs. */
export interface Terminal {
  write(s: string): boolean
  readonly columns?: number
}

/** What the policy looks at ({@link progressWanted}). */
export interface ProgressContext {
  readonly quiet: boolean
  readonly stderrIsTTY: boolean
  readonly stdoutIsTTY: boolean
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * Whether to draw a progress bar, decided once at the start:
 * - never with `--quiet`, and never when stderr is not a terminal (a log
 *   file must not fill with redraws);
 * - never on `TERM=dumb`, which cannot erase a line;
 * - never when stdout is a terminal too: the output is then on screen, and
 *   a bar redrawn among its lines would mix with them; the bar is for
 *   `filter … > out` or `| next-stage`;
 * - `ROBOTS_AUTOMATON_PROGRESS=1` forces it on (and `=0` off) whatever the
 *   above, for scripts and tests that capture stderr.
 */
export function progressWanted(c: ProgressContext): boolean {
  if (c.quiet) return false
  const forced = c.env.ROBOTS_AUTOMATON_PROGRESS
  if (forced === '1') return true
  if (forced === '0') return false
  if (!c.stderrIsTTY || c.env.TERM === 'dumb') return false
  return !c.stdoutIsTTY
}

/** Whether escape sequences are allowed (no-color.org: `NO_COLOR` set to anything but the empty string turns them off). */
export function escapesAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.NO_COLOR
  return v === undefined || v === ''
}

/** The context of this process. */
export function processProgressContext(quiet: boolean): ProgressContext {
  return { quiet, stderrIsTTY: process.stderr.isTTY === true, stdoutIsTTY: process.stdout.isTTY === true, env: process.env }
}

/** What a bar counts: bytes of input (`done` and `total` shown in MB, the items beside them), or the items themselves. */
export interface ProgressUnit {
  /** `'bytes'`: `done` and `total` are bytes; `'items'`: they count the items. */
  readonly measure: 'bytes' | 'items'
  /** The items' name: `URLs`, `cases`, `origins`. */
  readonly items: string
}

/** `filter`'s unit: bytes of input, URLs. */
export const URL_BYTES: ProgressUnit = { measure: 'bytes', items: 'URLs' }

/** One frame's figures. */
export interface ProgressFrame {
  /** Done so far: input bytes (as stored: compressed bytes for gzip) or items, as `unit` says. */
  readonly done: number
  /** The total in the same measure, when known. */
  readonly total: number | undefined
  /** Items so far (URLs, cases, origins). */
  readonly items: number
  /** A count worth watching, e.g. `3 disagreements`, kept while the rate and sizes are dropped. */
  readonly note?: string
  /** Seconds since the start. */
  readonly seconds: number
  /** Terminal width (the text stays within `columns - 1`). */
  readonly columns: number
  /** What is counted; `filter`'s bytes and URLs when not given. */
  readonly unit?: ProgressUnit
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
 * The bar's text (no cursor control): ` 42% [########------------] 12.0 MB /
 * 28.6 MB  1,234,567 URLs  987k URLs/s  ETA 0:13`, or for items ` 42%
 * [########------------] 420 / 1,000 cases  3 disagreements  5.2k cases/s
 * ETA 0:13`. Parts are dropped, least useful first (the rate, the item
 * count, the sizes, the bar), until it fits in `columns - 1`; the
 * percentage, the note and the ETA stay (and on a very narrow terminal the
 * text is cut).
 */
export function renderProgress(f: ProgressFrame): string {
  const width = Math.max(10, (f.columns || 80) - 1)
  const unit = f.unit ?? URL_BYTES
  const amount = unit.measure === 'bytes' ? megabytes : count
  /** A part: its text, the separator before it, and its drop level (0: kept). */
  const parts: { text: string; sep: string; drop: number }[] = []
  const add = (text: string, sep: string, drop: number) => parts.push({ text, sep, drop })
  if (f.total !== undefined && f.total > 0) {
    const fraction = Math.min(1, f.done / f.total)
    const full = Math.round(fraction * BAR_CELLS)
    add(`${(fraction * 100).toFixed(0).padStart(3)}%`, '', 0)
    add(`[${'#'.repeat(full)}${'-'.repeat(BAR_CELLS - full)}]`, ' ', 1)
    add(`${amount(f.done)} / ${amount(f.total)}${unit.measure === 'items' ? ` ${unit.items}` : ''}`, ' ', 2)
  } else if (unit.measure === 'bytes') add(megabytes(f.done), '', 2)
  if (unit.measure === 'bytes' || f.total === undefined || f.total <= 0) add(`${count(f.items)} ${unit.items}`, parts.length ? '  ' : '', 3)
  if (f.note) add(f.note, '  ', 0)
  add(`${rate(f.items / Math.max(f.seconds, 1e-3))} ${unit.items}/s`, '  ', 4)
  const eta = etaSeconds(f.done, f.total, f.seconds)
  if (eta !== undefined) add(`ETA ${clock(eta)}`, '  ', 0)
  const join = (ps: typeof parts) => ps.map((p, i) => (i === 0 ? p.text : p.sep + p.text)).join('')
  let kept = parts
  for (let level = 4; level >= 1 && join(kept).length > width; level--) kept = kept.filter((p) => p.drop !== level)
  return join(kept).slice(0, width)
}

const REDRAW_MS = 200

/**
 * A one-line progress display that redraws itself in place; the status line
 * `note` erases. Redrawn at most five times a second (REDRAW_MS) and erased
 * before any other stderr line (stdio.ts) and at the end. It is a status
 * display, never a line (it ends with no newline and is always erased), so
 * it does not carry the `robots-automaton: ` prefix of stderr lines: the
 * terminal's width goes to the figures. It has no colour. With `NO_COLOR`
 * set (and not empty, as no-color.org says) it writes no escape sequence at
 * all: it is erased by overwriting it with spaces instead of `ESC [ K`, for
 * terminals and recorders that show escapes raw.
 */
export class ProgressBar implements StatusLine {
  private lastDraw = -Infinity
  private drawn = false
  private readonly start = performance.now()

  /** `total`: the total in `unit`'s measure, when known (enables the percentage and the ETA). */
  constructor(
    private readonly term: Terminal,
    private readonly total: number | undefined,
    /** Cursor control allowed (`ESC [ K`); otherwise the bar is erased with spaces (NO_COLOR). */
    private readonly escapes = true,
    private readonly unit: ProgressUnit = URL_BYTES,
  ) {
    setStatusLine(this)
  }

  /** Width of the text drawn last (what spaces must cover without escapes). */
  private shown = 0

  /** Reports progress; redraws when enough time has passed, and always on reaching the total. */
  update(done: number, items: number, note?: string): void {
    const now = performance.now()
    if (now - this.lastDraw < REDRAW_MS && (this.total === undefined || done < this.total)) return
    this.lastDraw = now
    const frame = { done, total: this.total, items, note, seconds: (now - this.start) / 1000, columns: this.term.columns || 80, unit: this.unit }
    const text = renderProgress(frame)
    this.term.write(this.escapes ? `\r${text}\x1b[K` : `\r${text.padEnd(this.shown)}`)
    this.shown = text.length
    this.drawn = true
  }

  /** Erases the bar (it draws itself again on the next update). */
  clear(): void {
    if (this.drawn) this.term.write(this.escapes ? '\r\x1b[K' : `\r${' '.repeat(this.shown)}\r`)
    this.drawn = false
    this.shown = 0
  }

  /** Erases the bar for good. */
  done(): void {
    this.clear()
    setStatusLine(undefined)
  }
}
