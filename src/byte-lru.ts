/**
 * A least-recently-used map under a byte budget ({@link ByteLru}), for caches
 * whose entries grow after they are stored (parsed robots.txt whose matchers
 * compile on use): the fetch layer's `RobotsCache`, the CLI's per-host
 * matchers, and `RobotsStore`'s compiled matchers. O(1) per operation and no
 * object per entry.
 */
import { describeValue, RobotsRangeError } from './errors.js'
import { FIELD_BYTES, MAP_ENTRY_BYTES } from './memory.js'

/** Options of a {@link ByteLru}. */
export interface ByteLruOptions<K = unknown, V = unknown> {
  /** Most bytes kept, by the sizes given to `set` and `resize` (>= 0). */
  maxBytes: number
  /** Most entries kept (an integer >= 1; default: no limit). */
  maxEntries?: number
  /** Called with each entry dropped to stay within the budget (not for `delete` or `clear`), after it is gone. */
  onEvict?: (key: K, value: V) => void
}

const NONE = -1

/**
 * The LRU's own bookkeeping per entry (its index entry; key and value slots;
 * size and links): owners that count their entries' full cost add it to
 * the sizes they give (the key's and value's own bytes are theirs to add).
 */
export const BYTE_LRU_ENTRY_BYTES = MAP_ENTRY_BYTES + 2 * FIELD_BYTES + 8 + 2 * 4

/**
 * A byte-budgeted LRU map.
 *
 * - Entry sizes are the owner's measurement (src/memory.ts); `resize`
 *   records a new one and restores the budget.
 * - The budget: after every `set` and `resize`, the entries' sizes add up
 *   to at most `maxBytes`, and there are at most `maxEntries`. Least
 *   recently used entries go first; the entry just set or resized goes
 *   last, and is not kept when it alone is over the budget.
 * - O(1) per operation and allocation-light: one Map from key to slot; the
 *   recency list is two Int32Arrays of slot links and the sizes a
 *   Float64Array, all grown by doubling; freed slots are reused. No object
 *   is made per entry.
 */
export class ByteLru<K, V> {
  /** Entries dropped to stay within the budget so far (the owner may set it back to 0). */
  evictions = 0
  readonly maxBytes: number
  readonly maxEntries: number
  private readonly onEvict: ((key: K, value: V) => void) | undefined
  // Layout (per slot s): `keys[s]`, `values[s]`, `sizes[s]`; `older[s]` and
  // `newer[s]` link the recency list (NONE at its ends; `oldest` and `newest`
  // are its ends); free slots are chained through `newer`.
  private readonly index = new Map<K, number>()
  private keys: (K | undefined)[] = []
  private values: (V | undefined)[] = []
  private sizes = new Float64Array(8)
  private older = new Int32Array(8)
  private newer = new Int32Array(8)
  private oldest = NONE
  private newest = NONE
  private free = NONE
  /** Slots handed out so far (the high-water mark; freed ones are reused first). */
  private slots = 0
  private total = 0

