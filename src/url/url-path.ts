/**
 * The path a URL is matched by: the reference's GetPathParamsQuery
 * ({@link pathStartBytes}: scheme and authority skipped, a `/` in front of a
 * path starting with `?` or `;`, `/` for no path), and where that path ends
 * for matching ({@link pathEndBytes}: the first `#` or NUL). One home for both
 * rules; the copies kept for speed are listed at {@link pathStartString}.
 */

import { describeValue, RobotsInputError } from '../errors.js'
import { STRING_HEADER_BYTES, stringBytes } from '../memory.js'

/**
 * Where a path starts, encoded in one number (no allocation):
 * `index * PathStartCode.IndexScale + (a '/' goes in front ? PathStartCode.SlashPrepended : 0)`,
 * or `PathStartCode.JustSlash`. Multiplication, not shifts: an index into a
 * buffer of more than 1 GiB must survive. The slow paths read it with {@link pathIndex}
 * and {@link slashPrepended}; the automaton's hot loops write the same
 * operators on the constants (see match/automaton/state.ts for why).
 */
export type PathStart = number & { readonly __brand: 'PathStart' }

/** The constants of the {@link PathStart} encoding (a `const enum`: numbers in the bundle). */
export const enum PathStartCode {
  /** The path is just `/` (no path, or a fragment before it). */
  JustSlash = -1,
  /** Set when the path starts with `?` or `;`, so a `/` goes in front. */
  SlashPrepended = 1,
  /** The index of the path's first code unit, times this, plus the SlashPrepended bit. */
  IndexScale = 2,
}

/** The {@link PathStart} of a path whose first code unit is at `index` (`prepended`: a `/` goes in front of it). */
export function pathStartAt(index: number, prepended: boolean): PathStart {
  return (index * PathStartCode.IndexScale + (prepended ? PathStartCode.SlashPrepended : 0)) as PathStart
}

/** The {@link PathStart} of a URL whose path is just `/`. */
export const JUST_SLASH_START = PathStartCode.JustSlash as PathStart

/** Index of the path's first code unit (its `/`, or the `?`/`;` that gets one in front). */
export function pathIndex(ps: PathStart): number {
  return (ps - (ps & PathStartCode.SlashPrepended)) / PathStartCode.IndexScale
}

/** True when the path starts with `?` or `;`, so a `/` goes in front. */
export function slashPrepended(ps: PathStart): boolean {
  return (ps & PathStartCode.SlashPrepended) !== 0
}

/**
 * What a byte means to the path-start scan: the values of {@link PATH_BYTE}.
 * Slash and QueryOrParams are 1 and 2, so that `kind - PathByte.Slash` is
 * the {@link PathStartCode.SlashPrepended} bit of a path starting there.
 */
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

/** The ASCII bytes the scans look for (a `const enum`: numbers in the bundled loops). */
export const enum PathChar {
  Slash = 47,
  Question = 63,
  Semi = 59,
  Colon = 58,
  Hash = 35,
}

/**
 * Finds where the path begins in `s[from, to)` (a {@link PathStart}): scheme
 * and authority are skipped (a leading `//` too), a path that starts with `?`
 * or `;` gets a `/` in front, and a URL without a path, or with the fragment
 * before any path, gives `/`.
 */
export function pathStartBytes(s: Uint8Array, from: number, to: number): PathStart {
  let search = from
  if (to - from >= 2 && s[from] === PathChar.Slash && s[from + 1] === PathChar.Slash) search = from + 2
  // One pass: the first path char, or a "://" before any, decides where the
  // authority ends; a '#' seen on the way means the fragment starts first.
  let hash = false
  let i = search
  for (; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === PathByte.Other) continue
    if (k <= PathByte.QueryOrParams) return (hash ? PathStartCode.JustSlash : i * PathStartCode.IndexScale + (k - PathByte.Slash)) as PathStart
    if (k === PathByte.Hash) hash = true
    else if (i + 2 < to && s[i + 1] === PathChar.Slash && s[i + 2] === PathChar.Slash) break
  }
  for (i += 3; i < to; i++) {
    const k = PATH_BYTE[s[i]]
    if (k === PathByte.Other || k === PathByte.Colon) continue
    if (k <= PathByte.QueryOrParams) return (hash ? PathStartCode.JustSlash : i * PathStartCode.IndexScale + (k - PathByte.Slash)) as PathStart
    hash = true
  }
  return JUST_SLASH_START
}

/**
 * {@link pathStartBytes} for a string (UTF-16 code units).
 *
 * The start scan is written twice on purpose, for bytes and for strings (the
 * characters it looks for are ASCII, so positions agree), so that a string
 * URL is matched without making its bytes; and `AutomatonEngine.decideLines`
 * fuses a third copy into its one-pass line loop, kept for speed and marked
 * there. One data suite checks all three: the URL cases of
 * test/url/url-path.test.ts run over strings, bytes and `matchLines`,
 * against the reference's GetPathParamsQuery vectors.
 */
