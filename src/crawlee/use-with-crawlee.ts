/**
 * `useWithCrawlee`: Crawlee's robots.txt handling, taken over in place.
 *
 * Two hooks, both on Crawlee's own classes, so that every crawler and every
 * caller keeps its code:
 *
 * - `BasicCrawler.prototype.getRobotsTxtFileForUrl`, the one method through
 *   which every crawler (HTTP, Cheerio, JSDOM, browsers, adaptive) gets the
 *   robots.txt of a request's origin, both before fetching a request and in
 *   `enqueueLinks`. Replacing it (not a subclass, not an option: Crawlee has
 *   none) reaches the crawler itself: its `respectRobotsTxtFile.userAgent`
 *   (sent as the User-Agent), its `proxyConfiguration`, its log. It also
 *   bypasses the crawler's own per-origin cache, which never expires and
 *   forgets failures, for a `RobotsCache` (expiry, stale copies, one fetch
 *   per origin at a time).
 * - `RobotsTxtFile.find`, `load` and `from`, for code that calls them (and
 *   for crawlers when only `@crawlee/utils` is passed).
 *
 * The files returned are Crawlee's own `RobotsTxtFile` instances, made by
 * Crawlee's `from` (its public constructor), whose rules object (robots-
 * parser's `Robot`, the private `robots` member) is a view of the cache
 * entry: `isAllowed`, `getSitemaps` and `parseSitemaps` keep Crawlee's code.
 * Installing checks that Crawlee's class still works this way, and refuses
 * a version where it does not.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { compatToken, robotsParser } from '../compat.js'
import {
  describeFetchResult,
  parseRobots,
  RobotsCache,
  robotsLocation,
  RobotsInputError,
  type FetchLike,
  type Robots,
  type RobotsCacheOptions,
  type RobotsCacheStats,
  type RobotsLocation,
  type RobotsLookup,
} from '../index.js'
import { describeValue, isHeaderValue, isInstance, mustBe, optionsObject, readArgument } from './checks.js'
import type { CrawleeLog, CrawleeModule, CrawleeProxyConfiguration, CrawleeRobotsTxtFileClass } from './crawlee-types.js'
import { parseProxyUrl, proxyFailureOf, proxyFetch } from './proxy-fetch.js'
import { requestedUrlView } from './requested-url.js'
import { RulesView, type RulesSource } from './rules-view.js'

/** The User-Agent sent for robots.txt when neither the option nor the crawler names one. */
export const DEFAULT_CRAWLEE_USER_AGENT = 'Crawlee (robots-automaton)'

/**
 * Options of {@link useWithCrawlee}: those of `RobotsCache` (how to fetch,
 * how long to keep), a User-Agent, and the log.
 */
export interface CrawleeRobotsOptions extends Omit<RobotsCacheOptions, 'fetch' | 'previous' | 'userAgent' | 'timeoutMs'> {
  /**
   * Deadline of each robots.txt fetch, every redirect and the body, in
   * milliseconds; a site that has not answered by then is unreachable
   * (disallow all). Default 10,000. As `fetchRobots`' `timeoutMs`.
   */
  timeoutMs?: number
  /**
   * The `User-Agent` header of every robots.txt request. Default: the
   * crawler's `respectRobotsTxtFile.userAgent` (a product token or a whole
   * User-Agent, sent as given), else {@link DEFAULT_CRAWLEE_USER_AGENT}.
   * Rules are judged for the crawler's `respectRobotsTxtFile.userAgent`
   * whatever is sent, as Crawlee judges them.
   */
  userAgent?: string
  /**
   * One line in Crawlee's log per robots.txt fetch (the crawler's log, else
   * Crawlee's default one): info, or a warning when the site is unreachable.
   * Default true.
   */
  log?: boolean
}

