/**
 * The cold tier: a direct engine with no automaton ({@link DirectEngine}). A
 * matcher starts here (see ../tiers.ts), so that creating and holding one
 * costs little: its memory is the RuleSet's record table (16 bytes a rule),
 * this object, and for a set of more than HEAD_MIN_RULES rules its head
 * index and segment signatures, linear in the rules.
 */
import type { EngineStats, MatchEngine } from '../engine.js'
import { objectBytes, typedArrayBytes } from '../../memory.js'
import { RuleField, RuleFlag, SecondByte, type RuleSet } from '../../rules/rule-set.js'
import { PATH, pathAt, pathOfBytes, pathOfStringAt, releasePath } from './path.js'
import { PathChar, PathStartCode, PathStartMemo, type PathStart } from '../../url/url-path.js'
import { pairBit, pathSignature, ruleMatches, segmentSignatures, SIGNATURE_WORDS, signatureMayOccur } from './segments.js'
import { buildHeadIndex, HEAD_DEPTH, headIndexBytes, headNodesOfBytes, headNodesOfChars, type HeadIndex } from './head-index.js'
import { bestPrefixRule, buildLiteralPrefixes, LITERAL_INDEX_MIN, literalPrefixesBytes, NO_PREFIX_RULE, plainPrefixCount, type LiteralPrefixes } from './literal-prefixes.js'

/**
 * Rule sets above this many rules get a head index (./head-index.ts): a
 * path tries only the rules whose head it passes. Below, the index costs
 * more to build than the few rules cost to try.
 */
export const HEAD_MIN_RULES = 8

/**
 * Rule sets above this many rules get their head index when the engine is
 * made; a set of HEAD_MIN_RULES to this many gets it once it has
 * judged {@link INDEX_AFTER_URLS} URLs ("rent until the rent paid equals the
 * price": a matcher that judges a few URLs never pays the build), or at
 * once when the tier is pinned cold.
 */
export const INDEX_MIN_RULES = 48

/** See {@link INDEX_MIN_RULES}. */
export const INDEX_AFTER_URLS = 32

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
 * rule that matches decides, so a URL stops at its first hit. A set of more
 * than HEAD_MIN_RULES rules has a head index (./head-index.ts): the path
 * tries only the rules whose head it passes, merged from the trie nodes it
 * passes in rank order, and, in a set of two `*` rules or more, skips those whose
 * segment signature it lacks (./segments.ts). A smaller set (or one whose
 * index is not built yet) tries the rules of its second byte (SecondByte)
 * and those that need none. A rule tried is checked segment by segment
 * (./segments.ts). A large set's plain prefix rules are found by their hash
 * instead ({@link indexesPrefixes}): the best of them bounds the rules tried.
 */
export class DirectEngine implements MatchEngine {
  private readonly bytes: Uint8Array
  private readonly records: Int32Array
  private heads: HeadIndex | null = null
  /** URLs left before the head index is built (see INDEX_MIN_RULES; NEVER: built, or none to build). */
  private untilIndex = NEVER
  /** The `*` rules' segment signatures (./segments.ts), built with the head index for a set with two `*` rules or more; else null (no `*` rule is skipped). */
  private sigs: Int32Array | null = null
  private readonly prefixes: LiteralPrefixes | null
  /** True when string URLs are judged on their chars (decideChars; see plainPatterns), for a set without a literal prefix index. */
  private readonly plain: boolean
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()
  /** URLs left before `then` (see MatchEngine.countDown; NEVER: no countdown). */
  private left = NEVER
  private then: (() => void) | null = null

  /** `indexAfter`: URLs judged before a set of HEAD_MIN_RULES to INDEX_MIN_RULES rules gets its head index (0: at once). */
  constructor(set: RuleSet, indexAfter: number) {
    this.bytes = set.bytes
    this.records = set.records
    this.prefixes = indexesPrefixes(set) ? buildLiteralPrefixes(set) : null
    this.plain = this.prefixes === null && plainPatterns(set)
    if (set.count > INDEX_MIN_RULES || (set.count > HEAD_MIN_RULES && indexAfter <= 0)) this.buildIndex()
    else if (set.count > HEAD_MIN_RULES) this.untilIndex = indexAfter
  }

  /** The head index, and the signatures of a set with two `*` rules or more. */
  private buildIndex(): void {
    this.untilIndex = NEVER
    if (starRules(this.records) >= 2) this.sigs = segmentSignatures(this.bytes, this.records)
    this.heads = buildHeadIndex(this.bytes, this.records, this.prefixes !== null)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    if (this.records.length === 0) return -1
    pathOfBytes(url, start, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.untilIndex === 0) this.buildIndex()
    if (--this.left === 0) this.then!()
    return r
  }

