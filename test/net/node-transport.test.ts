/**
 * The Node transport (robots-automaton/node's createNodeTransport) with a
 * DNS server the test starts on 127.0.0.1: names resolved by its own
 * resolver (cache, shared look-ups, failures as `dns-error`), the address
 * policy on the addresses names resolve to (first request and redirects,
 * routes excepted), the limit of connections per address, and local
 * failures rejected as ERR_LOCAL, never an outcome. Every server is on
 * 127.0.0.1; every name resolves there or nowhere.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fetchRobots } from '../../src/index.js'
import { createNodeTransport, type RouteFunction } from '../../src/node.js'
import { startServer, type TestServer } from '../fetch/server.js'
import { startDnsServer, type DnsTestServer } from '../support/dns-server.js'
import { startSilentAddress } from '../support/silent-address.js'

const RULES = 'User-agent: *\nDisallow: /private\n'

let web: TestServer
let dns: DnsTestServer
/** Requests in flight at the server now, and the most seen at once. */
let inFlight = 0
let peak = 0
let delayMs = 0

beforeAll(async () => {
  web = await startServer((req, res) => {
    inFlight++
    peak = Math.max(peak, inFlight)
    setTimeout(() => {
      inFlight--
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      if (host === 'to-loopback-name.test') {
        res.writeHead(301, { location: `http://inner.test:${web.port}/robots.txt` })
        return res.end()
      }
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(RULES)
    }, delayMs)
  })
  dns = await startDnsServer({
    'a.test': ['127.0.0.1'],
    'b.test': ['127.0.0.1'],
    'inner.test': ['127.0.0.1'],
    'to-loopback-name.test': ['127.0.0.1'],
    'v6only.test': ['::1'],
    'noaddress.test': [],
    'site.invalid': ['127.0.0.1'],
    'hidden.onion': ['127.0.0.1'],
    'onion.test': ['127.0.0.1'],
  })
  dns.silent.add('silent.test')
})
afterAll(async () => {
  await web.close()
  await dns.close()
})
beforeEach(() => {
  web.reset()
  dns.questions.length = 0
  peak = 0
  delayMs = 0
})

const origin = (host: string) => `http://${host}:${web.port}`