/** What {@link useWithCrawlee} returns. */
export interface CrawleeRobots {
  /** Whether the crawlers' robots.txt lookups go through this entry (false when only `@crawlee/utils` was passed). */
  readonly crawlers: boolean
  /** Counters and size of the robots.txt caches, summed (one cache per User-Agent sent, and another when a proxy is used). */
  stats(): RobotsCacheStats
  /** Forgets every robots.txt fetched. */
  clear(): void
  /** Puts Crawlee's own methods back. Files already handed out keep answering from the rules they hold. */
  restore(): void
}

/** Who asks for a robots.txt: what to send, through which proxy, where to log. */
interface Requester {
  userAgent: string
  proxy: (() => Promise<string | undefined>) | undefined
  log: CrawleeLog | undefined
}

/** The proxy of the fetch in progress (the cache fetches inside `lookup`, in the caller's async context). */
interface ProxyContext {
  proxyUrl: string | undefined
  proxy: (() => Promise<string | undefined>) | undefined
}

const proxyContext = new AsyncLocalStorage<ProxyContext>()

/** The installation on each `RobotsTxtFile` class, so that installing again replaces it. */
const installed = new WeakMap<object, Installation>()

const NUMBER_OPTIONS: readonly ('timeoutMs' | 'maxRedirects' | 'maxTtlMs' | 'minTtlMs' | 'unreachableTtlMs')[] = ['timeoutMs', 'maxRedirects', 'maxTtlMs', 'minTtlMs', 'unreachableTtlMs']

const STAT_KEYS: readonly (keyof RobotsCacheStats)[] = ['hits', 'misses', 'coalesced', 'fetches', 'stale', 'revalidated', 'evictions', 'entries', 'bytes', 'matcherBytes', 'maxBytes']

/** Unreachable with no earlier copy: everything disallowed (RFC 9309 §2.3.1.4). */
let disallowAllRobots: Robots | undefined
function disallowAll(): Robots {
  return (disallowAllRobots ??= parseRobots('User-agent: *\nDisallow: /\n'))
}

/** The options checked before anything is replaced (the cache checks its budgets when made). */
function checkOptions(options: CrawleeRobotsOptions | undefined): CrawleeRobotsOptions {
  const what = 'useWithCrawlee'
  const o = optionsObject(options, what)
  mustBe(o.userAgent === undefined || typeof o.userAgent === 'string', what, 'userAgent', 'a string', o.userAgent)
  mustBe(o.userAgent === undefined || isHeaderValue(o.userAgent as string), what, 'userAgent', 'a header value (no control char such as CR or LF, no char past U+00FF, at most 1,024 chars)', o.userAgent)
  mustBe(o.now === undefined || typeof o.now === 'function', what, 'now', 'a function', o.now)
  mustBe(o.redirectFilter === undefined || typeof o.redirectFilter === 'function', what, 'redirectFilter', 'a function', o.redirectFilter)
  mustBe(o.allowPrivateRedirects === undefined || typeof o.allowPrivateRedirects === 'boolean', what, 'allowPrivateRedirects', 'a boolean', o.allowPrivateRedirects)
  mustBe(o.log === undefined || typeof o.log === 'boolean', what, 'log', 'a boolean', o.log)
  for (const name of NUMBER_OPTIONS) {
    const v = o[name]
    const finite = name === 'timeoutMs'
    mustBe(v === undefined || (typeof v === 'number' && v >= 0 && (!finite || Number.isFinite(v))), what, name, `a ${finite ? 'finite ' : ''}number >= 0`, v)
  }
  // The copy checked is the one used: a getter is read once.
  const checked = o as CrawleeRobotsOptions
  parseRobots('', { limit: checked.limit }) // the parsing limit's own check (ERR_LIMIT)
  const { log: _log, userAgent: _userAgent, ...forCache } = checked
  new RobotsCache(forCache) // its own checks: maxBytes, matcherBytes, maxStaleMs, names it does not know
  return checked
}

function isLog(value: unknown): value is CrawleeLog {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'info') === 'function' && typeof Reflect.get(value, 'warning') === 'function'
}

function isProxyConfiguration(value: unknown): value is CrawleeProxyConfiguration {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'newUrl') === 'function'
}

