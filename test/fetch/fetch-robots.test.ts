// fetchRobots against real HTTP servers on 127.0.0.1 (random ports), one per
// outcome branch of RFC 9309 §2.3.1, through each transport: the Web fetch
// (the default) and the Node transport (robots-automaton/node). No other
// address is ever contacted.
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fetchRobots as fetchWith, MAX_TIMEOUT_MS, RobotsCache } from '../../src/index.js'
import { createNodeTransport } from '../../src/node.js'
import { describeFetchResult } from '../../src/fetch/describe.js'
import { closedPort, reply, startServer, type Handler, type TestServer } from './server.js'

const RULES = 'User-agent: *\nDisallow: /private\n'
const DAY = 86_400_000

let a: TestServer
let b: TestServer

beforeAll(async () => {
  a = await startServer()
  b = await startServer()
})
afterAll(async () => {
  await a.close()
  await b.close()
})
beforeEach(() => {
  a.reset()
  b.reset()
})

/** Lets `n` turns of the event loop pass (I/O included), so that anything already due can happen. */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

const allowed = (r: { robots: { agent(t: string): { isAllowed(u: string): boolean } } }, url: string) =>
  r.robots.agent('testbot').isAllowed(url)

/** The transports every outcome is checked through. */
const TRANSPORTS = ['web fetch', 'node transport'] as const
let transportName: (typeof TRANSPORTS)[number] = 'web fetch'
const node = createNodeTransport({ perAddress: 64 })
/** fetchRobots through the transport of the suite running (a test that injects a `fetch` keeps it). */
const fetchRobots: typeof fetchWith = (url, options = {}) =>
  transportName === 'node transport' && options.fetch === undefined && options.transport === undefined
    ? fetchWith(url, { ...options, transport: node })
    : fetchWith(url, options)

