/**
 * What a Crawlee `RobotsTxtFile` holds and calls (its private `robots`
 * member: robots-parser's `isAllowed(url, ua)` and `getSitemaps()`), answered
 * from the rules the cache holds for one origin, as the compat entry answers:
 * the reference's verdict for the product token of `ua`, and `undefined` for
 * a URL of another origin (Crawlee reads that as allowed, as it reads
 * robots-parser's).
 */
import { compatToken } from '../compat.js'
import { robotsLocation, RobotsInputError, RobotsStore, type AgentMatcher, type Robots } from '../index.js'
import { requestedHref, requestedUrl } from './requested-url.js'

/** Where a view reads its rules: the cache entry of its origin, refreshed when it has expired. */
export interface RulesSource {
  /** The rules to judge with now. */
  current(): Robots
}

/** The cache's key of `origin`, or undefined when it has none (too long to be one). */
function keyOf(origin: string): string | undefined {
  try {
    return RobotsStore.keyOf(origin)
  } catch {
    return undefined
  }
}

export class RulesView {
  /** `origin + '/'`: a URL string that starts with it is on the origin whatever follows. */
  private readonly prefix: string
  /** The origin as the cache keys it (`http://example.com.` is `http://example.com`): every spelling of it shares the entry, and so this view. */
  private readonly key: string
  private lastUa: unknown = undefined
  private lastToken = '*'
  /** The matcher of the last (rules, token) asked about. */
  private matcher: AgentMatcher | undefined
  private matcherRobots: Robots | undefined
  private matcherToken = ''

  constructor(
    private readonly origin: string,
    private readonly source: RulesSource,
  ) {
    this.prefix = origin + '/'
    this.key = keyOf(origin) ?? origin
  }

  isAllowed(url: unknown, ua?: unknown): boolean | undefined {
    // The agent is checked whatever the URL's origin.
    const token = this.token(ua)
    const target = this.target(url)
    if (target === undefined) return undefined
    const robots = this.source.current()
    if (robots !== this.matcherRobots || token !== this.matcherToken || this.matcher === undefined) {
      this.matcher = robots.agent(token)
      this.matcherRobots = robots
      this.matcherToken = token
    }
    return this.matcher.isAllowed(target)
  }

  getSitemaps(): string[] {
    return this.source.current().sitemaps.slice()
  }

  /** The URL to match, as the crawler requests it (`requestedUrl`), or undefined when it is not on this origin (or not an absolute http(s) URL). */
  private target(url: unknown): string | undefined {
    if (typeof url === 'string' && url.startsWith(this.prefix)) return requestedUrl(url)
    if (typeof url !== 'string' && !(url instanceof URL)) {
      throw new RobotsInputError(`isAllowed: url must be a string or a URL (got ${url === null ? 'null' : typeof url})`)
    }
    let key: string | undefined
    try {
      const origin = robotsLocation(url).origin
      key = origin === this.origin ? origin : keyOf(origin)
    } catch {
      return undefined
    }
    if (key === undefined) return undefined
    if (key !== this.origin && key !== this.key) return undefined
    return requestedHref(new URL(url))
  }

  /** The product token for `ua` (the last one is remembered: a crawler asks with one agent). */
  private token(ua: unknown): string {
    if (ua !== this.lastUa) {
      if (ua !== undefined && ua !== null && typeof ua !== 'string') {
        throw new RobotsInputError(`isAllowed: user agent must be a string (got ${typeof ua})`)
      }
      this.lastToken = compatToken(ua ?? undefined)
      this.lastUa = ua
    }
    return this.lastToken
  }
}