export function pathStartString(s: string): PathStart {
  const to = s.length
  let search = 0
  if (to >= 2 && s.charCodeAt(0) === PathChar.Slash && s.charCodeAt(1) === PathChar.Slash) search = 2
  let hash = false
  let i = search
  for (; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === PathChar.Slash || c === PathChar.Question || c === PathChar.Semi) return (hash ? PathStartCode.JustSlash : i * PathStartCode.IndexScale + (c === PathChar.Slash ? 0 : PathStartCode.SlashPrepended)) as PathStart
    if (c === PathChar.Colon && i + 2 < to && s.charCodeAt(i + 1) === PathChar.Slash && s.charCodeAt(i + 2) === PathChar.Slash) break
    if (c === PathChar.Hash) hash = true
  }
  for (i += 3; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === PathChar.Slash || c === PathChar.Question || c === PathChar.Semi) return (hash ? PathStartCode.JustSlash : i * PathStartCode.IndexScale + (c === PathChar.Slash ? 0 : PathStartCode.SlashPrepended)) as PathStart
    if (c === PathChar.Hash) hash = true
  }
  return JUST_SLASH_START
}

/**
 * {@link pathStartString} remembered per origin, for an engine's string
 * URLs: consecutive URLs of one site share their `scheme://authority`, and
 * the scan over it costs more than the rest of a hot URL (reading a string
 * by `charCodeAt` is slow on the sliced strings a reader makes; a native
 * comparison of the prefix is not). After a scan, the URL's prefix up to
 * and including the path's first char is kept; a URL that starts with that
 * prefix has its path start at the same index, with the same kind.
 *
 * Why that holds: the scan's decisions before the path's first char `j`
 * read chars up to `j`, except a `:` at `j - 1`, which looks two chars ahead
 * for `//`; and the leading `//` test reads chars 0 and 1. So a prefix is
 * kept only when `j ≥ 1`, the char before `j` is not `:`, and no `#` came
 * first (that start is `/`, not kept). The kept prefix is a copy of its own
 * (`flatCopy`), so that no caller's string (a slice of a page, a log) is
 * held. test/url/url-path.test.ts checks sequences that share, extend and
 * break origins against the plain scan.
 */
export class PathStartMemo {
  /** The URL prefix up to and including the remembered path's first char; empty: nothing remembered. */
  private prefix = ''
  private start: PathStart = JUST_SLASH_START
  /** Misses in a row: past the second, a prefix is kept once in MEMO_RETRY misses (URLs of many origins copy nothing). */
  private misses = 0

  /** The path start of a string URL (as {@link pathStartString}). */
  of(url: string): PathStart {
    const prefix = this.prefix
    // After a hit, indexOf (the engine's native search, a few ns cheaper than
    // lastIndexOf on a hit; a miss searches the URL once); after a miss,
    // lastIndexOf from 0, which tests index 0 only. startsWith compares
    // slower on V8 11. The hit stays small enough to be inlined at its callers.
    if (prefix.length !== 0 && (this.misses === 0 ? url.indexOf(prefix) : url.lastIndexOf(prefix, 0)) === 0) {
      this.misses = 0
      return this.start
    }
    return this.scan(url)
  }

  /** {@link of} past a miss: the scan, and the prefix kept. */
  private scan(url: string): PathStart {
    const ps = pathStartString(url)
    const misses = ++this.misses
    if (misses > 2 && (misses & (MEMO_RETRY - 1)) !== 0) return ps
    if (ps !== PathStartCode.JustSlash) {
      const j = (ps - (ps & PathStartCode.SlashPrepended)) / PathStartCode.IndexScale
      if (j >= 1 && url.charCodeAt(j - 1) !== PathChar.Colon) {
        this.prefix = flatCopy(url.slice(0, j + 1))
        this.start = ps
      }
    }
    return ps
  }

  /** Bytes held beyond the object (the kept prefix), by the model of src/memory.ts. */
  heldBytes(): number {
    // The flat copy (one char more than the prefix) and the slice that views it.
    return this.prefix.length === 0 ? 0 : stringBytes(this.prefix) + 8 + STRING_HEADER_BYTES
  }
}

/** {@link PathStartMemo}: after two misses in a row, a new prefix is kept once in this many misses (a power of two). */
const MEMO_RETRY = 64

/**
 * A string with the chars of `s` that holds no other string: a slice may
 * keep the whole string it was cut from; a concatenation, once read, is
 * flattened into a new string, which the slice then views.
 */
function flatCopy(s: string): string {
  return (' ' + s).slice(1)
}

/**
 * End of the path that starts at `start`, for matching: the first `#` (the
 * fragment is dropped) or NUL (the reference hands the path on to matching as
 * a C string, so the path the rules see ends there), or `to`. The automaton's
 * hot loops end the path with their byte classes instead (`#` and NUL form
 * the END class: automaton/byte-classes.ts).
 */
export function pathEndBytes(s: Uint8Array, start: number, to: number): number {
  for (let i = start; i < to; i++) {
    const c = s[i]
    if (c === PathChar.Hash || c === 0) return i
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
  if (ps === PathStartCode.JustSlash) return '/'
  const start = pathIndex(ps)
  let end = url.length
  for (let i = start; i < end; i++) {
    if (url.charCodeAt(i) === PathChar.Hash) {
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
  return matchPathAt(url, pathStartBytes(url, start, end), end)
}

/** {@link matchPath} of a URL whose path start `ps` is known (the URL scan's record: src/url/url-scan.ts). */
export function matchPathAt(url: Uint8Array, ps: PathStart, end: number): Uint8Array {
  if (ps === PathStartCode.JustSlash) return Uint8Array.of(PathChar.Slash)
  const from = pathIndex(ps)
  const to = pathEndBytes(url, from, end)
  if (!slashPrepended(ps)) return url.slice(from, to)
  const out = new Uint8Array(to - from + 1)
  out[0] = PathChar.Slash
  out.set(url.subarray(from, to), 1)
  return out
}
