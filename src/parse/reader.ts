/**
 * The byte-level line reader ({@link LineReader}): splits a robots.txt body
 * into physical lines the way google/robotstxt does, and enforces the parsing
 * limit. Memory: one line buffer of MAX_LINE_BYTES plus the chunk in hand.
 */
import { asBytes, describeValue, RobotsInputError, RobotsLimitError } from '../errors.js'
import { LineFlag } from './handler.js'

/** The default and minimum parsing limit: 500 KiB (RFC 9309 §2.5). */
export const DEFAULT_LIMIT = 512_000

/** Longest line kept, as in the reference (2083 * 8 - 1 bytes). */
export const MAX_LINE_BYTES = 2083 * 8 - 1

/**
 * Receives each physical line as `bytes[start, end)` (only valid during the
 * call), with a summary the reader makes while looking for the line's end:
 * `flags` holds LineFlag bits (isLineTooLong, hasComment, hasControl,
 * hasNonAscii, hasDollar) and {@link LINE_HAS_PERCENT}; `contentEnd` is where the content
 * ends: the first '#' (a comment) or NUL (the reference reads a C string), else
 * `end`. The reader's `context` (see its constructor) comes last.
 */
export type LineSink = (bytes: Uint8Array, start: number, end: number, lineNumber: number, flags: number, contentEnd: number, context?: never) => void

/**
 * A handler's own fast path for the lines it sees most (RobotsBuilder's rule,
 * user-agent, sitemap, comment and blank lines): `fastLines` is offered the
 * bytes from a line start `bytes[start]` with nothing pending, takes lines
 * while it can (each read to its LF or CR and handled exactly as the general
 * path would), and returns the offset after the last line it took (`start`
 * when it took none); then `taken` is the number of lines it took and
 * `endedWithCR` whether the last byte it took was a CR. `afterCR` says
 * whether the byte before `start` was a CR that ended a line, so that an LF
 * there completes a CRLF (no line). Its handler records nothing for a blank
 * line: an empty last line is only counted. It must leave a line that does not end
 * before `limit` (the end of the bytes in hand) or is longer than
 * MAX_LINE_BYTES to the general way.
 */
export interface LineFastPath {
  fastLines(bytes: Uint8Array, start: number, limit: number, lineNumber: number, afterCR: boolean): number
  readonly taken: number
  readonly endedWithCR: boolean
}

/** Summary bit (not a reference flag): the line holds a '%'. */
export const LINE_HAS_PERCENT = 1 << 15

const K_HASH = 1 << 16
const K_NUL = 1 << 17
const K_EOL = 1 << 18
/** Per byte: 0 for printable ASCII and tab; else summary bits (K_EOL for LF and CR). */
const KIND = new Int32Array(256)
for (let b = 0; b < 256; b++) {
  if (b >= 128) KIND[b] = LineFlag.hasNonAscii
  else if ((b < 32 && b !== 9) || b === 127) KIND[b] = LineFlag.hasControl
}
KIND[0] = K_NUL | LineFlag.hasControl
KIND[10] = K_EOL
KIND[13] = K_EOL
KIND[35] = K_HASH
KIND[36] = LineFlag.hasDollar
KIND[37] = LINE_HAS_PERCENT

/** Summary of `bytes[from, to)` (no line ends inside): `[flags, offset of the first '#' or NUL from `from`, or -1]`. */
function summarize(bytes: Uint8Array, from: number, to: number): [flags: number, cut: number] {
  let flags = 0
  let cut = -1
  for (let i = from; i < to; i++) {
    const k = KIND[bytes[i]]
    if (k === 0) continue
    if (k >= K_HASH && cut < 0) {
      cut = i - from
      if (k === K_HASH) flags |= LineFlag.hasComment
    }
    flags |= k & 0xffff
  }
  return [flags, cut]
}

/** Per byte: 1 for the bytes that need no summary (printable ASCII but '#', '$' and '%'; tab), 0 otherwise. */
const PLAIN = new Uint8Array(256)
for (let b = 0; b < 256; b++) PLAIN[b] = KIND[b] === 0 ? 1 : 0

const EMPTY = new Uint8Array(0)
const BOM0 = 0xef
const BOM1 = 0xbb
const BOM2 = 0xbf

/** Checks a limit option: undefined means the default; below 500 KiB is a RangeError. */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT
  if (typeof limit !== 'number' || !(limit >= DEFAULT_LIMIT)) {
    throw new RobotsLimitError(
      `limit must be a number >= ${DEFAULT_LIMIT} bytes (RFC 9309 §2.5), got ${describeValue(limit)}`,
    )
  }
  return limit === Infinity ? Number.MAX_SAFE_INTEGER : Math.floor(limit)
}