describe('DNS that the run controls (a DNS server on 127.0.0.1)', () => {
  it('resolves names through the given server, caches them, and shares look-ups in flight', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address] }, perAddress: 16 })
    const rs = await Promise.all([1, 2, 3, 4].map(() => fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })))
    for (const r of rs) expect(r.outcome).toBe('ok')
    expect(dns.questions).toEqual(['a.test A'])
    await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })
    expect(dns.questions).toEqual(['a.test A'])
    expect(web.headers.every((h) => h.host === `a.test:${web.port}`)).toBe(true)
    // A name with no A record is asked for AAAA.
    const v6 = await t.addressOf(origin('v6only.test'))
    expect(v6).toBe('::1')
    expect(dns.questions.slice(1)).toEqual(['v6only.test A', 'v6only.test AAAA'])
    t.close()
  })

  it('a name that does not exist, has no address or gets no answer is unreachable with its own reason, dns-error', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address], timeoutMs: 200, tries: 1 } })
    for (const host of ['nowhere.test', 'noaddress.test', 'silent.test']) {
      const r = await fetchRobots(origin(host), { transport: t, privateAddresses: 'allow' })
      expect(r.outcome, host).toBe('unreachable')
      expect(r.reason, host).toBe('dns-error')
      expect(r.error?.kind, host).toBe('dns')
    }
    expect(web.requests).toEqual([])
    t.close()
  })

  it('a DNS server that cannot be reached is a failure of this machine (ERR_LOCAL), not an outcome', async () => {
    // A port of 127.0.0.1 where nothing answers UDP: c-ares gets a refusal.
    const closed = await startDnsServer()
    const where = closed.address
    await closed.close()
    const t = createNodeTransport({ dns: { servers: [where], timeoutMs: 300, tries: 1 } })
    await expect(fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })).rejects.toMatchObject({ code: 'ERR_LOCAL' })
    t.close()
  })

  it('regression: DNS servers that answer nothing at all made every name dns-error; now a failure of this machine (ERR_LOCAL)', async () => {
    const mute = await startDnsServer({ 'a.test': ['127.0.0.1'] })
    // Silent to every question, the root's (the probe) included.
    mute.silent.add('a.test').add('b.test').add('c.test').add('')
    try {
      const t = createNodeTransport({ dns: { servers: [mute.address], timeoutMs: 200, tries: 1 } })
      const all = await Promise.allSettled(['a.test', 'b.test', 'c.test'].map((h) => fetchRobots(origin(h), { transport: t, privateAddresses: 'allow' })))
      for (const r of all) {
        expect(r.status).toBe('rejected')
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'ERR_LOCAL' })
        expect(String((r as PromiseRejectedResult).reason.cause?.message)).toMatch(/DNS servers are not answering \(ETIMEOUT/)
      }
      // Not kept as the names' failure: once the server answers, the same transport resolves them.
      mute.silent.delete('a.test')
      expect((await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })).outcome).toBe('ok')
      t.close()
    } finally {
      await mute.close()
    }
  })

  it('regression: a resolver that REFUSED every question made every name dns-error; now ERR_LOCAL, while one refused name among answered ones stays dns-error', async () => {
    const picky = await startDnsServer({ 'a.test': ['127.0.0.1'] })
    picky.refused.add('a.test').add('')
    try {
      const t = createNodeTransport({ dns: { servers: [picky.address], timeoutMs: 300, tries: 1 } })
      await expect(fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })).rejects.toMatchObject({ code: 'ERR_LOCAL' })
      // The resolver serves this machine (the probe is answered): a name it refuses is the name's failure.
      picky.refused.delete('')
      const r = await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'dns-error' })
      expect(r.error).toMatchObject({ kind: 'dns', code: 'EREFUSED' })
      t.close()
    } finally {
      await picky.close()
    }
  })

  it('regression: a resolver that answered SERVFAIL to every question (no upstream) made every name dns-error; now ERR_LOCAL, while one SERVFAIL name among answered ones stays dns-error', async () => {
    const stranded = await startDnsServer({ 'a.test': ['127.0.0.1'] })
    stranded.servfail.add('a.test').add('b.test').add('')
    try {
      const t = createNodeTransport({ dns: { servers: [stranded.address], timeoutMs: 300, tries: 1 } })
      for (const host of ['a.test', 'b.test']) {
        const err = await fetchRobots(origin(host), { transport: t, privateAddresses: 'allow' }).then((r) => r, (e: unknown) => e)
        expect(err, host).toMatchObject({ code: 'ERR_LOCAL' })
        expect(String((err as { cause?: Error }).cause?.message), host).toMatch(/DNS servers are not answering \(ESERVFAIL/)
      }
      // Not kept against the name: once the resolver reaches its upstream, a.test resolves.
      stranded.servfail.delete('a.test')
      expect((await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })).outcome).toBe('ok')
      // The resolver answers the probe: a name it cannot resolve is the name's failure.
      stranded.servfail.delete('')
      const r = await fetchRobots(origin('b.test'), { transport: t, privateAddresses: 'allow' })
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'dns-error' })
      expect(r.error).toMatchObject({ kind: 'dns', code: 'ESERVFAIL' })
      t.close()
    } finally {
      await stranded.close()
    }
  })

  it('regression: a resolver that went silent mid-run made the names asked just before dns-error (an answer on its way to an earlier question counted as the servers answering); now ERR_LOCAL', async () => {
    const dying = await startDnsServer({ 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.1'] })
    dying.held.add('a.test')
    try {
      const t = createNodeTransport({ dns: { servers: [dying.address], timeoutMs: 300, tries: 1 } })
      const first = t.dns.resolve('a.test')
      await vi.waitFor(() => expect(dying.questions).toContain('a.test A'))
      // The server stops answering: b.test is asked, then a.test's answer (asked before it) arrives, then nothing, not even the probe.
      dying.silent.add('b.test').add('')
      const second = fetchRobots(origin('b.test'), { transport: t, privateAddresses: 'allow' }).then((r) => r, (e: unknown) => e)
      await vi.waitFor(() => expect(dying.questions).toContain('b.test A'))
      dying.release('a.test')
      expect(await first).toEqual(['127.0.0.1'])
      expect(await second).toMatchObject({ code: 'ERR_LOCAL' })
      expect(dying.questions).toContain(' 2')
      t.close()
    } finally {
      await dying.close()
    }
  })

  // c-ares 1.33 on cuts its time-outs to five times the servers' mean latency (250 ms at least) once three questions are answered.
  const adaptive = Number(process.versions.ares.split('.')[0]) * 100 + Number(process.versions.ares.split('.')[1]) >= 133
  it.skipIf(!adaptive)('regression: a name its resolver took a second to answer was dns-error (c-ares timed out at a few times the latency of cache hits); now asked again until timeoutMs × tries', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address], tries: 1 } })
    for (const host of ['a.test', 'b.test', 'inner.test']) await t.dns.resolve(host)
    dns.names.set('recursing.test', ['127.0.0.1'])
    // c-ares's try goes unanswered (the resolver still recursing), long before 5 s; the next question is answered.
    dns.unanswered.set('recursing.test', 1)
    try {
      expect((await fetchRobots(origin('recursing.test'), { transport: t, privateAddresses: 'allow' })).outcome).toBe('ok')
      expect(dns.questions.filter((q) => q === 'recursing.test A')).toHaveLength(2)
    } finally {
      dns.unanswered.clear()
      t.close()
    }
  })

  it('a time-out while the servers answer other names is the name’s own: dns-error', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address], timeoutMs: 300, tries: 1 } })
    const [silent, answered] = await Promise.all([
      fetchRobots(origin('silent.test'), { transport: t, privateAddresses: 'allow' }),
      // Answered while silent.test waits.
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => fetchRobots(origin('b.test'), { transport: t, privateAddresses: 'allow' })),
    ])
    expect(answered.outcome).toBe('ok')
    expect(silent).toMatchObject({ outcome: 'unreachable', reason: 'dns-error' })
    expect(silent.error).toMatchObject({ kind: 'dns', code: 'ETIMEOUT' })
    // Alone too: the servers answer the probe, so the time-out is the name's.
    const alone = await fetchRobots(origin('silent.test'), { transport: createNodeTransport({ dns: { servers: [dns.address], timeoutMs: 300, tries: 1 } }), privateAddresses: 'allow' })
    expect(alone).toMatchObject({ outcome: 'unreachable', reason: 'dns-error' })
    t.close()
  })
})

