/** Numbers as `compare` shows them in its reports and messages: counts, plurals, percentages, durations; and text files as it reads them. */

import { count, plural } from '../tools/counts.js'

export { count, plural }

/** `97.123` → `97.12%`. */
export function pct(p: number): string {
  return `${p.toFixed(2)}%`
}

/** Milliseconds in the unit that reads best: `1.23 s`, `12 ms`, `0.25 ms`, `8.0 µs`. */
export function ms(v: number): string {
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`
  if (v >= 10) return `${v.toFixed(0)} ms`
  if (v >= 0.1) return `${v.toFixed(2)} ms`
  return `${(v * 1000).toFixed(1)} µs`
}

/** `text` without the UTF-8 BOM (U+FEFF) that may start a file: an encoding mark, no part of its first line or value. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
