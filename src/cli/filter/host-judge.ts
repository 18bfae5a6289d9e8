/**
 * Judging URL lines by their own host's robots.txt (`--robots-dir`,
 * `--bundle`): the line locator's scan gives the host and its hash, the
 * source's index is probed once (a host without an entry stops there), and
 * its entry's compiled matcher judges the URL from the scan's path start,
 * kept in a byte-budget cache ({@link HostJudge} has the policy).
 */
import type { AgentMatcher, CrawlerSet, UrlScan } from '../../index.js'
import { DistinctCounter } from '../hosts/distinct.js'
import { EntryState, type EntryEvent, type HostCrawlers, type HostQuery, type HostRules } from '../hosts/host-rules.js'
import type { CrawlerCodes } from './crawler-codes.js'
import type { Decided, LineJudge } from './line-judge.js'
import type { CacheBytes } from '../common/heap-room.js'
import { HostSource, type LineLocator } from './line-locator.js'
import { CACHE_ENTRY_BYTES, MatcherCache, type CachedJudge } from './matcher-cache.js'

/** Options of a `HostJudge`. */
export interface HostJudgeOptions {
  /** The crawler's product tokens (one or more: `Robots.agents`), or the crawlers of `--crawlers` (each one's tokens). */
  readonly who: HostCrawlers
  /** With `--crawlers`: where each crawler's verdict of a line goes (`judge` then returns the line's combined bit). */
  readonly crawlerCodes?: CrawlerCodes
  /** Verdict for a host with no entry (or an unreadable one). */
  readonly missingAllowed: boolean
  /** Bytes of compiled matchers kept (`--cache-mb`, fitted to the heap: common/heap-room.ts), as `memoryUsage()` counts them. */
  readonly cacheBytes: CacheBytes
  /** Called on each entry's first load in this thread. */
  readonly onEntry: (event: EntryEvent) => void
  /** Exact limit of the distinct-host counter (tests lower it). */
  readonly exactHosts?: number
  /** Keep the fingerprints of new hosts for `missing.takeNew()` (worker threads). */
  readonly trackNewHosts?: boolean
  /** Count hosts without an entry into this counter (the main thread's tally) instead of one of its own. */
  readonly missing?: DistinctCounter
}

const NO_ENTRY = -1

/** Default budget of compiled matchers (`filter --cache-mb`), in MiB, for all judging threads together. */
export const DEFAULT_CACHE_MB = 256

/** An entry entered again re-measures its matcher (matchers grow as they compile) once in this many times (a power of two). */
const REMEASURE = 16

/**
 * Judges lines by their host's rules.
 *
 * - Matchers are kept in a `MatcherCache` under a byte budget (`--cache-mb`),
 *   keyed by entry id and sized by `memoryUsage()`, measured again now and
 *   then when the host comes back (matchers grow as they compile). An entry
 *   evicted and needed again is loaded again (`reloads` counts it: a sign
 *   the budget is too small). An entry alone over the budget is not kept;
 *   it still judges its own lines.
 * - Hosts without an entry cost nothing in the cache; they are only counted
 *   (distinct, in bounded memory: distinct.ts).
 * - Consecutive lines of one site skip the look-up: the locator says when a
 *   line has the previous line's `scheme://authority/` (or `--host` again),
 *   and a line with the same host (any case) as the previous one reuses it.
 * - Each entry's first load is reported to `onEntry` (counts, warnings),
 *   and so is a load again that could not read what was read before;
 *   worker threads pass these on to the main thread, which counts distinct
 *   hosts across threads.
 */
export class HostJudge implements LineJudge {
  /** Entries loaded again after their matcher was evicted. */
  reloads = 0
  /** Distinct hosts without an entry. */
  readonly missing: DistinctCounter
  private readonly rules: HostRules
  /** The source has entries for whole origins (scheme and port): a host alone does not decide the entry. */
  private readonly originKeys: boolean
  private readonly who: HostCrawlers
  readonly crawlerCodes: CrawlerCodes | undefined
  private readonly missingCode: number
  private readonly onEntry: (event: EntryEvent) => void
  /** Entry id → its matcher, under the byte budget. */
  private readonly cache: MatcherCache
  /** Per entry id: `EntryState`. */
  private readonly states: Uint8Array
  /**
   * The current host, `lastHost[lastStart, lastStart + lastLength)` (-1 when
   * none: case as written), its hash, and what it decided. Not copied: the
   * bytes are a block's, never written again once read (a block handed to
   * another thread is detached, so a compare with it fails and the host is
   * looked up again).
   */
  private lastHost: Uint8Array = new Uint8Array(0)
  private lastStart = 0
  private lastLength = -1
  private lastHash = 0
  private lastId = NO_ENTRY
  /** The current entry's matcher (one crawler) or crawler set (`--crawlers`); null when no rules apply. */
  private lastMatcher: AgentMatcher | null = null
  private lastSet: CrawlerSet | null = null
  private lastCode = 0
  private enters = 0
  private readonly query: HostQuery = { bytes: new Uint8Array(0), hostStart: 0, hostEnd: 0, hash: 0, host: undefined as never, url: null }

