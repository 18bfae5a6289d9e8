/**
 * Parsing from a stream: an `AsyncIterable<Uint8Array>` (Node streams, async
 * generators) or a Web `ReadableStream<Uint8Array>`. Chunks are parsed as they
 * arrive; reading stops at the limit and the source is cancelled. Memory is one
 * line plus the chunk in hand. Who owns the source: {@link parseRobotsStream}.
 */
import { asBytes, describeValue, RobotsInputError } from '../errors.js'
import { readerFor } from '../parse/parser.js'
import { RobotsBuilder } from '../rules/builder.js'
import { checkParseOptions, robotsFrom, type ParseOptions, type Robots } from './robots.js'
import { checkLimit, type LineReader } from '../parse/reader.js'

/** A source of body bytes. Strings (in either kind of source) are taken as UTF-8. */
export type ByteSource = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>

/** Options of {@link parseRobotsStream}: those of `parseRobots`, and a signal to abandon the read. */
export interface StreamParseOptions extends ParseOptions {
  /**
   * Aborting it rejects the promise with the signal's reason (as `fetch`
   * does) and cancels the source, also while a read is pending: a stalled
   * source can be abandoned.
   */
  signal?: AbortSignal
}

const encoder = new TextEncoder()
/** U+FFFD in UTF-8: what `TextEncoder` writes for a lone surrogate. */
const REPLACEMENT = Uint8Array.of(0xef, 0xbf, 0xbd)

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

/**
 * Turns chunks into bytes for the reader. String chunks are encoded as UTF-8
 * as if the strings were one: a high surrogate that ends a chunk is held back
 * until the next chunk, so a pair split between chunks still encodes as one
 * 4-byte character. A held surrogate that is not followed by its low half (a
 * byte chunk next, or the end of the input) becomes U+FFFD, as `TextEncoder`
 * writes it for the whole string.
 */
class ChunkFeeder {
  /** A high surrogate held back from the end of the last string chunk, or ''. */
  private held = ''

  /** `limit`: the reader's (checked), so that a string chunk past it is encoded only up to it. */
  constructor(
    private readonly reader: LineReader,
    private readonly limit: number,
  ) {}

  /** Feeds one chunk; false when the reader wants no more input. */
  push(chunk: unknown): boolean {
    if (typeof chunk === 'string') {
      let s = this.held === '' ? chunk : this.held + chunk
      this.held = ''
      // A char is at least one byte: the first room + 1 chars hold every byte the reader takes and show
      // that more follow; only they are encoded (memory and time bounded by the limit, as parseRobots).
      const room = this.limit - this.reader.bytesRead
      if (s.length > room) s = s.slice(0, room + 1)
      else if (s.length > 0 && isHighSurrogate(s.charCodeAt(s.length - 1))) {
        this.held = s.slice(-1)
        s = s.slice(0, -1)
      }
      return s.length === 0 || this.reader.push(encoder.encode(s))
    }
    let bytes: Uint8Array
    const view = asBytes(chunk)
    if (view !== undefined) bytes = view
    else if (chunk instanceof ArrayBuffer) bytes = new Uint8Array(chunk)
    else throw new RobotsInputError(`stream chunks must be Uint8Array or string, got ${describeValue(chunk)}`)
    if (!this.flushHeld()) return false
    return this.reader.push(bytes)
  }

  /** Ends the input (a held surrogate is lone: U+FFFD). */
  end(): void {
    this.flushHeld()
    this.reader.end()
  }

  private flushHeld(): boolean {
    if (this.held === '') return true
    this.held = ''
    return this.reader.push(REPLACEMENT)
  }
}

/**
 * Races promises against an abort signal with one listener for the whole read
 * (not one per chunk), so a long stream of small chunks costs no listener churn.
 */
class AbortRace {
  private reject: ((reason: unknown) => void) | null = null
  private readonly onAbort = () => this.reject?.(this.signal.reason)

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.onAbort, { once: true })
  }

  /** `p`, or a rejection with the signal's reason as soon as it aborts. */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      p.catch(() => {})
      return Promise.reject(this.signal.reason)
    }
    return new Promise<T>((resolve, reject) => {
      this.reject = reject
      p.then(
        (v) => {
          this.reject = null
          resolve(v)
        },
        (e) => {
          this.reject = null
          reject(e)
        },
      )
    })
  }

  dispose(): void {
    this.signal.removeEventListener('abort', this.onAbort)
  }
}

function isReadableStream(s: unknown): s is ReadableStream<unknown> {
  return typeof s === 'object' && s !== null && typeof (s as ReadableStream).getReader === 'function'
}

function isAsyncIterable(s: unknown): s is AsyncIterable<unknown> {
  return s != null && typeof (s as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined
  const s = signal as AbortSignal
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s.aborted !== 'boolean' ||
    typeof s.addEventListener !== 'function' ||
    typeof s.removeEventListener !== 'function'
  ) {
    throw new RobotsInputError(`signal must be an AbortSignal, got ${describeValue(signal)}`)
  }
  return s
}

const ignore = () => {}

/** Refuses what a source's `next()` or `read()` gave when it is not an iterator result (an object). */
function checkStep(step: unknown, what: string): void {
  if (typeof step !== 'object' || step === null) throw new RobotsInputError(`parseRobotsStream: the source's ${what} gave ${describeValue(step)}, not an iterator result ({ done, value })`)
}

