/**
 * Writes judged lines in the form `--print` and `--format` ask for
 * ({@link LineEmitter}): the chosen lines exactly as read, `verdicts` lines,
 * or JSON lines (jsonl-record.ts). Blocks must not change after they are
 * passed in (line-blocks.ts gives each block a buffer of its own): long runs
 * go to the output without a copy.
 */
import type { BlockWriter } from '../common/block-writer.js'
import { writeUint } from '../common/block-writer.js'
import type { Decided } from './line-judge.js'
import { jsonRecord, type RecordCrawlers } from './jsonl-record.js'
import type { LineLocator } from './line-locator.js'

/** The verdict column and its tab, as bytes. */
const ALLOWED_TAB = new TextEncoder().encode('allowed\t')
const DISALLOWED_TAB = new TextEncoder().encode('disallowed\t')
const INVALID_TAB = new TextEncoder().encode('invalid\t')
/** What `--print` writes. */
export type PrintMode = 'allowed' | 'disallowed' | 'verdicts'

/** The form of output lines (`--format`; `lines` is an alias of `text`). */
export type OutputFormat = 'text' | 'lines' | 'jsonl'


/**
 * Writes judged lines of one block after another to a `BlockWriter`:
 * - `allowed` / `disallowed`: the chosen lines exactly as read, line ending
 *   included (LF or CRLF). Consecutive chosen lines are copied as one run, so
 *   a block where every line is chosen costs one copy.
 * - `verdicts`: every line as `allowed<TAB>LINE<TAB>URL` or
 *   `disallowed<TAB>LINE<TAB>URL` and LF, where URL is the line's bytes
 *   unchanged except for the CR of a CRLF (or a CR that ends the input);
 *   with `--crawlers`, a column per crawler (`allowed` or `disallowed`, in
 *   the order given), then the URL.
 * - A line that was not judged (no URL, or no host: a negative `code`,
 *   minus its LineFault) is written whatever `--print` picks (the caller
 *   passes it only under `--invalid keep`): as read, or as
 *   `invalid<TAB>0<TAB>URL`, or with `"allowed": null`.
 * - `--format jsonl`: one JSON object per line (jsonl-record.ts), for the
 *   lines `--print` selects (every line unless `--print allowed|disallowed`).
 *
 * A last line without a newline is written without one when it ends the
 * whole input; one that ends an earlier file gets an LF, so lines of two
 * files never merge.
 */
export class LineEmitter {
  private readonly writer: BlockWriter
  private readonly verdicts: boolean
  /** `--format jsonl`: `record` writes the lines. */
  readonly jsonl: boolean
  /** `--line-buffered`: every line is handed to the stream as soon as it is written. */
  private readonly eachLine: boolean
  /** The verdict bit (1 allowed, 0 disallowed) of the lines that are written; -1 for every line. */
  private readonly want: number
  private runStart = 0
  private runEnd = -1
  /** `--crawlers`: their names and the judge's codes of the line in hand. */
  private readonly crawlers: RecordCrawlers | undefined

  constructor(writer: BlockWriter, mode: PrintMode, format: OutputFormat = 'lines', lineBuffered = false, crawlers?: RecordCrawlers) {
    this.writer = writer
    this.crawlers = crawlers
    this.eachLine = lineBuffered
    this.verdicts = mode === 'verdicts'
    this.jsonl = format === 'jsonl'
    this.want = mode === 'allowed' ? 1 : mode === 'disallowed' ? 0 : -1
  }

  /**
   * `--format jsonl`: one line as a JSON object. `bytes[start, end)` is the
   * URL judged, `code` its verdict (negative: not judged), `decided` what
   * decided it, `line` its number in its input (named `input` when the run
   * reads several).
   */
  record(bytes: Uint8Array, start: number, end: number, code: number, decided: Decided | null, line: number, input: string | undefined, locator: LineLocator): void {
    if (code >= 0 && this.want >= 0 && (code & 1) !== this.want) return
    this.writer.text(jsonRecord(bytes, start, end, code, decided, line, input, locator, this.crawlers))
    this.writer.byte(10)
    if (this.eachLine) this.writer.flush()
  }

  /**
   * One line: `bytes[start, contentEnd)` is the URL, `next` the offset after
   * its line ending; `code` is `ruleLine * 2 + (allowed ? 1 : 0)`.
   */
  line(bytes: Uint8Array, start: number, contentEnd: number, next: number, code: number): void {
    if (this.verdicts) {
      this.verdictLine(bytes, start, contentEnd, code)
      if (this.eachLine) this.writer.flush()
      return
    }
    if (code >= 0 && (code & 1) !== this.want) return
    if (this.eachLine) {
      this.writer.bytes(bytes, start, next)
      this.writer.flush()
      return
    }
    if (start !== this.runEnd) {
      if (this.runEnd >= 0) this.writer.bytes(bytes, this.runStart, this.runEnd, true)
      this.runStart = start
    }
    this.runEnd = next
  }

  /**
   * A last line without a newline: `bytes[start, contentEnd)` is the URL,
   * `bytes[start, end)` the line as read; `terminate` adds an LF to it.
   */
  lastLine(bytes: Uint8Array, start: number, contentEnd: number, end: number, code: number, terminate: boolean): void {
    if (this.verdicts) {
      this.verdictLine(bytes, start, contentEnd, code)
      if (this.eachLine) this.writer.flush()
      return
    }
    if (code >= 0 && (code & 1) !== this.want) return
    if (this.eachLine) {
      this.writer.bytes(bytes, start, end)
      if (terminate) this.writer.byte(10)
      this.writer.flush()
      return
    }
    this.line(bytes, start, contentEnd, end, code)
    if (terminate) {
      this.endBlock(bytes)
      this.writer.byte(10)
    }
  }

  /** Writes what is pending from `bytes`; call before `bytes` is reused. */
  endBlock(bytes: Uint8Array): void {
    if (this.runEnd >= 0) this.writer.bytes(bytes, this.runStart, this.runEnd, true)
    this.runEnd = -1
  }

  private verdictLine(bytes: Uint8Array, start: number, end: number, code: number): void {
    const w = this.writer
    const len = end - start
    const crawlers = this.crawlers
    w.reserve(len + 24 + (crawlers === undefined ? 0 : crawlers.codes.size * DISALLOWED_TAB.length))
    const buf = w.buf
    let p = w.pos
    if (crawlers !== undefined) {
      // A column per crawler, then the URL.
      const { codes, at, size } = crawlers.codes
      for (let c = 0; c < size; c++) {
        const label = code < 0 ? INVALID_TAB : codes[at + c] & 1 ? ALLOWED_TAB : DISALLOWED_TAB
        for (let k = 0; k < label.length; k++) buf[p++] = label[k]
      }
    } else {
      const label = code < 0 ? INVALID_TAB : code & 1 ? ALLOWED_TAB : DISALLOWED_TAB
      for (let k = 0; k < label.length; k++) buf[p++] = label[k]
      const line = code < 0 ? 0 : code >>> 1
      if (line < 10) buf[p++] = 48 + line
      else p = writeUint(buf, p, line)
      buf[p++] = 9
    }
    if (len < 16) {
      for (let i = start; i < end; i++) buf[p++] = bytes[i]
    } else {
      buf.set(bytes.subarray(start, end), p)
      p += len
    }
    buf[p++] = 10
    w.pos = p
  }
}
