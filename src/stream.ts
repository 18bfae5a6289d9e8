/**
 * Parsing from a stream: an `AsyncIterable<Uint8Array>` (Node streams, async
 * generators) or a Web `ReadableStream<Uint8Array>`. Chunks are parsed as they
 * arrive; reading stops at the limit and the source is cancelled. Memory is one
 * line plus the chunk in hand.
 */
import { RobotsInputError } from './errors.js'
import { createParser } from './parse/parser.js'
import { RobotsBuilder } from './rules/builder.js'
import { robotsFrom, type ParseOptions, type Robots } from './robots.js'
import type { LineReader } from './parse/reader.js'

/** A source of body bytes. Strings in an async iterable are taken as UTF-8. */
export type ByteSource = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>

const encoder = new TextEncoder()

function asBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk
  if (typeof chunk === 'string') return encoder.encode(chunk)
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk)
  throw new RobotsInputError(`stream chunks must be Uint8Array or string, got ${Object.prototype.toString.call(chunk)}`)
}

/** Feeds `source` into `reader` until it ends or the limit is reached. */
export async function pump(source: ByteSource, reader: LineReader): Promise<void> {
  if (isReadableStream(source)) {
    const r = source.getReader()
    try {
      for (;;) {
        const { done, value } = await r.read()
        if (done) break
        if (!reader.push(asBytes(value))) {
          await r.cancel().catch(() => {})
          break
        }
      }
    } finally {
      r.releaseLock()
    }
  } else if (source && typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const chunk of source as AsyncIterable<unknown>) {
      // Leaving the loop early calls the iterator's return(): the source is closed.
      if (!reader.push(asBytes(chunk))) break
    }
  } else {
    throw new RobotsInputError('parseRobotsStream takes an AsyncIterable<Uint8Array> or a ReadableStream<Uint8Array>')
  }
  reader.end()
}

function isReadableStream(s: unknown): s is ReadableStream<Uint8Array> {
  return typeof s === 'object' && s !== null && typeof (s as ReadableStream).getReader === 'function'
}

/** Parses a robots.txt body from a stream; same result as `parseRobots` on the concatenated bytes. */
export async function parseRobotsStream(source: ByteSource, options: ParseOptions = {}): Promise<Robots> {
  const builder = new RobotsBuilder()
  const reader = createParser(builder, options.limit)
  await pump(source, reader)
  return robotsFrom(builder, reader, options)
}
