/**
 * A robots.txt file opened in the tester page. The editor holds text, but a
 * file is judged as its bytes as served, as `check` judges it: the text
 * shown is not always those bytes. Invalid UTF-8 shows as U+FFFD (and would
 * be judged as its three bytes), a BOM is dropped, and a text field keeps
 * only LF line ends (so CRLF lines would move the parsing limit). Until the
 * text is edited, the page judges the bytes.
 */

/** The file's bytes and the text the editor showed for them. */
export interface OpenedFile {
  readonly bytes: Uint8Array
  /** The editor's text right after the file was opened (a text field normalises line ends). */
  readonly shown: string
  /** Whether the bytes are valid UTF-8 (else the text shows U+FFFD for the invalid ones). */
  readonly utf8: boolean
  /** Tells two opened files apart whose texts are equal (`\xE9` and `\xFF` both show as U+FFFD). */
  readonly serial: number
}

/** Most bytes read from a dropped or opened file, and kept of pasted text (the parser reads 500 KiB of it; the rest would only slow the editor). */
export const MAX_FILE_BYTES = 1 << 20

let serials = 0

/** The text to show for `bytes`: UTF-8, a leading BOM dropped, invalid sequences as U+FFFD. */
export function fileText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes)
}

/**
 * The file opened as `bytes` into an editor that then held `shown`; undefined
 * when `shown` is exactly those bytes as UTF-8, so the text itself is judged.
 */
export function openedFile(bytes: Uint8Array, shown: string): OpenedFile | undefined {
  const same = new TextEncoder().encode(shown)
  if (same.length === bytes.length && same.every((b, i) => b === bytes[i])) return undefined
  let utf8 = true
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    utf8 = false
  }
  return { bytes, shown, utf8, serial: ++serials }
}

/** What the page judges for an editor holding `text`: the opened file's bytes while the text is unedited. */
export function bodyOf(file: OpenedFile | undefined, text: string): Uint8Array | undefined {
  return file !== undefined && file.shown === text ? file.bytes : undefined
}

/**
 * The first `limit` bytes of a file that is longer, cut before a character
 * the limit would split (a lead byte whose sequence runs past the end), so
 * that a valid UTF-8 file does not read as invalid for its cut. The parser
 * reads far less than the page keeps, so the cut changes no answer.
 */
export function firstBytes(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.length <= limit) return bytes
  let end = limit
  // Back over continuation bytes (10xxxxxx) to the lead byte of the last character, at most 3.
  let k = end
  while (k > 0 && end - k < 3 && (bytes[k - 1] & 0xc0) === 0x80) k--
  const lead = k > 0 ? bytes[k - 1] : 0
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  if (lead >= 0xc0 && end - (k - 1) < need) end = k - 1
  return bytes.subarray(0, end)
}

/** Text inserted into an editor past `limit` bytes: what the editor keeps of it. */
export interface CappedInsert {
  /** The editor's new text: its first `limit` bytes (as UTF-8) at most, line ends as LF. */
  readonly text: string
  /** Where the caret goes: after what was kept of the inserted text. */
  readonly caret: number
  /** The bytes the text would have had, uncut. */
  readonly size: number
}

/**
 * `data` inserted over `value[start, end)`, when the result would be longer
 * than `limit` bytes: the first `limit` bytes of it (cut as {@link firstBytes}
 * cuts a file), so that a paste is held to what an opened file is held to.
 * Undefined when the result fits (the field inserts it itself, keeping undo).
 */
export function cappedInsert(value: string, start: number, end: number, data: string, limit: number): CappedInsert | undefined {
  // A UTF-16 unit is 3 UTF-8 bytes at most: short results need no counting.
  if ((value.length - (end - start) + data.length) * 3 <= limit) return undefined
  // A text field keeps LF line ends only.
  const inserted = data.replace(/\r\n?/g, '\n')
  const encoder = new TextEncoder()
  const whole = encoder.encode(value.slice(0, start) + inserted + value.slice(end))
  if (whole.length <= limit) return undefined
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(firstBytes(whole, limit))
  return { text, caret: Math.min(text.length, start + inserted.length), size: whole.length }
}
