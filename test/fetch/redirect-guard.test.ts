// Redirects to loopback, private or link-local addresses are followed (SSRF,
// issue 13 #13). A public origin is simulated by an injected fetch that
// answers for it and hands every other URL to the real fetch, so a redirect
// that were followed would reach the local test server, which counts requests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { describeFetchResult, fetchRobots, RobotsCache, type FetchLike } from '../../src/index.js'
import { reply, startServer, type TestServer } from './server.js'

const RULES = 'User-agent: *\nDisallow: /private\n'
const PUBLIC = 'https://public.example'

let local: TestServer
beforeAll(async () => {
  local = await startServer(reply(200, RULES))
})
afterAll(async () => {
  await local.close()
})
beforeEach(() => {
  local.reset()
  local.handler = reply(200, RULES)
})

/** A fetch for which `routes` (exact URL → answer) is a public site; other URLs go to the real network (here: 127.0.0.1). */
function site(routes: Record<string, () => Response>) {
  const calls: string[] = []
  const fetch: FetchLike = async (input, init) => {
    calls.push(input)
    const answer = routes[input]
    return answer ? answer() : globalThis.fetch(input, init)
  }
  return { fetch, calls }
}

const redirect = (location: string, status = 301) => () => new Response(null, { status, headers: { location } })
const ok = (body = RULES) => () => new Response(body, { status: 200 })

describe('redirects to loopback, private or link-local addresses are followed (issue 13 #13)', () => {
  const targets: [string, string, string][] = [
    ['127.0.0.1', 'loopback', 'a loopback host'],
    ['0x7f000001', 'loopback', 'a loopback host'],
    ['127.1', 'loopback', 'a loopback host'],
    ['2130706433', 'loopback', 'a loopback host'],
    ['0177.0.0.1', 'loopback', 'a loopback host'],
    ['localhost', 'loopback', 'a loopback host'],
    ['api.localhost', 'loopback', 'a loopback host'],
    ['[::1]', 'loopback', 'a loopback host'],
    ['[::ffff:127.0.0.1]', 'loopback', 'a loopback host'],
    ['0.0.0.0', 'unspecified', 'an unspecified address'],
    ['10.0.0.1', 'private', 'a private address'],
    ['172.16.5.4', 'private', 'a private address'],
    ['192.168.1.1', 'private', 'a private address'],
    ['[fd00::1]', 'private', 'a private address'],
    ['169.254.169.254', 'link-local', 'a link-local address'],
    ['[fe80::1]', 'link-local', 'a link-local address'],
    ['100.64.0.1', 'shared', 'a shared (CGNAT) address'],
    ['224.0.0.1', 'reserved', 'a reserved address'],
    ['metadata.google.internal', 'local-name', 'a local name'],
    ['metadata', 'local-name', 'a local name'],
  ]

  for (const [host, cls, words] of targets) {
    it(`a public origin's redirect to ${host} is refused (${cls})`, async () => {
      const target = `http://${host}:${local.port}/robots.txt`
      const s = site({ [`${PUBLIC}/robots.txt`]: redirect(target) })
      const r = await fetchRobots(PUBLIC + '/page', { fetch: s.fetch })
      expect(r.outcome).toBe('unavailable')
      expect(r.reason).toBe('redirect-blocked')
      expect(r.status).toBe(301)
      const location = new URL(target).href
      expect(r.redirects).toEqual([{ url: `${PUBLIC}/robots.txt`, status: 301, location, blocked: cls }])
      expect(s.calls).toEqual([`${PUBLIC}/robots.txt`])
      expect(local.requests).toEqual([])
      expect(r.robots.agent('bot').isAllowed('/private')).toBe(true)
      expect(describeFetchResult(r)).toBe(
        `unavailable, allow all: redirect to ${words} refused (${PUBLIC}/robots.txt → ${location})`,
      )
    })
  }

  it('the refused hop may come after public ones', async () => {
    const s = site({
      [`${PUBLIC}/robots.txt`]: redirect('https://cdn.example/robots.txt', 302),
      'https://cdn.example/robots.txt': redirect(`http://127.0.0.1:${local.port}/robots.txt`, 307),
    })
    const r = await fetchRobots(PUBLIC, { fetch: s.fetch })
    expect(r.reason).toBe('redirect-blocked')
    expect(r.redirects.map((h) => [h.status, h.blocked])).toEqual([
      [302, undefined],
      [307, 'loopback'],
    ])
    expect(r.finalUrl).toBe('https://cdn.example/robots.txt')
    expect(local.requests).toEqual([])
  })

  it('public to public is followed', async () => {
    const s = site({ [`${PUBLIC}/robots.txt`]: redirect('https://www.public.example/robots.txt'), 'https://www.public.example/robots.txt': ok() })
    const r = await fetchRobots(PUBLIC, { fetch: s.fetch })
    expect(r.outcome).toBe('ok')
    expect(r.robots.agent('bot').isAllowed('/private')).toBe(false)
  })

  it('allowPrivateRedirects: true follows them', async () => {
    const s = site({ [`${PUBLIC}/robots.txt`]: redirect(`http://localhost:${local.port}/robots.txt`) })
    const r = await fetchRobots(PUBLIC, { fetch: s.fetch, allowPrivateRedirects: true })
    expect(r.outcome).toBe('ok')
    expect(local.requests).toEqual(['/robots.txt'])
    expect(r.robots.agent('bot').isAllowed('/private')).toBe(false)
  })

  it('an origin that is itself not public may redirect within private space', async () => {
    local.handler = (req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(301, { location: `http://127.0.0.1:${local.port}/moved.txt` })
        res.end()
      } else reply(200, RULES)(req, res)
    }
    const r = await fetchRobots(`http://localhost:${local.port}/`)
    expect(r.outcome).toBe('ok')
    expect(local.requests).toEqual(['/robots.txt', '/moved.txt'])
  })

  it('a platform that follows redirects itself (browsers): the private file reached is not used', async () => {
    const fake: FetchLike = async (input, init) => {
      if (init.redirect === 'manual') return { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response
      const res = new Response(RULES, { status: 200 })
      Object.defineProperty(res, 'redirected', { value: true })
      Object.defineProperty(res, 'url', { value: 'http://169.254.169.254/latest/meta-data' })
      expect(input).toBe(`${PUBLIC}/robots.txt`)
      return res
    }
    const r = await fetchRobots(PUBLIC, { fetch: fake })
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('redirect-blocked')
    expect(r.redirects).toEqual([
      { url: `${PUBLIC}/robots.txt`, status: 0, location: 'http://169.254.169.254/latest/meta-data', blocked: 'link-local' },
    ])
  })
})