describe.each(TRANSPORTS)('%s', (name) => {
beforeAll(() => {
  transportName = name
})

describe('2xx: ok', () => {
  it('parses a plain 200 body and records the fetch', async () => {
    a.handler = reply(200, RULES)
    const r = await fetchRobots(a.origin + '/some/page?q=1#frag', { userAgent: 'testbot/1.0', now: () => 1000 })
    expect(r.outcome).toBe('ok')
    expect(r.reason).toBe('success')
    expect(r.status).toBe(200)
    expect(r.origin).toBe(a.origin)
    expect(r.url).toBe(a.origin + '/robots.txt')
    expect(r.finalUrl).toBe(a.origin + '/robots.txt')
    expect(r.redirects).toEqual([])
    expect(r.fetchedAt).toBe(1000)
    expect(r.expiresAt).toBe(1000 + DAY)
    expect(r.headers?.['content-type']).toBe('text/plain')
    expect(a.requests).toEqual(['/robots.txt'])
    expect(a.headers[0]!['user-agent']).toBe('testbot/1.0')
    expect(allowed(r, a.origin + '/private/x')).toBe(false)
    expect(allowed(r, a.origin + '/public')).toBe(true)
    expect(describeFetchResult(r)).toMatch(/^ok: HTTP 200/)
  })

  it('accepts a URL object and a bare origin', async () => {
    a.handler = reply(200, RULES)
    expect((await fetchRobots(new URL(a.origin + '/x/y'))).outcome).toBe('ok')
    expect((await fetchRobots(a.origin)).outcome).toBe('ok')
    expect(a.requests).toEqual(['/robots.txt', '/robots.txt'])
  })

  it('decodes gzip', async () => {
    a.handler = reply(200, gzipSync(RULES), { 'content-encoding': 'gzip' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(r.headers?.['content-encoding']).toBe('gzip')
    expect(allowed(r, '/private')).toBe(false)
  })

  it('decodes br', async () => {
    a.handler = reply(200, brotliCompressSync(RULES), { 'content-encoding': 'br' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(allowed(r, '/private')).toBe(false)
  })

  it('skips a UTF-8 BOM', async () => {
    a.handler = reply(200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(RULES)]))
    const r = await fetchRobots(a.origin)
    expect(allowed(r, '/private')).toBe(false)
    expect(allowed(r, '/other')).toBe(true)
  })

  it('keeps non-UTF-8 bytes as bytes (percent-encoded in patterns)', async () => {
    // Latin-1 "café" (0xE9) in a pattern, plus a stray 0xFF in a comment.
    const body = Buffer.concat([
      Buffer.from('# \xff\nUser-agent: *\nDisallow: /caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('\n'),
    ])
    a.handler = reply(200, body, { 'content-type': 'text/plain; charset=iso-8859-1' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(allowed(r, '/caf%E9')).toBe(false)
    expect(allowed(r, '/cafe')).toBe(true)
  })

  it('parses a body served as text/html', async () => {
    a.handler = reply(200, RULES, { 'content-type': 'text/html; charset=utf-8' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(allowed(r, '/private')).toBe(false)
  })

  it('204: ok with no rules', async () => {
    a.handler = (_req, res) => {
      res.writeHead(204)
      res.end()
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(r.status).toBe(204)
    expect(allowed(r, '/private')).toBe(true)
  })

  it('uses Cache-Control max-age (minus Age) for expiresAt, within [minTtl, 24 h]', async () => {
    a.handler = reply(200, RULES, { 'cache-control': 'public, max-age=3600', age: '600' })
    let r = await fetchRobots(a.origin, { now: () => 0 })
    expect(r.expiresAt).toBe(3_000_000)
    a.handler = reply(200, RULES, { 'cache-control': 'max-age=31536000' })
    r = await fetchRobots(a.origin, { now: () => 0 })
    expect(r.expiresAt).toBe(DAY)
    a.handler = reply(200, RULES, { 'cache-control': 'no-cache' })
    r = await fetchRobots(a.origin, { now: () => 0 })
    expect(r.expiresAt).toBe(60_000)
    r = await fetchRobots(a.origin, { now: () => 0, minTtlMs: 0 })
    expect(r.expiresAt).toBe(0)
  })

  it('stops reading a 50 MB body at the limit and closes the connection', async () => {
    const TOTAL = 50 * 1024 * 1024
    const line = Buffer.from('Disallow: /' + 'x'.repeat(52) + '\n') // 64 bytes
    const chunk = Buffer.concat([Buffer.from('User-agent: *\n'.padEnd(64, '#')), ...Array(1023).fill(line)])
    let sent = 0
    let closed!: () => void
    const done = new Promise<void>((resolve) => (closed = resolve))
    a.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(TOTAL) })
      res.on('close', () => closed())
      const pump = () => {
        while (sent < TOTAL && !res.destroyed) {
          const n = Math.min(chunk.length, TOTAL - sent)
          sent += n
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump)
        }
        if (sent >= TOTAL) res.end()
      }
      pump()
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(r.robots.truncated).toBe(true)
    expect(r.robots.bytesRead).toBeLessThanOrEqual(512_000)
    await done
    // What was sent is at most the limit plus what the socket buffers held (a few MB on loopback).
    expect(sent).toBeLessThan(16 * 1024 * 1024)
  })
})

describe('redirects', () => {
  const chain = (status: number, hops: number, target = RULES) => {
    a.handler = (req, res) => {
      const n = req.url === '/robots.txt' ? 0 : Number(req.url!.slice(2))
      if (n < hops) {
        res.writeHead(status, { location: `/r${n + 1}` })
        res.end()
      } else reply(200, target)(req, res)
    }
  }

  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status}: follows a chain of 5`, async () => {
      chain(status, 5)
      const r = await fetchRobots(a.origin)
      expect(r.outcome).toBe('ok')
      expect(r.redirects.map((h) => h.status)).toEqual([status, status, status, status, status])
      expect(r.redirects[0]).toEqual({ url: a.origin + '/robots.txt', status, location: a.origin + '/r1' })
      expect(r.finalUrl).toBe(a.origin + '/r5')
      expect(allowed(r, a.origin + '/private')).toBe(false)
    })

    it(`${status}: a chain of 6 is unavailable`, async () => {
      chain(status, 6)
      const r = await fetchRobots(a.origin)
      expect(r.outcome).toBe('unavailable')
      expect(r.reason).toBe('too-many-redirects')
      expect(r.redirects).toHaveLength(6)
      expect(a.requests).not.toContain('/r6')
      expect(allowed(r, a.origin + '/private')).toBe(true)
      expect(describeFetchResult(r)).toMatch(/more than 5 redirects/)
    })
  }

  it('maxRedirects is configurable', async () => {
    chain(301, 2)
    expect((await fetchRobots(a.origin, { maxRedirects: 1 })).reason).toBe('too-many-redirects')
    expect((await fetchRobots(a.origin, { maxRedirects: 2 })).outcome).toBe('ok')
  })

  it('applies the rules of another authority to the first origin', async () => {
    b.handler = reply(200, 'User-agent: *\nDisallow: /only-b\n')
    a.handler = reply(301, '', { location: b.origin + '/robots.txt' })
    const r = await fetchRobots(a.origin + '/page')
    expect(r.outcome).toBe('ok')
    expect(r.origin).toBe(a.origin)
    expect(r.finalUrl).toBe(b.origin + '/robots.txt')
    expect(r.redirects).toEqual([{ url: a.origin + '/robots.txt', status: 301, location: b.origin + '/robots.txt' }])
    expect(b.requests).toEqual(['/robots.txt'])
    expect(allowed(r, a.origin + '/only-b')).toBe(false)
  })

  it('a loop is unavailable', async () => {
    a.handler = (req, res) => {
      res.writeHead(302, { location: req.url === '/robots.txt' ? '/other' : '/robots.txt' })
      res.end()
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('redirect-loop')
    expect(a.requests).toEqual(['/robots.txt', '/other'])
  })

  it('resolves a relative Location', async () => {
    a.handler = (req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(301, { location: 'moved/robots.txt?v=2' })
        res.end()
      } else reply(200, RULES)(req, res)
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('ok')
    expect(r.finalUrl).toBe(a.origin + '/moved/robots.txt?v=2')
    expect(a.requests).toEqual(['/robots.txt', '/moved/robots.txt?v=2'])
  })

  it('a redirect without Location is unavailable', async () => {
    a.handler = reply(301)
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('redirect-without-location')
    expect(r.status).toBe(301)
  })

  it('a Location that is not http(s) is unavailable', async () => {
    a.handler = reply(302, '', { location: 'ftp://127.0.0.1/robots.txt' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('redirect-invalid-location')
  })
})

describe('4xx: unavailable, allow all', () => {
  for (const status of [400, 401, 403, 404, 410]) {
    it(`status ${status} is unavailable: every URL allowed`, async () => {
      a.handler = reply(status, 'User-agent: *\nDisallow: /\n')
      const r = await fetchRobots(a.origin, { now: () => 0 })
      expect(r.outcome).toBe('unavailable')
      expect(r.reason).toBe('client-error')
      expect(r.status).toBe(status)
      expect(r.expiresAt).toBe(DAY)
      expect(allowed(r, a.origin + '/anything')).toBe(true)
    })
  }

  it('other 3xx statuses are unavailable', async () => {
    a.handler = reply(300, '', { location: '/x' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('unexpected-status')
  })
})

describe('unreachable, disallow all', () => {
  it('429 is unreachable and honours Retry-After', async () => {
    a.handler = reply(429, '', { 'retry-after': '120' })
    const r = await fetchRobots(a.origin, { now: () => 0 })
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('rate-limited')
    expect(r.status).toBe(429)
    expect(r.expiresAt).toBe(120_000)
    expect(allowed(r, a.origin + '/')).toBe(false)
  })

  for (const status of [500, 502, 503]) {
    it(`status ${status} is unreachable: every URL disallowed`, async () => {
      a.handler = reply(status, 'User-agent: *\nAllow: /\n')
      const r = await fetchRobots(a.origin, { now: () => 0 })
      expect(r.outcome).toBe('unreachable')
      expect(r.reason).toBe('server-error')
      expect(r.status).toBe(status)
      expect(r.expiresAt).toBe(600_000)
      expect(allowed(r, a.origin + '/x')).toBe(false)
    })
  }

  it('a 5xx after a redirect to another authority', async () => {
    b.handler = reply(503)
    a.handler = reply(307, '', { location: b.origin + '/robots.txt' })
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unreachable')
    expect(r.finalUrl).toBe(b.origin + '/robots.txt')
    expect(r.origin).toBe(a.origin)
  })

  it('connection refused', async () => {
    const port = await closedPort()
    const r = await fetchRobots(`http://127.0.0.1:${port}/`)
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('network-error')
    expect(r.status).toBeUndefined()
    expect(r.error).toMatchObject({ phase: 'request', kind: 'connection', code: 'ECONNREFUSED' })
    expect(describeFetchResult(r)).toMatch(/ECONNREFUSED/)
  })

  it('a TLS failure (https to a plain HTTP server)', async () => {
    a.handler = reply(200, RULES)
    const r = await fetchRobots(`https://127.0.0.1:${a.port}/`, { timeoutMs: 2000 })
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('network-error')
    expect(r.error?.kind).toBe('tls')
  })

  it('a connection reset mid-body', async () => {
    a.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' })
      // The reset waits long enough for a busy client to have read the head: a reset that comes before
      // the client reads discards what it had received (Linux), and the fetch fails in its head instead.
      res.write(RULES + '#'.repeat(1000) + '\n', () => {
        setTimeout(() => res.socket?.resetAndDestroy(), 1000)
      })
    }
    const r = await fetchRobots(a.origin)
    expect(r.outcome).toBe('unreachable')
    expect(r.reason).toBe('network-error')
    expect(r.status).toBe(200)
    expect(r.error).toMatchObject({ phase: 'body', kind: 'connection', code: 'ECONNRESET' })
    expect(allowed(r, a.origin + '/public')).toBe(false)
  })

  it('a server that never answers times out, at the deadline and not before', async () => {
    let arrived!: () => void
    const asked = new Promise<void>((resolve) => (arrived = resolve))
    a.handler = () => arrived() // accept, never respond
    // The deadline's timer is the test's to move: the outcome does not depend on how busy the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let settled = false
      const pending = fetchRobots(a.origin, { timeoutMs: 300 }).finally(() => (settled = true))
      await asked
      vi.advanceTimersByTime(299)
      await turns(20)
      expect(settled, 'settled before the deadline').toBe(false)
      vi.advanceTimersByTime(1)
      const r = await pending
      expect(r.outcome).toBe('unreachable')
      expect(r.reason).toBe('timeout')
      expect(r.error).toMatchObject({ phase: 'request', kind: 'timeout' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('a server that drips one byte per 10 ms times out (the deadline covers the body), and the connection is closed', async () => {
    let closed!: (byServer: boolean) => void
    const done = new Promise<boolean>((resolve) => (closed = resolve))
    let dripping!: () => void
    const bodyStarted = new Promise<void>((resolve) => (dripping = resolve))
    let dripped = 0
    a.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.flushHeaders()
      const body = Buffer.from(RULES.repeat(10))
      // A real interval (only the deadline's timers are faked): the body would end by itself after 1,000 bytes.
      const timer = setInterval(() => {
        if (res.destroyed || dripped >= 1000) {
          clearInterval(timer)
          if (!res.destroyed) res.end()
          return
        }
        res.write(body.subarray(dripped % body.length, (dripped % body.length) + 1))
        if (++dripped === 3) dripping()
      }, 10)
      res.on('close', () => {
        clearInterval(timer)
        closed(res.writableEnded)
      })
    }
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let settled = false
      const pending = fetchRobots(a.origin, { timeoutMs: 500 }).finally(() => (settled = true))
      // Headers in, the body coming: the deadline has not moved yet, however long that took.
      await bodyStarted
      vi.advanceTimersByTime(499)
      await turns(20)
      expect(settled, 'settled before the deadline').toBe(false)
      vi.advanceTimersByTime(1)
      const r = await pending
      expect(r.outcome).toBe('unreachable')
      expect(r.reason).toBe('timeout')
      expect(r.status).toBe(200)
      expect(r.error?.phase).toBe('body')
    } finally {
      vi.useRealTimers()
    }
    // The client closed the connection: the server had not ended the body.
    expect(await done, 'the body ran to its end').toBe(false)
    expect(dripped).toBeLessThan(1000)
  })

  it('classifies DNS errors reported by the platform', async () => {
    const dnsFail = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND' }) })
    }
    const r = await fetchRobots('http://x.invalid/', { fetch: dnsFail })
    expect(r.outcome).toBe('unreachable')
    expect(r.error).toMatchObject({ kind: 'dns', code: 'ENOTFOUND', phase: 'request' })
    expect(r.error?.message).toBe('fetch failed: getaddrinfo ENOTFOUND x.invalid')
  })

  it('the deadline holds even when the injected fetch ignores its signal', async () => {
    const hang = () => new Promise<Response>(() => {})
    const r = await fetchRobots('http://127.0.0.1:9/', { fetch: hang, timeoutMs: 100 })
    expect(r.reason).toBe('timeout')
  })
})

describe('errors', () => {
  it('rejects non-http(s) and relative URLs with ERR_INPUT', async () => {
    await expect(fetchRobots('ftp://127.0.0.1/')).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(fetchRobots('/robots.txt')).rejects.toMatchObject({ code: 'ERR_INPUT' })
  })

  it("regression: a URL whose host the URL parser refuses is ERR_INPUT saying why (it said 'not an absolute URL')", async () => {
    await expect(fetchRobots('http://xn--a.com/')).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/the host "xn--a\.com" is refused: it is not a valid international domain name/) })
    await expect(fetchRobots('https://[fe80::1%25eth0]/x')).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/not a valid IPv6 address/) })
    await expect(fetchRobots('http://example.com:65536/')).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/its port is not a number from 0 to 65535/) })
    await expect(fetchRobots('example.com')).rejects.toMatchObject({ code: 'ERR_INPUT', message: 'not an absolute URL: "example.com"' })
  })

  it('rejects a limit below 500 KiB before any request', async () => {
    a.handler = reply(200, RULES)
    await expect(fetchRobots(a.origin, { limit: 1000 })).rejects.toMatchObject({ code: 'ERR_LIMIT' })
    expect(a.requests).toEqual([])
  })

  it('a caller abort rejects with the signal reason (it is not an outcome)', async () => {
    a.handler = () => {}
    const ac = new AbortController()
    const reason = new Error('stop')
    setTimeout(() => ac.abort(reason), 50)
    await expect(fetchRobots(a.origin, { signal: ac.signal, timeoutMs: 5000 })).rejects.toBe(reason)
  })
})

