/**
 * An access log line read by its format's structure ({@link locateLogLine}):
 * `common`, `combined` and `vhost_combined` (Apache's nicknames; nginx's
 * `combined` is Apache's). The request is the quoted field that follows the
 * bracketed time; it is found from the fields around it, never by counting
 * columns, so that a field a client chooses cannot move it.
 *
 * What each field may hold, as Apache and nginx write them:
 *
 * - `%v[:%p]` (vhost_combined; nginx `$host`), `%h` (the client's address):
 *   no blank.
 * - `%l`, `%u` (identd, the Basic-auth user: a client picks it): any text,
 *   blanks and brackets included, but never a bare `"`: Apache writes `\"`
 *   (and `\\` for a backslash), nginx `\x22` (and `\x5C`).
 * - `%t`: `[10/Oct/2000:13:55:36 -0700]`, a fixed form.
 * - `"%r"`, `"%{Referer}i"`, `"%{User-Agent}i"`: quoted, escaped as above,
 *   so the first bare `"` after the opening one closes each.
 * - `%>s`: three digits; `%b`, `%O` (nginx `$body_bytes_sent`): digits, or `-`.
 *
 * So the request opens at the line's first bare `"` (one not escaped by a
 * backslash: an odd run of backslashes before it escapes it), which must
 * follow ` [time] `; it closes at the next bare `"`, which a blank (or the
 * line's end) follows, then come the status and the size, and for
 * `combined` the two quoted fields. Fields after the known ones are allowed
 * (nginx's `main` adds `"$http_x_forwarded_for"`). A line that fits no such
 * structure is not judged ({@link LogFit.Misfit}); one whose request is `-`
 * (a connection closed before its request line: `"-" 408`) is an
 * {@link LogFit.EmptyRequest}.
 */
import { requestTarget } from './fields.js'
import type { LogFormat } from './line-layout.js'

