/**
 * A logged request line's escapes, undone, so that the request is judged as
 * it was sent: the bytes a URL list would give.
 *
 * - Apache (`%r`, `%U`, …) writes `\"` and `\\`, `\b \n \r \t \v`, and
 *   `\xhh` for any other byte that is not printable ASCII (every byte from
 *   0x80 on: a UTF-8 path is logged as `/caf\xc3\xa9`).
 * - nginx (`$request`, default `escape`) writes `\xHH` for `"`, `\`, control
 *   bytes and every byte from 0x7f on; with `escape=json`, `\"`, `\\`,
 *   `\b \f \n \r \t` and `\u00HH`.
 *
 * A backslash before anything else stays as written: only a log that does
 * not escape (nginx's `escape=none`) writes one so, and there it is a byte
 * of the request.
 */
import { BACKSLASH } from './fields.js'

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30
  const l = b | 0x20
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1
}

/** The byte of two hex digits at `bytes[p]`, `bytes[p + 1]` (before `end`), or -1. */
function hexByte(bytes: Uint8Array, p: number, end: number): number {
  if (p + 2 > end) return -1
  const hi = hexValue(bytes[p])
  const lo = hexValue(bytes[p + 1])
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo
}

/** The control byte that `\` + `b` stands for (`\b \f \n \r \t \v`), or -1. */
function controlByte(b: number): number {
  switch (b) {
    case 0x62:
      return 0x08
    case 0x66:
      return 0x0c
    case 0x6e:
      return 0x0a
    case 0x72:
      return 0x0d
    case 0x74:
      return 0x09
    case 0x76:
      return 0x0b
    default:
      return -1
  }
}

/**
 * `bytes[start, end)` with its log escapes undone (a new array), or
 * undefined when it holds no backslash (then it is its own text). Linear in
 * its length.
 */
export function unescapeLogged(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  // Within the range only: a search to the block's end would make a block of lines quadratic.
  let p = start
  while (p < end && bytes[p] !== BACKSLASH) p++
  if (p === end) return undefined
  const out = new Uint8Array(end - start)
  out.set(bytes.subarray(start, p))
  let n = p - start
  while (p < end) {
    const b = bytes[p]
    if (b !== BACKSLASH || p + 1 >= end) {
      out[n++] = b
      p++
      continue
    }
    const c = bytes[p + 1]
    let value = -1
    let width = 2
    if (c === 0x22 || c === BACKSLASH) value = c
    else if (c === 0x78) {
      value = hexByte(bytes, p + 2, end)
      width = 4
    } else if (c === 0x75 && p + 6 <= end && bytes[p + 2] === 0x30 && bytes[p + 3] === 0x30) {
      value = hexByte(bytes, p + 4, end)
      width = 6
    } else value = controlByte(c)
    if (value < 0) {
      out[n++] = b
      p++
      continue
    }
    out[n++] = value
    p += width
  }
  return out.subarray(0, n)
}
