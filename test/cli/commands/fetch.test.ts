/**
 * `fetch` through the built CLI, against servers on 127.0.0.1 only (host
 * names mapped there with --resolve): every outcome class in the bundle
 * with the access method's verdicts, fetch → filter --bundle equal to
 * filter --robots-dir, --update (validators sent, rules kept on 304 and
 * when unreachable, unexpired entries untouched, new origins added), an
 * interrupted run keeping what it fetched (SIGINT), --format jsonl read by
 * pack, pack merging bundles, --resolve's rules, usage errors.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore, type StoreFetchInfo } from '../../../src/index.js'
import { startServer, type TestServer } from '../../fetch/server.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'

const RULES = 'User-agent: *\nDisallow: /private\n'
const DAY = 86_400_000

let server: TestServer
let tmp: ReturnType<typeof tempDir>
/** Per host name (the Host header without its port): how the server answers. */
let routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>
/** Hosts asked, in order. */
let asked: string[]

const hostOf = (req: IncomingMessage): string => (req.headers.host ?? '').replace(/:\d+$/, '')
const send = (status: number, body: string | Buffer = '', headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers })
  res.end(body)
}
const url = (host: string, path = '/x') => `http://${host}:${server.port}${path}`
const resolveAll = () => ['--resolve', `*:${server.port}:127.0.0.1`]

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  server = await startServer((req, res) => {
    const host = hostOf(req)
    asked.push(host)
    const route = routes[host]
    if (route) route(req, res)
    else send(404)(req, res)
  })
})
afterAll(async () => {
  await server.close()
  tmp.cleanup()
})
beforeEach(() => {
  routes = {}
  asked = []
})

/** The bundle at `path` as a store. */
const bundle = (path: string): RobotsStore => RobotsStore.fromBytes(readFileSync(path))

describe('fetch: every outcome class ends in the bundle with the access method’s verdicts', () => {
  it('ok, gzip, redirects, 4xx, 5xx, 429, time-outs, resets, short bodies, blocked redirects', async () => {
    const port = () => server.port
    routes = {
      'ok.test': send(200, RULES, { etag: '"e1"', 'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT', 'cache-control': 'max-age=3600' }),
      'gzip.test': send(200, gzipSync(RULES), { 'content-encoding': 'gzip' }),
      'moved.test': send(301, '', { location: `http://ok.test:${port()}/robots.txt` }),
      'loop.test': send(302, '', { location: '/robots.txt' }),
      'private.test': (req, res) => send(301, '', { location: `http://127.0.0.1:${port()}/robots.txt` })(req, res),
      'gone.test': send(410),
      'forbidden.test': send(403),
      'down.test': send(503, 'busy', { 'retry-after': '120' }),
      'limited.test': send(429),
      'slow.test': () => {}, // never answers
      'reset.test': (req) => req.socket.destroy(),
      'short.test': (_req, res) => {
        res.writeHead(200, { 'content-length': '100' })
        res.write('User-agent: *\n')
        setTimeout(() => res.socket?.destroy(), 20)
      },
    }
    const hosts = Object.keys(routes)
    const input = tmp.path('outcomes.txt')
    writeFileSync(input, hosts.map((h) => url(h, '/private/a')).join('\n') + '\n')
    const out = tmp.path('outcomes.bundle')
    const before = Date.now()
    // A deadline that a busy machine still meets for the servers that answer (a local round trip; the wait for a slot is not counted),
    // and that slow.test, which never answers, is waited out to.
    const r = await run(['fetch', input, '-o', out, '--timeout', '2', ...resolveAll()])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/12 origins fetched in [\d.]+ s \([\d,]+\/s\): 3 ok, 4 unavailable, 5 unreachable \(/)
    expect(r.stderr).toMatch(/wrote .*outcomes\.bundle: 12 entries/)
    const store = bundle(out)
    const expected: Record<string, [source: string, outcome: string, status: number | undefined, allowed: boolean]> = {
      'ok.test': ['robots', 'ok', 200, false],
      'gzip.test': ['robots', 'ok', 200, false],
      'moved.test': ['robots', 'ok', 200, false],
      'loop.test': ['unavailable', 'unavailable', 302, true],
      'private.test': ['unavailable', 'unavailable', 301, true],
      'gone.test': ['unavailable', 'unavailable', 410, true],
      'forbidden.test': ['unavailable', 'unavailable', 403, true],
      'down.test': ['unreachable', 'unreachable', 503, false],
      'limited.test': ['unreachable', 'unreachable', 429, false],
      'slow.test': ['unreachable', 'unreachable', undefined, false],
      'reset.test': ['unreachable', 'unreachable', undefined, false],
      'short.test': ['unreachable', 'unreachable', 200, false],
    }
    for (const [host, [source, outcome, status, allowed]] of Object.entries(expected)) {
      const key = `http://${host}:${server.port}`
      expect(store.source(key), host).toBe(source)
      const info = store.fetchInfo(key) as StoreFetchInfo
      expect(info.outcome, host).toBe(outcome)
      expect(info.status, host).toBe(status)
      expect(info.fetchedAt, host).toBeGreaterThanOrEqual(before)
      expect(store.isAllowed(url(host, '/private/a'), 'bot'), host).toBe(allowed)
      expect(store.isAllowed(url(host, '/public'), 'bot'), host).toBe(source !== 'unreachable')
    }
    const ok = store.fetchInfo(`http://ok.test:${server.port}`)!
    expect(ok.etag).toBe('"e1"')
    expect(ok.lastModified).toBe('Tue, 01 Dec 2026 10:00:00 GMT')
    expect(ok.expiresAt - ok.fetchedAt).toBe(3_600_000)
    const down = store.fetchInfo(`http://down.test:${server.port}`)!
    expect(down.expiresAt - down.fetchedAt).toBe(120_000)
    // The blocked redirect to a loopback address was not followed.
    expect(asked.filter((h) => h === '127.0.0.1')).toEqual([])
  })
})