/**
 * Push-style line splitter with the reference's line rules and the parsing
 * limit:
 *
 * - LF, CR and CRLF end a line (a CRLF split across chunks too).
 * - A UTF-8 BOM, or a prefix of one, is skipped at the very start of the body.
 * - A line keeps at most {@link MAX_LINE_BYTES} bytes; the rest of it is
 *   dropped and the line is flagged too long.
 * - Bytes past `limit` are not read. A line that crosses the limit is dropped
 *   whole (a shortened rule would change its meaning), and `truncated` is set.
 *
 * Lines inside one chunk are handed out as offsets into that chunk, without
 * copying; the line buffer is used only for a line that spans chunks.
 */
export class LineReader {
  /** Bytes of the body consumed (never more than the limit). */
  bytesRead = 0
  /** True when the body had bytes past the limit. */
  truncated = false
  /** Number of lines emitted so far. */
  lineCount = 0

  private readonly sink: LineSink
  /** Passed to every sink call (the parser's handler): one sink function serves every reader, so the call stays monomorphic. */
  private readonly context: unknown
  private readonly fast: LineFastPath | null
  private readonly limit: number
  /** Holds a line that spans chunks; allocated on first need. */
  private buf: Uint8Array | null = null
  private pending = 0
  private pendingFlags = 0
  private pendingCut = -1
  private bomPos = 0
  private lastWasCR = false
  private ended = false
  /** Within one feed: the chunk's next LF and next CR at or after the last look (`n` when none), or -1 before the first. */
  private nextLF = -1
  private nextCR = -1

  /**
   * `sink` receives each line, with `context` as its last argument; `fast`
   * (the library's own handlers only) may take lines first. A sink that is
   * not a function is a RobotsInputError; a bad limit a RobotsLimitError.
   */
  constructor(sink: LineSink, limit?: number, context?: unknown, fast: LineFastPath | null = null) {
    if (typeof sink !== 'function') throw new RobotsInputError(`LineReader takes a sink function, got ${describeValue(sink)}`)
    this.sink = sink
    this.context = context
    this.fast = fast
    this.limit = checkLimit(limit)
  }

  /** True once the limit is reached and more bytes were offered: stop reading. */
  get done(): boolean {
    return this.truncated || this.ended
  }

  /** Feeds the next chunk (a Uint8Array; else a RobotsInputError). Returns false when no more input is wanted. */
  push(chunk: Uint8Array): boolean {
    const bytes = asBytes(chunk)
    if (bytes === undefined) throw new RobotsInputError(`LineReader.push takes a Uint8Array, got ${describeValue(chunk)}`)
    return this.feed(bytes, false)
  }

  /**
   * Feeds the last chunk and ends the input: `push(chunk)` then `end()`,
   * without copying the last line (a whole body is read in place).
   */
  pushLast(chunk: Uint8Array): void {
    const bytes = asBytes(chunk)
    if (bytes === undefined) throw new RobotsInputError(`LineReader.pushLast takes a Uint8Array, got ${describeValue(chunk)}`)
    this.feed(bytes, true)
    this.end()
  }

