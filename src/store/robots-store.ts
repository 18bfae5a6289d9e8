/**
 * `RobotsStore`: the parsed robots.txt of millions of origins, for crawl
 * frontiers and bulk jobs: entries keyed by origin or bare host
 * (store/origin-keys.ts), their forms in arenas (store/arena.ts), a hash
 * index (store/key-index.ts), compiled matchers in a byte-budget LRU, and
 * bundles (store/bundle-codec.ts). The class comment has the design.
 */
import { AgentMatcher, codeFrom, codeFromString } from '../match/matcher.js'
import { checkEngineOptions, ENGINE_OPTION_NAMES, type EngineOptions } from '../match/engine-options.js'
import { allowAll, disallowAll } from '../robots/fallback.js'
import { compileMatcher, describeNotRobots, engineOptionsOf, Robots, robotsOfForm, rulesOf } from '../robots/robots.js'
import { CompactRules, nameIndexIn } from '../rules/compact-rules.js'
import { RobotsBuilder } from '../rules/builder.js'
import { checkForm } from '../rules/serialise.js'
import { parseWith } from '../parse/parser.js'
import { checkLimit } from '../parse/reader.js'
import { nameSelection, tokensSelection, type SelectionKey } from '../robots/agent-cache.js'
import { BYTE_LRU_ENTRY_BYTES, ByteLru } from '../byte-lru.js'
import { MAP_BYTES, MAP_ENTRY_BYTES, objectBytes, stringBytes, TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES, typedArrayBytes } from '../memory.js'
import { asBytes, describeValue, isStrings, optionsArgument, RobotsInputError, RobotsRangeError } from '../errors.js'
import { Arena } from './arena.js'
import { Entry, EntryKind, UNCHECKED } from './entry.js'
import { bundleSize, encodeBundle, loadBundle, type BundleSink, type EntryVisitor } from './bundle-codec.js'
import { KeyIndex, type KeySource } from './key-index.js'
import { keyBytes, MAX_KEY_BYTES, slowOrigin, storeKey, type KeyParts } from './origin-keys.js'
import { hostHash, httpSchemeHash, keyHash, originHash } from '../url/keyed-hash.js'
import { PortCode, UrlField, UrlFlag } from '../url/url-scan.js'
import { checkedRecord, UrlScan } from '../url/url-scan-record.js'
import { quoteHost } from '../url/host.js'
import { SCAN_END, scanHashed, scanOffsets, scanSource } from '../url/scan-access.js'
import type { PathStart } from '../url/url-path.js'
import type { EntryId, StoreExplanation, StoreOutcome, StoreSource } from './store-types.js'
import { makeStoreCrawlers, type StoreCrawlers } from './store-crawlers.js'
import { crawlerList, makeCrawlerSet, uniformCrawlerSet, type Crawler, type CrawlerSet } from '../robots/crawler-set.js'
import { decodeFetchInfo, encodeFetchInfo, type StoreFetchInfo } from './fetch-info.js'

/** Options of a {@link RobotsStore}. */
export interface RobotsStoreOptions {
  /**
   * Most bytes of rules the store holds: its arenas (keys and forms), entry
   * table and index, and the forms `setRobots` shares (each once, with what
   * sharing costs). A `set`,
   * `setRobots` or `setOutcome` that would pass it (the tables as they would
   * grow; a replaced entry's bytes given back), or a bundle that does, is a
   * RobotsRangeError (ERR_BUDGET) and changes nothing. Default: no limit.
   */
  budget?: number
  /** Bytes of compiled matchers kept (an LRU over all entries); default 64 MiB. */
  matcherBudget?: number
  /** Options of every compiled matcher (`EngineOptions`: its own `matcherBudget`, ...), passed on as given. */
  matcherOptions?: EngineOptions
  /** Parsing limit of `set` bodies; default and minimum 512,000 (RFC 9309 §2.5). */
  limit?: number
}

/** The names of `RobotsStoreOptions`, each read once by the constructor. */
const STORE_OPTION_NAMES: readonly string[] = ['budget', 'matcherBudget', 'matcherOptions', 'limit']

export type { EntryId, StoreOutcome, StoreSource, StoreExplanation } from './store-types.js'

/** Figures of a store (see {@link RobotsStore.stats}). */
export interface RobotsStoreStats {
  /** Entries. */
  entries: number
  /** Bytes of live keys and forms in the arenas. */
  liveBytes: number
  /** Bytes of holes left by deleted and replaced entries. */
  garbageBytes: number
  /** Compiled matchers kept (in the LRU, and one too large for it), and their bytes. */
  matchers: number
  matcherBytes: number
  /** Matchers compiled, and dropped to stay within `matcherBudget`, so far. */
  compiles: number
  evictions: number
}

/** Default `matcherBudget` of a store: 64 MiB. */
export const DEFAULT_STORE_MATCHER_BUDGET = 64 * 1024 * 1024

/** The start of an http(s) origin key. */
const HTTP_PREFIX = new TextEncoder().encode('http://')
const HTTPS_PREFIX = new TextEncoder().encode('https://')

/** Bytes an origin key adds to its host at most: `https://` and `:65535`. */
const MAX_ORIGIN_EXTRA = 14

/** Compaction runs when holes pass half of the arenas and this many bytes. */
const COMPACT_MIN_GARBAGE = 1024 * 1024

/** Selection indices below this make numeric matcher keys (`id * 2^21 + selection + 1`); others a string key. */
const NUMERIC_SELECTIONS = 2 ** 21 - 1

/** A compiled matcher in the LRU, with the generation of the entry it was compiled for and its size when last measured. */
interface Compiled {
  matcher: AgentMatcher
  gen: number
  size: number
}
const COMPILED_FIELDS = 3

/** An entry's crawler set in the LRU (key `s<handle>:<id>`), as {@link Compiled} is for a matcher. */
interface CompiledSet {
  set: CrawlerSet
  gen: number
  size: number
}

/** What the store keeps of a `StoreCrawlers` handle: its number (in its sets' LRU keys), its crawlers, and its stand-in sets. */
interface SetHandle {
  readonly key: number
  readonly list: readonly (readonly string[])[]
  allowAll?: CrawlerSet
  disallowAll?: CrawlerSet
}
/** What an entry that shares a form costs besides it: its place in `shared`. */
const SHARER_BYTES = MAP_ENTRY_BYTES

/** What a form shared by entries costs, once: its bytes, its place in `sharers`, and the view of it when it is cut from a slab. */
function sharedFormBytes(form: Uint8Array): number {
  return form.byteLength + MAP_ENTRY_BYTES + (form.byteLength === form.buffer.byteLength ? 0 : TYPED_VIEW_BYTES)
}

/**
 * What a store holds for `key`'s entry besides a shared form (0 when there is
 * none): its key and fetch info in the arena, its slots in the entry table
 * and the index with the room they keep to grow, and a shared form's places
 * in the maps. For a cache that counts its entries itself (RobotsCache).
 */
export let entryOverheadOf: (store: RobotsStore, key: string) => number

/** Fields of a RobotsStore, for its memory cost. */
const STORE_FIELDS = 34

/** Crawler lists whose handle numbers a store remembers (then it forgets them all: their sets age out of the LRU). */
const MAX_SET_KEYS = 256

/** The first char of a crawler set's LRU key (`s<handle>:<id>`); a matcher's string keys start with a digit. */
const SET_KEY_MARK = 115

/** A key location's bits for the key's length (the chunk is above them): see keyLoc. */
const KEY_LOC_SHIFT = 11
const KEY_LOC_LENGTH = (1 << KEY_LOC_SHIFT) - 1

/**
 * What the index keeps of where a key lies, besides its offset: the chunk
 * and the key's length in one int, so that a look-up reads the slot and the
 * key, not the entry's record; -1 (read the record) when they do not fit.
 */
function keyLoc(chunk: number, keyLength: number): number {
  return keyLength <= KEY_LOC_LENGTH && chunk < 1 << (31 - KEY_LOC_SHIFT) ? (chunk << KEY_LOC_SHIFT) | keyLength : -1
}