  decideFrom(url: Uint8Array, ps: PathStart, end: number): number {
    if (this.records.length === 0) return -1
    pathAt(url, ps, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.untilIndex === 0) this.buildIndex()
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
    if (--this.untilIndex === 0) this.buildIndex()
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
    if (--this.untilIndex === 0) this.buildIndex()
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
   * COPY: the rule order of decidePath (rank order through the head index)
   * and segments.ts's ruleMatches, for chars. One data suite runs
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
    // The path's end, found when a `*` rule first needs it.
    pathEnd = Chars.Unsure
    // `*` rules met on this path.
    let stars = 0
    const heads = this.heads
    if (heads !== null) {
      // The rules whose filed head the path passes, merged in rank order.
      let k = headNodesOfChars(heads, url, from, NODES)
      const list = heads.rules
      for (let q = 0; q < k; q++) {
        POS[q] = heads.ruleStart[NODES[q]]
        END[q] = heads.ruleStart[NODES[q] + 1]
      }
      for (;;) {
        let j = -1
        let r = NO_PREFIX_RULE
        for (let q = 0; q < k; q++) if (list[POS[q]] < r) r = list[POS[j = q]]
        if (j < 0) return -1
        if (++POS[j] === END[j]) {
          // That node's list is done: the last list takes its place (each list is non-empty at first).
          POS[j] = POS[--k]
          END[j] = END[k]
        }
        const at = r * RuleField.Width
        let m: number
        if (rec[at + RuleField.Flags] & RuleFlag.Star) {
          if (++stars >= SIGNATURE_FROM && !this.mayOccur(r, url, from, stars)) {
            k = this.passRuledOut(list, j, k)
            continue
          }
          m = this.starMatchesChars(at, url, from)
        } else m = literalMatchesChars(bytes, rec, at, url, from)
        if (m !== 0) return m > 0 ? r : Chars.Unsure
      }
    }
    // No index (yet): the rules of the path's second char and those that need none, in rank order.
    let second = from + 1 < url.length ? url.charCodeAt(from + 1) : -1
    if (second === PathChar.Hash || second === 0) second = -1
    else if (second > 127) second = 128 // a byte of a non-ASCII char: no plain pattern needs it
    const n = rec.length
    for (let at = 0; at < n; at += RuleField.Width) {
      const flags = rec[at + RuleField.Flags]
      const need = flags >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      const m = flags & RuleFlag.Star ? this.starMatchesChars(at, url, from) : literalMatchesChars(bytes, rec, at, url, from)
      if (m !== 0) return m > 0 ? at / RuleField.Width : Chars.Unsure
    }
    return -1
  }

