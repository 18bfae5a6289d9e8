/**
 * Output in large blocks: callers write bytes, ASCII text and numbers into a
 * buffer that is handed to the stream whole when full. A flushed buffer is
 * reused only after the stream's write callback says it is written, so the
 * stream may keep it as long as it likes; `drain()` waits when the stream asks
 * for it, which bounds memory to about one block beyond the stream's own
 * buffer.
 */

/** The part of a Node writable stream the writer needs. */
export interface ByteSink {
  write(chunk: Uint8Array, callback?: (err?: Error | null) => void): boolean
  once(event: 'drain', listener: () => void): unknown
}

/** Default block size: 1 MiB. */
export const DEFAULT_BLOCK_SIZE = 1 << 20

/** Most written blocks kept for reuse. */
const MAX_SPARE = 4

/** Runs at least this long from a stable source go to the stream without a copy. */
const ZERO_COPY_MIN = 64 * 1024

/** Options of a `BlockWriter`. */
export interface BlockWriterOptions {
  /** Hand long stable runs to the stream without a copy (default true; a worker thread that sends its blocks away copies). */
  readonly zeroCopy?: boolean
  /** Where new blocks come from (default: fresh zeroed arrays). */
  readonly allocate?: (size: number) => Uint8Array
}

/** Buffers output and writes it to a stream in large blocks. */
export class BlockWriter {
  /** The current block; callers that `reserve(n)` may write `buf[pos .. pos + n)` directly, then advance `pos`. */
  buf: Uint8Array
  /** Bytes used in `buf`. */
  pos = 0
  private readonly size: number
  private readonly sink: ByteSink
  private needDrain = false
  /** Written blocks, free for reuse. */
  private readonly spare: Uint8Array[] = []
  private pending = 0
  private idle: (() => void) | undefined
  private readonly zeroCopy: boolean
  private readonly allocate: (size: number) => Uint8Array

  constructor(sink: ByteSink, size: number = DEFAULT_BLOCK_SIZE, options: BlockWriterOptions = {}) {
    this.sink = sink
    this.size = size
    this.zeroCopy = options.zeroCopy ?? true
    this.allocate = options.allocate ?? ((n) => new Uint8Array(n))
    this.buf = this.allocate(size)
  }

  /** Makes room for `n` more bytes at `pos` (flushing, or growing for one very long record). */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return
    this.flush()
    if (n > this.buf.length) this.buf = new Uint8Array(n)
  }

  /**
   * Appends `src[start, end)`. When `stable` (the caller never changes `src`
   * again), a long run is handed to the stream as is, without a copy.
   */
  bytes(src: Uint8Array, start: number, end: number, stable = false): void {
    const n = end - start
    if (n <= 0) return
    if (n >= ZERO_COPY_MIN && ((stable && this.zeroCopy) || n >= this.size)) {
      this.flush()
      this.push(stable && this.zeroCopy ? src.subarray(start, end) : src.slice(start, end))
      return
    }
    this.reserve(n)
    this.buf.set(src.subarray(start, end), this.pos)
    this.pos += n
  }

  /** Appends a string of ASCII characters (one byte each). */
  ascii(s: string): void {
    this.reserve(s.length)
    const buf = this.buf
    let p = this.pos
    for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i)
    this.pos = p
  }

  /** Appends a string as UTF-8. */
  text(s: string): void {
    const b = ENCODER.encode(s)
    this.bytes(b, 0, b.length)
  }

  /** Appends one byte. */
  byte(b: number): void {
    this.reserve(1)
    this.buf[this.pos++] = b
  }

  /** Appends a non-negative integer in decimal. */
  uint(n: number): void {
    this.reserve(16)
    this.pos = writeUint(this.buf, this.pos, n)
  }

  /** Hands the current block to the stream (without waiting). */
  flush(): void {
    if (this.pos === 0) return
    const full = this.buf
    const block = full.subarray(0, this.pos)
    this.buf = this.spare.pop() ?? this.allocate(this.size)
    this.pos = 0
    // Once written, a block of the usual size is kept for reuse (fresh memory costs page faults).
    this.push(block, full.length === this.size && this.spare.length < MAX_SPARE ? full : undefined)
  }

  /** Hands the current block to the stream and keeps no buffer: for a writer used once (a worker's block). */
  release(): void {
    if (this.pos > 0) this.push(this.buf.subarray(0, this.pos))
    this.pos = 0
    this.buf = new Uint8Array(0)
  }

  /** Waits until the stream has room again, when a write said it was full. */
  async drain(): Promise<void> {
    if (!this.needDrain) return
    await new Promise<void>((resolve) => this.sink.once('drain', resolve))
    this.needDrain = false
  }

  /** Flushes and waits until every block has been written. */
  async end(): Promise<void> {
    this.flush()
    if (this.pending === 0) return
    await new Promise<void>((resolve) => {
      this.idle = resolve
    })
  }

  private push(block: Uint8Array, reuse?: Uint8Array): void {
    this.pending++
    const ok = this.sink.write(block, () => {
      if (reuse !== undefined) this.spare.push(reuse)
      if (--this.pending === 0 && this.idle !== undefined) {
        const idle = this.idle
        this.idle = undefined
        idle()
      }
    })
    if (!ok) this.needDrain = true
  }
}

const ENCODER = new TextEncoder()

/** Writes `n` (a non-negative integer) in decimal into `buf` at `pos`; returns the new position. */
export function writeUint(buf: Uint8Array, pos: number, n: number): number {
  if (n < 10) {
    buf[pos] = 48 + n
    return pos + 1
  }
  let digits = 1
  for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++
  let p = pos + digits
  for (let v = n; p > pos; v = Math.floor(v / 10)) buf[--p] = 48 + (v % 10)
  return pos + digits
}
