/**
 * Byte-level looks at a URL line, without making a string: is it an absolute
 * http(s) URL or a path (for the "invalid" count), and where is its host (for
 * `--robots-dir`).
 */

import { FNV_OFFSET, FNV_PRIME } from '../hosts/host-index.js'

const SLASH = 0x2f
const COLON = 0x3a

/**
 * Whether `bytes[start, end)` looks like an absolute http(s) URL or a path:
 * it starts with `/`, or with `http://` or `https://` (any case) followed by
 * at least one host byte. Lines that do not (an empty line, `example.com/a`,
 * `ftp://…`, binary junk) count as invalid in the summary; they are still
 * judged, as the reference judges any URL string.
 */
export function isUrlOrPath(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return false
  if (bytes[start] === SLASH) return true
  if (end - start < 8) return false
  if ((bytes[start] | 0x20) !== 0x68 || (bytes[start + 1] | 0x20) !== 0x74 || (bytes[start + 2] | 0x20) !== 0x74 || (bytes[start + 3] | 0x20) !== 0x70) {
    return false
  }
  let p = start + 4
  if ((bytes[p] | 0x20) === 0x73) p++
  if (bytes[p] !== COLON || bytes[p + 1] !== SLASH || bytes[p + 2] !== SLASH) return false
  p += 3
  if (p >= end) return false
  const b = bytes[p]
  return b !== SLASH && b !== 0x3f && b !== 0x23
}

/** Per byte: 1 ends the authority (`/ ? # \`), 2 is `@`, 0 otherwise. */
const AUTHORITY = new Uint8Array(256)
AUTHORITY[SLASH] = AUTHORITY[0x3f] = AUTHORITY[0x23] = AUTHORITY[0x5c] = 1
AUTHORITY[0x40] = 2

