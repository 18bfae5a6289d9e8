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

/** Length of the valid UTF-8 sequence at `i` (2–4), or 0 when the bytes there are not one (ASCII included). */
export function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]
  const cont = (k: number): boolean => i + k < b.length && (b[i + k] & 0xc0) === 0x80
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0
    if (c === 0xe0 && b[i + 1] < 0xa0) return 0
    if (c === 0xed && b[i + 1] > 0x9f) return 0
    return 3
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0
    if (c === 0xf0 && b[i + 1] < 0x90) return 0
    if (c === 0xf4 && b[i + 1] > 0x8f) return 0
    return 4
  }
  return 0
}

/**
 * `bytes` as text, each run of valid UTF-8 (a leading BOM kept) through
 * `text` and each byte that is not UTF-8 through `byte`, where a decoder
 * would write U+FFFD for every such byte alike.
 */
export function mapUtf8(bytes: Uint8Array, text: (s: string) => string, byte: (b: number) => string): string {
  let out = ''
  let run = 0
  let i = 0
  while (i < bytes.length) {
    const n = bytes[i] < 0x80 ? 1 : utf8SequenceLength(bytes, i)
    if (n > 0) {
      i += n
      continue
    }
    if (run < i) out += text(UTF8.decode(bytes.subarray(run, i)))
    out += byte(bytes[i])
    run = ++i
  }
  return out + (run < bytes.length ? text(UTF8.decode(bytes.subarray(run))) : '')
}

/**
 * `bytes` as printable text that loses nothing: their UTF-8 escaped as
 * {@link printableValue} escapes it (a backslash as `\\`), and each byte
 * that is not UTF-8 as `\xHH`. `value` false: escaped as {@link printable}
 * (a message, whose backslashes stay single).
 */
export function printableBytes(bytes: Uint8Array, value = true): string {
  return mapUtf8(bytes, value ? printableValue : printable, (b) => `\\x${b.toString(16).padStart(2, '0')}`)
}
