/**
 * Where matching starts in a URL: the reference's GetPathParamsQuery.
 *
 * Scheme and authority are skipped (a leading `//` too), the fragment is
 * dropped, a path that starts with `?` or `;` gets a `/` in front, and a URL
 * without a path gives `/`. (The matchers also end the path at a NUL byte: the
 * reference hands the path on to matching as a C string.)
 *
 * {@link pathStartOf} works on any indexable sequence of code units (bytes or
 * UTF-16): the characters it looks for are ASCII, so the positions agree.
 */

/** Encoded result of {@link pathStartOf}: `start * 2 + (needsSlash ? 1 : 0)`, or -1 for "the path is `/`". */
export type PathStart = number

/** Bytes that matter when looking for the path: 1 '/', 2 '?' or ';', 3 '#', 4 ':'. */
export const PATH_BYTE = new Uint8Array(256)
PATH_BYTE[47] = 1
PATH_BYTE[63] = 2
PATH_BYTE[59] = 2
PATH_BYTE[35] = 3
PATH_BYTE[58] = 4

const SLASH = 47
const QUESTION = 63
const SEMI = 59
const COLON = 58
const HASH = 35

/**
 * Finds where the path begins in `s[from, to)`. Returns -1 when the path is just `/` (no path, or a fragment before it).
 */
export function pathStartBytes(s: Uint8Array, from: number, to: number): PathStart {
  let search = from
  if (to - from >= 2 && s[from] === SLASH && s[from + 1] === SLASH) search = from + 2
  // One pass: the first path char, or a "://" before any, decides where the
  // authority ends; a '#' seen on the way means the fragment starts first.
  let hash = false
  let i = search
  for (; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === 0) continue
    if (k <= 2) return hash ? -1 : i * 2 + (k - 1)
    if (k === 3) hash = true
    else if (i + 2 < to && s[i + 1] === SLASH && s[i + 2] === SLASH) break
  }
  for (i += 3; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === 0 || k === 4) continue
    if (k <= 2) return hash ? -1 : i * 2 + (k - 1)
    hash = true
  }
  return -1
}

/** {@link pathStartBytes} for a string (UTF-16 code units). */
export function pathStartString(s: string): PathStart {
  const to = s.length
  let search = 0
  if (to >= 2 && s.charCodeAt(0) === SLASH && s.charCodeAt(1) === SLASH) search = 2
  let hash = false
  let i = search
  for (; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === SLASH || c === QUESTION || c === SEMI) return hash ? -1 : i * 2 + (c === SLASH ? 0 : 1)
    if (c === COLON && i + 2 < to && s.charCodeAt(i + 1) === SLASH && s.charCodeAt(i + 2) === SLASH) break
    if (c === HASH) hash = true
  }
  for (i += 3; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === SLASH || c === QUESTION || c === SEMI) return hash ? -1 : i * 2 + (c === SLASH ? 0 : 1)
    if (c === HASH) hash = true
  }
  return -1
}

/** End of the path that starts at `start`: the first `#` or NUL, or `to`. */
export function pathEndBytes(s: Uint8Array, start: number, to: number): number {
  for (let i = start; i < to; i++) {
    const c = s[i]
    if (c === HASH || c === 0) return i
  }
  return to
}

/**
 * The reference's GetPathParamsQuery: `pathOf('https://a.com/b?c#d')` → `'/b?c'`,
 * `pathOf('//a/b/c')` → `'/b/c'`, `pathOf('')` → `'/'`.
 */
export function pathOf(url: string): string {
  const ps = pathStartString(url)
  if (ps < 0) return '/'
  const start = ps >> 1
  let end = url.length
  for (let i = start; i < end; i++) {
    if (url.charCodeAt(i) === HASH) {
      end = i
      break
    }
  }
  const path = url.slice(start, end)
  return ps & 1 ? '/' + path : path
}