/** `12 h`, `10 min`, `45 s`. */
function duration(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`
  if (ms >= 60_000) return `${Math.round(ms / 6_000) / 10} min`
  return `${Math.round(ms / 100) / 10} s`
}

/** Replaces `target[name]`; returns what puts it back. */
/**
 * Refuses (ERR_INPUT) a `target` whose methods `names` cannot be replaced:
 * a frozen class or prototype, a method defined non-configurable.
 */
function checkReplaceable(target: object, names: readonly string[], what: string): void {
  for (const name of names) {
    const ok = readArgument(`useWithCrawlee: the crawlee module's ${what}`, () => {
      const d = Object.getOwnPropertyDescriptor(target, name)
      return d === undefined ? Object.isExtensible(target) : d.configurable === true
    })
    if (!ok) throw new RobotsInputError(`useWithCrawlee: the crawlee module's ${what}.${name} cannot be replaced (the class is frozen, or the method is not configurable): nothing was installed`)
  }
}

function replace(target: object, name: string, value: unknown): () => void {
  const before = Object.getOwnPropertyDescriptor(target, name)
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: before?.enumerable ?? false })
  return () => {
    if (before) Object.defineProperty(target, name, before)
    else Reflect.deleteProperty(target, name)
  }
}

const TIMED_OUT = Symbol('timed out')

/** Wait before a file refreshes its rules again after a refresh that failed on this side (not a fetch outcome). */
const REFRESH_RETRY_MS = 60_000

/** Proxy URLs a lookup tries, one after another, while each one's proxy fails (a crawler's rotation gives the next). */
const PROXY_TRIES = 3

/** How describeFetchResult starts an unreachable result's line. */
const UNREACHABLE = /^unreachable, disallow all: /

/** The longest delay a timer keeps (a longer one, Infinity included, would fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * `p`, or TIMED_OUT after `timeoutMs`; rejects with the signal's reason when
 * it aborts. A time-out of 0 (none, in Crawlee's own `find`) or past what a
 * timer can hold is none: the fetch's own deadline ends the wait.
 */
function within<T>(p: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<T | typeof TIMED_OUT> {
  if (!(timeoutMs! > 0 && timeoutMs! <= MAX_TIMER_MS)) timeoutMs = undefined
  if (signal === undefined && timeoutMs === undefined) return p
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => settle(() => resolve(TIMED_OUT)), timeoutMs)
    const onAbort = (): void => settle(() => reject(signal?.reason))
    const settle = (then: () => void): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      then()
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    p.then(
      (v) => settle(() => resolve(v)),
      (e) => settle(() => reject(e)),
    )
  })
}

/**
 * Date.now() read once a second, while an installation that uses it is in
 * place (an unreferenced interval, which never keeps the process alive). A
 * file checks the expiry of its cache entry on every `isAllowed`, a hot
 * call, without reading the clock; an entry is then used at most a second
 * past its expiry.
 */
class CoarseClock {
  now = Date.now()
  private users = 0
  private timer: ReturnType<typeof setInterval> | undefined

  acquire(): void {
    if (this.users++ > 0) return
    this.now = Date.now()
    this.timer = setInterval(() => {
      this.now = Date.now()
    }, 1000)
    this.timer.unref()
  }

  release(): void {
    if (--this.users > 0) return
    clearInterval(this.timer)
    this.timer = undefined
  }
}

const coarseClock = new CoarseClock()

/** The rules of one origin as the cache holds them: refreshed in the background once they have expired. */
class CachedRules implements RulesSource {
  private refreshing = false
  /** After a refresh that failed here (a proxy that could not be had), none before this time. */
  private retryAt = 0

  constructor(
    private readonly owner: Installation,
    private readonly cache: RobotsCache,
    private readonly origin: string,
    private held: RobotsLookup | undefined,
    private readonly who: Requester,
  ) {}

