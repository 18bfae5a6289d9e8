/**
 * `robots-automaton/compat`: robots-parser 3.0.1's API and return
 * conventions (checked against robots-parser itself, side by side), with the
 * reference's answers.
 */
import robotsParserJs from 'robots-parser'
import { describe, expect, it } from 'vitest'
import defaultExport, { compatToken, robotsParser } from '../src/compat.js'
import { parseRobots, RobotsInputError } from '../src/index.js'

const BODY = [
  'User-agent: *', // 1
  'Disallow: /private', // 2
  'Allow: /private/ok', // 3
  'Crawl-delay: 2', // 4
  '', // 5
  'User-agent: Googlebot', // 6
  'Disallow: /nogoogle', // 7
  'Crawl-delay: 0.5', // 8
  '', // 9
  'Sitemap: https://example.com/sitemap.xml', // 10
  'Sitemap: https://example.com/news.xml', // 11
  'Host: www.example.com', // 12
].join('\n')

const GOOGLEBOT_HEADER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('compat: robots-parser API', () => {
  const robots = robotsParser('https://example.com/robots.txt', BODY)

  it('isAllowed / isDisallowed / getMatchingLineNumber', () => {
    expect(robots.isAllowed('https://example.com/private/x', 'FooBot')).toBe(false)
    expect(robots.isDisallowed('https://example.com/private/x', 'FooBot')).toBe(true)
    expect(robots.getMatchingLineNumber('https://example.com/private/x', 'FooBot')).toBe(2)
    expect(robots.isAllowed('https://example.com/private/ok', 'FooBot')).toBe(true)
    expect(robots.getMatchingLineNumber('https://example.com/private/ok', 'FooBot')).toBe(3)
    expect(robots.isAllowed('https://example.com/public', 'FooBot')).toBe(true)
    expect(robots.getMatchingLineNumber('https://example.com/public', 'FooBot')).toBe(-1)
    expect(robots.isAllowed('https://example.com/nogoogle', 'Googlebot')).toBe(false)
    expect(robots.isAllowed('https://example.com/private/x', 'Googlebot')).toBe(true)
  })

  it('no user agent means *', () => {
    expect(robots.isAllowed('https://example.com/private/x')).toBe(false)
    expect(robots.getMatchingLineNumber('https://example.com/private/x')).toBe(2)
    expect(robots.getCrawlDelay()).toBe(2)
    expect(robots.isAllowed('https://example.com/private/x', '')).toBe(false)
  })

  it('a full User-Agent header is read as its product token', () => {
    expect(robots.isAllowed('https://example.com/nogoogle', GOOGLEBOT_HEADER)).toBe(false)
    expect(robots.getMatchingLineNumber('https://example.com/nogoogle', GOOGLEBOT_HEADER)).toBe(7)
    expect(robots.getCrawlDelay(GOOGLEBOT_HEADER)).toBe(0.5)
    expect(robots.isAllowed('https://example.com/nogoogle', 'Googlebot/2.1')).toBe(false)
    expect(compatToken(GOOGLEBOT_HEADER)).toBe('Googlebot')
    expect(compatToken('Googlebot-Image/1.0')).toBe('Googlebot-Image')
    // A browser's header has no product token: robots-parser's reading (up to the first "/").
    expect(compatToken('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36')).toBe('Mozilla')
    expect(compatToken('*')).toBe('*')
    expect(compatToken(undefined)).toBe('*')
  })

  it('getCrawlDelay, getSitemaps (a fresh array each time), getPreferredHost', () => {
    expect(robots.getCrawlDelay('FooBot')).toBe(2)
    expect(robots.getCrawlDelay('Googlebot')).toBe(0.5)
    expect(robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /').getCrawlDelay('x')).toBeUndefined()
    const maps = robots.getSitemaps()
    expect(maps).toEqual(['https://example.com/sitemap.xml', 'https://example.com/news.xml'])
    maps.push('x')
    expect(robots.getSitemaps()).toHaveLength(2)
    expect(robots.getPreferredHost()).toBe('www.example.com')
    expect(robotsParser('https://example.com/robots.txt', BODY.replace(/Host.*/, '')).getPreferredHost()).toBeNull()
  })

  it('the body may be bytes as served (robots-parser: a string)', () => {
    const bytes = new TextEncoder().encode(BODY)
    expect(robotsParser('https://example.com/robots.txt', bytes).isAllowed('https://example.com/private/x', 'x')).toBe(false)
    expect(robotsParser('https://example.com/robots.txt', undefined as unknown as string).isAllowed('https://example.com/a')).toBe(true)
  })

  it('regression: getPreferredHost read bytes from the caller\'s buffer when first asked, so a buffer reused meanwhile gave another file\'s host (the rules were the first file\'s); now the first file\'s', () => {
    const buf = Buffer.from('User-agent: *\nDisallow: /private\nHost: good.example\n')
    const robots = robotsParser('https://example.com/robots.txt', buf)
    buf.write('User-agent: *\nDisallow: /public!\nHost: evil.example\n')
    expect([robots.isAllowed('https://example.com/private'), robots.getPreferredHost()]).toEqual([false, 'good.example'])
    // The copy keeps what the limit does: a Host line that ends at 500 KiB, or is cut there, reads as from the whole body.
    for (const end of [511_999, 512_000, 512_001]) {
      const text = '#'.repeat(end - 41) + '\nHost: abcdefghijklmnopqrstuvwxyz.example\r\n'
      const host = robotsParser('https://example.com/robots.txt', text).getPreferredHost()
      expect(robotsParser('https://example.com/robots.txt', Buffer.from(text)).getPreferredHost(), String(end)).toBe(host)
    }
  })

  it("regression: robots-parser's constructor threw an uncoded TypeError on a view of a detached buffer; it reads as an empty body, as parseRobots reads it", () => {
    const buffer = new ArrayBuffer(32)
    const view = new Uint8Array(buffer)
    structuredClone(buffer, { transfer: [buffer] })
    expect(view.byteLength).toBe(0)
    const robots = robotsParser('https://example.com/robots.txt', view)
    const empty = robotsParser('https://example.com/robots.txt', '')
    expect([robots.isAllowed('https://example.com/x', 'FooBot'), robots.getSitemaps(), robots.getPreferredHost(), robots.getMatchingLineNumber('https://example.com/x', 'FooBot')])
      .toEqual([empty.isAllowed('https://example.com/x', 'FooBot'), empty.getSitemaps(), empty.getPreferredHost(), empty.getMatchingLineNumber('https://example.com/x', 'FooBot')])
    expect(parseRobots(view).agent('FooBot').isAllowed('/x')).toBe(true)
  })

  it('URL objects are accepted wherever robots-parser accepts them', () => {
    const r = robotsParser(new URL('https://example.com/robots.txt'), BODY)
    expect(r.isAllowed(new URL('https://example.com/private/x'), 'FooBot')).toBe(false)
    expect(r.getMatchingLineNumber(new URL('https://example.com/private/x'), 'FooBot')).toBe(2)
    expect(r.isAllowed(new URL('https://other.example/private/x'), 'FooBot')).toBeUndefined()
    const rp = robotsParserJs(new URL('https://example.com/robots.txt') as unknown as string, BODY)
    expect(rp.isAllowed(new URL('https://example.com/private/x') as unknown as string, 'FooBot')).toBe(false)
  })

  it('default and named exports are the same function', () => {
    expect(defaultExport).toBe(robotsParser)
  })

  it('a URL that is neither a string nor a URL, or a non-string agent: a coded TypeError (a robots.txt URL may also be undefined or null)', () => {
    for (const bad of [42, {}, null, undefined, new Uint8Array(2)]) {
      expect(() => robots.isAllowed(bad as unknown as string), String(bad)).toThrow(RobotsInputError)
      if (bad !== null && bad !== undefined) expect(() => robotsParser(bad as unknown as string, BODY)).toThrow(TypeError)
    }
    let err: unknown
    try {
      robots.isAllowed('https://example.com/a', 42 as unknown as string)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(TypeError)
    expect((err as RobotsInputError).code).toBe('ERR_INPUT')
  })

  it('regression: a non-string agent with a URL of another origin (or a relative one) answered undefined, -1 and true, where robots-parser throws: ERR_INPUT whatever the URL', () => {
    for (const url of ['https://other.example/a', '/a', 'http://example.com/a', 'not a url']) {
      for (const bad of [42, {}, Symbol('ua'), ['Googlebot']]) {
        const ua = bad as unknown as string
        expect(() => robotsParserJs('https://example.com/robots.txt', BODY).isAllowed(url, ua), `robots-parser ${url}`).toThrow(TypeError)
        expect(() => robots.isAllowed(url, ua), url).toThrow(RobotsInputError)
        expect(() => robots.isDisallowed(url, ua), url).toThrow(RobotsInputError)
        expect(() => robots.getMatchingLineNumber(url, ua), url).toThrow(RobotsInputError)
        expect(() => robots.isExplicitlyDisallowed(url, ua), url).toThrow(RobotsInputError)
      }
    }
    expect(robots.isAllowed('https://other.example/a', 'Googlebot')).toBeUndefined()
  })
})

describe('compat: the origin check is robots-parser\'s, side by side', () => {
  const robotsUrls = [
    'http://example.com/robots.txt',
    'https://example.com/robots.txt',
    'https://example.com:443/robots.txt',
    'http://example.com:8080/robots.txt',
    'HTTP://EXAMPLE.COM/robots.txt',
    'http://bücher.example/robots.txt',
    'http://xn--bcher-kva.example/robots.txt',
    'ftp://example.com/robots.txt',
    '/robots.txt',
    'http://[::1]/robots.txt',
    'not a url at all',
    'http://',
  ]
  const urls = [
    'http://example.com/a',
    'https://example.com/a',
    'http://example.com:80/a',
    'https://example.com:443/a',
    'http://example.com:8080/a',
    'http://www.example.com/a',
    'HTTP://EXAMPLE.COM/a',
    'http://user:pw@example.com/a',
    'http://bücher.example/a',
    'http://xn--bcher-kva.example/a',
    'ftp://example.com/a',
    'ftp://example.com:80/a',
    '/a',
    '//example.com/a',
    'example.com/a',
    'http://[::1]/a',
    'http://[0:0::1]:80/a',
    'http://',
    '',
    // Starting with the robots.txt origin's serialisation (the fast path): the same origin, whatever follows.
    'https://example.com/@evil.example/a',
    'https://example.com/\\evil.example',
    'https://example.com/%2e%2e/a',
    'https://example.com/a b\t<>',
    'https://example.com//evil.example/a',
    'https://example.com.evil.example/a',
    'https://example.com:443@evil.example/a',
  ]

  it('undefined from isAllowed, true from isDisallowed, -1 from getMatchingLineNumber for another origin, as robots-parser', () => {
    let foreign = 0
    let same = 0
    for (const base of robotsUrls) {
      const ours = robotsParser(base, 'User-agent: *\nDisallow: /a\n')
      const theirs = robotsParserJs(base, 'User-agent: *\nDisallow: /a\n')
      for (const u of urls) {
        let want: boolean | undefined | 'throws'
        try {
          want = theirs.isAllowed(u, 'bot')
        } catch {
          // robots-parser throws when neither URL parses; compat says "another origin".
          want = 'throws'
        }
        const got = ours.isAllowed(u, 'bot')
        expect(got === undefined, `${base} ${u}`).toBe(want === undefined || want === 'throws')
        if (got === undefined) {
          foreign++
          expect(ours.getMatchingLineNumber(u, 'bot')).toBe(-1)
          expect(ours.isDisallowed(u, 'bot')).toBe(true)
          if (want === undefined) {
            expect(theirs.getMatchingLineNumber(u, 'bot')).toBe(-1)
            expect(theirs.isDisallowed(u, 'bot')).toBe(true)
          }
        } else same++
      }
    }
    expect(foreign).toBeGreaterThan(150)
    expect(same).toBeGreaterThan(20)
  })

  it('neither URL parses: robots-parser throws a TypeError, compat answers "another origin"', () => {
    expect(() => robotsParserJs('http://', 'User-agent: *\nDisallow: /\n').isAllowed('http://')).toThrow(TypeError)
    const ours = robotsParser('http://', 'User-agent: *\nDisallow: /\n')
    expect(ours.isAllowed('http://')).toBeUndefined()
    expect(ours.isAllowed('http://example.com/')).toBeUndefined()
  })
})

describe('compat: a robots.txt URL that is undefined, null or unparseable, as robots-parser takes it', () => {
  const body = 'user-agent: *\ndisallow: /\nhost: www.example.com\n'
  const urls = ['http://www.example.com/index.html', 'https://www.example.com/', '/index.html', 'index.html', 'http://robots-relative.samclarke.com/x', 'http://robots-relative.samclarke.com/null']

  it('regression (robotsParser(undefined, body) threw RobotsInputError): answers as robots-parser, URL by URL', () => {
    for (const robotsUrl of [undefined, null, 'null', ':/wom/test/', 'http://[', '']) {
      const theirs = robotsParserJs(robotsUrl as string, body)
      const ours = robotsParser(robotsUrl, body)
      for (const u of urls) {
        expect(ours.isAllowed(u), `${String(robotsUrl)} ${u}`).toBe(theirs.isAllowed(u))
        expect(ours.isDisallowed(u), `${String(robotsUrl)} ${u}`).toBe(theirs.isDisallowed(u))
      }
      expect(ours.isAllowed('http://www.example.com/index.html')).toBeUndefined()
      expect(ours.getPreferredHost()).toBe('www.example.com')
    }
  })

  it('undefined and null are the relative URLs "undefined" and "null": relative URLs are on their origin', () => {
    for (const robotsUrl of [undefined, null]) {
      expect(robotsParser(robotsUrl, body).isAllowed('/index.html')).toBe(false)
      expect(robotsParserJs(robotsUrl as unknown as string, body).isAllowed('/index.html')).toBe(false)
    }
  })

  it('an unparseable one is on no origin: undefined for every URL', () => {
    const ours = robotsParser('http://[', body)
    for (const u of urls) expect(ours.isAllowed(u), u).toBeUndefined()
  })
})

describe("compat: isExplicitlyDisallowed (robots-parser's repository, after 3.0.1)", () => {
  const url = 'https://www.example.com/hello'

  it('not disallowed when only the * group disallows', () => {
    const robots = robotsParser(url, 'User-agent: *\nDisallow: /\n')
    expect(robots.isDisallowed(url, 'SomeBot')).toBe(true)
    expect(robots.isExplicitlyDisallowed(url, 'SomeBot')).toBe(false)
  })

  it("disallowed when the agent's own group disallows", () => {
    const robots = robotsParser(url, 'User-agent: SomeBot\nDisallow: /\n')
    expect(robots.isDisallowed(url, 'SomeBot')).toBe(true)
    expect(robots.isExplicitlyDisallowed(url, 'SomeBot')).toBe(true)
  })

  it("disallowed when the agent's group and the * group both disallow", () => {
    const robots = robotsParser(url, 'User-agent: SomeBot\nDisallow: /\nUser-agent: *\nDisallow: /\n')
    expect(robots.isDisallowed(url, 'SomeBot')).toBe(true)
    expect(robots.isExplicitlyDisallowed(url, 'SomeBot')).toBe(true)
  })

  it('undefined for a URL of another origin', () => {
    const robots = robotsParser('http://example.com', 'User-agent: SomeBot\nDisallow: /\n')
    expect(robots.isExplicitlyDisallowed(url, 'SomeBot')).toBeUndefined()
  })

  it("the agent's groups decide, as the reference merges them: an allow there wins over the * group", () => {
    const body = 'User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /ads/\nAllow: /ads/ok\n\nUser-agent: adsbot-google\nDisallow: /more/\n'
    const robots = robotsParser('https://e.com/robots.txt', body)
    const cases: [string, boolean][] = [['/ads/x', true], ['/ads/ok', false], ['/more/x', true], ['/other', false], ['/', false]]
    for (const [path, want] of cases) {
      expect(robots.isExplicitlyDisallowed(`https://e.com${path}`, 'AdsBot-Google'), path).toBe(want)
      expect(robots.isExplicitlyDisallowed(`https://e.com${path}`, 'Mozilla/5.0 (compatible; AdsBot-Google/1.0)'), path).toBe(want)
      // An agent no group names is never explicitly disallowed, though * disallows everything.
      expect(robots.isExplicitlyDisallowed(`https://e.com${path}`, 'OtherBot'), path).toBe(false)
      expect(robots.isDisallowed(`https://e.com${path}`, 'OtherBot'), path).toBe(true)
    }
  })

  it('an agent named by a group without rules, a missing agent, or *: false', () => {
    const robots = robotsParser('https://e.com/robots.txt', 'User-agent: *\nDisallow: /\nUser-agent: EmptyBot\n')
    expect(robots.isExplicitlyDisallowed('https://e.com/x', 'EmptyBot')).toBe(false)
    expect(robots.isAllowed('https://e.com/x', 'EmptyBot')).toBe(true)
    expect(robots.isExplicitlyDisallowed('https://e.com/x', '*')).toBe(false)
    expect(robots.isExplicitlyDisallowed('https://e.com/x', undefined as unknown as string)).toBe(false)
  })

  it('the same object answers isAllowed and isExplicitlyDisallowed for alternating agents (the per-agent cache is reset)', () => {
    const robots = robotsParser('https://e.com/robots.txt', 'User-agent: A\nDisallow: /a\nUser-agent: *\nDisallow: /\n')
    for (let i = 0; i < 3; i++) {
      expect(robots.isExplicitlyDisallowed('https://e.com/a', 'A')).toBe(true)
      expect(robots.isExplicitlyDisallowed('https://e.com/a', 'B')).toBe(false)
      expect(robots.isAllowed('https://e.com/b', 'A')).toBe(true)
      expect(robots.isAllowed('https://e.com/b', 'B')).toBe(false)
    }
  })
})

describe('compat: the answers are the reference\'s', () => {
  it('equal the core API on every method', () => {
    const body = 'User-agent: FooBot\nDisallow: /a\nAllow: /a/index.html\nCrawl-delay: 7\nUser-agent: *\nDisallow: /'
    const core = parseRobots(body)
    const compat = robotsParser('https://e.com/robots.txt', body)
    for (const ua of ['FooBot', 'Other', 'Mozilla/5.0 (compatible; FooBot/1.0)']) {
      const token = compatToken(ua)
      for (const path of ['/a', '/a/', '/a/index.html', '/b', '/', '/a/x']) {
        const e = core.agent(token).explain(path)
        expect(compat.isAllowed('https://e.com' + path, ua), `${ua} ${path}`).toBe(e.allowed)
        expect(compat.getMatchingLineNumber('https://e.com' + path, ua), `${ua} ${path}`).toBe(e.rule?.line ?? -1)
      }
      expect(compat.getCrawlDelay(ua)).toBe(core.crawlDelay(token))
    }
  })
})
