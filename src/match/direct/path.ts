/**
 * The path of the URL being judged, as bytes, for the direct engines (the
 * cold and thrash-proof tiers): `PATH.bytes[PATH.from, PATH.to)`, starting
 * with `/` (GetPathParamsQuery, ended at `#` or NUL: ../url-path.ts). One
 * module-level view, refilled per URL: no allocation per URL. Bytes are
 * matched in place unless a `/` goes in front; a string URL is encoded into
 * a scratch buffer of SCRATCH_KEEP bytes (a longer one gets its own).
 */
import { SCRATCH_KEEP } from '../../memory.js'
import { pathEndBytes, PathChar, pathStartBytes, PathStartCode, type PathStart } from '../../url/url-path.js'

/** The path of the URL being judged: `bytes[from, to)`. */
export interface PathView {
  bytes: Uint8Array
  from: number
  to: number
}

/** The path `/` (of a URL without a path). */
export const JUST_SLASH = Uint8Array.of(PathChar.Slash)
const scratch = new Uint8Array(SCRATCH_KEEP)
/** Paths of byte URLs that need a '/' in front. */
const prepended = new Uint8Array(SCRATCH_KEEP)
const encoder = new TextEncoder()

/** The view, refilled by {@link pathOfBytes} and {@link pathOfString}. */
export const PATH: PathView = { bytes: JUST_SLASH, from: 0, to: 1 }

/** Sets {@link PATH} to the path of the URL `url[start, end)`. */
export function pathOfBytes(url: Uint8Array, start: number, end: number): void {
  pathAt(url, pathStartBytes(url, start, end), end)
}

/** Sets {@link PATH} to the path of the URL ending at `end` whose path starts where `ps` says (a PathStart). */
export function pathAt(url: Uint8Array, ps: PathStart, end: number): void {
  if (ps === PathStartCode.JustSlash) {
    PATH.bytes = JUST_SLASH
    PATH.from = 0
    PATH.to = 1
    return
  }
  const bit = ps & PathStartCode.SlashPrepended
  const from = (ps - bit) / PathStartCode.IndexScale
  const to = pathEndBytes(url, from, end)
  if (bit === 0) {
    PATH.bytes = url
    PATH.from = from
    PATH.to = to
    return
  }
  // The '/' goes in front: right before the path when the byte there may be
  // overwritten (the scratch buffer of a string URL), else into a copy.
  if (url === scratch && from > 0) {
    scratch[from - 1] = PathChar.Slash
    PATH.bytes = scratch
    PATH.from = from - 1
    PATH.to = to
    return
  }
  const n = to - from + 1
  const buf = n <= prepended.length ? prepended : new Uint8Array(n)
  buf[0] = PathChar.Slash
  buf.set(url.subarray(from, to), 1)
  PATH.bytes = buf
  PATH.from = 0
  PATH.to = n
}

/**
 * Sets {@link PATH} to the path of a string URL (its UTF-8 bytes, as
 * TextEncoder writes them). The whole URL is encoded first, natively, and
 * then scanned as bytes: cheaper than reading it by charCodeAt
 * (bench/history/design.md).
 */
export function pathOfString(url: string): void {
  let buf = scratch
  let { read, written } = encoder.encodeInto(url, buf)
  if (read! < url.length) {
    buf = new Uint8Array(3 * url.length)
    written = encoder.encodeInto(url, buf).written
  }
  pathOfBytes(buf, 0, written!)
}

/**
 * {@link pathOfString} for a URL whose path start `ps` (in code units) is
 * known: an ASCII URL's bytes have the same offsets, so the scan is not done
 * again; any other is scanned as bytes.
 */
export function pathOfStringAt(url: string, ps: PathStart): void {
  let buf = scratch
  let { read, written } = encoder.encodeInto(url, buf)
  if (read! < url.length) {
    buf = new Uint8Array(3 * url.length)
    written = encoder.encodeInto(url, buf).written
  }
  if (written === url.length) pathAt(buf, ps, written)
  else pathOfBytes(buf, 0, written!)
}

/** Drops a reference to a caller's buffer or to a large buffer of one call, once a URL is judged. */
export function releasePath(): void {
  PATH.bytes = JUST_SLASH
}
