/**
 * The cold tier: a direct engine with no automaton ({@link DirectEngine}). A
 * matcher starts here (see ../tiers.ts), so that creating and holding one
 * costs almost nothing: its memory is the RuleSet's record table (16 bytes a
 * rule) and this object.
 */
import type { EngineStats, MatchEngine } from '../engine.js'
import { objectBytes, typedArrayBytes } from '../../memory.js'
import { RuleField, RuleFlag, SecondByte, type RuleSet } from '../../rules/rule-set.js'
import { PATH, pathAt, pathOfBytes, pathOfStringAt, releasePath } from './path.js'
import { PathChar, PathStartCode, PathStartMemo, type PathStart } from '../../url/url-path.js'
import { MASK_WORDS, pathMask, ruleMatches, segmentsMayOccur } from './segments.js'
import { bestPrefixRule, buildLiteralPrefixes, isPlainPrefix, LITERAL_INDEX_MIN, literalPrefixesBytes, NO_PREFIX_RULE, plainPrefixCount, type LiteralPrefixes } from './literal-prefixes.js'

/** Rule sets above this many rules get a {@link SecondByteIndex}. */
export const INDEX_MIN_RULES = 48

/**
 * The rules by the path's second byte they need, one array:
 * `index[b] .. index[b + 1]` (b = 0..255, and SecondByte.Any = 256) are
 * offsets into the same array where the rule indices of group b follow,
 * each group in rank order; SecondByte.Never rules are in no group.
 * ```
 * index[0 .. 257]          group starts (258 entries; group b ends where group b + 1 starts)
 * index[258 .. 258 + n)    rule indices, grouped
 * ```
 * A Uint16Array when every index fits, else an Int32Array.
 */
type SecondByteIndex = Uint16Array | Int32Array

/** Entries before the rule indices of a SecondByteIndex. */
const INDEX_HEAD = 258

/** The index of a set's rules, those the literal prefix index holds left out (`skipPlain`). */
function buildIndex(records: Int32Array, skipPlain: boolean): SecondByteIndex {
  const n = records.length / RuleField.Width
  const groupOf = (r: number): number => {
    const flags = records[r * RuleField.Width + RuleField.Flags]
    return skipPlain && isPlainPrefix(flags) ? SecondByte.Never : flags >>> SecondByte.Shift
  }
  const starts = new Int32Array(INDEX_HEAD)
  let listed = 0
  for (let r = 0; r < n; r++) {
    const g = groupOf(r)
    if (g !== SecondByte.Never) {
      starts[g + 1]++
      listed++
    }
  }
  const index = n + INDEX_HEAD < 0x10000 ? new Uint16Array(INDEX_HEAD + listed) : new Int32Array(INDEX_HEAD + listed)
  index[0] = INDEX_HEAD
  for (let g = 0; g <= SecondByte.Any; g++) index[g + 1] = index[g] + starts[g + 1]
  const fill = index.slice(0, SecondByte.Any + 1)
  for (let r = 0; r < n; r++) {
    const g = groupOf(r)
    if (g !== SecondByte.Never) index[fill[g]++] = r
  }
  return index
}

/**
 * True when a rule set's direct engine indexes its plain prefix rules
 * (./literal-prefixes.ts): then they are not tried one by one, and the
 * tier policy leaves them out of the cold tier's cost (../tiers.ts).
 */
export function indexesPrefixes(set: RuleSet): boolean {
  return set.count >= LITERAL_INDEX_MIN && plainPrefixCount(set) >= LITERAL_INDEX_MIN
}

/**
 * The direct engine over a RuleSet in rank order. Per URL: the path
 * (./path.ts), then the rules in rank order (rules/rule-set.ts); the first
 * rule that matches decides, so a URL stops at its first hit. Most rules are
 * rejected on their first two bytes (a `/` and a literal the path must have
 * too: SecondByte); the others are checked segment by segment (./segments.ts).
 * A large set's plain prefix rules are found by their hash instead
 * ({@link indexesPrefixes}): the best of them bounds the rules tried.
 */
export class DirectEngine implements MatchEngine {
  private readonly bytes: Uint8Array
  private readonly records: Int32Array
  private readonly index: SecondByteIndex | null
  private readonly prefixes: LiteralPrefixes | null
  /** True when string URLs are judged on their chars first (decideLiterals; see plainPatterns), for a set without a literal prefix index. */
  private readonly plain: boolean
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()
  /** URLs left before `then` (see MatchEngine.countDown; NEVER: no countdown). */
  private left = NEVER
  private then: (() => void) | null = null

