/**
 * `robots-automaton/compat`: the API of robots-parser (3.0.1), answered by
 * this library, for migrating code that uses robots-parser: change the import
 * (`import robotsParser from 'robots-automaton/compat'`) and keep the code.
 * The answers are the reference's (google/robotstxt), not robots-parser's;
 * docs/migrating.md lists every class of difference. Browser-safe, like the core.
 * @module robots-automaton/compat
 */
import { RobotsInputError } from './errors.js'
import type { AgentMatcher } from './match/matcher.js'
import type { ParseHandler } from './parse/handler.js'
import { parseInto } from './parse/parser.js'
import { DEFAULT_LIMIT } from './parse/reader.js'
import { productTokens } from './parse/user-agent.js'
import { readHost } from './rules/extensions.js'
import { parseRobots, type Robots } from './robots/robots.js'

/** What `robotsParser` returns: robots-parser's `Robot`. */
export interface Robot {
  /** True or false for a URL of this robots.txt's origin; undefined for another origin. */
  isAllowed(url: string | URL, ua?: string): boolean | undefined
  /** `!isAllowed(url, ua)`: also true for a URL of another origin, as in robots-parser. */
  isDisallowed(url: string | URL, ua?: string): boolean
  /**
   * True when a group that names the crawler disallows the URL; never because
   * of the `*` groups (robots-parser's repository after 3.0.1, for crawlers
   * such as AdsBot that ignore `*`). False when no group names it (or `ua`
   * is missing or `*`); undefined for a URL of another origin.
   */
  isExplicitlyDisallowed(url: string | URL, ua: string): boolean | undefined
  /** Line (1-based) of the rule that decided, the reference's matching line; -1 when none or another origin. */
  getMatchingLineNumber(url: string | URL, ua?: string): number
  /** Crawl-delay in seconds for the crawler (its groups, else `*`); undefined when none. */
  getCrawlDelay(ua?: string): number | undefined
  /** The absolute http(s) sitemap URLs, in file order (a fresh array). */
  getSitemaps(): string[]
  /** The first valid `Host:` value of the file, lowercased; null when none. */
  getPreferredHost(): string | null
}

/** robots-parser's base for relative URLs (a host that never conflicts with a real one). */
const RELATIVE_BASE = 'http://robots-relative.samclarke.com/'

/** An origin as robots-parser compares it; `null` fields for a URL it cannot parse. */
interface Origin {
  protocol: string | null
  hostname: string | null
  port: string | null
}

const NO_ORIGIN: Origin = Object.freeze({ protocol: null, hostname: null, port: null })

function checkUrl(url: unknown, what: string): asserts url is string | URL {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw new RobotsInputError(`${what} must be a string or a URL (got ${url === null ? 'null' : typeof url})`)
  }
}

/** robots-parser's parseUrl: resolve against its base, make the default port explicit. */
function parseLikeRobotsParser(url: string | URL | null | undefined): URL | null {
  let u: URL
  try {
    // As robots-parser's `new URL(url, base)`: undefined and null as the relative URLs `undefined` and `null`.
    u = new URL(url ?? String(url), RELATIVE_BASE)
  } catch {
    return null
  }
  // As robots-parser: setting the scheme's default port leaves it empty, so
  // `https://a:443/` and `https://a/` compare equal; another scheme gets 80.
  if (!u.port) u.port = u.protocol === 'https:' ? '443' : '80'
  return u
}

function originOf(url: string | URL | null | undefined): Origin {
  const u = parseLikeRobotsParser(url)
  return u ? { protocol: u.protocol, hostname: u.hostname, port: u.port } : NO_ORIGIN
}

/**
 * For an http(s) robots.txt URL, the serialised origin plus `/`
 * (`https://example.com/`): a URL string that starts with it has that origin
 * whatever follows (the authority ends at that `/`), so it needs no parse.
 */
function originPrefix(url: string | URL | null | undefined): string | null {
  const u = parseLikeRobotsParser(url)
  return u && (u.protocol === 'http:' || u.protocol === 'https:') ? `${u.protocol}//${u.host}/` : null
}

/**
 * robots-parser's comparison; a URL the WHATWG parser rejects is on no origin
 * (robots-parser throws a TypeError when both URLs are unparseable).
 */
function sameOrigin(a: Origin, b: Origin): boolean {
  return a.protocol !== null && a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port
}

/** The product token the reference is asked about for robots-parser's `ua` argument. */
export function compatToken(ua: string | undefined): string {
  if (ua === undefined || ua === null || ua === '') return '*'
  if (typeof ua !== 'string') throw new RobotsInputError(`user agent must be a string (got ${typeof ua})`)
  const tokens = productTokens(ua)
  if (tokens.length) return tokens[0]
  const slash = ua.indexOf('/')
  return (slash < 0 ? ua : ua.slice(0, slash)).trim() || '*'
}

/** Collects the first valid `Host:` value of a body. */
class HostFinder implements ParseHandler {
  host: string | null = null
  userAgent(): void {}
  allow(): void {}
  disallow(): void {}
  sitemap(): void {}
  unknown(_line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number, bytes: Uint8Array, start: number, end: number): void {
    if (this.host !== null || keyEnd - keyStart !== 4) return
    let key = ''
    for (let i = keyStart; i < keyEnd; i++) key += String.fromCharCode(keyBytes[i] | 0x20)
    if (key !== 'host') return
    const read = readHost(new TextDecoder().decode(bytes.subarray(start, end)))
    if (typeof read.value === 'string') this.host = read.value
  }
}

