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
  /** True when string URLs are judged on their chars (decideChars; see plainPatterns), for a set without a literal prefix index. */
  private readonly plain: boolean
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()
  /** The end of the path of the string URL being judged (its first `#` or NUL, or its length), once a `*` rule needed it; else negative. */
  private end = -1
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
    let r = this.plain ? this.decideChars(url, ps) : Chars.Unsure
    if (r === Chars.Unsure) {
      pathOfStringAt(url, ps)
      r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
      releasePath()
    }
    if (--this.left === 0) this.then!()
    return r
  }

  decideString(url: string): number {
    if (this.records.length === 0) return -1
    // The path start from the per-origin memo: one scan of an origin's scheme and authority, not one per URL.
    const ps = this.memo.of(url)
    let r = this.plain ? this.decideChars(url, ps) : Chars.Unsure
    if (r === Chars.Unsure) {
      pathOfStringAt(url, ps)
      r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
      releasePath()
    }
    if (--this.left === 0) this.then!()
    return r
  }

  /**
   * A string URL (its path start `ps` from the memo) judged on its chars,
   * without making its bytes, for a set whose patterns are plain ASCII
   * ({@link plain}); {@link Chars.Unsure} for a path that starts with `?` or
   * `;` or is just `/`, or a segment search past its budget (then
   * decidePath decides over the bytes). Chars and bytes agree here: a
   * pattern byte equals a char only when both are that ASCII byte, so a
   * non-ASCII char (its UTF-8 bytes all >= 0x80) matches no pattern byte,
   * and a `*` segment (ASCII) occurs in the chars exactly when it occurs in
   * the bytes; the path's end (its first `#` or NUL, or the string's end)
   * is no pattern byte. A segment is found with the engine's native
   * `indexOf` on its first char, then compared char by char.
   *
   * COPY: the rule order of decidePath (rank order through the second-char
   * index) and segments.ts's ruleMatches, for chars. One data suite runs
   * both on every URL: the differential and conformance suites judge each
   * URL as a string and as bytes in the pinned cold tier
   * (test/support/engines.ts), and test/url/url-path.test.ts the path
   * starts.
   */
  private decideChars(url: string, ps: PathStart): number {
    if (ps === PathStartCode.JustSlash || (ps & PathStartCode.SlashPrepended) !== 0) return Chars.Unsure
    const from = ps / PathStartCode.IndexScale
    const bytes = this.bytes
    const rec = this.records
    let second = from + 1 < url.length ? url.charCodeAt(from + 1) : -1
    if (second === PathChar.Hash || second === 0) second = -1
    else if (second > 127) second = 128 // a byte of a non-ASCII char: no plain pattern needs it
    // The path's end, found when a `*` rule first needs it.
    this.end = Chars.Unsure
    // `*` rules met on this path.
    let stars = 0
    const index = this.index
    if (index !== null) {
      let a = second < 0 ? 0 : index[second]
      const aEnd = second < 0 ? 0 : index[second + 1]
      let b = index[SecondByte.Any]
      const bEnd = index[SecondByte.Any + 1]
      while (a < aEnd || b < bEnd) {
        const r = b >= bEnd || (a < aEnd && index[a] < index[b]) ? index[a++] : index[b++]
        const at = r * RuleField.Width
        let m: number
        if (rec[at + RuleField.Flags] & RuleFlag.Star) {
          // From a path's second `*` rule on: one that needs a char the path lacks is not searched along it.
          if (++stars > 1 && !this.mayOccur(at, url, from, stars)) continue
          m = this.starMatchesChars(at, url, from)
        } else m = literalMatchesChars(bytes, rec, at, url, from)
        if (m !== 0) return m > 0 ? r : Chars.Unsure
      }
      return -1
    }
    const n = rec.length
    for (let at = 0; at < n; at += RuleField.Width) {
      const flags = rec[at + RuleField.Flags]
      const need = flags >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      let m: number
      if (flags & RuleFlag.Star) {
        if (++stars > 1 && !this.mayOccur(at, url, from, stars)) continue
        m = this.starMatchesChars(at, url, from)
      } else m = literalMatchesChars(bytes, rec, at, url, from)
      if (m !== 0) return m > 0 ? at / RuleField.Width : Chars.Unsure
    }
    return -1
  }

  /**
   * segments.ts's segmentsMayOccur for the `stars`-th `*` rule a string
   * URL's path meets (from the second on): the path's char mask is made at
   * the second.
   */
  private mayOccur(at: number, url: string, from: number, stars: number): boolean {
    if (stars === 2) {
      let end = this.end
      if (end < 0) end = this.end = pathEndOf(url, from)
      charMask(url, from, end, HAVE)
    }
    return segmentsMayOccur(this.bytes, this.records, at, HAVE)
  }

  /**
   * segments.ts's ruleMatches for a `*` rule against the path of a string
   * URL starting at `url[from]` (see decideChars): 1 when it matches, 0
   * when not, -1 when a segment search ran past its budget (the bytes
   * decide: segments.ts switches to KMP there).
   */
  private starMatchesChars(at: number, url: string, from: number): number {
    const bytes = this.bytes
    const rec = this.records
    const e = rec[at + RuleField.End]
    // The head, up to the first star (there is one); past the path's end a char is `#`, NUL or none, no pattern byte.
    let k = rec[at + RuleField.Start]
    let i = from
    for (; bytes[k] !== Byte.Star; k++, i++) if (url.charCodeAt(i) !== bytes[k]) return 0
    for (;;) {
      while (k < e && bytes[k] === Byte.Star) k++
      if (k === e) return 1 // a final star matches the rest, whatever it is (also before a `$`)
      let segEnd = k + 1
      while (segEnd < e && bytes[segEnd] !== Byte.Star) segEnd++
      const len = segEnd - k
      let end = this.end
      if (end < 0) end = this.end = pathEndOf(url, from)
      if (segEnd === e && (rec[at + RuleField.Flags] & RuleFlag.Anchored) !== 0) {
        // The last segment of an anchored pattern: it ends where the path ends.
        const x = end - len
        if (x < i) return 0
        for (let j = 0; j < len; j++) if (url.charCodeAt(x + j) !== bytes[k + j]) return 0
        return 1
      }
      // The leftmost occurrence in url[i, end): the first char natively, then the rest.
      const first = ASCII_CHARS[bytes[k]]
      const last = end - len
      let budget = 2 * (end - i) + 64
      let x = i
      for (;;) {
        x = url.indexOf(first, x)
        if (x < 0 || x > last) return 0
        let j = 1
        while (j < len && url.charCodeAt(x + j) === bytes[k + j]) j++
        if (j === len) break
        budget -= j
        if (budget < 0) return -1
        x++
      }
      i = x + len
      k = segEnd
    }
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

/** A DirectEngine object (nine fields) and its path-start memo's object (its prefix: heldBytes); its records belong to the RuleSet. */
const DIRECT_ENGINE_BYTES = objectBytes(9) + objectBytes(3)

/** decideChars' answer besides a rule index or -1 (no rule matched). */
const enum Chars {
  /** The bytes are needed to decide. */
  Unsure = -2,
}

/** `*` (a `const enum`: a number in the hot loops). */
const enum Byte {
  Star = 42,
}

/** The one-char string of each ASCII code, for a native `indexOf` of a segment's first char. */
const ASCII_CHARS: readonly string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c))