/** A hot-cache hit refreshes the LRU's order and the matcher's size once in this many hits (a power of two). */
const HOT_REFRESH = 256

/**
 * The parsed robots.txt of millions of origins, for crawl frontiers and bulk
 * jobs (docs/store.md has the guide).
 *
 * - **Entries.** One per key (an origin or a bare host): a robots.txt (its
 *   compact form), or an outcome without a file: `unavailable` (allow all)
 *   or `unreachable` (disallow all). Entry ids are small integers, stable
 *   while the entry lives.
 * - **Arenas.** Keys and forms live back to back in a few large chunks, not
 *   in one buffer per origin; a deleted or replaced entry leaves a hole that
 *   compaction reclaims once holes are more than half of the arenas. A form
 *   given with `setRobots` is shared with that `Robots`, not copied.
 * - **Index.** An open-addressing hash table over the keys, hashed with the
 *   process's keyed hash (src/url/keyed-hash.ts: names cannot be made to
 *   collide offline; bundles hold keys, not slots). A URL is looked up by its
 *   origin, then by its bare host, from one scan (src/url/url-scan.ts): an
 *   http(s) URL with a plain host is probed without a key made; a URL whose
 *   origin is not set answers allow-all (`explain` says `source: 'none'`).
 * - **Matchers.** Compiled on first use per (entry, selection: which of the
 *   entry's user-agent names the agent's tokens equal) and kept in a
 *   byte-budget LRU (`matcherBudget`), so hot hosts stay compiled and cold
 *   ones drop back to their form; a hot entry's matcher for the agent used
 *   last is found in one probe of a per-entry hot cache, and its size is
 *   measured again (and its LRU place refreshed) once in HOT_REFRESH uses.
 *   The last matcher too large for the budget on its own is kept aside, so
 *   that an entry used again and again does not compile each time.
 * - **Fetch info.** An entry may keep what is known of the fetch behind it
 *   ({@link StoreFetchInfo}: outcome, status, times, validators), as a
 *   record after its form; setting an entry without it drops the old one.
 * - **Bundles.** `toBytes()` writes the entries as one buffer and
 *   `RobotsStore.fromBytes()` loads it without parsing robots.txt again,
 *   keeping the buffer (zero copy).
 */
export class RobotsStore {
  private arena = new Arena()
  /** The entry table: `entries[id * Entry.Width + field]`, fields named by `Entry` (store/entry.ts); the kind field holds an `EntryKind` and the `UNCHECKED` bit. */
  private entries = new Int32Array(8 * Entry.Width)
  /** Ids handed out so far (the high-water mark); free ids are chained in `free`. */
  private idCount = 0
  private free: number[] = []
  private count = 0
  private readonly index: KeyIndex
  /** Forms shared with Robots objects (EntryKind.Shared), by id. */
  private readonly shared = new Map<number, Uint8Array>()
  /** The entries that share each distinct form, and the bytes of those forms (the budget counts a form once). */
  private readonly sharers = new Map<Uint8Array, number>()
  private sharedBytes = 0
  /**
   * The form of each Robots set here, as one array: a Robots whose form is
   * cut from a shared slab gives a new view of it on every read, which
   * `sharers` would count as another form.
   */
  private readonly formViews = new WeakMap<Robots, Uint8Array>()
  private readonly matchers: ByteLru<number | string, Compiled | CompiledSet>
  private readonly matcherOptions: EngineOptions
  private readonly limit: number
  private readonly budget: number
  private compiles = 0
  /** The last matcher that did not fit in `matcherBudget` on its own, and its key (see `matcher`). */
  private spillKey: number | string = -1
  private spill: Compiled | undefined
  /** Outcome matchers (allow all, disallow all), one per store. */
  private allowAllMatcher: AgentMatcher | undefined
  private disallowAllMatcher: AgentMatcher | undefined
  /** Entries keyed by an origin and by a bare host (a look-up probes only the kinds the store holds). */
  private originKeys = 0
  private hostKeys = 0
  /** The scan of the URL looked up last by `lookup`; its path start serves the matcher. */
  private readonly scanner = new UrlScan()
  /** The scan record being probed for (the URL's, from `scanner` or the caller's UrlScan), what it scanned, and its origin's port code, for the probe tests. */
  private probe: Int32Array = new Int32Array(UrlField.Size)
  private probeBytes: Uint8Array = new Uint8Array(0)
  private probeText = ''
  private probeIsText = false
  private probePort = 0
  private probeHttps = false
  private readonly originTest = (id: number, at: number, loc: number): boolean => this.originEquals(id, at, loc)
  private readonly hostTest = (id: number, at: number, loc: number): boolean => this.hostEquals(id, at, loc)
  /**
   * The hot matcher cache: per entry id, its compiled matcher for the agent
   * argument used last, `hotAgent`; what the LRU holds for that agent, so
   * that a hot origin's look-up skips the selection, the LRU and the
   * matcher's size (see `matcher`). Setting or deleting an entry clears its
   * place here.
   */
  private hotAgent: string | readonly string[] | undefined
  /** The tokens of `hotAgent` when it is an array, as they were then (an array changed since is another agent). */
  private hotTokens: readonly string[] = NO_TOKENS
  private hot: (AgentMatcher | undefined)[] = []
  private hotHits = 0
  /** The same for crawler sets: the handle whose entries' sets `hotSets` holds (see `entrySet`). */
  private hotSetHandle = -1
  private hotSets: (CrawlerSet | undefined)[] = []
  /** Handle numbers given so far (they key their sets in the LRU), and the number of each crawler list (bounded: MAX_SET_KEYS). */
  private setHandles = 0
  private readonly setKeys = new Map<string, number>()
  /** The last crawler set too large for the budget on its own (as `spill`). */
  private spillSetKey = ''
  private spillSet: CompiledSet | undefined

  /**
   * Options are checked here: a budget that is not a number >= 0 is a
   * RobotsRangeError (ERR_BUDGET), a limit below 500 KiB a RobotsLimitError
   * (ERR_LIMIT), bad matcher options as for `parseRobots`.
   */
  constructor(options: RobotsStoreOptions = {}) {
    const o = optionsArgument<RobotsStoreOptions>(options, 'RobotsStore', STORE_OPTION_NAMES)
    for (const k of ['budget', 'matcherBudget'] as const) {
      const v = o[k]
      if (v !== undefined && !(typeof v === 'number' && v >= 0)) throw new RobotsRangeError('ERR_BUDGET', `RobotsStore: ${k} must be a number >= 0, got ${describeValue(v)}`)
    }
    const matcherOptions = optionsArgument<EngineOptions>(o.matcherOptions, 'RobotsStore matcherOptions', ENGINE_OPTION_NAMES)
    checkEngineOptions(matcherOptions)
    this.matcherOptions = engineOptionsOf(matcherOptions)
    this.limit = checkLimit(o.limit)
    this.budget = o.budget ?? Infinity
    // A matcher dropped from the LRU leaves the hot cache too, so memory stays within the budget.
    this.matchers = new ByteLru({ maxBytes: o.matcherBudget ?? DEFAULT_STORE_MATCHER_BUDGET, onEvict: (key, c) => this.dropHot(key, c) })
    const source: KeySource = {
      keyEquals: (id, at, loc, bytes, start, end) => this.keyEquals(id, at, loc, bytes, start, end),
    }
    this.index = new KeyIndex(source)
  }

  /** Entries held. */
  get size(): number {
    return this.count
  }

  /**
   * Parses `body` (the robots.txt as served: bytes, or a string taken as
   * UTF-8) and stores it under `key`: an origin or any URL of the site
   * (reduced to its origin), or a bare host (every scheme and port of it).
   * Replaces what the key held. `info`: what is known of the fetch behind
   * it (a bad one is a RobotsInputError, ERR_INPUT, and changes nothing).
   */
  set(key: string | URL, body: string | Uint8Array, info?: StoreFetchInfo): void {
    const k = storeKey(key, 'RobotsStore.set')
    const record = infoRecord(info)
    const builder = new RobotsBuilder()
    const reader = parseWith(body, builder, this.limit, builder)
    const size = builder.complete(reader)
    this.put(k, EntryKind.Robots, size, (chunk, at) => builder.writeTo(chunk, at), record)
  }

