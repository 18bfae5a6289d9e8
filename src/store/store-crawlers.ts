/**
 * {@link StoreCrawlers}: a crawler set over a `RobotsStore` (`store.crawlers([...])`):
 * per URL, its entry's crawler set (compiled once per entry, kept in the
 * store's matcher LRU) judges every crawler from one look-up and one path
 * start. Answers per crawler as `store.isAllowed(url, crawler)` /
 * `store.explain` give them alone.
 */
import { asBytes, checkOpened, describeValue, OPENED, RobotsInputError, RobotsRangeError } from '../errors.js'
import type { Explanation } from '../match/matcher.js'
import type { CrawlerSet, CrawlerVerdict } from '../robots/crawler-set.js'
import { UrlScan } from '../url/url-scan-record.js'
import type { EntryId, StoreSource } from './store-types.js'

/** What `StoreCrawlers.explain` gives per crawler: its explanation, and the entry that answered (as `RobotsStore.explain`). */
export interface StoreCrawlerExplanation extends Explanation {
  /** `robots`, an outcome (`unavailable`, `unreachable`), or `none` (no entry: allowed). */
  readonly source: StoreSource
  /** The key of the entry that answered, or null. */
  readonly key: string | null
}

/** What a StoreCrawlers reads of its store (given by the store: no import of it here). */
export interface StoreCrawlersDoor {
  lookupScan(scan: UrlScan): EntryId | -1
  entrySet(id: EntryId): CrawlerSet
  entrySource(id: EntryId): StoreSource
  entryKey(id: EntryId): string
}

let construct: (list: readonly (readonly string[])[], door: StoreCrawlersDoor) => StoreCrawlers

/**
 * Several crawlers judged together over a store's entries: made once by
 * `store.crawlers([...])` and kept. Per URL: one scan, one look-up, and
 * the entry's crawler set (a `CrawlerSet`, compiled on first use, kept in
 * the store's LRU of compiled matchers under `matcherBudget`) judges every
 * crawler. A URL whose origin and host have no entry is allowed for every
 * crawler (`line * 2 + 1` = 1); an `unavailable` entry allows all, an
 * `unreachable` one disallows all, as the store's single-crawler calls
 * answer them. URLs must be absolute (a path is a RobotsInputError).
 */
export class StoreCrawlers {
  /** The crawlers' tokens, in the order given. */
  readonly crawlers: readonly (readonly string[])[]
  /** Number of crawlers. */
  readonly size: number
  private readonly door: StoreCrawlersDoor
  private readonly scan = new UrlScan()

  static {
    construct = (list, door) => new StoreCrawlers(OPENED, list, door)
  }

  private constructor(key: typeof OPENED, list: readonly (readonly string[])[], door: StoreCrawlersDoor) {
    checkOpened(key, 'StoreCrawlers')
    this.crawlers = list
    this.size = list.length
    this.door = door
  }

  /**
   * Every crawler's verdict for `url` (a string, a `URL` or bytes: an
   * absolute URL) into `out` (an Int32Array of at least `size`; a new one
   * when absent): `line * 2 + (allowed ? 1 : 0)` per crawler, as
   * `store.matcher(id, crawler).matchScan(scan)` gives it.
   */
  match(url: string | URL | Uint8Array, out?: Int32Array): Int32Array {
    this.scanOf(url)
    return this.matchScanned(this.scan, out)
  }

  /** {@link match} of the URL `scan` scanned last (the batch form: no second pass over the URL). */
  matchScan(scan: UrlScan, out?: Int32Array): Int32Array {
    return this.matchScanned(scan, out)
  }

  /** Whether each crawler may fetch `url` (as {@link match}), a new array. */
  isAllowed(url: string | URL | Uint8Array): boolean[] {
    return Array.from(this.match(url), (c) => (c & 1) === 1)
  }

  /** Each crawler's verdict and deciding line for `url` (as {@link match}, unpacked), a new array. */
  check(url: string | URL | Uint8Array): CrawlerVerdict[] {
    return Array.from(this.match(url), (c) => ({ allowed: (c & 1) === 1, line: c >>> 1 }))
  }

  /** Each crawler's verdict, deciding rule and the entry that answered, a new array (the slower path). */
  explain(url: string | URL | Uint8Array): StoreCrawlerExplanation[] {
    const id = this.door.lookupScan(this.scanOf(url))
    if (id === -1) return this.crawlers.map(() => ({ allowed: true, rule: null, source: 'none' as const, key: null }))
    const source = this.door.entrySource(id)
    const key = this.door.entryKey(id)
    if (source !== 'robots') return this.crawlers.map(() => ({ allowed: source === 'unavailable', rule: null, source, key }))
    return this.door.entrySet(id).explain(url).map((e) => ({ allowed: e.allowed, rule: e.rule, source, key }))
  }

  /** The crawler set of entry `id` (compiled on first use, kept in the store's LRU). An id that is not an entry is a RobotsRangeError (ERR_RANGE). */
  forEntry(id: EntryId): CrawlerSet {
    return this.door.entrySet(id)
  }

  private matchScanned(scan: UrlScan, out: Int32Array | undefined): Int32Array {
    const id = this.door.lookupScan(scan)
    if (id !== -1) return this.door.entrySet(id).matchScan(scan, out)
    if (out === undefined) out = new Int32Array(this.size)
    else if (!(out instanceof Int32Array)) throw new RobotsInputError(`StoreCrawlers.match: out must be an Int32Array, got ${describeValue(out)}`)
    else if (out.length < this.size) throw new RobotsRangeError('ERR_CAPACITY', `StoreCrawlers.match: out has room for ${out.length} crawlers, the set has ${this.size}`)
    // No entry: every crawler allowed, no rule.
    out.fill(1, 0, this.size)
    return out
  }

  /** Scans `url` with this object's own UrlScan. */
  private scanOf(url: unknown): UrlScan {
    const scan = this.scan
    if (typeof url === 'string') scan.scanString(url)
    else if (asBytes(url) !== undefined) scan.scan(url as Uint8Array)
    else if (typeof URL === 'function' && url instanceof URL) scan.scanString(url.href)
    else throw new RobotsInputError(`a URL must be a string, a URL or a Uint8Array, got ${describeValue(url)}`)
    return scan
  }
}

/** The StoreCrawlers of `list` over a store (its door). */
export function makeStoreCrawlers(list: readonly (readonly string[])[], door: StoreCrawlersDoor): StoreCrawlers {
  return construct(list, door)
}