/** segments.ts's pathMask of `url[from, to)`, by chars (a non-ASCII char sets the bit of its low seven bits: a mask may say a byte occurs when it does not, never the other way round). */
function charMask(url: string, from: number, to: number, out: Int32Array): void {
  out.fill(0)
  for (let i = from; i < to; i++) {
    const b = url.charCodeAt(i) & 127
    out[b >> 5] |= 1 << (b & 31)
  }
}

/** The end of the path of a string URL whose path starts at `url[from]`: its first `#` or NUL, else its length. */
function pathEndOf(url: string, from: number): number {
  let end = url.indexOf('#', from)
  if (end < 0) end = url.length
  const nul = url.indexOf('\0', from)
  return nul >= 0 && nul < end ? nul : end
}

/**
 * True when every pattern byte of a set is ASCII, not NUL and not `#`
 * (patterns from a parse always are; a foreign buffer may hold others).
 */
function plainPatterns(set: RuleSet): boolean {
  const rec = set.records
  const bytes = set.bytes
  for (let at = 0; at < rec.length; at += RuleField.Width) {
    for (let k = rec[at + RuleField.Start], e = rec[at + RuleField.End]; k < e; k++) {
      const b = bytes[k]
      if (b === 0 || b === PathChar.Hash || b > 127) return false
    }
  }
  return true
}

/**
 * A literal rule (no `*`) against the path of a string URL starting at
 * `url[from]` (see decideChars): 1 when the pattern's bytes equal the chars
 * there and, for a `$` rule, the path ends right after them; else 0.
 */
function literalMatchesChars(bytes: Uint8Array, rec: Int32Array, at: number, url: string, from: number): number {
  const s = rec[at + RuleField.Start]
  const n = rec[at + RuleField.End] - s
  for (let k = 0; k < n; k++) if (url.charCodeAt(from + k) !== bytes[s + k]) return 0
  if ((rec[at + RuleField.Flags] & RuleFlag.Anchored) === 0) return 1
  const end = from + n
  if (end === url.length) return 1
  const c = url.charCodeAt(end)
  return c === PathChar.Hash || c === 0 ? 1 : 0
}

/** The mask of the path being judged (reused). */
const HAVE = new Int32Array(MASK_WORDS)

/** A countdown that never runs out (2^52 URLs). */
export const NEVER = 2 ** 52
/** The LiteralPrefixes object (three fields). */
const PREFIXES_OBJECT_BYTES = objectBytes(3)
