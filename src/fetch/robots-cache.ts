import { describeValue, RobotsInputError } from '../errors.js'
import { BYTE_LRU_ENTRY_BYTES, ByteLru } from '../byte-lru.js'
import { objectBytes, stringBytes } from '../memory.js'
import { allowAll, disallowAll, isShared, type Robots } from './core.js'
import { fetchRobots, type FetchRobotsOptions } from './fetch-robots.js'
import { originOf } from './origin.js'
import type { RobotsFetchResult } from './outcome.js'

/** Options of {@link RobotsCache}: how to fetch (as {@link fetchRobots}) and how much to keep. */
export interface RobotsCacheOptions extends Omit<FetchRobotsOptions, 'signal'> {
  /**
   * Byte budget for all entries, measured with `Robots.memoryUsage()` plus
   * the entry's own objects and strings (src/memory.ts). LRU eviction.
   * Default 64 MiB; a value that is not a number >= 0 is a RobotsRangeError
   * (ERR_BUDGET).
   */
  maxBytes?: number
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
  /** Entries dropped to stay within `maxBytes`. */
  evictions: number
  /** Entries held. */
  entries: number
  /** Bytes held, by the library's accounting. */
  bytes: number
  /** The budget. */
  maxBytes: number
}

interface Entry {
  lookup: RobotsLookup
  /** Time of the last fetch that reached the server (or of the first failure when none did). */
  reachableAt: number
  /** The last fetch that reached the server. */
  good?: RobotsFetchResult
  /** Bytes of the entry besides the rules (objects and strings; they do not change). */
  fixedBytes: number
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
const DEFAULT_MAX_STALE_MS = 30 * 86_400_000

/** Fields of the objects of an entry: the Entry, its RobotsLookup, a RobotsFetchResult, a redirect hop, a failure. */
const ENTRY_FIELDS = 4
const LOOKUP_FIELDS = 6
const RESULT_FIELDS = 12
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
 * - When a refresh is unreachable, the last copy that reached the server keeps
 *   being used, up to `maxStaleMs` (30 days) after it was fetched; then the
 *   origin is treated as unavailable (allow all). Without any copy, unreachable
 *   means disallow all.
 * - `maxBytes` bounds the whole cache (a ByteLru, src/byte-lru.ts): least
 *   recently used entries are evicted. Sizes come from `Robots.memoryUsage()`
 *   and are re-measured on each hit, as compiled matchers grow.
 */
export class RobotsCache {
  private readonly entries: ByteLru<string, Entry>
  private readonly inflight = new Map<string, Promise<RobotsLookup>>()
  private readonly fetchOptions: FetchRobotsOptions
  private readonly now: () => number
  private readonly maxStaleMs: number
  private counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0 }