  private feed(chunk: Uint8Array, last: boolean): boolean {
    if (this.done) return false
    // A Node Buffer's subarray() makes Buffers (slow); work on a plain view.
    if (chunk.constructor !== Uint8Array) chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let n = chunk.length
    const room = this.limit - this.bytesRead
    if (n > room) {
      // room < chunk.length here: an int32 (`| 0` keeps `n` one in the optimised code, the limit being a double).
      n = room | 0
      this.truncated = true
      // The bytes past the limit are never looked at (lineEndFrom searches to the chunk's end).
      chunk = chunk.subarray(0, n)
    }
    this.nextLF = this.nextCR = -1
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
    // One pass per byte: find the line's end and summarise its bytes.
    const fast = this.fast
    while (i < n) {
      if (fast !== null && this.pending === 0) {
        const next = fast.fastLines(chunk, i, n, this.lineCount + 1, this.lastWasCR)
        if (next !== i) {
          this.lineCount += fast.taken
          this.lastWasCR = fast.endedWithCR
          i = next
          if (i >= n) break
        }
      }
      let j = i
      let b = 10
      let flags = 0
      let cut = -1
      // The bytes a line keeps are summarised; past them only its end matters.
      const cap = n - i > MAX_LINE_BYTES ? i + MAX_LINE_BYTES : n
      scan: for (;;) {
        // Most bytes are plain: four at a time while they are (unrolled: faster, bench/w3-parse.mjs).
        while (j + 4 <= cap && (PLAIN[chunk[j]] & PLAIN[chunk[j + 1]] & PLAIN[chunk[j + 2]] & PLAIN[chunk[j + 3]]) !== 0) j += 4
        const stop = j + 4 < cap ? j + 4 : cap
        for (; j < stop; j++) {
          const x = chunk[j]
          const k = KIND[x]
          if (k === 0) continue
          if (k === K_EOL) {
            b = x
            break scan
          }
          if (k >= K_HASH && cut < 0) {
            cut = j
            if (k === K_HASH) flags |= LineFlag.hasComment
          }
          flags |= k & 0xffff
        }
        if (j < cap) continue
        if (cap < n) {
          j = this.lineEndFrom(chunk, cap, n)
          if (j < n) b = chunk[j]
        }
        break
      }
      if (j === n) {
        if (last && this.pending === 0) {
          // The last line of the input, read in place (a line cut by the limit is dropped).
          if (!this.truncated) this.emit(chunk, i, n, flags, cut)
          this.ended = true
        } else this.append(chunk, i, n)
        break
      }
      if (this.pending === 0) {
        if (!(j === i && this.lastWasCR && b === 10)) this.emit(chunk, i, j, flags, cut)
      } else {
        this.append(chunk, i, j)
        this.flush()
      }
      this.lastWasCR = b === 13
      i = j + 1
    }
    return !this.truncated
  }

  /**
   * The offset of the first LF or CR in `chunk[from, n)`, or `n`: native
   * searches, each resumed only past its last find, so that a feed reads
   * each byte at most once per search however many long lines it holds.
   */
  private lineEndFrom(chunk: Uint8Array, from: number, n: number): number {
    if (this.nextLF < from) {
      const at = chunk.indexOf(10, from)
      this.nextLF = at < 0 ? n : at
    }
    if (this.nextCR < from) {
      const at = chunk.indexOf(13, from)
      this.nextCR = at < 0 ? n : at
    }
    return this.nextLF < this.nextCR ? this.nextLF : this.nextCR
  }

  /**
   * Emits the line `chunk[i, j)` summarised by `flags` and `cut` (its first
   * '#' or NUL, or -1): of all its bytes, or of the first MAX_LINE_BYTES
   * when it is longer (then it is cut there).
   */
  private emit(chunk: Uint8Array, i: number, j: number, flags: number, cut: number): void {
    if (j - i > MAX_LINE_BYTES) {
      const end = i + MAX_LINE_BYTES
      this.sink(chunk, i, end, ++this.lineCount, flags | LineFlag.isLineTooLong, cut < 0 ? end : cut, this.context as never)
    } else {
      this.sink(chunk, i, j, ++this.lineCount, flags, cut < 0 ? j : cut, this.context as never)
    }
  }

  /** Ends the input: emits the last line (dropped when it crossed the limit). */
  end(): void {
    if (this.ended) return
    this.ended = true
    if (this.truncated) return
    // An empty last line is a blank line: a fast path's handler records nothing for it.
    if (this.pending === 0 && this.fast !== null) this.lineCount++
    else this.flush()
  }

  /** Adds `chunk[from, to)` (no line end inside) to the line in the buffer, up to MAX_LINE_BYTES. */
  private append(chunk: Uint8Array, from: number, to: number): void {
    const room = MAX_LINE_BYTES - this.pending
    let len = to - from
    if (len === 0) return
    const buf = (this.buf ??= new Uint8Array(MAX_LINE_BYTES))
    if (len > room) {
      len = room
      this.pendingFlags |= LineFlag.isLineTooLong
    }
    if (len === 0) return
    buf.set(chunk.subarray(from, from + len), this.pending)
    let [flags, cut] = summarize(chunk, from, from + len)
    // The first '#' or NUL of the whole line decides; a later one in this piece does not.
    if (this.pendingCut < 0 && cut >= 0) this.pendingCut = this.pending + cut
    else flags &= ~LineFlag.hasComment
    this.pendingFlags |= flags
    this.pending += len
  }

  private flush(): void {
    const end = this.pending
    this.sink(this.buf ?? EMPTY, 0, end, ++this.lineCount, this.pendingFlags, this.pendingCut < 0 ? end : this.pendingCut, this.context as never)
    this.pending = 0
    this.pendingFlags = 0
    this.pendingCut = -1
  }
}
