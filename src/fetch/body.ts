/**
 * The body of a 2xx response as `fetchRobots` reads it: decoded (strictly when
 * the platform let the body through encoded, see content-coding.ts) and
 * checked against its `Content-Length`.
 */
import { CODING_HEADER, decodeStrictly, parseCodings } from './content-coding.js'
import type { Robots } from '../robots/robots.js'
import type { FetchFailure } from './outcome.js'

/** A response body ready to parse. */
export interface ResponseBody {
  /** The decoded bytes. */
  stream: ReadableStream<Uint8Array>
  /** The `Content-Length` when it counts the decoded bytes (no content coding); else undefined. */
  expectedLength: number | undefined
}

/**
 * `Content-Length` as a number; undefined when absent or not one valid value
 * (a list of equal values, as merged duplicate headers give, counts as one).
 */
export function contentLength(headers: Headers): number | undefined {
  const v = headers.get('content-length')
  if (v === null) return undefined
  const parts = v.split(',').map((p) => p.trim())
  const first = parts[0]!
  if (!/^\d+$/.test(first) || parts.some((p) => p !== first)) return undefined
  const n = Number(first)
  return Number.isSafeInteger(n) ? n : undefined
}

/**
 * The body of `res` to parse, or null when it has none (204, …). `undecoded`
 * says the platform handed the body over still encoded (its coding moved to
 * `CODING_HEADER`): it is decoded here, strictly.
 */
export function openBody(res: Response, undecoded: boolean): ResponseBody | null {
  if (!res.body) return null
  if (undecoded) {
    return { stream: decodeStrictly(res.body, parseCodings(res.headers.get(CODING_HEADER))), expectedLength: undefined }
  }
  const codings = parseCodings(res.headers.get('content-encoding'))
  const unknown = codings.find((c) => !PLATFORM_CODINGS.has(c))
  if (unknown !== undefined) return { stream: res.body.pipeThrough(refuseBytes(`content coding ${unknown}`)), expectedLength: undefined }
  // Platforms undo chunked only: a body under another transfer coding (gzip) comes through as sent.
  const transfer = parseCodings(res.headers.get('transfer-encoding')).find((c) => c !== 'chunked')
  if (transfer !== undefined) return { stream: res.body.pipeThrough(refuseBytes(`transfer coding ${transfer}`)), expectedLength: undefined }
  if (codings.length === 0) return { stream: res.body, expectedLength: contentLength(res.headers) }
  const outer = codings[codings.length - 1]!
  const magic = MAGIC[outer]
  return { stream: magic ? res.body.pipeThrough(refuseEncoded(outer, magic)) : res.body, expectedLength: undefined }
}

/** The first bytes of data in a coding (gzip, zstd): a body that still starts with them was not decoded. */
const MAGIC: Record<string, readonly number[]> = { gzip: [0x1f, 0x8b], 'x-gzip': [0x1f, 0x8b], zstd: [0x28, 0xb5, 0x2f, 0xfd] }

/** Passes a body on, erroring when it starts with `magic`: the platform did not decode `coding` (zstd on Node 20, a `fetch` passed in that decodes nothing). */
function refuseEncoded(coding: string, magic: readonly number[]): TransformStream<Uint8Array, Uint8Array> {
  // Bytes of `magic` matched from the body's start, -1 once one differs.
  let seen = 0
  return new TransformStream({
    transform(chunk, controller) {
      for (let i = 0; seen >= 0 && seen < magic.length && i < chunk.length; i++) seen = chunk[i] === magic[seen] ? seen + 1 : -1
      if (seen === magic.length) throw Object.assign(new Error(`a body still in content coding ${coding}: not decoded`), { code: 'ERR_CONTENT_CODING' })
      controller.enqueue(chunk)
    },
  })
}

/** The codings platforms decode; a body in any other reaches us as sent, and is not the file. */
const PLATFORM_CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd'])

/** A stream that errors at the first byte of a body in `coding`, which nobody decoded (an empty body is an empty file). */
function refuseBytes(coding: string): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk) {
      if (chunk.length > 0) throw Object.assign(new Error(`a ${coding.slice(0, 60)} not decoded`), { code: 'ERR_CONTENT_CODING' })
    },
  })
}

/**
 * The failure of a body that ended without an error but not at its
 * `Content-Length` (a `fetch` that does not check it, or a server that closed
 * early where the platform did not notice); undefined when the body is whole
 * or reading stopped at the parsing limit.
 */
export function lengthFailure(robots: Robots, expected: number | undefined): FetchFailure | undefined {
  if (expected === undefined || robots.truncated || robots.bytesRead === expected) return undefined
  const how = robots.bytesRead < expected ? 'ended after' : 'ran to'
  return {
    phase: 'body',
    kind: 'length',
    message: `body ${how} ${robots.bytesRead} bytes, Content-Length is ${expected}`,
  }
}
