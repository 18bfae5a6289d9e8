/**
 * The drop-in package (packages/robots-automaton-compat) under the override
 * a Crawlee user writes, `"overrides": { "robots-parser": <the drop-in> }`,
 * with a real Crawlee: the package is packed from this checkout and
 * installed into a copy of the Crawlee fixture (scripts/crawlee-fixture.mjs),
 * and a CheerioCrawler crawls a 32-page site on 127.0.0.1. Each parsing case
 * runs on stock Crawlee too: robots-parser's answer differs from the
 * reference's there, so the case can fail. Fetching stays Crawlee's: the
 * last cases show it, for docs/crawlee.md's table.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { stageDropIn } from '../../scripts/dropin.mjs'
import { ROOT } from '../support/build.js'
import { ALL_PAGES, crawl, loadCrawlee, loopbackOnly, pagesExcept, removeStorage, type LoopbackGuard } from './support/crawl.js'
import { startProxy } from './support/proxy.js'
import { startSite, type Site } from './support/site.js'

const packDir = mkdtempSync(join(tmpdir(), 'robots-dropin-pack-'))
const stage = join(packDir, 'stage')
await stageDropIn(ROOT, stage)
const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: stage, encoding: 'utf8' })
const tarball = join(packDir, (JSON.parse(packed.slice(packed.indexOf('['))) as { filename: string }[])[0].filename)
// From before Crawlee is loaded: nothing it does may leave the machine.
const guard: LoopbackGuard = loopbackOnly()
const dropIn = loadCrawlee({ dropIn: tarball })
const stock = dropIn.skip === undefined ? loadCrawlee() : dropIn
if (dropIn.skip !== undefined) guard.restore()

const FULL_UA = 'Mozilla/5.0 (compatible; MyBot/1.0; +http://127.0.0.1/bot.html)'

describe.skipIf(dropIn.skip !== undefined)(
  dropIn.skip !== undefined ? `the drop-in under an override, with a real Crawlee (skipped: ${dropIn.skip})` : 'the drop-in under an override, with a real Crawlee',
  () => {
    const withDropIn = dropIn.crawlee!
    const stockCrawlee = stock.crawlee!
    let site: Site | undefined

    afterEach(async () => {
      await site?.close()
      site = undefined
    })
    afterAll(() => {
      guard.restore()
      removeStorage()
      rmSync(packDir, { recursive: true, force: true })
    })

    it("Crawlee's robots-parser is the drop-in (the override's only change to the install)", () => {
      const fromUtils = createRequire(join(dropIn.dir!, 'node_modules/@crawlee/utils/package.json'))
      const pkgPath = fromUtils.resolve('robots-parser/package.json')
      expect(JSON.parse(readFileSync(pkgPath, 'utf8'))).toMatchObject({ name: 'robots-automaton-compat' })
      const stockPkg = createRequire(join(stock.dir!, 'node_modules/@crawlee/utils/package.json')).resolve('robots-parser/package.json')
      expect(JSON.parse(readFileSync(stockPkg, 'utf8'))).toMatchObject({ name: 'robots-parser' })
    })

    const crawlBoth = async (body: string, agent: true | string): Promise<{ stock: string[]; dropIn: string[] }> => {
      site = await startSite({ status: 200, body })
      const a = await crawl(stockCrawlee, site, { agent })
      const b = await crawl(withDropIn, site, { agent })
      expect(a.robotsRequests).toBe(1)
      expect(b.robotsRequests).toBe(1)
      return { stock: a.pages, dropIn: b.pages }
    }

    describe("parsing: the reference's answers (stock Crawlee's robots-parser differs on each)", () => {
      for (const [name, body, agent, reference, robotsParser] of [
        ['Disallow: /a|b blocks /a|b', 'User-agent: *\nDisallow: /a|b\n', true, pagesExcept('/a|b'), ALL_PAGES],
        ['Allow: /dir/index.html also allows /dir/', 'User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n', true, ALL_PAGES, pagesExcept('/dir/').concat('/dir/index.html').sort()],
        ['an empty MyBot group after * : * is ignored for MyBot', 'User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\n', 'MyBot', ALL_PAGES, pagesExcept('/private')],
        ['a MyBot group with only Crawl-delay joins the * group below it', 'User-agent: MyBot\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /private\n', 'MyBot', pagesExcept('/private'), ALL_PAGES],
        ['a full User-Agent names MyBot, not Mozilla', 'User-agent: *\nDisallow: /\n\nUser-agent: MyBot\nDisallow: /private\n', FULL_UA, pagesExcept('/private'), []],
      ] as const) {
        it(name, async () => {
          const pages = await crawlBoth(body, agent)
          expect(pages.dropIn).toEqual([...reference])
          expect(pages.stock).toEqual([...robotsParser])
        })
      }
    })

    it('regression: a start URL Crawlee requests otherwise than written (a backslash, dot segments) was judged as written and crawled (/private/1 fetched under Disallow: /private); now as requested, as stock Crawlee does', async () => {
      site = await startSite({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
      const startPaths = ['\\private', '/public/../private/1', '/public/%2e%2e/private/2', '/./private/3']
      const r = await crawl(withDropIn, site, { startPaths })
      expect(r.pages).toEqual(pagesExcept('/private'))
      expect(r.robotsRequests).toBe(1)
      expect((await crawl(stockCrawlee, site, { startPaths })).pages).toEqual(pagesExcept('/private'))
    })

    it('regression: a start URL whose scheme is not followed by exactly // and the host (http:///host/private/4, which Crawlee requests as http://host/private/4) was judged as written and crawled; now as requested', async () => {
      site = await startSite({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
      const r = await crawl(withDropIn, site, { startUrls: ['http:///{host}/private/4', 'http:////{host}/private/5', 'HTTP:/{host}/private/6'] })
      expect(r.pages).toEqual(pagesExcept('/private'))
    })

    describe("fetching stays Crawlee's (useWithCrawlee changes it; test/crawlee/use-with-crawlee.test.ts)", () => {
      it('a 404 whose body says Disallow: / still blocks the site', async () => {
        site = await startSite({ status: 404, body: 'User-agent: *\nDisallow: /\n' })
        expect((await crawl(withDropIn, site)).pages).toEqual([])
      })

      it('a 500 or a 429 still allows everything', async () => {
        site = await startSite({ status: 500 })
        expect((await crawl(withDropIn, site)).pages).toEqual(ALL_PAGES)
        site.robots = { status: 429 }
        expect((await crawl(withDropIn, site)).pages).toEqual(ALL_PAGES)
      })

      it('a reset allows everything, and is not remembered: robots.txt is asked again and again', async () => {
        site = await startSite({ reset: true })
        const r = await crawl(withDropIn, site)
        expect(r.pages).toEqual(ALL_PAGES)
        expect(r.robotsRequests).toBeGreaterThan(ALL_PAGES.length)
      })

      it('6 redirects are followed, and the file at the end applies', async () => {
        site = await startSite({ redirects: 6, body: 'User-agent: *\nDisallow: /\n' })
        const r = await crawl(withDropIn, site)
        expect(r.pages).toEqual([])
        expect(r.robotsRequests).toBe(7)
      })

      it("robots.txt is asked for with a generated browser User-Agent, not through the crawler's proxy", async () => {
        site = await startSite({ status: 200, body: 'User-agent: *\nDisallow: /private\n' })
        const proxy = await startProxy()
        try {
          const r = await crawl(withDropIn, site, { agent: 'MyBot', proxyUrl: proxy.url })
          expect(r.pages).toEqual(pagesExcept('/private'))
          expect(site.robotsUserAgents).toHaveLength(1)
          expect(site.robotsUserAgents[0]).toMatch(/^Mozilla\/5\.0 .*(Chrome|Firefox|Safari)/)
          expect(proxy.requests.filter((q) => q.target.endsWith('/robots.txt'))).toEqual([])
          expect(proxy.requests.length).toBeGreaterThan(0) // the pages went through it
        } finally {
          await proxy.close()
        }
      })

      it('RobotsTxtFile.find has no cache: each call, concurrent or not, is a request', async () => {
        site = await startSite({ status: 200, body: 'User-agent: *\nDisallow: /private\n', delayMs: 100 })
        await Promise.all(Array.from({ length: 5 }, () => withDropIn.RobotsTxtFile.find(`${site!.origin}/`)))
        await withDropIn.RobotsTxtFile.find(`${site.origin}/`)
        expect(site.robotsRequests).toBe(6)
      })

      it('a file over 500 KiB is downloaded whole; the drop-in parses its first 500 KiB (stock Crawlee applies a rule past them)', async () => {
        const filler = 1024 * 1024
        site = await startSite({ big: { head: 'User-agent: *\nDisallow: /private\n', fillerBytes: filler, tail: 'Disallow: /\n' } })
        expect((await crawl(withDropIn, site)).pages).toEqual(pagesExcept('/private'))
        expect(site.bigBytesWritten).toBeGreaterThan(filler)
        expect((await crawl(stockCrawlee, site)).pages).toEqual([])
      })
    })

    it('nothing left the machine, and Crawlee wrote no storage into the repository', () => {
      expect(guard.refused).toEqual([])
      expect(existsSync(join(ROOT, 'storage'))).toBe(false)
    })
  },
)