/** Whether `b` may continue a URL scheme (RFC 3986: ALPHA / DIGIT / "+" / "-" / "."). */
function isSchemeByte(b: number): boolean {
  const l = b | 0x20
  return (l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2d || b === 0x2e
}

/**
 * Finds the host of the URL in `bytes[start, end)`:
 * `scheme://[userinfo@]host[:port][/?#\…]`. The host is written to
 * `out[0]` (start) and `out[1]` (end), the end of the authority (the offset of
 * the `/`, `?`, `#` or `\` after it, or `end`) to `out[2]` when `out` has room,
 * and `true` returned; an IPv6 literal keeps its brackets; the port is left
 * out. Returns `false` when the line has no scheme followed by `://` or the
 * host is empty. Case is left as is.
 */
export function findHost(bytes: Uint8Array, start: number, end: number, out: Int32Array): boolean {
  let p = start
  if (p >= end) return false
  const first = bytes[p] | 0x20
  if (first < 0x61 || first > 0x7a) return false
  p++
  while (p < end && isSchemeByte(bytes[p])) p++
  if (p + 3 > end || bytes[p] !== COLON || bytes[p + 1] !== SLASH || bytes[p + 2] !== SLASH) return false
  p += 3
  // The authority runs to the first '/', '?', '#' or '\'.
  let authorityEnd = p
  let at = -1
  while (authorityEnd < end) {
    const kind = AUTHORITY[bytes[authorityEnd]]
    if (kind !== 0) {
      if (kind === 1) break
      at = authorityEnd
    }
    authorityEnd++
  }
  const hostStart = at >= 0 ? at + 1 : p
  let hostEnd = hostStart
  if (hostStart < authorityEnd && bytes[hostStart] === 0x5b) {
    // [IPv6]: up to and including the closing bracket.
    while (hostEnd < authorityEnd && bytes[hostEnd] !== 0x5d) hostEnd++
    if (hostEnd === authorityEnd) return false
    hostEnd++
  } else {
    while (hostEnd < authorityEnd && bytes[hostEnd] !== COLON) hostEnd++
  }
  if (hostEnd === hostStart) return false
  out[0] = hostStart
  out[1] = hostEnd
  if (out.length > 2) out[2] = authorityEnd
  return true
}

/**
 * Finds the host in a host column (`--host-field`) `bytes[start, end)`: a
 * host (`example.com`), a host and port (`example.com:8080`, `[::1]:80`), or
 * a URL (then as `findHost`). Writes the host's range to `out[0]`, `out[1]`
 * and returns true; false when the column holds no host.
 */
export function hostOfField(bytes: Uint8Array, start: number, end: number, out: Int32Array): boolean {
  for (let p = start; p + 2 < end; p++) {
    if (bytes[p] === COLON && bytes[p + 1] === SLASH && bytes[p + 2] === SLASH) return findHost(bytes, start, end, out)
  }
  if (start >= end) return false
  let hostEnd = start
  if (bytes[start] === 0x5b) {
    while (hostEnd < end && bytes[hostEnd] !== 0x5d) hostEnd++
    if (hostEnd === end) return false
    hostEnd++
  } else {
    while (hostEnd < end && bytes[hostEnd] !== COLON && AUTHORITY[bytes[hostEnd]] !== 1) hostEnd++
  }
  if (hostEnd === start) return false
  out[0] = start
  out[1] = hostEnd
  return true
}

/** Byte classes of `scanHost`'s loop over the authority (`SCAN_CLASS[byte]`); every other byte is `Plain`. */
const enum ScanClass {
  Plain = 0,
  /** `/ ? # \`: ends the authority. */
  End = 1,
  /** `@`: ends the userinfo; the host starts again after it (the last one wins). */
  At = 2,
  /** `:`: ends the host (the port follows), unless inside an IPv6 literal's brackets. */
  Colon = 3,
  /** `]`: ends an IPv6 literal's host (included). */
  Close = 4,
}
const SCAN_CLASS = new Uint8Array(256)
SCAN_CLASS[SLASH] = SCAN_CLASS[0x3f] = SCAN_CLASS[0x23] = SCAN_CLASS[0x5c] = ScanClass.End
SCAN_CLASS[0x40] = ScanClass.At
SCAN_CLASS[COLON] = ScanClass.Colon
SCAN_CLASS[0x5d] = ScanClass.Close

/** `scanHost`'s answer when `out` is too small for the host: grow it (to the line's length at most) and ask again. */
export const SCAN_OUT_TOO_SMALL = -1

/**
 * `findHost` and `foldHost` (../hosts/host-index.ts) in one pass over the authority
 * of the URL `bytes[start, end)`, for the per-line loop of `--robots-dir`
 * and `--bundle`: the host is found as `findHost` finds it, written
 * ASCII-lowercased to `out[0, length)`, and its `hostHash` computed on the
 * way (`secondHash`, needed only for a host without an entry, is left to
 * the caller). Returns the host's length, and writes to `info` (4 slots):
 * `[0]` host start, `[1]` host end, `[2]` end of the authority (as
 * `findHost`'s `out`), `[3]` `hostHash`. Returns 0
 * when the line has no host (where `findHost` returns false), or
 * `SCAN_OUT_TOO_SMALL`.
 */
export function scanHost(bytes: Uint8Array, start: number, end: number, out: Uint8Array, info: Int32Array): number {
  let p = start
  if (p >= end) return 0
  const first = bytes[p] | 0x20
  if (first < 0x61 || first > 0x7a) return 0
  p++
  while (p < end && isSchemeByte(bytes[p])) p++
  if (p + 3 > end || bytes[p] !== COLON || bytes[p + 1] !== SLASH || bytes[p + 2] !== SLASH) return 0
  p += 3
  const cap = out.length
  let hostStart = p
  /** Where the host ended (-1: still in it; later bytes up to the authority's end are only looked at for `@`). */
  let hostEnd = -1
  let bracket = p < end && bytes[p] === 0x5b
  let o = 0
  let a = FNV_OFFSET
  let q = p
  for (; q < end; q++) {
    let c = bytes[q]
    const kind = SCAN_CLASS[c]
    if (kind === ScanClass.End) break
    if (kind === ScanClass.At) {
      hostStart = q + 1
      hostEnd = -1
      bracket = hostStart < end && bytes[hostStart] === 0x5b
      o = 0
      a = FNV_OFFSET
      continue
    }
    if (hostEnd >= 0) continue
    if (kind === ScanClass.Colon && !bracket) {
      hostEnd = q
      continue
    }
    if (o === cap) return SCAN_OUT_TOO_SMALL
    if (c >= 0x41 && c <= 0x5a) c |= 0x20
    out[o++] = c
    a = Math.imul(a ^ c, FNV_PRIME)
    if (kind === ScanClass.Close && bracket) hostEnd = q + 1
  }
  if (hostEnd < 0) {
    // An IPv6 literal without its closing bracket is no host.
    if (bracket) return 0
    hostEnd = q
  }
  if (o === 0) return 0
  info[0] = hostStart
  info[1] = hostEnd
  info[2] = q
  info[3] = a
  return o
}
