/**
 * `robots.crawlers([...])` (CrawlerSet): crawlers of one selection share a
 * matcher, each crawler answers as its own matcher, in the order given;
 * the batch forms write into the caller's arrays; arguments are checked
 * with coded errors; memory is the distinct matchers', each within its
 * budget; the tokens' warnings are those of `agent()`.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, UrlScan } from '../../src/index.js'

const BODY = [
  'User-agent: GPTBot',
  'Disallow: /',
  '',
  'User-agent: Googlebot',
  'User-agent: Googlebot-Image',
  'Allow: /$',
  'Disallow: /private',
  '',
  'User-agent: *',
  'Disallow: /tmp',
  '',
].join('\n')

const code = (e: { allowed: boolean; rule: { line: number } | null }): number => (e.rule?.line ?? 0) * 2 + (e.allowed ? 1 : 0)

describe('CrawlerSet: one matcher per selection, each crawler as alone', () => {
  it('crawlers that select the same groups share one matcher; unnamed ones share the * matcher', () => {
    const robots = parseRobots(BODY)
    const set = robots.crawlers(['CCBot', 'ClaudeBot', 'GPTBot', 'Googlebot', ['Googlebot-Image'], 'Bytespider', ['Googlebot', 'x'], 'gptbot'])
    expect(set.size).toBe(8)
    expect(set.matchers).toHaveLength(4)
    expect(set.matcher(0)).toBe(set.matcher(1))
    expect(set.matcher(0)).toBe(set.matcher(5))
    expect(set.matcher(2)).toBe(set.matcher(7))
    expect(set.matcher(3)).toBe(set.matcher(6))
    expect(set.matcher(3)).not.toBe(set.matcher(4))
    // The matchers are the Robots' own: agent() gives the same objects.
    expect(set.matcher(0)).toBe(robots.agent('CCBot'))
    expect(set.crawlers).toEqual([['CCBot'], ['ClaudeBot'], ['GPTBot'], ['Googlebot'], ['Googlebot-Image'], ['Bytespider'], ['Googlebot', 'x'], ['gptbot']])
  })

  it('every form answers per crawler as agents(tokens) alone, in the order given, a crawler named twice twice', () => {
    const crawlers = ['Googlebot', 'GPTBot', 'CCBot', 'GPTBot', ['Googlebot-Image', 'Googlebot']] as const
    const urls = ['/', '/private/x', 'https://e.com/tmp/a', '', '?q', '//h/private', '/tmp#x']
    const set = parseRobots(BODY).crawlers(crawlers)
    const alone = crawlers.map((c) => parseRobots(BODY).agents(typeof c === 'string' ? [c] : [...c]))
    const scan = new UrlScan()
    const out = new Int32Array(5)
    for (const u of urls) {
      const want = alone.map((m) => code(m.explain(u)))
      expect(set.match(u, out)).toBe(out)
      expect([...out], u).toEqual(want)
      expect([...set.match(new TextEncoder().encode(u))]).toEqual(want)
      expect([...set.match(new URL(u, 'https://e.com'))]).toEqual(alone.map((m) => code(m.explain(new URL(u, 'https://e.com')))))
      scan.scanString(u)
      expect([...set.matchScan(scan)]).toEqual(want)
      expect(set.isAllowed(u)).toEqual(want.map((w) => (w & 1) === 1))
      expect(set.explain(u)).toEqual(alone.map((m) => m.explain(u)))
    }
    const lines = new TextEncoder().encode(urls.join('\r\n'))
    const rows = set.matchLines(lines)
    expect(rows).toHaveLength(urls.length * 5)
    urls.forEach((u, i) => expect([...rows.subarray(i * 5, i * 5 + 5)]).toEqual(alone.map((m) => code(m.explain(u.replace(/#.*/, ''))))))
  })

  it('a set of more distinct crawlers than a Robots caches (8) answers each one right', () => {
    const names = Array.from({ length: 20 }, (_, i) => `Bot${String.fromCharCode(97 + i)}`)
    const body = names.map((n, i) => `User-agent: ${n}\nDisallow: /${i}/\n`).join('\n')
    const set = parseRobots(body).crawlers(names)
    expect(set.matchers).toHaveLength(20)
    const out = set.match('/7/x')
    names.forEach((_n, i) => expect(out[i] & 1, names[i]).toBe(i === 7 ? 0 : 1))
  })

  it('an empty set answers with empty arrays', () => {
    const set = parseRobots(BODY).crawlers([])
    expect(set.size).toBe(0)
    expect([...set.match('/x')]).toEqual([])
    expect([...set.matchLines(new TextEncoder().encode('/a\n/b\n'))]).toEqual([])
    expect(set.access()).toEqual([])
  })

  it('matchers change tier as each would alone; the set holds only its distinct matchers', () => {
    const robots = parseRobots(BODY, { hotThreshold: 2 })
    const set = robots.crawlers(['GPTBot', 'CCBot', 'Googlebot', 'CCBot'])
    for (let i = 0; i < 3; i++) set.match(`/p${i}`)
    expect(set.matchers.map((m) => m.stats().tier)).toEqual(['hot', 'hot', 'hot'])
    const total = set.matchers.reduce((n, m) => n + m.memoryUsage(), 0)
    expect(set.memoryUsage()).toBeGreaterThan(total)
    expect(set.memoryUsage()).toBeLessThan(total + 2048)
  })

  it('tokens that are not product tokens warn as agent() does', () => {
    const robots = parseRobots(BODY)
    robots.crawlers(['MyBot/1.0', ['GPTBot', 'Foo Bar']])
    expect(robots.diagnostics.filter((d) => d.code === 'agent-not-product-token').map((d) => d.message)).toHaveLength(2)
  })
})