  constructor(rules: HostRules, options: HostJudgeOptions) {
    this.rules = rules
    this.originKeys = rules.originKeys
    this.who = options.who
    this.crawlerCodes = options.crawlerCodes
    this.missingCode = options.missingAllowed ? 1 : 0
    this.onEntry = options.onEntry
    this.cache = new MatcherCache(rules.size, options.cacheBytes)
    this.states = new Uint8Array(rules.size)
    this.missing = options.missing ?? new DistinctCounter(options.exactHosts, options.trackNewHosts)
  }

  /** Judges the URL `locator` located last (in the bytes it read) by its host (the locator's): `ruleLine * 2 + (allowed ? 1 : 0)`. */
  judge(_bytes: Uint8Array, locator: LineLocator): number {
    if (!locator.sameHost || this.lastLength < 0) {
      // The host as the WHATWG URL parser gives it (the locator's key: the host's own bytes when plain).
      const k = locator.key
      const kb = locator.keyBytes
      const hs = k.hostStart
      const he = k.hostEnd
      const hash = k.hostHash
      // With origin keys, the same host under another scheme or port may be another entry. A host column
      // or --host that is an http(s) URL names its origin as a URL's authority does.
      if (this.originKeys || !this.isCurrent(kb, hs, he, hash)) {
        const source = locator.hostSource
        const origin = source === HostSource.Url ? locator.url : source !== HostSource.None && locator.host.schemeEnd >= 0 ? locator.host : null
        this.lookUp(kb, hs, he, hash, k, locator.host, origin)
      }
    }
    const cc = this.crawlerCodes
    if (cc !== undefined) {
      cc.at = 0
      const set = this.lastSet
      if (set === null) cc.fill(this.lastCode)
      else set.matchScan(locator.url, cc.codes)
      return cc.combine(0)
    }
    const m = this.lastMatcher
    if (m === null) return this.lastCode
    // One matcher step, from the scan's path start.
    return m.matchScan(locator.url)
  }

  /** What decided the line judged last (`bytes` and `locator` as given to `judge`). */
  decided(bytes: Uint8Array, locator: LineLocator): Decided {
    const host = this.lastLength < 0 ? null : DECODER.decode(this.lastHost.subarray(this.lastStart, this.lastStart + this.lastLength)).replace(/[A-Z]+/g, (c) => c.toLowerCase())
    const id = this.lastId
    if (id === NO_ENTRY) return { matcher: null, rule: null, source: null, host }
    const state = this.states[id]
    const source = this.rules.sourceName(id)
    if (state === EntryState.Unreadable) return { matcher: null, rule: null, source: null, host }
    if (state === EntryState.AllowAll) return { matcher: null, rule: null, source, host, outcome: 'unavailable' }
    if (state === EntryState.DisallowAll) return { matcher: null, rule: null, source, host, outcome: 'unreachable' }
    const url = locator.judgedUrl(bytes)
    const set = this.lastSet
    if (set !== null) return { matcher: null, rule: null, source, host, crawlers: set.explain(url).map((e, k) => ({ matcher: set.matcher(k), rule: e.rule })) }
    const m = this.lastMatcher!
    // The deciding rule, for the record (the slower path: the verdict came from matchScan).
    return { matcher: m, rule: m.explain(url).rule, source, host }
  }

  /** Bytes of compiled matchers held now. */
  get cacheBytes(): number {
    return this.cache.bytes
  }