describe('redirectFilter', () => {
  it('false refuses a public target; it gets a copy of the URL', async () => {
    const seen: string[] = []
    const s = site({ [`${PUBLIC}/robots.txt`]: redirect('https://evil.example/robots.txt') })
    const r = await fetchRobots(PUBLIC, {
      fetch: s.fetch,
      redirectFilter: (url) => {
        seen.push(url.href)
        url.hostname = 'changed.example'
        return false
      },
    })
    expect(r.reason).toBe('redirect-blocked')
    expect(r.redirects[0]).toMatchObject({ location: 'https://evil.example/robots.txt', blocked: 'filter' })
    expect(seen).toEqual(['https://evil.example/robots.txt'])
    expect(s.calls).toEqual([`${PUBLIC}/robots.txt`])
    expect(describeFetchResult(r)).toMatch(/redirect refused by redirectFilter/)
  })

  it('an async true follows; only true does', async () => {
    const routes = { [`${PUBLIC}/robots.txt`]: redirect('https://b.example/robots.txt'), 'https://b.example/robots.txt': ok() }
    let r = await fetchRobots(PUBLIC, { fetch: site(routes).fetch, redirectFilter: async () => true })
    expect(r.outcome).toBe('ok')
    r = await fetchRobots(PUBLIC, { fetch: site(routes).fetch, redirectFilter: (() => 'yes') as unknown as () => boolean })
    expect(r.reason).toBe('redirect-blocked')
  })

  it('is not asked when the address check refuses; with allowPrivateRedirects it decides alone', async () => {
    let asked = 0
    const filter = () => {
      asked++
      return false
    }
    const routes = { [`${PUBLIC}/robots.txt`]: redirect(`http://127.0.0.1:${local.port}/robots.txt`) }
    let r = await fetchRobots(PUBLIC, { fetch: site(routes).fetch, redirectFilter: filter })
    expect(r.redirects[0]?.blocked).toBe('loopback')
    expect(asked).toBe(0)
    r = await fetchRobots(PUBLIC, { fetch: site(routes).fetch, redirectFilter: filter, allowPrivateRedirects: true })
    expect(r.redirects[0]?.blocked).toBe('filter')
    expect(asked).toBe(1)
    r = await fetchRobots(PUBLIC, { fetch: site(routes).fetch, redirectFilter: () => true, allowPrivateRedirects: true })
    expect(r.outcome).toBe('ok')
  })

  it('its exception rejects fetchRobots; a filter that hangs meets the deadline', async () => {
    const routes = { [`${PUBLIC}/robots.txt`]: redirect('https://b.example/robots.txt') }
    const boom = new Error('resolver failed')
    await expect(
      fetchRobots(PUBLIC, {
        fetch: site(routes).fetch,
        redirectFilter: () => {
          throw boom
        },
      }),
    ).rejects.toBe(boom)
    const r = await fetchRobots(PUBLIC, {
      fetch: site(routes).fetch,
      timeoutMs: 100,
      redirectFilter: () => new Promise<boolean>(() => {}),
    })
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('timeout')
  })

  it('bad option types are a RobotsInputError before any request', async () => {
    const s = site({})
    await expect(fetchRobots(PUBLIC, { fetch: s.fetch, allowPrivateRedirects: 'yes' as unknown as boolean })).rejects.toMatchObject({
      code: 'ERR_INPUT',
    })
    await expect(fetchRobots(PUBLIC, { fetch: s.fetch, redirectFilter: 42 as unknown as () => boolean })).rejects.toMatchObject({
      code: 'ERR_INPUT',
    })
    expect(s.calls).toEqual([])
  })

  it('RobotsCache passes the redirect options through', async () => {
    const routes = { [`${PUBLIC}/robots.txt`]: redirect(`http://10.0.0.1/robots.txt`) }
    const cache = new RobotsCache({ fetch: site(routes).fetch })
    const lookup = await cache.lookup(PUBLIC + '/x')
    expect(lookup.result.reason).toBe('redirect-blocked')
    expect(await cache.isAllowed(PUBLIC + '/private', 'bot')).toBe(true)
    const filtered = new RobotsCache({ fetch: site(routes).fetch, allowPrivateRedirects: true, redirectFilter: () => false })
    expect((await filtered.lookup(PUBLIC)).result.redirects[0]?.blocked).toBe('filter')
  })
})