  /** Stores a parsed robots.txt under `key`, sharing its form (forms never change) instead of copying it; `info` as for `set`. */
  setRobots(key: string | URL, robots: Robots, info?: StoreFetchInfo): void {
    if (!(robots instanceof Robots)) throw new RobotsInputError(`RobotsStore.setRobots takes a Robots of this build, got ${describeNotRobots(robots)}`)
    const k = storeKey(key, 'RobotsStore.setRobots')
    const record = infoRecord(info)
    let form = this.formViews.get(robots)
    if (form === undefined) this.formViews.set(robots, (form = rulesOf(robots).bytes))
    const id = this.put(k, EntryKind.Shared, 0, () => {}, record, form)
    this.shared.set(id, form)
    const n = this.sharers.get(form) ?? 0
    if (n === 0) this.sharedBytes += sharedFormBytes(form)
    this.sharers.set(form, n + 1)
  }

  /**
   * Records an outcome without a file for `key`: `unavailable` (the site
   * has no robots.txt, e.g. a 4xx: allow all) or `unreachable` (5xx or a
   * network error: disallow all), RFC 9309 §2.3.1.3–4; `info` as for `set`.
   */
  setOutcome(key: string | URL, outcome: StoreOutcome, info?: StoreFetchInfo): void {
    const k = storeKey(key, 'RobotsStore.setOutcome')
    if (outcome !== 'unavailable' && outcome !== 'unreachable') {
      throw new RobotsInputError(`RobotsStore.setOutcome: outcome must be 'unavailable' or 'unreachable', got ${describeValue(outcome)}`)
    }
    const record = infoRecord(info)
    this.put(k, outcome === 'unavailable' ? EntryKind.Unavailable : EntryKind.Unreachable, 0, () => {}, record)
  }

  /** What is known of the fetch behind `key`'s entry (as given to `set`, `setRobots`, `setOutcome` or loaded from a bundle), or undefined. */
  fetchInfo(key: string | URL): StoreFetchInfo | undefined {
    const id = this.idOfKey(storeKey(key, 'RobotsStore.fetchInfo'))
    return id === -1 ? undefined : this.entryFetchInfo(id)
  }

  /** {@link fetchInfo} of entry `id` (ERR_RANGE for a bad id). */
  entryFetchInfo(id: EntryId): StoreFetchInfo | undefined {
    this.checkId(id)
    const e = this.entries
    const base = id * Entry.Width
    if (e[base + Entry.InfoLength] === 0) return undefined
    return decodeFetchInfo(this.arena.chunks[e[base + Entry.Chunk]], e[base + Entry.Offset] + e[base + Entry.KeyLength] + e[base + Entry.FormLength])
  }

  /** Whether `key` (an origin, a URL of it, or a bare host; as for `set`) has an entry of its own. */
  has(key: string | URL): boolean {
    return this.idOfKey(storeKey(key, 'RobotsStore.has')) >= 0
  }

  /** Removes `key`'s entry; false when it had none. */
  delete(key: string | URL): boolean {
    const id = this.idOfKey(storeKey(key, 'RobotsStore.delete'))
    if (id < 0) return false
    this.remove(id)
    this.maybeCompact()
    return true
  }

  /**
   * The robots.txt stored under `key` as a `Robots` (its own copy of the
   * form: sitemaps, crawl-delay, diagnostics, ...), or undefined when the
   * key holds an outcome or nothing.
   */
  get(key: string | URL): Robots | undefined {
    const id = this.idOfKey(storeKey(key, 'RobotsStore.get'))
    if (id < 0) return undefined
    const kind = this.kindChecked(id)
    if (kind === EntryKind.Shared) return robotsOfForm(this.shared.get(id)!, this.matcherOptions)
    if (kind !== EntryKind.Robots) return undefined
    return robotsOfForm(this.formOf(id).slice(), this.matcherOptions)
  }

  /** What `key` holds: `robots`, an outcome, or `none`. */
  source(key: string | URL): StoreSource {
    const id = this.idOfKey(storeKey(key, 'RobotsStore.source'))
    return id === -1 ? 'none' : this.entrySource(id)
  }

  /**
   * True when the crawler (`agent`: a product token, or an array of them)
   * may fetch `url` (a string, a `URL` or bytes: an absolute URL), as
   * `parseRobots(body).agent(agent).isAllowed(url)` would answer for the
   * entry of the URL's origin, else of its bare host; allowed when neither
   * is set. A URL without a host is a RobotsInputError (ERR_INPUT).
   */
  isAllowed(url: string | URL | Uint8Array, agent: string | readonly string[]): boolean {
    const id = this.lookup(url)
    if (id === -1) {
      checkAgent(agent)
      return true
    }
    // The look-up's scan gave the path start: the matcher does not look for it again.
    const m = this.matcher(id, agent)
    const rec = scanOffsets(this.scanner)!
    const src = scanSource(this.scanner)
    return ((typeof src === 'string' ? codeFromString(m, src, rec[UrlField.PathStart] as PathStart) : codeFrom(m, src, rec[UrlField.PathStart] as PathStart, rec[SCAN_END])) & 1) === 1
  }

  /** The verdict, the deciding rule and the entry that answered (see {@link StoreExplanation}). */
  explain(url: string | URL | Uint8Array, agent: string | readonly string[]): StoreExplanation {
    const id = this.lookup(url)
    if (id === -1) {
      checkAgent(agent)
      return { allowed: true, rule: null, source: 'none', key: null }
    }
    const source = this.entrySource(id)
    const key = this.entryKey(id)
    if (source !== 'robots') {
      checkAgent(agent)
      return { allowed: source === 'unavailable', rule: null, source, key }
    }
    const e = this.matcher(id, agent).explain(url)
    return { allowed: e.allowed, rule: e.rule, source, key }
  }

  /**
   * The entry id for `url` (a string, a `URL` or bytes: an absolute URL):
   * its origin's entry, else its bare host's, else -1. For callers that
   * judge many URLs: `store.matcher(id, agent)` then gives the matcher. A
   * URL without a host is a RobotsInputError (ERR_INPUT).
   */
  lookup(url: string | URL | Uint8Array): EntryId | -1 {
    const scan = this.scanner
    if (typeof url === 'string') scan.scanString(url)
    else if (asBytes(url) !== undefined) scan.scan(url as Uint8Array) // any realm's: the scan only indexes it
    else if (typeof URL === 'function' && url instanceof URL) scan.scanString(url.href)
    else throw new RobotsInputError(`a URL must be a string, a URL or a Uint8Array, got ${describeValue(url)}`)
    return this.lookupScanned(scan)
  }

  /**
   * {@link lookup} of the URL `scan` scanned last (a UrlScan: the batch
   * form, without a second pass over the URL): its origin's entry, else its
   * bare host's, else -1. A plain http(s) host is looked up from the scan
   * alone; any other URL by its origin as the WHATWG URL parser gives it. A
   * URL without a host (or one the parser refuses) is a RobotsInputError
   * (ERR_INPUT), as is anything but a UrlScan that has scanned a URL.
   */
  lookupScan(scan: UrlScan): EntryId | -1 {
    checkedRecord(scan, 'RobotsStore.lookupScan', false)
    return this.lookupScanned(scan)
  }