describe('timeoutMs above 2^31-1 fires after 1 ms (issue 13 #8)', () => {
  const slow = () => {
    a.handler = (req, res) => setTimeout(() => reply(200, RULES)(req, res), 100)
  }

  for (const timeoutMs of [2 ** 31, 2 ** 32 + 5, 1e12, Number.MAX_VALUE, MAX_TIMEOUT_MS]) {
    it(`${timeoutMs} is clamped to ${MAX_TIMEOUT_MS}: a 100 ms answer is ok`, async () => {
      slow()
      const r = await fetchRobots(a.origin, { timeoutMs })
      expect(r.outcome).toBe('ok')
      expect(allowed(r, '/private')).toBe(false)
    })
  }

  it('Infinity, negative, NaN and non-numbers are a RobotsInputError before any request', async () => {
    slow()
    for (const timeoutMs of [Infinity, -Infinity, -1, NaN, '1000', null, {}]) {
      await expect(fetchRobots(a.origin, { timeoutMs: timeoutMs as number }), String(timeoutMs)).rejects.toMatchObject({
        name: 'RobotsInputError',
        code: 'ERR_INPUT',
      })
    }
    expect(a.requests).toEqual([])
  })

  it('regression: a userAgent that cannot be a header value is ERR_INPUT before any request (it failed on this side and was the site\'s unreachable outcome)', async () => {
    for (const userAgent of ['bot\r\nX-Injected: 1', 'bot\n', 'bot\u0000', 'bot\u007f', 'bot/\u4f8b']) {
      await expect(fetchRobots(a.origin, { userAgent }), JSON.stringify(userAgent)).rejects.toMatchObject({ name: 'RobotsInputError', code: 'ERR_INPUT' })
    }
    expect(a.requests).toEqual([])
    // Tabs and Latin-1 chars are header values: sent.
    a.handler = reply(200, RULES)
    expect((await fetchRobots(a.origin, { userAgent: 'bot/1.0\t(caf\u00e9)' })).outcome).toBe('ok')
  })

  it('regression: a userAgent of more than 1,024 chars is ERR_INPUT before any request (the server\'s 431 was the site\'s unavailable outcome: allow all)', async () => {
    await expect(fetchRobots(a.origin, { userAgent: 'b'.repeat(1025) })).rejects.toMatchObject({ name: 'RobotsInputError', code: 'ERR_INPUT', message: expect.stringContaining('at most 1,024 chars') })
    await expect(fetchRobots(a.origin, { userAgent: 'b'.repeat(1 << 20) })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    expect(() => new RobotsCache({ userAgent: 'b'.repeat(1025) })).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    expect(a.requests).toEqual([])
    a.handler = reply(200, RULES)
    expect((await fetchRobots(a.origin, { userAgent: 'b'.repeat(1024) })).outcome).toBe('ok')
  })

  it('0 and fractions are accepted', async () => {
    slow()
    expect((await fetchRobots(a.origin, { timeoutMs: 0 })).reason).toBe('timeout')
    expect((await fetchRobots(a.origin, { timeoutMs: 5000.5 })).outcome).toBe('ok')
  })
})

describe('the deadline and the signal of the caller reach the body (issue 13 #6)', () => {
  it('a caller abort while the body stalls rejects with the reason and closes the connection', async () => {
    let closed!: () => void
    const done = new Promise<void>((resolve) => (closed = resolve))
    a.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('User-agent: *\n')
      res.on('close', () => closed())
    }
    const ac = new AbortController()
    const reason = new Error('caller gave up')
    setTimeout(() => ac.abort(reason), 100)
    await expect(fetchRobots(a.origin, { signal: ac.signal, timeoutMs: 10_000 })).rejects.toBe(reason)
    await done
  })
})

