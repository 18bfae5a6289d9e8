/**
 * Helpers shared by the core-library tests: a recording ParseHandler, chunk
 * splitters, stream sources and a seeded random generator.
 */
import { createParser, type ParseHandler } from '../../src/internals.js'

/** Copies bytes to a latin1 string (one char per byte), so a log keeps exact bytes. */
export function bytesKey(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')
}

/** A ParseHandler that logs every call, with copies of its bytes. */
export class Recorder implements ParseHandler {
  readonly log: string[] = []
  userAgent(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`ua ${line} ${bytesKey(bytes.subarray(start, end))}`)
  }
  allow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`allow ${line} ${bytesKey(bytes.subarray(start, end))}`)
  }
  disallow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`disallow ${line} ${bytesKey(bytes.subarray(start, end))}`)
  }
  sitemap(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`sitemap ${line} ${bytesKey(bytes.subarray(start, end))}`)
  }
  unknown(line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`unknown ${line} ${bytesKey(keyBytes.subarray(keyStart, keyEnd))} ${bytesKey(bytes.subarray(start, end))}`)
  }
  lineEnd(line: number, flags: number, bytes: Uint8Array, start: number, end: number): void {
    this.log.push(`end ${line} ${flags} ${bytesKey(bytes.subarray(start, end))}`)
  }
}

/** What one parse through `createParser` produced. */
export interface Recording {
  log: string[]
  bytesRead: number
  truncated: boolean
  lineCount: number
}

/** Feeds `chunks` to `createParser(recorder)` (stopping when the reader says so) and returns the log. */
export function recordChunks(chunks: readonly Uint8Array[], limit?: number): Recording {
  const rec = new Recorder()
  const reader = createParser(rec, limit)
  for (const c of chunks) if (!reader.push(c)) break
  reader.end()
  return { log: rec.log, bytesRead: reader.bytesRead, truncated: reader.truncated, lineCount: reader.lineCount }
}

/** Cuts `body` at the given offsets (sorted, within [0, length]). Copies each chunk. */
export function splitAt(body: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = []
  let prev = 0
  for (const o of offsets) {
    out.push(body.slice(prev, o))
    prev = o
  }
  out.push(body.slice(prev))
  return out
}

/** Fixed-size chunks (views). */
export function fixedChunks(body: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let i = 0; i < body.length; i += size) out.push(body.subarray(i, i + size))
  return out
}

/** mulberry32, the seeded PRNG the benchmarks' generators use too (one home: ./prng.mjs). */
export { prng as seededRandom } from './prng.mjs'

/** Random sorted cut offsets in (0, length), `parts - 1` of them (duplicates allowed: empty chunks). */
export function randomOffsets(length: number, parts: number, rnd: () => number): number[] {
  const offs: number[] = []
  for (let i = 0; i < parts - 1; i++) offs.push(Math.floor(rnd() * (length + 1)))
  return offs.sort((a, b) => a - b)
}

/** An async iterable over the chunks (each yielded as is). */
export async function* asyncChunks(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c
}

/** A Web ReadableStream that hands out the chunks on pull. */
export function webStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++])
      else controller.close()
    },
  })
}

/** Bytes of a latin1 string (each char one byte). */
export function latin1Bytes(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'latin1'))
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** Hex of the first differing position of two byte arrays, for readable failures. */
export function firstDiff(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i
  return a.length === b.length ? -1 : n
}

/** Runs `f` (awaited) while recording the length of every string a TextEncoder encodes; the lengths. */
export async function encodedLengths(f: () => unknown): Promise<number[]> {
  const seen: number[] = []
  const encode = TextEncoder.prototype.encode
  TextEncoder.prototype.encode = function (this: TextEncoder, input?: string) {
    seen.push(input?.length ?? 0)
    return encode.call(this, input)
  }
  try {
    await f()
  } finally {
    TextEncoder.prototype.encode = encode
  }
  return seen
}