  current(): Robots {
    const held = this.held
    const now = this.owner.fileNow()
    if (held !== undefined && now < held.expiresAt) return held.robots
    const newer = this.cache.peek(this.origin)
    if (newer !== undefined && newer !== held) {
      this.held = newer
      if (now < newer.expiresAt) return newer.robots
    }
    this.refresh()
    // Until an answer arrives: the expired rules, or none (unreachable so far: disallow all).
    return this.held?.robots ?? disallowAll()
  }

  private refresh(): void {
    if (this.refreshing || this.owner.now() < this.retryAt) return
    this.refreshing = true
    this.owner.fresh(this.cache, this.origin, this.who).then(
      (lookup) => {
        this.held = lookup
        this.refreshing = false
      },
      (err: unknown) => {
        this.refreshing = false
        this.retryAt = this.owner.now() + REFRESH_RETRY_MS
        this.who.log?.warning(`robots.txt of ${this.origin}: refresh failed: ${err instanceof Error ? err.message : String(err)}`)
      },
    )
  }
}

/** One `useWithCrawlee` call: its caches, and the methods it replaced. */
class Installation {
  /** The clock of the cache and of fetches: the `now` option, else Date.now. */
  readonly now: () => number
  /** The clock files check their entry's expiry with: the `now` option, else the coarse clock. */
  readonly fileNow: () => number
  private readonly ownsClock: boolean
  readonly crawlers: boolean
  private readonly caches = new Map<string, RobotsCache>()
  private readonly files = new WeakMap<RobotsLookup, object>()
  private readonly reported = new WeakSet<RobotsLookup>()
  /** Crawlers already warned that their User-Agent cannot be sent. */
  private readonly warnedCrawlers = new WeakSet<object>()
  /** The last token checked as a header value, and the answer (crawlers ask with one token, request after request). */
  private checkedToken: string | undefined
  private checkedOk = false
  private readonly restores: (() => void)[] = []
  private readonly cacheOptions: RobotsCacheOptions
  private readonly logFetches: boolean
  private readonly connectTimeoutMs: number

  constructor(
    private readonly cls: CrawleeRobotsTxtFileClass,
    readonly originalFrom: (url: string, content: string, proxyUrl?: string) => object,
    crawlerPrototype: object | undefined,
    private readonly options: CrawleeRobotsOptions,
    private readonly defaultLog: CrawleeLog | undefined,
  ) {
    const { log, userAgent: _userAgent, ...cacheOptions } = options
    this.cacheOptions = cacheOptions
    this.logFetches = log !== false
    this.now = options.now ?? Date.now
    this.ownsClock = options.now === undefined
    if (this.ownsClock) coarseClock.acquire()
    this.fileNow = options.now ?? (() => coarseClock.now)
    this.connectTimeoutMs = options.timeoutMs ?? 10_000
    const self = this
    this.restores.push(
      replace(cls, 'find', function find(url: unknown, proxyUrl?: unknown, fetchOptions?: unknown) {
        return self.find('RobotsTxtFile.find', url, proxyUrl, fetchOptions)
      }),
      replace(cls, 'load', function load(url: unknown, proxyUrl?: unknown, fetchOptions?: unknown) {
        return self.find('RobotsTxtFile.load', url, proxyUrl, fetchOptions)
      }),
      replace(cls, 'from', function from(url: string, content: string, proxyUrl?: string) {
        return self.makeFile(url, requestedUrlView(robotsParser(url, content)), proxyUrl)
      }),
    )
    this.crawlers = crawlerPrototype !== undefined
    if (crawlerPrototype !== undefined) {
      this.restores.push(
        replace(crawlerPrototype, 'getRobotsTxtFileForUrl', function getRobotsTxtFileForUrl(this: unknown, url: unknown) {
          return self.forCrawler(this, url)
        }),
      )
    }
  }

  restore(): void {
    if (this.restores.length === 0) return
    for (const undo of this.restores.splice(0).reverse()) undo()
    if (this.ownsClock) coarseClock.release()
    if (installed.get(this.cls) === this) installed.delete(this.cls)
  }