describe('regression: names under .invalid and .onion were sent to the DNS servers', () => {
  it('they are dns-error without a question asked, however written; a name merely containing them is looked up', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address] } })
    for (const host of ['site.invalid', 'SITE.Invalid.', 'hidden.onion', 'x.hidden.ONION', 'invalid']) {
      const r = await fetchRobots(origin(host), { transport: t, privateAddresses: 'allow' })
      expect(r, host).toMatchObject({ outcome: 'unreachable', reason: 'dns-error', error: { kind: 'dns', code: 'ENOTFOUND' } })
    }
    expect(dns.questions).toEqual([])
    expect(t.dns.queries).toBe(0)
    expect(await fetchRobots(origin('onion.test'), { transport: t, privateAddresses: 'allow' })).toMatchObject({ outcome: 'ok' })
    expect(dns.questions).toEqual(['onion.test A'])
    t.close()
  })
})

describe('the address policy sees the addresses names resolve to', () => {
  it('a public-looking name resolving to loopback is refused before any connection, by default and with refuse', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address] } })
    for (const privateAddresses of [undefined, 'refuse'] as const) {
      const r = await fetchRobots(origin('a.test'), { transport: t, ...(privateAddresses ? { privateAddresses } : {}) })
      expect(r.outcome).toBe('refused')
      expect(r.reason).toBe('address-refused')
      expect(r.error).toMatchObject({ kind: 'address', code: 'loopback' })
      expect(r.robots.agent('x').isAllowed('/anything')).toBe(false)
    }
    expect(web.requests).toEqual([])
    // The caller's own literal origin is its choice under the default, not under refuse.
    expect((await fetchRobots(web.origin, { transport: t })).outcome).toBe('ok')
    expect((await fetchRobots(web.origin, { transport: t, privateAddresses: 'refuse' })).outcome).toBe('refused')
    // allow: no check.
    expect((await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow' })).outcome).toBe('ok')
    t.close()
  })

  it('a routed name is the user’s choice; a redirect to a name that resolves to loopback is blocked', async () => {
    const route: RouteFunction = (host, port) => (host === 'to-loopback-name.test' || host === 'a.test' ? { hosts: ['127.0.0.1'], port, routed: true } : undefined)
    const t = createNodeTransport({ dns: { servers: [dns.address] }, route })
    expect((await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'refuse' })).outcome).toBe('ok')
    const r = await fetchRobots(origin('to-loopback-name.test'), { transport: t, privateAddresses: 'refuse' })
    expect(r.outcome).toBe('unavailable')
    expect(r.reason).toBe('redirect-blocked')
    expect(r.redirects).toHaveLength(1)
    expect(r.redirects[0]).toMatchObject({ blocked: 'loopback', location: `http://inner.test:${web.port}/robots.txt` })
    expect(r.finalUrl).toBe(`${origin('to-loopback-name.test')}/robots.txt`)
    expect(web.headers.map((h) => h.host)).toEqual([`a.test:${web.port}`, `to-loopback-name.test:${web.port}`])
    t.close()
  })
})

