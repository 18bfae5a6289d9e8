/**
 * A ROBOTS that is an http(s) URL, in `check`, `lint`, `filter` and `diff`:
 * one that cannot be fetched (unreachable, or its address refused) is said
 * and exits 1 (the finding: `lint URL` of a site that is down linted the
 * disallow-all stand-in and exited 0, so a CI check passed), unless
 * `--stand-in` asks for RFC 9309's stand-in rules; `--resolve` and
 * `--connect-to` route it, as for `fetch`; a staging server's certificate
 * is trusted with NODE_EXTRA_CA_CERTS (docs/fetching.md). And: the age in
 * filter's expired-entries warning is rounded honestly. Servers on
 * 127.0.0.1 only; every name is routed.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpsServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { run, tempDir } from '../helpers.js'
import { withFetchServer, type FetchServer } from '../fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
const RULES = 'User-agent: *\nDisallow: /private\n'

withFetchServer((s, t) => {
  server = s
  tmp = t
})
beforeEach(() => {
  server.handler = (host, _req, res) => {
    if (host === 'down.test' || host === 'missing.test') {
      res.writeHead(host === 'down.test' ? 503 : 404)
      return res.end()
    }
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(host === 'bad.test' ? 'Disalow: /x\n' : RULES)
  }
})

const route = () => ['--resolve', `*:${server.port}:127.0.0.1`]
const at = (host: string) => `http://${host}:${server.port}/`

describe('a ROBOTS URL that cannot be fetched exits 1 unless --stand-in', () => {
  // lint URL of an unreachable robots.txt linted the disallow-all stand-in and exited 0.
  it('lint, check, filter and diff say so and exit 1; nothing is judged', async () => {
    const cases: string[][] = [
      ['lint', at('down.test')],
      ['check', at('down.test'), '--agent', 'bot', '/x'],
      ['filter', '--robots', at('down.test'), '--agent', 'bot'],
      ['diff', at('down.test'), at('up.test'), '--agent', 'bot'],
    ]
    for (const argv of cases) {
      const r = await run([...argv, ...route()], { input: '/x\n' })
      expect(r.status, argv.join(' ')).toBe(1)
      expect(r.stderr, argv.join(' ')).toMatch(/cannot fetch robots\.txt for 'http:\/\/down\.test:\d+\/': unreachable, disallow all: HTTP 503 .*; pass --stand-in to judge by RFC 9309's stand-in \(disallow all\) instead/)
      expect(r.stdout.toString(), argv.join(' ')).toBe('')
    }
  })

  it('--stand-in judges by disallow-all, as RFC 9309 says, and says so', async () => {
    const c = await run(['check', at('down.test'), '--agent', 'bot', '--stand-in', '/x', ...route()])
    expect(c.status, c.stderr).toBe(0)
    expect(c.stdout.toString()).toBe('disallowed\t/x\timplied: Disallow: / (robots.txt unreachable)\n')
    expect(c.stderr).toMatch(/unreachable, disallow all: HTTP 503/)
    const l = await run(['lint', at('down.test'), '--stand-in', ...route()])
    expect(l.status, l.stderr).toBe(0)
    const f = await run(['filter', '--robots', at('down.test'), '--agent', 'bot', '--stand-in', '--print', 'verdicts', ...route()], { input: '/x\n' })
    expect(f.status, f.stderr).toBe(0)
    expect(f.stdout.toString()).toBe('disallowed\t0\t/x\n')
  })

  it('a ROBOTS URL the user typed is fetched wherever its name points (the user’s choice); a 404 is no robots.txt, allow all', async () => {
    const c = await run(['check', at('missing.test'), '--agent', 'bot', '/x', ...route()])
    expect(c.status, c.stderr).toBe(0)
    expect(c.stdout.toString()).toBe('allowed\t/x\tno matching rule\n')
    expect(c.stderr).toMatch(/unavailable, allow all: HTTP 404/)
  })
})

describe('regression: a ROBOTS URL that names no site', () => {
  // 'http://xn--a.com/' failed as "cannot fetch robots.txt … Invalid URL", exit 1, as if the site had failed.
  it('a ROBOTS URL whose host the URL parser refuses (or whose port is none) is a usage error saying why, before any request', async () => {
    server.reset()
    const hosts: [string, RegExp][] = [
      ['xn--a.com', /the host "xn--a\.com" is refused: it is not a valid international domain name/],
      ['a%20b.test', /the host "a%20b\.test" is refused: it holds a space/],
      ['[fe80::1%25eth0]', /the host "\[fe80::1%25eth0\]" is refused: it is not a valid IPv6 address/],
      ['up.test:99999', /its port is not a number from 0 to 65535/],
    ]
    for (const [host, why] of hosts) {
      const url = `http://${host}/`
      for (const argv of [['lint', url], ['check', url, '--agent', 'bot', '/x'], ['filter', '--robots', url, '--agent', 'bot'], ['diff', url, at('up.test'), '--agent', 'bot']]) {
        const r = await run([...argv, ...route()], { input: '/x\n' })
        expect(r.status, argv.join(' ')).toBe(2)
        expect(r.stderr, argv.join(' ')).toContain(`ROBOTS '${url}' cannot be fetched: it names no site: `)
        expect(r.stderr, argv.join(' ')).toMatch(why)
        expect(r.stdout.toString()).toBe('')
      }
    }
    // Only diff's other side, up.test, was asked for.
    expect([...server.asked.keys()].filter((h) => h !== 'up.test')).toEqual([])
  })
})

describe('URLs of another origin than a ROBOTS URL', () => {
  // check https://a/ http://b/x judged b's URL by a's robots.txt, exit 0, no word said.
  it('regression: a URL of another site judged by a fetched robots.txt was not named: check, filter and diff judge it all the same, warn about the first and count them', async () => {
    const other = ['http://other.test/private/1', `https://up.test:${server.port}/private/2`, `//x:${server.port}/private/3`, 'mailto:a@up.test']
    const own = [`http://UP.test:${server.port}/private/4`, '/private/5', `//up.test:${server.port}/private/6`, 'private/7']
    const urls = [own[0], other[0], own[1], other[1], own[2], other[2], own[3], other[3]]
    const warning = `warning: 'http://other.test/private/1' is not of http://up.test:${server.port}, whose robots.txt judges it all the same`
    const c = await run(['check', at('up.test'), '--agent', 'bot', ...route(), ...urls.slice(0, 4), '-'], { input: urls.slice(4).join('\n') + '\n' })
    expect(c.status, c.stderr).toBe(0)
    // Judged all the same, in their places: the reference judges any string.
    expect(c.stdout.toString().split('\n').map((l) => l.split('\t')[0])).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'allowed', 'allowed', ''])
    expect(c.stderr).toContain(warning)
    expect(c.stderr.split(' is not of ')).toHaveLength(2)
    expect(c.stderr).toMatch(new RegExp(`8 URLs checked \\(4 of another origin than http://up\\.test:${server.port}\\): 2 allowed, 6 disallowed`))
    const file = tmp.path('origins.txt')
    writeFileSync(file, urls.join('\n') + '\n')
    for (const jobs of ['1', '2']) {
      const f = await run(['filter', '--robots', at('up.test'), '--agent', 'bot', '--jobs', jobs, '--print', 'verdicts', file, ...route()])
      expect(f.status, f.stderr).toBe(0)
      // filter reads no URL in the last two (a relative path, mailto:), and judges no such line.
      expect(f.stdout.toString().split('\n').map((l) => l.split('\t')[0])).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'invalid', 'invalid', ''])
      expect(f.stderr).toContain(warning)
      expect(f.stderr).toMatch(new RegExp(`; 3 URLs of another origin than http://up\\.test:${server.port}\\n`))
    }
    // OLD a file with no rules, NEW the site's: its own URLs are the ones to compare.
    const d = await run(['diff', writeRules(tmp.path('none.txt')), at('up.test'), '--agent', 'bot', file, ...route()])
    expect(d.status, d.stderr).toBe(3)
    expect(d.stderr).toContain(warning)
    expect(d.stderr).toMatch(/6 URLs compared \(3 of another origin than http:\/\/up\.test:\d+\): 6 now disallowed/)
    // A log of one site: its paths (`//x/…` too, a request's target) are --host's, which must be the origin's.
    const log = tmp.path('access.log')
    writeFileSync(log, ['"GET /private/8 HTTP/1.1" 200', '"GET //x/private/9 HTTP/1.1" 200'].map((r) => `1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] ${r} 1 "-" "-"\n`).join(''))
    const logRun = (host: string) => run(['filter', '--robots', at('up.test'), '--agent', 'bot', '--log-format', 'common', '--host', host, '--print', 'verdicts', log, ...route()])
    const [ownHost, otherHost] = await Promise.all([logRun('UP.test'), logRun(`up.test:${server.port + 1}`)])
    expect(ownHost.stderr).not.toContain('another origin')
    expect(ownHost.stdout.toString()).toMatch(/^disallowed\t2\t.*\nallowed\t0\t/)
    expect(otherHost.stderr).toContain(`warning: --host 'up.test:${server.port + 1}' is not of http://up.test:${server.port}, whose robots.txt judges its paths all the same`)
    expect(otherHost.stderr).toMatch(/; 2 URLs of another origin than http:\/\/up\.test:\d+\n/)
    // An empty authority: the host comes after the slashes, for each URL anew.
    const slashes = await run(['check', at('up.test'), '--agent', 'bot', `http:///up.test:${server.port}/private/x`, 'http:///other.test/private/y', ...route()])
    expect(slashes.stderr).toMatch(/2 URLs checked \(1 of another origin than http:\/\/up\.test:\d+\)/)
    // A file, two sites compared with each other, or --quiet: nothing said.
    const quiet = await Promise.all([
      run(['check', writeRules(tmp.path('rules.txt')), '--agent', 'bot', other[0]]),
      run(['diff', at('up.test'), at('bad.test'), '--agent', 'bot', file, ...route()]),
      run(['check', at('up.test'), '--agent', 'bot', '-q', other[0], ...route()]),
    ])
    for (const r of quiet) expect(r.stderr).not.toContain('another origin')
  })
})

/** An empty robots.txt at `path`; the path. */
function writeRules(path: string): string {
  writeFileSync(path, '')
  return path
}