  stats(): RobotsCacheStats {
    const sum: RobotsCacheStats = { hits: 0, misses: 0, coalesced: 0, fetches: 0, stale: 0, revalidated: 0, evictions: 0, entries: 0, bytes: 0, matcherBytes: 0, maxBytes: 0 }
    for (const cache of this.caches.values()) {
      const s = cache.stats()
      for (const key of STAT_KEYS) sum[key] += s[key]
    }
    return sum
  }

  clear(): void {
    for (const cache of this.caches.values()) cache.clear()
  }

  /** The cache of the requests sent with `userAgent`, directly or through proxies. */
  private cacheFor(userAgent: string, proxied: boolean): RobotsCache {
    const key = `${proxied ? 'proxy' : 'direct'} ${userAgent}`
    let cache = this.caches.get(key)
    if (cache === undefined) {
      const options: RobotsCacheOptions = { ...this.cacheOptions, userAgent }
      if (proxied) options.fetch = this.proxiedFetch
      cache = new RobotsCache(options)
      this.caches.set(key, cache)
    }
    return cache
  }

  /** `fetch` for the caches of proxied requests: through the proxy of the request in progress. */
  private readonly proxiedFetch: FetchLike = async (input, init) => {
    const context = proxyContext.getStore()
    const proxyUrl = context?.proxyUrl ?? (await context?.proxy?.())
    if (proxyUrl !== undefined) return proxyFetch(proxyUrl, this.connectTimeoutMs)(input, init)
    const headers = new Headers(init.headers)
    headers.set('accept-encoding', 'identity')
    return fetch(input, Object.assign({}, init, { headers }))
  }

  /**
   * The entry for `origin`, fetched when missing or expired. The proxy URL is
   * asked for before the fetch, so that a failure there is the caller's
   * error, not an outcome of the site.
   */
  async fresh(cache: RobotsCache, origin: string, who: Requester): Promise<RobotsLookup> {
    const held = cache.peek(origin)
    const due = who.proxy !== undefined && !(held !== undefined && this.now() < held.expiresAt)
    // Proxy URLs whose proxy failed (not the site: nothing was recorded), and the last such failure.
    const failed = new Set<string>()
    let last: unknown
    for (;;) {
      const proxyUrl = due ? await who.proxy!() : undefined
      if (proxyUrl !== undefined) {
        if (failed.has(proxyUrl)) throw last
        parseProxyUrl(proxyUrl)
      }
      let lookup: RobotsLookup
      try {
        lookup = await proxyContext.run({ proxyUrl, proxy: who.proxy }, () => cache.lookup(origin))
      } catch (err) {
        const proxyFailure = proxyUrl === undefined ? undefined : proxyFailureOf(err)
        if (proxyFailure === undefined || failed.size + 1 >= PROXY_TRIES) throw err
        failed.add(proxyUrl!)
        last = err
        who.log?.warning(`robots.txt of ${origin}: ${proxyFailure.message}; asking through the next proxy URL`)
        continue
      }
      this.report(lookup, who)
      return lookup
    }
  }

  /** One log line per fetch (the first caller to see a new entry writes it). */
  private report(lookup: RobotsLookup, who: Requester): void {
    if (!this.logFetches || who.log === undefined || this.reported.has(lookup)) return
    this.reported.add(lookup)
    const r = lookup.result
    let what = describeFetchResult(r)
    // Unreachable, but the rules served are not disallow-all: say which.
    if (lookup.basis === 'stale') what = `${what.replace(UNREACHABLE, 'unreachable: ')}; the last copy fetched stays in use`
    else if (lookup.basis === 'assumed-unavailable') what = `${what.replace(UNREACHABLE, 'unreachable: ')}; unreachable for longer than maxStaleMs, allow all`
    const line = `robots.txt of ${lookup.origin}: ${what}; next fetch in ${duration(lookup.expiresAt - r.fetchedAt)}`
    const data = { userAgent: who.userAgent }
    if (r.outcome === 'unreachable') who.log.warning(line, data)
    else who.log.info(line, data)
  }

