/**
 * Columns of a log line (`--field N`, `--host-field M`, `--delimiter D`):
 * where a column sits in a line, found in its bytes without making a string
 * ({@link findField}); a quoted column is one column, and a quoted HTTP
 * request line gives its target ({@link requestTarget}). Fields are numbered
 * from 1.
 */

/** Field separator: a byte, or whitespace runs. */
export const WHITESPACE = -1

/** What {@link findField} found. */
export const enum FieldKind {
  /** The line has fewer fields. */
  None = 0,
  /** A field as it stands. */
  Plain = 1,
  /** A quoted (`"…"`) or bracketed (`[…]`) field: its range leaves the quotes out. */
  Quoted = 2,
}

/** `"`, which opens and closes a quoted field. */
export const QUOTE = 0x22
/** `\`, which escapes the byte after it inside a quoted field. */
export const BACKSLASH = 0x5c

/** A space or a tab: what separates a log line's fields. */
export function isBlank(b: number): boolean {
  return b === 0x20 || b === 0x09
}

/**
 * The end of a quoted field of whitespace columns that opens at `open` (its
 * `"` or `[`): the offset of the closing byte, a `"` (or `]`) that ends the
 * line or is followed by a blank; a backslash escapes the byte after it
 * (Apache writes `\"` inside `"%r"`). -1 when there is none: then the field
 * is read as if unquoted.
 */
function closing(bytes: Uint8Array, open: number, end: number): number {
  const close = bytes[open] === QUOTE ? QUOTE : 0x5d
  for (let p = open + 1; p < end; p++) {
    const b = bytes[p]
    if (b === BACKSLASH && close === QUOTE) {
      p++
      continue
    }
    if (b !== close) continue
    if (p + 1 === end || isBlank(bytes[p + 1])) return p
  }
  return -1
}

/**
 * The closing `"` of a CSV column that opens at `open` (`--delimiter D`): a
 * `"` that ends the line or comes before a D, where a pair `""` inside is an
 * escaped quote (RFC 4180; a backslash is a byte like any other). Read by
 * runs of quotes: a run of even length is pairs, an odd one ends in a
 * closing quote when D or the line's end follows it (else it is pairs and one
 * quote as written). With `firstRunOnly`, only the run right after `open` is
 * looked at ({@link findField}: the rest was searched from an earlier
 * column's quote, which saw every later run whole). -1 when there is none.
 */
function csvClosing(bytes: Uint8Array, open: number, end: number, delimiter: number, firstRunOnly: boolean): number {
  let p = open + 1
  for (;;) {
    while (p < end && bytes[p] !== QUOTE) p++
    if (p >= end) return -1
    const run = p
    while (p < end && bytes[p] === QUOTE) p++
    if (((p - run) & 1) === 1 && (p === end || bytes[p] === delimiter)) return p - 1
    if (firstRunOnly) return -1
  }
}

/** The range `bytes[s, e)` of a quoted CSV column with each `""` made one `"` (a new array), or undefined when it holds no quote. */
export function unquoteCsv(bytes: Uint8Array, s: number, e: number): Uint8Array | undefined {
  let p = s
  while (p < e && bytes[p] !== QUOTE) p++
  if (p === e) return undefined
  const out = new Uint8Array(e - s)
  let n = 0
  for (let q = s; q < e; q++) {
    out[n++] = bytes[q]
    if (bytes[q] === QUOTE && q + 1 < e && bytes[q + 1] === QUOTE) q++
  }
  return out.subarray(0, n)
}

/**
 * Finds field `n` (from 1) of `bytes[start, end)`: writes its range to
 * `out[at]`, `out[at + 1]` and returns its {@link FieldKind} (`None` when the
 * line has fewer fields).
 *
 * - Without `--delimiter` ({@link WHITESPACE}), fields are separated by runs
 *   of spaces and tabs, and blanks at the start of the line are skipped (as
 *   awk splits `$1 … $NF`). A field that starts with `"` runs to its closing
 *   quote, one that starts with `[` to its `]` (a closing byte that ends the
 *   line or comes before a blank): in an Apache or nginx access log
 *   `[10/Oct/2000:13:55:36 -0700]` and `"GET /a HTTP/1.1"` are one field
 *   each. Without such a closing byte the field is read as unquoted.
 * - With `--delimiter D` (one byte: `,`, `|`, or `\t` for a tab), every D
 *   separates two fields, empty ones included (as `cut -d D` splits), and a
 *   field that starts with `"` runs to a closing `"` before a D (CSV's quoting:
 *   `""` inside is an escaped quote, which {@link unquoteCsv} undoes).
 */
