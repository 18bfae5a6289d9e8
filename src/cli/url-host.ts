/**
 * Byte-level looks at a URL line, without making a string: is it an absolute
 * http(s) URL or a path (for the "invalid" count), and where is its host (for
 * `--robots-dir`).
 */

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
