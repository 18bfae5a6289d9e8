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
