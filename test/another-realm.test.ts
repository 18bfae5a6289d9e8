/**
 * Bytes of another realm (a `vm` context, an iframe, a test runner that runs
 * modules in a context of their own, where Node's Buffers are foreign): every
 * entry that takes a Uint8Array reads them as bytes, with the answers it gives
 * for this realm's, and still refuses what is not bytes.
 */
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { CrawlerSet, parseRobots, Robots, RobotsStore, UrlScan, type RobotsError } from '../src/index.js'

/** `bytes` copied into a Uint8Array of a new realm. */
function foreign(bytes: Uint8Array): Uint8Array {
  const copy = runInNewContext('new Uint8Array(n)', { n: bytes.length }) as Uint8Array
  for (let i = 0; i < bytes.length; i++) copy[i] = bytes[i]!
  return copy
}

const BODY = 'User-agent: *\nDisallow: /private\nAllow: /private/ok$\n\nUser-agent: b\nDisallow: /\n'
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const codeOf = (f: () => unknown): string | undefined => {
  try {
    f()
    return undefined
  } catch (err) {
    return (err as RobotsError).code
  }
}

describe('regression: a Uint8Array of another realm is read as bytes, not refused as "must be a Uint8Array, got [object Uint8Array]"', () => {
  it('is foreign here (the test means what it says)', () => {
    expect(foreign(utf8('x')) instanceof Uint8Array).toBe(false)
  })

  it('parseRobots, the matcher (isAllowed, explain, matchRange, matchLines) and the crawler set', () => {
    const robots = parseRobots(foreign(utf8(BODY)))
    expect(robots.toBytes()).toEqual(parseRobots(BODY).toBytes())
    const m = robots.agent('a')
    const urls = ['https://x.test/private/x', 'https://x.test/private/ok', 'https://x.test/pub']
    expect(urls.map((u) => m.isAllowed(foreign(utf8(u))))).toEqual([false, true, true])
    expect(m.explain(foreign(utf8(urls[0]!))).rule?.line).toBe(2)
    const list = utf8(urls.join('\n'))
    expect(m.matchRange(foreign(list), 0, urls[0]!.length)).toBe(m.matchRange(list, 0, urls[0]!.length))
    const out = foreign(new Uint8Array(3))
    expect([...m.matchLines(foreign(list), out)]).toEqual([0, 1, 1])
    expect([...out]).toEqual([0, 1, 1])
    const set: CrawlerSet = robots.crawlers(['a', 'b'])
    expect([...set.match(foreign(utf8(urls[2]!)))]).toEqual([...set.match(urls[2]!)])
    expect([...set.matchLines(foreign(list))]).toEqual([...set.matchLines(list)])
    expect([...set.matchRange(foreign(list), 0, urls[0]!.length)]).toEqual([...set.matchRange(list, 0, urls[0]!.length)])
  })

  it('Robots.fromBytes, RobotsStore.fromBytes and the store look-ups, UrlScan', () => {
    const form = parseRobots(BODY).toBytes()
    expect(Robots.fromBytes(foreign(form)).agent('a').isAllowed('/private/x')).toBe(false)
    const store = new RobotsStore()
    store.set('x.test', BODY)
    const loaded = RobotsStore.fromBytes(foreign(store.toBytes()))
    expect(loaded.isAllowed(foreign(utf8('https://x.test/private/x')), 'a')).toBe(false)
    expect(loaded.lookup(foreign(utf8('https://x.test/p')))).toBe(loaded.lookup('https://x.test/p'))
    const scan = new UrlScan()
    expect(scan.scan(foreign(utf8('https://x.test/a')))).toBe(true)
    expect(scan.canonicalHost()).toBe('x.test')
  })

  it('what is not bytes of any realm is still ERR_INPUT', () => {
    const int8 = runInNewContext('new Int8Array(4)') as unknown as Uint8Array
    const fake = { [Symbol.toStringTag]: 'Uint8Array', length: 1, 0: 47 } as unknown as Uint8Array
    expect(codeOf(() => parseRobots(int8))).toBe('ERR_INPUT')
    expect(codeOf(() => parseRobots(fake))).toBe('ERR_INPUT')
    expect(codeOf(() => parseRobots('').agent('a').isAllowed(fake))).toBe('ERR_INPUT')
    expect(codeOf(() => Robots.fromBytes(int8))).toBe('ERR_INPUT')
    expect(codeOf(() => RobotsStore.fromBytes(fake))).toBe('ERR_INPUT')
  })
})