describe('fetch → filter --bundle equals filter --robots-dir on the same bodies', () => {
  it('the corpus sample, served by host name', async () => {
    const dir = join(ROOT, 'corpus/robots')
    for (const host of readdirSync(dir)) routes[host] = send(200, readFileSync(join(dir, host)))
    const urls = readFileSync(join(ROOT, 'corpus/urls.txt'), 'utf8')
      .split('\n')
      .filter((u) => u !== '')
      .map((u) => {
        const x = new URL(u)
        return `http://${x.hostname}:${server.port}${x.pathname}${x.search}`
      })
    const input = tmp.path('corpus-urls.txt')
    writeFileSync(input, urls.join('\n') + '\n')
    const out = tmp.path('corpus.bundle')
    const r = await run(['fetch', input, '-o', out, ...resolveAll(), '-q'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const viaBundle = await run(['filter', '--bundle', out, '--agent', 'Googlebot', '--print', 'verdicts', '-q', input])
    const viaDir = await run(['filter', '--robots-dir', dir, '--agent', 'Googlebot', '--print', 'verdicts', '-q', input])
    expect(viaBundle.status, viaBundle.stderr).toBe(0)
    expect(viaBundle.stdout.toString()).toBe(viaDir.stdout.toString())
    expect(viaBundle.stdout.toString()).toMatch(/^disallowed\t[1-9]/m)
    // Each origin was asked once.
    expect(asked.length).toBe(new Set(urls.map((u) => new URL(u).hostname)).size)
  })

  it('a log of paths with the host in a column: bare-host entries, found by filter --host-field', async () => {
    routes['a.test'] = send(200, RULES)
    const log = ['a.test:80 "GET /private/1 HTTP/1.1" 200', `a.test:${'80'} "GET /open HTTP/1.1" 200`, 'b.test:80 "GET /private/2 HTTP/1.1" 200'].join('\n') + '\n'
    writeFileSync(tmp.path('access.log'), log)
    const out = tmp.path('log.bundle')
    const r = await run(['fetch', '--field', '2', '--host-field', '1', tmp.path('access.log'), '-o', out, '--connect-to', `::127.0.0.1:${server.port}`])
    expect(r.status, r.stderr).toBe(0)
    expect([...bundle(out).keys()].sort()).toEqual(['a.test', 'b.test'])
    expect(bundle(out).fetchInfo('a.test')?.origin).toBe('http://a.test')
    const f = await run(['filter', '--bundle', out, '--agent', 'bot', '--field', '2', '--host-field', '1', '--print', 'disallowed', '-q', tmp.path('access.log')])
    expect(f.stdout.toString()).toBe('a.test:80 "GET /private/1 HTTP/1.1" 200\n')
  })
  it('regression: a list of hosts, one a line, found no origin (exit 4, "is this a log?"); each line is now its host, keyed bare, as audit --fetch reads a list', async () => {
    routes['a.test'] = send(200, RULES)
    routes['xn--bcher-kva.test'] = send(200, 'User-agent: *\nDisallow: /\n')
    const list = tmp.path('hosts.txt')
    writeFileSync(list, ['a.test', ' B.test:80 ', '-', 'Bücher.test', 'http://c.test/x', 'a.test'].join('\n') + '\n')
    const out = tmp.path('hosts.bundle')
    const r = await run(['fetch', list, '-o', out, '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`])
    expect(r.status, r.stderr).toBe(0)
    expect([...bundle(out).keys()].sort()).toEqual(['a.test', 'b.test', 'http://c.test', 'xn--bcher-kva.test'])
    expect(bundle(out).fetchInfo('a.test')?.origin).toBe('http://a.test')
    expect(r.stderr).toMatch(/line 3 of '.*hosts\.txt' was not judged: .*; 1 line without a URL or host give no origin/)
    const f = await run(['filter', '--bundle', out, '--agent', 'bot', '--print', 'verdicts', '-q'], { input: 'https://a.test/private\nhttp://bücher.test/x\nhttps://b.test/private\n' })
    expect(f.stdout.toString()).toBe('disallowed\t2\thttps://a.test/private\ndisallowed\t2\thttp://bücher.test/x\nallowed\t0\thttps://b.test/private\n')
  })
})

describe('fetch --update', () => {
  it('sends the validators, keeps the rules on 304 and when unreachable, leaves unexpired entries, adds new origins', async () => {
    const revalidate = (etag: string) => (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers['if-none-match'] === etag) send(304, '', { etag })(req, res)
      else send(200, RULES, { etag })(req, res)
    }
    routes = { 'same.test': revalidate('"s1"'), 'flaky.test': send(200, RULES, { etag: '"f1"' }), 'fresh.test': send(200, RULES), 'changed.test': send(200, RULES, { etag: '"c1"' }) }
    const input = tmp.path('update.txt')
    writeFileSync(input, ['same.test', 'flaky.test', 'fresh.test', 'changed.test'].map((h) => url(h)).join('\n') + '\n')
    const first = tmp.path('first.bundle')
    expect((await run(['fetch', input, '-o', first, ...resolveAll(), '-q'])).status).toBe(0)
    // A day later: every entry but fresh.test has expired (the test rewrites their expiry).
    const old = bundle(first)
    const aged = new RobotsStore()
    for (const key of old.keys()) {
      const info = old.fetchInfo(key)!
      const expiresAt = key.includes('fresh.test') ? Date.now() + DAY : Date.now() - 1
      aged.setRobots(key, old.get(key)!, { ...info, expiresAt })
    }
    const agedPath = tmp.path('aged.bundle')
    writeFileSync(agedPath, aged.toBytes())
    // filter --bundle warns once, with the count of expired entries it used (one line each: three expired hosts, used twice).
    const used = await run(['filter', '--bundle', agedPath, '--agent', 'bot', input, input])
    expect(used.status, used.stderr).toBe(0)
    expect(used.stderr.match(/expired/g)).toHaveLength(1)
    expect(used.stderr).toMatch(/warning: 3 hosts judged by expired entries of '.*aged\.bundle' \(the oldest fetched \d+ seconds? ago\); refresh them with 'robots-automaton fetch --update /)
    expect((await run(['filter', '--bundle', first, '--agent', 'bot', input])).stderr).not.toMatch(/expired/)
    routes['flaky.test'] = send(503)
    routes['changed.test'] = send(200, 'User-agent: *\nDisallow: /\n', { etag: '"c2"' })
    routes['new.test'] = send(404)
    asked = []
    const seen: Record<string, string | undefined> = {}
    const inner = server.handler
    server.handler = (req, res) => {
      seen[hostOf(req)] = req.headers['if-none-match'] as string | undefined
      inner(req, res)
    }
    writeFileSync(input, readFileSync(input, 'utf8') + url('new.test') + '\n')
    const next = tmp.path('next.bundle')
    const r = await run(['fetch', '--update', agedPath, input, '-o', next, ...resolveAll()])
    server.handler = inner
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/4 origins fetched in .*: 1 ok, 1 not modified, 1 unavailable, 1 unreachable \(server-error 1; 1 kept its earlier rules\); 1 kept \(not expired\)/)
    expect(seen).toEqual({ 'same.test': '"s1"', 'flaky.test': '"f1"', 'changed.test': '"c1"', 'new.test': undefined })
    expect(asked).not.toContain('fresh.test')
    const s = bundle(next)
    const info = (h: string) => s.fetchInfo(`http://${h}:${server.port}`)!
    expect(info('same.test')).toMatchObject({ outcome: 'not-modified', status: 304, etag: '"s1"' })
    expect(info('same.test').expiresAt).toBeGreaterThan(Date.now())
    expect(s.isAllowed(url('same.test', '/private/x'), 'bot')).toBe(false)
    expect(info('flaky.test')).toMatchObject({ outcome: 'unreachable', status: 503, etag: '"f1"', reachableAt: old.fetchInfo(`http://flaky.test:${server.port}`)!.reachableAt })
    expect(s.source(`http://flaky.test:${server.port}`)).toBe('robots')
    expect(s.isAllowed(url('flaky.test', '/public'), 'bot')).toBe(true)
    expect(s.isAllowed(url('flaky.test', '/private/x'), 'bot')).toBe(false)
    expect(info('fresh.test')).toEqual(aged.fetchInfo(`http://fresh.test:${server.port}`))
    expect(info('changed.test')).toMatchObject({ outcome: 'ok', etag: '"c2"' })
    expect(s.isAllowed(url('changed.test', '/public'), 'bot')).toBe(false)
    expect(s.source(`http://new.test:${server.port}`)).toBe('unavailable')
    // Without FILE, the bundle alone: nothing is due now.
    asked = []
    const again = await run(['fetch', '--update', next, '-o', tmp.path('again.bundle'), ...resolveAll()])
    expect(again.status, again.stderr).toBe(0)
    expect(asked.filter((h) => h !== 'flaky.test')).toEqual([])
    expect(again.stderr).toMatch(/kept \(not expired\)/)
  })
})

describe('fetch: nothing fetched is lost on interruption', () => {
  it('SIGINT mid-run writes the origins fetched so far (exit 130); --update goes on from them', async () => {
    const hosts = Array.from({ length: 60 }, (_, i) => `h${i}.test`)
    let answered = 0
    const held: ServerResponse[] = []
    // The first 30 answer at once; the rest hang until released, so the run is surely mid-way.
    for (const h of hosts) {
      routes[h] = (_req, res) => {
        if (answered < 30) {
          answered++
          send(200, RULES)(_req, res)
        } else held.push(res)
      }
    }
    const input = tmp.path('many.txt')
    writeFileSync(input, hosts.map((h) => url(h)).join('\n') + '\n')
    const out = tmp.path('partial.bundle')
    const child = spawn(process.execPath, [CLI, 'fetch', input, '-o', out, '--concurrency', '4', ...resolveAll()], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // Wait (however slow the machine) until 30 were answered and 4 are held.
    for (let waited = 0; held.length < 4; waited += 20) {
      if (waited > 30_000) throw new Error(`the run did not get going: ${stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    child.kill('SIGINT')
    const status = await exited
    for (const res of held) res.destroy()
    expect(status, stderr).toBe(130)
    expect(stderr).toMatch(/interrupted: 30 of 60 origins fetched/)
    // The hint repeats the command as given, its input options included.
    expect(stderr).toContain(`run the same command again to fetch the rest: robots-automaton fetch ${input} -o ${out} --concurrency 4 --resolve '*:${server.port}:127.0.0.1'`)
    const partial = bundle(out)
    expect(partial.size).toBe(30)
    for (const key of partial.keys()) expect(partial.fetchInfo(key)?.outcome).toBe('ok')
    expect(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    // Go on: the 30 fetched are kept, the other 30 fetched now.
    for (const h of hosts) routes[h] = send(200, RULES)
    asked = []
    const rest = await run(['fetch', '--update', out, input, '-o', tmp.path('full.bundle'), ...resolveAll()])
    expect(rest.status, rest.stderr).toBe(0)
    expect(asked.length).toBe(30)
    expect(asked.some((h) => partial.has(url(h)))).toBe(false)
    expect(bundle(tmp.path('full.bundle')).size).toBe(60)
  })
})

describe('fetch on SIGHUP (a closed terminal)', () => {
  it('regression: fetch on SIGHUP (a closed terminal) died at once, its output not written; now it winds down as on SIGTERM (output written, journal kept) and a run again goes on', async () => {
    const hosts = Array.from({ length: 8 }, (_, i) => `hup${i}.test`)
    let answered = 0
    const held: ServerResponse[] = []
    for (const h of hosts) {
      routes[h] = (_req, res) => {
        if (answered < 4) {
          answered++
          send(200, RULES)(_req, res)
        } else held.push(res)
      }
    }
    const input = tmp.path('hup.txt')
    writeFileSync(input, hosts.map((h) => url(h)).join('\n') + '\n')
    const out = tmp.path('hup.bundle')
    const argv = ['fetch', input, '-o', out, '--concurrency', '2', ...resolveAll()]
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)))
    for (let waited = 0; held.length < 2; waited += 20) {
      if (waited > 30_000) throw new Error(`the run did not get going: ${stderr}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    child.kill('SIGHUP')
    const status = await exited
    for (const res of held) res.destroy()
    // Ended by SIGHUP itself once wound down (a shell says 129).
    expect(status, stderr).toBe('SIGHUP')
    expect(stderr).toMatch(/interrupted: 4 of 8 origins fetched/)
    expect(stderr).toContain('run the same command again to fetch the rest')
    expect(bundle(out).size).toBe(4)
    for (const h of hosts) routes[h] = send(200, RULES)
    asked = []
    const rest = await run(argv)
    expect(rest.status, rest.stderr).toBe(0)
    expect(asked.length).toBe(4)
    expect(bundle(out).size).toBe(8)
  })
})

describe('fetch -o -: its spool folder', () => {
  it('regression: a second signal on fetch -o - left its spool folder in the temporary folder; now every way out removes it', async () => {
    const hosts = Array.from({ length: 8 }, (_, i) => `spool${i}.test`)
    const held: ServerResponse[] = []
    for (const h of hosts) routes[h] = (_req, res) => void held.push(res)
    const input = tmp.path('spool.txt')
    writeFileSync(input, hosts.map((h) => url(h)).join('\n') + '\n')
    const temp = tmp.path('temp-of-run')
    mkdirSync(temp)
    // A FIFO nobody reads is streamed as stdout is (through the spool), and holds the run once it writes there.
    const fifo = tmp.path('out.fifo')
    execFileSync('mkfifo', [fifo])
    const child = spawn(process.execPath, [CLI, 'fetch', input, '-o', fifo, '--concurrency', '2', ...resolveAll()], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, TMPDIR: temp },
    })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)))
    const until = async (what: string, ok: () => boolean): Promise<void> => {
      for (let waited = 0; !ok(); waited += 20) {
        if (waited > 30_000) throw new Error(`${what}: ${stderr}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    // Mid-run (however slow the machine): the spool is made and fetches are held.
    await until('the run did not get going', () => held.length >= 2)
    expect(readdirSync(temp)).toHaveLength(1)
    // The first signal: the run winds down and writes its bundle (a folder of its own) for the FIFO.
    child.kill('SIGTERM')
    await until('the run did not wind down', () => readdirSync(temp).length === 2)
    // The second one, while it waits on the FIFO.
    child.kill('SIGINT')
    const status = await exited
    for (const res of held) res.destroy()
    expect(['SIGINT', 130], `${String(status)} ${stderr}`).toContain(status)
    // Neither the spool nor the bundle's folder is left behind.
    expect(readdirSync(temp)).toEqual([])
  })
})

describe('fetch --format jsonl, and pack', () => {
  it('one record per origin, which pack makes into the same bundle', async () => {
    routes = { 'a.test': send(200, RULES, { etag: '"a"' }), 'b.test': send(404), 'c.test': send(500) }
    const input = tmp.path('jsonl.txt')
    writeFileSync(input, ['a.test', 'b.test', 'c.test'].map((h) => url(h)).join('\n') + '\n')
    const jsonl = tmp.path('out.jsonl')
    const r = await run(['fetch', input, '--format', 'jsonl', '-o', jsonl, ...resolveAll()])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/wrote 3 records to /)
    const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const a = records.find((x) => x.origin === `http://a.test:${server.port}`)!
    expect(a).toMatchObject({ url: `http://a.test:${server.port}/robots.txt`, outcome: 'ok', reason: 'success', status: 200, entry: 'robots', bytes: RULES.length, etag: '"a"' })
    expect(typeof a.ms).toBe('number')
    expect(a.fetched_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(typeof a.rules_base64).toBe('string')
    expect(records.find((x) => x.origin === `http://b.test:${server.port}`)).toMatchObject({ outcome: 'unavailable', status: 404, entry: 'unavailable', bytes: 0 })
    expect(records.find((x) => x.origin === `http://c.test:${server.port}`)).toMatchObject({ outcome: 'unreachable', status: 500, reason: 'server-error', entry: 'unreachable' })
    const packed = tmp.path('from-jsonl.bundle')
    const p = await run(['pack', jsonl, '-o', packed, '-q'])
    expect(p.status, p.stderr).toBe(0)
    const fetched = tmp.path('direct.bundle')
    expect((await run(['fetch', input, '-o', fetched, ...resolveAll(), '-q'])).status).toBe(0)
    const x = bundle(packed)
    const y = bundle(fetched)
    expect([...x.keys()].sort()).toEqual([...y.keys()].sort())
    for (const key of x.keys()) {
      expect(x.source(key)).toBe(y.source(key))
      expect(x.fetchInfo(key)?.outcome).toBe(y.fetchInfo(key)?.outcome)
      expect(x.isAllowed(`${key}/private`, 'bot')).toBe(y.isAllowed(`${key}/private`, 'bot'))
    }
  })

  it('pack merges bundles: the newest fetch wins per origin, an entry without fetch info counts as oldest', async () => {
    const info = (at: number): StoreFetchInfo => ({ outcome: 'ok', status: 200, fetchedAt: at, expiresAt: at + DAY, reachableAt: at })
    const a = new RobotsStore()
    a.set('https://one.test', 'User-agent: *\nDisallow: /a\n', info(2000))
    a.set('https://two.test', 'User-agent: *\nDisallow: /a\n', info(1000))
    a.set('three.test', 'User-agent: *\nDisallow: /a\n')
    const b = new RobotsStore()
    b.set('https://one.test', 'User-agent: *\nDisallow: /b\n', info(1000))
    b.set('https://two.test', 'User-agent: *\nDisallow: /b\n', info(3000))
    b.setOutcome('three.test', 'unreachable', { outcome: 'unreachable', fetchedAt: 5, expiresAt: 6, reachableAt: 5 })
    b.setOutcome('four.test', 'unavailable')
    writeFileSync(tmp.path('a.bundle'), a.toBytes())
    writeFileSync(tmp.path('b.bundle'), b.toBytes())
    const merged = tmp.path('merged.bundle')
    const r = await run(['pack', tmp.path('a.bundle'), tmp.path('b.bundle'), '-o', merged])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/4 hosts packed into .*: 2 robots\.txt, 2 fetch outcomes; .*; 3 keys given more than once \(the newest fetch kept, else the last\)/)
    const m = bundle(merged)
    expect(m.isAllowed('https://one.test/a', 'bot')).toBe(false)
    expect(m.fetchInfo('https://one.test')?.fetchedAt).toBe(2000)
    expect(m.isAllowed('https://two.test/b', 'bot')).toBe(false)
    expect(m.isAllowed('https://two.test/a', 'bot')).toBe(true)
    expect(m.source('three.test')).toBe('unreachable')
    expect(m.source('four.test')).toBe('unavailable')
    // The order of the inputs does not matter where fetch times differ.
    expect((await run(['pack', tmp.path('b.bundle'), tmp.path('a.bundle'), '-o', tmp.path('merged2.bundle'), '-q'])).status).toBe(0)
    const n = bundle(tmp.path('merged2.bundle'))
    for (const key of m.keys()) expect(n.fetchInfo(key)).toEqual(m.fetchInfo(key))
  })
})

describe('fetch --resolve', () => {
  it('a named host before *, several addresses in turn; the mapped address is not refused, a redirect to a literal loopback one is', async () => {
    routes = {
      'a.test': send(200, RULES),
      'b.test': send(200, RULES),
      'to-b.test': send(301, '', { location: `http://b.test:${server.port}/robots.txt` }),
      'to-loopback.test': (req, res) => send(301, '', { location: `http://127.0.0.1:${server.port}/robots.txt` })(req, res),
    }
    const input = tmp.path('resolve.txt')
    writeFileSync(input, ['a.test', 'b.test', 'c.test', 'to-b.test', 'to-loopback.test'].map((h) => url(h)).join('\n') + '\n')
    const out = tmp.path('resolve.bundle')
    const p = server.port
    // * goes to 127.0.0.2, where nothing listens; the named hosts to 127.0.0.1 (b.test: after a refused 127.0.0.2).
    const r = await run([
      'fetch', input, '-o', out, '-q',
      '--resolve', `*:${p}:127.0.0.2`,
      '--resolve', `a.test:${p}:127.0.0.1`,
      '--resolve', `b.test:${p}:127.0.0.2,127.0.0.1`,
      '--resolve', `to-b.test:${p}:127.0.0.1`,
      '--resolve', `to-loopback.test:${p}:127.0.0.1`,
    ])
    expect(r.status, r.stderr).toBe(0)
    const s = bundle(out)
    const source = (h: string) => s.source(`http://${h}:${p}`)
    expect(source('a.test')).toBe('robots')
    expect(source('b.test')).toBe('robots')
    expect(source('c.test')).toBe('unreachable')
    expect(s.fetchInfo(`http://c.test:${p}`)?.status).toBeUndefined()
    expect(source('to-b.test')).toBe('robots')
    expect(source('to-loopback.test')).toBe('unavailable')
    expect(asked.filter((h) => h === '127.0.0.1')).toEqual([])
  })
})

describe('fetch: the progress bar', () => {
  it('origins done of the total and the unreachable ones so far, erased before the summary', async () => {
    routes = { 'a.test': send(200, RULES), 'b.test': send(503) }
    const input = tmp.path('progress.txt')
    writeFileSync(input, [url('a.test'), url('b.test')].join('\n') + '\n')
    const r = await run(['fetch', input, '-o', tmp.path('progress.bundle'), ...resolveAll()], { env: { ...process.env, ROBOTS_AUTOMATON_PROGRESS: '1' } })
    expect(r.status, r.stderr).toBe(0)
    // The last frame (at the total) is drawn, then erased; the summary is a line of its own.
    expect(r.stderr).toMatch(/\r100% \[#{20}\] 2 \/ 2 origins {2}1 unreachable/)
    expect(r.stderr).toMatch(/\r\x1b\[Krobots-automaton: 2 origins fetched/)
  })
})

describe('fetch: usage and input errors', () => {
  it('names what is wrong', async () => {
    const cases: Array<[string[], RegExp, number]> = [
      [['fetch', 'x.txt'], /option '--output' \('-o'\) is required/, 2],
      [['fetch', '-o', 'x', '--resolve', 'a.test:80'], /option '--resolve' takes HOST:PORT:ADDRESS/, 2],
      [['fetch', '-o', 'x', '--concurrency', '0'], /'--concurrency' must be an integer from 1 to 65536/, 2],
      [['fetch', '-o', 'x', '--timeout', '-1'], /option '--timeout' needs a value|'--timeout' must be a number of seconds/, 2],
      [['fetch', '-o', 'x', '--host-field', '1'], /'--host-field' needs '--field'/, 2],
      [['fetch', '-o', 'x', '--update', tmp.path('missing.bundle')], /cannot read bundle '.*missing\.bundle'/, 1],
      [['fetch', '-o', 'x', tmp.path('missing.txt')], /cannot read input file/, 1],
    ]
    for (const [args, message, status] of cases) {
      const r = await run(args, { cwd: tmp.dir })
      expect(r.status, args.join(' ')).toBe(status)
      expect(r.stderr, args.join(' ')).toMatch(message)
    }
    expect(existsSync(join(tmp.dir, 'x'))).toBe(false)
  })

  it('a log read without --log-format: no host on any line is exit 4, with the note and hint of filter, nothing written', async () => {
    const log = '192.0.2.1 - - [23/Nov/2026:10:00:00 +0000] "GET /private HTTP/1.1" 200 512\n'
    const r = await run(['fetch', '-o', tmp.path('never.bundle')], { input: log })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/warning: line 1 of '<stdin>' was not judged: it holds no URL .*; is this a log\? try --log-format common; 1 line without a URL or host give no origin \(not-url 1\)/)
    expect(r.stderr).toMatch(/no line of the input held a URL with a host \(1 line read\)/)
    expect(existsSync(tmp.path('never.bundle'))).toBe(false)
  })
})

describe("regression: fetch's input options contradicted each other ('--host-field' needs '--field' or '--log-format', which refuses '--host-field')", () => {
  it('--host-field alone names --field only; beside --log-format it is refused as filter refuses it; nothing is written', async () => {
    const alone = await run(['fetch', '-o', 'x', '--host-field', '1'], { cwd: tmp.dir })
    expect(alone.status).toBe(2)
    expect(alone.stderr).toMatch(/fetch: '--host-field' needs '--field' \(the URL column\) \(see 'robots-automaton fetch --help'\)\n$/)
    expect(alone.stderr).not.toMatch(/log-format/)
    const beside = await run(['fetch', '-o', 'x', '--log-format', 'vhost_combined', '--host-field', '1'], { cwd: tmp.dir })
    expect(beside.status).toBe(2)
    expect(beside.stderr).toMatch(/fetch: '--log-format' sets the columns: give it without '--field' and '--host-field'/)
    expect(existsSync(join(tmp.dir, 'x'))).toBe(false)
  })

  it('a combined log\'s paths without a host: the hint names --host or vhost_combined, never --host-field', async () => {
    const log = '192.0.2.1 - - [23/Nov/2026:10:00:00 +0000] "GET /private HTTP/1.1" 200 512 "-" "-"\n'
    const r = await run(['fetch', '-o', tmp.path('never2.bundle'), '--log-format', 'combined'], { input: log })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/its URL is a path, and per-host rules need its host: .*; give the host: --host HOST, or --log-format vhost_combined for a log that writes it first;/)
    expect(r.stderr).not.toMatch(/--host-field/)
    expect(existsSync(tmp.path('never2.bundle'))).toBe(false)
  })
})
