/**
 * What a Crawlee `RobotsTxtFile` holds and calls (its private `robots`
 * member: robots-parser's `isAllowed(url, ua)` and `getSitemaps()`), answered
 * from the rules the cache holds for one origin, as the compat entry answers:
 * the reference's verdict for the product token of `ua`, and `undefined` for
 * a URL of another origin (Crawlee reads that as allowed, as it reads
 * robots-parser's).
 */
import { compatToken, type Robot } from '../compat.js'
import { robotsLocation, RobotsInputError, type AgentMatcher, type Robots } from '../index.js'

/** Where a view reads its rules: the cache entry of its origin, refreshed when it has expired. */
export interface RulesSource {
  /** The rules to judge with now. */
  current(): Robots
}

/**
 * Whether the URL parser may write a URL string otherwise than it is given:
 * a char outside visible ASCII, one it percent-encodes or turns into `/`, or
 * a dot segment (also as `%2e`).
 */
const REWRITTEN = /[^\x21-\x7e]|["'<>\\^`{|}]|\/(?:\.|%2e)/i

/**
 * The URL a crawler requests for `url`: the string as the URL parser writes
 * it (a `\\` is a `/`, a space or non-ASCII char is percent-encoded, dot
 * segments are resolved), so a rule is matched against the path that is
 * sent. A string the parser refuses is returned as it is.
 */
export function requestedUrl(url: string): string {
  if (!REWRITTEN.test(url)) return url
  try {
    return new URL(url).href
  } catch {
    return url
  }
}

/** A compat `Robot` that answers for each URL as the crawler requests it (see `requestedUrl`). */
export function requestedUrlView(robot: Robot): Robot {
  const sent = (url: string | URL): string | URL => (typeof url === 'string' ? requestedUrl(url) : url)
  const view = Object.create(robot) as Robot
  view.isAllowed = (url, ua) => robot.isAllowed(sent(url), ua)
  view.isDisallowed = (url, ua) => robot.isDisallowed(sent(url), ua)
  view.isExplicitlyDisallowed = (url, ua) => robot.isExplicitlyDisallowed(sent(url), ua)
  view.getMatchingLineNumber = (url, ua) => robot.getMatchingLineNumber(sent(url), ua)
  return view
}

export class RulesView {
  /** `origin + '/'`: a URL string that starts with it is on the origin whatever follows. */
  private readonly prefix: string
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
    let origin: string
    try {
      origin = robotsLocation(url).origin
    } catch {
      return undefined
    }
    if (origin !== this.origin) return undefined
    return new URL(url).href
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
