/**
 * {@link CrawlerSet}: several crawlers of one robots.txt judged together,
 * each with its own verdict and deciding line, as it would be alone.
 * Crawlers whose tokens select the same groups (the same *selection*,
 * agent-cache.ts) have the same rules, so they share one matcher: a file
 * that names none of eight crawlers judges them with its one `*` matcher.
 * A URL's path start is found once; then each distinct matcher judges from
 * it, through the engine contract (match/engine.ts), in its own tier.
 */
import { asBytes, checkOpened, describeValue, isIndex, isStrings, OPENED, RobotsInputError, RobotsRangeError } from '../errors.js'
import { arrayBytes, objectBytes, SCRATCH_KEEP, typedArrayBytes } from '../memory.js'
import { CompactRules, EventCursor, EventType } from '../rules/compact-rules.js'
import { codeFrom, codeFromString, type AgentMatcher, type Explanation } from '../match/matcher.js'
import { countLines, lineEnd, urlEnd } from '../match/lines.js'
import { pathAccess, type AccessClass } from '../match/access.js'
import { pathStartBytes, PathStartMemo, type PathStart } from '../url/url-path.js'
import { SCAN_END, scanOffsets, scanSource } from '../url/scan-access.js'
import type { UrlScan } from '../url/url-scan-record.js'
import { UrlField } from '../url/url-scan.js'
import { tokenSelection, tokensSelection, type SelectionKey } from './agent-cache.js'

/**
 * One crawler of a set: its product token, or several tokens (one crawler
 * answering to each: the reference's multi-agent rule, as `Robots.agents`).
 */
export type Crawler = string | readonly string[]

/** Which groups decide a crawler's rules: a group naming one of its tokens, the `*` groups, or none (then every path is allowed). */
export type AccessGroup = 'named' | 'global' | 'none'

/** What a crawler may fetch of a site (`CrawlerSet.access`, `Robots.access`). */
export interface CrawlerAccess {
  /** `everything` (no path is disallowed), `some`, or `nothing` (no path is allowed), exactly, from the rules (docs/crawlers.md). */
  readonly access: AccessClass
  /** Whether a group names the crawler (`named`), the `*` groups decide (`global`), or no group applies (`none`). */
  readonly group: AccessGroup
  /** A path the crawler may fetch, or null when it may fetch nothing. */
  readonly allowedPath: string | null
  /** A path it may not fetch, or null when it may fetch everything. */
  readonly disallowedPath: string | null
}

/** One crawler's answer for a URL (`CrawlerSet.check`): its verdict and the reference's matching line (0: none). */
export interface CrawlerVerdict {
  readonly allowed: boolean
  readonly line: number
}

/** The crawlers of a set as token lists (frozen copies), checked: anything but strings and arrays of strings is a RobotsInputError (ERR_INPUT). */
export function crawlerList(crawlers: unknown, what: string): readonly (readonly string[])[] {
  if (!Array.isArray(crawlers)) throw new RobotsInputError(`${what} takes an array of crawlers (each a product token or an array of them), got ${describeValue(crawlers)}`)
  const out: (readonly string[])[] = []
  for (let k = 0; k < crawlers.length; k++) {
    const c: unknown = crawlers[k]
    if (typeof c === 'string') out.push(Object.freeze([c]))
    else if (isStrings(c)) out.push(Object.freeze(c.slice() as string[]))
    else throw new RobotsInputError(`${what}: crawler ${k} must be a product token or an array of them (strings), got ${describeValue(c)}`)
  }
  return Object.freeze(out)
}

/** Fields of a CrawlerSet, for its memory cost. */
const SET_FIELDS = 9

/** Makes a set (the constructor is private): {@link makeCrawlerSet}, {@link uniformCrawlerSet}. */
let construct: (list: readonly (readonly string[])[], distinct: AgentMatcher[], slot: Int32Array, rules: CompactRules | null) => CrawlerSet

