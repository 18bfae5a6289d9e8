/**
 * The position NFA of a crawler's rules (build time; {@link Positions} has
 * the tables). Every rule `r` becomes a run of positions `base[r] .. base[r] +
 * m`, one per pattern item plus an end position; position `base[r] + i` means
 * "the first i items have matched". Priorities stay those of the escaped
 * pattern (full length, every `*` and the `$` counted).
 */
import { RuleField, RuleFlag, type RuleSet } from '../../rules/rule-set.js'

/** `item` value of a `*` position. */
export const STAR = 256
/** `item` value of a rule's end position. */
export const END = 257

/**
 * The position NFA. An item is a literal byte or a `*` (consecutive `*`
 * collapsed into one); a final `$` is not an item but marks the rule as
 * anchored. Tables, indexed by position id: `item[p]`, the literal byte
 * (0..255), {@link STAR}, or {@link END}; `rule[p]`, the rule the position
 * belongs to. And per rule: `base[r]`, `anchored[r]` (1 when the pattern
 * ends in `$`).
 */
export interface Positions {
  count: number
  item: Int16Array
  rule: Int32Array
  /** First position of each rule. */
  base: Int32Array
  anchored: Uint8Array
  /** Every literal byte used by some pattern. */
  literals: Uint8Array
  /** True when some pattern holds a byte >= 0x80 (never after escaping; possible in a foreign buffer). */
  nonAscii: boolean
}

/** Builds the positions of a RuleSet. */
export function buildPositions(set: RuleSet): Positions {
  const rec = set.records
  const bytes = set.bytes
  const count = set.count
  // Pass 1: count items per rule.
  let total = 0
  for (let r = 0; r < count; r++) {
    let n = 0
    let prevStar = false
    for (let k = rec[r * RuleField.Width + RuleField.Start], end = rec[r * RuleField.Width + RuleField.End]; k < end; k++) {
      const star = bytes[k] === 42
      if (!(star && prevStar)) n++
      prevStar = star
    }
    total += n + 1
  }
  const item = new Int16Array(total)
  const rule = new Int32Array(total)
  const base = new Int32Array(count)
  const anchored = new Uint8Array(count)
  const seen = new Uint8Array(256)
  let p = 0
  for (let r = 0; r < count; r++) {
    const at = r * RuleField.Width
    base[r] = p
    if (rec[at + RuleField.Flags] & RuleFlag.Anchored) anchored[r] = 1
    let prevStar = false
    for (let k = rec[at + RuleField.Start], end = rec[at + RuleField.End]; k < end; k++) {
      const b = bytes[k]
      const star = b === 42
      if (star && prevStar) continue
      prevStar = star
      rule[p] = r
      item[p++] = star ? STAR : b
      if (!star) seen[b] = 1
    }
    rule[p] = r
    item[p++] = END
  }
  const nonAscii = seen.subarray(128).includes(1)
  const lits: number[] = []
  for (let b = 0; b < 256; b++) if (seen[b]) lits.push(b)
  return { count: total, item, rule, base, anchored, literals: Uint8Array.from(lits), nonAscii }
}
