/**
 * The byte-level line reader: splits a robots.txt body into physical lines the
 * way google/robotstxt does, and enforces the parsing limit.
 *
 * - LF, CR and CRLF end a line (a CRLF split across chunks too).
 * - A UTF-8 BOM, or a prefix of one, is skipped at the very start of the body.
 * - A line keeps at most {@link MAX_LINE_BYTES} bytes; the rest of it is
 *   dropped and the line is flagged too long.
 * - Bytes past `limit` are not read. A line that crosses the limit is dropped
 *   whole (a shortened rule would change its meaning), and `truncated` is set.
 *
 * Memory: one line buffer of MAX_LINE_BYTES plus the chunk in hand. Lines inside
 * one chunk are handed out as views of that chunk, without copying.
 */
import { RobotsLimitError } from './errors.js'

/** The default and minimum parsing limit: 500 KiB (RFC 9309 §2.5). */
export const DEFAULT_LIMIT = 512_000

/** Longest line kept, as in the reference (2083 * 8 - 1 bytes). */
export const MAX_LINE_BYTES = 2083 * 8 - 1

/** Receives each physical line as `bytes[start, end)`; the bytes are only valid during the call. */
export type LineSink = (bytes: Uint8Array, start: number, end: number, lineNumber: number, tooLong: boolean) => void

const EMPTY = new Uint8Array(0)
const BOM0 = 0xef
const BOM1 = 0xbb
const BOM2 = 0xbf

/** Checks a limit option: undefined means the default; below 500 KiB is a RangeError. */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT
  if (typeof limit !== 'number' || !(limit >= DEFAULT_LIMIT)) {
    throw new RobotsLimitError(
      `limit must be a number >= ${DEFAULT_LIMIT} bytes (RFC 9309 §2.5), got ${String(limit)}`,
    )
  }
  return limit === Infinity ? Number.MAX_SAFE_INTEGER : Math.floor(limit)
}

/** Push-style line splitter with the reference's line rules and the parsing limit. */
export class LineReader {
  /** Bytes of the body consumed (never more than the limit). */
  bytesRead = 0
  /** True when the body had bytes past the limit. */
  truncated = false
  /** Number of lines emitted so far. */
  lineCount = 0

  private readonly sink: LineSink
  private readonly limit: number
  /** Holds a line that spans chunks; allocated on first need. */
  private buf: Uint8Array | null = null
  private pending = 0
  private pendingTooLong = false
  private bomPos = 0
  private lastWasCR = false
  private ended = false

  constructor(sink: LineSink, limit?: number) {
    this.sink = sink
    this.limit = checkLimit(limit)
  }

  /** True once the limit is reached and more bytes were offered: stop reading. */
  get done(): boolean {
    return this.truncated || this.ended
  }

  /** Feeds the next chunk. Returns false when no more input is wanted. */
  push(chunk: Uint8Array): boolean {
    if (this.done) return false
    // A Node Buffer's subarray() makes Buffers (slow); work on a plain view.
    if (chunk.constructor !== Uint8Array) chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let n = chunk.length
    const room = this.limit - this.bytesRead
    if (n > room) {
      n = room
      this.truncated = true
    }
    this.bytesRead += n
    let i = 0
    while (this.bomPos < 3 && i < n) {
      const b = chunk[i]
      if (b === (this.bomPos === 0 ? BOM0 : this.bomPos === 1 ? BOM1 : BOM2)) {
        this.bomPos++
        i++
      } else {
        this.bomPos = 3
      }
    }
    // Without a CR in the chunk, line ends are found by indexOf (native, fast).
    const cr = chunk.indexOf(13, i)
    const noCR = cr < 0 || cr >= n
    while (i < n) {
      let j: number
      let b = 10
      if (noCR) {
        j = chunk.indexOf(10, i)
        if (j < 0 || j >= n) j = n
      } else {
        j = i
        while (j < n) {
          b = chunk[j]
          if (b === 10 || b === 13) break
          j++
        }
      }
      if (j === n) {
        this.append(chunk, i, n)
        break
      }
      if (this.pending === 0 && !this.pendingTooLong) {
        if (!(j === i && this.lastWasCR && b === 10)) {
          const len = j - i
          if (len > MAX_LINE_BYTES) this.sink(chunk, i, i + MAX_LINE_BYTES, ++this.lineCount, true)
          else this.sink(chunk, i, j, ++this.lineCount, false)
        }
      } else {
        this.append(chunk, i, j)
        this.flush()
      }
      this.lastWasCR = b === 13
      i = j + 1
    }
    return !this.truncated
  }

  /** Ends the input: emits the last line (dropped when it crossed the limit). */
  end(): void {
    if (this.ended) return
    this.ended = true
    if (this.truncated) return
    this.flush()
  }

  private append(chunk: Uint8Array, from: number, to: number): void {
    const room = MAX_LINE_BYTES - this.pending
    const len = to - from
    if (len === 0) return
    const buf = (this.buf ??= new Uint8Array(MAX_LINE_BYTES))
    if (len > room) {
      buf.set(chunk.subarray(from, from + room), this.pending)
      this.pending = MAX_LINE_BYTES
      this.pendingTooLong = true
    } else {
      buf.set(chunk.subarray(from, to), this.pending)
      this.pending += len
    }
  }

  private flush(): void {
    this.sink(this.buf ?? EMPTY, 0, this.pending, ++this.lineCount, this.pendingTooLong)
    this.pending = 0
    this.pendingTooLong = false
  }
}
