/**
 * The per-host matchers `filter` keeps ({@link MatcherCache}): entry id →
 * compiled matcher, least recently used dropped first under a byte budget
 * (`--cache-mb`). Entry ids are dense (`0 .. size - 1` of a host source),
 * so the cache is arrays indexed by id: a hit is one load and a relink, no
 * hashing.
 */
import type { AgentMatcher, CrawlerSet } from '../../index.js'

/** What the cache keeps per entry: a crawler's matcher, or a crawler set (`--crawlers`). */
export type CachedJudge = AgentMatcher | CrawlerSet

const NONE = -1

/** What the cache counts per entry beyond the matcher's own `memoryUsage()`: its slots in the arrays below. */
export const CACHE_ENTRY_BYTES = 8 + 8 + 4 + 4

/**
 * Matchers by entry id under a byte budget. Sizes are the caller's
 * (`memoryUsage()` plus {@link CACHE_ENTRY_BYTES}); `resize` records a new
 * one. After every `set` and `resize` the sizes add up to at most the
 * budget: least recently used entries go first, and an entry alone over the
 * budget is not kept.
 */
export class MatcherCache {
  /** Bytes held now (the sizes given). */
  bytes = 0
  private readonly maxBytes: number
  private readonly matchers: (CachedJudge | undefined)[]
  private readonly sizes: Float64Array
  /** The recency list: `older[id]`, `newer[id]` (NONE at its ends); `oldest` goes first. */
  private readonly older: Int32Array
  private readonly newer: Int32Array
  private oldest = NONE
  private newest = NONE

  constructor(size: number, maxBytes: number) {
    this.maxBytes = maxBytes
    this.matchers = new Array<CachedJudge | undefined>(size).fill(undefined)
    this.sizes = new Float64Array(size)
    this.older = new Int32Array(size).fill(NONE)
    this.newer = new Int32Array(size).fill(NONE)
  }

  /** The matcher of entry `id`, now the most recently used, or undefined. */
  get(id: number): CachedJudge | undefined {
    const m = this.matchers[id]
    if (m !== undefined && this.newest !== id) {
      this.unlink(id)
      this.link(id)
    }
    return m
  }

  /** Keeps `matcher` for entry `id` at `size` bytes (most recently used), then drops the least recently used down to the budget. */
  set(id: number, matcher: CachedJudge, size: number): void {
    if (this.matchers[id] !== undefined) this.drop(id)
    // Alone over the budget: not kept, and nothing else is dropped for it.
    if (size > this.maxBytes) return
    this.matchers[id] = matcher
    this.sizes[id] = size
    this.bytes += size
    this.link(id)
    this.trim()
  }

  /** Records entry `id`'s new size (matchers grow as they compile), then trims to the budget. */
  resize(id: number, size: number): void {
    if (this.matchers[id] === undefined) return
    this.bytes += size - this.sizes[id]
    this.sizes[id] = size
    this.trim()
  }

  private trim(): void {
    while (this.bytes > this.maxBytes && this.oldest !== NONE) this.drop(this.oldest)
  }

  private drop(id: number): void {
    this.unlink(id)
    this.matchers[id] = undefined
    this.bytes -= this.sizes[id]
    this.sizes[id] = 0
  }

  /** Appends `id` as the newest. */
  private link(id: number): void {
    this.older[id] = this.newest
    this.newer[id] = NONE
    if (this.newest !== NONE) this.newer[this.newest] = id
    else this.oldest = id
    this.newest = id
  }

  private unlink(id: number): void {
    const o = this.older[id]
    const n = this.newer[id]
    if (o !== NONE) this.newer[o] = n
    else this.oldest = n
    if (n !== NONE) this.older[n] = o
    else this.newest = o
  }
}