describe('--resolve and --connect-to on every command that fetches', () => {
  it('check, lint, filter and diff route a name where the user says', async () => {
    const r1 = await run(['check', at('up.test'), '--agent', 'bot', '/private/x', '-q', ...route()])
    expect(r1.status, r1.stderr).toBe(0)
    expect(r1.stdout.toString()).toBe('disallowed\t/private/x\tline 2: Disallow: /private\n')
    const r2 = await run(['lint', at('bad.test'), '--connect-to', `bad.test:${server.port}:127.0.0.1:${server.port}`])
    expect(r2.status).toBe(1)
    expect(r2.stdout.toString()).toMatch(/bad\.test:\d+\/robots\.txt:1: /)
    const r3 = await run(['filter', '--robots', at('up.test'), '--agent', 'bot', '-q', ...route()], { input: '/private/a\n/public\n' })
    expect(r3.stdout.toString()).toBe('/public\n')
    const r4 = await run(['diff', at('up.test'), at('bad.test'), '--agent', 'bot', '-q', ...route()], { input: '/private/a\n' })
    expect(r4.status).toBe(3)
    expect([...server.asked.keys()].sort()).toEqual(['bad.test', 'up.test'])
  })

  it('a malformed --resolve, --connect-to or --dns-server is a usage error', async () => {
    for (const [option, value] of [['--resolve', 'a.test:80'], ['--connect-to', 'a:b'], ['--dns-server', 'ns.example']]) {
      const r = await run(['check', at('up.test'), '--agent', 'bot', option, value, '/x'])
      expect(r.status, option).toBe(2)
      expect(r.stderr, option).toMatch(new RegExp(`option '${option}'`))
    }
  })
})

