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
 *   (and `\\` for a backslash), nginx `\x22` (and `\x5C`); Apache writes an
 *   empty user name as the field `""`, which is skipped.
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
 * or empty (a connection closed before its request line: `"-" 408`,
 * nginx's `"" 400`) is an {@link LogFit.EmptyRequest}.
 * The request's method is any RFC 9110 token (`GET`, `M-SEARCH`, and
 * `get` or `Propfind` in a whole `METHOD target HTTP/x.y`): the structure,
 * not the method, says which field is the request.
 */
import { BACKSLASH, isBlank, isTokenByte, QUOTE, requestTarget } from './fields.js'
import type { LogFormat } from './line-layout.js'

/** What {@link locateLogLine} found. */
export const enum LogFit {
  /** The line fits; its request line's target is at `out[at], out[at + 1]`. */
  Request = 0,
  /** The line does not fit the format's structure. */
  Misfit = 1,
  /** The line fits, and its request is `-` or empty (nginx's `"" 400`): no request line was received. */
  EmptyRequest = 2,
  /** The line fits, but its request is not an HTTP request line (`METHOD target [HTTP/x.y]`: a TLS handshake's bytes, one word, `get /a` without its version). */
  NotRequest = 3,
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39
}

/** The first bare `"` in `bytes[from, end)` (not escaped: an even run of backslashes, after `from`, before it), or -1. */
function bareQuote(bytes: Uint8Array, from: number, end: number): number {
  // Searched within the line only: a search on to the block's end would make a block of lines quadratic.
  for (let p = from; p < end; p++) if (bytes[p] === QUOTE && isBare(bytes, p, from)) return p
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
  // The shortest: `1/Oct/2000:13:55:36 -0700` (26 bytes).
  if (e - s < 25 || e - s > 40) return false
  let p = s
  if (!isDigit(bytes[p++])) return false
  if (isDigit(bytes[p])) p++
  if (bytes[p++] !== 0x2f) return false
  for (let k = 0; k < 3; k++, p++) {
    const l = bytes[p] | 0x20
    if (l < 0x61 || l > 0x7a) return false
  }
  if (bytes[p++] !== 0x2f || !isDigit(bytes[p]) || !isDigit(bytes[p + 1]) || !isDigit(bytes[p + 2]) || !isDigit(bytes[p + 3])) return false
  p += 4
  for (let k = 0; k < 3; k++, p += 3) if (bytes[p] !== 0x3a || !isDigit(bytes[p + 1]) || !isDigit(bytes[p + 2])) return false
  if (bytes[p] === 0x2e) {
    const from = ++p
    while (p < e && isDigit(bytes[p])) p++
    if (p === from || p - from > 9) return false
  }
  if (e - p !== 6 || bytes[p] !== 0x20 || (bytes[p + 1] !== 0x2b && bytes[p + 1] !== 0x2d)) return false
  return isDigit(bytes[p + 2]) && isDigit(bytes[p + 3]) && isDigit(bytes[p + 4]) && isDigit(bytes[p + 5])
}

/** The end of a quoted field opening at `open` (its bare closing `"` + 1), when a blank or the line's end follows; -1 otherwise. */
function quotedEnd(bytes: Uint8Array, open: number, end: number): number {
  if (open >= end || bytes[open] !== QUOTE) return -1
  const close = bareQuote(bytes, open + 1, end)
  if (close < 0 || (close + 1 < end && !isBlank(bytes[close + 1]))) return -1
  return close + 1
}

/** Whether the `"` at `p` is bare: an even run of backslashes (down to `stop`) before it. */
function isBare(bytes: Uint8Array, p: number, stop: number): boolean {
  let k = p
  while (k > stop && bytes[k - 1] === BACKSLASH) k--
  return ((p - k) & 1) === 0
}

/** The nearest bare `"` at or before `from` (down to `stop`), or -1. */
function bareQuoteBefore(bytes: Uint8Array, from: number, stop: number): number {
  for (let p = from; p >= stop; p--) if (bytes[p] === QUOTE && isBare(bytes, p, stop)) return p
  return -1
}

/** The opening quote of the quoted field that ends right before `e` (its bare closing quote at `e - 1`), when a blank comes before it; -1 otherwise. */
function quotedStartBefore(bytes: Uint8Array, start: number, e: number): number {
  if (e - start < 2 || bytes[e - 1] !== QUOTE || !isBare(bytes, e - 1, start)) return -1
  const o = bareQuoteBefore(bytes, e - 2, start)
  return o > start && isBlank(bytes[o - 1]) ? o : -1
}