  /** `lookup` of a scanned URL. */
  private lookupScanned(scan: UrlScan): EntryId | -1 {
    const rec = scanHashed(scan)!
    const source = scanSource(scan)
    const flags = rec[UrlField.Flags]
    // The fast path: an http(s) URL whose host is a plain name is looked up from its scan, no string made.
    if (
      rec[UrlField.HostStart] >= 0 &&
      (flags & UrlFlag.PlainHost) !== 0 &&
      // The reference's path starts after the host (-1, none, is past any host as unsigned).
      rec[UrlField.PathStart] >>> 1 >= rec[UrlField.HostEnd] &&
      (flags & (UrlFlag.Http | UrlFlag.Https)) !== 0 &&
      rec[UrlField.Port] !== PortCode.Bad &&
      rec[UrlField.HostEnd] - rec[UrlField.HostStart] <= MAX_KEY_BYTES - MAX_ORIGIN_EXTRA
    ) {
      this.setProbe(rec, source)
      const https = (flags & UrlFlag.Https) !== 0
      this.probeHttps = https
      const port = rec[UrlField.Port]
      this.probePort = port === PortCode.None || port === (https ? 443 : 80) ? 0 : port + 1
      if (this.originKeys > 0) {
        const id = this.index.probe(originHash(rec[UrlField.HostHash], httpSchemeHash(https), this.probePort), this.originTest)
        if (id >= 0) return id as EntryId
      }
      return this.hostKeys > 0 ? (this.index.probe(rec[UrlField.HostHash], this.hostTest) as EntryId | -1) : -1
    }
    // Any other URL: its origin as the WHATWG URL parser gives it; an empty authority (`http:///x`) names no host, whatever slashes the parser skips.
    const start = rec[UrlField.Start]
    const end = rec[SCAN_END]
    // Not for an empty range: a view of a detached buffer (length 0) cannot be sliced.
    const url = typeof source === 'string' ? source : start < end && end <= source.length ? source.subarray(start, end) : EMPTY
    const parts = rec[UrlField.HostStart] < 0 && rec[UrlField.SchemeEnd] >= 0 ? null : slowOrigin(url)
    if (parts === null || hostInPath(rec, url, parts.key)) {
      const shown = typeof url === 'string' ? quoteHost(url) : describeValue(url)
      throw new RobotsInputError(`RobotsStore: ${shown} is not an absolute URL with a host${parts === null ? refusal(scan, rec) : ' (its host is in the path the reference matches)'}`)
    }
    const key = keyBytes(parts.key)
    // A key longer than a key may be is no entry's (an origin key of a long host may be, while its bare host is one).
    const id = this.originKeys > 0 && key.length <= MAX_KEY_BYTES ? this.index.find(key, 0, key.length) : -1
    if (id >= 0 || this.hostKeys === 0 || parts.hostEnd - parts.hostStart > MAX_KEY_BYTES) return id as EntryId | -1
    return this.index.find(key, parts.hostStart, parts.hostEnd, hostHash(key, parts.hostStart, parts.hostEnd)) as EntryId | -1
  }

  /**
   * The entry id of the bare host of `scan` (a UrlScan of a URL, or of a
   * host column: `UrlScan.scanHost`), compared ASCII-case-insensitively with
   * the stored hosts, or -1: no origin key is tried. A plain host is looked
   * up from the scan's bytes and hash; any other as the WHATWG URL parser
   * gives it (`scan.canonicalHost()`), and one the parser refuses is a
   * RobotsInputError (ERR_INPUT) saying why, as is anything but a UrlScan
   * that has scanned a host.
   */
  lookupHost(scan: UrlScan): EntryId | -1 {
    const rec = checkedRecord(scan, 'RobotsStore.lookupHost', true)
    const source = scanSource(scan)
    const hs = rec[UrlField.HostStart]
    if (hs < 0) throw new RobotsInputError('RobotsStore.lookupHost: the UrlScan has no host')
    if ((rec[UrlField.Flags] & UrlFlag.PlainHost) === 0) {
      // Not plain: the host as the WHATWG URL parser gives it (once per scan), or refused.
      let host: string
      try {
        host = scan.canonicalHost()!
      } catch (err) {
        if (err instanceof RobotsInputError) throw new RobotsInputError(err.message.replace(/^UrlScan\.canonicalHost/, 'RobotsStore.lookupHost'))
        throw err
      }
      if (this.hostKeys === 0) return -1
      const key = keyBytes(host)
      return this.index.find(key, 0, key.length) as EntryId | -1
    }
    if (this.hostKeys === 0) return -1
    const he = rec[UrlField.HostEnd]
    if (typeof source === 'string') {
      const host = keyBytes(source.slice(hs, he))
      return this.index.find(host, 0, host.length) as EntryId | -1
    }
    // The scan's hash is the store's hash of a bare-host key.
    return (he <= source.length ? this.index.find(source, hs, he, rec[UrlField.HostHash]) : -1) as EntryId | -1
  }

  /** Makes `rec` (over `source`) the record the probe tests read. */
  private setProbe(rec: Int32Array, source: Uint8Array | string): void {
    this.probe = rec
    if (typeof source === 'string') {
      this.probeText = source
      this.probeIsText = true
    } else {
      this.probeBytes = source
      this.probeIsText = false
    }
  }

  /**
   * The matcher of entry `id` for a crawler (`agent`: a product token or an
   * array of them). A robots.txt entry's matcher is compiled on first use
   * and kept in the store's LRU; an outcome's is allow-all or
   * disallow-all. An id that is not an entry is a RobotsRangeError
   * (ERR_RANGE).
   *
   * A hot entry costs one probe of the hot cache: its matcher for the agent
   * argument used last (the same string, or the same array object holding
   * the same tokens), while the entry is unchanged. One hit in HOT_REFRESH takes the full path
   * (selection, LRU order, the matcher's size measured again: matchers grow
   * as they compile states); a matcher the LRU drops leaves the hot cache.
   */
  matcher(id: EntryId, agent: string | readonly string[]): AgentMatcher {
    // Not for `undefined` before a first agent (hotAgent's start): that is checked below.
    const same = agent === this.hotAgent && (typeof agent === 'string' || (agent !== undefined && sameTokens(agent, this.hotTokens)))
    // A number first: `hot['__proto__']` would be the array's prototype.
    if (same && typeof id === 'number') {
      const m = this.hot[id]
      if (m !== undefined && (++this.hotHits & (HOT_REFRESH - 1)) !== 0) return m
    }
    if (!same) {
      if (typeof agent !== 'string') checkAgent(agent)
      this.hotAgent = agent
      this.hotTokens = typeof agent === 'string' ? NO_TOKENS : agent.slice()
      this.hot = []
    }
    return this.compiledMatcher(id, agent)
  }

  /** `matcher` without the hot cache: the selection, then the LRU (or a compile); the result goes into the hot cache. */
  private compiledMatcher(id: number, agent: string | readonly string[]): AgentMatcher {
    const kind = this.kindChecked(id)
    if (kind === EntryKind.Unavailable) return this.outcomeMatcher(true, agent)
    if (kind === EntryKind.Unreachable) return this.outcomeMatcher(false, agent)
    // The selection, read from the form where it lies (no view made on a hit).
    const e = this.entries
    const base = id * Entry.Width
    const shared = kind === EntryKind.Shared
    const data = shared ? this.shared.get(id)! : this.arena.chunks[e[base + Entry.Chunk]]
    const formAt = shared ? 0 : e[base + Entry.Offset] + e[base + Entry.KeyLength]
    let sel: SelectionKey
    if (typeof agent === 'string') sel = nameSelection(nameIndexIn(data, formAt, agent))
    else {
      checkAgent(agent)
      sel = agent.length === 1 ? nameSelection(nameIndexIn(data, formAt, agent[0])) : tokensSelection(new CompactRules(this.formOf(id)), agent)
    }
    const key = typeof sel === 'number' && sel < NUMERIC_SELECTIONS ? id * (NUMERIC_SELECTIONS + 1) + sel + 1 : `${id}:${sel}`
    const gen = e[base + Entry.Gen]
    const lru = this.matchers
    const hit = (lru.get(key) as Compiled | undefined) ?? (this.spillKey === key ? this.spill : undefined)
    if (hit !== undefined && hit.gen === gen) {
      // Re-measured on use (matchers grow as they compile states); the LRU is told only of a change.
      const size = hit.matcher.memoryUsage()
      if (size !== hit.size) {
        hit.size = size
        lru.resize(key, compiledBytes(key, size))
      }
      keep(this.hot, id, hit.matcher)
      return hit.matcher
    }
    const matcher = compileMatcher(new CompactRules(this.formOf(id)), typeof agent === 'string' ? [agent] : agent, this.matcherOptions)
    this.compiles++
    const size = matcher.memoryUsage()
    const compiled: Compiled = { matcher, gen, size }
    // A matcher too large for the whole budget is kept aside, alone: the next use of that entry does not compile again.
    keep(this.hot, id, matcher)
    if (lru.set(key, compiled, compiledBytes(key, size))) {
      if (this.spillKey === key) this.spill = undefined
    } else {
      if (this.spill !== undefined) this.dropHot(this.spillKey, this.spill)
      this.spillKey = key
      this.spill = compiled
    }
    return matcher
  }