export function findField(bytes: Uint8Array, start: number, end: number, n: number, delimiter: number, out: Int32Array, at: number): FieldKind {
  let p = start
  // A search for a closing byte that failed fails for every later column too (a column starts after a
  // separator, never inside an escape), so it is not made again: reading stays linear in the line.
  let quoteFailed = false
  let bracketFailed = false
  if (delimiter === WHITESPACE) {
    for (let k = 1; ; k++) {
      while (p < end && isBlank(bytes[p])) p++
      if (p >= end) return FieldKind.None
      const s = p
      const b = bytes[p]
      let close = -1
      if (b === QUOTE ? !quoteFailed : b === 0x5b && !bracketFailed) {
        close = closing(bytes, p, end)
        if (close < 0) {
          if (b === QUOTE) quoteFailed = true
          else bracketFailed = true
        }
      }
      if (close >= 0) p = close + 1
      else while (p < end && !isBlank(bytes[p])) p++
      if (k === n) {
        out[at] = close >= 0 ? s + 1 : s
        out[at + 1] = close >= 0 ? close : p
        return close >= 0 ? FieldKind.Quoted : FieldKind.Plain
      }
    }
  }
  for (let k = 1; ; k++) {
    const s = p
    let close = -1
    // After a search that failed, a later column's quote can close only in its own first run of quotes
    // (read from one quote later, its length's parity differs): the rest was seen, so reading stays linear.
    if (p < end && bytes[p] === QUOTE) {
      close = csvClosing(bytes, p, end, delimiter, quoteFailed)
      if (close < 0) quoteFailed = true
    }
    if (close >= 0) p = close + 1
    else while (p < end && bytes[p] !== delimiter) p++
    if (k === n) {
      out[at] = close >= 0 ? s + 1 : s
      out[at + 1] = close >= 0 ? close : p
      return close >= 0 ? FieldKind.Quoted : FieldKind.Plain
    }
    if (p >= end) return FieldKind.None
    p++
  }
}

/** Whether `b` may be in an upper-case HTTP method (`GET`, `M-SEARCH`): capitals, `-` and `_`. */
function isMethodByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x5f
}

/** The tchar bytes that are not letters or digits. */
const TOKEN_MARKS: readonly number[] = Array.from("!#$%&'*+-.^_`|~", (c) => c.charCodeAt(0))

/** Whether `b` is an RFC 9110 tchar, what a method is made of: a letter, a digit or one of ``!#$%&'*+-.^_`|~``. */
export function isTokenByte(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || TOKEN_MARKS.includes(b)
}

/** Whether `bytes[s, end)` is `HTTP/x.y` (one digit each: RFC 9112's HTTP-version). */
function isVersion(bytes: Uint8Array, s: number, end: number): boolean {
  return end - s === 8 && bytes[s] === 0x48 && bytes[s + 1] === 0x54 && bytes[s + 2] === 0x54 && bytes[s + 3] === 0x50 && bytes[s + 4] === 0x2f && bytes[s + 5] >= 0x30 && bytes[s + 5] <= 0x39 && bytes[s + 6] === 0x2e && bytes[s + 7] >= 0x30 && bytes[s + 7] <= 0x39
}

/**
 * The target of an HTTP request line `bytes[start, end)` (`METHOD SP target
 * [SP HTTP/version]`, as `%r` / `$request` log it): writes its range to
 * `out[at]`, `out[at + 1]` and returns true; false when the text is not a
 * request line (`-`, a TLS handshake's bytes, one word). A run of spaces
 * separates the parts as one does (RFC 9112 §3: nginx reads
 * `GET  /a  HTTP/1.1` as `/a`), so spaces around the target are no part of
 * it. A target holding blanks is taken up to the version (the last word,
 * when it starts with `HTTP/`), or to the end.
 *
 * The method is an upper-case word (`GET`, `M-SEARCH`), which a version may
 * follow or not; with `anyMethod` (a field known to be the request: a log
 * format's) it may also be any other RFC 9110 token (`get`, `Propfind`),
 * when `HTTP/x.y` ends the request: the method's case tells nothing of where
 * the target is.
 */
export function requestTarget(bytes: Uint8Array, start: number, end: number, out: Int32Array, at: number, anyMethod = false): boolean {
  let p = start
  while (p < end && isMethodByte(bytes[p])) p++
  let upper = true
  if (anyMethod) {
    while (p < end && isTokenByte(bytes[p])) {
      upper = false
      p++
    }
  }
  if (p === start || p >= end || bytes[p] !== 0x20) return false
  let s = p + 1
  while (s < end && bytes[s] === 0x20) s++
  let e = end
  // The version: the last word, if it starts with HTTP/.
  let last = end - 1
  while (last > s && bytes[last] !== 0x20) last--
  if (last > s && end - last > 5 && bytes[last + 1] === 0x48 && bytes[last + 2] === 0x54 && bytes[last + 3] === 0x54 && bytes[last + 4] === 0x50 && bytes[last + 5] === 0x2f) {
    e = last
  }
  // Another method: only in a whole request line.
  if (!upper && (e === end || !isVersion(bytes, last + 1, end))) return false
  while (e > s && bytes[e - 1] === 0x20) e--
  if (e <= s) return false
  out[at] = s
  out[at + 1] = e
  return true
}

/** Parses `--delimiter`: one byte, or `\t` / `tab` for a tab; undefined when it is not one. */
export function parseDelimiter(value: string): number | undefined {
  if (value === '\\t' || value === 'tab') return 0x09
  const bytes = Buffer.from(value, 'utf8')
  if (bytes.length !== 1 || bytes[0] === 0x0a) return undefined
  return bytes[0]
}