function trimEnd(bytes: Uint8Array, start: number, e: number): number {
  while (e > start && isBlank(bytes[e - 1])) e--
  return e
}

/** Whether `bytes[s, e)` is `%>s %b` (`%O`): three digits, then digits or `-`, blank-separated. */
function statusAndSize(bytes: Uint8Array, s: number, e: number): boolean {
  if (!(s + 3 <= e && isDigit(bytes[s]) && isDigit(bytes[s + 1]) && isDigit(bytes[s + 2]) && s + 3 < e && isBlank(bytes[s + 3]))) return false
  const p = skipBlanks(bytes, s + 3, e)
  if (p === e) return false
  if (e === p + 1 && bytes[p] === 0x2d) return true
  for (let q = p; q < e; q++) if (!isDigit(bytes[q])) return false
  return true
}

/**
 * Whether what lies between the end of `%h` (`h`) and the request's
 * opening quote `open` fits: `%l %u` (two fields at least, whatever they
 * hold), then ` [time] `.
 */
function headFits(bytes: Uint8Array, h: number, open: number): boolean {
  // ` [time] ` right before the quote.
  let t = open
  if (t === h || !isBlank(bytes[t - 1])) return false
  while (t > h && isBlank(bytes[t - 1])) t--
  if (bytes[t - 1] !== 0x5d) return false
  let o = t - 1
  while (o > h && bytes[o] !== 0x5b) o--
  if (bytes[o] !== 0x5b || !isLogTime(bytes, o + 1, t - 1) || !isBlank(bytes[o - 1])) return false
  // %l %u between %h and the time: two fields at least (so that a line of another format, one
  // column short or long, does not fit; a user name of blanks alone makes its line not fit).
  let fields = 0
  for (let q = skipBlanks(bytes, h, o); q < o && fields < 2; ) {
    fields++
    q = skipBlanks(bytes, tokenEnd(bytes, q, o), o)
  }
  return fields >= 2
}

/**
 * Whether what follows the request opening at `open` fits, read from the
 * left: the request closed by the next bare `"`, then the status and the
 * size (and combined's quoted referrer and agent), fields after them
 * allowed. `close[0]` gets the closing quote, `close[1]` the end of the
 * format's last field.
 */
function tailFromLeft(bytes: Uint8Array, open: number, end: number, format: LogFormat, close: Int32Array): boolean {
  const r = quotedEnd(bytes, open, end)
  if (r < 0) return false
  // The status and the size: the two fields after the request.
  const s = skipBlanks(bytes, r, end)
  const e = tokenEnd(bytes, skipBlanks(bytes, tokenEnd(bytes, s, end), end), end)
  if (!statusAndSize(bytes, s, e)) return false
  let last = e
  if (format !== 'common') {
    const referer = quotedEnd(bytes, skipBlanks(bytes, e, end), end)
    last = referer < 0 ? -1 : quotedEnd(bytes, skipBlanks(bytes, referer, end), end)
    if (last < 0) return false
  }
  close[0] = r - 1
  close[1] = last
  return true
}

/**
 * The request's opening quote read from the right, for a line that ends
 * with the format's last field (no field after it): combined's agent and
 * referrer, then the size and the status, then the request, each quoted
 * field opened by the last bare `"` before its closing one; -1 when the
 * line does not end so. `close` gets the closing quote.
 */
function requestFromRight(bytes: Uint8Array, start: number, end: number, format: LogFormat, close: Int32Array): number {
  let e = trimEnd(bytes, start, end)
  if (format !== 'common') {
    // The agent, then the referrer.
    for (let k = 0; k < 2; k++) {
      const o = quotedStartBefore(bytes, start, e)
      if (o < 0) return -1
      e = trimEnd(bytes, start, o)
    }
  }
  // The size, then the status: two blank-free fields.
  let s = e
  while (s > start && !isBlank(bytes[s - 1])) s--
  s = trimEnd(bytes, start, s)
  while (s > start && !isBlank(bytes[s - 1])) s--
  if (!statusAndSize(bytes, s, e)) return -1
  const c = trimEnd(bytes, start, s)
  if (c === s) return -1
  const open = quotedStartBefore(bytes, start, c)
  if (open < 0) return -1
  close[0] = c - 1
  return open
}

const CLOSE = new Int32Array(2)

/**
 * Whether a field `""` opens at `open` (blanks before and after it) that no
 * ` [time]` comes right before (after the time it is the request): how
 * Apache logs an empty user name. Looks back over the blanks and a time's
 * length before it only.
 */
