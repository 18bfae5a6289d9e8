/**
 * Bytes of input (a line, a URL, a field) as text, for outputs and
 * messages. A `TextDecoder`'s default drops a byte order mark that starts
 * what it decodes: each line of concatenated files decoded apart would lose
 * the BOM its file started with, in silence, and a line the reference reads
 * with those bytes would be shown, and written in JSON, without them.
 */
import { printable, printableValue } from './printable.js'

/** UTF-8, invalid bytes as U+FFFD, a leading BOM kept as U+FEFF. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** `bytes` as UTF-8 text: a leading BOM kept, a byte that is not UTF-8 as U+FFFD (see {@link printableBytes} for lossless text). */
export function inputText(bytes: Uint8Array): string {
  return UTF8.decode(bytes)
}

/** The length of the well-formed UTF-8 sequence at `bytes[i]` (WHATWG's decoder's rules), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]
  if (b < 0x80) return 1
  let n: number
  let low = 0x80
  let high = 0xbf
  if (b >= 0xc2 && b <= 0xdf) n = 2
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3
    if (b === 0xe0) low = 0xa0
    else if (b === 0xed) high = 0x9f
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4
    if (b === 0xf0) low = 0x90
    else if (b === 0xf4) high = 0x8f
  } else return 0
  if (i + n > bytes.length) return 0
  const second = bytes[i + 1]
  if (second < low || second > high) return 0
  for (let k = 2; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0
  return n
}

/**
 * `bytes` as printable text that loses nothing: their UTF-8 escaped as
 * {@link printableValue} escapes it (a backslash as `\\`), and each byte
 * that is not UTF-8 as `\xHH`, where a decoder would write U+FFFD for
 * every such byte alike. `value` false: escaped as {@link printable} (a
 * message, whose backslashes stay single).
 */
export function printableBytes(bytes: Uint8Array, value = true): string {
  const escape = value ? printableValue : printable
  let out = ''
  let run = 0
  let i = 0
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i)
    if (n > 0) {
      i += n
      continue
    }
    if (run < i) out += escape(UTF8.decode(bytes.subarray(run, i)))
    out += `\\x${bytes[i].toString(16).padStart(2, '0')}`
    run = ++i
  }
  return out + (run < bytes.length ? escape(UTF8.decode(bytes.subarray(run))) : '')
}