/** The verdicts and lines of one matcher over a piece of lines (matchLines' one-matcher path); bounded (src/memory.ts). */
let pieceVerdicts = new Uint8Array(0)
let pieceLines = new Int32Array(0)
let pieceEnds = new Int32Array(0)

/** Bytes of input one `matchLines` piece covers when the set has one distinct matcher. */
const PIECE_BYTES = SCRATCH_KEEP - 1

/**
 * Crawlers judged together on one robots.txt (`robots.crawlers([...])`,
 * `store.crawlers([...])`). Every answer per crawler is the one
 * `robots.agents(tokens)` gives alone (verdict and reference's matching
 * line), in the order the crawlers were given; the same crawler named twice
 * gets two columns. Results are packed as `matchRange` returns them:
 * `line * 2 + (allowed ? 1 : 0)` per crawler, in an `Int32Array`.
 *
 * Crawlers with the same selection share one matcher (so eight crawlers are
 * often one to three matchers); per URL the path start is found once and
 * each distinct matcher judges from there, in its own tier, with its own
 * bounded memory. Time per URL: linear in its length per distinct matcher.
 * The batch forms (`match` with `out`, `matchScan`, `matchLines` with its
 * arrays) allocate nothing per URL.
 */
export class CrawlerSet {
  /** The crawlers' tokens, in the order given. */
  readonly crawlers: readonly (readonly string[])[]
  /** Number of crawlers. */
  readonly size: number
  /** The distinct matchers. */
  private readonly distinct: AgentMatcher[]
  /** Crawler k's matcher is `distinct[slot[k]]`. */
  private readonly slot: Int32Array
  /** Per distinct matcher, its code for the URL in hand. */
  private readonly codes: Int32Array
  /** The file's rules (for `access`: whether it has `*` groups), null for a stand-in outcome. */
  private readonly rules: CompactRules | null
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()
  /** Per distinct matcher, its class once asked (`access`). */
  private accessCache: (ReturnType<typeof pathAccess> | undefined)[] | undefined

  static {
    construct = (list, distinct, slot, rules) => new CrawlerSet(OPENED, list, distinct, slot, rules)
  }

  /** Sets come from `Robots.crawlers()` and `RobotsStore.crawlers()` (private, so that the typings offer no constructor). */
  private constructor(key: typeof OPENED, list: readonly (readonly string[])[], distinct: AgentMatcher[], slot: Int32Array, rules: CompactRules | null) {
    checkOpened(key, 'CrawlerSet')
    this.crawlers = list
    this.size = list.length
    this.distinct = distinct
    this.slot = slot
    this.codes = new Int32Array(distinct.length)
    this.rules = rules
  }

  /** The distinct matchers (crawlers with the same selection share one), in the order first needed. */
  get matchers(): readonly AgentMatcher[] {
    return this.distinct.slice()
  }

  /** Crawler `k`'s matcher (shared with the crawlers of the same selection). */
  matcher(k: number): AgentMatcher {
    if (!(isIndex(k) && k < this.size)) throw new RobotsRangeError('ERR_RANGE', `CrawlerSet.matcher: ${describeValue(k)} is not a crawler of a set of ${this.size}`)
    return this.distinct[this.slot[k]]
  }

  /**
   * Every crawler's verdict for `url` (a full URL or a path; a string, a
   * `URL` or bytes, as `isAllowed` takes it), into `out` (an Int32Array of
   * at least `size`; a new one when absent): `line * 2 + (allowed ? 1 : 0)`
   * per crawler. Returns `out`.
   */
  match(url: string | URL | Uint8Array, out?: Int32Array): Int32Array {
    const o = this.output(out, 'match')
    const bytes = typeof url === 'string' ? undefined : asBytes(url)
    if (typeof url === 'string') this.judgeString(url, this.memo.of(url))
    else if (bytes !== undefined) this.judgeBytes(bytes, pathStartBytes(bytes, 0, bytes.length), bytes.length)
    else if (typeof URL === 'function' && url instanceof URL) this.judgeString(url.href, this.memo.of(url.href))
    else throw new RobotsInputError(`a URL must be a string, a URL or a Uint8Array, got ${describeValue(url)}`)
    this.spread(o, 0)
    return o
  }