  /** Whether `bytes[hs, he)` (hash `hash`) is the current host (ASCII case ignored). */
  private isCurrent(bytes: Uint8Array, hs: number, he: number, hash: number): boolean {
    const len = he - hs
    if (len !== this.lastLength || hash !== this.lastHash) return false
    const last = this.lastHost
    const at = this.lastStart
    for (let i = 0; i < len; i++) {
      const a = bytes[hs + i]
      const b = last[at + i]
      // Equal, or one letter in two cases.
      if (a !== b && ((a | 0x20) !== (b | 0x20) || (a | 0x20) < 0x61 || (a | 0x20) > 0x7a)) return false
    }
    return true
  }

  /**
   * Makes the host `bytes[hs, he)` (canonical: `hash` its hash, `key` its
   * scan; `host`: the scan of the host as written; `url`: the scan of the
   * URL it is the authority of, or null) the current one: its entry, or
   * counted as a host without one.
   */
  private lookUp(bytes: Uint8Array, hs: number, he: number, hash: number, key: UrlScan, host: UrlScan, url: UrlScan | null): void {
    this.lastHost = bytes
    this.lastStart = hs
    this.lastLength = he - hs
    this.lastHash = hash
    const q = this.query
    q.bytes = bytes
    q.hostStart = hs
    q.hostEnd = he
    q.hash = hash
    q.host = host
    q.url = url
    const id = this.rules.find(q)
    q.bytes = EMPTY
    this.lastId = id
    this.lastMatcher = null
    this.lastSet = null
    if (id < 0) {
      this.missing.addFingerprint(hash, key.hostHash2)
      this.lastCode = this.missingCode
      return
    }
    this.enter(id)
  }

  /** Makes entry `id` the current one: loads it on first use or after eviction. */
  private enter(id: number): void {
    let state = this.states[id] as EntryState
    if (state === EntryState.Robots) {
      const m = this.cache.get(id)
      if (m !== undefined) {
        // Now the most recently used; measured again now and then, as matchers grow as they compile.
        if ((++this.enters & (REMEASURE - 1)) === 0) this.cache.resize(id, CACHE_ENTRY_BYTES + m.memoryUsage())
        this.current(m)
        return
      }
      this.reloads++
    } else if (state === EntryState.AllowAll || state === EntryState.DisallowAll) {
      // An outcome is known from its first load: nothing to load again.
      this.current(null)
      this.lastCode = this.codeOfState(state)
      return
    }
    const entry = this.rules.load(id, this.who, state === EntryState.Unseen)
    let matcher: CachedJudge | null = null
    let event: EntryEvent
    if (entry.kind === 'rules') {
      matcher = entry.judge
      event = { id, state: EntryState.Robots, problem: entry.problem, bytesRead: entry.bytesRead, allowsAll: entry.allowsAll, wide: entry.wide }
      state = EntryState.Robots
      // Evicts least recently used hosts down to the budget. An entry alone
      // over it is not kept; its matcher still judges this host's lines.
      this.cache.set(id, matcher, CACHE_ENTRY_BYTES + matcher.memoryUsage())
    } else if (entry.kind === 'outcome') {
      state = entry.outcome === 'unreachable' ? EntryState.DisallowAll : EntryState.AllowAll
      event = entry.refused === true ? { id, state, refused: true } : { id, state }
    } else {
      state = EntryState.Unreadable
      event = { id, state, reason: entry.reason }
    }
    const first = this.states[id] === EntryState.Unseen
    // Read before, its rules since evicted, and now unreadable (removed, replaced): reported too, or its later lines would be judged by --missing in silence.
    const lost = state === EntryState.Unreadable && this.states[id] === EntryState.Robots
    this.states[id] = state
    this.current(matcher)
    this.lastCode = this.codeOfState(state)
    if (first || lost) this.onEntry(event)
  }

  /** The code of every line of an entry in `state` that has no matcher (an outcome, or unreadable: judged as missing). */
  private codeOfState(state: EntryState): number {
    return state === EntryState.AllowAll ? 1 : state === EntryState.DisallowAll ? 0 : this.missingCode
  }

  /** Makes `judge` (a matcher, a crawler set, or null) the current entry's. */
  private current(judge: CachedJudge | null): void {
    if (judge === null) this.lastMatcher = this.lastSet = null
    else if (this.crawlerCodes !== undefined) this.lastSet = judge as CrawlerSet
    else this.lastMatcher = judge as AgentMatcher
  }
}

const EMPTY = new Uint8Array(0)
const DECODER = new TextDecoder()
