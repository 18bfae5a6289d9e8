import { describeValue, RobotsInputError } from '../errors.js'
import { MAX_KEY_BYTES, storeKey } from '../store/origin-keys.js'
import { hostProblem } from '../url/url-scan-record.js'

/** Where the robots.txt of a site lives. */
export interface RobotsLocation {
  /** `scheme://authority` of the site (no user info, default port omitted), e.g. `https://example.com:8443`. */
  origin: string
  /** `origin + '/robots.txt'`. */
  robotsUrl: string
}

/**
 * The origin of any URL of a site and the URL of its robots.txt
 * (RFC 9309 §2.3: `scheme://authority/robots.txt`). Accepts a full URL or just
 * the origin. Throws `RobotsInputError` (code `ERR_INPUT`) for anything that is
 * not an absolute http(s) URL, saying why when its host or port is refused
 * (`http://xn--a.com/`: not a valid international domain name).
 */
export function robotsLocation(url: string | URL): RobotsLocation {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : new URL(url.href)
  } catch {
    // A URL whose host or port the parser refuses names no site: say which part, and why.
    const why = typeof url === 'string' ? hostProblem(url) : ''
    throw new RobotsInputError(why === '' ? `not an absolute URL: ${JSON.stringify(typeof url === 'string' ? url : describeValue(url))}` : `not a URL of a site: ${JSON.stringify(url)}: ${why}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RobotsInputError(`robots.txt is fetched over http(s) only, got ${parsed.protocol}`)
  }
  if (parsed.host === '') throw new RobotsInputError(`URL has no host: ${parsed.href}`)
  const origin = `${parsed.protocol}//${parsed.host}`
  return { origin, robotsUrl: `${origin}/robots.txt` }
}

/**
 * The cache key for a URL: its origin as the store keys it, so that one site
 * is one entry (`example.com.` is `example.com`: a trailing dot dropped), and
 * an origin too long for a key is refused before any fetch.
 */
export function originOf(url: string | URL): string {
  const origin = robotsLocation(url).origin
  // The URL parser wrote the rest as the store does; IPv6 hosts hold no dot.
  return origin.length > MAX_KEY_BYTES || origin.endsWith('.') || origin.includes('.:') ? storeKey(origin, 'RobotsCache').key : origin
}
