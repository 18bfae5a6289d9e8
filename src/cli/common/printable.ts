/**
 * Text that comes from input (robots.txt files, URLs, host and file names),
 * made safe to print: a terminal must never receive a control sequence that
 * some file wrote (a user-agent value holding `ESC ] 0 ; … BEL` retitles the
 * window, `ESC [ 2 J` clears it, a CR overwrites the verdict shown before
 * it). Filter output (`--print`, the URL column of `--print verdicts`) is
 * data, written byte for byte, and is not escaped.
 */

/** Characters that must not reach a terminal raw (see {@link printable}). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Quick test before the replace: most text has nothing to escape. */
const HAS_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/

function escapeChar(c: string): string {
  const code = c.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
}

/**
 * `s` with every control character escaped, for plain text: C0 controls (tab,
 * LF and CR included), DEL, C1 controls, and the Unicode line/paragraph
 * separators and bidirectional controls (which reorder what a reader sees)
 * become `\xHH` or `\u{HHHH}` escapes. Everything else is kept.
 */
export function printable(s: string): string {
  return HAS_UNSAFE.test(s) ? s.replace(UNSAFE, escapeChar) : s
}

function jsonEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** Characters JSON.stringify leaves raw that a terminal could act on. */
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const JSON_HAS_UNSAFE = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/**
 * `JSON.stringify(value)` with the characters a terminal could act on written
 * as `\uXXXX` (same JSON value). `JSON.stringify` escapes C0 controls
 * already; this also writes DEL, the C1 controls, the separators and the
 * bidirectional controls so, and a JSON line is both valid JSON with the
 * same value and safe on a terminal.
 */
export function jsonLine(value: unknown): string {
  const s = JSON.stringify(value)
  return JSON_HAS_UNSAFE.test(s) ? s.replace(JSON_UNSAFE, jsonEscape) : s
}
