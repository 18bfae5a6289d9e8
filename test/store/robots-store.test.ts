/**
 * RobotsStore: keys (origins, URLs, bare hosts), outcomes, answers equal to
 * parseRobots(body).agent(agent) on the corpus, the matcher LRU, compaction,
 * bundles, the byte-level lookups, budgets and input errors.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsStore, UrlScan, type EntryId, type RobotsErrorCode, type RobotsError } from '../../src/index.js'
import { describePaired } from '../support/corpus-data.js'
import { readU32 } from '../../src/rules/byte-buffer.js'
import { Header } from '../../src/rules/compact-rules.js'
import { sealForm } from '../../src/rules/serialise.js'
import { BundleHeader } from '../../src/store/bundle-codec.js'
import { compactRulesOf } from '../../src/internals.js'

const enc = new TextEncoder()
const BODY = 'User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /g\nAllow: /private/ok\n'

function codeOf(fn: () => unknown): RobotsErrorCode | 'none' | 'uncoded' {
  try {
    fn()
    return 'none'
  } catch (e) {
    return (e as { code?: RobotsErrorCode }).code ?? 'uncoded'
  }
}

describe('RobotsStore: keys', () => {
  it('an origin, any URL of it, and case or default-port variants are one key', () => {
    const s = new RobotsStore()
    s.set('https://Example.COM:443/some/page?q', BODY)
    expect(s.size).toBe(1)
    expect([...s.keys()]).toEqual(['https://example.com'])
    for (const k of ['https://example.com', 'HTTPS://EXAMPLE.COM/', new URL('https://example.com/x')]) expect(s.has(k)).toBe(true)
    expect(s.has('http://example.com')).toBe(false)
    expect(s.has('https://example.com:8443')).toBe(false)
    expect(s.has('example.com')).toBe(false)
    s.set('https://example.com', 'User-agent: *\nDisallow: /\n')
    expect(s.size).toBe(1)
    expect(s.isAllowed('https://example.com/a', 'bot')).toBe(false)
  })

  it('a URL takes its origin entry first, then its bare host entry (every scheme and port)', () => {
    const s = new RobotsStore()
    s.set('example.com', 'User-agent: *\nDisallow: /host\n')
    s.set('https://example.com:8443', 'User-agent: *\nDisallow: /origin\n')
    expect(s.isAllowed('https://example.com:8443/origin', 'a')).toBe(false)
    expect(s.isAllowed('https://example.com:8443/host', 'a')).toBe(true)
    for (const u of ['http://example.com/host', 'https://EXAMPLE.com/host', 'ftp://example.com/host', 'http://example.com:81/host']) {
      expect(s.isAllowed(u, 'a'), u).toBe(false)
      expect(s.explain(u, 'a')).toMatchObject({ source: 'robots', key: 'example.com' })
    }
    expect(s.explain('https://example.com:8443/origin', 'a').key).toBe('https://example.com:8443')
    expect(s.explain('http://www.example.com/host', 'a')).toEqual({ allowed: true, rule: null, source: 'none', key: null })
  })

  it('hosts are kept as the URL parser writes them: punycode, canonical IPv4, bracketed IPv6', () => {
    const s = new RobotsStore()
    s.set('bücher.de', 'User-agent: *\nDisallow: /a\n')
    s.set('http://0x7f.1', 'User-agent: *\nDisallow: /b\n')
    s.set('[::1]', 'User-agent: *\nDisallow: /c\n')
    expect([...s.keys()].sort()).toEqual(['[::1]', 'http://127.0.0.1', 'xn--bcher-kva.de'])
    expect(s.isAllowed('https://BÜCHER.de/a', 'x')).toBe(false)
    expect(s.isAllowed(enc.encode('https://xn--bcher-kva.de/a'), 'x')).toBe(false)
    expect(s.isAllowed('http://127.0.0.1/b', 'x')).toBe(false)
    expect(s.isAllowed('http://[0:0::1]:8080/c', 'x')).toBe(false)
  })

  it('keys that are neither an origin nor a bare host are ERR_INPUT', () => {
    const s = new RobotsStore()
    for (const bad of ['', 'example.com/path', 'example.com:80', 'user@example.com', 'a b', 'http://', 'not a url://x', 42, null, undefined, {}]) {
      expect(codeOf(() => s.set(bad as string, BODY)), String(bad)).toBe('ERR_INPUT')
    }
    expect(s.size).toBe(0)
  })
})

describe('RobotsStore: answers', () => {
  it('outcomes: unavailable allows all, unreachable disallows all, an origin never set allows all', () => {
    const s = new RobotsStore()
    s.setOutcome('https://gone.example', 'unavailable')
    s.setOutcome('https://down.example', 'unreachable')
    expect(s.isAllowed('https://gone.example/x', 'a')).toBe(true)
    expect(s.isAllowed('https://down.example/x', ['a', 'b'])).toBe(false)
    expect(s.explain('https://down.example/x', 'a')).toEqual({ allowed: false, rule: null, source: 'unreachable', key: 'https://down.example' })
    expect(s.explain('https://gone.example/x', 'a')).toEqual({ allowed: true, rule: null, source: 'unavailable', key: 'https://gone.example' })
    expect(s.source('https://down.example')).toBe('unreachable')
    expect(s.source('https://new.example')).toBe('none')
    expect(s.get('https://down.example')).toBeUndefined()
    expect(codeOf(() => s.setOutcome('https://x.example', 'gone' as 'unavailable'))).toBe('ERR_INPUT')
  })

  it('tokens that select the same groups share a matcher; different selections do not', () => {
    const s = new RobotsStore()
    s.set('https://example.com', BODY)
    const id = s.lookup('https://example.com/') as EntryId
    expect(s.matcher(id, 'otherbot')).toBe(s.matcher(id, 'thirdbot'))
    expect(s.matcher(id, 'googlebot')).toBe(s.matcher(id, 'GOOGLEBOT'))
    expect(s.matcher(id, 'googlebot')).not.toBe(s.matcher(id, 'otherbot'))
    expect(s.matcher(id, ['googlebot', 'x'])).toBe(s.matcher(id, 'Googlebot'))
    expect(s.isAllowed('https://example.com/private/ok', 'Googlebot')).toBe(true)
    expect(s.isAllowed('https://example.com/private/ok', 'bingbot')).toBe(false)
  })

  it('get() gives the entry as a Robots (its own copy): sitemaps, crawl-delay, diagnostics', () => {
    const s = new RobotsStore()
    const body = 'User-agent: *\nCrawl-delay: 7\nDisallow: /a\nSitemap: https://example.com/s.xml\nFoo: bar\n'
    s.set('example.com', body)
    const r = s.get('example.com')!
    const p = parseRobots(body)
    expect(r.sitemaps).toEqual(p.sitemaps)
    expect(r.crawlDelay('x')).toBe(7)
    expect(r.diagnostics).toEqual(p.diagnostics)
    expect(r.toBytes()).toEqual(p.toBytes())
  })

  it('setRobots shares the Robots form: same answers, no copy in the arenas', () => {
    const s = new RobotsStore()
    const robots = parseRobots(BODY)
    s.setRobots('https://example.com', robots)
    expect(s.stats().liveBytes).toBe('https://example.com'.length)
    expect(s.isAllowed('https://example.com/g', 'googlebot')).toBe(false)
    // The same bytes, not a copy (each read makes a view of them).
    const held = compactRulesOf(s.get('https://example.com')!).bytes
    const own = compactRulesOf(robots).bytes
    expect([held.buffer, held.byteOffset, held.byteLength]).toEqual([own.buffer, own.byteOffset, own.byteLength])
    expect(held.buffer).toBe(own.buffer)
    expect(codeOf(() => s.setRobots('https://example.com', BODY as unknown as Robots))).toBe('ERR_INPUT')
  })

  it('regression: a replaced entry never answers with its old compiled matcher', () => {
    const s = new RobotsStore()
    s.set('https://example.com', 'User-agent: *\nDisallow: /old\n')
    expect(s.isAllowed('https://example.com/old', 'a')).toBe(false)
    s.set('https://example.com', 'User-agent: *\nDisallow: /new\n')
    expect(s.isAllowed('https://example.com/old', 'a')).toBe(true)
    expect(s.isAllowed('https://example.com/new', 'a')).toBe(false)
    // A deleted entry's id reused by another key.
    s.delete('https://example.com')
    s.set('https://other.example', 'User-agent: *\nAllow: /\n')
    expect(s.isAllowed('https://other.example/new', 'a')).toBe(true)
    expect(s.isAllowed('https://example.com/new', 'a')).toBe(true)
  })

  it('regression: a hot entry (its matcher and crawler set used many times) answers by its new rules after set, setRobots, setOutcome and delete', () => {
    const s = new RobotsStore()
    const set = s.crawlers(['a', 'b'])
    const warm = (url: string, want: boolean) => {
      for (let i = 0; i < 70; i++) {
        expect(s.isAllowed(url, 'a')).toBe(want)
        expect(set.isAllowed(url)).toEqual([want, want])
      }
    }
    for (let i = 0; i < 50; i++) s.set(`https://h${i}.example`, 'User-agent: *\nDisallow: /x\n')
    warm('https://h7.example/x', false)
    s.set('https://h7.example', 'User-agent: *\nDisallow: /y\n')
    warm('https://h7.example/x', true)
    s.setRobots('https://h7.example', parseRobots('User-agent: *\nDisallow: /\n'))
    warm('https://h7.example/x', false)
    s.setOutcome('https://h7.example', 'unavailable')
    warm('https://h7.example/x', true)
    s.set('https://h7.example', 'User-agent: *\nDisallow: /x\n')
    warm('https://h7.example/x', false)
    s.delete('https://h7.example')
    warm('https://h7.example/x', true)
    // The freed id taken by another key.
    s.set('https://new.example', 'User-agent: *\nDisallow: /x\n')
    warm('https://new.example/x', false)
    warm('https://h7.example/x', true)
  })

  it('regression: an agent array changed between calls is judged by its tokens now (the hot cache knew it by identity and answered for the old tokens)', () => {
    const s = new RobotsStore()
    s.set('h.example', 'User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /\n')
    const agent = ['a']
    for (let i = 0; i < 3; i++) expect(s.isAllowed('https://h.example/x', agent)).toBe(false)
    agent[0] = 'b'
    expect(s.isAllowed('https://h.example/x', agent)).toBe(true)
    expect(s.explain('https://h.example/x', agent).allowed).toBe(true)
    agent.push('a')
    expect(s.isAllowed('https://h.example/x', agent)).toBe(s.isAllowed('https://h.example/x', ['b', 'a']))
    agent.length = 0
    expect(s.isAllowed('https://h.example/x', agent)).toBe(true)
    const id = s.lookup('https://h.example/x') as EntryId
    agent.push('a')
    expect(s.matcher(id, agent).isAllowed('/x')).toBe(false)
    agent[0] = 7 as unknown as string
    expect(codeOf(() => s.matcher(id, agent))).toBe('ERR_INPUT')
  })

  it('URLs as strings, URL objects and bytes; a URL without a host or another type is ERR_INPUT', () => {
    const s = new RobotsStore()
    s.set('https://example.com', BODY)
    expect(s.isAllowed('https://example.com/private', 'a')).toBe(false)
    expect(s.isAllowed(new URL('https://example.com/private'), 'a')).toBe(false)
    expect(s.isAllowed(enc.encode('https://example.com/private'), 'a')).toBe(false)
    expect(s.explain(new URL('https://example.com/private'), 'a').rule?.line).toBe(2)
    for (const bad of [42, {}, null, undefined, ['https://example.com/'], '/private', '', 'example.com/private']) {
      expect(codeOf(() => s.isAllowed(bad as string, 'a')), String(bad)).toBe('ERR_INPUT')
      expect(codeOf(() => s.explain(bad as string, 'a')), String(bad)).toBe('ERR_INPUT')
    }
    for (const bad of [42, null, undefined, [1], {}]) {
      expect(codeOf(() => s.isAllowed('https://example.com/', bad as string)), String(bad)).toBe('ERR_INPUT')
      expect(codeOf(() => s.isAllowed('https://nowhere.example/', bad as string)), String(bad)).toBe('ERR_INPUT')
    }
  })

  it('lookupHost finds the bare host of a scan, case-insensitively; matcher(id) and entryKey(id)', () => {
    const s = new RobotsStore()
    s.set('www.example.com', BODY)
    s.setOutcome('down.example', 'unreachable')
    const line = enc.encode('GET http://WWW.Example.com/private 200')
    const scan = new UrlScan()
    scan.scan(line, 4, 34)
    const id = s.lookupHost(scan)
    expect(id).toBeGreaterThanOrEqual(0)
    expect(s.entryKey(id as EntryId)).toBe('www.example.com')
    // The same host as a host column, and a string scan of the URL.
    expect(scan.scanHost(line, 11, 26)).toBe(true)
    expect(s.lookupHost(scan)).toBe(id)
    scan.scanString('https://www.EXAMPLE.com:8443/x')
    expect(s.lookupHost(scan)).toBe(id)
    expect(scan.scanHost(line, 11, 25)).toBe(true)
    expect(s.lookupHost(scan)).toBe(-1)
    // Regression (issue 19): the unkeyed FNV-1a of the host is not the hash the store's index is keyed by.
    let fnv = 0x811c9dc5
    for (const c of enc.encode('www.example.com')) fnv = Math.imul(fnv ^ c, 0x01000193)
    expect(UrlScan.hostHash(enc.encode('www.example.com'))).not.toBe(fnv)
    expect(UrlScan.hostHash(line, 11, 26)).toBe(UrlScan.hostHash(enc.encode('www.example.com')))
    const m = s.matcher(id as EntryId, 'bot')
    expect(m.matchRange(line, 4, 34)).toBe(2 * 2 + 0)
    scan.scan(line, 4, 34)
    expect(m.matchScan(scan)).toBe(2 * 2 + 0)
    scan.scanHost(enc.encode('down.example'))
    const down = s.lookupHost(scan) as EntryId
    expect(s.entrySource(down)).toBe('unreachable')
    expect(s.matcher(down, 'x').isAllowed('/')).toBe(false)
    scan.scan(enc.encode('/a/path'))
    expect(codeOf(() => s.lookupHost(scan))).toBe('ERR_INPUT')
    expect(codeOf(() => s.lookupHost(new UrlScan()))).toBe('ERR_INPUT')
    expect(codeOf(() => s.lookupHost(line as unknown as UrlScan))).toBe('ERR_INPUT')
    expect(codeOf(() => s.matcher(99 as EntryId, 'a'))).toBe('ERR_RANGE')
    expect(codeOf(() => s.matcher(-1 as EntryId, 'a'))).toBe('ERR_RANGE')
  })


  it('regression: an origin key is found from a scan of a URL that does not start at byte 0 (https was told by an absolute offset, so a log line\'s https origin entry was missed)', () => {
    const s = new RobotsStore()
    s.setOutcome('b.example', 'unavailable')
    s.setOutcome('https://b.example:8443', 'unreachable')
    s.set('http://c.example', 'User-agent: *\nDisallow: /c\n')
    s.set('https://c.example', 'User-agent: *\nDisallow: /s\n')
    const scan = new UrlScan()
    const crawlers = s.crawlers(['bot'])
    for (const pad of ['', 'x', 'GET ', 'a long prefix of a log line ']) {
      const cases: [string, string][] = [
        ['https://b.example:8443/c', 'https://b.example:8443'],
        ['http://b.example:8443/c', 'b.example'],
        ['https://c.example/s', 'https://c.example'],
        ['http://c.example/c', 'http://c.example'],
        ['HTTPS://C.example:443/s', 'https://c.example'],
      ]
      for (const [url, key] of cases) {
        const line = enc.encode(`${pad}${url} 200`)
        scan.scan(line, pad.length, pad.length + url.length)
        const id = s.lookupScan(scan)
        expect(id, `${JSON.stringify(pad)} ${url}`).toBeGreaterThanOrEqual(0)
        expect(s.entryKey(id as EntryId), `${JSON.stringify(pad)} ${url}`).toBe(key)
        expect(crawlers.matchScan(scan)[0] & 1, `${JSON.stringify(pad)} ${url}`).toBe(s.isAllowed(url, 'bot') ? 1 : 0)
      }
    }
    expect(s.isAllowed('https://b.example:8443/c', 'bot')).toBe(false)
  })
  it('regression: bytes of a detached buffer as a URL are ERR_INPUT (an empty URL has no host), not a TypeError of the engine', () => {
    const s = new RobotsStore()
    s.set('a.example', BODY)
    const detached = new Uint8Array(new ArrayBuffer(8))
    structuredClone(detached.buffer, { transfer: [detached.buffer] })
    expect(detached.length).toBe(0)
    expect(codeOf(() => s.isAllowed(detached, 'bot'))).toBe('ERR_INPUT')
    expect(codeOf(() => s.explain(detached, 'bot'))).toBe('ERR_INPUT')
    expect(codeOf(() => s.lookup(detached))).toBe('ERR_INPUT')
    expect(codeOf(() => s.crawlers(['bot']).match(detached))).toBe('ERR_INPUT')
  })

  it('regression: a URL whose host lies in the path the reference matches (http://u;p@host/x, http:/host/x) is ERR_INPUT, not judged by that host on another path', () => {
    const s = new RobotsStore()
    s.set('example.com', BODY)
    for (const url of ['http://a;b@example.com/private', 'http://;@example.com/private', 'http://example.com;x/private', 'http:/example.com/private', 'http:\\/example.com/private']) {
      for (const form of [url, enc.encode(url)]) {
        expect(codeOf(() => s.isAllowed(form, 'bot')), url).toBe('ERR_INPUT')
        expect(codeOf(() => s.crawlers(['bot']).match(form)), url).toBe('ERR_INPUT')
      }
      expect(() => s.explain(url, 'bot')).toThrow(/its host is in the path the reference matches/)
    }
    // Where the path starts after the host, the answers stand, in either form.
    for (const url of ['http:example.com/private', ' http://example.com/private', 'http://a@example.com/private;x', 'http://example.com/private']) {
      expect(s.explain(url, 'bot'), url).toMatchObject({ allowed: false, key: 'example.com' })
      expect(s.isAllowed(enc.encode(url), 'bot'), url).toBe(false)
    }
  })

  it("regression: an entry id that is not a number ('__proto__', 'length', '0') is ERR_RANGE, never a property of the hot cache", () => {
    const s = new RobotsStore()
    s.set('a.example', BODY)
    // The hot caches (per entry, for the agent or crawler list used last) are filled first.
    expect(s.matcher(0 as EntryId, 'bot').isAllowed('/private/x')).toBe(false)
    const crawlers = s.crawlers(['bot'])
    expect(crawlers.forEntry(0 as EntryId).isAllowed('/private/x')).toEqual([false])
    for (const id of ['__proto__', 'length', 'constructor', 'map', '0']) {
      for (let i = 0; i < 3; i++) {
        expect(codeOf(() => s.matcher(id as unknown as EntryId, 'bot')), id).toBe('ERR_RANGE')
        expect(codeOf(() => crawlers.forEntry(id as unknown as EntryId)), id).toBe('ERR_RANGE')
      }
    }
    expect(s.matcher(0 as EntryId, 'bot').isAllowed('/private/x')).toBe(false)
  })

  it('hasOriginKeys: whether lookup is needed beyond lookupHost; deleted entries and IPv6 hosts do not count; lazy forms stay unchecked', () => {
    const s = new RobotsStore()
    expect(s.hasOriginKeys()).toBe(false)
    s.set('www.example.com', BODY)
    s.setOutcome('[::1]', 'unreachable')
    expect(s.hasOriginKeys()).toBe(false)
    s.setOutcome('https://down.example:8443', 'unreachable')
    expect(s.hasOriginKeys()).toBe(true)
    const loaded = RobotsStore.fromBytes(s.toBytes(), { lazy: true })
    expect(loaded.hasOriginKeys()).toBe(true)
    s.delete('https://down.example:8443')
    expect(s.hasOriginKeys()).toBe(false)
    // A form that is well checksummed but malformed is not looked at.
    const one = new RobotsStore()
    one.set('a.example', BODY)
    const bytes = one.toBytes()
    const form = readU32(bytes, BundleHeader.DataStart) + 'a.example'.length
    bytes[form + Header.HeaderBytes] = 0xff
    sealForm(bytes, form, readU32(bytes, BundleHeader.Size + 4))
    const lazy = RobotsStore.fromBytes(bytes, { lazy: true })
    expect(lazy.hasOriginKeys()).toBe(false)
    expect(codeOf(() => lazy.get('a.example'))).toBe('ERR_FORMAT')
  })
})

describe('RobotsStore: memory', () => {
  it('compiled matchers stay within matcherBudget (LRU), and recompile with the same answers', () => {
    const s = new RobotsStore({ matcherBudget: 64 * 1024 })
    for (let i = 0; i < 300; i++) s.set(`host${i}.example`, `User-agent: *\nDisallow: /p${i}\nDisallow: /*.pdf$\n`)
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 300; i++) {
        expect(s.isAllowed(`https://host${i}.example/p${i}/x`, 'bot')).toBe(false)
        expect(s.isAllowed(`https://host${i}.example/q.pdf`, 'bot')).toBe(false)
        expect(s.isAllowed(`https://host${i}.example/q.pdfx`, 'bot')).toBe(true)
      }
    }
    const st = s.stats()
    expect(st.matcherBytes).toBeLessThanOrEqual(64 * 1024)
    expect(st.evictions).toBeGreaterThan(0)
    expect(st.compiles).toBeGreaterThan(300)
    expect(s.memoryUsage()).toBeGreaterThan(st.liveBytes + st.matcherBytes)
  })

  it('a matcher too large for matcherBudget on its own is kept aside, alone: compiled once, not per look-up', () => {
    const s = new RobotsStore({ matcherBudget: 64 * 1024 })
    const big = 'User-agent: *\n' + Array.from({ length: 3000 }, (_, i) => `Disallow: /p${i}/*.x$`).join('\n')
    s.set('big.example', big)
    s.set('small.example', 'User-agent: *\nDisallow: /s\n')
    for (let i = 0; i < 50; i++) expect(s.isAllowed(`https://big.example/p${i}/a.x`, 'bot')).toBe(false)
    expect(s.stats().compiles).toBe(1)
    expect(s.stats().matchers).toBe(1)
    // Another entry's matcher (which fits) leaves it aside; a third large one takes its place.
    expect(s.isAllowed('https://small.example/s', 'bot')).toBe(false)
    expect(s.isAllowed('https://big.example/p1/a.x', 'bot')).toBe(false)
    expect(s.stats().compiles).toBe(2)
    s.set('big2.example', big + '\nDisallow: /z')
    expect(s.isAllowed('https://big2.example/z', 'bot')).toBe(false)
    expect(s.isAllowed('https://big.example/p1/a.x', 'bot')).toBe(false)
    expect(s.stats().compiles).toBe(4)
    expect(s.stats().matchers).toBeLessThanOrEqual(2)
  })

  it('replaced and compacted entries are found by every look-up (the index keeps where each key lies)', () => {
    const s = new RobotsStore()
    const pad = 'p'.repeat(3000)
    const n = 600
    // Each entry set three times: the records move on every set, and the holes make the arenas compact.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < n; i++) {
        const key = i % 3 === 0 ? `h${i}.example` : i % 3 === 1 ? `https://h${i}.example` : `http://h${i}.example:8080`
        s.set(key, `User-agent: *\nDisallow: /r${round}/x${i}\nAllow: /${pad}\n`)
      }
    }
    expect(s.stats().garbageBytes).toBeLessThanOrEqual(Math.max(s.stats().liveBytes, 1024 * 1024))
    const check = (t: RobotsStore) => {
      for (let i = 0; i < n; i++) {
        const url = i % 3 === 2 ? `http://H${i}.example:8080/r2/x${i}` : `https://h${i}.EXAMPLE/r2/x${i}`
        expect(t.isAllowed(url, 'a')).toBe(false)
        expect(t.isAllowed(url.replace('/r2/', '/r1/'), 'a')).toBe(true)
        expect(t.lookup(enc.encode(url))).toBe(t.lookup(url))
        expect(t.source(i % 3 === 0 ? `h${i}.example` : url)).toBe('robots')
      }
      expect(t.isAllowed('https://h1.example:8443/r2/x1', 'a')).toBe(true)
      expect(t.lookup('http://h2.example/')).toBe(-1)
    }
    check(s)
    s.compact()
    check(s)
    check(RobotsStore.fromBytes(s.toBytes()))
  })

  it('deleting most entries compacts the arenas; the rest answer as before', () => {
    const s = new RobotsStore()
    const pad = 'p'.repeat(2000)
    for (let i = 0; i < 2000; i++) s.set(`https://h${i}.example`, `User-agent: *\nDisallow: /x${i}\nAllow: /${pad}\n`)
    const before = s.memoryUsage()
    for (let i = 0; i < 2000; i++) if (i % 10) s.delete(`https://h${i}.example`)
    expect(s.size).toBe(200)
    // Holes are reclaimed once they pass half of the arenas and 1 MiB.
    expect(s.stats().garbageBytes).toBeLessThanOrEqual(Math.max(s.stats().liveBytes, 1024 * 1024))
    expect(s.memoryUsage()).toBeLessThan(before / 2)
    for (let i = 0; i < 2000; i += 10) expect(s.isAllowed(`https://h${i}.example/x${i}`, 'a')).toBe(false)
    expect(s.delete('https://h1.example')).toBe(false)
    // compact() by hand leaves no holes.
    s.delete('https://h0.example')
    s.compact()
    expect(s.stats().garbageBytes).toBe(0)
    for (let i = 10; i < 2000; i += 10) expect(s.isAllowed(`https://h${i}.example/x${i}`, 'a')).toBe(false)
  })

  it("regression: a bad matcherBudget was refused as 'maxBytes must be a number >= 0', naming an option the caller never gave", () => {
    for (const bad of [Number.NaN, '5', -1, null]) expect(() => new RobotsStore({ matcherBudget: bad as number })).toThrow(/^RobotsStore: matcherBudget must be a number >= 0/)
  })

  it('budget: a set that would pass it is ERR_BUDGET and changes nothing', () => {
    const s = new RobotsStore({ budget: 4096 })
    s.set('a.example', BODY)
    expect(codeOf(() => s.set('b.example', 'User-agent: *\nDisallow: /' + 'x'.repeat(8000)))).toBe('ERR_BUDGET')
    expect(s.size).toBe(1)
    expect(s.has('b.example')).toBe(false)
    for (const bad of [-1, 'big', null]) expect(codeOf(() => new RobotsStore({ budget: bad as number }))).toBe('ERR_BUDGET')
    expect(codeOf(() => new RobotsStore({ matcherBudget: -5 }))).toBe('ERR_BUDGET')
    expect(codeOf(() => new RobotsStore({ limit: 1000 }))).toBe('ERR_LIMIT')
    expect(codeOf(() => new RobotsStore({ matcherOptions: { matcherBudget: 1 } }))).toBe('ERR_BUDGET')
    expect(codeOf(() => new RobotsStore(42 as unknown as object))).toBe('ERR_INPUT')
  })

  it('regression: setRobots counts what sharing a form costs against budget (the view of a form cut from a slab and the maps that hold it: a budget of 20 MB filled by small files held 47 MB)', () => {
    const budget = 400_000
    const s = new RobotsStore({ budget })
    const empty = new RobotsStore().memoryUsage()
    let stored = 0
    try {
      for (let i = 0; i < 100_000; i++, stored++) s.setRobots(`https://h${i}.example`, parseRobots(`User-agent: *\nDisallow: /p${i}/\n`))
    } catch (err) {
      expect((err as RobotsError).code).toBe('ERR_BUDGET')
    }
    expect(stored).toBeGreaterThan(1000)
    // What the store holds, by the memory model, stays near the budget: its keys fill the arena's first chunk (64 KiB) alone.
    expect(s.stats().liveBytes).toBeLessThan(65_536)
    expect(s.memoryUsage() - empty).toBeLessThanOrEqual(budget * 1.25 + 65_536)
  })

  it('regression: setRobots counts the form it shares against budget, once however many keys share it (it counted none: a 50 KB budget held 240 KB)', () => {
    const big = parseRobots('User-agent: *\n' + Array.from({ length: 20000 }, (_, i) => `Disallow: /p${i}\n`).join(''))
    const small = parseRobots(BODY)
    const s = new RobotsStore({ budget: 50_000 })
    expect(codeOf(() => s.setRobots('a.example', big))).toBe('ERR_BUDGET')
    expect(s.size).toBe(0)
    // A small form under many keys: held once, so the keys alone count.
    for (let i = 0; i < 200; i++) s.setRobots(`h${i}.example`, small)
    expect(s.size).toBe(200)
    // Distinct forms each count: the budget stops them.
    let stored = 0
    try {
      for (let i = 0; i < 1000; i++, stored++) s.setRobots(`d${i}.example`, parseRobots(BODY + `Disallow: /only-${i}/${'x'.repeat(200)}\n`))
    } catch (err) {
      expect((err as RobotsError).code).toBe('ERR_BUDGET')
    }
    expect(stored).toBeGreaterThan(0)
    expect(stored).toBeLessThan(1000)
    // Replaced or deleted, a shared form stops counting: its room is free again.
    const t = new RobotsStore({ budget: 30_000 })
    const mid = parseRobots('User-agent: *\n' + Array.from({ length: 3000 }, (_, i) => `Disallow: /m${i}\n`).join(''))
    expect(mid.toBytes().length).toBeGreaterThan(15_000)
    t.setRobots('a.example', mid)
    expect(codeOf(() => t.setRobots('b.example', parseRobots('User-agent: *\n' + Array.from({ length: 3000 }, (_, i) => `Disallow: /n${i}\n`).join(''))))).toBe('ERR_BUDGET')
    t.delete('a.example')
    t.setRobots('b.example', mid)
    t.setOutcome('b.example', 'unreachable')
    t.setRobots('c.example', mid)
    expect(t.has('c.example')).toBe(true)
  })

  it('regression: a Robots with a form of at most 4 KiB (cut from a shared slab), set under many keys, was counted once per key (a 2 MB budget held 486 keys of one 4 KB file): once', () => {
    const small = parseRobots('User-agent: *\nDisallow: /' + 'x'.repeat(4000) + '\n')
    expect(small.toBytes().length).toBeGreaterThan(3000)
    expect(small.toBytes().length).toBeLessThanOrEqual(4096)
    const budget = 400_000
    const fill = (put: (s: RobotsStore, i: number) => void): RobotsStore => {
      const s = new RobotsStore({ budget })
      try {
        for (let i = 0; i < 1_000_000; i++) put(s, i)
      } catch (err) {
        expect((err as RobotsError).code).toBe('ERR_BUDGET')
      }
      return s
    }
    const shared = fill((s, i) => s.setRobots(`https://k${i}.example`, small))
    const outcomes = fill((s, i) => s.setOutcome(`https://k${i}.example`, 'unreachable'))
    // The form once: about as many keys as outcomes.
    expect(shared.size).toBeGreaterThan(outcomes.size / 2)
    expect(shared.size).toBeLessThanOrEqual(outcomes.size)
    expect(shared.isAllowed('https://k7.example/' + 'x'.repeat(4001), '*')).toBe(false)
    // Deleted, the form and the map's entries are given back.
    const n = shared.size
    for (let i = 0; i < n; i++) shared.delete(`https://k${i}.example`)
    expect(shared.size).toBe(0)
    for (let i = 0; i < outcomes.size / 2; i++) shared.setRobots(`https://n${i}.example`, small)
  })

  it('regression: a store never holds more than its budget (the entry table and index grew past it unseen: a 5 MB budget held 6.8 MB of outcomes)', () => {
    const held = (s: RobotsStore): number => (s as unknown as { heldBytes(): number }).heldBytes()
    const big = parseRobots('User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /p${i}\n`).join(''))
    for (const budget of [3500, 50_000, 1_000_000, 5_000_000]) {
      for (const mode of ['outcomes', 'bodies', 'shared', 'churn']) {
        const s = new RobotsStore({ budget })
        let n = 0
        // One expect a store (the first entry past the budget named), not one an entry.
        let over: string | undefined
        try {
          for (; n < 1_000_000 && over === undefined; n++) {
            if (mode === 'outcomes') s.setOutcome(`x${n}.example`, 'unavailable')
            else if (mode === 'bodies') s.set(`x${n}.example`, n % 2 ? BODY : 'User-agent: *\nDisallow: /\n')
            else if (mode === 'shared') s.setRobots(`x${n}.example`, n % 3 ? big : parseRobots(BODY + `Disallow: /${n}\n`))
            else {
              if (n % 5 === 4) s.delete(`x${n - 2}.example`)
              s.setRobots(`x${n}.example`, big)
              if (n % 7 === 0) s.set(`x${n}.example`, BODY)
            }
            const bytes = held(s)
            if (!(bytes <= budget)) over = `${mode} under ${budget}, entry ${n}: ${bytes} bytes held`
          }
        } catch (err) {
          if ((err as RobotsError).code === undefined) throw err
          expect((err as RobotsError).code, `${mode} under ${budget}`).toBe('ERR_BUDGET')
        }
        expect(over).toBeUndefined()
        expect(n, `${mode} under ${budget}`).toBeGreaterThan(0)
        expect(held(s)).toBeLessThanOrEqual(budget)
      }
    }
  })

  it('regression: a full store replaces an entry with one of the same size (the replaced entry was counted twice: ERR_BUDGET)', () => {
    const body = 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /p${i}\n`).join('')
    const s = new RobotsStore({ budget: 200_000 })
    let n = 0
    try {
      for (; ; n++) s.set(`h${n}.example`, body)
    } catch (err) {
      expect((err as RobotsError).code).toBe('ERR_BUDGET')
    }
    s.set('h0.example', body.replace('/p0', '/q0'))
    expect(s.isAllowed('https://h0.example/q0', 'bot')).toBe(false)
    s.setRobots('h1.example', parseRobots(body.replace('/p0', '/r0')))
    s.setRobots('h1.example', s.get('h2.example')!)
    s.set('h1.example', body)
    expect(s.size).toBe(n)
    expect(codeOf(() => s.set('h1.example', body + 'Disallow: /more\n'.repeat(200)))).toBe('ERR_BUDGET')
    expect(s.isAllowed('https://h1.example/p1', 'bot')).toBe(false)
  })

  it('regression: a lazy option that is not a boolean is ERR_INPUT (lazy: \'yes\' loaded eagerly, unsaid)', () => {
    const bundle = new RobotsStore().toBytes()
    for (const lazy of ['yes', 1, null, {}]) expect(codeOf(() => RobotsStore.fromBytes(bundle, { lazy: lazy as unknown as boolean })), String(lazy)).toBe('ERR_INPUT')
    expect(RobotsStore.fromBytes(bundle, { lazy: false }).size).toBe(0)
    expect(RobotsStore.fromBytes(bundle, { lazy: undefined }).size).toBe(0)
  })

  it('regression: fromBytes refuses a bundle whose rules pass budget (ERR_BUDGET; it loaded it past the budget)', () => {
    const s = new RobotsStore()
    for (let i = 0; i < 50; i++) s.set(`h${i}.example`, `${BODY}Disallow: /only-${i}/${'x'.repeat(200)}\n`)
    const bundle = s.toBytes()
    for (const lazy of [false, true]) {
      expect(codeOf(() => RobotsStore.fromBytes(bundle, { budget: 2000, lazy }))).toBe('ERR_BUDGET')
      expect(RobotsStore.fromBytes(bundle, { budget: 1_000_000, lazy }).size).toBe(50)
    }
  })
})

describe('RobotsStore: bundles', () => {
  function sampleStore(): RobotsStore {
    const s = new RobotsStore()
    s.set('https://example.com', BODY)
    s.set('example.org', 'User-agent: *\nDisallow: /\nSitemap: https://example.org/s.xml\n')
    s.setOutcome('http://down.example', 'unreachable')
    s.setOutcome('gone.example', 'unavailable')
    s.setRobots('https://shared.example', parseRobots('User-agent: a\nDisallow: /a\n'))
    s.set('deleted.example', BODY)
    s.delete('deleted.example')
    return s
  }

  it('round-trips: same keys, sources and answers; eager and lazy', () => {
    const s = sampleStore()
    const bytes = s.toBytes()
    for (const lazy of [false, true]) {
      const t = RobotsStore.fromBytes(bytes, { lazy })
      expect([...t.keys()].sort()).toEqual([...s.keys()].sort())
      for (const url of ['https://example.com/private', 'https://example.com/g', 'http://example.org/x', 'http://down.example/', 'https://gone.example/', 'https://shared.example/a', 'https://no.example/']) {
        for (const agent of ['googlebot', 'a', 'other']) expect(t.explain(url, agent), `${url} ${agent}`).toEqual(s.explain(url, agent))
      }
      expect(t.get('example.org')!.sitemaps).toEqual(['https://example.org/s.xml'])
      expect(t.toBytes()).toEqual(bytes)
    }
  })

  it('loading keeps the buffer (zero copy) and a loaded store takes new entries', () => {
    const bytes = sampleStore().toBytes()
    const t = RobotsStore.fromBytes(bytes)
    expect(t.memoryUsage()).toBeGreaterThanOrEqual(bytes.buffer.byteLength)
    t.set('new.example', 'User-agent: *\nDisallow: /n\n')
    t.delete('https://example.com')
    expect(t.isAllowed('http://new.example/n', 'a')).toBe(false)
    expect(t.isAllowed('https://example.com/private', 'a')).toBe(true)
    const u = RobotsStore.fromBytes(t.toBytes())
    expect(u.size).toBe(t.size)
    expect(u.isAllowed('http://new.example/n', 'a')).toBe(false)
  })

  it('a Node Buffer at an odd offset loads too', () => {
    const bytes = sampleStore().toBytes()
    const padded = Buffer.alloc(bytes.length + 3)
    padded.set(bytes, 3)
    const t = RobotsStore.fromBytes(padded.subarray(3))
    expect(t.isAllowed('https://example.com/g', 'googlebot')).toBe(false)
  })
})

describePaired('RobotsStore answers as parseRobots(body).agent(agent)', 'store-paired', (source) => {
  it('every paired URL, through origin keys and bare-host keys, after a bundle round trip too', () => {
    const hosts = source.hosts()
    const byOrigin = new RobotsStore()
    const byHost = new RobotsStore({ matcherBudget: 256 * 1024 })
    for (const h of hosts) {
      if (!h.robots) continue
      byHost.set(h.host, h.robots)
      for (const u of h.urls) {
        let origin: string
        try {
          origin = new URL(u).origin
        } catch {
          continue
        }
        if (origin !== 'null' && !byOrigin.has(origin)) byOrigin.set(origin, h.robots)
      }
    }
    const loaded = RobotsStore.fromBytes(byHost.toBytes(), { lazy: true })
    let n = 0
    // One expect for every URL (the first wrong answer named), not one a URL and store. Objects are
    // compared as JSON with their keys sorted: the fields and values toEqual compares, in any order.
    const text = (v: unknown): string => JSON.stringify(v, (_, x: unknown) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))
    let wrong: string | undefined
    for (const h of hosts) {
      const robots = parseRobots(h.robots ?? '')
      for (const agent of ['Googlebot', 'bingbot']) {
        const m = robots.agent(agent)
        for (const u of h.urls) {
          let parsed: URL
          try {
            parsed = new URL(u)
          } catch {
            continue
          }
          if (!parsed.hostname || parsed.hostname !== h.host) continue
          const want = text(m.explain(u))
          for (const [k, store] of [byOrigin, byHost, loaded].entries()) {
            if (wrong !== undefined) break
            const got = store.explain(u, agent)
            if (h.robots) {
              const answer = text({ allowed: got.allowed, rule: got.rule })
              if (answer !== want) wrong = `${h.host} ${u} (${agent}, store ${k}): ${answer} against ${want}`
            } else if (got.source !== 'none') wrong = `${h.host} ${u} (${agent}, store ${k}): source ${got.source} against none`
          }
          n++
        }
      }
    }
    expect(wrong).toBeUndefined()
    expect(n).toBeGreaterThan(source.urlCount)
  }, 300_000)
})