  /**
   * Several crawlers judged together over the store's entries (a
   * `StoreCrawlers`): each crawler a product token or an array of them, each
   * answering as `isAllowed(url, crawler)` would alone. Make it once and
   * keep it: each entry's crawler set is compiled on first use and kept in
   * the LRU of compiled matchers (`matcherBudget`), so one look-up and one
   * path start serve every crawler. Anything but an array of crawlers is a
   * RobotsInputError (ERR_INPUT).
   */
  crawlers(crawlers: readonly Crawler[]): StoreCrawlers {
    const list = crawlerList(crawlers, 'RobotsStore.crawlers()')
    // The same crawlers again (a handle made per batch) share the entries' sets kept before.
    const name = JSON.stringify(list)
    let key = this.setKeys.get(name)
    if (key === undefined) {
      if (this.setKeys.size >= MAX_SET_KEYS) this.setKeys.clear()
      key = this.setHandles++
      this.setKeys.set(name, key)
    }
    const handle: SetHandle = { key, list }
    return makeStoreCrawlers(handle.list, {
      lookupScan: (scan) => this.lookupScan(scan),
      entrySet: (id) => this.entrySet(id, handle),
      entrySource: (id) => this.entrySource(id),
      entryKey: (id) => this.entryKey(id),
    })
  }

  /**
   * Entry `id`'s crawler set for `handle`: as `matcher` for one crawler,
   * through a hot cache per entry (for the handle used last), then the LRU,
   * else compiled (one matcher per distinct selection) and kept there.
   */
  private entrySet(id: number, handle: SetHandle): CrawlerSet {
    if (handle.key === this.hotSetHandle && typeof id === 'number') {
      const set = this.hotSets[id]
      if (set !== undefined && (++this.hotHits & (HOT_REFRESH - 1)) !== 0) return set
    } else {
      this.hotSetHandle = handle.key
      this.hotSets = []
    }
    const kind = this.kindChecked(id)
    if (kind === EntryKind.Unavailable) return (handle.allowAll ??= uniformCrawlerSet(handle.list, this.outcomeMatcher(true, '*')))
    if (kind === EntryKind.Unreachable) return (handle.disallowAll ??= uniformCrawlerSet(handle.list, this.outcomeMatcher(false, '*')))
    const key = `${String.fromCharCode(SET_KEY_MARK)}${handle.key}:${id}`
    const gen = this.entries[id * Entry.Width + Entry.Gen]
    const lru = this.matchers
    const hit = (lru.get(key) as CompiledSet | undefined) ?? (this.spillSetKey === key ? this.spillSet : undefined)
    if (hit !== undefined && hit.gen === gen) {
      const size = hit.set.memoryUsage()
      if (size !== hit.size) {
        hit.size = size
        lru.resize(key, compiledBytes(key, size))
      }
      keep(this.hotSets, id, hit.set)
      return hit.set
    }
    const rules = new CompactRules(this.formOf(id))
    const set = makeCrawlerSet(rules, handle.list, (tokens) => {
      this.compiles++
      return compileMatcher(rules, tokens, this.matcherOptions)
    })
    const size = set.memoryUsage()
    const compiled: CompiledSet = { set, gen, size }
    keep(this.hotSets, id, set)
    if (lru.set(key, compiled, compiledBytes(key, size))) {
      if (this.spillSetKey === key) this.spillSet = undefined
    } else {
      // Too large for the whole budget on its own: kept aside, alone (as a matcher is).
      if (this.spillSet !== undefined) this.dropHot(this.spillSetKey, this.spillSet)
      this.spillSetKey = key
      this.spillSet = compiled
    }
    return set
  }

  /** What entry `id` holds. */
  entrySource(id: EntryId): StoreSource {
    const kind = this.kindChecked(id)
    return kind === EntryKind.Unavailable ? 'unavailable' : kind === EntryKind.Unreachable ? 'unreachable' : 'robots'
  }

  /** The key of entry `id` (an origin or a bare host). */
  entryKey(id: EntryId): string {
    this.checkId(id)
    const e = this.entries
    const base = id * Entry.Width
    const chunk = this.arena.chunks[e[base + Entry.Chunk]]
    const at = e[base + Entry.Offset]
    return String.fromCharCode.apply(null, chunk.subarray(at, at + e[base + Entry.KeyLength]) as unknown as number[])
  }

  /**
   * Whether some entry is keyed by an origin (`scheme://host[:port]`) rather
   * than a bare host: a caller that looks URLs up by host alone
   * (`lookupHost`) needs `lookup` only then. Reads the key bytes, makes no
   * string, and checks no lazily loaded form.
   */
  hasOriginKeys(): boolean {
    const e = this.entries
    for (let id = 0; id < this.idCount; id++) {
      const base = id * Entry.Width
      if (e[base + Entry.Chunk] < 0) continue
      const chunk = this.arena.chunks[e[base + Entry.Chunk]]
      const at = e[base + Entry.Offset]
      // A bare host never holds a '/'; an origin always does.
      for (let i = at, end = at + e[base + Entry.KeyLength]; i < end; i++) if (chunk[i] === 0x2f) return true
    }
    return false
  }

  /**
   * Every key, in no particular order. While iterating, the store may change:
   * every entry there from start to end is given once; one set or deleted
   * meanwhile may or may not be.
   */
  *keys(): IterableIterator<string> {
    for (const id of this.ids()) yield this.entryKey(id)
  }

  /** Every entry's id, in no particular order (for the per-entry calls: `entrySource`, `entryKey`, `matcher`, …). */
  *ids(): IterableIterator<EntryId> {
    for (let id = 0; id < this.idCount; id++) if (this.entries[id * Entry.Width + Entry.Chunk] >= 0) yield id as EntryId
  }

  /**
   * The key an entry for `key` is stored under (what `set`, `has`, `get`
   * and the others make of their key argument): the origin of a URL,
   * `scheme://host[:port]` as the WHATWG URL parser writes it, lowercase,
   * without the scheme's default port (`https://Example.COM:443/a` →
   * `https://example.com`); or a bare host (`EXAMPLE.com` → `example.com`,
   * `bücher.de` → `xn--bcher-kva.de`). Anything else is a RobotsInputError
   * (ERR_INPUT).
   */
  static keyOf(key: string | URL): string {
    return storeKey(key, 'RobotsStore.keyOf').key
  }

  /**
   * The size in bytes of the bundle whose first bytes are `head`, for a
   * reader of a stream that must know where a bundle ends: exact once `head`
   * holds the header (32 bytes), the header's size before that; undefined
   * when `head` does not start a bundle. Not a check: `fromBytes` checks.
   */
  static bundleSize(head: Uint8Array): number | undefined {
    const bytes = asBytes(head)
    if (bytes === undefined) throw new RobotsInputError(`RobotsStore.bundleSize takes a Uint8Array, got ${describeValue(head)}`)
    return bundleSize(bytes)
  }

