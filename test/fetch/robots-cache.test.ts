// RobotsCache against real HTTP servers on 127.0.0.1 (random ports), with an
// injected clock. No other address is ever contacted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { fetchRobots, RobotsCache, type RobotsStore } from '../../src/index.js'
import { reply, startServer, type TestServer } from './server.js'
import { BYTE_LRU_ENTRY_BYTES } from '../../src/byte-lru.js'
import { objectBytes, stringBytes } from '../../src/memory.js'
import { entryOverheadOf } from '../../src/store/robots-store.js'

const RULES = 'User-agent: *\nDisallow: /private\n'
const MIN = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000

const servers: TestServer[] = []
let s: TestServer
let clock = 0
const now = () => clock

beforeAll(async () => {
  for (let i = 0; i < 4; i++) servers.push(await startServer(reply(200, RULES)))
  s = servers[0]!
})
afterAll(async () => {
  for (const t of servers) await t.close()
})
beforeEach(() => {
  clock = 1_700_000_000_000
  for (const t of servers) {
    t.reset()
    t.handler = reply(200, RULES)
  }
})

describe('RobotsCache', () => {
  it('caches per origin for 24 hours by default (injected clock)', async () => {
    const cache = new RobotsCache({ now })
    expect(await cache.isAllowed(s.origin + '/private/a', 'bot')).toBe(false)
    expect(await cache.isAllowed(s.origin + '/public', 'bot')).toBe(true)
    clock += 24 * HOUR - 1
    await cache.get(s.origin + '/x')
    expect(s.requests).toEqual(['/robots.txt'])
    clock += 1
    await cache.get(s.origin + '/x')
    expect(s.requests).toEqual(['/robots.txt', '/robots.txt'])
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2, fetches: 2, coalesced: 0, entries: 1 })
  })

  it('honours Cache-Control max-age', async () => {
    s.handler = reply(200, RULES, { 'cache-control': 'max-age=120' })
    const cache = new RobotsCache({ now })
    await cache.get(s.origin)
    clock += 119_999
    await cache.get(s.origin)
    expect(s.requests).toHaveLength(1)
    clock += 1
    await cache.get(s.origin)
    expect(s.requests).toHaveLength(2)
    expect((await cache.lookup(s.origin)).expiresAt).toBe(clock + 120_000)
  })

  it('caches unavailable (allow all) like a file', async () => {
    s.handler = reply(404)
    const cache = new RobotsCache({ now })
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(true)
    clock += 23 * HOUR
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(true)
    expect(s.requests).toHaveLength(1)
  })

  it('keeps using the cached copy while refreshes are unreachable, then assumes unavailable after 30 days', async () => {
    const cache = new RobotsCache({ now })
    const t0 = clock
    const first = await cache.lookup(s.origin)
    expect(first.basis).toBe('fetched')

    s.handler = reply(503)
    clock += 25 * HOUR
    const stale = await cache.lookup(s.origin + '/private')
    expect(stale.basis).toBe('stale')
    expect(stale.robots).toBe(first.robots)
    expect(stale.result.outcome).toBe('unreachable')
    expect(stale.previous?.outcome).toBe('ok')
    expect(stale.expiresAt).toBe(clock + 10 * MIN) // retry soon
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(false)
    expect(await cache.isAllowed(s.origin + '/public', 'bot')).toBe(true)
    expect(cache.stats().stale).toBe(1)
    expect(s.requests).toHaveLength(2)

    clock = t0 + 30 * DAY // still within 30 days of the last successful fetch
    expect((await cache.lookup(s.origin)).basis).toBe('stale')
    clock += 10 * MIN // that stale answer is reused for 10 minutes (no Retry-After), then retried
    const gaveUp = await cache.lookup(s.origin)
    expect(gaveUp.basis).toBe('assumed-unavailable')
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(true)

    s.handler = reply(200, 'User-agent: *\nDisallow: /new\n')
    clock += 11 * MIN
    const back = await cache.lookup(s.origin)
    expect(back.basis).toBe('fetched')
    expect(await cache.isAllowed(s.origin + '/new', 'bot')).toBe(false)
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(true)
  })

  it('refreshes an expired entry conditionally: a 304 keeps the rules with a new expiry (also after unreachable refreshes)', async () => {
    s.handler = (req, res) => {
      if (req.headers['if-none-match'] === '"r1"') {
        res.writeHead(304, { 'cache-control': 'max-age=3600' })
        return res.end()
      }
      res.writeHead(200, { etag: '"r1"', 'cache-control': 'max-age=3600' })
      res.end(RULES)
    }
    const cache = new RobotsCache({ now })
    const first = await cache.lookup(s.origin)
    expect(first.result.validators).toEqual({ etag: '"r1"' })
    clock += HOUR
    const second = await cache.lookup(s.origin + '/private')
    expect(s.headers[1]!['if-none-match']).toBe('"r1"')
    expect(second.result.outcome).toBe('not-modified')
    expect(second.basis).toBe('fetched')
    expect(second.robots).toBe(first.robots)
    expect(second.expiresAt).toBe(clock + HOUR)
    expect(await cache.isAllowed(s.origin + '/private', 'bot')).toBe(false)
    expect(cache.stats()).toMatchObject({ fetches: 2, revalidated: 1 })
    // Unreachable, then back with 304: the validators of the last good copy are sent.
    const handler = s.handler
    s.handler = reply(503)
    clock += HOUR
    expect((await cache.lookup(s.origin)).basis).toBe('stale')
    s.handler = handler
    clock += HOUR
    const back = await cache.lookup(s.origin)
    expect(s.headers[3]!['if-none-match']).toBe('"r1"')
    expect(back.result.outcome).toBe('not-modified')
    expect(back.robots).toBe(first.robots)
    expect(cache.stats().revalidated).toBe(2)
  })

  it('unreachable without a copy disallows all, until maxStaleMs of unreachability', async () => {
    s.handler = reply(500)
    const cache = new RobotsCache({ now, maxStaleMs: 2 * DAY })
    expect(await cache.isAllowed(s.origin + '/a', 'bot')).toBe(false)
    expect((await cache.lookup(s.origin)).basis).toBe('fetched')
    clock += 2 * DAY
    expect(await cache.isAllowed(s.origin + '/a', 'bot')).toBe(false)
    clock += 11 * MIN
    expect(await cache.isAllowed(s.origin + '/a', 'bot')).toBe(true)
    expect((await cache.lookup(s.origin)).basis).toBe('assumed-unavailable')
  })

  it('shares one fetch among 100 concurrent gets', async () => {
    s.handler = (req, res) => setTimeout(() => reply(200, RULES)(req, res), 50)
    const cache = new RobotsCache({ now })
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) => cache.get(`${s.origin}/page/${i}`)))
    expect(s.requests).toEqual(['/robots.txt'])
    expect(new Set(all).size).toBe(1)
    expect(cache.stats()).toMatchObject({ misses: 100, coalesced: 99, fetches: 1, hits: 0 })
    await cache.get(s.origin)
    expect(cache.stats().hits).toBe(1)
  })

  it('evicts least recently used origins to stay within the byte budget', async () => {
    const probe = new RobotsCache({ now })
    const lookup = await probe.lookup(servers[0]!.origin)
    const one = probe.stats().bytes
    // An entry costs its rules (Robots.memoryUsage() before any matcher) plus its own objects and
    // strings: a few hundred bytes for an origin, a URL and a handful of headers.
    const own = one - lookup.robots.memoryUsage()
    expect(own).toBeGreaterThan(200)
    expect(own).toBeLessThan(2_000)
    // A compiled matcher is counted in the matchers' part; the entry does not change.
    await probe.isAllowed(servers[0]!.origin + '/private', 'bot')
    const st0 = probe.stats()
    // A small file's matcher starts in the cold tier: its rule records and a few objects, a few hundred bytes.
    expect(st0.matcherBytes).toBeGreaterThan(100)
    expect(st0.matcherBytes).toBeLessThan(1_000)
    expect(st0.bytes - one).toBe(st0.matcherBytes)
    // The shared allow-all answer of an unavailable file costs nothing beyond the entry's own part.
    servers[1]!.handler = reply(404)
    const unavailable = new RobotsCache({ now })
    await unavailable.isAllowed(servers[1]!.origin + '/a', 'bot')
    const sizeUnavailable = unavailable.stats().bytes
    await unavailable.isAllowed(servers[1]!.origin + '/b', 'other')
    expect(unavailable.stats().bytes).toBe(sizeUnavailable)
    expect(sizeUnavailable).toBeLessThan(2_000)
    servers[1]!.handler = reply(200, RULES)
    servers[1]!.reset()

    const budget = Math.floor(one * 2.5)
    const cache = new RobotsCache({ now, maxBytes: budget, matcherBytes: 0 })
    const [s0, s1, s2] = servers as [TestServer, TestServer, TestServer]
    await cache.get(s0.origin)
    await cache.get(s1.origin)
    await cache.get(s0.origin) // s0 is now the most recently used
    await cache.get(s2.origin) // over budget: s1 goes
    const st = cache.stats()
    expect(st.evictions).toBe(1)
    expect(st.entries).toBe(2)
    expect(st.bytes).toBeLessThanOrEqual(budget)
    expect(cache.peek(s1.origin)).toBeUndefined()
    expect(cache.peek(s0.origin)).toBeDefined()
    await cache.get(s1.origin) // refetched
    expect(s1.requests).toHaveLength(2)
    expect(cache.stats().evictions).toBe(2)
    expect(cache.stats().bytes).toBeLessThanOrEqual(budget)
  })

  it('regression: an entry larger than its budget was refetched on every look-up (issue 13 #3)', async () => {
    // 369 KB of rules, cached for a day, under a 256 KiB budget: one fetch for 100 look-ups.
    const big = 'User-agent: *\n' + Array.from({ length: 17_000 }, (_, i) => `Disallow: /p${i}/*.x$`).join('\n') + '\n'
    expect(big.length).toBeGreaterThan(369_000)
    s.handler = reply(200, big, { 'cache-control': 'max-age=86400' })
    const cache = new RobotsCache({ now, maxBytes: 256 * 1024 })
    for (let i = 0; i < 100; i++) {
      expect(await cache.isAllowed(`${s.origin}/p${i}/a.x`, 'bot')).toBe(false)
      expect(await cache.isAllowed(`${s.origin}/p${i}/a.y`, 'bot')).toBe(true)
    }
    expect(s.requests).toEqual(['/robots.txt'])
    const st = cache.stats()
    expect(st).toMatchObject({ fetches: 1, evictions: 0, entries: 1 })
    // Its matcher, too large for the matchers' 64 KiB, is kept aside alone: compiled once, not per look-up.
    expect(st.matcherBytes).toBeGreaterThan(64 * 1024)
    await cache.isAllowed(`${s.origin}/p1/a.x`, 'other')
    expect(cache.stats().matcherBytes).toBe(st.matcherBytes)
    expect(cache.peek(s.origin)?.robots.agent('bot').isAllowed('/p5/b.x')).toBe(false)
    // It honours its TTL: fetched again after a day, not before.
    clock += 86_400_000 - 1
    await cache.isAllowed(s.origin + '/a', 'bot')
    expect(s.requests).toHaveLength(1)
    clock += 1
    await cache.isAllowed(s.origin + '/a', 'bot')
    expect(s.requests).toHaveLength(2)
  })

  it('an entry alone over a tiny budget is kept aside, usable, until it expires or another takes its place', async () => {
    const tiny = new RobotsCache({ now, maxBytes: 100 })
    expect(await tiny.isAllowed(s.origin + '/private', 'bot')).toBe(false)
    expect(await tiny.isAllowed(s.origin + '/public', 'bot')).toBe(true)
    expect(s.requests).toHaveLength(1)
    expect(tiny.stats()).toMatchObject({ entries: 1, evictions: 0 })
    const other = servers[1]!
    expect(await tiny.isAllowed(other.origin + '/private', 'bot')).toBe(false)
    expect(tiny.stats().entries).toBe(1)
    expect(tiny.peek(s.origin)).toBeUndefined()
    expect(tiny.peek(other.origin)).toBeDefined()
    expect(() => new RobotsCache({ maxBytes: 100, matcherBytes: 200 })).toThrow(expect.objectContaining({ code: 'ERR_BUDGET' }))
  })

  it('compiled matchers stay within matcherBytes and never evict entries', async () => {
    const cache = new RobotsCache({ now, maxBytes: 1024 * 1024, matcherBytes: 8 * 1024 })
    for (const t of servers) await cache.isAllowed(t.origin + '/private/x', 'bot')
    for (let round = 0; round < 3; round++) {
      for (const t of servers) for (const agent of ['a', 'b', 'c']) expect(await cache.isAllowed(t.origin + '/private/x', agent)).toBe(false)
    }
    const st = cache.stats()
    expect(st.matcherBytes).toBeLessThanOrEqual(8 * 1024)
    expect(st).toMatchObject({ entries: 4, evictions: 0, fetches: 4 })
  })

  it('delete, clear and bad URLs', async () => {
    const cache = new RobotsCache({ now })
    await cache.get(s.origin)
    expect(cache.delete(s.origin + '/any')).toBe(true)
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 })
    await cache.get(s.origin)
    cache.clear()
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 })
    await expect(cache.get('mailto:a@b')).rejects.toMatchObject({ code: 'ERR_INPUT' })
  })

  it('regression: isAllowed of a URL whose host lies in the path the reference matches (http:///h/x, http://u;p@h/x) fetched that host, then threw or judged a path holding it; now ERR_INPUT before any fetch', async () => {
    let asked = 0
    const transport = { request: async () => { asked++; throw new Error('never asked') } }
    const cache = new RobotsCache({ now, transport })
    for (const url of ['http:///example.com/x', 'http://a;b@example.com/x', 'http:/example.com/x', 'http://example.com;y/x']) {
      await expect(cache.isAllowed(url, 'bot'), url).rejects.toMatchObject({ code: 'ERR_INPUT' })
    }
    expect(asked).toBe(0)
  })

  it('regression: isAllowed with a crawler that is not a token or an array of tokens (42, undefined, [1]) fetched the robots.txt, then threw; now ERR_INPUT before any fetch', async () => {
    let asked = 0
    const transport = { request: async () => { asked++; throw new Error('never asked') } }
    const cache = new RobotsCache({ now, transport })
    for (const agent of [42, undefined, null, {}, [1], ['bot', 2]]) {
      await expect(cache.isAllowed('http://example.com/x', agent as string), String(agent)).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/crawler/) })
    }
    expect(asked).toBe(0)
  })

  it('regression: an entry deleted or cleared while its fetch was in flight came back when the fetch completed; now it is not kept', async () => {
    for (const forget of ['delete', 'clear'] as const) {
      s.reset()
      let answer!: () => void
      const asked = new Promise<void>((resolve) => {
        s.handler = (req, res) => {
          answer = () => reply(200, RULES)(req, res)
          resolve()
        }
      })
      const cache = new RobotsCache({ now })
      const pending = cache.get(s.origin)
      await asked
      if (forget === 'delete') cache.delete(s.origin)
      else cache.clear()
      // A look-up after the forgetting fetches anew, not joining the forgotten fetch.
      s.handler = reply(200, RULES)
      const fresh = await cache.lookup(s.origin)
      expect(s.requests, forget).toHaveLength(2)
      answer()
      // The forgotten fetch still answers its caller, and leaves the newer entry in place.
      expect((await pending).agent('bot').isAllowed('/private'), forget).toBe(false)
      expect(cache.peek(s.origin), forget).toBe(fresh)
      expect(cache.stats(), forget).toMatchObject({ entries: 1, fetches: 2, coalesced: 0 })
      // Forgotten with nothing after it: nothing comes back.
      s.reset()
      let again!: () => void
      const asked2 = new Promise<void>((resolve) => {
        s.handler = (req, res) => {
          again = () => reply(200, RULES)(req, res)
          resolve()
        }
      })
      const other = new RobotsCache({ now })
      const late = other.get(s.origin)
      await asked2
      if (forget === 'delete') expect(other.delete(s.origin), forget).toBe(false)
      else other.clear()
      again()
      await late
      expect(other.peek(s.origin), forget).toBeUndefined()
      expect(other.stats(), forget).toMatchObject({ entries: 0, bytes: 0 })
    }
  })

  it('regression: isAllowed with an array of tokens answered while its entry was kept, and threw ERR_INPUT when the entry had gone meanwhile (deleted, evicted); now it answers either way', async () => {
    const cache = new RobotsCache({ now })
    const gone = cache.isAllowed(`${s.origin}/private`, ['bot', 'other'])
    expect(cache.delete(s.origin)).toBe(false) // in flight: its answer is not kept
    expect(await gone).toBe(false)
    expect(await cache.isAllowed(`${s.origin}/private`, ['bot', 'other'])).toBe(false)
    expect(await cache.isAllowed(new URL(`${s.origin}/public`), ['bot'])).toBe(true)
    expect(s.requests).toHaveLength(2)
  })

  it('regression: the byte budget left out what the store holds for each entry (its key, its slots in the entry table and the index, a shared form\'s map places): a cache counted about 1.2 to 1.5 times less than it held', async () => {
    const fetch = async () => new Response(null, { status: 404 })
    const cache = new RobotsCache({ now, fetch: fetch as never, matcherBytes: 0 })
    const store = (cache as unknown as { store: RobotsStore }).store
    const origins = Array.from({ length: 400 }, (_, i) => `https://h${String(i).padStart(4, '0')}.example`)
    await cache.get(origins[0]!)
    const storeFirst = store.memoryUsage()
    for (const o of origins.slice(1)) await cache.get(o)
    let parts = 0
    for (const o of origins) {
      const part = entryOverheadOf(store, o)
      expect(part).toBeGreaterThan(o.length + 64) // its key and a slot in each table, at least
      parts += part
    }
    // The store's growth, by its own count, is within what the entries count for it.
    expect(parts - entryOverheadOf(store, origins[0]!)).toBeGreaterThanOrEqual(store.memoryUsage() - storeFirst)
    // Each entry counts its own objects (its LRU slot, the entry, its look-up and fetch result, the
    // origin and URL strings) and, on top, the store's part: an unavailable site's rules cost nothing.
    const url = origins[0]! + '/robots.txt'
    const own = BYTE_LRU_ENTRY_BYTES + objectBytes(4) + objectBytes(6) + objectBytes(13) + 2 * stringBytes(origins[0]!) + 2 * stringBytes(url)
    expect(cache.stats().bytes).toBeGreaterThanOrEqual(origins.length * own + parts)
  })

  it('regression: maxBytes: Infinity (no bound) was ERR_BUDGET saying NaN; now it is taken, and so is a finite matcherBytes beside it', async () => {
    for (const options of [{ maxBytes: Infinity }, { maxBytes: Infinity, matcherBytes: 1_000 }]) {
      const cache = new RobotsCache({ now, ...options })
      expect(await cache.isAllowed(`${s.origin}/private`, 'bot')).toBe(false)
      expect(cache.stats()).toMatchObject({ entries: 1, evictions: 0, maxBytes: Infinity })
    }
  })

  it('regression: RobotsCache trailing-dot origin: https://example.com./ was an entry and a fetch of its own beside https://example.com/, both held under the store\'s one key, so deleting or evicting one spelling dropped the other\'s rules and its disallowed URLs were then allowed; now one origin, one entry, one fetch', async () => {
    const asked: string[] = []
    const fetch = async (url: string | URL) => {
      asked.push(String(url))
      return new Response(RULES, { headers: { 'content-type': 'text/plain' } })
    }
    const cache = new RobotsCache({ now, fetch: fetch as never })
    expect(await cache.isAllowed('https://example.com/private/a', 'bot')).toBe(false)
    expect(await cache.isAllowed('https://EXAMPLE.com.:443/private/a', 'bot')).toBe(false)
    expect((await cache.lookup('https://example.com./x')).origin).toBe('https://example.com')
    expect(asked).toEqual(['https://example.com/robots.txt'])
    expect(cache.stats()).toMatchObject({ entries: 1, fetches: 1, hits: 2 })
    // Forgetting one spelling forgets the site; the next look-up fetches again and still disallows.
    expect(cache.delete('https://example.com./')).toBe(true)
    expect(await cache.isAllowed('https://example.com/private/a', 'bot')).toBe(false)
    expect(asked).toHaveLength(2)
    // An origin too long for a key is refused before any fetch.
    const long = `https://${Array.from({ length: 20 }, () => 'a'.repeat(60)).join('.')}/x`
    await expect(cache.get(long)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    expect(asked).toHaveLength(2)
  })

  it('regression: a bad fetch option was an error only at the first look-up; now the constructor throws its coded error', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ timeoutMs: -1 }, 'ERR_INPUT'],
      [{ timeoutMs: Infinity }, 'ERR_INPUT'],
      [{ maxRedirects: 'five' }, 'ERR_INPUT'],
      [{ minTtlMs: Number.NaN }, 'ERR_INPUT'],
      [{ maxTtlMs: -5 }, 'ERR_INPUT'],
      [{ unreachableTtlMs: '1' }, 'ERR_INPUT'],
      [{ limit: 10 }, 'ERR_LIMIT'],
      [{ privateAddresses: 'sometimes' }, 'ERR_INPUT'],
      [{ redirectFilter: 'yes' }, 'ERR_INPUT'],
      [{ userAgent: 'bot\r\nx: y' }, 'ERR_INPUT'],
      [{ now: 5 }, 'ERR_INPUT'],
      [{ fetch: 'curl' }, 'ERR_INPUT'],
      [{ transport: {} }, 'ERR_INPUT'],
    ]
    for (const [options, code] of bad) {
      expect(() => new RobotsCache(options as never), JSON.stringify(options)).toThrow(expect.objectContaining({ code }))
    }
    expect(() => new RobotsCache({ timeoutMs: 5, limit: 600_000, privateAddresses: 'allow' })).not.toThrow()
  })

  it('regression: options the object inherits (Object.create(defaults)) were half read: maxBytes was taken, but userAgent, limit, timeoutMs and the other fetch options were dropped in silence (a bad inherited limit was never refused); they are read as fetchRobots reads them', async () => {
    expect(() => new RobotsCache(Object.create({ limit: 10 }))).toThrow(expect.objectContaining({ code: 'ERR_LIMIT' }))
    expect(() => new RobotsCache(Object.create({ timeoutMs: -1 }))).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    const agents: (string | null)[] = []
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      agents.push(new Headers(init?.headers).get('user-agent'))
      return new Response(RULES)
    }
    const defaults = { userAgent: 'InheritedBot/1.0', fetch, maxBytes: 1_000_000 }
    const cache = new RobotsCache(Object.create(defaults, { now: { value: now, enumerable: true } }))
    expect(await cache.isAllowed('https://example.com/private', 'bot')).toBe(false)
    expect(agents).toEqual(['InheritedBot/1.0'])
    expect(cache.stats().maxBytes).toBe(1_000_000)
  })

  it("regression: a `previous` option (typed and documented as one of fetchRobots's) went to every fetch of the cache: another origin's validators sent, its rules served on a 304, a site that allows everything judged disallowed; an aborted `signal` failed every look-up; both are ERR_INPUT now", async () => {
    let asked = 0
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      asked++
      if (new Headers(init?.headers).get('if-none-match') === '"other"') return new Response(null, { status: 304 })
      return new Response('User-agent: *\nAllow: /\n', { status: 200, headers: { etag: '"mine"' } })
    }
    const other = await fetchRobots('https://other.example/', {
      fetch: async () => new Response('User-agent: *\nDisallow: /\n', { status: 200, headers: { etag: '"other"' } }),
    })
    const aborted = new AbortController()
    aborted.abort(new Error('gone'))
    for (const options of [{ previous: other }, { signal: aborted.signal }]) {
      expect(() => new RobotsCache({ fetch, ...options } as never), Object.keys(options)[0]).toThrow(
        expect.objectContaining({ code: 'ERR_INPUT', message: expect.stringMatching(/one fetchRobots call/) }),
      )
    }
    expect(asked).toBe(0)
    // Without them, the site's own answer (and its own validators on a refresh).
    const cache = new RobotsCache({ fetch })
    expect(await cache.isAllowed('https://a.example/x', 'bot')).toBe(true)
    expect(asked).toBe(1)
  })

  it('regression: a `now` that answers a Date (or NaN) made expiresAt a string ("Tue Dec 01 2026 …86400000") or NaN: fetchRobots returned it, RobotsCache served the entry forever; now ERR_INPUT naming now()', async () => {
    let asked = 0
    const fetch = async () => {
      asked++
      return new Response('User-agent: *\nDisallow: /\n', { status: 200 })
    }
    for (const clock of [() => new Date(), () => Number.NaN, () => '1700000000000', () => Infinity, () => -1]) {
      const now = clock as unknown as () => number
      await expect(fetchRobots('https://a.example/', { fetch, now }), String(clock)).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/now\(\)/) })
      await expect(new RobotsCache({ fetch, now }).isAllowed('https://a.example/x', 'bot'), String(clock)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    }
    expect(asked).toBe(0)
    const r = await fetchRobots('https://a.example/', { fetch, now: () => 1_000 })
    expect([r.fetchedAt, r.expiresAt]).toEqual([1_000, 1_000 + 24 * 3600_000])
  })
})