  /** A Crawlee `RobotsTxtFile` (made by Crawlee's own `from`) whose rules are `robots`. */
  makeFile(robotsUrl: string, robots: object, proxyUrl: string | undefined): object {
    const file = this.originalFrom.call(this.cls, robotsUrl, '', proxyUrl)
    Object.defineProperty(file, 'robots', { value: robots, writable: true, enumerable: true, configurable: true })
    return file
  }

  /** The file for a cache entry (one per entry; one per call with a proxy URL, which the file keeps for its sitemaps). */
  private fileOf(cache: RobotsCache, lookup: RobotsLookup | undefined, location: RobotsLocation, who: Requester, proxyUrl: string | undefined): object {
    const key = proxyUrl === undefined ? lookup : undefined
    let file = key === undefined ? undefined : this.files.get(key)
    if (file === undefined) {
      file = this.makeFile(location.robotsUrl, new RulesView(location.origin, new CachedRules(this, cache, location.origin, lookup, who)), proxyUrl)
      if (key !== undefined) this.files.set(key, file)
    }
    return file
  }

  /** `RobotsTxtFile.find` / `load`: the file of `url`'s origin, through the cache. */
  async find(what: string, url: unknown, proxyUrl: unknown, fetchOptions: unknown): Promise<object> {
    if (typeof url !== 'string' && !isInstance(`${what}: url`, url, URL)) throw new RobotsInputError(`${what}: url must be a string, got ${describeValue(url)}`)
    if (proxyUrl !== undefined && typeof proxyUrl !== 'string') throw new RobotsInputError(`${what}: proxyUrl must be a string, got ${describeValue(proxyUrl)}`)
    const o = optionsObject(fetchOptions, what)
    const signal: unknown = o.signal
    const timeoutMillis: unknown = o.timeoutMillis
    if (signal !== undefined && !isInstance(`${what}: signal`, signal, AbortSignal)) throw new RobotsInputError(`${what}: signal must be an AbortSignal, got ${describeValue(signal)}`)
    if (timeoutMillis !== undefined && !(typeof timeoutMillis === 'number' && timeoutMillis >= 0)) {
      throw new RobotsInputError(`${what}: timeoutMillis must be a number >= 0, got ${describeValue(timeoutMillis)}`)
    }
    const location = robotsLocation(url)
    if (proxyUrl !== undefined) parseProxyUrl(proxyUrl)
    signal?.throwIfAborted()
    const who: Requester = {
      userAgent: this.options.userAgent ?? DEFAULT_CRAWLEE_USER_AGENT,
      proxy: proxyUrl === undefined ? undefined : () => Promise.resolve(proxyUrl),
      log: this.defaultLog,
    }
    const cache = this.cacheFor(who.userAgent, proxyUrl !== undefined)
    const pending = this.fresh(cache, location.origin, who)
    const lookup = await within(pending, signal, timeoutMillis)
    if (lookup === TIMED_OUT) {
      // No answer in time: unreachable for now (disallow all); the file takes the rules once they arrive.
      pending.catch(() => {})
      who.log?.warning(`robots.txt of ${location.origin}: no answer within ${timeoutMillis} ms (timeoutMillis), disallow all until it arrives`)
      return this.fileOf(cache, undefined, location, who, proxyUrl)
    }
    return this.fileOf(cache, lookup, location, who, proxyUrl)
  }