  /**
   * Bytes held, by the model of src/memory.ts: the arenas (whole chunks,
   * a loaded bundle whole), the entry table, the index, shared forms and
   * the compiled matchers with the LRU's bookkeeping.
   */
  memoryUsage(): number {
    let bytes = objectBytes(STORE_FIELDS) + this.arena.memoryUsage() + typedArrayBytes(this.entries) + this.index.memoryUsage()
    bytes += 2 * TYPED_ARRAY_BYTES + SCANNER_BYTES + 8 * this.hot.length + 8 * this.free.length
    bytes += MAP_BYTES + this.shared.size * MAP_ENTRY_BYTES
    // A form shared by many entries (one Robots set under many keys) is held once.
    const forms = new Set<Uint8Array>(this.shared.values())
    for (const form of forms) bytes += typedArrayBytes(form)
    if (this.spill !== undefined) bytes += compiledBytes(this.spillKey, this.spill.matcher.memoryUsage())
    if (this.spillSet !== undefined) bytes += compiledBytes(this.spillSetKey, this.spillSet.set.memoryUsage())
    bytes += 8 * this.hotSets.length + MAP_BYTES
    for (const name of this.setKeys.keys()) bytes += MAP_ENTRY_BYTES + stringBytes(name)
    return bytes + this.matchers.bytes + 3 * TYPED_ARRAY_BYTES + 24 * this.matchers.size + MAP_BYTES
  }

  static {
    entryOverheadOf = (store, key) => {
      const id = store.idOfKey(storeKey(key, 'entryOverhead'))
      if (id < 0) return 0
      const e = store.entries
      const base = id * Entry.Width
      // The entry table doubles (up to twice a record); the index keeps two to four slots of 16 bytes a key.
      let bytes = e[base + Entry.KeyLength] + e[base + Entry.FormLength] + e[base + Entry.InfoLength] + 2 * Entry.Width * 4 + 64
      const form = store.shared.get(id)
      if (form !== undefined) bytes += SHARER_BYTES + MAP_ENTRY_BYTES + (form.byteLength === form.buffer.byteLength ? 0 : TYPED_VIEW_BYTES)
      return bytes
    }
  }

  /** Counts and sizes (see {@link RobotsStoreStats}). */
  stats(): RobotsStoreStats {
    return {
      entries: this.count,
      liveBytes: this.arena.used - this.arena.garbage,
      garbageBytes: this.arena.garbage,
      matchers: this.matchers.size + (this.spill === undefined ? 0 : 1),
      matcherBytes: this.matchers.bytes + (this.spill === undefined ? 0 : compiledBytes(this.spillKey, this.spill.size)),
      compiles: this.compiles,
      evictions: this.matchers.evictions,
    }
  }

  /** Copies the live keys and forms into new arenas, giving the holes back (runs by itself past half garbage). */
  compact(): void {
    const old = this.arena
    const live = old.used - old.garbage
    const next = new Arena(Math.max(64 * 1024, Math.min(live, 16 * 1024 * 1024)))
    const e = this.entries
    for (let id = 0; id < this.idCount; id++) {
      const base = id * Entry.Width
      const c = e[base + Entry.Chunk]
      if (c < 0) continue
      const n = e[base + Entry.KeyLength] + e[base + Entry.FormLength] + e[base + Entry.InfoLength]
      const at = e[base + Entry.Offset]
      const chunk = next.allocate(n)
      next.chunks[chunk].set(old.chunks[c].subarray(at, at + n), next.at)
      e[base + Entry.Chunk] = chunk
      e[base + Entry.Offset] = next.at
      this.index.relocate(id, e[base + Entry.Hash], next.at, keyLoc(chunk, e[base + Entry.KeyLength]))
    }
    this.arena = next
    // Compiled matchers may view the old chunks: drop them so the old chunks can go.
    this.matchers.clear()
    this.spill = undefined
    this.spillSet = undefined
    this.hot = []
    this.hotSets = []
  }

  /**
   * The store as one buffer: the bundle (store/bundle-codec.ts), which
   * `RobotsStore.fromBytes` loads without parsing robots.txt again. Shared
   * forms are copied in; holes are left out.
   */
  toBytes(): Uint8Array {
    return encodeBundle({ forEachEntry: (visit) => this.forEachEntry(visit) })
  }

  /**
   * Loads a bundle written by `toBytes`. The buffer is kept, not copied
   * (a large file read once serves as the store's arena): do not change it
   * afterwards. Everything is checked first (store/bundle-codec.ts); with
   * `lazy: true` each robots.txt form's structure is checked on its entry's
   * first use instead (its checksum is still checked here: a corrupted
   * bundle is refused whole), so a large bundle loads in about the time of
   * one pass over its bytes. Anything wrong is a RobotsFormatError
   * (ERR_FORMAT, ERR_VERSION), thrown here or, with `lazy`, by the call that
   * first uses an entry whose form is well checksummed but malformed.
   */
  static fromBytes(bytes: Uint8Array, options: RobotsStoreOptions & { lazy?: boolean } = {}): RobotsStore {
    const o = optionsArgument<RobotsStoreOptions & { lazy?: boolean }>(options, 'RobotsStore.fromBytes', [...STORE_OPTION_NAMES, 'lazy'])
    if (o.lazy !== undefined && typeof o.lazy !== 'boolean') throw new RobotsInputError(`RobotsStore.fromBytes: lazy must be true or false, got ${describeValue(o.lazy)}`)
    const store = new RobotsStore(o)
    const sink: BundleSink = {
      adoptChunk: (data) => store.arena.adopt(data),
      addLoaded: (chunk, offset, keyLength, formLength, kind, checked, infoLength) => store.addLoaded(chunk, offset, keyLength, formLength, kind, checked, infoLength),
    }
    loadBundle(bytes, sink, o.lazy === true)
    if (store.heldBytes() > store.budget) {
      throw new RobotsRangeError('ERR_BUDGET', `RobotsStore.fromBytes: the bundle's ${store.size} entries hold ${store.heldBytes()} bytes of rules, past the budget of ${store.budget} bytes`)
    }
    return store
  }

  /**
   * Entry records, for bundles: calls `visit` for each entry with
   * its key at `data[keyAt, keyAt + keyLength)`, its kind (a shared form is
   * reported as EntryKind.Robots) and its form at `form[formAt, formAt +
   * formLength)` (length 0 for outcomes), its fetch-info record at
   * `data[infoAt, infoAt + infoLength)` (length 0 when none). No view is made per entry.
   */
  private forEachEntry(visit: EntryVisitor): void {
    const e = this.entries
    for (let id = 0; id < this.idCount; id++) {
      const base = id * Entry.Width
      const c = e[base + Entry.Chunk]
      if (c < 0) continue
      const chunk = this.arena.chunks[c]
      const at = e[base + Entry.Offset]
      const keyLength = e[base + Entry.KeyLength]
      const formLength = e[base + Entry.FormLength]
      const infoLength = e[base + Entry.InfoLength]
      const kind = this.kindChecked(id)
      if (kind === EntryKind.Shared) {
        const form = this.shared.get(id)!
        visit(chunk, at, keyLength, EntryKind.Robots, form, 0, form.length, at + keyLength, infoLength)
      } else visit(chunk, at, keyLength, kind, chunk, at + keyLength, formLength, at + keyLength + formLength, infoLength)
    }
  }

  /**
   * Adds a loaded bundle's entry whose key and form are already at
   * `data[offset…]` (a chunk the arena adopted); `checked`
   * false defers the form's check to its first use. A duplicate key is a
   * RobotsFormatError raised by the caller (returns false). A fetch-info
   * record of `infoLength` bytes (checked by the caller) follows the form.
   */
  private addLoaded(chunk: number, offset: number, keyLength: number, formLength: number, kind: number, checked: boolean, infoLength = 0): boolean {
    const data = this.arena.chunks[chunk]
    const h = keyHash(data, offset, offset + keyLength)
    if (this.index.find(data, offset, offset + keyLength, h) >= 0) return false
    const id = this.newId()
    const base = id * Entry.Width
    const e = this.entries
    e[base + Entry.Chunk] = chunk
    e[base + Entry.Offset] = offset
    e[base + Entry.KeyLength] = keyLength
    e[base + Entry.FormLength] = formLength
    e[base + Entry.Kind] = kind | (checked ? 0 : UNCHECKED)
    e[base + Entry.InfoLength] = infoLength
    e[base + Entry.Hash] = h
    this.index.add(id, h, offset, keyLoc(chunk, keyLength))
    this.countKey(data, offset, keyLength, 1)
    this.count++
    return true
  }