describe('politeness: connections in flight per address', () => {
  it('at most perAddress requests reach one address at once, whatever the names', async () => {
    delayMs = 40
    const t = createNodeTransport({ dns: { servers: [dns.address] }, perAddress: 3 })
    const names = ['a.test', 'b.test', 'inner.test']
    const rs = await Promise.all(Array.from({ length: 18 }, (_, i) => fetchRobots(origin(names[i % 3]!), { transport: t, privateAddresses: 'allow', timeoutMs: 60_000 })))
    for (const r of rs) expect(r.outcome).toBe('ok')
    expect(web.requests).toHaveLength(18)
    expect(peak).toBe(3)
    t.close()
  })

  it('a lease holds a slot for its first request; released unused, it frees the slot', async () => {
    const t = createNodeTransport({ dns: { servers: [dns.address] }, perAddress: 1 })
    const address = await t.addressOf(origin('a.test'))
    expect(address).toBe('127.0.0.1')
    const lease = t.tryLease(address!)!
    expect(lease).toBeDefined()
    expect(t.tryLease(address!)).toBeUndefined()
    const r = await fetchRobots(origin('a.test'), { transport: lease.transport, privateAddresses: 'allow' })
    expect(r.outcome).toBe('ok')
    lease.release()
    // The slot is free once the connection has closed (a moment after the answer).
    let again = t.tryLease(address!)
    for (let i = 0; i < 200 && again === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      again = t.tryLease(address!)
    }
    expect(again).toBeDefined()
    expect(t.tryLease(address!)).toBeUndefined()
    // Released unused, the slot is free at once.
    again!.release()
    const third = t.tryLease(address!)
    expect(third).toBeDefined()
    third!.release()
    t.close()
  })

  it('regression: an address written as IPv4-mapped IPv6 (::ffff:127.0.0.1) had slots of its own beside its IPv4 spelling; now one server, one limit', async () => {
    delayMs = 40
    const spellings = ['127.0.0.1', '::ffff:127.0.0.1', '::FFFF:7f00:1', '0:0:0:0:0:ffff:7f00:0001']
    const route: RouteFunction = (host, port) => ({ hosts: [spellings[Number(/^n(\d+)\./.exec(host)![1]) % spellings.length]!], port, routed: true })
    const t = createNodeTransport({ route, perAddress: 2 })
    const rs = await Promise.all(Array.from({ length: 16 }, (_, i) => fetchRobots(origin(`n${i}.test`), { transport: t, timeoutMs: 60_000 })))
    for (const r of rs) expect(r.outcome).toBe('ok')
    expect(web.requests).toHaveLength(16)
    expect(peak).toBe(2)
    // A lease taken under one spelling holds the slot for the others.
    const one = t.tryLease('127.0.0.1')!
    const two = t.tryLease('::ffff:127.0.0.1')!
    expect(t.tryLease('::ffff:7f00:1')).toBeUndefined()
    one.release()
    two.release()
    t.close()
  })
})

