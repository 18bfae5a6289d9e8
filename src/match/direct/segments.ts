/**
 * One rule against one path, without an automaton ({@link ruleMatches}): the
 * check behind the direct engines (the cold tier tries rules in rank order;
 * the thrash-proof tier verifies the candidates its index found). It is the
 * reference's Matches() (a set of positions per pattern byte), computed
 * segment by segment, linear in the path and the pattern.
 */
import { RuleField, RuleFlag } from '../../rules/rule-set.js'
import { SCRATCH_KEEP } from '../../memory.js'

/** `*` (a `const enum`: a number in the hot loops). */
const enum Byte {
  Star = 42,
}

/**
 * Does the rule whose record starts at `at` in `rec` (its pattern in
 * `bytes`) match the path `p[from, to)`? (`p[from]` is the path's `/`.)
 *
 * A pattern (its final `$` aside: RuleFlag.Anchored) is a run of segments
 * split by `*`. It matches a prefix of the path when the first segment (the
 * head) is a prefix of the path and each later segment occurs after the
 * previous one; the leftmost occurrence of each is taken, which leaves the
 * most room for the rest, so no backtracking is needed. An anchored pattern's
 * last segment must end where the path ends (after the earlier ones); a
 * pattern ending in `*` is done once the segments before the star matched.
 * The leftmost search is byte by byte, and KMP once that has cost more than
 * twice the text, so a check is linear in the path and the pattern.
 */
export function ruleMatches(bytes: Uint8Array, rec: Int32Array, at: number, p: Uint8Array, from: number, to: number): boolean {
  const s = rec[at + RuleField.Start]
  const e = rec[at + RuleField.End]
  const flags = rec[at + RuleField.Flags]
  if ((flags & RuleFlag.Star) === 0) {
    const n = e - s
    if ((flags & RuleFlag.Anchored) !== 0 ? to - from !== n : to - from < n) return false
    for (let k = 0; k < n; k++) if (p[from + k] !== bytes[s + k]) return false
    return true
  }
  // The head: up to the first star (there is one).
  let k = s
  let i = from
  for (; bytes[k] !== Byte.Star; k++, i++) if (i >= to || p[i] !== bytes[k]) return false
  for (;;) {
    while (k < e && bytes[k] === Byte.Star) k++
    if (k === e) return true // a final star matches the rest, whatever it is (also before a `$`)
    let segEnd = k + 1
    while (segEnd < e && bytes[segEnd] !== Byte.Star) segEnd++
    const len = segEnd - k
    if (segEnd === e && (flags & RuleFlag.Anchored) !== 0) {
      // The last segment of an anchored pattern: it ends where the path ends.
      const x = to - len
      if (x < i) return false
      for (let j = 0; j < len; j++) if (p[x + j] !== bytes[k + j]) return false
      return true
    }
    const found = indexOfSegment(p, i, to, bytes, k, len)
    if (found < 0) return false
    i = found + len
    k = segEnd
  }
}

/** Leftmost occurrence of `bytes[k, k + len)` in `p[i, to)`, or -1. */
function indexOfSegment(p: Uint8Array, i: number, to: number, bytes: Uint8Array, k: number, len: number): number {
  const first = bytes[k]
  const last = to - len
  // Byte by byte, which usually fails on the first byte; past a budget of
  // compares proportional to the text (a text like `aaaa…` against `aaa…ab`),
  // KMP takes over from where the search is, so it stays linear.
  let budget = 2 * (to - i) + 64
  outer: for (let x = i; x <= last; x++) {
    if (p[x] !== first) continue
    for (let j = 1; j < len; j++) {
      if (p[x + j] !== bytes[k + j]) {
        budget -= j
        if (budget < 0) return indexOfSegmentKmp(p, x + 1, to, bytes, k, len)
        continue outer
      }
    }
    return x
  }
  return -1
}

/** KMP's failure table (reused; a longer segment gets its own for the call: src/memory.ts). */
const failure = new Int32Array(SCRATCH_KEEP)

/**
 * {@link indexOfSegment} by Knuth–Morris–Pratt: O(text + segment), where
 * the plain search is O(text × segment) on texts like `aaaa…` against
 * segments like `aaa…ab` (bench/worst-case.mjs, long segments).
 */
function indexOfSegmentKmp(p: Uint8Array, i: number, to: number, bytes: Uint8Array, k: number, len: number): number {
  if (to - i < len) return -1
  const f = len <= failure.length ? failure : new Int32Array(len)
  // f[j]: length of the longest proper border of the segment's first j + 1 bytes.
  f[0] = 0
  for (let j = 1, b = 0; j < len; j++) {
    while (b > 0 && bytes[k + j] !== bytes[k + b]) b = f[b - 1]
    if (bytes[k + j] === bytes[k + b]) b++
    f[j] = b
  }
  for (let x = i, m = 0; x < to; x++) {
    while (m > 0 && p[x] !== bytes[k + m]) m = f[m - 1]
    if (p[x] === bytes[k + m]) m++
    if (m === len) return x - len + 1
  }
  return -1
}

/**
 * A byte mask: which bytes occur, one bit per byte value below 128 in
 * {@link MASK_WORDS} Int32 words (bit `b & 31` of word `b >> 5`); a byte
 * of 128 or more sets the bit of its low seven bits, so a mask may say a
 * byte occurs when it does not, never the other way round.
 */
export const MASK_WORDS = 4

/**
 * False when a byte of a `*` rule's segments (its bytes after the head,
 * stars aside) is missing from the path's mask `have` ({@link pathMask}):
 * the rule cannot match, and no search along the path is needed. Reads the
 * pattern until the first missing byte.
 */
export function segmentsMayOccur(bytes: Uint8Array, rec: Int32Array, at: number, have: Int32Array): boolean {
  let k = rec[at + RuleField.Start]
  const e = rec[at + RuleField.End]
  while (k < e && bytes[k] !== Byte.Star) k++
  for (; k < e; k++) {
    const b = bytes[k] & 127
    if ((have[b >> 5] & (1 << (b & 31))) === 0 && bytes[k] !== Byte.Star) return false
  }
  return true
}

/** The mask of the bytes of `p[from, to)` into `out[0, MASK_WORDS)`. */
export function pathMask(p: Uint8Array, from: number, to: number, out: Int32Array): void {
  out.fill(0)
  for (let i = from; i < to; i++) {
    const b = p[i] & 127
    out[b >> 5] |= 1 << (b & 31)
  }
}
