/**
 * The library's address policy (`fetchRobots`'s `privateAddresses`), with
 * the Web fetch transport (hosts checked as written): `refuse` for URLs from
 * untrusted input, the default `origin` (a non-public origin the caller
 * names is its choice), `allow`; a refused origin is the outcome `refused`
 * (disallow all, nothing sent), never `unreachable`. Servers on 127.0.0.1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { describeFetchResult, fetchRobots, RobotsCache } from '../../src/index.js'
import { reply, startServer, type TestServer } from './server.js'

let a: TestServer
beforeAll(async () => {
  a = await startServer(reply(200, 'User-agent: *\nDisallow: /private\n'))
})
afterAll(() => a.close())
beforeEach(() => a.reset())

describe('privateAddresses', () => {
  it("'refuse': a loopback origin is refused before anything is sent; its own outcome, disallow all", async () => {
    const r = await fetchRobots(a.origin, { privateAddresses: 'refuse', unreachableTtlMs: 5000, now: () => 1000 })
    expect(a.requests).toEqual([])
    expect(r.outcome).toBe('refused')
    expect(r.reason).toBe('address-refused')
    expect(r.error).toMatchObject({ phase: 'request', kind: 'address', code: 'loopback' })
    expect(r.robots.agent('bot').isAllowed('/public')).toBe(false)
    expect(r.expiresAt).toBe(1000 + 60_000)
    expect(describeFetchResult(r)).toMatch(/^refused, disallow all: not fetched: 127\.0\.0\.1 is a loopback host/)
    for (const url of ['http://localhost:1/', 'http://10.0.0.1/', 'http://[::1]:1/', 'http://169.254.169.254/', 'http://intranet/', 'http://printer.local/']) {
      expect((await fetchRobots(url, { privateAddresses: 'refuse' })).outcome, url).toBe('refused')
    }
  })

  it("the default ('origin'): the caller's own non-public origin is fetched, and may redirect within private space", async () => {
    expect((await fetchRobots(a.origin)).outcome).toBe('ok')
    a.handler = (req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(301, { location: `http://localhost:${a.port}/moved` })
        return res.end()
      }
      res.writeHead(200)
      res.end('User-agent: *\nDisallow: /\n')
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(r.redirects).toHaveLength(1)
  })

  it("a public origin's redirect to a non-public host is refused unless 'allow' (or allowPrivateRedirects: true)", async () => {
    const redirecting = async (url: string) =>
      url.startsWith('http://public.example')
        ? new Response(null, { status: 301, headers: { location: `${a.origin}/robots.txt` } })
        : fetch(url)
    for (const options of [{}, { privateAddresses: 'refuse' as const }]) {
      const r = await fetchRobots('http://public.example/', { fetch: redirecting, ...options })
      expect(r.outcome).toBe('unavailable')
      expect(r.reason).toBe('redirect-blocked')
      expect(r.redirects[0]?.blocked).toBe('loopback')
    }
    expect((await fetchRobots('http://public.example/', { fetch: redirecting, privateAddresses: 'allow' })).outcome).toBe('ok')
    expect((await fetchRobots('http://public.example/', { fetch: redirecting, allowPrivateRedirects: true })).outcome).toBe('ok')
  })

  it('a bad value, or a fetch and a transport together, is ERR_INPUT before any request', async () => {
    await expect(fetchRobots(a.origin, { privateAddresses: 'never' as never })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(fetchRobots(a.origin, { transport: {} as never })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(fetchRobots(a.origin, { fetch, transport: { request: () => Promise.reject(new Error('no')) } })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    expect(a.requests).toEqual([])
  })

  it('RobotsCache: a refused origin answers disallow-all, and is asked again soon, not kept a day', async () => {
    let now = 0
    const cache = new RobotsCache({ privateAddresses: 'refuse', now: () => now })
    const lookup = await cache.lookup(`${a.origin}/x`)
    expect(lookup.result.outcome).toBe('refused')
    expect(await cache.isAllowed(`${a.origin}/public`, 'bot')).toBe(false)
    now = 11 * 60_000
    await cache.lookup(`${a.origin}/x`)
    expect(cache.stats().fetches).toBe(2)
    expect(a.requests).toEqual([])
  })
})