  constructor(options: RobotsCacheOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new RobotsInputError(`RobotsCache: options must be an object, got ${describeValue(options)}`)
    }
    const { maxBytes, maxStaleMs, ...fetchOptions } = options
    if (maxStaleMs !== undefined && !(typeof maxStaleMs === 'number' && maxStaleMs >= 0)) {
      throw new RobotsInputError(`maxStaleMs must be a number >= 0, got ${describeValue(maxStaleMs)}`)
    }
    this.entries = new ByteLru({ maxBytes: maxBytes === undefined ? DEFAULT_MAX_BYTES : maxBytes })
    this.maxStaleMs = maxStaleMs === undefined ? DEFAULT_MAX_STALE_MS : maxStaleMs
    this.now = options.now ?? Date.now
    this.fetchOptions = { ...fetchOptions, now: this.now }
  }

  /** The rules for `url`'s origin (fetched when not cached or expired). */
  async get(url: string | URL): Promise<Robots> {
    return (await this.lookup(url)).robots
  }

  /** `get(url)` then `.agent(agent).isAllowed(url)`. */
  async isAllowed(url: string | URL, agent: string): Promise<boolean> {
    const lookup = await this.lookup(url) // checks the URL (ERR_INPUT) before it is read
    const href = typeof url === 'string' ? url : url.href
    const allowed = lookup.robots.agent(agent).isAllowed(href)
    this.remeasure(lookup.origin)
    return allowed
  }

  /** Like `get`, with the fetch result and the basis of the rules served. */
  async lookup(url: string | URL): Promise<RobotsLookup> {
    const origin = originOf(url)
    const entry = this.entries.peek(origin)
    if (entry && this.now() < entry.lookup.expiresAt) {
      this.counters.hits++
      this.entries.get(origin) // now the most recently used
      this.entries.resize(origin, entryBytes(entry))
      return entry.lookup
    }
    this.counters.misses++
    const pending = this.inflight.get(origin)
    if (pending) {
      this.counters.coalesced++
      return pending
    }
    const p = this.refresh(origin, entry).finally(() => this.inflight.delete(origin))
    this.inflight.set(origin, p)
    return p
  }

  /** The entry for `url`'s origin, fresh or expired, without fetching or touching the LRU order. */
  peek(url: string | URL): RobotsLookup | undefined {
    return this.entries.peek(originOf(url))?.lookup
  }

  /** Forgets `url`'s origin. */
  delete(url: string | URL): boolean {
    return this.entries.delete(originOf(url))
  }

  /** Forgets everything (fetches in flight still complete and are stored). */
  clear(): void {
    this.entries.clear()
  }

  /** Counters and size. */
  stats(): RobotsCacheStats {
    const e = this.entries
    return { ...this.counters, evictions: e.evictions, entries: e.size, bytes: e.bytes, maxBytes: e.maxBytes }
  }

  /** Sets the counters to zero (size is kept). */
  resetStats(): void {
    this.counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0 }
    this.entries.evictions = 0
  }

  private async refresh(origin: string, prev: Entry | undefined): Promise<RobotsLookup> {
    this.counters.fetches++
    const result = await fetchRobots(origin, this.fetchOptions)
    let entry: Entry
    if (result.outcome !== 'unreachable') {
      entry = {
        lookup: { origin, robots: result.robots, basis: 'fetched', result, expiresAt: result.expiresAt },
        reachableAt: result.fetchedAt,
        good: result,
        fixedBytes: 0,
      }
    } else {
      const reachableAt = prev?.reachableAt ?? result.fetchedAt
      const good = prev?.good
      const lookup: RobotsLookup = { origin, robots: disallowAll(), basis: 'fetched', result, expiresAt: result.expiresAt }
      if (result.fetchedAt - reachableAt > this.maxStaleMs) {
        lookup.robots = allowAll()
        lookup.basis = 'assumed-unavailable'
      } else if (good) {
        lookup.robots = good.robots
        lookup.basis = 'stale'
        this.counters.stale++
      }
      if (good) lookup.previous = good
      entry = { lookup, reachableAt, fixedBytes: 0 }
      if (good) entry.good = good
    }
    entry.fixedBytes =
      BYTE_LRU_ENTRY_BYTES + objectBytes(ENTRY_FIELDS) + objectBytes(LOOKUP_FIELDS) + stringBytes(origin) +
      resultBytes(result) + (entry.good !== result ? resultBytes(entry.good) : 0)
    // Replaces an earlier entry; evicts least recently used ones down to the budget (this one too, when it alone is over).
    this.entries.set(origin, entry, entryBytes(entry))
    return entry.lookup
  }

  /** Re-measures an entry after use (its matchers grow as they compile) and restores the budget. */
  private remeasure(origin: string): void {
    const entry = this.entries.peek(origin)
    if (entry) this.entries.resize(origin, entryBytes(entry))
  }
}

/** An entry's size: its fixed part plus the rules it holds (the shared allow-all and disallow-all cost nothing). */
function entryBytes(entry: Entry): number {
  const a = entry.lookup.robots
  const b = entry.lookup.result.robots
  const c = entry.good?.robots
  let bytes = entry.fixedBytes
  if (!isShared(a)) bytes += a.memoryUsage()
  if (b !== a && !isShared(b)) bytes += b.memoryUsage()
  if (c && c !== a && c !== b && !isShared(c)) bytes += c.memoryUsage()
  return bytes
}