  /** A RobotsRangeError (ERR_BUDGET) for a budget that is not a number >= 0 or a count that is not an integer >= 1. */
  constructor(options: ByteLruOptions<K, V>) {
    const { maxBytes, maxEntries = Infinity, onEvict } = options
    if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) {
      throw new RobotsRangeError('ERR_BUDGET', `maxBytes must be a number >= 0, got ${describeValue(maxBytes)}`)
    }
    if (maxEntries !== Infinity && !(Number.isInteger(maxEntries) && maxEntries >= 1)) {
      throw new RobotsRangeError('ERR_BUDGET', `maxEntries must be an integer >= 1, got ${describeValue(maxEntries)}`)
    }
    this.maxBytes = maxBytes
    this.maxEntries = maxEntries
    this.onEvict = onEvict
  }

  /** Entries held. */
  get size(): number {
    return this.index.size
  }

  /** Sum of the entries' sizes. */
  get bytes(): number {
    return this.total
  }

  has(key: K): boolean {
    return this.index.has(key)
  }

  /** The value of `key`, which becomes the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const s = this.index.get(key)
    if (s === undefined) return undefined
    this.touch(s)
    return this.values[s]
  }

  /** The value of `key` without changing the recency order. */
  peek(key: K): V | undefined {
    const s = this.index.get(key)
    return s === undefined ? undefined : this.values[s]
  }

  /** The size recorded for `key`. */
  sizeOf(key: K): number | undefined {
    const s = this.index.get(key)
    return s === undefined ? undefined : this.sizes[s]
  }

  /**
   * Stores `value` under `key` (replacing any value) as the most recently
   * used entry of size `bytes`, then evicts down to the budget. Returns false
   * when the entry itself could not be kept (alone over the budget).
   */
  set(key: K, value: V, bytes: number): boolean {
    checkSize(bytes)
    let s = this.index.get(key)
    if (s === undefined) {
      s = this.allocate()
      this.index.set(key, s)
      this.keys[s] = key
      this.sizes[s] = 0
      this.link(s)
    } else {
      this.touch(s)
    }
    this.values[s] = value
    this.total += bytes - this.sizes[s]
    this.sizes[s] = bytes
    return this.fit(s)
  }

  /**
   * Records a new size for `key` (its place in the recency order stays),
   * then evicts down to the budget, this entry last. Returns false when the
   * key is absent or was evicted.
   */
  resize(key: K, bytes: number): boolean {
    checkSize(bytes)
    const s = this.index.get(key)
    if (s === undefined) return false
    this.total += bytes - this.sizes[s]
    this.sizes[s] = bytes
    return this.fit(s)
  }

  /** Removes `key` (not counted as an eviction). */
  delete(key: K): boolean {
    const s = this.index.get(key)
    if (s === undefined) return false
    this.remove(s)
    return true
  }

  /** Removes every entry (the eviction count stays). */
  clear(): void {
    this.index.clear()
    this.keys = []
    this.values = []
    this.oldest = this.newest = this.free = NONE
    this.slots = 0
    this.total = 0
  }

  /** The entries from the least to the most recently used. */
  *entries(): IterableIterator<[K, V]> {
    for (let s = this.oldest; s !== NONE; s = this.newer[s]) yield [this.keys[s] as K, this.values[s] as V]
  }

  /** Evicts least recently used entries other than slot `keep` until the budget holds, then `keep` if it must. */
  private fit(keep: number): boolean {
    let s = this.oldest
    while (s !== NONE && this.over()) {
      const next = this.newer[s]
      if (s !== keep) this.evict(s)
      s = next
    }
    if (!this.over()) return true
    this.evict(keep)
    return false
  }

  private over(): boolean {
    return this.total > this.maxBytes || this.index.size > this.maxEntries
  }

  private evict(s: number): void {
    this.evictions++
    const key = this.keys[s] as K
    const value = this.values[s] as V
    this.remove(s)
    this.onEvict?.(key, value)
  }

  private remove(s: number): void {
    this.index.delete(this.keys[s] as K)
    this.unlink(s)
    this.total -= this.sizes[s]
    this.keys[s] = undefined
    this.values[s] = undefined
    this.newer[s] = this.free
    this.free = s
  }

  private allocate(): number {
    if (this.free !== NONE) {
      const s = this.free
      this.free = this.newer[s]
      return s
    }
    const s = this.slots++
    if (s === this.sizes.length) {
      this.sizes = grown(this.sizes, new Float64Array(s * 2))
      this.older = grown(this.older, new Int32Array(s * 2))
      this.newer = grown(this.newer, new Int32Array(s * 2))
    }
    return s
  }

  /** Appends slot `s` as the newest. */
  private link(s: number): void {
    this.older[s] = this.newest
    this.newer[s] = NONE
    if (this.newest === NONE) this.oldest = s
    else this.newer[this.newest] = s
    this.newest = s
  }

  private unlink(s: number): void {
    const o = this.older[s]
    const n = this.newer[s]
    if (o === NONE) this.oldest = n
    else this.newer[o] = n
    if (n === NONE) this.newest = o
    else this.older[n] = o
  }

  private touch(s: number): void {
    if (s === this.newest) return
    this.unlink(s)
    this.link(s)
  }
}

function checkSize(bytes: number): void {
  if (typeof bytes !== 'number' || !(bytes >= 0) || bytes === Infinity) {
    throw new RobotsRangeError('ERR_RANGE', `an entry's size must be a finite number >= 0, got ${describeValue(bytes)}`)
  }
}

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from)
  return to
}
