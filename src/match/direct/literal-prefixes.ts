/**
 * The literal prefix index of the cold tier ({@link LiteralPrefixes}): a large
 * rule set's plain prefix rules (no `*`, no `$`, starting with `/`) by a keyed
 * hash of their pattern, so that the direct engine finds the best of them
 * for a path by hashing the path's prefixes instead of trying each rule.
 * Build cost and memory are linear in the rules; a path costs one hash step
 * per byte up to the longest pattern, and one probe per distinct length.
 */
import { RuleField, RuleFlag, SecondByte, type RuleSet } from '../../rules/rule-set.js'
import { SCRATCH_KEEP, typedArrayBytes } from '../../memory.js'

/**
 * Plain prefix rules from which a rule set's direct engine indexes them:
 * below it, the second-byte index alone rejects most rules with one load
 * (./direct-engine.ts), and the hash of the path's prefixes costs more.
 */
export const LITERAL_INDEX_MIN = 256

/** No rule (above every rule index). */
export const NO_PREFIX_RULE = 0x7fffffff

/**
 * The index. `slots` is an open-addressing table (linear probing, a power
 * of two in size, at most half full) of `rule + 1` (0: empty), at the slot
 * `hashSlot(pattern hash)`; of rules with one pattern, only the first in
 * rank order is in it (it beats the others). `lengths` holds the distinct
 * pattern lengths, longest first: a path probes those it is long enough
 * for, and the first hit is the best rule (a longer pattern has a higher
 * priority, and two prefixes of one path of one length are one pattern).
 */
export interface LiteralPrefixes {
  readonly slots: Int32Array
  /** `32 - log2(slots.length)`: a hash's slot is its top bits. */
  readonly shift: number
  readonly lengths: Int32Array
}

/**
 * The per-process key of the pattern hash: patterns come from robots.txt
 * files, so a file must not be able to pick patterns that collide (they
 * would make every probe a long walk); without the key no file can. Not
 * src/url/keyed-hash.ts: every prefix of a path is hashed, one step a byte,
 * which HalfSipHash's four-byte blocks and final rounds do not allow.
 */
const KEY = (Math.random() * 0x100000000) >>> 0

/** One step of the pattern hash (over the bytes of a prefix, in order). */
function step(h: number, byte: number): number {
  return Math.imul(h ^ byte, 0x01000193)
}

/** The slot of a prefix hash `h` (mixed, then its top bits). */
function slotOf(h: number, shift: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> shift
}

/** True for a rule the index takes: no `*`, no `$` (nor an index.htm directory form), a pattern starting with `/`. */
export function isPlainPrefix(flags: number): boolean {
  return (flags & (RuleFlag.Star | RuleFlag.Anchored)) === 0 && flags >>> SecondByte.Shift !== SecondByte.Never
}

/** The number of plain prefix rules of a set ({@link isPlainPrefix}). */
export function plainPrefixCount(set: RuleSet): number {
  const rec = set.records
  let n = 0
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) if (isPlainPrefix(rec[at])) n++
  return n
}

/** The index of a set's plain prefix rules (build time; the caller checks that there are at least {@link LITERAL_INDEX_MIN}). */
export function buildLiteralPrefixes(set: RuleSet): LiteralPrefixes {
  const rec = set.records
  const bytes = set.bytes
  const n = plainPrefixCount(set)
  let size = 16
  while (size < 2 * n) size *= 2
  const shift = 32 - Math.log2(size)
  const slots = new Int32Array(size)
  const mask = size - 1
  const seen = new Uint8Array(1)
  let seenLengths = seen
  let distinct = 0
  for (let r = 0, at = 0; at < rec.length; r++, at += RuleField.Width) {
    if (!isPlainPrefix(rec[at + RuleField.Flags])) continue
    const s = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    let h = KEY
    for (let i = s; i < e; i++) h = step(h, bytes[i])
    let slot = slotOf(h, shift)
    for (;;) {
      const v = slots[slot]
      if (v === 0) {
        slots[slot] = r + 1
        break
      }
      if (samePattern(bytes, rec, (v - 1) * RuleField.Width, s, e)) break // an earlier rule in rank order has this pattern
      slot = (slot + 1) & mask
    }
    const len = e - s
    if (len >= seenLengths.length) {
      const grown = new Uint8Array(Math.max(len + 1, seenLengths.length * 2))
      grown.set(seenLengths)
      seenLengths = grown
    }
    if (seenLengths[len] === 0) {
      seenLengths[len] = 1
      distinct++
    }
  }
  const lengths = new Int32Array(distinct)
  for (let len = seenLengths.length - 1, k = 0; len > 0; len--) if (seenLengths[len]) lengths[k++] = len
  return { slots, shift, lengths }
}

/** Rule `at`'s pattern equals `bytes[s, e)`. */
function samePattern(bytes: Uint8Array, rec: Int32Array, at: number, s: number, e: number): boolean {
  const s2 = rec[at + RuleField.Start]
  if (rec[at + RuleField.End] - s2 !== e - s) return false
  for (let k = 0; k < e - s; k++) if (bytes[s2 + k] !== bytes[s + k]) return false
  return true
}

/** Prefix hashes of the path being judged (reused; a longer prefix gets its own array for the call: src/memory.ts). */
const prefixHash = new Int32Array(SCRATCH_KEEP)

/**
 * The best plain prefix rule whose pattern is a prefix of the path
 * `p[from, to)`, or {@link NO_PREFIX_RULE}: the path's prefix hashes up to
 * the longest pattern, then the lengths longest first, each probed once
 * (a hit is checked byte for byte).
 */
export function bestPrefixRule(index: LiteralPrefixes, bytes: Uint8Array, rec: Int32Array, p: Uint8Array, from: number, to: number): number {
  const lengths = index.lengths
  const m = Math.min(to - from, lengths[0])
  const hs = m < prefixHash.length ? prefixHash : new Int32Array(m + 1)
  let h = KEY
  for (let k = 0; k < m; k++) hs[k + 1] = h = step(h, p[from + k])
  const slots = index.slots
  const mask = slots.length - 1
  const shift = index.shift
  for (let j = 0; j < lengths.length; j++) {
    const len = lengths[j]
    if (len > m) continue
    for (let slot = slotOf(hs[len], shift); ; slot = (slot + 1) & mask) {
      const v = slots[slot]
      if (v === 0) break
      const at = (v - 1) * RuleField.Width
      const s = rec[at + RuleField.Start]
      if (rec[at + RuleField.End] - s !== len) continue
      let k = 0
      while (k < len && bytes[s + k] === p[from + k]) k++
      if (k === len) return v - 1
    }
  }
  return NO_PREFIX_RULE
}

/** Bytes of an index: its two typed arrays and the object. */
export function literalPrefixesBytes(index: LiteralPrefixes): number {
  return typedArrayBytes(index.slots) + typedArrayBytes(index.lengths)
}