describe('a name with several addresses', () => {
  it('regression: a site whose first address drops packets was the timeout outcome though another answered (the connect time-out was the whole deadline); now the answering address is reached', async () => {
    // 127.0.0.2 never completes a handshake, 127.0.0.4 refuses (nothing listens there), 127.0.0.1 answers.
    const dead = await startSilentAddress('127.0.0.2', web.port)
    const route: RouteFunction = (_host, port) => ({ hosts: ['127.0.0.2', '127.0.0.4', '127.0.0.1'], port, routed: true })
    // As the command line makes it: the connect time-out is the fetch's deadline.
    const t = createNodeTransport({ route, connectTimeoutMs: 20_000 })
    try {
      const r = await fetchRobots(origin('dual.test'), { transport: t, timeoutMs: 20_000 })
      expect(r.outcome).toBe('ok')
      expect(r.robots.isAllowed(`${origin('dual.test')}/private`, 'bot')).toBe(false)
      expect(web.requests).toEqual(['/robots.txt'])
    } finally {
      t.close()
      await dead.close()
    }
  })
})

describe('local failures are not outcomes', () => {
  it('EMFILE, ENFILE, ENOMEM, EADDRNOTAVAIL from a transport reject with ERR_LOCAL', async () => {
    for (const code of ['EMFILE', 'ENFILE', 'ENOMEM', 'EADDRNOTAVAIL', 'ENOBUFS']) {
      const transport = { request: async () => Promise.reject(Object.assign(new Error(`connect ${code}`), { code })) }
      const p = fetchRobots('http://example.test/', { transport, privateAddresses: 'allow' })
      await expect(p, code).rejects.toMatchObject({ code: 'ERR_LOCAL' })
      await expect(p, code).rejects.toThrow(code)
    }
  })

  it('a decoder that cannot get memory or be made mid-body is ERR_LOCAL, not the site’s incomplete-body', async () => {
    const bodyFailing = (code: string) => ({
      request: async () => ({
        status: 200,
        headers: { get: (name: string) => (name === 'content-encoding' ? 'gzip' : null) },
        body: (async function* () {
          yield new TextEncoder().encode('User-agent: *\n')
          throw Object.assign(new Error(`decoding failed (${code})`), { code })
        })(),
        cancel: () => {},
      }),
    })
    for (const code of ['Z_MEM_ERROR', 'ERR__ERROR_ALLOC_RING_BUFFER_1', 'ERR_ZLIB_INITIALIZATION_FAILED', 'ERR_MEMORY_ALLOCATION_FAILED']) {
      await expect(fetchRobots('http://example.test/', { transport: bodyFailing(code), privateAddresses: 'allow' }), code).rejects.toMatchObject({ code: 'ERR_LOCAL' })
    }
    // A stream cut short or corrupt stays the site's.
    for (const code of ['Z_BUF_ERROR', 'Z_DATA_ERROR', 'ERR__ERROR_FORMAT_PADDING_2']) {
      const r = await fetchRobots('http://example.test/', { transport: bodyFailing(code), privateAddresses: 'allow' })
      expect(r, code).toMatchObject({ outcome: 'unreachable', reason: 'incomplete-body' })
    }
  })

  it('also through the Web fetch, where the code is on the cause', async () => {
    const failing = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect EMFILE 127.0.0.1:1'), { code: 'EMFILE' }) })
    }
    await expect(fetchRobots('http://127.0.0.1:1/', { fetch: failing })).rejects.toMatchObject({ code: 'ERR_LOCAL' })
  })
})

describe('regression: a URL naming port 0 made a route that keeps the port fail as the caller’s (ERR_INPUT, the origin not fetched)', () => {
  it('a redirect to port 0, and an origin at port 0, are the site’s network-error (unreachable)', async () => {
    const site = await startServer((_req, res) => {
      res.writeHead(301, { location: 'http://elsewhere.test:0/robots.txt' })
      res.end()
    })
    // curl's --connect-to ::127.0.0.1: (every name and port to 127.0.0.1, the port kept).
    const route: RouteFunction = (_host, port) => ({ hosts: ['127.0.0.1'], port, routed: true })
    const t = createNodeTransport({ route })
    const r = await fetchRobots(`http://start.test:${site.port}/`, { transport: t })
    expect([r.outcome, r.reason, r.error?.code]).toEqual(['unreachable', 'network-error', 'ECONNREFUSED'])
    expect(r.redirects.map((h) => h.location)).toEqual(['http://elsewhere.test:0/robots.txt'])
    const own = await fetchRobots('http://start.test:0/', { transport: t })
    expect([own.outcome, own.reason]).toEqual(['unreachable', 'network-error'])
    expect(await t.addressOf('http://start.test:0/')).toBeUndefined()
    t.close()
    await site.close()
  })
})
