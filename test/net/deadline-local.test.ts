/**
 * The fetch deadline expiring while the Node transport waits on this
 * machine (its resolver's servers silent, a look-up waiting its turn, a
 * connection slot held by other fetches): a failure of this machine
 * (ERR_LOCAL), never the site's `timeout`; while a wait that is the
 * site's own (its name unanswered by servers that answer others, a slow
 * server) stays the `timeout` outcome. Every server is on 127.0.0.1, the
 * DNS server included; every name resolves there or nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchRobots, RobotsCache } from '../../src/index.js'
import { createNodeTransport } from '../../src/node.js'
import { startServer, type TestServer } from '../fetch/server.js'
import { startDnsServer, type DnsTestServer } from '../support/dns-server.js'

let web: TestServer
let delayMs = 0

beforeAll(async () => {
  web = await startServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('User-agent: *\nDisallow: /private\n')
    }, delayMs)
  })
})
afterAll(async () => {
  await web.close()
})

const origin = (host: string) => `http://${host}:${web.port}`

describe('the deadline during a look-up', () => {
  let mute: DnsTestServer
  beforeAll(async () => {
    mute = await startDnsServer({ 'a.test': ['127.0.0.1'] })
  })
  afterAll(async () => {
    await mute.close()
  })

  it('DNS servers that answer nothing until the fetch deadline are ERR_LOCAL, not the site’s timeout', async () => {
    // Silent to every question, the root's (the probe) included; the resolver's own time-outs (5 s, 2 tries) outlast the deadline.
    mute.silent.add('a.test').add('')
    const t = createNodeTransport({ dns: { servers: [mute.address] } })
    try {
      const started = performance.now()
      const err = await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow', timeoutMs: 300 }).then(
        (r) => r,
        (e: unknown) => e,
      )
      expect(err).toMatchObject({ code: 'ERR_LOCAL' })
      expect(String((err as Error).message)).toMatch(/this machine failed \(ETIMEOUT\)/)
      expect(String((err as { cause?: Error }).cause?.message)).toMatch(/DNS servers are not answering/)
      // The deadline, then the probe's second at most, not the resolver's own time-outs.
      expect(performance.now() - started).toBeLessThan(4000)
      // Nothing kept against the name: once the servers answer, it resolves.
      mute.silent.clear()
      t.close()
      const again = createNodeTransport({ dns: { servers: [mute.address] } })
      expect((await fetchRobots(origin('a.test'), { transport: again, privateAddresses: 'allow' })).outcome).toBe('ok')
      again.close()
    } finally {
      mute.silent.clear()
      t.close()
    }
  })

  it('a name left unanswered past the deadline by servers that answer the probe is the site’s timeout', async () => {
    mute.silent.add('a.test')
    const t = createNodeTransport({ dns: { servers: [mute.address] } })
    try {
      const r = await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow', timeoutMs: 300 })
      expect(r).toMatchObject({ outcome: 'unreachable', reason: 'timeout' })
      expect(r.error).toMatchObject({ kind: 'timeout' })
      expect(mute.questions).toContain(' 2')
    } finally {
      mute.silent.clear()
      t.close()
    }
  })

  it('RobotsCache caches nothing when the servers stay silent past the deadline (it rejects ERR_LOCAL), and fetches again', async () => {
    mute.silent.add('a.test').add('')
    const t = createNodeTransport({ dns: { servers: [mute.address] } })
    try {
      const cache = new RobotsCache({ transport: t, privateAddresses: 'allow', timeoutMs: 300 })
      await expect(cache.lookup(origin('a.test'))).rejects.toMatchObject({ code: 'ERR_LOCAL' })
      expect(cache.peek(origin('a.test'))).toBeUndefined()
      expect(cache.stats().entries).toBe(0)
      mute.silent.clear()
      const fresh = new RobotsCache({ transport: createNodeTransport({ dns: { servers: [mute.address] } }), privateAddresses: 'allow' })
      expect((await fresh.lookup(origin('a.test'))).result.outcome).toBe('ok')
    } finally {
      mute.silent.clear()
      t.close()
    }
  })

  it('a look-up still waiting its turn at the deadline is ERR_LOCAL (EDNSBUSY)', async () => {
    const dns = await startDnsServer({ 'a.test': ['127.0.0.1'] })
    dns.silent.add('slow.test')
    // One look-up at a time: slow.test's holds the turn; the servers answer the probe, so its own wait is its timeout.
    const t = createNodeTransport({ dns: { servers: [dns.address], concurrency: 1 } })
    try {
      const slow = fetchRobots(origin('slow.test'), { transport: t, privateAddresses: 'allow', timeoutMs: 2000 })
      await new Promise((resolve) => setTimeout(resolve, 50))
      const queued = await fetchRobots(origin('a.test'), { transport: t, privateAddresses: 'allow', timeoutMs: 300 }).then(
        (r) => r,
        (e: unknown) => e,
      )
      expect(queued).toMatchObject({ code: 'ERR_LOCAL' })
      expect(String((queued as Error).message)).toMatch(/EDNSBUSY/)
      expect(await slow).toMatchObject({ outcome: 'unreachable', reason: 'timeout' })
    } finally {
      t.close()
      await dns.close()
    }
  })
})

describe('the deadline while waiting for a connection slot', () => {
  it('a wait for a slot of the address that outlives the deadline is ERR_LOCAL (EADDRBUSY), not the site’s timeout', async () => {
    delayMs = 1200
    const t = createNodeTransport({ perAddress: 1 })
    try {
      const first = fetchRobots(web.origin, { transport: t, privateAddresses: 'allow', timeoutMs: 5000 })
      await new Promise((resolve) => setTimeout(resolve, 50))
      const second = await fetchRobots(web.origin, { transport: t, privateAddresses: 'allow', timeoutMs: 300 }).then(
        (r) => r,
        (e: unknown) => e,
      )
      expect(second).toMatchObject({ code: 'ERR_LOCAL' })
      expect(String((second as Error).message)).toMatch(/EADDRBUSY/)
      expect((await first).outcome).toBe('ok')
      // The site's own slowness, with a slot in hand, stays its timeout.
      const slow = await fetchRobots(web.origin, { transport: t, privateAddresses: 'allow', timeoutMs: 300 })
      expect(slow).toMatchObject({ outcome: 'unreachable', reason: 'timeout' })
    } finally {
      delayMs = 0
      t.close()
    }
  })
})

describe('regression: a deadline that passed while this process did not run was the site’s timeout', () => {
  const block = (ms: number): void => {
    const end = performance.now() + ms
    while (performance.now() < end) {
      /* this process busy: no timer, no socket read */
    }
  }

  it('the event loop blocked past the deadline (our own load): ERR_LOCAL (ESTALLED), not an outcome; RobotsCache keeps nothing', async () => {
    delayMs = 0
    const routed = createNodeTransport({ route: (_host, port) => ({ hosts: ['127.0.0.1'], port, routed: true }) })
    const pending = fetchRobots(origin('busy.test'), { transport: routed, timeoutMs: 200 })
    block(1800)
    await expect(pending).rejects.toMatchObject({ code: 'ERR_LOCAL', cause: { code: 'ESTALLED' } })
    const cache = new RobotsCache({ transport: routed, timeoutMs: 200 })
    const got = cache.get(origin('busy.test'))
    block(1800)
    await expect(got).rejects.toMatchObject({ code: 'ERR_LOCAL' })
    // The process running again, the site answers.
    expect((await cache.get(origin('busy.test'))).isAllowed('/private', 'bot')).toBe(false)
    routed.close()
  })

  it('an answer that came in time while the loop was blocked (the deadline then late by less than a second) is read, not a timeout', async () => {
    const quick = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('User-agent: *\nDisallow: /private\n')
      // Sent; this process then busy past the deadline before it reads the answer.
      block(700)
    })
    const routed = createNodeTransport({ route: (_host, port) => ({ hosts: ['127.0.0.1'], port, routed: true }) })
    const r = await fetchRobots(`http://quick.test:${quick.port}`, { transport: routed, timeoutMs: 300 })
    expect([r.outcome, r.reason]).toEqual(['ok', 'success'])
    routed.close()
    await quick.close()
  })

  it('a site slower than the deadline while this process runs stays the site’s timeout', async () => {
    delayMs = 1500
    const routed = createNodeTransport({ route: (_host, port) => ({ hosts: ['127.0.0.1'], port, routed: true }) })
    const r = await fetchRobots(origin('slow.test'), { transport: routed, timeoutMs: 200 })
    expect(r.reason).toBe('timeout')
    delayMs = 0
    routed.close()
  })
})
