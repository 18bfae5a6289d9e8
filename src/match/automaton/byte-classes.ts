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

/** The number of classes of the patterns' literal bytes (`literals[b]` is 1 for each; 256 entries): END, one per literal byte but NUL and `#`, and "other". */
export function countClasses(literals: Uint8Array): number {
  let n = 2
  for (let b = 1; b < 256; b++) if (literals[b] !== 0 && b !== 35) n++
  return n
}

/** Fills `map` (256 entries) and `representative` ({@link countClasses} entries) for the literal bytes of the patterns; returns the classes over them. */
export function fillByteClasses(literals: Uint8Array, map: Uint8Array, representative: Int16Array): ByteClasses {
  let count = 0
  for (let b = 1; b < 256; b++) if (literals[b] !== 0 && b !== 35) map[b] = ++count
  const other = count + 1
  representative[END_CLASS] = -1
  // A byte no pattern uses stands for the "other" class.
  let rep = -1
  for (let b = 1; b < 256; b++) {
    const c = map[b]
    if (c !== 0) representative[c] = b
    else if (b !== 35) {
      map[b] = other
      if (rep < 0) rep = b
    }
  }
  representative[other] = rep < 0 ? 0x80 : rep
  map[0] = END_CLASS
  map[35] = END_CLASS
  return { map, count: other + 1, representative, other }
}

/** The classes for the literal bytes of the patterns, in arrays of their own (`literals[b]` is 1 for each). */
export function buildByteClasses(literals: Uint8Array): ByteClasses {
  return fillByteClasses(literals, new Uint8Array(256), new Int16Array(countClasses(literals)))
}
