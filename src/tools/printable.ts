/**
 * Text that comes from input (robots.txt files, URLs, host and file names),
 * made safe to print: a terminal must never receive a control sequence that
 * some file wrote (a user-agent value holding `ESC ] 0 ; … BEL` retitles the
 * window, `ESC [ 2 J` clears it, a CR overwrites the verdict shown before
 * it). Filter output (`--print`, the URL column of `--print verdicts`) is
 * data, written byte for byte, and is not escaped.
 */

/**
 * Characters that must not reach a terminal raw, or that a reader cannot
 * see (see {@link printable}): C0 controls, DEL, C1 controls; the line and
 * paragraph separators and the bidirectional controls (which reorder what
 * a reader sees); and the invisible ones a copied line may carry: the BOM
 * (U+FEFF), soft hyphen, zero-width spaces and joiners, word joiner and
 * invisible operators, Mongolian and other fillers, variation selectors,
 * interlinear annotation marks, tag characters; and lone surrogates.
 */
const INVISIBLE =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164' +
  '\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e0fff}\\ud800-\\udfff'
const UNSAFE = new RegExp(`[${INVISIBLE}]`, 'gu')

/** Quick test before the replace: most text has nothing to escape. */
const HAS_UNSAFE = new RegExp(`[${INVISIBLE}]`, 'u')

function escapeChar(c: string): string {
  const code = c.codePointAt(0)!
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
}

/**
 * `s` with every control and invisible character escaped, for plain text:
 * C0 controls (tab, LF and CR included), DEL, C1 controls, the Unicode
 * line/paragraph separators, bidirectional controls and the invisible
 * characters above (a BOM, a zero-width space) become `\xHH` or
 * `\u{HHHH}` escapes. Everything else is kept.
 */
export function printable(s: string): string {
  return HAS_UNSAFE.test(s) ? s.replace(UNSAFE, escapeChar) : s
}

/** The characters {@link printable} escapes but a tab and a line feed. */
const UNSAFE_IN_LINES = new RegExp(`(?![\\t\\n])[${INVISIBLE}]`, 'gu')

/**
 * `s` as {@link printable}, its tabs and line feeds kept: for text shown in
 * lines of its own (a robots.txt body in a page), where a control, a bidi
 * override or an invisible character must be seen, not act.
 */
export function printableLines(s: string): string {
  return HAS_UNSAFE.test(s) ? s.replace(UNSAFE_IN_LINES, escapeChar) : s
}

/**
 * `s` as {@link printable}, and lossless: a backslash is written `\\`, so
 * the four characters `\x09` in the text read apart from an escaped tab and
 * a reader can undo the escapes. For data a command writes (TSV, CSV, text
 * reports), whose values a user may need back.
 */
export function printableValue(s: string): string {
  return printable(s.includes('\\') ? s.replace(/\\/g, '\\\\') : s)
}

function jsonEscape(c: string): string {
  let out = ''
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`
  return out
}

/** Characters JSON.stringify leaves raw that a terminal could act on, or a reader could not see (C0 controls and lone surrogates it escapes already). */
const JSON_UNSAFE = new RegExp(`[${INVISIBLE}]`, 'gu')
const JSON_HAS_UNSAFE = new RegExp(`[${INVISIBLE}]`, 'u')
/** The same but the C0 controls: outside strings (which JSON.stringify escapes them in) they lay out indented JSON. */
const JSON_UNSAFE_INDENTED = new RegExp(`(?![\\u0000-\\u001f])[${INVISIBLE}]`, 'gu')

/**
 * `JSON.stringify(value)` with the characters a terminal could act on, or a
 * reader could not see, written as `\uXXXX` (same JSON value).
 * `JSON.stringify` escapes C0 controls and lone surrogates already; this
 * also writes DEL, the C1 controls, the separators, the bidirectional
 * controls and the invisible characters so, and a JSON line is both valid
 * JSON with the same value and safe on a terminal. `indent`: indented JSON
 * (a report), escaped the same way.
 */
export function jsonLine(value: unknown, indent?: number): string {
  const s = JSON.stringify(value, null, indent)
  return JSON_HAS_UNSAFE.test(s) ? s.replace(indent ? JSON_UNSAFE_INDENTED : JSON_UNSAFE, jsonEscape) : s
}