  /**
   * segments.ts's signatureMayOccur for rule `r`, the `stars`-th `*` rule a
   * string URL's path meets (from SIGNATURE_FROM on): the path's signature
   * is made at SIGNATURE_FROM.
   */
  private mayOccur(r: number, url: string, from: number, stars: number): boolean {
    if (this.sigs === null) return true
    // To the URL's end, past a `#` or NUL: the chars after the path only add bits, and its end is not searched for.
    if (stars === SIGNATURE_FROM) charSignature(url, from, url.length, HAVE)
    return signatureMayOccur(this.sigs, r, HAVE)
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
      if (segEnd === e && (rec[at + RuleField.Flags] & RuleFlag.Anchored) !== 0) {
        // The last segment of an anchored pattern: it ends where the path ends.
        let end = pathEnd
        if (end < 0) end = pathEnd = pathEndOf(url, from)
        const x = end - len
        if (x < i) return 0
        for (let j = 0; j < len; j++) if (url.charCodeAt(x + j) !== bytes[k + j]) return 0
        return 1
      }
      // The leftmost occurrence in url[i, url.length): the first char natively, then the rest. A segment
      // holds no `#` nor NUL, so one that starts before the path's end lies within it; one that starts
      // past it means none is in the path, and the path's end is found only then.
      const first = ASCII_CHARS[bytes[k]]
      const last = url.length - len
      let budget = 2 * (url.length - i) + 64
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
      let end = pathEnd
      if (end < 0) end = pathEnd = pathEndOf(url, from)
      if (x >= end) return 0
      i = x + len
      k = segEnd
    }
  }
  // END COPY

  /**
   * After a `*` rule that the path's signature ({@link HAVE}) rules out,
   * taken from list `j` of the `k` in the merge (its cursor already past
   * it): the `*` rules right after it in that list that the signature rules
   * out too are passed without a round of the merge each. Returns the
   * number of lists left (one that is done is dropped, as in the merge).
   * When list `j` was done, the last list took its place: its first rules
   * are passed the same way, as no rule the signature rules out can match.
   */
  private passRuledOut(list: Uint16Array | Int32Array, j: number, k: number): number {
    if (j >= k) return k
    const sigs = this.sigs!
    const rec = this.records
    let p = POS[j]
    const end = END[j]
    while (p < end) {
      const r = list[p]
      if ((rec[r * RuleField.Width + RuleField.Flags] & RuleFlag.Star) === 0 || signatureMayOccur(sigs, r, HAVE)) break
      p++
    }
    POS[j] = p
    if (p === end) {
      POS[j] = POS[--k]
      END[j] = END[k]
    }
    return k
  }

  countDown(urls: number, then: () => void): void {
    this.left = urls
    this.then = then
    // An index due no sooner than the switch would never be used.
    if (this.untilIndex !== NEVER && this.untilIndex >= urls) this.untilIndex = NEVER
  }

  /** The first rule (in rank order) that matches the path `p[from, to)`, or -1. */
  decidePath(p: Uint8Array, from: number, to: number): number {
    const bytes = this.bytes
    const rec = this.records
    const heads = this.heads
    if (heads !== null) {
      // The best plain prefix rule (when indexed): only rules before it in rank order can beat it.
      const best = this.prefixes === null ? NO_PREFIX_RULE : bestPrefixRule(this.prefixes, bytes, rec, p, from, to)
      // The rules whose filed head the path passes, merged in rank order.
      let k = headNodesOfBytes(heads, p, from, to, NODES)
      const list = heads.rules
      for (let q = 0; q < k; q++) {
        POS[q] = heads.ruleStart[NODES[q]]
        END[q] = heads.ruleStart[NODES[q] + 1]
      }
      let stars = 0
      for (;;) {
        let j = -1
        let r = best
        for (let q = 0; q < k; q++) if (list[POS[q]] < r) r = list[POS[j = q]]
        if (j < 0) break
        if (++POS[j] === END[j]) {
          // That node's list is done: the last list takes its place (each list is non-empty at first).
          POS[j] = POS[--k]
          END[j] = END[k]
        }
        const at = r * RuleField.Width
        if (rec[at + RuleField.Flags] & RuleFlag.Star && ++stars >= SIGNATURE_FROM && this.sigs !== null) {
          if (stars === SIGNATURE_FROM) pathSignature(p, from, to, HAVE)
          if (!signatureMayOccur(this.sigs, r, HAVE)) {
            k = this.passRuledOut(list, j, k)
            continue
          }
        }
        if (ruleMatches(bytes, rec, at, p, from, to)) return r
      }
      return best === NO_PREFIX_RULE ? -1 : best
    }
    // No index (yet): the rules of the path's second byte and those that need none, in rank order.
    const second = from + 1 < to ? p[from + 1] : -1
    const n = rec.length
    for (let at = 0; at < n; at += RuleField.Width) {
      // Most rules fail on the path's second byte (rules/rule-set.ts, SecondByte).
      const need = rec[at + RuleField.Flags] >>> SecondByte.Shift
      if (need !== SecondByte.Any && need !== second) continue
      if (ruleMatches(bytes, rec, at, p, from, to)) return at / RuleField.Width
    }
    return -1
  }

  stats(): EngineStats {
    return { ...NO_AUTOMATON, engine: 'direct' }
  }

  memoryUsage(): number {
    return (
      DIRECT_ENGINE_BYTES +
      (this.heads === null ? 0 : HEAD_INDEX_OBJECT_BYTES + headIndexBytes(this.heads)) +
      (this.sigs === null ? 0 : typedArrayBytes(this.sigs)) +
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

/** A DirectEngine object (ten fields) and its path-start memo's object (its prefix: heldBytes); its records belong to the RuleSet. */
const DIRECT_ENGINE_BYTES = objectBytes(10) + objectBytes(3)

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

/**
 * segments.ts's pathSignature of `url[from, to)`, by chars: a non-ASCII
 * char counts as its low seven bits, as each of its UTF-8 bytes would
 * (such a byte is in no plain pattern), so the signature may say a byte or
 * pair occurs when it does not, never the other way round.
 */
function charSignature(url: string, from: number, to: number, out: Int32Array): void {
  let lo = 0
  let hi = 0
  let pairLo = 0
  let pairHi = 0
  let a = -1
  for (let i = from; i < to; i++) {
    const b = url.charCodeAt(i) & 127
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

/** The number of `*` rules of a set. */
function starRules(rec: Int32Array): number {
  let n = 0
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) if (rec[at] & RuleFlag.Star) n++
  return n
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

/**
 * The `*` rule of a path from which the rest are first tested against the
 * path's signature (./segments.ts): the first. The signature is a pass over
 * the path in four locals, which costs less than a segment's search (a
 * native `indexOf`, then chars compared). A set with one `*` rule has no
 * signatures (DirectEngine.buildIndex).
 */
const SIGNATURE_FROM = 1

/** The end of the path of the string URL being judged (its first `#` or NUL, or its length), once a `*` rule needed it; else negative. */
let pathEnd = -1

/** The signature of the path being judged (reused). */
const HAVE = new Int32Array(SIGNATURE_WORDS)

/** The head-index nodes with rules that the path being judged passes, and a cursor and end in each one's list (reused). */
const NODES = new Int32Array(HEAD_DEPTH + 1)
const POS = new Int32Array(HEAD_DEPTH + 1)
const END = new Int32Array(HEAD_DEPTH + 1)

/** A HeadIndex object (eight fields). */
const HEAD_INDEX_OBJECT_BYTES = objectBytes(8)

/** A countdown that never runs out (2^52 URLs). */
export const NEVER = 2 ** 52
/** The LiteralPrefixes object (three fields). */
const PREFIXES_OBJECT_BYTES = objectBytes(3)
