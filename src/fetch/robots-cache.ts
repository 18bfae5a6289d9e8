import { describeValue, RobotsInputError, RobotsRangeError } from '../errors.js'
import { BYTE_LRU_ENTRY_BYTES, ByteLru } from '../byte-lru.js'
import { objectBytes, stringBytes } from '../memory.js'
import { allowAll, disallowAll, isShared } from '../robots/fallback.js'
import { rulesMemoryUsage, type Robots } from '../robots/robots.js'
import { checkAgent, entryOverheadOf, RobotsStore } from '../store/robots-store.js'
import { fetchRobots, readFetchOptions } from './fetch-robots.js'
import { checkFetchOptions, type FetchRobotsOptions } from './options.js'
import { checkOptionNames, FETCH_OPTION_NAMES, readClock } from './option-names.js'
import { originOf } from './origin.js'
import type { RobotsFetchResult } from './outcome.js'

/**
 * Options of {@link RobotsCache}: how to fetch (as {@link fetchRobots}, but
 * for `signal` and `previous`, which belong to one request: given, they are
 * a RobotsInputError) and how much to keep.
 */
export interface RobotsCacheOptions extends Omit<FetchRobotsOptions, 'signal' | 'previous'> {
  /**
   * Byte budget of the whole cache: the entries (their rules, by the
   * library's memory model, src/memory.ts, plus their own objects and
   * strings) and the compiled matchers. LRU eviction. Default 64 MiB; a
   * value that is not a number >= 0 is a RobotsRangeError (ERR_BUDGET).
   */
  maxBytes?: number
  /**
   * The part of `maxBytes` for compiled matchers (kept in an LRU of their
   * own, so that matchers growing never evict rules). Default a quarter of
   * `maxBytes`; at most `maxBytes` (ERR_BUDGET otherwise).
   */
  matcherBytes?: number
  /**
   * How long an origin may stay unreachable before its rules fall back to
   * allow-all (RFC 9309 §2.3.1.4: "for example, 30 days"), counted from the last
   * fetch that reached the server (or from the first failed one when none did).
   * Until then an earlier copy keeps being served, or disallow-all when there is
   * none. Default 2,592,000,000 (30 days).
   */
  maxStaleMs?: number
}

/**
 * Which rules a lookup serves:
 * - `fetched`: those of the latest fetch (the file, allow-all when unavailable,
 *   disallow-all when unreachable and no earlier copy is known);
 * - `stale`: the latest fetch was unreachable, so the rules of the last fetch that
 *   reached the server are kept;
 * - `assumed-unavailable`: unreachable for longer than `maxStaleMs`, so allow-all.
 */
export type RobotsBasis = 'fetched' | 'stale' | 'assumed-unavailable'

/** What the cache holds for one origin. */
export interface RobotsLookup {
  origin: string
  /** The rules to apply to URLs of `origin`. */
  robots: Robots
  basis: RobotsBasis
  /** The latest fetch for this origin (explains `robots`; for `stale`, see `previous`). */
  result: RobotsFetchResult
  /** The last fetch that reached the server, when `result` did not. */
  previous?: RobotsFetchResult
  /** The entry is served without a new fetch until then. */
  expiresAt: number
}

/** Counters since the cache was created (or `resetStats()`), plus its current size. */
export interface RobotsCacheStats {
  /** Lookups answered by a fresh entry. */
  hits: number
  /** Lookups that waited for a fetch (started one, or joined one in flight). */
  misses: number
  /** Misses that joined a fetch already in flight for the same origin. */
  coalesced: number
  /** Fetches started. */
  fetches: number
  /** Refreshes that were unreachable and kept serving an earlier copy. */
  stale: number
  /** Refreshes answered 304 Not Modified: the rules kept, with a new expiry. */
  revalidated: number
  /** Entries dropped to stay within `maxBytes`. */
  evictions: number
  /** Entries held. */
  entries: number
  /** Bytes held, by the library's accounting: entries and compiled matchers. */
  bytes: number
  /** Of which compiled matchers. */
  matcherBytes: number
  /** The budget. */
  maxBytes: number
}