describe('platforms that hide manual redirects (browsers)', () => {
  it('falls back to redirect: follow and records the hop', async () => {
    const modes: string[] = []
    const fake = async (input: string, init: RequestInit): Promise<Response> => {
      modes.push(String(init.redirect))
      if (init.redirect === 'manual') return { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response
      const res = new Response(RULES, { status: 200 })
      Object.defineProperty(res, 'redirected', { value: true })
      Object.defineProperty(res, 'url', { value: 'http://127.0.0.1:1/elsewhere.txt' })
      expect(input).toBe('http://127.0.0.1:1/robots.txt')
      return res
    }
    const r = await fetchRobots('http://127.0.0.1:1/', { fetch: fake })
    expect(modes).toEqual(['manual', 'follow'])
    expect(r.outcome).toBe('ok')
    expect(r.finalUrl).toBe('http://127.0.0.1:1/elsewhere.txt')
    expect(r.redirects).toEqual([{ url: 'http://127.0.0.1:1/robots.txt', status: 0, location: 'http://127.0.0.1:1/elsewhere.txt' }])
    expect(allowed(r, '/private')).toBe(false)
  })
})

describe('conditional refresh (previous: validators sent, 304 keeps the rules)', () => {
  /** Answers 304 when the request carries a matching validator, else 200 with RULES, an ETag and a Last-Modified. */
  const conditional = (etag: string, lastModified: string, extra: Record<string, string> = {}) =>
    ((req, res) => {
      if (req.headers['if-none-match'] === etag || req.headers['if-modified-since'] === lastModified) {
        res.writeHead(304, { etag, ...extra })
        res.end()
        return
      }
      res.writeHead(200, { 'content-type': 'text/plain', etag, 'last-modified': lastModified, ...extra })
      res.end(RULES)
    }) as Handler
  const LM = 'Tue, 01 Dec 2026 10:00:00 GMT'

  it('keeps the validators of an ok answer and sends them back; a 304 is not-modified with the previous rules', async () => {
    a.handler = conditional('"v1"', LM)
    const first = await fetchRobots(a.origin, { now: () => 1000 })
    expect(first.outcome).toBe('ok')
    expect(first.validators).toEqual({ etag: '"v1"', lastModified: LM })
    expect(a.headers[0]!['if-none-match']).toBeUndefined()
    const second = await fetchRobots(a.origin, { previous: first, now: () => 5000 })
    expect(a.headers[1]!['if-none-match']).toBe('"v1"')
    expect(a.headers[1]!['if-modified-since']).toBe(LM)
    expect(second.outcome).toBe('not-modified')
    expect(second.reason).toBe('not-modified')
    expect(second.status).toBe(304)
    expect(second.robots).toBe(first.robots)
    expect(second.validators).toEqual({ etag: '"v1"', lastModified: LM })
    expect(second.fetchedAt).toBe(5000)
    expect(second.expiresAt).toBe(5000 + DAY)
    expect(allowed(second, '/private/x')).toBe(false)
    expect(describeFetchResult(second)).toMatch(/^not modified, rules kept: HTTP 304 from /)
  })

  it('a 304 takes its expiry from its own Cache-Control, else from the previous headers', async () => {
    a.handler = conditional('"v1"', LM, { 'cache-control': 'max-age=600' })
    const first = await fetchRobots(a.origin, { now: () => 0 })
    expect(first.expiresAt).toBe(600_000)
    const own = await fetchRobots(a.origin, { previous: first, now: () => 1_000_000 })
    expect(own.expiresAt).toBe(1_000_000 + 600_000)
    // The 304 says nothing about freshness: the stored Cache-Control applies (RFC 9111 §4.3.4).
    a.handler = (_req, res) => {
      res.writeHead(304)
      res.end()
    }
    const inherited = await fetchRobots(a.origin, { previous: first, now: () => 2_000_000 })
    expect(inherited.outcome).toBe('not-modified')
    expect(inherited.expiresAt).toBe(2_000_000 + 600_000)
    expect(inherited.validators).toEqual({ etag: '"v1"', lastModified: LM })
  })

  it('regression: a second 304 in a row lost the stored Cache-Control and kept the rules 24 h', async () => {
    a.handler = conditional('"v1"', LM, { 'cache-control': 'max-age=600', age: '100' })
    let r = await fetchRobots(a.origin, { now: () => 0 })
    expect(r.expiresAt).toBe(500_000)
    a.handler = (_req, res) => {
      res.writeHead(304, { etag: '"v1"' })
      res.end()
    }
    for (let i = 1; i <= 3; i++) {
      r = await fetchRobots(a.origin, { previous: r, now: () => i * 1_000_000 })
      expect(r.outcome).toBe('not-modified')
      // The stored fields stand, updated by the 304's; the stored Age is not this answer's.
      expect(r.expiresAt, `refresh ${i}`).toBe(i * 1_000_000 + 600_000)
      expect(r.headers).toMatchObject({ 'cache-control': 'max-age=600', etag: '"v1"' })
      expect(r.headers!['age']).toBeUndefined()
    }
  })

  it('a changed file answers 200: ok with the new rules and validators', async () => {
    a.handler = conditional('"v1"', LM)
    const first = await fetchRobots(a.origin)
    a.handler = reply(200, 'User-agent: *\nDisallow: /\n', { etag: '"v2"' })
    const second = await fetchRobots(a.origin, { previous: first })
    expect(second.outcome).toBe('ok')
    expect(second.validators).toEqual({ etag: '"v2"' })
    expect(allowed(second, '/public')).toBe(false)
  })

  it('sends nothing without validators, or after an outcome that had no representation', async () => {
    a.handler = reply(304)
    b.handler = reply(200, RULES)
    const held = (await fetchRobots(b.origin)).robots
    await fetchRobots(a.origin, { previous: { robots: held } })
    expect(a.headers[0]!['if-none-match']).toBeUndefined()
    expect(a.headers[0]!['if-modified-since']).toBeUndefined()
    await fetchRobots(a.origin, { previous: { robots: held, outcome: 'unavailable', validators: { etag: '"x"' } } })
    expect(a.headers[1]!['if-none-match']).toBeUndefined()
  })

  // A 304 to a refresh sent without validators turned rules into allow-all (entries packed from files have none).
  it('a 304 to a request without validators keeps the previous rules, records the anomaly, and is never allow-all', async () => {
    a.handler = reply(304)
    b.handler = reply(200, RULES)
    const held = (await fetchRobots(b.origin)).robots
    const kept = await fetchRobots(a.origin, { previous: { robots: held }, unreachableTtlMs: 120_000, now: () => 1_000_000 })
    expect(kept.outcome).toBe('not-modified')
    expect(kept.reason).toBe('unexpected-not-modified')
    expect(kept.robots).toBe(held)
    expect(allowed(kept, '/private')).toBe(false)
    // Asked again soon: the answer said nothing about the file.
    expect(kept.expiresAt).toBe(1_000_000 + 120_000)
    expect(kept.validators).toBeUndefined()
    expect(describeFetchResult(kept)).toMatch(/304 .* to a request that carried no validators/)
    // With nothing held: unreachable (disallow all), never allow-all.
    const none = await fetchRobots(a.origin)
    expect(none.outcome).toBe('unreachable')
    expect(none.reason).toBe('unexpected-not-modified')
    expect(allowed(none, '/public')).toBe(false)
  })

  it('a 304 after a redirect keeps the rules; validators go on every hop', async () => {
    a.handler = reply(301, '', { location: b.origin + '/robots.txt' })
    b.handler = conditional('"v1"', LM)
    const first = await fetchRobots(a.origin, { allowPrivateRedirects: true })
    const second = await fetchRobots(a.origin, { previous: first, allowPrivateRedirects: true })
    expect(second.outcome).toBe('not-modified')
    expect(second.redirects).toHaveLength(1)
    expect(a.headers[1]!['if-none-match']).toBe('"v1"')
    expect(b.headers[1]!['if-none-match']).toBe('"v1"')
  })

  it('unusable validators from a server are not kept; bad ones from a caller are ERR_INPUT', async () => {
    a.handler = reply(200, RULES, { etag: 'x'.repeat(2000), 'last-modified': LM })
    const r = await fetchRobots(a.origin)
    expect(r.validators).toEqual({ lastModified: LM })
    for (const validators of [{ etag: 'a\nb' }, { etag: '' }, { lastModified: 42 }, 'x']) {
      await expect(fetchRobots(a.origin, { previous: { robots: r.robots, validators: validators as never } })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    }
    await expect(fetchRobots(a.origin, { previous: { robots: 'x' } as never })).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(fetchRobots(a.origin, { previous: null as never })).rejects.toMatchObject({ code: 'ERR_INPUT' })
  })

  it('an unreachable refresh is unreachable: the caller decides what to keep (RobotsCache keeps the previous rules)', async () => {
    a.handler = conditional('"v1"', LM)
    const first = await fetchRobots(a.origin)
    a.handler = reply(503)
    const second = await fetchRobots(a.origin, { previous: first })
    expect(second.outcome).toBe('unreachable')
    expect(second.validators).toBeUndefined()
  })
})
})