  constructor(set: RuleSet) {
    this.bytes = set.bytes
    this.records = set.records
    this.prefixes = indexesPrefixes(set) ? buildLiteralPrefixes(set) : null
    this.index = set.count > INDEX_MIN_RULES ? buildIndex(set.records, this.prefixes !== null) : null
    this.plain = this.prefixes === null && plainPatterns(set)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    if (this.records.length === 0) return -1
    pathOfBytes(url, start, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideFrom(url: Uint8Array, ps: PathStart, end: number): number {
    if (this.records.length === 0) return -1
    pathAt(url, ps, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideStringFrom(url: string, ps: PathStart): number {
    if (this.records.length === 0) return -1
    pathOfStringAt(url, ps)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideString(url: string): number {
    if (this.records.length === 0) return -1
    // The path start from the per-origin memo: one scan of an origin's scheme and authority, not one per URL.
    const ps = this.memo.of(url)
    let r = this.plain ? this.decideLiterals(url, ps) : Chars.Unsure
    if (r === Chars.Unsure) {
      // The path as bytes, when a `*` rule has to be searched along it: reading
      // a string by charCodeAt during a search is slower than encoding it
      // (bench/RESULTS.md, "Design measurements").
      pathOfStringAt(url, ps)
      r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
      releasePath()
    }
    if (--this.left === 0) this.then!()
    return r
  }

  /**
   * A string URL (its path start `ps` from the memo) judged on its chars, without making its bytes (for a set
   * whose patterns are plain ASCII: {@link plain}), while the rules tried are
   * literal; {@link Chars.Unsure} when a `*` rule or a path starting with `?` or
   * `;` needs the bytes (then decidePath decides). Chars and bytes agree
   * here: a pattern byte equals a char only when both are that ASCII byte,
   * and the path's end (its `#`, NUL or the string's end) is no pattern
   * byte.
   *
   * COPY: the rule order of decidePath (rank order through the second-char
   * index) and the literal part of segments.ts's ruleMatches, for chars.
   * One data suite runs both on every URL: the differential and conformance
   * suites judge each URL as a string and as bytes in the pinned cold tier
   * (test/support/engines.ts), and test/url/url-path.test.ts the path
   * starts.
   */
  private decideLiterals(url: string, ps: PathStart): number {
    if (ps === PathStartCode.JustSlash || (ps & PathStartCode.SlashPrepended) !== 0) return Chars.Unsure
    const from = ps / PathStartCode.IndexScale
    const bytes = this.bytes
    const rec = this.records
    let second = from + 1 < url.length ? url.charCodeAt(from + 1) : -1
    if (second === PathChar.Hash || second === 0) second = -1
    else if (second > 127) second = 128 // a byte of a non-ASCII char: no plain pattern needs it
    const index = this.index
    if (index !== null) {
      let a = second < 0 ? 0 : index[second]
      const aEnd = second < 0 ? 0 : index[second + 1]
      let b = index[SecondByte.Any]
      const bEnd = index[SecondByte.Any + 1]
      while (a < aEnd || b < bEnd) {
        const r = b >= bEnd || (a < aEnd && index[a] < index[b]) ? index[a++] : index[b++]
        const at = r * RuleField.Width
        if (rec[at + RuleField.Flags] & RuleFlag.Star) return Chars.Unsure
        if (literalMatchesChars(bytes, rec, at, url, from)) return r
      }
      return -1
    }
    const n = rec.length
    for (let at = 0; at < n; at += RuleField.Width) {
      const flags = rec[at + RuleField.Flags]
      const need = flags >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      if (flags & RuleFlag.Star) return Chars.Unsure
      if (literalMatchesChars(bytes, rec, at, url, from)) return at / RuleField.Width
    }
    return -1
  }
  // END COPY

  countDown(urls: number, then: () => void): void {
    this.left = urls
    this.then = then
  }

  /** The first rule (in rank order) that matches the path `p[from, to)`, or -1. */
  decidePath(p: Uint8Array, from: number, to: number): number {
    const bytes = this.bytes
    const rec = this.records
    const second = from + 1 < to ? p[from + 1] : -1
    const index = this.index
    if (index !== null) {
      // The best plain prefix rule (when indexed): only rules before it in rank order can beat it.
      const best = this.prefixes === null ? NO_PREFIX_RULE : bestPrefixRule(this.prefixes, bytes, rec, p, from, to)
      // The rules of the path's second byte and those that need none, merged in rank order.
      let a = second < 0 ? 0 : index[second]
      const aEnd = second < 0 ? 0 : index[second + 1]
      let b = index[SecondByte.Any]
      const bEnd = index[SecondByte.Any + 1]
      // `*` rules tried on this path (the mask is made for the second).
      let stars = 0
      while (a < aEnd || b < bEnd) {
        const r = b >= bEnd || (a < aEnd && index[a] < index[b]) ? index[a++] : index[b++]
        if (r >= best) break
        const at = r * RuleField.Width
        if (rec[at + RuleField.Flags] & RuleFlag.Star && ++stars > 1) {
          // From a path's second `*` rule on: one that needs a byte the path lacks is not searched along it.
          if (stars === 2) pathMask(p, from, to, HAVE)
          if (!segmentsMayOccur(bytes, rec, at, HAVE)) continue
        }
        if (ruleMatches(bytes, rec, at, p, from, to)) return r
      }
      return best === NO_PREFIX_RULE ? -1 : best
    }
    const n = rec.length
    let stars = 0
    for (let at = 0; at < n; at += RuleField.Width) {
      // Most rules fail on the path's second byte (rules/rule-set.ts, SecondByte).
      const need = rec[at + RuleField.Flags] >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      if (rec[at + RuleField.Flags] & RuleFlag.Star && ++stars > 1) {
        if (stars === 2) pathMask(p, from, to, HAVE)
        if (!segmentsMayOccur(bytes, rec, at, HAVE)) continue
      }
      if (ruleMatches(bytes, rec, at, p, from, to)) return at / RuleField.Width
    }
    return -1
  }

  stats(): EngineStats {
    return { ...NO_AUTOMATON, engine: 'direct' }
  }

  memoryUsage(): number {
    return (
      DIRECT_ENGINE_BYTES + (this.index === null ? 0 : typedArrayBytes(this.index)) +
      (this.prefixes === null ? 0 : PREFIXES_OBJECT_BYTES + literalPrefixesBytes(this.prefixes)) +
      this.memo.heldBytes()

    )
  }
}

/** The figures of an engine without an automaton. */
export const NO_AUTOMATON: EngineStats = Object.freeze({
  engine: 'direct',
  positions: 0,
  classes: 0,
  states: 0,
  flushes: 0,
  cacheBytes: 0,
  peakCacheBytes: 0,
  budget: 0,
  largestStateBytes: 0,
})

/** A DirectEngine object (eight fields) and its path-start memo's object (its prefix: heldBytes); its records belong to the RuleSet. */
const DIRECT_ENGINE_BYTES = objectBytes(8) + objectBytes(3)

/** decideLiterals' answer besides a rule index or -1 (no rule matched). */
const enum Chars {
  /** The bytes are needed to decide. */
  Unsure = -2,
}

/**
 * True when every pattern byte of a set is ASCII, not NUL and not `#`
 * (patterns from a parse always are; a foreign buffer may hold others), and
 * no `*` rule needs no particular second byte (every path would reach it,
 * and then need its bytes: decideLiterals would be work lost).
 */
function plainPatterns(set: RuleSet): boolean {
  const rec = set.records
  const bytes = set.bytes
  for (let at = 0; at < rec.length; at += RuleField.Width) {
    const flags = rec[at + RuleField.Flags]
    if ((flags & RuleFlag.Star) !== 0 && flags >>> SecondByte.Shift === SecondByte.Any) return false
    for (let k = rec[at + RuleField.Start], e = rec[at + RuleField.End]; k < e; k++) {
      const b = bytes[k]
      if (b === 0 || b === PathChar.Hash || b > 127) return false
    }
  }
  return true
}

/**
 * A literal rule (no `*`) against the path of a string URL starting at
 * `url[from]` (see decideLiterals): the pattern's bytes equal the chars
 * there, and for a `$` rule the path ends right after them.
 */
function literalMatchesChars(bytes: Uint8Array, rec: Int32Array, at: number, url: string, from: number): boolean {
  const s = rec[at + RuleField.Start]
  const n = rec[at + RuleField.End] - s
  for (let k = 0; k < n; k++) if (url.charCodeAt(from + k) !== bytes[s + k]) return false
  if ((rec[at + RuleField.Flags] & RuleFlag.Anchored) === 0) return true
  const end = from + n
  if (end === url.length) return true
  const c = url.charCodeAt(end)
  return c === PathChar.Hash || c === 0
}

/** The mask of the path being judged (reused). */
const HAVE = new Int32Array(MASK_WORDS)

/** A countdown that never runs out (2^52 URLs). */
export const NEVER = 2 ** 52
/** The LiteralPrefixes object (three fields). */
const PREFIXES_OBJECT_BYTES = objectBytes(3)