  /** Whether each crawler may fetch `url` (as {@link match}), a new array. */
  isAllowed(url: string | URL | Uint8Array): boolean[] {
    const codes = this.match(url)
    return Array.from(codes, (c) => (c & 1) === 1)
  }

  /** Each crawler's verdict and deciding line for `url` (as {@link match}, unpacked), a new array. */
  check(url: string | URL | Uint8Array): CrawlerVerdict[] {
    return Array.from(this.match(url), (c) => ({ allowed: (c & 1) === 1, line: c >>> 1 }))
  }

  /** Each crawler's verdict and deciding rule (as `AgentMatcher.explain`), a new array; the slower path. */
  explain(url: string | URL | Uint8Array): Explanation[] {
    const each = this.distinct.map((m) => m.explain(url))
    return Array.from(this.slot, (d) => ({ allowed: each[d].allowed, rule: each[d].rule === null ? null : { ...each[d].rule! } }))
  }

  /**
   * {@link match} for the URL `bytes[start, end)`. Offsets outside the
   * buffer are a RobotsRangeError (ERR_RANGE).
   */
  matchRange(bytes: Uint8Array, start: number, end: number, out?: Int32Array): Int32Array {
    if (asBytes(bytes) === undefined) throw new RobotsInputError(`CrawlerSet.matchRange: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (!(isIndex(start) && isIndex(end) && start <= end && end <= bytes.length)) {
      throw new RobotsRangeError('ERR_RANGE', `CrawlerSet.matchRange: [${describeValue(start)}, ${describeValue(end)}) is not a range of a ${bytes.length}-byte buffer`)
    }
    const o = this.output(out, 'matchRange')
    this.judgeBytes(bytes, pathStartBytes(bytes, start, end), end)
    this.spread(o, 0)
    return o
  }

  /**
   * {@link match} for the URL `scan` scanned last (a UrlScan), from the
   * path start it found: nothing is scanned twice. Errors as for
   * `AgentMatcher.matchScan`.
   */
  matchScan(scan: UrlScan, out?: Int32Array): Int32Array {
    const rec = scanOffsets(scan)
    if (rec === undefined) throw new RobotsInputError(`CrawlerSet.matchScan takes a UrlScan, got ${describeValue(scan)}`)
    if (rec[UrlField.Start] < 0) throw new RobotsInputError('CrawlerSet.matchScan: the UrlScan has scanned no URL yet')
    const o = this.output(out, 'matchScan')
    const src = scanSource(scan)
    const end = rec[SCAN_END]
    const ps = rec[UrlField.PathStart] as PathStart
    if (typeof src === 'string') this.judgeString(src, ps)
    else {
      if (end > src.length) throw new RobotsRangeError('ERR_RANGE', `CrawlerSet.matchScan: the scanned URL ends at ${end}, past its ${src.length}-byte buffer`)
      this.judgeBytes(src, ps, end)
    }
    this.spread(o, 0)
    return o
  }

  /**
   * Judges every line of `bytes` (the convention of `AgentMatcher.matchLines`)
   * for every crawler: row `i` of `out` (`out[i * size + k]`) holds crawler
   * `k`'s `line * 2 + (allowed ? 1 : 0)` for line `i`, and `lineEnds[i]` the
   * line's LF offset (or `bytes.length`). Returns the filled part of `out`
   * (a new array of `lines × size` when absent). Arrays too small are a
   * RobotsRangeError (ERR_CAPACITY); other types a RobotsInputError.
   */
  matchLines(bytes: Uint8Array, out?: Int32Array, lineEnds?: Int32Array): Int32Array {
    if (asBytes(bytes) === undefined) throw new RobotsInputError(`CrawlerSet.matchLines: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (out !== undefined && !(out instanceof Int32Array)) throw new RobotsInputError(`CrawlerSet.matchLines: out must be an Int32Array, got ${describeValue(out)}`)
    if (lineEnds !== undefined && !(lineEnds instanceof Int32Array)) throw new RobotsInputError(`CrawlerSet.matchLines: lineEnds must be an Int32Array, got ${describeValue(lineEnds)}`)
    const k = this.size
    out ??= new Int32Array(countLines(bytes) * k)
    const rows = this.distinct.length === 1 ? this.linesOne(bytes, out, lineEnds) : this.linesEach(bytes, out, lineEnds)
    return out.subarray(0, rows * k)
  }

  /**
   * What each crawler may fetch: every path, some, or none (exactly, from its
   * rules: docs/crawlers.md has the definition), by a group naming it or the
   * `*` groups, with an example path of each verdict. A new array; each
   * distinct matcher's class is computed once (it judges at most twice as
   * many paths as it has rules).
   */
  access(): CrawlerAccess[] {
    const cache = (this.accessCache ??= new Array(this.distinct.length).fill(undefined))
    let global: boolean | undefined
    return Array.from(this.slot, (d) => {
      const m = this.distinct[d]
      const a = (cache[d] ??= pathAccess(m))
      let group: AccessGroup = 'named'
      if (!m.rules.specific) group = (global ??= this.rules !== null && hasGlobalGroup(this.rules)) ? 'global' : 'none'
      return { access: a.access, group, allowedPath: a.allowedPath, disallowedPath: a.disallowedPath }
    })
  }

  /** Bytes held: this object, its arrays and its distinct matchers (src/memory.ts). */
  memoryUsage(): number {
    let bytes = objectBytes(SET_FIELDS) + typedArrayBytes(this.slot) + typedArrayBytes(this.codes) + arrayBytes(this.distinct.length) + this.memo.heldBytes()
    for (const m of this.distinct) bytes += m.memoryUsage()
    return bytes
  }

  /** `out` checked (an Int32Array of room for every crawler), or a new one. */
  private output(out: Int32Array | undefined, what: string): Int32Array {
    if (out === undefined) return new Int32Array(this.size)
    if (!(out instanceof Int32Array)) throw new RobotsInputError(`CrawlerSet.${what}: out must be an Int32Array, got ${describeValue(out)}`)
    if (out.length < this.size) throw new RobotsRangeError('ERR_CAPACITY', `CrawlerSet.${what}: out has room for ${out.length} crawlers, the set has ${this.size}`)
    return out
  }

  /** Each distinct matcher's code for a string URL whose path starts where `ps` says. */
  private judgeString(url: string, ps: PathStart): void {
    const d = this.distinct
    const codes = this.codes
    for (let i = 0; i < d.length; i++) codes[i] = codeFromString(d[i], url, ps)
  }

  /** Each distinct matcher's code for the URL ending at `end` whose path starts where `ps` says. */
  private judgeBytes(url: Uint8Array, ps: PathStart, end: number): void {
    const d = this.distinct
    const codes = this.codes
    for (let i = 0; i < d.length; i++) codes[i] = codeFrom(d[i], url, ps, end)
  }

  /** Writes the codes in hand to `out[at, at + size)`, crawler by crawler. */
  private spread(out: Int32Array, at: number): void {
    const codes = this.codes
    const slot = this.slot
    for (let k = 0; k < slot.length; k++) out[at + k] = codes[slot[k]]
  }

  /** matchLines with several distinct matchers: per line, its end and path start once, then each matcher from there. */
  private linesEach(bytes: Uint8Array, out: Int32Array, lineEnds: Int32Array | undefined): number {
    const n = bytes.length
    const k = this.size
    let row = 0
    for (let pos = 0; pos < n; row++) {
      const lf = lineEnd(bytes, pos)
      const end = urlEnd(bytes, pos, lf)
      this.judgeBytes(bytes, pathStartBytes(bytes, pos, end), end)
      room(out, (row + 1) * k, 'out', k)
      this.spread(out, row * k)
      if (lineEnds !== undefined) {
        room(lineEnds, row + 1, 'lineEnds', 1)
        lineEnds[row] = lf
      }
      pos = lf + 1
    }
    return row
  }

  /**
   * matchLines with one distinct matcher (every crawler has the same rules):
   * its own `matchLines` (the hot tier's fused one-pass loop) over pieces of
   * at most PIECE_BYTES cut at line ends, each row copied to every crawler.
   */
  private linesOne(bytes: Uint8Array, out: Int32Array, lineEnds: Int32Array | undefined): number {
    const m = this.distinct[0]
    const n = bytes.length
    const k = this.size
    if (pieceVerdicts.length < PIECE_BYTES + 1) {
      pieceVerdicts = new Uint8Array(PIECE_BYTES + 1)
      pieceLines = new Int32Array(PIECE_BYTES + 1)
      pieceEnds = new Int32Array(PIECE_BYTES + 1)
    }
    let row = 0
    for (let pos = 0; pos < n; ) {
      // A piece ends after an LF: no line is split, and at most PIECE_BYTES lines fit.
      let stop = pos + PIECE_BYTES >= n ? n : bytes.lastIndexOf(10, pos + PIECE_BYTES - 1) + 1
      if (stop <= pos) stop = lineEnd(bytes, pos + PIECE_BYTES) + 1
      if (stop > n) stop = n
      const piece = bytes.subarray(pos, stop)
      const lines = m.matchLines(piece, pieceVerdicts, pieceLines, pieceEnds).length
      room(out, (row + lines) * k, 'out', k)
      if (lineEnds !== undefined) room(lineEnds, row + lines, 'lineEnds', 1)
      for (let i = 0; i < lines; i++, row++) {
        const code = pieceLines[i] * 2 + pieceVerdicts[i]
        const at = row * k
        for (let c = 0; c < k; c++) out[at + c] = code
        if (lineEnds !== undefined) lineEnds[row] = pos + pieceEnds[i]
      }
      pos = stop
    }
    return row
  }
}

/** A RobotsRangeError (ERR_CAPACITY) when `array` holds fewer than `need` elements. */
function room(array: Int32Array, need: number, name: string, per: number): void {
  if (need > array.length) {
    throw new RobotsRangeError('ERR_CAPACITY', `CrawlerSet.matchLines: ${name} has room for ${Math.floor(array.length / per)} lines, the input has more`)
  }
}

/** Whether the file has a `*` group (of any content). */
function hasGlobalGroup(rules: CompactRules): boolean {
  for (const c = new EventCursor(rules); c.next(); ) if (c.type === EventType.UaGlobal) return true
  return false
}

/**
 * The set of `list` over a file's `rules`: crawlers grouped by selection,
 * one matcher per group from `matcherOf` (given the first crawler's tokens
 * of the group).
 */
export function makeCrawlerSet(rules: CompactRules, list: readonly (readonly string[])[], matcherOf: (tokens: readonly string[]) => AgentMatcher): CrawlerSet {
  const keys = new Map<SelectionKey, number>()
  const distinct: AgentMatcher[] = []
  const slot = new Int32Array(list.length)
  for (let k = 0; k < list.length; k++) {
    const tokens = list[k]
    const key = tokens.length === 1 ? tokenSelection(rules, tokens[0]) : tokensSelection(rules, tokens)
    let d = keys.get(key)
    if (d === undefined) {
      d = distinct.length
      keys.set(key, d)
      distinct.push(matcherOf(tokens))
    }
    slot[k] = d
  }
  return construct(list, distinct, slot, rules)
}

/** A set whose every crawler has the rules of `matcher` (a stand-in outcome: allow all, disallow all). */
export function uniformCrawlerSet(list: readonly (readonly string[])[], matcher: AgentMatcher): CrawlerSet {
  return construct(list, [matcher], new Int32Array(list.length), null)
}
