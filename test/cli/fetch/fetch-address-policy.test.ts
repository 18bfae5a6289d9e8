/**
 * Origins named by the input are no longer fetched wherever they point:
 * before connecting, for the first request and every redirect, `fetch`
 * checks the address it is about to reach, a literal one or one a name
 * resolves to (a DNS server this test starts on 127.0.0.1), and refuses
 * loopback, private and other non-public ones unless the user routed the
 * name there (`--resolve`, `--connect-to`) or passed `--allow-private`. A
 * refused origin is the outcome `refused` (disallow all, said by `filter`),
 * never `unreachable`, and counts in the summary. Also: DNS the run
 * controls (`--dns-server`, its cache, DNS failures as their own reason),
 * and politeness per address (`--per-ip`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { startDnsServer, type DnsTestServer } from '../../support/dns-server.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'
import { startFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let slow: FetchServer
let dns: DnsTestServer
let tmp: ReturnType<typeof tempDir>

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  server = await startFetchServer()
  slow = await startFetchServer(30)
  dns = await startDnsServer({
    'public-looking.test': ['127.0.0.1'],
    'inner.test': ['127.0.0.1'],
    'ten.test': ['10.1.2.3'],
    'v6-loopback.test': ['::1'],
  })
})
afterAll(async () => {
  await server.close()
  await slow.close()
  await dns.close()
  tmp.cleanup()
})
beforeEach(() => {
  server.reset()
  slow.reset()
  dns.questions.length = 0
})

const file = (name: string, lines: string[]): string => {
  const path = tmp.path(name)
  writeFileSync(path, lines.join('\n') + '\n')
  return path
}
const store = (path: string) => RobotsStore.fromBytes(readFileSync(path))

describe('a log line naming a loopback address is not fetched without routing or --allow-private', () => {
  const log = () => file('absolute.log', [`203.0.113.9 - - [23/Nov/2026:10:00:00 +0000] "GET http://127.0.0.1:${server.port}/secret HTTP/1.1" 200 512 "-" "curl/8"`])
  const key = () => `http://127.0.0.1:${server.port}`

  it('refused: nothing sent, its own outcome in the bundle and the summary, disallow all for filter, with a warning', async () => {
    const out = tmp.path('refused.bundle')
    const r = await run(['fetch', '--log-format', 'combined', log(), '-o', out])
    expect(r.status, r.stderr).toBe(0)
    expect(server.total).toBe(0)
    expect(r.stderr).toMatch(/1 origin fetched in .*: 1 refused by the address policy \(loopback 1; --allow-private, --resolve or --connect-to to fetch them\)/)
    const s = store(out)
    expect(s.source(key())).toBe('unreachable')
    expect(s.fetchInfo(key())?.outcome).toBe('refused')
    const f = await run(['filter', '--bundle', out, '--agent', 'bot', '--print', 'verdicts'], { input: `${key()}/secret\n` })
    expect(f.status, f.stderr).toBe(0)
    expect(f.stdout.toString()).toMatch(/^disallowed\t0\t/)
    expect(f.stderr).toMatch(/warning: '.*refused\.bundle#http:\/\/127\.0\.0\.1:\d+' was not fetched: fetch refused its address/)
    expect(f.stderr).toMatch(/1 with a fetch outcome instead \(1 refused by fetch's address policy: disallow all\)/)
  })

  for (const [name, extra] of [
    ['--resolve', () => ['--resolve', `127.0.0.1:${server.port}:127.0.0.1`]],
    ['--connect-to', () => ['--connect-to', `127.0.0.1:${server.port}:127.0.0.1:${server.port}`]],
    ['--allow-private', () => ['--allow-private']],
  ] as const) {
    it(`fetched with ${name}`, async () => {
      const out = tmp.path(`routed-${name.slice(2)}.bundle`)
      const r = await run(['fetch', '--log-format', 'combined', log(), '-o', out, ...extra()])
      expect(r.status, r.stderr).toBe(0)
      expect(server.total).toBe(1)
      expect(store(out).fetchInfo(key())?.outcome).toBe('ok')
    })
  }

  it('a wildcard --resolve routes names, not an address written in the input', async () => {
    const out = tmp.path('wildcard.bundle')
    const r = await run(['fetch', '--log-format', 'combined', log(), '-o', out, '--resolve', `*:${server.port}:127.0.0.1`])
    expect(r.status, r.stderr).toBe(0)
    expect(server.total).toBe(0)
    expect(store(out).fetchInfo(key())?.outcome).toBe('refused')
  })
})

describe('the address a name resolves to is checked, and a bundle’s fetched origin too', () => {
  it('names resolving to loopback, private and IPv6 loopback addresses are refused; with --allow-private the loopback one is fetched', async () => {
    const input = file('names.txt', ['public-looking.test', 'ten.test', 'v6-loopback.test'].map((h) => `http://${h}:${server.port}/`))
    const out = tmp.path('names.bundle')
    const r = await run(['fetch', input, '-o', out, '--dns-server', dns.address])
    expect(r.status, r.stderr).toBe(0)
    expect(server.total).toBe(0)
    expect(r.stderr).toMatch(/3 refused by the address policy \((loopback 2, private 1|private 1, loopback 2)/)
    const s = store(out)
    for (const h of ['public-looking.test', 'ten.test', 'v6-loopback.test']) expect(s.fetchInfo(`http://${h}:${server.port}`)?.outcome, h).toBe('refused')
    const allowed = await run(['fetch', file('one.txt', [`http://public-looking.test:${server.port}/`]), '-o', tmp.path('allowed.bundle'), '--dns-server', dns.address, '--allow-private'])
    expect(allowed.status, allowed.stderr).toBe(0)
    expect(server.asked.get('public-looking.test')).toBe(1)
  })

  it('a redirect from a routed name to a name that resolves to loopback is blocked', async () => {
    server.handler = (host, _req, res) => {
      if (host === 'start.test') {
        res.writeHead(301, { location: `http://inner.test:${server.port}/robots.txt` })
        return res.end()
      }
      res.writeHead(200)
      res.end('User-agent: *\nDisallow: /\n')
    }
    const out = tmp.path('redirect.bundle')
    const r = await run(['fetch', file('start.txt', [`http://start.test:${server.port}/`]), '-o', out, '--resolve', `start.test:${server.port}:127.0.0.1`, '--dns-server', dns.address, '--format', 'jsonl'])
    expect(r.status, r.stderr).toBe(0)
    const record = JSON.parse(readFileSync(out, 'utf8'))
    expect(record).toMatchObject({ outcome: 'unavailable', reason: 'redirect-blocked' })
    expect([...server.asked.keys()]).toEqual(['start.test'])
  })

  it('fetch --update: a bundle’s fetched origin that points at loopback is refused, not fetched', async () => {
    const old = new RobotsStore()
    const t = Date.now() - 2 * 86_400_000
    old.setOutcome('somewhere.test', 'unavailable', { outcome: 'unavailable', status: 404, fetchedAt: t, expiresAt: t + 1, reachableAt: t, origin: `http://127.0.0.1:${server.port}` })
    const oldPath = tmp.path('crafted.bundle')
    writeFileSync(oldPath, old.toBytes())
    const out = tmp.path('crafted-next.bundle')
    const r = await run(['fetch', '--update', oldPath, '-o', out])
    expect(r.status, r.stderr).toBe(0)
    expect(server.total).toBe(0)
    const info = store(out).fetchInfo('somewhere.test')
    expect(info?.outcome).toBe('refused')
    // The rules it had stand (not the site's answer): still allow all, as before.
    expect(store(out).source('somewhere.test')).toBe('unavailable')
  })
})

describe('DNS that the run controls', () => {
  it('--dns-server: each name asked once however many URLs name it, unknown names are unreachable with their own reason', async () => {
    const lines = [...Array.from({ length: 5 }, (_, i) => `http://public-looking.test:${server.port}/p${i}`), `http://nowhere.test:${server.port}/`, `https://nowhere.test/`]
    const out = tmp.path('dns.bundle')
    const r = await run(['fetch', file('dns.txt', lines), '-o', out, '--dns-server', dns.address, '--allow-private', '--timeout', '5'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/3 origins fetched in .*: 1 ok, 2 unreachable \(dns-error 2\)/)
    expect(dns.questions.filter((q) => q === 'public-looking.test A')).toHaveLength(1)
    expect(dns.questions.filter((q) => q === 'nowhere.test A')).toHaveLength(1)
    expect(store(out).fetchInfo(`http://nowhere.test:${server.port}`)?.outcome).toBe('unreachable')
  })

  it('regression: DNS servers that answer nothing made every origin unreachable (dns-error); now the run stops, writes nothing and keeps its journal', async () => {
    const mute = await startDnsServer({})
    const names = ['m1.test', 'm2.test', 'm3.test']
    // Silent to every question, the root's (the probe) included.
    for (const n of [...names, '']) mute.silent.add(n)
    try {
      const input = file('mute.txt', names.map((n) => `http://${n}:${server.port}/`))
      const out = tmp.path('mute.bundle')
      const argv = ['fetch', input, '-o', out, '--dns-server', mute.address, '--allow-private', '--give-up-after', '1', '--timeout', '3']
      const r = await run(argv)
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/cannot make progress: .*only failures of this machine \(the DNS servers are not answering \(ETIMEOUT/)
      expect(r.stderr).toMatch(/\(the DNS servers, --dns-server\)/)
      expect(existsSync(out)).toBe(false)
      expect(existsSync(`${out}.journal`)).toBe(true)
      expect(server.total).toBe(0)
      // Once the servers answer, the same command fetches every origin: none was written down as unreachable.
      for (const n of names) {
        mute.silent.delete(n)
        mute.names.set(n, ['127.0.0.1'])
      }
      const again = await run(argv)
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).toMatch(/3 origins fetched in .*: 3 ok;/)
      for (const n of names) expect(store(out).fetchInfo(`http://${n}:${server.port}`)?.outcome).toBe('ok')
    } finally {
      await mute.close()
    }
  }, 60_000)

  it('regression: a resolver that answers NXDOMAIN for every name (the root too) had every site recorded as "no such host"; now it is this machine\'s failure: the run stops, writes nothing, keeps its journal', async () => {
    const lying = await startDnsServer({})
    lying.denyAll = true
    const names = ['n1.test', 'n2.test']
    try {
      const input = file('denied.txt', names.map((n) => `http://${n}:${server.port}/`))
      const out = tmp.path('denied.bundle')
      const r = await run(['fetch', input, '-o', out, '--dns-server', lying.address, '--allow-private', '--give-up-after', '1'])
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/only failures of this machine \(the DNS servers deny every name \(NXDOMAIN for n[12]\.test, and for the root\)/)
      expect(r.stderr).toMatch(/\(the DNS servers, --dns-server\)/)
      expect(existsSync(out)).toBe(false)
      expect(existsSync(`${out}.journal`)).toBe(true)
      // The same resolver answering the root: a name it denies does not exist (the site's dns-error).
      lying.denyAll = false
      const again = await run(['fetch', input, '-o', out, '--dns-server', lying.address, '--allow-private', '--give-up-after', '1'])
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).toMatch(/2 origins fetched in .*: 2 unreachable \(dns-error 2\)/)
    } finally {
      await lying.close()
    }
  })

  it('regression: a run stopped by a resolver that answers SERVFAIL to every question names the DNS servers as the remedy (it suggested --concurrency)', async () => {
    const failing = await startDnsServer({})
    const names = ['s1.test', 's2.test']
    // SERVFAIL to every question, the root's (the probe) included: a forwarder that reaches no upstream.
    for (const n of [...names, '']) failing.servfail.add(n)
    try {
      const input = file('servfail.txt', names.map((n) => `http://${n}:${server.port}/`))
      const out = tmp.path('servfail.bundle')
      const r = await run(['fetch', input, '-o', out, '--dns-server', failing.address, '--allow-private', '--give-up-after', '1'])
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/only failures of this machine .*ESERVFAIL/)
      expect(r.stderr).toMatch(/\(the DNS servers, --dns-server\)/)
      expect(existsSync(out)).toBe(false)
      expect(server.total).toBe(0)
    } finally {
      await failing.close()
    }
  }, 60_000)

  it('regression: --user-agent that cannot be a header value is a usage error (a char past U+00FF passed, and every origin failed on this side)', async () => {
    for (const agent of ['bot\nX-Injected: 1', 'bot/\u4f8b']) {
      const r = await run(['fetch', '-o', tmp.path('ua.bundle'), '--user-agent', agent, '--resolve', `ua.test:${server.port}:127.0.0.1`, '--allow-private'], { input: `http://ua.test:${server.port}/\n` })
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/option '--user-agent' must be a header value/)
      expect(existsSync(tmp.path('ua.bundle'))).toBe(false)
    }
    expect(server.total).toBe(0)
  })

  it('regression: --user-agent of more than 1,024 chars is a usage error on fetch and audit --fetch (the server\'s 431 was written down as the site\'s robots.txt unavailable: allow all)', async () => {
    const long = 'bot/1.0 (+http://127.0.0.1/' + 'x'.repeat(20_000) + ')'
    for (const cmd of [['fetch', '-o', tmp.path('ua-long.bundle')], ['audit', '--fetch', '--crawlers', 'bot', '--save', tmp.path('ua-long.bundle')]]) {
      const r = await run([...cmd, '--user-agent', long, '--resolve', `ua.test:${server.port}:127.0.0.1`, '--allow-private'], { input: `http://ua.test:${server.port}/\n` })
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/option '--user-agent' takes at most 1,024 characters \(got 20028\)/)
      expect(r.stdout.toString()).toBe('')
      expect(existsSync(tmp.path('ua-long.bundle'))).toBe(false)
    }
    expect(server.total).toBe(0)
  })

  it('--dns-server that is not an address is a usage error', async () => {
    const r = await run(['fetch', '-o', tmp.path('x.bundle'), '--dns-server', 'dns.example'], { input: '' })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/option '--dns-server' takes ADDRESS or ADDRESS:PORT/)
    expect(existsSync(tmp.path('x.bundle'))).toBe(false)
  })
})

describe('politeness per server: --per-ip', () => {
  it('at most N requests in flight to one address, whatever the names on it; --concurrency stays the total', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `http://n${i}.shared.test:${slow.port}/`)
    for (const [perIp, expected] of [[undefined, 4], ['2', 2]] as const) {
      slow.reset()
      const out = tmp.path(`per-ip-${perIp ?? 'default'}.bundle`)
      const r = await run(['fetch', file('shared.txt', names), '-o', out, '--concurrency', '32', '--resolve', `*:${slow.port}:127.0.0.1`, ...(perIp ? ['--per-ip', perIp] : [])])
      expect(r.status, r.stderr).toBe(0)
      expect(slow.total).toBe(40)
      expect(slow.peak, `--per-ip ${perIp}`).toBeLessThanOrEqual(expected)
      expect(slow.peak).toBeGreaterThan(1)
    }
  })
})