  /**
   * The User-Agent sent for a crawler's `respectRobotsTxtFile.userAgent`
   * `token`: as written, or the default when it names no product token or
   * cannot be a header's value (then a warning, once per crawler: sending
   * it would fail on this side and read as the site unreachable).
   */
  private sentToken(token: unknown, crawler: object, log: unknown): string {
    if (typeof token !== 'string' || compatToken(token) === '*') return DEFAULT_CRAWLEE_USER_AGENT
    if (token !== this.checkedToken) {
      this.checkedToken = token
      this.checkedOk = isHeaderValue(token)
    }
    if (this.checkedOk) return token
    if (!this.warnedCrawlers.has(crawler)) {
      this.warnedCrawlers.add(crawler)
      const to = isLog(log) ? log : this.defaultLog
      to?.warning(`respectRobotsTxtFile.userAgent ${describeValue(token)} cannot be sent as a User-Agent header (CR, LF, NUL, a char past U+00FF, or more than 1,024 chars): robots.txt is asked for as ${JSON.stringify(DEFAULT_CRAWLEE_USER_AGENT)}; rules are still judged for it`)
    }
    return DEFAULT_CRAWLEE_USER_AGENT
  }

  /** `BasicCrawler.prototype.getRobotsTxtFileForUrl`: the file for a request of `crawler`. */
  async forCrawler(crawler: unknown, url: unknown): Promise<object | undefined> {
    if (typeof crawler !== 'object' || crawler === null) return undefined
    const respect: unknown = Reflect.get(crawler, 'respectRobotsTxtFile')
    if (!respect) return undefined
    if (typeof url !== 'string') return undefined
    let location: RobotsLocation
    try {
      location = robotsLocation(url)
    } catch {
      return undefined // not an http(s) URL: no robots.txt applies (as in Crawlee)
    }
    const token: unknown = typeof respect === 'object' ? Reflect.get(respect, 'userAgent') : undefined
    const proxyConfiguration: unknown = Reflect.get(crawler, 'proxyConfiguration')
    const log: unknown = Reflect.get(crawler, 'log')
    const who: Requester = {
      userAgent: this.options.userAgent ?? this.sentToken(token, crawler, log),
      proxy: isProxyConfiguration(proxyConfiguration) ? () => proxyConfiguration.newUrl() : undefined,
      log: isLog(log) ? log : this.defaultLog,
    }
    const cache = this.cacheFor(who.userAgent, who.proxy !== undefined)
    const lookup = await this.fresh(cache, location.origin, who)
    return this.fileOf(cache, lookup, location, who, undefined)
  }
}

/** Checks that Crawlee's `RobotsTxtFile` works as this entry needs: `from` makes a file whose `isAllowed` asks its `robots` member. */
function checkCrawleeClass(from: (url: string, content: string, proxyUrl?: string) => object, cls: object): void {
  const probeUrl = 'http://robots-automaton.invalid/robots.txt'
  let asked = false
  const probe = {
    isAllowed(): boolean {
      asked = true
      return false
    },
    getSitemaps: (): string[] => [],
  }
  let ok = false
  let threw = ''
  try {
    const file: unknown = from.call(cls, probeUrl, '')
    ok =
      typeof file === 'object' &&
      file !== null &&
      Object.prototype.hasOwnProperty.call(file, 'robots') &&
      Reflect.defineProperty(file, 'robots', { value: probe, writable: true, enumerable: true, configurable: true }) &&
      typeof Reflect.get(file, 'isAllowed') === 'function' &&
      Reflect.apply(Reflect.get(file, 'isAllowed'), file, ['http://robots-automaton.invalid/a', 'probe']) === false &&
      asked
  } catch (err) {
    // Its `from` or `isAllowed` threw on the probe: not a class this entry can hook either.
    threw = ` (its from or isAllowed threw: ${err instanceof Error ? err.message : describeValue(err)})`
  }
  if (!ok) {
    throw new RobotsInputError(
      `useWithCrawlee: this Crawlee version is not supported: its RobotsTxtFile does not keep its rules in a \`robots\` member that \`isAllowed\` asks (Crawlee 3.13 to 3.18 do)${threw}`,
    )
  }
}

