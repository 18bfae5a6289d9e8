/**
 * The position NFA of a crawler's rules (build time; {@link Positions} has
 * the tables). Every rule `r` becomes a run of positions `base[r] .. base[r] +
 * m`, one per pattern item plus an end position; position `base[r] + i` means
 * "the first i items have matched". Priorities stay those of the escaped
 * pattern (full length, every `*` and the `$` counted).
 */
import { RuleField, RuleFlag, type RuleSet } from '../../rules/rule-set.js'
import { countClasses, fillByteClasses, type ByteClasses } from './byte-classes.js'

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
 * ends in `$`). With them, the byte classes of the patterns' literal bytes
 * (byte-classes.ts). The build-time tables are views of one buffer,
 * `buffer`: one allocation outside the heap per DFA, not one per table.
 */
export interface Positions {
  count: number
  item: Int16Array
  rule: Int32Array
  /** First position of each rule. */
  base: Int32Array
  anchored: Uint8Array
  /** The byte classes of the patterns. */
  classes: ByteClasses
  /** True when some pattern holds a byte >= 0x80 (never after escaping; possible in a foreign buffer). */
  nonAscii: boolean
  /** The buffer every table views. */
  buffer: ArrayBuffer
}

/** The views of a Positions' buffer (item, rule, base, anchored, the class representatives); the class map is an array of its own. */
export const POSITION_VIEWS = 5

/** Which literal bytes the patterns hold (reused: one build at a time). */
const LITERALS = new Uint8Array(256)

/**
 * Builds the positions of a RuleSet and its byte classes: a pass for the
 * sizes and the literal bytes, then one buffer laid out as `rule`, `base`
 * (Int32), `item`, `representative` (Int16) and `anchored`; the class map
 * (read by the hot loops) is an array of its own.
 */
export function buildPositions(set: RuleSet): Positions {
  const rec = set.records
  const bytes = set.bytes
  const count = set.count
  const literals = LITERALS.fill(0)
  let total = count
  for (let at = 0; at < rec.length; at += RuleField.Width) {
    let prevStar = false
    for (let k = rec[at + RuleField.Start], end = rec[at + RuleField.End]; k < end; k++) {
      const b = bytes[k]
      const star = b === 42
      if (!(star && prevStar)) total++
      if (!star) literals[b] = 1
      prevStar = star
    }
  }
  const classCount = countClasses(literals)
  // Int32 tables first, then Int16 (an even offset), then bytes.
  const int32s = total + count
  const int16s = total + classCount
  const buffer = new ArrayBuffer(int32s * 4 + int16s * 2 + count)
  const rule = new Int32Array(buffer, 0, total)
  const base = new Int32Array(buffer, total * 4, count)
  const item = new Int16Array(buffer, int32s * 4, total)
  const representative = new Int16Array(buffer, int32s * 4 + total * 2, classCount)
  const anchored = new Uint8Array(buffer, int32s * 4 + int16s * 2, count)
  // The class map is read on the hot path: an array of its own (a view of a shared buffer reads slower there).
  const map = new Uint8Array(256)
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
    }
    rule[p] = r
    item[p++] = END
  }
  let nonAscii = false
  for (let b = 128; b < 256; b++) if (literals[b] !== 0) nonAscii = true
  return { count: total, item, rule, base, anchored, classes: fillByteClasses(literals, map, representative), nonAscii, buffer }
}
