/**
 * The URL Crawlee's files judge is the one the crawler requests: a `;` in
 * the userinfo or the host is no start of the path (the URL parser's path is
 * the one sent), for the compat view (`from`, the drop-in) and the rules view
 * (`find`) alike.
 */
import { describe, expect, it } from 'vitest'
import { robotsParser } from '../../src/crawlee/dropin.js'
import { requestedUrl } from '../../src/crawlee/requested-url.js'
import { RulesView } from '../../src/crawlee/rules-view.js'
import { parseRobots } from '../../src/index.js'

const BODY = 'User-agent: *\nDisallow: /private\nDisallow: /public;x\n'

describe('regression: a ; in the userinfo or host was judged as the start of the path', () => {
  const cases: [origin: string, url: string][] = [
    ['http://example.com', 'http://u;x@example.com/private'],
    ['http://example.com', 'http://u:p;q@example.com/private'],
    ['http://example.com', 'http://a;b@c;d@example.com/private'],
    ['http://exa;mple.com', 'http://exa;mple.com/private'],
    ['http://exa;mple.com:81', 'http://u;v@exa;mple.com:81/private?q#f;g'],
    ['http://exa;mple.com', 'http://exa;mple.com/public'],
    ['http://example.com', 'http://u;x@example.com/public'],
    ['http://example.com', 'http://example.com/public;x'],
  ]
  /** The verdict for the path the URL parser gives, which is what is requested. */
  const expected = (url: string): boolean => {
    const u = new URL(url)
    return parseRobots(BODY).agent('x').isAllowed(`http://h${u.pathname}${u.search}`)
  }

  it('the compat view (RobotsTxtFile.from, the drop-in) judges the path sent', () => {
    for (const [origin, url] of cases) {
      const robot = robotsParser(`${origin}/robots.txt`, BODY)
      expect(robot.isAllowed(url, 'x'), url).toBe(expected(url))
      expect(robot.isAllowed(new URL(url), 'x'), `URL ${url}`).toBe(expected(url))
    }
    expect(expected('http://u;x@example.com/private')).toBe(false)
    expect(expected('http://example.com/public;x')).toBe(false)
    expect(expected('http://exa;mple.com/public')).toBe(true)
  })

  it('the rules view (RobotsTxtFile.find) judges the path sent', () => {
    for (const [origin, url] of cases) {
      const view = new RulesView(origin, { current: () => parseRobots(BODY) })
      expect(view.isAllowed(url, 'x'), url).toBe(expected(url))
      expect(view.isAllowed(new URL(url), 'x'), `URL ${url}`).toBe(expected(url))
    }
  })

  it('the string judged names the same origin and path as the one given', () => {
    for (const [, url] of cases) {
      const sent = new URL(requestedUrl(url))
      const given = new URL(url)
      expect([sent.origin, sent.pathname, sent.search], url).toEqual([given.origin, given.pathname, given.search])
    }
    expect(requestedUrl('http://example.com/a;b')).toBe('http://example.com/a;b')
  })
})
