/**
 * A URL as the crawler that judged it requests it: what `useWithCrawlee`'s
 * files and the drop-in package (packages/robots-automaton-compat) judge,
 * since Crawlee fetches the URL parser's form of the string it checked.
 */
import type { Robot } from '../compat.js'

/**
 * Whether the URL parser may write a URL string otherwise than it is given:
 * a char outside visible ASCII, one it percent-encodes or turns into `/`, a
 * dot segment (also as `%2e`), or a scheme not followed by exactly `//` and
 * a host (`http:///a/x` is `http://a/x`), or a `;` in the authority (the
 * reference's path would start there).
 */
const REWRITTEN = /[^\x21-\x7e]|["'<>\\^`{|}]|\/(?:\.|%2e)|^[a-z][\w+.-]*:(?!\/\/[^/])|^[a-z][\w+.-]*:\/\/[^/?#]*;/i

/**
 * A parsed URL as a string whose path, to the reference, is the one sent:
 * its `href`, a `;` in the host written `%3B` (the URL parser reads it back
 * as `;`, so the origin is the same; the userinfo's `;` is already `%3B`).
 */
export function requestedHref(url: URL): string {
  if (!url.host.includes(';')) return url.href
  const userinfo = url.username === '' && url.password === '' ? '' : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`
  return `${url.protocol}//${userinfo}${url.host.replaceAll(';', '%3B')}${url.pathname}${url.search}${url.hash}`
}

/**
 * The URL a crawler requests for `url`: the string as the URL parser writes
 * it (a `\\` is a `/`, a space or non-ASCII char is percent-encoded, dot
 * segments are resolved, a `;` in the authority is `%3B`), so a rule is
 * matched against the path that is sent. A string the parser refuses is returned as it is.
 */
export function requestedUrl(url: string): string {
  if (!REWRITTEN.test(url)) return url
  try {
    return requestedHref(new URL(url))
  } catch {
    return url
  }
}

/** A compat `Robot` that answers for each URL as the crawler requests it (see `requestedUrl`). */
export function requestedUrlView(robot: Robot): Robot {
  const sent = (url: string | URL): string | URL => (typeof url === 'string' ? requestedUrl(url) : url instanceof URL && url.host.includes(';') ? requestedHref(url) : url)
  const view = Object.create(robot) as Robot
  view.isAllowed = (url, ua) => robot.isAllowed(sent(url), ua)
  view.isDisallowed = (url, ua) => robot.isDisallowed(sent(url), ua)
  view.isExplicitlyDisallowed = (url, ua) => robot.isExplicitlyDisallowed(sent(url), ua)
  view.getMatchingLineNumber = (url, ua) => robot.getMatchingLineNumber(sent(url), ua)
  return view
}