describe('regression: a Location header holding raw UTF-8', () => {
  // Read as Latin-1, 'http://bücher.de/…' named the host xn--b14cher-xwa2143e.de ('bÃ¼cher.de'), another site.
  it('is read as browsers read it, as UTF-8: the redirect goes to the host (and path) the server wrote', async () => {
    const seen: { target: string; host: string }[] = []
    const server = createNetServer((socket) => {
      let head = ''
      socket.on('data', (d: Buffer) => {
        head += d.toString('latin1')
        if (!head.includes('\r\n\r\n')) return
        const target = head.split(' ')[1]!
        const host = /\r\nhost: *([^\r]*)/i.exec(head)?.[1] ?? ''
        seen.push({ target, host })
        head = ''
        const port = (server.address() as AddressInfo).port
        if (target === '/robots.txt') {
          const location = Buffer.from(host.startsWith('start.test') ? `http://bücher.de:${port}/robots.txt` : '/café.txt', 'utf8')
          socket.end(Buffer.concat([Buffer.from('HTTP/1.1 301 Moved\r\nLocation: '), location, Buffer.from('\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')]))
        } else socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${RULES.length}\r\nConnection: close\r\n\r\n${RULES}`)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const transport = createNodeTransport({ route: (_host, p) => ({ hosts: ['127.0.0.1'], port: p, routed: true }) })
    try {
      const r = await fetchWith(`http://start.test:${port}/`, { transport })
      expect(r.outcome).toBe('ok')
      expect(r.finalUrl).toBe(`http://xn--bcher-kva.de:${port}/caf%C3%A9.txt`)
      expect(seen).toEqual([
        { target: '/robots.txt', host: `start.test:${port}` },
        { target: '/robots.txt', host: `xn--bcher-kva.de:${port}` },
        { target: '/caf%C3%A9.txt', host: `xn--bcher-kva.de:${port}` },
      ])
    } finally {
      transport.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('regression: a Location field repeated with the same target was followed to "/a,%20/a" by the Web fetch (it joins repeated fields)', () => {
  it('equal members of a joined Location are one target; any other value is read as written', async () => {
    for (const [location, final] of [['/a, /a', '/a'], ['/a, /a, /a', '/a'], ['/a,/a', '/a,/a'], ['/a, /b', '/a,%20/b']] as const) {
      const fetch = async (url: string | URL | Request) =>
        String(url).endsWith('/robots.txt') ? new Response(null, { status: 301, headers: { location } }) : new Response(RULES, { status: 200 })
      const r = await fetchWith('http://a.test/', { fetch, privateAddresses: 'allow' })
      expect(r.finalUrl, location).toBe(`http://a.test${final}`)
    }
  })
})

describe('regression: fetch answer not a response: a fetch option resolving to undefined, 42 or {} was recorded as the site unreachable (disallow all, cached), or rejected with an uncoded TypeError', () => {
  const RULES = 'User-agent: *\nDisallow: /\n'
  it('is ERR_INPUT naming what it resolved to, for the fetch option and a transport alike; RobotsCache keeps nothing', async () => {
    const junk: unknown[] = [undefined, null, 42, {}, { status: '200' }, { status: 200, headers: null }, { status: 200, headers: new Headers(), body: 5 }]
    for (const value of junk) {
      const fetch = (async () => value) as never
      await expect(fetchWith('https://example.com/', { fetch }), String(value)).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/^fetch resolved to .*not a response/) })
      const cache = new RobotsCache({ fetch })
      await expect(cache.isAllowed('https://example.com/x', 'bot')).rejects.toMatchObject({ code: 'ERR_INPUT' })
      expect(cache.stats().entries).toBe(0)
    }
    for (const request of [() => 42, async () => 42, async () => ({ status: 200, headers: new Headers(), body: null })]) {
      await expect(fetchWith('https://example.com/', { transport: { request } as never })).rejects.toMatchObject({ code: 'ERR_INPUT', message: expect.stringMatching(/^transport\.request (returned|resolved to) /) })
    }
    // A fetch that answers at once (no promise) is still read; one that throws is the site unreachable, as before.
    expect((await fetchWith('https://example.com/', { fetch: (() => new Response(RULES)) as never })).outcome).toBe('ok')
    expect((await fetchWith('https://example.com/', { fetch: (() => { throw new TypeError('fetch failed') }) as never })).outcome).toBe('unreachable')
  })
})

describe('regression: describeFetchResult named the URL of the last redirect response, not the one that failed after it', () => {
  it('a time-out or network error after redirects names where the last redirect pointed', async () => {
    const fetch = async (input: string | URL | Request): Promise<Response> => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.endsWith('/robots.txt')) return new Response(null, { status: 302, headers: { location: '/one' } })
      if (url.endsWith('/one')) return new Response(null, { status: 302, headers: { location: '/two' } })
      throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })
    }
    const r = await fetchWith('http://site.test/', { fetch })
    expect([r.outcome, r.reason, r.redirects.length]).toEqual(['unreachable', 'network-error', 2])
    expect(describeFetchResult(r)).toContain('fetching http://site.test/two after 2 redirects')
  })
})
