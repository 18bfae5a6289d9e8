/** UTF-8 validation for diagnostics (the parser itself works on bytes and never decodes). */

/**
 * UTF-8 validity of `bytes[from, to)` (no exceptions, no allocation). With
 * `cutOk`, a sequence cut short by the end (the line limit) is not an error.
 */
export function isValidUtf8(bytes: Uint8Array, from: number, to: number, cutOk: boolean, words: DataView): boolean {
  let i = from
  while (i < to) {
    // A run of ASCII in a loop of its own, four bytes at a time through `words` (a view of all of `bytes`).
    while (i + 4 <= to && (words.getInt32(i, true) & 0x80808080) === 0) i += 4
    while (i < to && bytes[i] < 0x80) i++
    if (i >= to) break
    const b = bytes[i]
    let need: number
    let min: number
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1
      min = 0x80
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2
      min = 0x800
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3
      min = 0x10000
    } else return false
    let cp = b & (0x3f >> need)
    let k = 1
    for (; k <= need; k++) {
      if (i + k >= to) return cutOk
      const c = bytes[i + k]
      if ((c & 0xc0) !== 0x80) return false
      cp = (cp << 6) | (c & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false
    i += need + 1
  }
  return true
}