const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0

describe.skipIf(!HAS_OPENSSL)('a staging server over https: routed with --resolve, trusted with NODE_EXTRA_CA_CERTS', () => {
  let https: Server
  let port = 0
  let cert = ''
  beforeAll(async () => {
    const key = tmp.path('staging.key')
    cert = tmp.path('staging.pem')
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=staging.test', '-addext', 'subjectAltName=DNS:staging.test'])
    expect(made.status, made.stderr.toString()).toBe(0)
    https = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(RULES)
    })
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve))
    port = (https.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => https.close(() => resolve())))

  it('without the CA the certificate is refused (a TLS error, exit 1); with it, check and fetch work', async () => {
    const url = `https://staging.test:${port}/`
    const resolve = ['--resolve', `staging.test:${port}:127.0.0.1`]
    const env = { ...process.env }
    delete env.NODE_EXTRA_CA_CERTS
    const untrusted = await run(['check', url, '--agent', 'bot', '/private/x', ...resolve], { env })
    expect(untrusted.status).toBe(1)
    expect(untrusted.stderr).toMatch(/tls error/)
    const trusted = await run(['check', url, '--agent', 'bot', '/private/x', '-q', ...resolve], { env: { ...env, NODE_EXTRA_CA_CERTS: cert } })
    expect(trusted.status, trusted.stderr).toBe(0)
    expect(trusted.stdout.toString()).toMatch(/^disallowed\t/)
    const input = tmp.path('staging.txt')
    writeFileSync(input, `${url}page\n`)
    const out = tmp.path('staging.bundle')
    const f = await run(['fetch', input, '-o', out, ...resolve], { env: { ...env, NODE_EXTRA_CA_CERTS: cert } })
    expect(f.status, f.stderr).toBe(0)
    expect(RobotsStore.fromBytes(readFileSync(out)).fetchInfo(`https://staging.test:${port}`)?.outcome).toBe('ok')
  })
})

