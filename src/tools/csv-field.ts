/**
 * The one CSV field of every CSV the tools write (`audit`, `compare --csv`):
 * RFC 4180 quoting, lossless escapes, and no cell a spreadsheet runs as a
 * formula.
 */
import { printableValue } from './printable.js'

/** A first character that makes a spreadsheet read a cell as a formula (OWASP's list; tab and CR are escaped already). */
const FORMULA_START = /^[=+\-@]/

/** A number, which no spreadsheet runs: `-1` stays as it is. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i

/**
 * A CSV field: controls, invisible characters and lone surrogates written
 * `\xHH` or `\u{HHHH}` and a backslash `\\` (as in text output, so the value
 * can be had back), a first `=`, `+`, `-` or `@` of a value that is not a
 * number written `\x3d`, `\x2b`, `\x2d`, `\x40` (the same escapes: a
 * spreadsheet shows the text and runs nothing), then quoted when it holds a
 * comma or a quote.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let s = printableValue(String(value))
  if (FORMULA_START.test(s) && !NUMBER.test(s)) s = `\\x${s.charCodeAt(0).toString(16)}${s.slice(1)}`
  return /[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