function isEmptyUser(bytes: Uint8Array, open: number, h: number): boolean {
  if (bytes[open + 1] !== QUOTE || !isBlank(bytes[open + 2]) || !isBlank(bytes[open - 1])) return false
  let t = open - 1
  while (t > h && isBlank(bytes[t - 1])) t--
  if (bytes[t - 1] !== 0x5d) return true
  let o = t - 2
  while (o > h && o > t - 44 && bytes[o] !== 0x5b) o--
  return !(bytes[o] === 0x5b && isBlank(bytes[o - 1]) && isLogTime(bytes, o + 1, t - 1))
}

/**
 * Reads the log line `bytes[start, end)` as `format` lays it out (see the
 * module comment). The request is found from both ends: from the right
 * when the line ends with the format's last field, and from the left (the
 * first bare quote after `%h`), so that a field a server forgot to escape
 * cannot move it either; a line where the two read different requests that
 * both fit is a Misfit, never judged. On {@link LogFit.Request},
 * `out[at], out[at + 1]` is the request line's target; on EmptyRequest and
 * NotRequest, the quoted request's text; for `vhost_combined` (any fit but
 * Misfit) `out[at + 2], out[at + 3]` is the host column (`%v[:%p]`), else
 * -1, -1. Linear in the line's length; no allocation.
 */
export function locateLogLine(bytes: Uint8Array, start: number, end: number, format: LogFormat, out: Int32Array, at: number): LogFit {
  out[at + 2] = out[at + 3] = -1
  // The head: the virtual host (vhost_combined), then %h.
  let p = skipBlanks(bytes, start, end)
  if (format === 'vhost_combined') {
    const e = tokenEnd(bytes, p, end)
    if (e === p || bytes[p] === QUOTE) return LogFit.Misfit
    out[at + 2] = p
    out[at + 3] = e
    p = skipBlanks(bytes, e, end)
  }
  const h = tokenEnd(bytes, p, end)
  if (h === p || bytes[p] === QUOTE) return LogFit.Misfit
  // From the left: the first bare quote opens the request, and the format's fields follow it; but
  // a field `""` before the time is Apache's empty user name (`%u` of a Basic-auth user ""), no request.
  let open = bareQuote(bytes, h, end)
  while (open >= 0 && isEmptyUser(bytes, open, h)) open = bareQuote(bytes, open + 2, end)
  const leftFits = open >= 0 && headFits(bytes, h, open) && tailFromLeft(bytes, open, end, format, CLOSE)
  let close = CLOSE[0]
  // A line read whole from the left (no field after the format's) reads the same from the right; one
  // with more fields, or that does not fit, is read from the right too: one request, or not judged.
  if (!leftFits || CLOSE[1] !== trimEnd(bytes, h, end)) {
    const right = requestFromRight(bytes, h, end, format, CLOSE)
    const rightFits = right >= 0 && headFits(bytes, h, right)
    if (rightFits && leftFits && right !== open) return LogFit.Misfit
    if (!leftFits) {
      if (!rightFits) return LogFit.Misfit
      open = right
      close = CLOSE[0]
    }
  }
  const rs = open + 1
  const re = close
  // The request's text, replaced by its target when it is a request line.
  out[at] = rs
  out[at + 1] = re
  // `-` (Apache, nginx) or nothing (nginx's `"" 400`): no request line arrived.
  if (re === rs || (re - rs === 1 && bytes[rs] === 0x2d)) return LogFit.EmptyRequest
  return requestTarget(bytes, rs, re, out, at, true) ? LogFit.Request : LogFit.NotRequest
}

/** Longest method named in {@link notRequestWords}. */
const METHOD_MAX = 40

/**
 * Why the request `bytes[s, e)` of a line that fits its format is no
 * request line ({@link LogFit.NotRequest}), in words, when its method
 * tells: a token before a space that is not an upper-case word, which no
 * `HTTP/x.y` ends (`get /a`). Empty for any other request (a TLS
 * handshake's bytes, one word).
 */
export function notRequestWords(bytes: Uint8Array, s: number, e: number): string {
  let p = s
  while (p < e && isTokenByte(bytes[p])) p++
  if (p === s || p === e || bytes[p] !== 0x20 || p - s > METHOD_MAX) return ''
  if (bytes.subarray(s, p).every((b) => (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x5f)) return ''
  const method = String.fromCharCode(...bytes.subarray(s, p))
  return `its request is no HTTP request line: its method '${method}' is not an upper-case word, which is read only in a whole 'METHOD target HTTP/x.y'`
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
