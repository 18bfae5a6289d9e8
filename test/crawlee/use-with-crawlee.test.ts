/**
 * `useWithCrawlee` with a real Crawlee (the fixture's, installed outside the
 * repository): crawlers on a 32-page site on 127.0.0.1, one robots.txt case
 * at a time, each asserting the pages the site served and the robots.txt
 * requests it saw. Every case gives RFC 9309's outcome and the reference's
 * answers; `restore()` brings Crawlee's own back (and its answers differ,
 * so the cases can fail).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEFAULT_CRAWLEE_USER_AGENT, useWithCrawlee, type CrawleeRobots, type CrawleeRobotsOptions } from '../../src/crawlee.js'
import { ROOT } from '../support/build.js'
import { typecheck } from '../support/typecheck.js'
import { ALL_PAGES, crawl, loadCrawlee, loopbackOnly, pagesExcept, removeStorage, type LoopbackGuard, type RobotsFile } from './support/crawl.js'
import { startProxy, type TestProxy } from './support/proxy.js'
import { startSite, type RobotsAnswer, type Site } from './support/site.js'

// From before Crawlee is loaded: nothing it does may leave the machine.
const guard: LoopbackGuard = loopbackOnly()
const loaded = loadCrawlee()
if (loaded.skip !== undefined) guard.restore()
const FULL_UA = 'Mozilla/5.0 (compatible; MyBot/1.0; +http://127.0.0.1/bot.html)'
const HOUR = 3_600_000

describe.skipIf(loaded.skip !== undefined)(
  loaded.skip !== undefined ? `useWithCrawlee with a real Crawlee (skipped: ${loaded.skip})` : 'useWithCrawlee with a real Crawlee',
  () => {
    const crawlee = loaded.crawlee!
    let site: Site | undefined
    let robots: CrawleeRobots | undefined
    let clock = Date.now()
    const now = (): number => clock

    afterEach(async () => {
      robots?.restore()
      robots = undefined
      await site?.close()
      site = undefined
    })
    afterAll(() => {
      guard.restore()
      removeStorage()
    })

    /**
     * A site answering `answer`, and Crawlee with this library on the test's
     * clock. The fetch deadline is the default (10 s, which an answering
     * site never meets) except where the site never answers: there it is short.
     */
    async function setUp(answer: RobotsAnswer, options: CrawleeRobotsOptions = {}): Promise<Site> {
      site = await startSite(answer)
      clock = Date.now()
      robots = useWithCrawlee(crawlee, { now, ...('hang' in answer ? { timeoutMs: 1_500 } : {}), ...options })
      return site
    }

    const fetchLines = (log: { message: string }[]): string[] => log.map((l) => l.message).filter((m) => m.startsWith('robots.txt of '))

    describe('fetching (RFC 9309 §2.3): a CheerioCrawler, respectRobotsTxtFile: true', () => {
      it('200 with rules: the rules apply; one robots.txt request, one log line', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        const lines = fetchLines(r.log)
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(/^robots\.txt of http:\/\/127\.0\.0\.1:\d+: ok: HTTP 200 from .*\/robots\.txt, 33 bytes; next fetch in 24 h$/)
        expect(s.robotsUserAgents).toEqual([DEFAULT_CRAWLEE_USER_AGENT])
      })

      it('404 whose body says Disallow: / : unavailable, every page', async () => {
        const s = await setUp({ status: 404, body: 'User-agent: *\nDisallow: /\n' })
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(ALL_PAGES)
        expect(r.robotsRequests).toBe(1)
        expect(fetchLines(r.log)[0]).toMatch(/unavailable, allow all: HTTP 404/)
      })

      for (const [name, answer, why] of [
        ['500', { status: 500, body: 'User-agent: *\nAllow: /\n' }, /unreachable, disallow all: HTTP 500/],
        ['503', { status: 503 }, /unreachable, disallow all: HTTP 503/],
        ['429', { status: 429 }, /unreachable, disallow all: HTTP 429/],
        ['a connection reset', { reset: true }, /unreachable, disallow all: connection error/],
        ['a robots.txt that never answers', { hang: true }, /unreachable, disallow all: timeout fetching/],
      ] as const) {
        it(`${name}: unreachable, no page; one robots.txt request, a warning`, async () => {
          const s = await setUp(answer)
          const r = await crawl(crawlee, s)
          expect(r.pages).toEqual([])
          expect(r.robotsRequests).toBe(1)
          const warning = r.log.find((l) => l.message.startsWith('robots.txt of '))
          expect(warning?.message).toMatch(why)
          expect(warning?.level).toBe(crawlee.LogLevel.WARNING)
        })
      }

      it('6 redirects: unavailable (more than 5), every page; 6 requests (robots.txt and 5 hops)', async () => {
        const s = await setUp({ redirects: 6, body: 'User-agent: *\nDisallow: /\n' })
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(ALL_PAGES)
        expect(r.robotsRequests).toBe(6)
        expect(fetchLines(r.log)[0]).toMatch(/unavailable, allow all: more than 5 redirects/)
      })

      it('5 redirects are followed: the file at the end applies', async () => {
        const s = await setUp({ redirects: 5, body: 'User-agent: *\nDisallow: /private\n' })
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(6)
      })

      it('a file over 500 KiB: read up to the limit while it streams, the rest not downloaded', async () => {
        // Big enough that loopback's socket buffers cannot hide whether the rest was read.
        const filler = 64 * 1024 * 1024
        const s = await setUp({ big: { head: 'User-agent: *\nDisallow: /private\n', fillerBytes: filler, tail: 'Disallow: /\n' } })
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        expect(s.bigBytesWritten).toBeLessThan(filler / 4)
        expect(fetchLines(r.log)[0]).toMatch(/ok: HTTP 200 .*, truncated at \d+ bytes/)
      })

      it('a full User-Agent as the agent: judged for its product token (MyBot) and sent as given', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n' })
        const r = await crawl(crawlee, s, { agent: FULL_UA })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        expect(s.robotsUserAgents).toEqual([FULL_UA])
      })

      it('the userAgent option is the User-Agent sent; the crawler still judges for its own token', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n' }, { userAgent: 'MyBot/2.0 (+http://127.0.0.1/)' })
        const r = await crawl(crawlee, s, { agent: 'MyBot' })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(s.robotsUserAgents).toEqual(['MyBot/2.0 (+http://127.0.0.1/)'])
      })
    })

    describe('a crawler agent that cannot be a header value', () => {
      it("a respectRobotsTxtFile.userAgent with a char past U+00FF is judged, robots.txt asked for with the default User-Agent and a warning (it was recorded as the site unreachable: no page)", async () => {
        const agent = 'MyBot/1.0 (+https://\u4f8b\u3048.jp/bot)'
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n' })
        const r = await crawl(crawlee, s, { agent })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        expect(s.robotsUserAgents).toEqual([DEFAULT_CRAWLEE_USER_AGENT])
        const warnings = r.log.map((l) => l.message).filter((m) => m.includes('cannot be sent as a User-Agent header'))
        expect(warnings).toHaveLength(1)
        expect(fetchLines(r.log)[0]).toMatch(/: ok: HTTP 200 /)
      })

      it('regression: a respectRobotsTxtFile.userAgent of more than 1,024 chars is judged, robots.txt asked for with the default User-Agent and a warning (the server\'s 431 was the site\'s unavailable: every page)', async () => {
        const agent = 'MyBot/1.0 (+http://127.0.0.1/' + 'x'.repeat(20_000) + ')'
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n' })
        const r = await crawl(crawlee, s, { agent })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(s.robotsUserAgents).toEqual([DEFAULT_CRAWLEE_USER_AGENT])
        expect(r.log.map((l) => l.message).filter((m) => m.includes('more than 1,024 chars'))).toHaveLength(1)
      })
    })

    describe("parsing: the reference's answers", () => {
      for (const [name, body, agent, expected] of [
        ['Disallow: /a|b blocks /a|b', 'User-agent: *\nDisallow: /a|b\n', true, pagesExcept('/a|b')],
        ['Allow: /dir/index.html also allows /dir/', 'User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n', true, ALL_PAGES],
        ['an empty MyBot group after * : * is ignored for MyBot', 'User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\n', 'MyBot', ALL_PAGES],
        ['a MyBot group with only Crawl-delay joins the * group below it', 'User-agent: MyBot\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /private\n', 'MyBot', pagesExcept('/private')],
        ['a full User-Agent names MyBot, not Mozilla', 'User-agent: mozilla\nDisallow: /public\n\nUser-agent: MyBot\nDisallow: /private\n', FULL_UA, pagesExcept('/private')],
      ] as const) {
        it(name, async () => {
          const s = await setUp({ status: 200, body })
          const r = await crawl(crawlee, s, { agent })
          expect(r.pages).toEqual([...expected])
          expect(r.robotsRequests).toBe(1)
        })
      }
    })

    describe('other crawlers', () => {
      for (const kind of ['http', 'jsdom', 'basic'] as const) {
        it(`${kind}: 200 with rules, and 500`, async () => {
          const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
          let r = await crawl(crawlee, s, { crawler: kind })
          expect(r.pages).toEqual(pagesExcept('/private'))
          expect(r.robotsRequests).toBe(1)
          robots!.clear()
          s.robots = { status: 500 }
          r = await crawl(crawlee, s, { crawler: kind })
          expect(r.pages).toEqual([])
          expect(r.robotsRequests).toBe(1)
        })
      }
    })

    describe('the cache: per origin, with expiry, one fetch at a time', () => {
      it('one request per origin per expiry: new crawlers reuse the entry; after 24 h it is fetched again', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        expect((await crawl(crawlee, s)).robotsRequests).toBe(1)
        clock += 23 * HOUR
        expect((await crawl(crawlee, s)).robotsRequests).toBe(0)
        s.robots = { status: 200, body: 'User-agent: *\nDisallow: /public\n' }
        clock += 1 * HOUR
        const r = await crawl(crawlee, s)
        expect(r.robotsRequests).toBe(1)
        expect(r.pages).toEqual(pagesExcept('/public'))
        expect(fetchLines(r.log)).toHaveLength(1)
      })

      it("Cache-Control: max-age shortens the expiry", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n', headers: { 'cache-control': 'max-age=3600' } })
        expect((await crawl(crawlee, s)).robotsRequests).toBe(1)
        clock += HOUR - 1000
        expect((await crawl(crawlee, s)).robotsRequests).toBe(0)
        clock += 1000
        expect((await crawl(crawlee, s)).robotsRequests).toBe(1)
      })

      it('unreachable is kept 10 minutes, then fetched again', async () => {
        const s = await setUp({ status: 503 })
        expect((await crawl(crawlee, s)).robotsRequests).toBe(1)
        clock += 9 * 60_000
        expect(await crawl(crawlee, s)).toMatchObject({ robotsRequests: 0, pages: [] })
        s.robots = { status: 200, body: 'User-agent: *\nDisallow: /private\n' }
        clock += 60_000
        expect(await crawl(crawlee, s)).toMatchObject({ robotsRequests: 1, pages: pagesExcept('/private') })
      })

      it('stale on unreachable: when a refresh fails, the last copy fetched stays in use', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        await crawl(crawlee, s)
        s.robots = { status: 500 }
        clock += 25 * HOUR
        const r = await crawl(crawlee, s)
        expect(r.robotsRequests).toBe(1)
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(fetchLines(r.log)[0]).toMatch(/^robots\.txt of http:\/\/127\.0\.0\.1:\d+: unreachable: HTTP 500 from .*; the last copy fetched stays in use; next fetch in 10 min$/)
      })

      it('single flight: concurrent checks of one origin share one request', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n', delayMs: 300 })
        const r = await crawl(crawlee, s, { maxConcurrency: 10, startPaths: ['/public/1', '/public/2', '/public/3', '/private/1'] })
        expect(r.robotsRequests).toBe(1)
        expect(r.pages).toEqual(pagesExcept('/private'))
        robots!.clear()
        s.reset()
        const files = await Promise.all(Array.from({ length: 20 }, (_, i) => crawlee.RobotsTxtFile.find(`${s.origin}/public/${i}`)))
        expect(s.robotsRequests).toBe(1)
        expect(files.every((f) => f === files[0])).toBe(true)
      })

      it('two origins: one request each', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        const other = await startSite({ status: 500 })
        try {
          const a = await crawlee.RobotsTxtFile.find(`${s.origin}/x`)
          const b = await crawlee.RobotsTxtFile.find(`${other.origin}/x`)
          expect([a.isAllowed(`${s.origin}/public/1`), a.isAllowed(`${s.origin}/private`), b.isAllowed(`${other.origin}/public/1`)]).toEqual([true, false, false])
          // Another origin's URL gets no verdict from a file (Crawlee reads that as allowed, as with robots-parser).
          expect(a.isAllowed(`${other.origin}/private`)).toBe(true)
          expect([s.robotsRequests, other.robotsRequests]).toEqual([1, 1])
        } finally {
          await other.close()
        }
      })
    })

    describe('RobotsTxtFile.find / from, called directly', () => {
      it("find gives Crawlee's own RobotsTxtFile; its answers and sitemaps are this library's", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\nSitemap: /relative.xml\nSitemap: http://127.0.0.1:1/sitemap.xml\n' })
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/some/page?x=1`)
        expect(file).toBeInstanceOf(crawlee.RobotsTxtFile as unknown as new () => object)
        expect(file.isAllowed(`${s.origin}/private/1`)).toBe(false)
        expect(file.isAllowed(`${s.origin}/public/1`)).toBe(true)
        // Crawlee keeps the absolute sitemap URLs of the same host name.
        expect(file.getSitemaps()).toEqual(['http://127.0.0.1:1/sitemap.xml'])
        expect(s.robotsRequests).toBe(1)
      })

      it('find on a 500: disallow all', async () => {
        const s = await setUp({ status: 500, body: 'User-agent: *\nAllow: /\n' })
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/`)
        expect(file.isAllowed(`${s.origin}/public/1`)).toBe(false)
      })

      it("from: the reference's answers for the given content, no request", async () => {
        const s = await setUp({ status: 500 })
        const file = crawlee.RobotsTxtFile.from(`${s.origin}/robots.txt`, 'User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\nDisallow: /a|b\n')
        expect(file.isAllowed(`${s.origin}/dir/`)).toBe(true)
        expect(file.isAllowed(`${s.origin}/dir/x`)).toBe(false)
        expect(file.isAllowed(`${s.origin}/a|b`)).toBe(false)
        expect(s.robotsRequests).toBe(0)
      })

      it('a URL the crawler requests otherwise than written (a backslash, dot segments, raw non-ASCII) is judged by the path it sends, not allowed as written', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\nDisallow: /ツ\n' })
        const file = crawlee.RobotsTxtFile.from(`${s.origin}/robots.txt`, 'User-agent: *\nDisallow: /private\nDisallow: /ツ\n')
        expect([`${s.origin}\\private`, `${s.origin}/public/../private`, `${s.origin}/public/%2E%2e/private/1`, `${s.origin}/ツ`, new URL(`${s.origin}/ツ`)].map((u) => file.isAllowed(u as string))).toEqual([false, false, false, false, false])
        expect([`${s.origin}/public/1`, `${s.origin}/public/./1`, `${s.origin}/a|b`].map((u) => file.isAllowed(u))).toEqual([true, true, true])
        const r = await crawl(crawlee, s, { startPaths: ['\\private', '/public/../private/1', '/public/%2e%2e/private/2'] })
        expect(r.pages).toEqual(pagesExcept('/private'))
      })

      it('find with a timeoutMillis past what a timer holds (Infinity, 3e9) waits for the answer (it timed out at once: disallow all)', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n', delayMs: 100 })
        for (const timeoutMillis of [Infinity, 3e9]) {
          robots!.clear()
          const file = await crawlee.RobotsTxtFile.find(`${s.origin}/`, undefined, { timeoutMillis })
          expect(file.isAllowed(`${s.origin}/public/1`), String(timeoutMillis)).toBe(true)
          expect(file.isAllowed(`${s.origin}/private`), String(timeoutMillis)).toBe(false)
        }
        expect(s.robotsRequests).toBe(2)
      })

      it("regression: find with timeoutMillis 0, which Crawlee's own find reads as no time-out, timed out at once (disallow all, no sitemaps); now it waits for the answer", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\nSitemap: http://127.0.0.1/s.xml\n', delayMs: 100 })
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/`, undefined, { timeoutMillis: 0 })
        expect([file.isAllowed(`${s.origin}/public/1`), file.isAllowed(`${s.origin}/private`)]).toEqual([true, false])
        expect(file.getSitemaps()).toEqual(['http://127.0.0.1/s.xml'])
        expect(s.robotsRequests).toBe(1)
      })

      it('find with timeoutMillis on a robots.txt that never answers: disallow all at the deadline', async () => {
        const s = await setUp({ hang: true }, { timeoutMs: 5_000 })
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/`, undefined, { timeoutMillis: 200 })
        expect(file.isAllowed(`${s.origin}/public/1`)).toBe(false)
      })

      it("find with a signal: aborting rejects with the signal's reason", async () => {
        const s = await setUp({ hang: true })
        const controller = new AbortController()
        const p = crawlee.RobotsTxtFile.find(`${s.origin}/`, undefined, { signal: controller.signal })
        controller.abort(new Error('stop'))
        await expect(p).rejects.toThrow('stop')
      })
    })

    describe('files held by their callers, and @crawlee/utils alone', () => {
      it('a file held past its expiry refreshes itself: the old answers until the new file arrives, then the new ones', async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/`)
        expect(file.isAllowed(`${s.origin}/public/1`)).toBe(true)
        s.robots = { status: 200, body: 'User-agent: *\nDisallow: /public\n' }
        clock += 25 * HOUR
        expect(file.isAllowed(`${s.origin}/public/1`)).toBe(true)
        await vi.waitFor(() => expect(file.isAllowed(`${s.origin}/public/1`)).toBe(false))
        expect(file.isAllowed(`${s.origin}/private/1`)).toBe(true)
        expect(s.robotsRequests).toBe(2)
      })

      it("with @crawlee/utils alone, the crawlers' own lookup reaches find: the access method applies (500: no page)", async () => {
        site = await startSite({ status: 500 })
        const utils = createRequire(join(loaded.dir!, 'package.json'))('@crawlee/utils') as Parameters<typeof useWithCrawlee>[0]
        robots = useWithCrawlee(utils, { now })
        expect(robots.crawlers).toBe(false)
        const r = await crawl(crawlee, site)
        expect(r.pages).toEqual([])
        expect(r.robotsRequests).toBe(1)
        expect(site.robotsUserAgents).toEqual([DEFAULT_CRAWLEE_USER_AGENT])
      })
    })

    describe('proxies', () => {
      let proxy: TestProxy
      beforeAll(async () => {
        proxy = await startProxy()
      })
      afterAll(async () => {
        await proxy.close()
      })

      it("a crawler's proxyConfiguration carries the robots.txt request (absolute form, its credentials)", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        proxy.requests.length = 0
        const proxyUrl = proxy.url.replace('http://', 'http://user:p%40ss@')
        const r = await crawl(crawlee, s, { proxyUrl })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        const viaProxy = proxy.requests.filter((q) => q.target.endsWith('/robots.txt'))
        expect(viaProxy).toEqual([{ method: 'GET', target: `${s.origin}/robots.txt`, authorization: `Basic ${Buffer.from('user:p@ss').toString('base64')}` }])
      })

      it("find's proxyUrl carries the request", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        proxy.requests.length = 0
        const file = await crawlee.RobotsTxtFile.find(`${s.origin}/x`, proxy.url)
        expect(file.isAllowed(`${s.origin}/private`)).toBe(false)
        expect(proxy.requests.map((q) => q.target)).toEqual([`${s.origin}/robots.txt`])
      })

      it("regression: find with a second proxyUrl got the file made for the first, whose parseSitemaps downloaded through the first caller's proxy; now each caller's file carries its own", async () => {
        const s = await setUp({ status: 200 })
        s.robots = { status: 200, body: `User-agent: *\nDisallow: /private\nSitemap: ${s.origin}/s.xml\n` }
        const other = await startProxy()
        try {
          proxy.requests.length = 0
          await crawlee.RobotsTxtFile.find(`${s.origin}/`, proxy.url)
          const file = (await crawlee.RobotsTxtFile.find(`${s.origin}/`, other.url)) as RobotsFile & { parseSitemaps(): Promise<unknown> }
          expect(file.isAllowed(`${s.origin}/private`)).toBe(false)
          await file.parseSitemaps()
          expect(other.requests.map((q) => q.target)).toEqual([`${s.origin}/s.xml`])
          expect(proxy.requests.map((q) => q.target)).toEqual([`${s.origin}/robots.txt`])
        } finally {
          await other.close()
        }
      })

      it("a proxyConfiguration that cannot give a proxy URL: the crawler's error (no request, nothing recorded for the site)", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        await expect(
          crawl(crawlee, s, {
            newUrlFunction: () => {
              throw new Error('no proxy today')
            },
          }),
        ).rejects.toThrow('no proxy today')
        expect(s.robotsRequests).toBe(0)
        expect(robots!.stats().entries).toBe(0)
      })

      it("a proxy URL whose credentials do not decode (p%ss) is this side's error: nothing asked, nothing recorded (the site was cached unreachable)", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        proxy.requests.length = 0
        const badUrl = proxy.url.replace('http://', 'http://user:p%ss@')
        await expect(crawlee.RobotsTxtFile.find(`${s.origin}/x`, badUrl)).rejects.toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
        await expect(crawl(crawlee, s, { proxyUrl: badUrl })).rejects.toThrow(/not percent-encoded UTF-8/)
        expect(proxy.requests).toEqual([])
        expect(s.robotsRequests).toBe(0)
        expect(robots!.stats().entries).toBe(0)
      })

      it("regression: a proxy that could not be reached made the site unreachable for 10 minutes; it is this side's failure: nothing recorded, the next proxy URL of the rotation asked", async () => {
        const s = await setUp({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        const dead = 'http://127.0.0.1:39999'
        // find's own proxy URL: no other to try; the lookup rejects and records nothing.
        await expect(crawlee.RobotsTxtFile.find(`${s.origin}/x`, dead)).rejects.toThrow(expect.objectContaining({ code: 'ERR_LOCAL', message: expect.stringMatching(/proxy 127\.0\.0\.1:39999 could not be reached \(ECONNREFUSED\)/) }))
        expect(robots!.stats().entries).toBe(0)
        // A crawler's rotation: the dead proxy first, then a live one; robots.txt comes through the live one, once.
        let calls = 0
        proxy.requests.length = 0
        const r = await crawl(crawlee, s, { newUrlFunction: () => (calls++ === 0 ? dead : proxy.url) })
        expect(r.pages).toEqual(pagesExcept('/private'))
        expect(r.robotsRequests).toBe(1)
        expect(proxy.requests.filter((q) => q.target.endsWith('/robots.txt'))).toHaveLength(1)
        expect(fetchLines(r.log)[0]).toMatch(/^robots\.txt of http:\/\/127\.0\.0\.1:\d+: proxy 127\.0\.0\.1:39999 could not be reached \(ECONNREFUSED\); asking through the next proxy URL$/)
        // Every proxy dead: the crawl fails with this side's error, and still nothing is recorded for the site.
        robots!.clear()
        await expect(crawl(crawlee, s, { newUrlFunction: () => `http://127.0.0.1:${39997 + (calls++ % 3)}` })).rejects.toThrow(/could not be reached/)
        expect(robots!.stats().entries).toBe(0)
        expect(s.robotsRequests).toBe(0)
      })
    })

    describe('the built entry, as the package ships it', () => {
      for (const [format, file] of [['ESM', 'dist/crawlee.js'], ['CommonJS', 'dist/crawlee.cjs']] as const) {
        it(`${format} (${file}): a 500 gives no page, a 404 every page`, async () => {
          const entry = (format === 'ESM' ? await import(pathToFileURL(join(ROOT, file)).href) : createRequire(join(ROOT, 'package.json'))(`./${file}`)) as {
            useWithCrawlee: typeof useWithCrawlee
          }
          site = await startSite({ status: 500 })
          robots = entry.useWithCrawlee(crawlee, { now })
          expect(await crawl(crawlee, site)).toMatchObject({ pages: [], robotsRequests: 1 })
          robots.clear()
          site.robots = { status: 404, body: 'User-agent: *\nDisallow: /\n' }
          expect(await crawl(crawlee, site)).toMatchObject({ pages: ALL_PAGES, robotsRequests: 1 })
        })
      }
    })

    describe('restore', () => {
      it("restore() puts Crawlee's own back: a 500 is crawled again, as stock Crawlee does", async () => {
        const s = await setUp({ status: 500, body: 'User-agent: *\nDisallow: /private\n' })
        expect((await crawl(crawlee, s)).pages).toEqual([])
        robots!.restore()
        robots = undefined
        const r = await crawl(crawlee, s)
        expect(r.pages).toEqual(pagesExcept('/private'))
      })
    })

    it("TypeScript: Crawlee's own module (namespace, default import, @crawlee/utils) fits useWithCrawlee without a cast; a crawler does not", () => {
      const dir = mkdtempSync(join(tmpdir(), 'robots-crawlee-types-'))
      try {
        mkdirSync(join(dir, 'node_modules'))
        symlinkSync(join(loaded.dir!, 'node_modules/crawlee'), join(dir, 'node_modules/crawlee'))
        symlinkSync(join(loaded.dir!, 'node_modules/@crawlee'), join(dir, 'node_modules/@crawlee'))
        symlinkSync(ROOT, join(dir, 'node_modules/robots-automaton'))
        const source = `import * as crawlee from 'crawlee'
import crawleeDefault from 'crawlee'
import * as utils from '@crawlee/utils'
import { useWithCrawlee, type CrawleeRobots } from 'robots-automaton/crawlee'
const a: CrawleeRobots = useWithCrawlee(crawlee)
const b: CrawleeRobots = useWithCrawlee(crawleeDefault, { userAgent: 'MyBot/1.0', timeoutMs: 5000, log: false })
const c: boolean = useWithCrawlee(utils).crawlers
// @ts-expect-error a crawler is not Crawlee's module
useWithCrawlee(new crawlee.CheerioCrawler({}))
export { a, b, c }
`
        writeFileSync(join(dir, 'use.mts'), source)
        writeFileSync(join(dir, 'use.ts'), source)
        for (const [module, files] of [['nodenext', ['use.mts']], ['commonjs', ['use.ts']]] as const) {
          const config = {
            compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, target: 'es2022', lib: ['es2022', 'dom'], module, moduleResolution: module === 'commonjs' ? 'node10' : 'nodenext', esModuleInterop: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
            files,
          }
          writeFileSync(join(dir, `tsconfig.${module}.json`), JSON.stringify(config))
          expect(typecheck(join(dir, `tsconfig.${module}.json`)), module).toEqual([])
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('nothing left the machine, and Crawlee wrote no storage into the repository', () => {
      expect(guard.refused).toEqual([])
      expect(existsSync(join(ROOT, 'storage'))).toBe(false)
    })
  },
)
