/**
 * Text in UTF-16 or UTF-32 (a file saved by an editor or a PowerShell
 * redirection, a server's `charset=utf-16`), which the reference and every
 * reader here read as UTF-8 bytes: told by its byte order mark, or, without
 * one, by the zero bytes of ASCII text in code units of two or four bytes.
 * Only what the user is told depends on it, never a verdict.
 */

/** The bytes looked at: enough code units to tell text from chance. */
const HEAD = 64

/** How many of the code units looked at must be ASCII in one layout: nearly all of them. */
const SHARE = 0.9

/**
 * The encoding `bytes` (the start of a file or line) look like, when it is
 * UTF-16 or UTF-32: its name with the byte order (`UTF-16LE`), and whether
 * a byte order mark says so (`bom`); undefined for anything else (UTF-8,
 * Latin-1, binary data). Without a mark, at least four code units of
 * ASCII text must be there. Past a file's start (a line after the first)
 * the byte order may read wrong: see {@link encodingFamily}.
 */
export function wideEncoding(bytes: Uint8Array): { name: string; bom: boolean } | undefined {
  for (const [name, , , mark] of LAYOUTS) if (mark.every((b, i) => bytes[i] === b)) return { name, bom: true }
  for (const [name, size, at] of LAYOUTS) if (asciiUnits(bytes, size, at)) return { name, bom: false }
  return undefined
}

/** Each layout: its name, its code unit's size, where in a unit the ASCII byte is, and its byte order mark (UTF-32LE's first: UTF-16LE's starts it). */
const LAYOUTS: readonly (readonly [string, number, number, readonly number[]])[] = [
  ['UTF-32LE', 4, 0, [0xff, 0xfe, 0, 0]],
  ['UTF-32BE', 4, 3, [0, 0, 0xfe, 0xff]],
  ['UTF-16LE', 2, 0, [0xff, 0xfe]],
  ['UTF-16BE', 2, 1, [0xfe, 0xff]],
]

/** Whether nearly every whole code unit among the first bytes is one ASCII character (a byte 1–127 at `at`, zeros elsewhere), four at least. */
function asciiUnits(bytes: Uint8Array, size: number, at: number): boolean {
  const units = Math.floor(Math.min(bytes.length, HEAD) / size)
  if (units < 4) return false
  let ascii = 0
  for (let u = 0; u < units; u++) {
    let ok = bytes[u * size + at] !== 0 && bytes[u * size + at] < 0x80
    for (let k = 0; k < size && ok; k++) if (k !== at && bytes[u * size + k] !== 0) ok = false
    if (ok) ascii++
  }
  return ascii >= units * SHARE
}

/** A file of UTF-16 or UTF-32 text that is read as UTF-8 (`what`: `a crawler list`), told with the conversion to make; undefined for other bytes. */
export function wideRefusal(bytes: Uint8Array, what: string): string | undefined {
  const e = wideEncoding(bytes)
  return e && `${wideWords(bytes)}, but ${what} is read as UTF-8: ${convertWords(encodingFamily(e.name))}`
}

/** How to convert a file of an encoding's `family` (`UTF-16`). */
export function convertWords(family: string): string {
  return `convert it (iconv -f ${family} -t UTF-8)`
}

/** An encoding's name without its byte order (`UTF-16LE` → `UTF-16`): for a line past the first, which may start with the second byte of a code unit. */
export function encodingFamily(name: string): string {
  return name.slice(0, 6)
}

/** How {@link wideEncoding}'s answer is told: `UTF-16LE text`, or `UTF-16LE text without a byte order mark`; undefined for none. */
export function wideWords(bytes: Uint8Array | undefined): string | undefined {
  const e = bytes === undefined ? undefined : wideEncoding(bytes)
  return e === undefined ? undefined : e.bom ? `${e.name} text` : `${e.name} text without a byte order mark`
}

/** A `Content-Type` that declares UTF-16 or UTF-32 (`text/plain; charset=utf-16le`), told as `UTF-16LE text, as its Content-Type says`; undefined otherwise. */
export function declaredWide(contentType: string | undefined): string | undefined {
  const m = /charset\s*=\s*"?utf-?(16|32)(le|be)?"?\s*(;|$)/i.exec(contentType ?? '')
  return m === null ? undefined : `UTF-${m[1]}${(m[2] ?? '').toUpperCase()} text, as its Content-Type says`
}