interface Entry {
  lookup: RobotsLookup
  /** Time of the last fetch that reached the server (or of the first failure when none did). */
  reachableAt: number
  /** The last fetch that reached the server. */
  good?: RobotsFetchResult
  /** Bytes of the entry: its objects, strings and rules (they do not change). */
  bytes: number
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
/** The names of {@link RobotsCacheOptions}. */
const CACHE_OPTION_NAMES = [...FETCH_OPTION_NAMES.filter((n) => n !== 'signal' && n !== 'previous'), 'maxBytes', 'matcherBytes', 'maxStaleMs']
const DEFAULT_MAX_STALE_MS = 30 * 86_400_000

/** Fields of the objects of an entry: the Entry, its RobotsLookup, a RobotsFetchResult, a redirect hop, a failure. */
const ENTRY_FIELDS = 4
const LOOKUP_FIELDS = 6
const RESULT_FIELDS = 13
const HOP_FIELDS = 3
const FAILURE_FIELDS = 4

function optionalStringBytes(s: string | undefined): number {
  return s === undefined ? 0 : stringBytes(s)
}

/** Bytes of a fetch result besides its rules (src/memory.ts). */
function resultBytes(r: RobotsFetchResult | undefined): number {
  if (!r) return 0
  let n = objectBytes(RESULT_FIELDS) + stringBytes(r.origin) + stringBytes(r.url) + optionalStringBytes(r.finalUrl)
  if (r.redirects.length) n += objectBytes(1) + r.redirects.length * 8
  for (const h of r.redirects) n += objectBytes(HOP_FIELDS) + stringBytes(h.url) + optionalStringBytes(h.location)
  if (r.headers) {
    let fields = 0
    for (const k in r.headers) {
      n += stringBytes(k) + stringBytes(r.headers[k])
      fields++
    }
    n += objectBytes(fields)
  }
  if (r.validators) n += objectBytes(2) + optionalStringBytes(r.validators.etag) + optionalStringBytes(r.validators.lastModified)
  if (r.error) n += objectBytes(FAILURE_FIELDS) + stringBytes(r.error.message) + optionalStringBytes(r.error.code)
  return n
}

/**
 * A per-origin robots.txt cache for crawl frontiers (RFC 9309 §2.4).
 *
 * - `get(url)` resolves to the rules for that URL's origin, fetching
 *   `/robots.txt` when there is no fresh entry. Entries live until the fetch's
 *   `expiresAt`: at most 24 hours, less when `Cache-Control`/`Expires` say so.
 * - Concurrent lookups of one origin share one fetch.
 * - An expired entry is refreshed conditionally: the validators of the last
 *   fetch that reached the server are sent, and a 304 keeps its rules
 *   (outcome `not-modified`) with a new expiry.
 * - When a refresh is unreachable, the last copy that reached the server keeps
 *   being used, up to `maxStaleMs` (30 days) after it was fetched; then the
 *   origin is treated as unavailable (allow all). Without any copy, unreachable
 *   means disallow all.
 * - The rules live in a `RobotsStore` (src/store/), which shares each fetched
 *   file's compact form and keeps the compiled matchers of `isAllowed` in its
 *   own LRU (`matcherBytes`). Entries are in a ByteLru (src/byte-lru.ts) under
 *   the rest of `maxBytes`, sized by their rules and objects, which do not
 *   change: a matcher that grows never evicts an entry. An entry whose rules
 *   alone exceed that budget is kept aside (one at a time) instead of being
 *   dropped: it stays usable, its matcher is not kept compiled, and it is
 *   fetched again only when it expires.
 */
export class RobotsCache {
  private readonly entries: ByteLru<string, Entry>
  /** The latest entry too large for the entries' budget (kept out of the LRU, still served until it expires). */
  private oversized: Entry | undefined
  private readonly store: RobotsStore
  private readonly inflight = new Map<string, Promise<RobotsLookup>>()
  private readonly fetchOptions: FetchRobotsOptions
  private readonly now: () => number
  private readonly maxStaleMs: number
  private readonly maxBytes: number
  private counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0, revalidated: 0 }

