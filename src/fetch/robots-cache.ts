import { RobotsInputError } from '../errors.js'
import { allowAll, disallowAll, isShared, type Robots } from './core.js'
import { fetchRobots, type FetchRobotsOptions } from './fetch-robots.js'
import { originOf } from './origin.js'
import type { RobotsFetchResult } from './outcome.js'

/** Options of {@link RobotsCache}: how to fetch (as {@link fetchRobots}) and how much to keep. */
export interface RobotsCacheOptions extends Omit<FetchRobotsOptions, 'signal'> {
  /** Byte budget for all entries, measured with `Robots.memoryUsage()` plus a per-entry overhead. LRU eviction. Default 64 MiB. */
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
  fixedBytes: number
  bytes: number
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024
const DEFAULT_MAX_STALE_MS = 30 * 86_400_000
/** Rough cost of an entry's objects besides strings and rules. */
const ENTRY_OVERHEAD = 512

function stringBytes(s: string | undefined): number {
  return s === undefined ? 0 : 16 + 2 * s.length
}

function resultBytes(r: RobotsFetchResult | undefined): number {
  if (!r) return 0
  let n = 160 + stringBytes(r.origin) + stringBytes(r.url) + stringBytes(r.finalUrl)
  for (const h of r.redirects) n += 48 + stringBytes(h.url) + stringBytes(h.location)
  if (r.headers) for (const k in r.headers) n += 32 + stringBytes(k) + stringBytes(r.headers[k])
  if (r.error) n += 64 + stringBytes(r.error.message) + stringBytes(r.error.code)
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
 * - `maxBytes` bounds the whole cache; least recently used entries are evicted.
 *   Sizes come from `Robots.memoryUsage()` and are re-measured on each hit, as
 *   compiled matchers grow.
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>()
  private readonly inflight = new Map<string, Promise<RobotsLookup>>()
  private readonly fetchOptions: FetchRobotsOptions
  private readonly now: () => number
  private readonly maxBytes: number
  private readonly maxStaleMs: number
  private bytes = 0
  private counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0, evictions: 0 }

  constructor(options: RobotsCacheOptions = {}) {
    const { maxBytes, maxStaleMs, ...fetchOptions } = options
    if (maxBytes !== undefined && !(maxBytes >= 0)) throw new RobotsInputError(`maxBytes must be >= 0, got ${maxBytes}`)
    if (maxStaleMs !== undefined && !(maxStaleMs >= 0)) {
      throw new RobotsInputError(`maxStaleMs must be >= 0, got ${maxStaleMs}`)
    }
    this.maxBytes = maxBytes ?? DEFAULT_MAX_BYTES
    this.maxStaleMs = maxStaleMs ?? DEFAULT_MAX_STALE_MS
    this.now = options.now ?? Date.now
    this.fetchOptions = { ...fetchOptions, now: this.now }
  }

  /** The rules for `url`'s origin (fetched when not cached or expired). */
  async get(url: string | URL): Promise<Robots> {
    return (await this.lookup(url)).robots
  }

  /** `get(url)` then `.agent(agent).isAllowed(url)`. */
  async isAllowed(url: string | URL, agent: string): Promise<boolean> {
    const href = typeof url === 'string' ? url : url.href
    const lookup = await this.lookup(href)
    const allowed = lookup.robots.agent(agent).isAllowed(href)
    this.remeasure(lookup.origin)
    return allowed
  }

  /** Like `get`, with the fetch result and the basis of the rules served. */
  async lookup(url: string | URL): Promise<RobotsLookup> {
    const origin = originOf(url)
    const entry = this.entries.get(origin)
    if (entry && this.now() < entry.lookup.expiresAt) {
      this.counters.hits++
      this.entries.delete(origin) // move to the most recently used end
      this.entries.set(origin, entry)
      this.measure(origin, entry)
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
    return this.entries.get(originOf(url))?.lookup
  }

  /** Forgets `url`'s origin. */
  delete(url: string | URL): boolean {
    const origin = originOf(url)
    const entry = this.entries.get(origin)
    if (!entry) return false
    this.entries.delete(origin)
    this.bytes -= entry.bytes
    return true
  }

  /** Forgets everything (fetches in flight still complete and are stored). */
  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  /** Counters and size. */
  stats(): RobotsCacheStats {
    return { ...this.counters, entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes }
  }

  /** Sets the counters to zero (size is kept). */
  resetStats(): void {
    this.counters = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0, evictions: 0 }
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
        bytes: 0,
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
      entry = { lookup, reachableAt, fixedBytes: 0, bytes: 0 }
      if (good) entry.good = good
    }
    entry.fixedBytes =
      ENTRY_OVERHEAD + stringBytes(origin) + resultBytes(result) + (entry.good !== result ? resultBytes(entry.good) : 0)
    const old = this.entries.get(origin)
    if (old) {
      this.entries.delete(origin)
      this.bytes -= old.bytes
    }
    this.entries.set(origin, entry)
    this.measure(origin, entry)
    return entry.lookup
  }

  private remeasure(origin: string): void {
    const entry = this.entries.get(origin)
    if (entry) this.measure(origin, entry)
  }

  /** Recomputes an entry's size (rules grow as matchers compile) and evicts down to the budget. */
  private measure(origin: string, entry: Entry): void {
    const a = entry.lookup.robots
    const b = entry.lookup.result.robots
    const c = entry.good?.robots
    let bytes = entry.fixedBytes
    if (!isShared(a)) bytes += a.memoryUsage()
    if (b !== a && !isShared(b)) bytes += b.memoryUsage()
    if (c && c !== a && c !== b && !isShared(c)) bytes += c.memoryUsage()
    this.bytes += bytes - entry.bytes
    entry.bytes = bytes
    this.evict(origin)
  }

  /** Drops least recently used entries until the budget holds (the newest entry too, when it alone is over). */
  private evict(newest: string): void {
    for (const [origin, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return
      if (origin === newest) continue
      this.drop(origin, entry)
    }
    const entry = this.entries.get(newest)
    if (entry && this.bytes > this.maxBytes) this.drop(newest, entry)
  }

  private drop(origin: string, entry: Entry): void {
    this.entries.delete(origin)
    this.bytes -= entry.bytes
    this.counters.evictions++
  }
}