describe('CrawlerSet: coded errors for bad arguments', () => {
  const robots = parseRobots(BODY)
  const set = robots.crawlers(['GPTBot', 'CCBot'])
  it('crawlers(): an array of strings or arrays of strings', () => {
    for (const bad of [undefined, 'GPTBot', [1], [['a', 2]], [null], {}]) {
      expect(() => robots.crawlers(bad as never), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    }
    expect(() => robots.access(5 as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })
  it('a URL of another type, an out of another type or too small, offsets outside the buffer, a scan that is none', () => {
    expect(() => set.match(5 as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.match('/x', new Int32Array(1))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
    expect(() => set.match('/x', new Uint8Array(2) as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.matchRange(new Uint8Array(4), 2, 5)).toThrow(expect.objectContaining({ code: 'ERR_RANGE' }))
    expect(() => set.matchRange('abc' as never, 0, 1)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.matchScan({} as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.matchScan(new UrlScan())).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.matchLines(new TextEncoder().encode('/a\n/b'), new Int32Array(3))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
    expect(() => set.matchLines(new TextEncoder().encode('/a'), undefined, new Int32Array(0))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
    expect(() => set.matchLines('x' as never)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(() => set.matcher(2)).toThrow(expect.objectContaining({ code: 'ERR_RANGE' }))
    expect(() => set.matcher(-1)).toThrow(expect.objectContaining({ code: 'ERR_RANGE' }))
  })
  it('matchLines over a buffer longer than one internal piece, one matcher and several: every row', () => {
    const urls = Array.from({ length: 6000 }, (_, i) => (i % 3 === 0 ? `/tmp/${i}` : i % 3 === 1 ? `https://e.com/private/${i}` : `/${'x'.repeat(i % 50)}`))
    // One very long line in the middle: pieces cut at line ends only.
    urls[3000] = `/tmp/${'y'.repeat(40_000)}`
    const bytes = new TextEncoder().encode(urls.join('\n'))
    for (const crawlers of [['CCBot', 'ClaudeBot'], ['GPTBot', 'Googlebot', 'CCBot']]) {
      const s = parseRobots(BODY).crawlers(crawlers)
      const ends = new Int32Array(urls.length)
      const rows = s.matchLines(bytes, undefined, ends)
      const alone = crawlers.map((c) => parseRobots(BODY).agent(c))
      let at = -1
      urls.forEach((u, i) => {
        at += u.length + 1
        expect(ends[i]).toBe(Math.min(at, bytes.length))
        alone.forEach((m, k) => expect(rows[i * crawlers.length + k]).toBe(code(m.explain(u))))
      })
    }
  })
})