  /** The entry id of a key, or -1. */
  private idOfKey(k: KeyParts): EntryId | -1 {
    const bytes = keyBytes(k.key)
    return this.index.find(bytes, 0, bytes.length) as EntryId | -1
  }

  /** A RobotsRangeError (ERR_RANGE) unless `id` is an entry's id. */
  private checkId(id: number): void {
    if (!(Number.isInteger(id) && id >= 0 && id < this.idCount && this.entries[id * Entry.Width + Entry.Chunk] >= 0)) {
      throw new RobotsRangeError('ERR_RANGE', `RobotsStore: ${describeValue(id)} is not an entry id`)
    }
  }

  /** The kind of entry `id`, checking its form first when it was loaded lazily; a bad id is ERR_RANGE. */
  private kindChecked(id: number): number {
    this.checkId(id)
    const base = id * Entry.Width
    const kind = this.entries[base + Entry.Kind]
    if (kind & UNCHECKED) {
      const e = this.entries
      const chunk = this.arena.chunks[e[base + Entry.Chunk]]
      checkForm(chunk, e[base + Entry.Offset] + e[base + Entry.KeyLength], e[base + Entry.FormLength], `RobotsStore bundle entry ${id}`)
      e[base + Entry.Kind] = kind & ~UNCHECKED
    }
    return kind & EntryKind.Mask
  }

  /** The form of a robots.txt entry (a view of its arena chunk, or the shared form). */
  private formOf(id: number): Uint8Array {
    const e = this.entries
    const base = id * Entry.Width
    if ((e[base + Entry.Kind] & EntryKind.Mask) === EntryKind.Shared) return this.shared.get(id)!
    const at = e[base + Entry.Offset] + e[base + Entry.KeyLength]
    return this.arena.chunks[e[base + Entry.Chunk]].subarray(at, at + e[base + Entry.FormLength])
  }

  /** Counts a key in (`by` 1) or out (-1): an origin key holds a '/', a bare host never does. */
  private countKey(data: Uint8Array, at: number, length: number, by: number): void {
    for (let i = at; i < at + length; i++) {
      if (data[i] === 0x2f) {
        this.originKeys += by
        return
      }
    }
    this.hostKeys += by
  }

  /** Drops a compiled matcher the LRU let go (or a replaced spill) from the hot cache. */
  private dropHot(key: number | string, c: Compiled | CompiledSet): void {
    if (typeof key === 'string' && key.charCodeAt(0) === SET_KEY_MARK) {
      const id = Number.parseInt(key.slice(key.indexOf(':') + 1), 10)
      if (this.hotSets[id] === (c as CompiledSet).set) this.hotSets[id] = undefined
      return
    }
    const id = typeof key === 'number' ? Math.floor(key / (NUMERIC_SELECTIONS + 1)) : Number.parseInt(key, 10)
    if (this.hot[id] === (c as Compiled).matcher) this.hot[id] = undefined
  }

  /**
   * Whether entry `id`'s key is the origin of the URL being probed (the
   * fast path of `lookup`: an http(s) URL with a plain host): `scheme://`,
   * the host (ASCII case ignored), and `:port` unless it is the default.
   */
  private originEquals(id: number, at: number, loc: number): boolean {
    const rec = this.probe
    const hs = rec[UrlField.HostStart]
    const he = rec[UrlField.HostEnd]
    // The key: "http://" or "https://" (as the URL's scheme, lowercased), the host, then ":port" unless default.
    const prefix = this.probeHttps ? HTTPS_PREFIX : HTTP_PREFIX
    const portAt = prefix.length + he - hs
    const n = loc >= 0 ? loc & KEY_LOC_LENGTH : this.entries[id * Entry.Width + Entry.KeyLength]
    if (this.probePort === 0 ? n !== portAt : n <= portAt + 1) return false
    const chunk = this.arena.chunks[loc >= 0 ? loc >>> KEY_LOC_SHIFT : this.entries[id * Entry.Width + Entry.Chunk]]
    for (let i = 0; i < prefix.length; i++) if (chunk[at + i] !== prefix[i]) return false
    const hostAt = at + prefix.length
    if (!(this.probeIsText ? sameHostText(this.probeText, hs, he, chunk, hostAt) : sameHostBytes(this.probeBytes, hs, he, chunk, hostAt))) return false
    if (this.probePort === 0) return true
    if (chunk[at + portAt] !== 0x3a) return false
    let port = 0
    for (let i = at + portAt + 1; i < at + n; i++) port = port * 10 + (chunk[i] - 0x30)
    return port + 1 === this.probePort
  }

  /** Whether entry `id`'s key is the bare host of the URL being probed. */
  private hostEquals(id: number, at: number, loc: number): boolean {
    const rec = this.probe
    const hs = rec[UrlField.HostStart]
    const he = rec[UrlField.HostEnd]
    const n = loc >= 0 ? loc & KEY_LOC_LENGTH : this.entries[id * Entry.Width + Entry.KeyLength]
    if (n !== he - hs) return false
    const chunk = this.arena.chunks[loc >= 0 ? loc >>> KEY_LOC_SHIFT : this.entries[id * Entry.Width + Entry.Chunk]]
    return this.probeIsText ? sameHostText(this.probeText, hs, he, chunk, at) : sameHostBytes(this.probeBytes, hs, he, chunk, at)
  }

  /** Whether entry `id`'s key (at `at`, `loc`: see keyLoc) is `bytes[start, end)`, ASCII case ignored. */
  private keyEquals(id: number, at: number, loc: number, bytes: Uint8Array, start: number, end: number): boolean {
    const n = loc >= 0 ? loc & KEY_LOC_LENGTH : this.entries[id * Entry.Width + Entry.KeyLength]
    if (n !== end - start) return false
    const chunk = this.arena.chunks[loc >= 0 ? loc >>> KEY_LOC_SHIFT : this.entries[id * Entry.Width + Entry.Chunk]]
    for (let i = 0; i < n; i++) {
      let c = bytes[start + i]
      if (c >= 65 && c <= 90) c += 32
      if (c !== chunk[at + i]) return false
    }
    return true
  }

  /**
   * Stores an entry of `kind` under key `k`, its form of `formLength` bytes
   * written by `write(chunk, at)` right after the key, then the fetch-info
   * record `info` (may be empty); replaces the key's entry (same id) or adds
   * one; `sharedForm`: the form the entry shares (EntryKind.Shared).
   * Returns the id.
   */
  private put(k: KeyParts, kind: number, formLength: number, write: (chunk: Uint8Array, at: number) => void, info: Uint8Array, sharedForm?: Uint8Array): number {
    const key = keyBytes(k.key)
    const record = key.length + formLength + info.length
    const h = keyHash(key, 0, key.length)
    let id = this.index.find(key, 0, key.length, h)
    if (this.budget !== Infinity && this.heldAfterPut(id, record, sharedForm) > this.budget) {
      throw new RobotsRangeError('ERR_BUDGET', `RobotsStore: storing ${JSON.stringify(k.key)} would pass the store's budget of ${this.budget} bytes`)
    }
    const added = id < 0
    if (!added) this.release(id)
    else {
      id = this.newId()
      this.entries[id * Entry.Width + Entry.Hash] = h
      this.countKey(key, 0, key.length, 1)
      this.count++
    }
    const c = this.arena.allocate(record)
    const chunk = this.arena.chunks[c]
    const at = this.arena.at
    chunk.set(key, at)
    write(chunk, at + key.length)
    chunk.set(info, at + key.length + formLength)
    const e = this.entries
    const base = id * Entry.Width
    e[base + Entry.Chunk] = c
    e[base + Entry.Offset] = at
    e[base + Entry.KeyLength] = key.length
    e[base + Entry.FormLength] = formLength
    e[base + Entry.InfoLength] = info.length
    e[base + Entry.Kind] = kind
    if (added) this.index.add(id, h, at, keyLoc(c, key.length))
    else this.index.relocate(id, h, at, keyLoc(c, key.length))
    this.bump(id)
    this.maybeCompact()
    return id
  }