/**
 * Makes Crawlee fetch and judge robots.txt with this library: every crawler
 * with `respectRobotsTxtFile` set, and `RobotsTxtFile.find`, `load` and
 * `from`, in the whole process.
 *
 * ```ts
 * import * as crawlee from 'crawlee'
 * import { useWithCrawlee } from 'robots-automaton/crawlee'
 *
 * useWithCrawlee(crawlee)
 * const crawler = new crawlee.CheerioCrawler({ respectRobotsTxtFile: { userAgent: 'MyBot' }, requestHandler })
 * ```
 *
 * - Fetching: the access method (`fetchRobots`): up to 5 redirects; 4xx
 *   allow all; 5xx, 429, network errors and time-outs disallow all; the file
 *   parsed as it streams, up to the 500 KiB limit. The crawler's
 *   `respectRobotsTxtFile.userAgent` is the `User-Agent` sent (see
 *   {@link CrawleeRobotsOptions.userAgent}); a crawler's
 *   `proxyConfiguration` (and `find`'s `proxyUrl`) is the proxy used.
 * - Caching: one entry per origin until it expires (at most 24 hours; an
 *   unreachable answer 10 minutes, or its `Retry-After`), one fetch per
 *   origin at a time, the last copy that reached the server kept while the
 *   site is unreachable, a conditional refresh.
 * - Judging: the reference's answers (google/robotstxt) for the product
 *   token of the crawler's agent, a whole User-Agent reduced to its first
 *   token, as the compat entry does.
 *
 * Installing again replaces the previous installation (and its caches);
 * `restore()` puts Crawlee's methods back. Throws a RobotsInputError
 * (`ERR_INPUT`) for a module that is not Crawlee's, a Crawlee whose
 * `RobotsTxtFile` works otherwise, or bad options.
 */
export function useWithCrawlee(crawlee: CrawleeModule, options: CrawleeRobotsOptions = {}): CrawleeRobots {
  const modType = typeof crawlee
  if ((modType !== 'object' && modType !== 'function') || crawlee === null) {
    throw new RobotsInputError(`useWithCrawlee takes the crawlee module (import * as crawlee from 'crawlee'), got ${describeValue(crawlee)}`)
  }
  const cls: unknown = readArgument('useWithCrawlee: the crawlee module', () => Reflect.get(crawlee, 'RobotsTxtFile'))
  if (typeof cls !== 'function' || typeof Reflect.get(cls, 'find') !== 'function' || typeof Reflect.get(cls, 'from') !== 'function') {
    throw new RobotsInputError("useWithCrawlee takes the crawlee module (import * as crawlee from 'crawlee') or @crawlee/utils: it has no RobotsTxtFile class")
  }
  const checked = checkOptions(options)
  // The class as read and checked above (the module is read once: a getter may give another value next time).
  const klass = cls as unknown as CrawleeRobotsTxtFileClass
  // Crawlee's own `from`, also while an earlier installation holds the class: that one stays until this one is checked.
  const prior = installed.get(cls)
  const from = prior === undefined ? klass.from : prior.originalFrom
  checkCrawleeClass(from, klass)
  const base: unknown = readArgument('useWithCrawlee: the crawlee module', () => Reflect.get(crawlee, 'BasicCrawler'))
  const proto: unknown = typeof base === 'function' ? Reflect.get(base, 'prototype') : undefined
  const crawlerPrototype = typeof proto === 'object' && proto !== null && typeof Reflect.get(proto, 'getRobotsTxtFileForUrl') === 'function' ? proto : undefined
  const log: unknown = readArgument('useWithCrawlee: the crawlee module', () => Reflect.get(crawlee, 'log'))
  // What is replaced must be replaceable, checked before anything changes (an earlier installation stays when it is not).
  checkReplaceable(klass, ['find', 'load', 'from'], 'RobotsTxtFile')
  if (crawlerPrototype !== undefined) checkReplaceable(crawlerPrototype, ['getRobotsTxtFileForUrl'], 'BasicCrawler.prototype')
  prior?.restore()
  const installation = new Installation(klass, from, crawlerPrototype, checked, isLog(log) ? log : undefined)
  installed.set(cls, installation)
  return {
    crawlers: installation.crawlers,
    stats: () => installation.stats(),
    clear: () => installation.clear(),
    restore: () => installation.restore(),
  }
}