/** What {@link locateLogLine} found. */
export const enum LogFit {
  /** The line fits; its request line's target is at `out[at], out[at + 1]`. */
  Request = 0,
  /** The line does not fit the format's structure. */
  Misfit = 1,
  /** The line fits, and its request is `-`: no request line was received. */
  EmptyRequest = 2,
  /** The line fits, but its request is not an HTTP request line (`METHOD target [HTTP/x]`: a TLS handshake's bytes, one word). */
  NotRequest = 3,
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

function isBlank(b: number): boolean {
  return b === 0x20 || b === 0x09
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39
}

/** The first bare `"` in `bytes[from, end)` (not escaped: an even run of backslashes before it), or -1. */
function bareQuote(bytes: Uint8Array, from: number, end: number): number {
  for (let p = from; p < end; p++) {
    const b = bytes[p]
    if (b === BACKSLASH) p++
    else if (b === QUOTE) return p
  }
  return -1
}

/** The end of a blank-free token starting at `p` (where it is not blank). */
function tokenEnd(bytes: Uint8Array, p: number, end: number): number {
  while (p < end && !isBlank(bytes[p])) p++
  return p
}

function skipBlanks(bytes: Uint8Array, p: number, end: number): number {
  while (p < end && isBlank(bytes[p])) p++
  return p
}

/** Whether `bytes[s, e)` is `%t`'s text without its brackets: `10/Oct/2000:13:55:36 -0700` (seconds may carry a fraction). */
function isLogTime(bytes: Uint8Array, s: number, e: number): boolean {
  let p = s
  const digits = (min: number, max: number): boolean => {
    const from = p
    while (p < e && isDigit(bytes[p]) && p - from < max) p++
    return p - from >= min
  }
  const byte = (b: number): boolean => (p < e && bytes[p] === b ? (p++, true) : false)
  if (!digits(1, 2) || !byte(0x2f)) return false
  for (let k = 0; k < 3; k++) {
    const l = bytes[p] | 0x20
    if (!(p < e && l >= 0x61 && l <= 0x7a)) return false
    p++
  }
  if (!byte(0x2f) || !digits(4, 4) || !byte(0x3a) || !digits(2, 2) || !byte(0x3a) || !digits(2, 2) || !byte(0x3a) || !digits(2, 2)) return false
  if (byte(0x2e) && !digits(1, 9)) return false
  if (!byte(0x20) || !(byte(0x2b) || byte(0x2d)) || !digits(4, 4)) return false
  return p === e
}

/** The end of a quoted field opening at `open` (its bare closing `"` + 1), when a blank or the line's end follows; -1 otherwise. */
function quotedEnd(bytes: Uint8Array, open: number, end: number): number {
  if (open >= end || bytes[open] !== QUOTE) return -1
  const close = bareQuote(bytes, open + 1, end)
  if (close < 0 || (close + 1 < end && !isBlank(bytes[close + 1]))) return -1
  return close + 1
}

/**
 * Reads the log line `bytes[start, end)` as `format` lays it out (see the
 * module comment). On {@link LogFit.Request}, `out[at], out[at + 1]` is the
 * request line's target; on EmptyRequest and NotRequest, the quoted
 * request's text; for `vhost_combined` (any fit but Misfit)
 * `out[at + 2], out[at + 3]` is the host column (`%v[:%p]`), else -1, -1.
 * Linear in the line's length; no allocation.
 */
export function locateLogLine(bytes: Uint8Array, start: number, end: number, format: LogFormat, out: Int32Array, at: number): LogFit {
  let p = skipBlanks(bytes, start, end)
  out[at + 2] = out[at + 3] = -1
  if (format === 'vhost_combined') {
    const e = tokenEnd(bytes, p, end)
    if (e === p || bytes[p] === QUOTE) return LogFit.Misfit
    out[at + 2] = p
    out[at + 3] = e
    p = skipBlanks(bytes, e, end)
  }
  // %h: one token; then %l %u: two fields at least, whatever they hold but a bare quote.
  const h = tokenEnd(bytes, p, end)
  if (h === p || bytes[p] === QUOTE) return LogFit.Misfit
  const open = bareQuote(bytes, h, end)
  if (open < 0) return LogFit.Misfit
  // ` [time] ` right before the request's quote.
  let t = open
  if (t === h || !isBlank(bytes[t - 1])) return LogFit.Misfit
  while (t > h && isBlank(bytes[t - 1])) t--
  if (bytes[t - 1] !== 0x5d) return LogFit.Misfit
  let o = t - 1
  while (o > h && bytes[o] !== 0x5b) o--
  if (bytes[o] !== 0x5b || !isLogTime(bytes, o + 1, t - 1) || !isBlank(bytes[o - 1])) return LogFit.Misfit
  // %l %u between %h and the time: at least two fields.
  const lu = skipBlanks(bytes, h, o)
  let fields = 0
  for (let q = lu; q < o; ) {
    fields++
    q = skipBlanks(bytes, tokenEnd(bytes, q, o), o)
  }
  if (fields < 2) return LogFit.Misfit
  // The request, then the status and the size.
  const r = quotedEnd(bytes, open, end)
  if (r < 0) return LogFit.Misfit
  let p2 = skipBlanks(bytes, r, end)
  if (!(p2 + 3 <= end && isDigit(bytes[p2]) && isDigit(bytes[p2 + 1]) && isDigit(bytes[p2 + 2]) && (p2 + 3 === end || isBlank(bytes[p2 + 3])))) return LogFit.Misfit
  p2 = skipBlanks(bytes, p2 + 3, end)
  const size = tokenEnd(bytes, p2, end)
  if (size === p2) return LogFit.Misfit
  if (!(size === p2 + 1 && bytes[p2] === 0x2d)) for (let q = p2; q < size; q++) if (!isDigit(bytes[q])) return LogFit.Misfit
  if (format !== 'common') {
    // The referrer and the user agent, quoted.
    const referer = quotedEnd(bytes, skipBlanks(bytes, size, end), end)
    if (referer < 0 || quotedEnd(bytes, skipBlanks(bytes, referer, end), end) < 0) return LogFit.Misfit
  }
  const rs = open + 1
  const re = r - 1
  // The request's text, replaced by its target when it is a request line.
  out[at] = rs
  out[at + 1] = re
  if (re - rs === 1 && bytes[rs] === 0x2d) return LogFit.EmptyRequest
  return requestTarget(bytes, rs, re, out, at) ? LogFit.Request : LogFit.NotRequest
}

/**
 * The log format the line `bytes[start, end)` fits as written, for a hint
 * (undefined when none does): `vhost_combined` when one blank-free field
 * more than `%h %l %u` comes before the time, `combined` when the quoted
 * referrer and agent follow the size, else `common`.
 */
export function fittingFormat(bytes: Uint8Array, start: number, end: number): LogFormat | undefined {
  const out = new Int32Array(4)
  let fits: LogFormat | undefined
  for (const format of ['combined', 'common'] as const) {
    if (locateLogLine(bytes, start, end, format, out, 0) !== LogFit.Misfit) {
      fits = format
      break
    }
  }
  if (fits === undefined) return undefined
  // Fields before the time: `%h %l %u` as the formats write them, or one more in front (the virtual host).
  const open = bareQuote(bytes, start, end)
  let fields = 0
  for (let q = skipBlanks(bytes, start, end); q < open && bytes[q] !== 0x5b; ) {
    fields++
    q = skipBlanks(bytes, tokenEnd(bytes, q, open), open)
  }
  return fields === 4 && fits === 'combined' ? 'vhost_combined' : fits
}