describe('ages in warnings are rounded honestly', () => {
  // The expired-entries warning said "fetched 1 hour ago" for entries fetched 90 s ago.
  it('an entry fetched 90 seconds ago is "90 seconds" old, not "1 hour"', async () => {
    const s = new RobotsStore()
    const now = Date.now()
    s.set('old.test', RULES, { outcome: 'ok', status: 200, fetchedAt: now - 90_000, expiresAt: now - 1, reachableAt: now - 90_000 })
    const path = tmp.path('aged.bundle')
    writeFileSync(path, s.toBytes())
    const r = await run(['filter', '--bundle', path, '--agent', 'bot'], { input: 'http://old.test/x\n' })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/the oldest fetched (90|91|92|93|94|95) seconds ago/)
  })
})

describe('regression: a URL whose host ends with a dot was of another origin than the ROBOTS URL', () => {
  it('example.com. is example.com for the origin check too, as for every host (semantics.md): no warning, not counted', async () => {
    const { OriginScope } = await import('../../../src/cli/common/robots-origin.js')
    for (const [robots, url, host] of [
      ['http://bücher.de:8080/', 'http://xn--bcher-kva.de.:8080/x', 'bücher.de.:8080'],
      ['http://example.com./', 'http://EXAMPLE.com/x', 'example.com'],
      ['https://example.com/', 'https://example.com.:443/x', 'https://example.com.'],
    ]) {
      const warnings: string[] = []
      const scope = OriginScope.of([robots], (w) => warnings.push(w), '')!
      scope.see(url)
      scope.seeHost(host)
      expect([scope.outside, warnings], `${robots} ${url}`).toEqual([0, []])
    }
    const other = OriginScope.of(['http://example.com/'], undefined, '')!
    for (const url of ['https://example.com./x', 'http://example.com.:81/x', 'http://example.co/x']) other.see(url)
    expect(other.outside).toBe(3)
  })
})