/** Reads a Web stream into `feeder`; cancels it when stopping before its end, releases the lock always. */
async function pumpWeb(stream: ReadableStream<unknown>, feeder: ChunkFeeder, signal: AbortSignal | undefined): Promise<void> {
  let r: ReadableStreamDefaultReader<unknown>
  try {
    r = stream.getReader()
  } catch {
    throw new RobotsInputError('parseRobotsStream: the ReadableStream is locked (another reader holds it)')
  }
  if (typeof r !== 'object' || r === null || typeof r.read !== 'function' || typeof r.cancel !== 'function' || typeof r.releaseLock !== 'function') {
    throw new RobotsInputError(`parseRobotsStream: getReader() gave ${describeValue(r)}, not a reader (read, cancel, releaseLock)`)
  }
  const abort = signal && new AbortRace(signal)
  // Set once the stream is over by itself (ended or errored): nothing to cancel then.
  let over = false
  let stopReason: unknown
  try {
    for (;;) {
      let step: ReadableStreamReadResult<unknown>
      try {
        step = await (abort ? abort.race(r.read()) : r.read())
      } catch (err) {
        if (!signal?.aborted) over = true // the stream errored
        throw err
      }
      checkStep(step, 'read()')
      if (step.done) {
        over = true
        break
      }
      if (!feeder.push(step.value)) break // the limit: stop reading
    }
    feeder.end()
  } catch (err) {
    stopReason = err
    throw err
  } finally {
    abort?.dispose()
    // cancel() closes the stream at once (a pending read resolves as done) and
    // calls the source's cancel(); that may take its time, so it is not awaited.
    if (!over) r.cancel(stopReason).catch(ignore)
    r.releaseLock()
  }
}

/** Reads an async iterable into `feeder`; closes its iterator (`return()`) when stopping before its end. */
async function pumpIterable(source: AsyncIterable<unknown>, feeder: ChunkFeeder, signal: AbortSignal | undefined): Promise<void> {
  const it = source[Symbol.asyncIterator]()
  if (typeof it !== 'object' || it === null || typeof it.next !== 'function') {
    throw new RobotsInputError(`parseRobotsStream: [Symbol.asyncIterator]() gave ${describeValue(it)}, not an iterator (an object with next())`)
  }
  const abort = signal && new AbortRace(signal)
  let over = false
  let aborted = false
  try {
    if (signal?.aborted) {
      aborted = true
      throw signal.reason
    }
    for (;;) {
      let step: IteratorResult<unknown>
      try {
        step = await (abort ? abort.race(it.next()) : it.next())
      } catch (err) {
        if (signal?.aborted) aborted = true
        else over = true // next() threw: the iterator is finished (as for-await treats it)
        throw err
      }
      checkStep(step, 'next()')
      if (step.done) {
        over = true
        break
      }
      if (!feeder.push(step.value)) break // the limit: stop reading
    }
    feeder.end()
  } finally {
    abort?.dispose()
    if (!over && typeof it.return === 'function') {
      // As for-await does when leaving early. After an abort a pending next()
      // may hold the iterator (an async generator queues return() behind it),
      // so return() is requested but not awaited.
      const closing = Promise.resolve()
        .then(() => it.return!())
        .catch(ignore)
      if (!aborted) await closing
    }
    // A Node stream's iterator is such an async generator: destroy the stream
    // itself, so that an abandoned socket or file is closed now.
    if (aborted) destroyNodeStream(source)
  }
}

/** Destroys `source` if it is a Node-style stream (has `destroy()`), without an error event. */
function destroyNodeStream(source: unknown): void {
  const s = source as { destroy?: unknown; destroyed?: unknown }
  if (typeof s.destroy === 'function' && s.destroyed !== true) {
    try {
      ;(s.destroy as () => void)()
    } catch {
      // Nothing more can be done for a source that fails to close.
    }
  }
}

/** Feeds `source` into `reader` (whose checked limit is `limit`) until it ends or the limit is reached (ownership of the source: {@link parseRobotsStream}). */
export async function pump(source: ByteSource, reader: LineReader, limit: number, signal?: AbortSignal): Promise<void> {
  const feeder = new ChunkFeeder(reader, limit)
  if (isReadableStream(source)) {
    if (signal?.aborted && !source.locked) {
      source.cancel(signal.reason).catch(ignore)
      throw signal.reason
    }
    return pumpWeb(source, feeder, signal)
  }
  if (isAsyncIterable(source)) return pumpIterable(source, feeder, signal)
  throw new RobotsInputError('parseRobotsStream takes an AsyncIterable<Uint8Array> or a ReadableStream<Uint8Array>')
}

/**
 * Parses a robots.txt body from a stream; same result as `parseRobots` on the
 * concatenated bytes (string chunks: on the concatenated string). `signal`
 * abandons the read.
 *
 * **Who owns the source.** Arguments are checked before the source is touched:
 * a bad `limit` or `signal`, a source that is not a stream, or a
 * `ReadableStream` that is already locked is rejected and the source is left
 * as it was. From then on the source belongs to the parse. Whenever reading
 * stops before the source's end (the limit, an abort — also a signal that was
 * aborted before the call — a chunk that is not bytes or a string), a
 * `ReadableStream` is cancelled (`cancel(reason)`) and an async iterator is
 * closed (`return()`; after an abort it is not awaited, and a Node stream is
 * also destroyed, since its iterator cannot return while a read is pending).
 * A `ReadableStream`'s lock is released on every path, so `stream.locked` is
 * false once the promise settles; the bytes not read are gone (`tee()` first
 * to keep them). A source that errors is not cancelled (it is over already);
 * its error rejects the promise as is.
 */
export async function parseRobotsStream(source: ByteSource, options: StreamParseOptions = {}): Promise<Robots> {
  // Each option read once: the values checked are the values used.
  const o: StreamParseOptions = checkParseOptions(options, 'parseRobotsStream')
  const signal = checkSignal(o.signal)
  const builder = new RobotsBuilder()
  const reader = readerFor(builder, o.limit, builder)
  await pump(source, reader, checkLimit(o.limit), signal)
  return robotsFrom(builder, reader, o)
}
