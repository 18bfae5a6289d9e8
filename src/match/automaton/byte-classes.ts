/**
 * Byte classes: bytes that no pattern tells apart share one class, so the
 * transition table is `states × classes` instead of `states × 256`. Class 0 is
 * the END class: NUL and `#`. Either ends the path (the fragment is dropped;
 * the reference sees the path as a C string), and no pattern can hold them
 * (`#` starts a comment, NUL ends the line). Classes 1..L are the literal
 * bytes of the patterns, one each; class L+1 is every other byte.
 */

/** The class map and a representative byte per class. */
export interface ByteClasses {
  /** `map[b]` is the class of byte b. */
  map: Uint8Array
  /** Number of classes. */
  count: number
  /** A byte of each class (END class: -1). */
  representative: Int16Array
  /** Class of every byte that no pattern names (all bytes >= 0x80 after escaping). */
  other: number
}

/** END class id. */
export const END_CLASS = 0

/** Builds the classes for the given literal bytes. */
export function buildByteClasses(literals: Uint8Array): ByteClasses {
  const map = new Uint8Array(256)
  const lits = literals.filter((b) => b !== 0 && b !== 35)
  const other = lits.length + 1
  map.fill(other)
  const representative = new Int16Array(other + 1)
  representative[END_CLASS] = -1
  lits.forEach((b, i) => {
    map[b] = i + 1
    representative[i + 1] = b
  })
  // A byte no pattern uses, to stand for the "other" class.
  let rep = 0x80
  for (let b = 1; b < 256; b++) {
    if (map[b] === other && b !== 35) {
      rep = b
      break
    }
  }
  representative[other] = rep
  map[0] = END_CLASS
  map[35] = END_CLASS
  return { map, count: other + 1, representative, other }
}
