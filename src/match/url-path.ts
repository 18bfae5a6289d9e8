/**
 * The path a URL is matched by: the reference's GetPathParamsQuery, and
 * where that path ends for matching. One home for both rules:
 *
 * - **Start** ({@link pathStartBytes}, {@link pathStartString}): scheme and
 *   authority are skipped (a leading `//` too), a path that starts with `?`
 *   or `;` gets a `/` in front, and a URL without a path, or with the
 *   fragment before any path, gives `/`.
 * - **End** ({@link pathEndBytes}): the first `#` (the fragment is dropped)
 *   or NUL byte (the reference hands the path on to matching as a C string,
 *   so the path the rules see ends there).
 *
 * The start scan is written twice on purpose, for bytes and for strings
 * (UTF-16 code units; the characters it looks for are ASCII, so positions
 * agree), so that a string URL is matched without making its bytes; and
 * `AutomatonEngine.decideLines` fuses a third copy into its one-pass line
 * loop, kept for speed and marked there. One data suite checks all three:
 * the URL cases of test/match/url-path.test.ts run over strings, bytes and
 * `matchLines`, against the reference's GetPathParamsQuery vectors. The automaton's hot loops end the path with its byte
 * classes instead of {@link pathEndBytes} (`#` and NUL form the END class,
 * byte-classes.ts).
 */

import { describeValue, RobotsInputError } from '../errors.js'

/**
 * Where a path starts, encoded in one number (no allocation): `start * 2 +
 * (a '/' goes in front ? 1 : 0)`, or {@link PATH_IS_SLASH}. Read it with
 * {@link pathIndex}, {@link slashPrepended} and {@link afterSlash}.
 */
export type PathStart = number

/** The PathStart of a URL whose path is just `/` (no path, or a fragment before it). */
export const PATH_IS_SLASH = -1

/** Index of the path's first code unit (its `/`, or the `?`/`;` that gets one in front). */
export function pathIndex(ps: PathStart): number {
  return ps >> 1
}

/** True when the path starts with `?` or `;`, so a `/` goes in front. */
export function slashPrepended(ps: PathStart): boolean {
  return (ps & 1) === 1
}

/** Index of the first code unit after the path's leading `/` (which every path has, given or prepended). */
export function afterSlash(ps: PathStart): number {
  return (ps >> 1) + ((ps & 1) ^ 1)
}

/** What a byte means to the path-start scan: the values of {@link PATH_BYTE}. */
export const enum PathByte {
  /** Nothing: the scan goes on. */
  Other = 0,
  /** `/`: the path starts here. */
  Slash = 1,
  /** `?` or `;`: the path starts here, with a `/` in front. */
  QueryOrParams = 2,
  /** `#`: the fragment starts; the path, if found later, is `/`. */
  Hash = 3,
  /** `:`: may start the `://` after a scheme. */
  Colon = 4,
  /** LF (only in the table of AutomatonEngine.decideLines): the line ends. */
  LineEnd = 5,
}

/** {@link PathByte} of every byte. */
export const PATH_BYTE = new Uint8Array(256)
PATH_BYTE[47] = PathByte.Slash
PATH_BYTE[63] = PathByte.QueryOrParams
PATH_BYTE[59] = PathByte.QueryOrParams
PATH_BYTE[35] = PathByte.Hash
PATH_BYTE[58] = PathByte.Colon

/** The PathStart of a path starting at `index` with a byte of kind `k` (Slash or QueryOrParams). */
export function pathStartAt(index: number, k: number): PathStart {
  return index * 2 + (k - PathByte.Slash)
}

const SLASH = 47
const QUESTION = 63
const SEMI = 59
const COLON = 58
const HASH = 35

/** Finds where the path begins in `s[from, to)` (a {@link PathStart}). */
export function pathStartBytes(s: Uint8Array, from: number, to: number): PathStart {
  let search = from
  if (to - from >= 2 && s[from] === SLASH && s[from + 1] === SLASH) search = from + 2
  // One pass: the first path char, or a "://" before any, decides where the
  // authority ends; a '#' seen on the way means the fragment starts first.
  let hash = false
  let i = search
  for (; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === PathByte.Other) continue
    if (k <= PathByte.QueryOrParams) return hash ? PATH_IS_SLASH : pathStartAt(i, k)
    if (k === PathByte.Hash) hash = true
    else if (i + 2 < to && s[i + 1] === SLASH && s[i + 2] === SLASH) break
  }
  for (i += 3; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === PathByte.Other || k === PathByte.Colon) continue
    if (k <= PathByte.QueryOrParams) return hash ? PATH_IS_SLASH : pathStartAt(i, k)
    hash = true
  }
  return PATH_IS_SLASH
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
    if (c === SLASH || c === QUESTION || c === SEMI) return hash ? PATH_IS_SLASH : pathStartAt(i, c === SLASH ? PathByte.Slash : PathByte.QueryOrParams)
    if (c === COLON && i + 2 < to && s.charCodeAt(i + 1) === SLASH && s.charCodeAt(i + 2) === SLASH) break
    if (c === HASH) hash = true
  }
  for (i += 3; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === SLASH || c === QUESTION || c === SEMI) return hash ? PATH_IS_SLASH : pathStartAt(i, c === SLASH ? PathByte.Slash : PathByte.QueryOrParams)
    if (c === HASH) hash = true
  }
  return PATH_IS_SLASH
}

/** End of the path that starts at `start`, for matching: the first `#` or NUL, or `to`. */
export function pathEndBytes(s: Uint8Array, start: number, to: number): number {
  for (let i = start; i < to; i++) {
    const c = s[i]
    if (c === HASH || c === 0) return i
  }
  return to
}

/**
 * The reference's GetPathParamsQuery: `pathOf('https://a.com/b?c#d')` → `'/b?c'`,
 * `pathOf('//a/b/c')` → `'/b/c'`, `pathOf('')` → `'/'`. The string as the
 * reference returns it (a NUL is kept; matching stops there, see matchPath).
 */
export function pathOf(url: string): string {
  if (typeof url !== 'string') throw new RobotsInputError(`pathOf takes a string, got ${describeValue(url)}`)
  const ps = pathStartString(url)
  if (ps === PATH_IS_SLASH) return '/'
  const start = pathIndex(ps)
  let end = url.length
  for (let i = start; i < end; i++) {
    if (url.charCodeAt(i) === HASH) {
      end = i
      break
    }
  }
  const path = url.slice(start, end)
  return slashPrepended(ps) ? '/' + path : path
}

const encoder = new TextEncoder()

/** UTF-8 bytes of a URL given as string or bytes. */
export function urlBytes(url: string | Uint8Array): Uint8Array {
  return typeof url === 'string' ? encoder.encode(url) : url
}

/**
 * The path bytes the rules are matched against for `url[start, end)`:
 * GetPathParamsQuery, ended at `#` or NUL ({@link pathEndBytes}). A copy, for
 * the slow paths (the plain and reference engines, tests); the automaton
 * scans in place.
 */
export function matchPath(url: Uint8Array, start = 0, end = url.length): Uint8Array {
  const ps = pathStartBytes(url, start, end)
  if (ps === PATH_IS_SLASH) return Uint8Array.of(SLASH)
  const from = pathIndex(ps)
  const to = pathEndBytes(url, from, end)
  if (!slashPrepended(ps)) return url.slice(from, to)
  const out = new Uint8Array(to - from + 1)
  out[0] = SLASH
  out.set(url.subarray(from, to), 1)
  return out
}
