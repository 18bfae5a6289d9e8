/**
 * Tests of four bytes at once: the byte loops read a line as little-endian
 * 32-bit words (a DataView's `getInt32(at, true)`) while no byte of a word
 * needs a look of its own, and fall back to a byte at a time at the first
 * word that holds one. Each test is exact: the high bit of a byte of the
 * or-ed terms is set when (and only when) some byte of the word needs a look.
 * The constants are written out (module constants are read at run time).
 */

/** `&` to `~` (printable ASCII past `%`): a rule's pattern bytes, copied as they are. */
export function isPatternWord(w: number): boolean {
  // A byte below 0x26; a byte of 0x7f or more.
  return ((((w - 0x26262626) & ~w) | (w + 0x01010101) | w) & 0x80808080) === 0
}

/** Printable ASCII or space: an unread value's bytes. */
export function isPrintableWord(w: number): boolean {
  return ((((w - 0x20202020) & ~w) | (w + 0x01010101) | w) & 0x80808080) === 0
}

/**
 * The first index of `b[j, stop)` whose byte is neither printable ASCII nor
 * a tab, or `stop`: runs four bytes at a time through `dv` (a view of all of
 * `b`), the word that stops one a byte at a time.
 */
export function printableEnd(b: Uint8Array, dv: DataView, j: number, stop: number): number {
  for (let words = j; j < stop; j++) {
    if (j >= words) {
      while (j + 4 <= stop && isPrintableWord(dv.getInt32(j, true))) j += 4
      words = j + 4
      if (j >= stop) break
    }
    const x = b[j]
    if ((x - 32 >>> 0) >= 95 && x !== 9) break
  }
  return j
}

/** Printable ASCII or space but `#` and `:`: a line without a key past its second word. */
export function isProseWord(w: number): boolean {
  // A byte below 0x20; 0x7f or more; a '#'; a ':' (a byte of the xor is 0).
  const h = w ^ 0x23232323
  const c = w ^ 0x3a3a3a3a
  return ((((w - 0x20202020) & ~w) | (w + 0x01010101) | w | ((h - 0x01010101) & ~h) | ((c - 0x01010101) & ~c)) & 0x80808080) === 0
}

/** A DataView over the last array asked for (for reading or writing words), made again only when the array changes. */
export class WordView {
  private array: Uint8Array | null = null
  private view: DataView | null = null

  /** A view of all of `b`. */
  of(b: Uint8Array): DataView {
    if (this.array !== b) {
      this.array = b
      this.view = new DataView(b.buffer, b.byteOffset, b.byteLength)
    }
    return this.view!
  }
}
