/**
 * Pattern normalisation, as the reference's MaybeEscapePattern: bytes with the
 * high bit set are percent-encoded, and the hex digits of existing `%xx`
 * escapes are uppercased. Everything else is kept as is.
 */

import { describeValue, RobotsInputError } from '../errors.js'

const HEX = '0123456789ABCDEF'

function isHex(b: number): boolean {
  return (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102)
}

/**
 * Escapes pattern bytes into a new array; returns the input itself when
 * nothing changes. One loop with {@link escapeRange}: the scratch buffer is
 * copied out, and dropped again when an over-long input grew it.
 */
export function escapePatternBytes(src: Uint8Array): Uint8Array {
  const n = escapeRange(src, 0, src.length)
  if (n < 0) return src
  const out = escaped.bytes.slice(0, n)
  if (escaped.bytes.length > MAX_ESCAPED) escaped.bytes = new Uint8Array(256)
  return out
}

/** Longest escaped value: one line of 16,663 bytes, each byte escaped to three. */
const MAX_ESCAPED = 3 * 16_663

/**
 * Where {@link escapeRange} writes: the parser's one scratch buffer for
 * escaped values (valid until the next call; it grows to at most
 * MAX_ESCAPED bytes, one line escaped, and stays that size).
 */
export const escaped = { bytes: new Uint8Array(256) }

/**
 * Escapes `src[start, end)` into `escaped.bytes` and returns the length, or
 * -1 when escaping changes nothing (then use the range itself). No
 * allocation per call.
 */
export function escapeRange(src: Uint8Array, start: number, end: number): number {
  let extra = 0
  let capitalize = false
  for (let i = start; i < end; i++) {
    const b = src[i]
    if (b === 37 && i + 2 < end && isHex(src[i + 1]) && isHex(src[i + 2])) {
      if (src[i + 1] >= 97 || src[i + 2] >= 97) capitalize = true
      i += 2
    } else if (b >= 0x80) {
      extra += 2
    }
  }
  if (extra === 0 && !capitalize) return -1
  const n = end - start + extra
  if (escaped.bytes.length < n) escaped.bytes = new Uint8Array(Math.max(n, Math.min(MAX_ESCAPED, escaped.bytes.length * 2)))
  const dst = escaped.bytes
  let j = 0
  for (let i = start; i < end; i++) {
    const b = src[i]
    if (b === 37 && i + 2 < end && isHex(src[i + 1]) && isHex(src[i + 2])) {
      dst[j++] = 37
      dst[j++] = upper(src[++i])
      dst[j++] = upper(src[++i])
    } else if (b >= 0x80) {
      dst[j++] = 37
      dst[j++] = HEX.charCodeAt(b >> 4)
      dst[j++] = HEX.charCodeAt(b & 15)
    } else {
      dst[j++] = b
    }
  }
  return j
}

function upper(b: number): number {
  return b >= 97 && b <= 122 ? b - 32 : b
}

const encoder = new TextEncoder()

/**
 * `escapePattern('/ä%2f')` → `'/%C3%A4%2F'`: the reference's MaybeEscapePattern
 * on the UTF-8 bytes of the string. The result is ASCII.
 */
export function escapePattern(pattern: string): string {
  if (typeof pattern !== 'string') throw new RobotsInputError(`escapePattern takes a string, got ${describeValue(pattern)}`)
  return latin1(escapePatternBytes(encoder.encode(pattern)))
}

/** Decodes bytes one char per byte (for ASCII results such as escaped patterns). */
export function latin1(bytes: Uint8Array): string {
  if (bytes.length <= 16) {
    let short = ''
    for (let i = 0; i < bytes.length; i++) short += String.fromCharCode(bytes[i])
    return short
  }
  let s = ''
  for (let i = 0; i < bytes.length; i += 4096) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[])
  }
  return s
}

const utf8 = new TextDecoder()

/** Decodes bytes as UTF-8, invalid sequences replaced (all-ASCII bytes one char per byte, the faster way). */
export function utf8Text(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return utf8.decode(bytes)
  return latin1(bytes)
}