class CompatRobot implements Robot {
  private readonly origin: Origin
  private readonly prefix: string | null
  private readonly robots: Robots
  private readonly body: string | Uint8Array
  private preferredHost: string | null | undefined
  private lastUa: string | undefined = undefined
  private lastToken = '*'
  private lastMatcher: AgentMatcher | null = null
  /** Whether a group names the last token (computed when first asked). */
  private lastNamed: boolean | undefined = undefined

  constructor(url: string | URL | null | undefined, contents: string | Uint8Array) {
    this.origin = originOf(url)
    this.prefix = originPrefix(url)
    this.robots = parseRobots(contents)
    // Bytes are copied, as far as a parse reads (and one more: whether the limit cut a line): the caller may reuse its buffer.
    // A view of a detached buffer reads as empty, as the parse read it; slicing one would throw.
    this.body = typeof contents === 'string' ? contents : contents.byteLength > 0 ? Uint8Array.prototype.slice.call(contents, 0, DEFAULT_LIMIT + 1) : new Uint8Array(0)
  }

  isAllowed(url: string | URL, ua?: string): boolean | undefined {
    const target = this.target(url, ua)
    if (target === undefined) return undefined
    return this.matcher(ua).isAllowed(target)
  }

  isDisallowed(url: string | URL, ua?: string): boolean {
    return !this.isAllowed(url, ua)
  }

  isExplicitlyDisallowed(url: string | URL, ua: string): boolean | undefined {
    const target = this.target(url, ua)
    if (target === undefined) return undefined
    // The reference ignores `*` for a crawler that a group names, so its verdict is that group's.
    if (!this.named(ua)) return false
    return !this.matcher(ua).isAllowed(target)
  }

  getMatchingLineNumber(url: string | URL, ua?: string): number {
    const target = this.target(url, ua)
    if (target === undefined) return -1
    return this.matcher(ua).explain(target).rule?.line ?? -1
  }

  getCrawlDelay(ua?: string): number | undefined {
    return this.robots.crawlDelay(this.token(ua))
  }

  getSitemaps(): string[] {
    return this.robots.sitemaps.slice()
  }

  getPreferredHost(): string | null {
    if (this.preferredHost === undefined) {
      const finder = new HostFinder()
      parseInto(this.body, finder)
      this.preferredHost = finder.host
    }
    return this.preferredHost
  }

  /** The URL to match, or undefined when it is not on this robots.txt's origin; `ua` is checked first, whatever the origin. */
  private target(url: string | URL, ua: string | undefined): string | undefined {
    this.token(ua)
    if (typeof url === 'string' && this.prefix !== null && url.startsWith(this.prefix)) return url
    checkUrl(url, 'url')
    if (!sameOrigin(originOf(url), this.origin)) return undefined
    return typeof url === 'string' ? url : url.href
  }

  /** The token for `ua`; the last one is remembered (callers pass the same agent in a loop). */
  private token(ua: string | undefined): string {
    if (ua !== this.lastUa) {
      this.lastToken = compatToken(ua)
      this.lastUa = ua
      this.lastMatcher = null
      this.lastNamed = undefined
    }
    return this.lastToken
  }

  /** Whether a group of the file names the crawler `ua` (never for `*`). */
  private named(ua: string | undefined): boolean {
    const token = this.token(ua)
    return (this.lastNamed ??= token !== '*' && this.robots.rulesFor(token).specific)
  }

  private matcher(ua: string | undefined): AgentMatcher {
    const token = this.token(ua)
    return (this.lastMatcher ??= this.robots.agent(token))
  }
}

/**
 * robots-parser's entry point: the rules of `contents` (the robots.txt body,
 * a string or the bytes as served) for the site whose robots.txt is at `url`.
 *
 * ```ts
 * import robotsParser from 'robots-automaton/compat'        // was: from 'robots-parser'
 * const { robotsParser } = require('robots-automaton/compat') // CommonJS
 *
 * const robots = robotsParser('https://example.com/robots.txt', body)
 * robots.isAllowed('https://example.com/a', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
 * ```
 *
 * The robots.txt URL may be undefined, null or unparseable, as robots-parser
 * allows: it is then read as robots-parser reads it (`undefined` as the
 * relative URL `undefined`; an unparseable one is on no origin), so
 * `isAllowed` answers `undefined` for every absolute URL.
 *
 * Signatures and return conventions are robots-parser's: `undefined` from
 * `isAllowed` for a URL on another protocol, host or port (compared as
 * robots-parser compares them: both URLs parsed by the WHATWG URL parser
 * against robots-parser's base for relative URLs, default ports made
 * explicit), `true` from `isDisallowed` there (`!undefined`, as robots-parser
 * does), `-1` from `getMatchingLineNumber` when no rule matched and for
 * another origin. test/compat-differences.test.ts finds every class of
 * difference from robots-parser on the corpus.
 *
 * - The user agent may be a product token (`Googlebot`), a token with a
 *   version (`Googlebot/2.1`) or a whole User-Agent header: the first of
 *   `productTokens(ua)` is used; a value without one (a browser's header)
 *   falls back to robots-parser's reading (up to the first `/`), and a
 *   missing or empty one means `*`.
 * - A URL is matched as given (a `URL` object as its `href`), as the
 *   reference matches it; robots-parser matches the WHATWG serialisation.
 */
export function robotsParser(url: string | URL | null | undefined, contents: string | Uint8Array | null | undefined): Robot {
  if (url !== undefined && url !== null) checkUrl(url, 'robots.txt url')
  return new CompatRobot(url, contents ?? '')
}

export default robotsParser