  constructor(options: RobotsCacheOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new RobotsInputError(`RobotsCache: options must be an object, got ${describeValue(options)}`)
    }
    // Read by name, as fetchRobots reads them: an option the object inherits counts as its own would.
    // Each once: the values checked below are the values every fetch is given.
    const fetchOptions: Record<string, unknown> = {}
    for (const name of FETCH_OPTION_NAMES) {
      const value = (options as Record<string, unknown>)[name]
      if (value !== undefined) fetchOptions[name] = value
    }
    // One request's options, which every fetch of the cache would otherwise share: an aborted signal
    // failing every look-up, one origin's previous result sent (and a 304 taken) for every other.
    for (const name of ['signal', 'previous'] as const) {
      if (fetchOptions[name] !== undefined) {
        throw new RobotsInputError(`RobotsCache: ${name} is an option of one fetchRobots call, not of the cache (it keeps each origin's previous result itself)`)
      }
    }
    checkOptionNames(options, CACHE_OPTION_NAMES, 'RobotsCache')
    const { maxBytes = DEFAULT_MAX_BYTES, matcherBytes, maxStaleMs } = options
    if (maxStaleMs !== undefined && !(typeof maxStaleMs === 'number' && maxStaleMs >= 0)) {
      throw new RobotsInputError(`maxStaleMs must be a number >= 0, got ${describeValue(maxStaleMs)}`)
    }
    if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) {
      throw new RobotsRangeError('ERR_BUDGET', `maxBytes must be a number >= 0, got ${describeValue(maxBytes)}`)
    }
    const matchers = matcherBytes ?? Math.floor(maxBytes / 4)
    if (typeof matchers !== 'number' || !(matchers >= 0 && matchers <= maxBytes)) {
      throw new RobotsRangeError('ERR_BUDGET', `matcherBytes must be a number from 0 to maxBytes, got ${describeValue(matcherBytes)}`)
    }
    this.maxBytes = maxBytes
    this.store = new RobotsStore({ matcherBudget: matchers })
    // Infinity: no bound (Infinity minus the matchers' Infinity is none either).
    this.entries = new ByteLru({ maxBytes: maxBytes === Infinity ? maxBytes : maxBytes - matchers, onEvict: (origin) => this.store.delete(origin) })
    // Checked now, not at the first look-up: a bad option is the constructor's error.
    readFetchOptions(checkFetchOptions(fetchOptions))
    this.maxStaleMs = maxStaleMs === undefined ? DEFAULT_MAX_STALE_MS : maxStaleMs
    const clock = fetchOptions.now as (() => number) | undefined
    this.now = clock === undefined ? Date.now : () => readClock(clock, 'RobotsCache')
    this.fetchOptions = { ...fetchOptions, now: this.now }
  }

  /** The rules for `url`'s origin (fetched when not cached or expired). */
  async get(url: string | URL): Promise<Robots> {
    return (await this.lookup(url)).robots
  }

  /**
   * `get(url)` then `.isAllowed(url, agent)` (a token, or an array of them),
   * with the matcher kept in the cache's matcher LRU (not in the Robots).
   */
  async isAllowed(url: string | URL, agent: string | readonly string[]): Promise<boolean> {
    // The URL's and the agent's checks first, before any fetch (ERR_INPUT naming what is wrong). A URL
    // that names no site the store could judge (`http:///h/x`, `http://u;p@h/x`) is ERR_INPUT too: the
    // store's own judging says so for a held entry; before a fetch, and for rules no longer held, its
    // look-up does.
    const origin = originOf(url)
    checkAgent(agent)
    const held = this.entry(origin)
    const checked = held === undefined || this.now() >= held.lookup.expiresAt
    if (checked) this.store.lookup(url)
    const lookup = await this.lookupOrigin(origin)
    // The store holds the rules of every entry kept; another fetch may have evicted this one meanwhile.
    if (this.entry(lookup.origin)?.lookup === lookup) return this.store.isAllowed(url, agent)
    if (!checked) this.store.lookup(url)
    return lookup.robots.isAllowed(url, agent)
  }

  /** Like `get`, with the fetch result and the basis of the rules served. */
  async lookup(url: string | URL): Promise<RobotsLookup> {
    return this.lookupOrigin(originOf(url))
  }

  /** {@link lookup} for an origin already checked (`originOf`). */
  private async lookupOrigin(origin: string): Promise<RobotsLookup> {
    const entry = this.entry(origin)
    if (entry && this.now() < entry.lookup.expiresAt) {
      this.counters.hits++
      this.entries.get(origin) // now the most recently used
      return entry.lookup
    }
    this.counters.misses++
    const pending = this.inflight.get(origin)
    if (pending) {
      this.counters.coalesced++
      return pending
    }
    // Kept only while it is the origin's fetch in flight: `delete` or `clear` meanwhile forgets it.
    const p: Promise<RobotsLookup> = this.refresh(origin, entry, () => this.inflight.get(origin) === p).finally(() => {
      if (this.inflight.get(origin) === p) this.inflight.delete(origin)
    })
    this.inflight.set(origin, p)
    return p
  }

  /** The entry for `url`'s origin, fresh or expired, without fetching or touching the LRU order. */
  peek(url: string | URL): RobotsLookup | undefined {
    return this.entry(originOf(url))?.lookup
  }

  /** Forgets `url`'s origin; a fetch of it in flight still answers its callers but is not kept. */
  delete(url: string | URL): boolean {
    const origin = originOf(url)
    this.inflight.delete(origin)
    let had = this.entries.delete(origin)
    if (this.oversized?.lookup.origin === origin) {
      this.oversized = undefined
      had = true
    }
    if (had) this.store.delete(origin)
    return had
  }

  /** Forgets everything (fetches in flight still answer their callers but are not kept). */
  clear(): void {
    this.inflight.clear()
    for (const [origin] of this.entries.entries()) this.store.delete(origin)
    if (this.oversized) this.store.delete(this.oversized.lookup.origin)
    this.entries.clear()
    this.oversized = undefined
  }

  /** Counters and size. */
  stats(): RobotsCacheStats {
    const e = this.entries
    const matcherBytes = this.store.stats().matcherBytes
    const entries = e.size + (this.oversized ? 1 : 0)
    const bytes = e.bytes + (this.oversized?.bytes ?? 0) + matcherBytes
    return { ...this.counters, evictions: e.evictions, entries, bytes, matcherBytes, maxBytes: this.maxBytes }
  }

  /** Sets the counters to zero (size is kept). */
  resetStats(): void {
    this.counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0, revalidated: 0 }
    this.entries.evictions = 0
  }

  private entry(origin: string): Entry | undefined {
    const o = this.oversized
    return o !== undefined && o.lookup.origin === origin ? o : this.entries.peek(origin)
  }

  /** Fetches `origin` (conditionally when `prev` has a copy) and keeps the entry if `current()` still holds. */
  private async refresh(origin: string, prev: Entry | undefined, current: () => boolean): Promise<RobotsLookup> {
    this.counters.fetches++
    const good = prev?.good
    const result = await fetchRobots(origin, good ? { ...this.fetchOptions, previous: good } : this.fetchOptions)
    if (result.outcome === 'not-modified') this.counters.revalidated++
    let entry: Entry
    // A refused origin (the address policy) is like an unreachable one: no new copy, an earlier one kept a while.
    if (result.outcome !== 'unreachable' && result.outcome !== 'refused') {
      entry = {
        lookup: { origin, robots: result.robots, basis: 'fetched', result, expiresAt: result.expiresAt },
        reachableAt: result.fetchedAt,
        good: result,
        bytes: 0,
      }
    } else {
      const reachableAt = prev?.reachableAt ?? result.fetchedAt
      const lookup: RobotsLookup = { origin, robots: disallowAll(), basis: 'fetched', result, expiresAt: result.expiresAt }
      // Never allow-all for a refusal: that is this machine's decision, not the site's long silence.
      if (result.outcome === 'unreachable' && result.fetchedAt - reachableAt > this.maxStaleMs) {
        lookup.robots = allowAll()
        lookup.basis = 'assumed-unavailable'
      } else if (good) {
        lookup.robots = good.robots
        lookup.basis = 'stale'
        this.counters.stale++
      }
      if (good) lookup.previous = good
      entry = { lookup, reachableAt, bytes: 0 }
      if (good) entry.good = good
    }
    entry.bytes =
      BYTE_LRU_ENTRY_BYTES + objectBytes(ENTRY_FIELDS) + objectBytes(LOOKUP_FIELDS) + stringBytes(origin) +
      resultBytes(result) + (entry.good !== result ? resultBytes(entry.good) : 0) + rulesBytes(entry)
    if (current()) this.keep(origin, entry)
    return entry.lookup
  }

  /** Stores an entry (replacing the origin's), its rules in the store. */
  private keep(origin: string, entry: Entry): void {
    const robots = entry.lookup.robots
    if (robots === allowAll()) this.store.setOutcome(origin, 'unavailable')
    else if (robots === disallowAll()) this.store.setOutcome(origin, 'unreachable')
    else this.store.setRobots(origin, robots)
    // The store's part: the entry's key, slots and map places (its form is counted with the rules).
    entry.bytes += entryOverheadOf(this.store, origin)
    if (entry.bytes > this.entries.maxBytes) {
      // Too large for the budget: kept aside, alone, until it expires or another takes its place.
      this.entries.delete(origin)
      const old = this.oversized
      if (old !== undefined && old.lookup.origin !== origin) this.store.delete(old.lookup.origin)
      this.oversized = entry
      return
    }
    if (this.oversized?.lookup.origin === origin) this.oversized = undefined
    // Replaces an earlier entry; evicts least recently used ones down to the budget (onEvict drops their rules).
    this.entries.set(origin, entry, entry.bytes)
  }
}

/** The rules an entry holds: its robots and its fetch results' (the shared allow-all and disallow-all cost nothing). */
function rulesBytes(entry: Entry): number {
  const a = entry.lookup.robots
  const b = entry.lookup.result.robots
  const c = entry.good?.robots
  let bytes = 0
  if (!isShared(a)) bytes += rulesMemoryUsage(a)
  if (b !== a && !isShared(b)) bytes += rulesMemoryUsage(b)
  if (c && c !== a && c !== b && !isShared(c)) bytes += rulesMemoryUsage(c)
  return bytes
}
