/**
 * `store.crawlers([...])` (StoreCrawlers): per URL, every crawler answers as
 * `store.isAllowed(url, crawler)` / `store.explain` alone, for robots.txt
 * entries, outcomes and URLs without an entry; each entry's set is kept in
 * the store's LRU under `matcherBudget` and follows replaced entries.
 */
import { describe, expect, it } from 'vitest'
import { RobotsStore, UrlScan, type EntryId } from '../../src/index.js'

const CRAWLERS = ['GPTBot', 'CCBot', 'Googlebot', ['Googlebot-Image', 'Googlebot'], 'GPTBot'] as const

function fill(store: RobotsStore): void {
  store.set('https://a.test', 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n')
  store.set('b.test', 'User-agent: Googlebot-Image\nDisallow: /img\n\nUser-agent: Googlebot\nAllow: /$\nDisallow: /\n')
  store.setOutcome('https://down.test', 'unreachable')
  store.setOutcome('https://gone.test', 'unavailable')
}

const URLS = ['https://a.test/', 'https://a.test/tmp/x', 'http://a.test/tmp/x', 'https://b.test/', 'https://b.test/img/x', 'http://B.TEST:8080/y', 'https://down.test/a', 'https://gone.test/a', 'https://none.test/a']

describe('StoreCrawlers: every crawler as the store answers it alone', () => {
  it('match, matchScan, isAllowed and explain, for entries, outcomes and no entry', () => {
    const store = new RobotsStore()
    fill(store)
    const set = store.crawlers(CRAWLERS)
    expect(set.size).toBe(5)
    const scan = new UrlScan()
    const out = new Int32Array(5)
    for (const u of URLS) {
      const alone = CRAWLERS.map((c) => (typeof c === 'string' ? c : [...c]))
      const want = alone.map((c) => {
        const id = store.lookup(u)
        return id === -1 ? 1 : store.matcher(id, c).matchRange(new TextEncoder().encode(u), 0, new TextEncoder().encode(u).length)
      })
      expect([...set.match(u, out)], u).toEqual(want)
      expect(set.isAllowed(u)).toEqual(alone.map((c) => store.isAllowed(u, c)))
      scan.scanString(u)
      expect([...set.matchScan(scan)]).toEqual(want)
      expect(set.explain(u)).toEqual(alone.map((c) => store.explain(u, c)))
    }
  })

  it('forEntry: the entry\'s CrawlerSet (a stand-in for an outcome), compiled once and kept; a bad id is ERR_RANGE', () => {
    const store = new RobotsStore()
    fill(store)
    const set = store.crawlers(['GPTBot', 'CCBot'])
    const id = store.lookup('https://a.test/') as EntryId
    const a = set.forEntry(id)
    expect(set.forEntry(id)).toBe(a)
    expect(a.access().map((x) => x.access)).toEqual(['nothing', 'some'])
    const down = set.forEntry(store.lookup('https://down.test/') as EntryId)
    // The stand-in's `Disallow: /` (line 2 of its file), as store.matcher(id, crawler) answers it.
    expect([...down.match('/x')]).toEqual([4, 4])
    expect(down.isAllowed('/x')).toEqual([false, false])
    expect(() => set.forEntry(999 as EntryId)).toThrow(expect.objectContaining({ code: 'ERR_RANGE' }))
  })

  it('the same crawlers in a new StoreCrawlers share the entries\' sets kept before (nothing compiled again)', () => {
    const store = new RobotsStore()
    fill(store)
    store.crawlers(['GPTBot', 'CCBot']).match('https://a.test/x')
    const compiles = store.stats().compiles
    const again = store.crawlers(['GPTBot', 'CCBot'])
    expect(again.isAllowed('https://a.test/x')).toEqual([false, true])
    expect(store.stats().compiles).toBe(compiles)
    store.crawlers(['CCBot', 'GPTBot']).match('https://a.test/x')
    expect(store.stats().compiles).toBeGreaterThan(compiles)
  })

  it('a replaced entry is judged by its new rules', () => {
    const store = new RobotsStore()
    fill(store)
    const set = store.crawlers(['GPTBot'])
    expect(set.isAllowed('https://a.test/x')).toEqual([false])
    store.set('https://a.test', 'User-agent: *\nDisallow:\n')
    expect(set.isAllowed('https://a.test/x')).toEqual([true])
  })

  it('sets live in the LRU of compiled matchers: a small budget keeps memory bounded, answers stay right', () => {
    const store = new RobotsStore({ matcherBudget: 64 * 1024 })
    for (let i = 0; i < 300; i++) store.set(`h${i}.test`, `User-agent: GPTBot\nDisallow: /${i}/\n${Array.from({ length: 40 }, (_, j) => `Disallow: /x${j}/*y${i}`).join('\n')}\n`)
    const set = store.crawlers(['GPTBot', 'CCBot', 'Googlebot'])
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 300; i++) {
        expect(set.isAllowed(`https://h${i}.test/${i}/a`)).toEqual([false, true, true])
        expect(set.isAllowed(`https://h${i}.test/${i + 1}/a`)).toEqual([true, true, true])
      }
    }
    const stats = store.stats()
    expect(stats.evictions).toBeGreaterThan(0)
    expect(stats.matcherBytes).toBeLessThanOrEqual(64 * 1024)
  })

  it('coded errors: a path has no host (ERR_INPUT), out too small (ERR_CAPACITY), crawlers not an array (ERR_INPUT)', () => {
    const store = new RobotsStore()
    fill(store)
    const set = store.crawlers(['GPTBot', 'CCBot'])
    expect(() => set.match('/relative')).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.match('https://a.test/', new Int32Array(1))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
    expect(() => set.match('https://none.test/', new Int32Array(1))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
    expect(() => set.match(7 as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => store.crawlers('GPTBot' as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })
})
