/**
 * Columns of a log line (`--field N`, `--host-field M`, `--delimiter D`):
 * where the URL (and the host) sit in a line, found in its bytes without
 * making a string ({@link findField}). Fields are numbered from 1. A line with
 * fewer fields has an empty URL (judged as `/`, counted as invalid) or no host.
 */

/** Field separator: a byte, or whitespace runs. */
export const WHITESPACE = -1

/** How `filter` picks the URL and host out of a line. */
export interface FieldSpec {
  /** The URL column, from 1. */
  readonly url: number
  /** The host column, from 1, or 0 when the host comes from the URL. */
  readonly host: number
  /** A separator byte, or `WHITESPACE`. */
  readonly delimiter: number
}

function isBlank(b: number): boolean {
  return b === 0x20 || b === 0x09
}

/**
 * Finds field `n` (from 1) of `bytes[start, end)`: writes its range to
 * `out[at]`, `out[at + 1]` and returns true, or returns false when the line
 * has fewer fields.
 *
 * - Without `--delimiter` ({@link WHITESPACE}), fields are separated by runs
 *   of spaces and tabs, and blanks at the start of the line are skipped (as
 *   awk splits `$1 … $NF`): in an Apache or nginx access log
 *   `"GET /a HTTP/1.1"` is three fields, `"GET`, `/a` and `HTTP/1.1"`.
 * - With `--delimiter D` (one byte: `,`, `|`, or `\t` for a tab), every D
 *   separates two fields, empty ones included (as `cut -d D` splits).
 */
export function findField(bytes: Uint8Array, start: number, end: number, n: number, delimiter: number, out: Int32Array, at: number): boolean {
  let p = start
  if (delimiter === WHITESPACE) {
    for (let k = 1; ; k++) {
      while (p < end && isBlank(bytes[p])) p++
      if (p >= end) return false
      const s = p
      while (p < end && !isBlank(bytes[p])) p++
      if (k === n) {
        out[at] = s
        out[at + 1] = p
        return true
      }
    }
  }
  for (let k = 1; k < n; k++) {
    while (p < end && bytes[p] !== delimiter) p++
    if (p >= end) return false
    p++
  }
  const s = p
  while (p < end && bytes[p] !== delimiter) p++
  out[at] = s
  out[at + 1] = p
  return true
}

/** Parses `--delimiter`: one byte, or `\t` / `tab` for a tab; undefined when it is not one. */
export function parseDelimiter(value: string): number | undefined {
  if (value === '\\t' || value === 'tab') return 0x09
  const bytes = Buffer.from(value, 'utf8')
  if (bytes.length !== 1 || bytes[0] === 0x0a) return undefined
  return bytes[0]
}