  /** Frees what entry `id` holds (its arena record or shared form); the id stays. */
  private release(id: number): void {
    const e = this.entries
    const base = id * Entry.Width
    this.arena.free(e[base + Entry.KeyLength] + e[base + Entry.FormLength] + e[base + Entry.InfoLength])
    const form = this.shared.get(id)
    if (form !== undefined) {
      this.shared.delete(id)
      const n = this.sharers.get(form)! - 1
      if (n > 0) this.sharers.set(form, n)
      else {
        this.sharers.delete(form)
        this.sharedBytes -= sharedFormBytes(form)
      }
    }
    this.bump(id)
  }

  /** The bytes of rules held, as `budget` counts them: the arenas' live bytes, the entry table, the index, each shared form once and what sharing costs. */
  private heldBytes(): number {
    return this.arena.used - this.arena.garbage + this.entries.byteLength + this.index.memoryUsage() + this.sharedBytes + this.shared.size * SHARER_BYTES
  }

  /**
   * {@link heldBytes} once `put` has stored a record of `record` bytes (and
   * `sharedForm`) in entry `id` (-1: a new entry): what a replaced entry held
   * is given back, and a new entry counts the entry table and index as they
   * will have grown.
   */
  private heldAfterPut(id: number, record: number, sharedForm: Uint8Array | undefined): number {
    let held = this.heldBytes() + record
    if (sharedForm !== undefined) held += SHARER_BYTES + (this.sharers.has(sharedForm) ? 0 : sharedFormBytes(sharedForm))
    if (id >= 0) {
      const base = id * Entry.Width
      held -= this.entries[base + Entry.KeyLength] + this.entries[base + Entry.FormLength] + this.entries[base + Entry.InfoLength]
      const old = this.shared.get(id)
      if (old !== undefined) held -= SHARER_BYTES
      if (old !== undefined && old !== sharedForm && this.sharers.get(old) === 1) held -= sharedFormBytes(old)
      return held
    }
    if (this.free.length === 0 && (this.idCount + 1) * Entry.Width > this.entries.length) held += this.entries.byteLength
    return held - this.index.memoryUsage() + this.index.memoryUsageAfterAdd()
  }

  /** A new generation of entry `id`: its compiled matchers and sets are stale, and leave the hot caches. */
  private bump(id: number): void {
    this.entries[id * Entry.Width + Entry.Gen]++
    if (id < this.hot.length) this.hot[id] = undefined
    if (id < this.hotSets.length) this.hotSets[id] = undefined
  }

  /** Removes entry `id` and frees its id. */
  private remove(id: number): void {
    const e = this.entries
    const base = id * Entry.Width
    this.index.remove(id, e[base + Entry.Hash])
    this.countKey(this.arena.chunks[e[base + Entry.Chunk]], e[base + Entry.Offset], e[base + Entry.KeyLength], -1)
    this.release(id)
    e[base + Entry.Chunk] = -1
    this.free.push(id)
    this.count--
  }

  private newId(): number {
    const reused = this.free.pop()
    if (reused !== undefined) return reused
    const id = this.idCount++
    if ((id + 1) * Entry.Width > this.entries.length) {
      const grown = new Int32Array(this.entries.length * 2)
      grown.set(this.entries)
      this.entries = grown
    }
    this.entries[id * Entry.Width + Entry.Gen] = 0
    return id
  }

  private maybeCompact(): void {
    const a = this.arena
    if (a.garbage > COMPACT_MIN_GARBAGE && a.garbage * 2 > a.used) this.compact()
  }

  private outcomeMatcher(allowed: boolean, agent: string | readonly string[]): AgentMatcher {
    checkAgent(agent)
    if (allowed) return (this.allowAllMatcher ??= compileMatcher(rulesOf(allowAll()), ['*'], this.matcherOptions))
    return (this.disallowAllMatcher ??= compileMatcher(rulesOf(disallowAll()), ['*'], this.matcherOptions))
  }
}

const NO_INFO = new Uint8Array(0)
const NO_TOKENS: readonly string[] = []

/** Whether two token lists hold the same tokens in the same order. */
function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
const EMPTY = new Uint8Array(0)
/** The store's own UrlScan: the object, its record and the probe's record. */
const SCANNER_BYTES = objectBytes(3) + TYPED_ARRAY_BYTES + 4 * (UrlField.Size + 1)

/** The fetch-info record of `info` (checked: ERR_INPUT), or an empty one. */
function infoRecord(info: StoreFetchInfo | undefined): Uint8Array {
  return info === undefined ? NO_INFO : encodeFetchInfo(info)
}

/** An agent argument: a string, or an array of strings (a RobotsInputError otherwise). */
export function checkAgent(agent: unknown): void {
  if (typeof agent === 'string') return
  if (isStrings(agent)) return
  throw new RobotsInputError(`a crawler is a product token or an array of them (strings), got ${describeValue(agent)}`)
}

/** Puts `c` at `hot[id]`, the array kept dense (no holes, no dictionary), so that reads of it stay on one fast shape. */
function keep<T>(hot: (T | undefined)[], id: number, c: T): void {
  while (hot.length < id) hot.push(undefined)
  hot[id] = c
}

/** An LRU entry's size: the matcher (`matcherBytes`), its record and key (src/memory.ts). */
function compiledBytes(key: number | string, matcherBytes: number): number {
  return BYTE_LRU_ENTRY_BYTES + objectBytes(COMPILED_FIELDS) + (typeof key === 'string' ? stringBytes(key) : 0) + matcherBytes
}

/** Whether `text[start, end)`, ASCII-lowercased, is `key[at, at + end - start)` (lowercase bytes). */
function sameHostText(text: string, start: number, end: number, key: Uint8Array, at: number): boolean {
  for (let i = start, k = at; i < end; i++, k++) {
    const c = text.charCodeAt(i)
    if (c !== key[k] && (c | 0x20) !== key[k]) return false
  }
  return true
}

/** {@link sameHostText} for bytes. */
function sameHostBytes(bytes: Uint8Array, start: number, end: number, key: Uint8Array, at: number): boolean {
  for (let i = start, k = at; i < end; i++, k++) {
    const c = bytes[i]
    if (c !== key[k] && (c | 0x20) !== key[k]) return false
  }
  return true
}

/**
 * Whether the path the reference matches starts before the URL's host ends
 * (`http://u;p@host/x`, `http:/host/x`): the host is then text of that path,
 * and no site's rules could judge it. Without `scheme://` the text before
 * that path must name the same origin.
 */
function hostInPath(rec: Int32Array, url: string | Uint8Array, key: string): boolean {
  const at = rec[UrlField.PathStart] >>> 1
  if (rec[UrlField.HostStart] >= 0) return at < rec[UrlField.HostEnd]
  return rec[UrlField.PathStart] >= 0 && slowOrigin(url.slice(0, at - rec[UrlField.Start]))?.key !== key
}

/** Why the scanned URL names no site, for a message: its port or its host, as the WHATWG parser refuses them ('' when neither says more). */
function refusal(scan: UrlScan, rec: Int32Array): string {
  if (rec[UrlField.HostStart] < 0) return ''
  if (rec[UrlField.Port] === PortCode.Bad) return ' (its port is not a number from 0 to 65535)'
  try {
    scan.canonicalHost()
  } catch (err) {
    if (err instanceof RobotsInputError) return ` (${err.message.replace(/^UrlScan\.canonicalHost: /, '')})`
    throw err
  }
  return ''
}
