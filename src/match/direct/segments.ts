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
 * A segment signature: which bytes and which pairs of adjacent bytes occur,
 * in {@link SIGNATURE_WORDS} Int32 words, a bit per byte or pair: words 0–1
 * the bytes by their low seven bits (bit `b & 31` of word `b >> 6`: the
 * bytes below 64 in word 0, the others in word 1, so `A` and `a` share a
 * bit), words 2–3 the pairs, by a hash of the two bytes' low seven bits
 * ({@link pairBit}). A path's signature ({@link pathSignature}) may say a
 * byte or pair occurs when it does not, never the other way round; a `*`
 * rule's ({@link segmentSignatures}) holds the bytes and adjacent pairs of
 * its segments after the head, which a path it matches must hold too. Two
 * words each, so that a path's signature is made in four locals, a few
 * operations a byte with no loads or stores.
 */
export const SIGNATURE_WORDS = 4

/** The bit of the pair of bytes `a`, `b` (their low seven bits) in a signature's pair words: 0–63. */
export function pairBit(a: number, b: number): number {
  return Math.imul(((a & 127) << 7) | (b & 127), 0x9e3779b1) >>> 26
}

/**
 * The signatures of a set's `*` rules, in one array: entry `r` (one per
 * rule) is where rule `r`'s {@link SIGNATURE_WORDS} words start in the same
 * array (0 for a rule without `*`, which has none), after the entries.
 */
export function segmentSignatures(bytes: Uint8Array, rec: Int32Array): Int32Array {
  const n = rec.length / RuleField.Width
  let stars = 0
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) if (rec[at] & RuleFlag.Star) stars++
  const sigs = new Int32Array(n + stars * SIGNATURE_WORDS)
  for (let r = 0, o = n; r < n; r++) {
    const at = r * RuleField.Width
    if ((rec[at + RuleField.Flags] & RuleFlag.Star) === 0) continue
    sigs[r] = o
    let k = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    while (k < e && bytes[k] !== Byte.Star) k++
    for (; k < e; k++) {
      const b = bytes[k]
      if (b === Byte.Star) continue
      sigs[o + ((b & 127) >> 6)] |= 1 << (b & 31)
      if (k + 1 < e && bytes[k + 1] !== Byte.Star) {
        const h = pairBit(b, bytes[k + 1])
        sigs[o + 2 + (h >> 5)] |= 1 << (h & 31)
      }
    }
    o += SIGNATURE_WORDS
  }
  return sigs
}

/**
 * False when a byte or an adjacent pair of `*` rule `r`'s segments is
 * missing from the path's signature `have`: the rule cannot match, and no
 * search along the path is needed.
 */
export function signatureMayOccur(sigs: Int32Array, r: number, have: Int32Array): boolean {
  const o = sigs[r]
  return ((sigs[o] & ~have[0]) | (sigs[o + 1] & ~have[1]) | (sigs[o + 2] & ~have[2]) | (sigs[o + 3] & ~have[3])) === 0
}

/**
 * The signature of the path `p[from, to)` into `out[0, SIGNATURE_WORDS)`.
 * COPY: direct-engine.ts's charSignature, by chars.
 */
export function pathSignature(p: Uint8Array, from: number, to: number, out: Int32Array): void {
  let lo = 0
  let hi = 0
  let pairLo = 0
  let pairHi = 0
  let a = -1
  for (let i = from; i < to; i++) {
    const b = p[i] & 127
    // Bit 6 of the byte picks the word (all ones for the high one), as bit 5 of the pair's bit does.
    const bit = 1 << b
    const high = (b << 25) >> 31
    lo |= bit & ~high
    hi |= bit & high
    if (a >= 0) {
      const h = pairBit(a, b)
      const pair = 1 << h
      const pairHigh = (h << 26) >> 31
      pairLo |= pair & ~pairHigh
      pairHi |= pair & pairHigh
    }
    a = b
  }
  out[0] = lo
  out[1] = hi
  out[2] = pairLo
  out[3] = pairHi
}
