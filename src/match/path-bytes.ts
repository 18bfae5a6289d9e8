/**
 * The bytes matching runs over, for the slow paths (reference engine,
 * explain): GetPathParamsQuery of the URL's UTF-8 bytes, cut at a NUL byte.
 * The hot path (the automaton) does the same scan in place without copying.
 */
import { pathEndBytes, pathStartBytes } from './url-path.js'

const encoder = new TextEncoder()

/** UTF-8 bytes of a URL given as string or bytes. */
export function urlBytes(url: string | Uint8Array): Uint8Array {
  return typeof url === 'string' ? encoder.encode(url) : url
}

/** The path bytes the matchers see for `url[start, end)`. */
export function matchPath(url: Uint8Array, start = 0, end = url.length): Uint8Array {
  const ps = pathStartBytes(url, start, end)
  if (ps < 0) return Uint8Array.of(47)
  const from = ps >> 1
  const to = pathEndBytes(url, from, end)
  if (!(ps & 1)) return url.slice(from, to)
  const out = new Uint8Array(to - from + 1)
  out[0] = 47
  out.set(url.subarray(from, to), 1)
  return out
}
