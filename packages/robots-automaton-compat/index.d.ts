/**
 * robots-parser's API (3.0.1), answered by robots-automaton with the answers
 * of google/robotstxt, the reference. The module is the function, as
 * robots-parser's is; `default` and `robotsParser` on it are the function too.
 */
/** The WHATWG `URL` class where the project's types declare one (DOM or Node), else nothing. */
type WhatwgURL = typeof globalThis extends { URL: { prototype: infer U } } ? U : never

type RobotsParser = (url: string | WhatwgURL | null | undefined, robotstxt: string | Uint8Array | null | undefined) => robotsParser.Robot

declare const robotsParser: RobotsParser & {
  /** The function (`import robotsParser from 'robots-parser'` without esModuleInterop). */
  readonly default: RobotsParser
  /** The function (`const { robotsParser } = require('robots-parser')`). */
  readonly robotsParser: RobotsParser
  /** The product token asked about for a `ua` argument: the first of a User-Agent's tokens (`*` when none). */
  readonly compatToken: (ua: string | undefined) => string
}

declare namespace robotsParser {
  /** What `robotsParser` returns: robots-parser's `Robot`. */
  interface Robot {
    /** True or false for a URL of this robots.txt's origin; undefined for another origin. */
    isAllowed(url: string | WhatwgURL, ua?: string): boolean | undefined
    /** `!isAllowed(url, ua)`: also true for a URL of another origin, as in robots-parser. */
    isDisallowed(url: string | WhatwgURL, ua?: string): boolean
    /** True when a group that names the crawler disallows the URL, never because of `*`; undefined for another origin. */
    isExplicitlyDisallowed(url: string | WhatwgURL, ua: string): boolean | undefined
    /** Line (1-based) of the rule that decided; -1 when none or another origin. */
    getMatchingLineNumber(url: string | WhatwgURL, ua?: string): number
    /** Crawl-delay in seconds for the crawler (its groups, else `*`); undefined when none. */
    getCrawlDelay(ua?: string): number | undefined
    /** The absolute http(s) sitemap URLs, in file order. */
    getSitemaps(): string[]
    /** The first valid `Host:` value, lowercased; null when none. */
    getPreferredHost(): string | null
  }
}

export = robotsParser
