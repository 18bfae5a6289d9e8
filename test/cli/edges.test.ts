/**
 * Regressions of issue 27, "edges that never lie": each finding reproduced
 * as a user or an attacker met it, through the built command line and the
 * library's entry. Findings 1 (international host names), 3 (a log's user
 * field chose the judged request), 5 (crafted bundle keys), 8 (a URL list
 * that starts with a BOM) and the small ones of 9 that are this suite's (the
 * log-format hint, `"-"` requests, invisible characters in messages,
 * `memoryUsage` of a shared form; the tester page's links:
 * test/playground/page-state.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRobots, RobotsStore } from '../../src/index.js'
import { BundleHeader, bundleChecksum } from '../../src/store/bundle-codec.js'
import { writeU32 } from '../../src/rules/byte-buffer.js'
import { startServer, type TestServer } from '../fetch/server.js'
import { ensureBuilt, run, tempDir } from './helpers.js'

const ROBOTS = 'User-agent: *\nDisallow: /private\n'
const IDN_URLS = ['http://bücher.de/private', 'http://BÜCHER.de/private', 'http://b%C3%BCcher.de/private']

let tmp: ReturnType<typeof tempDir>
let server: TestServer
beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(ROBOTS)
  })
})
afterAll(async () => {
  await server?.close()
  tmp?.cleanup()
})

const lines = (out: Buffer | string): string[] => out.toString().trimEnd().split('\n')

describe('issue 27 #1: international host names gave silent wrong verdicts', () => {
  it('fetch → filter --bundle: the server sees the punycode host, and every spelling is disallowed', async () => {
    const input = tmp.path('idn.txt')
    writeFileSync(input, [...IDN_URLS, 'http://☃.net/private', 'http://ＥＸＡＭＰＬＥ．com/private', 'http://bücher.de/public'].join('\n') + '\n')
    const bundle = tmp.path('idn.bundle')
    server.reset()
    const f = await run(['fetch', input, '-o', bundle, '--resolve', `*:${server.port}:127.0.0.1`, '--connect-to', `::127.0.0.1:${server.port}`])
    expect(f.status, f.stderr).toBe(0)
    // One request per host, by its punycode name; uppercase, full-width and symbol hosts are fetched, not skipped.
    expect(server.headers.map((h) => h.host?.replace(/:\d+$/, '')).sort()).toEqual(['example.com', 'xn--bcher-kva.de', 'xn--n3h.net'])
    expect(f.stderr).not.toMatch(/cannot be fetched/)
    const keys = [...RobotsStore.fromBytes(new Uint8Array(readFileSync(bundle))).keys()].sort()
    expect(keys).toEqual(['http://example.com', 'http://xn--bcher-kva.de', 'http://xn--n3h.net'])
    const r = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--print', 'verdicts', input])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout).map((l) => l.split('\t')[0])).toEqual(['disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'allowed'])
  })

  it('filter --bundle with a bare xn--bcher-kva.de entry answers as RobotsStore does; filter --robots-dir with a file of that name too', async () => {
    const dir = tmp.path('idn-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'xn--bcher-kva.de'), ROBOTS)
    const bundle = tmp.path('idn-dir.bundle')
    expect((await run(['pack', dir, '-o', bundle, '-q'])).status).toBe(0)
    const store = RobotsStore.fromBytes(new Uint8Array(readFileSync(bundle)))
    for (const url of IDN_URLS) expect(store.isAllowed(url, 'bot'), url).toBe(false)
    for (const source of [['--bundle', bundle], ['--robots-dir', dir]]) {
      const r = await run(['filter', ...source, '--agent', 'bot', '--print', 'verdicts'], { input: IDN_URLS.join('\n') + '\n' })
      expect(r.status, r.stderr).toBe(0)
      expect(lines(r.stdout)).toEqual(IDN_URLS.map((u) => `disallowed\t2\t${u}`))
    }
  })

  it('audit --fetch and audit DIR key every spelling as the one host, as fetch and filter do; --resolve takes the spelling the user writes', async () => {
    const list = tmp.path('idn-hosts.txt')
    writeFileSync(list, ['bücher.de', 'BÜCHER.DE', 'b%C3%BCcher.de', 'http://☃.net/x', '-', 'xn--a.com'].join('\n') + '\n')
    server.reset()
    const a = await run(['audit', '--fetch', list, '--crawlers', 'bot', '--scheme', 'http', '--connect-to', `:80::${server.port}`, '--resolve', `Bücher.DE:${server.port}:127.0.0.1`, '--resolve', `☃.net:${server.port}:127.0.0.1`, '--dns-server', '127.0.0.1:9'])
    expect(a.status, a.stderr).toBe(0)
    expect(server.headers.map((h) => h.host?.replace(/:\d+$/, '')).sort()).toEqual(['xn--bcher-kva.de', 'xn--n3h.net'])
    expect(lines(a.stdout).slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['http://xn--n3h.net,bot,some', 'xn--bcher-kva.de,bot,some'])
    expect(a.stderr).toMatch(/1 line skipped: a host that cannot be fetched from/)
    // A directory: the punycode name is the host's file; a Unicode spelling beside it is skipped, saying so.
    const dir = tmp.path('idn-audit-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'xn--bcher-kva.de'), ROBOTS)
    writeFileSync(join(dir, 'Bücher.de'), 'User-agent: *\nAllow: /\n')
    const d = await run(['audit', dir, '--crawlers', 'bot'])
    expect(d.status, d.stderr).toBe(0)
    expect(lines(d.stdout).slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['xn--bcher-kva.de,bot,some'])
    expect(d.stderr).toContain("1 file skipped (e.g. 'Bücher.de': another spelling of the host 'xn--bcher-kva.de', whose own file 'xn--bcher-kva.de' is used)")
  })

  it('a host the URL parser refuses is named and not judged, never allowed in silence', async () => {
    const r = await run(['filter', '--robots-dir', tmp.path('idn-dir'), '--agent', 'bot', '--format', 'jsonl'], { input: 'http://xn--a.de/private\nhttp://bü cher.de/private\n' })
    expect(r.status).toBe(4)
    expect(lines(r.stdout).map((l) => JSON.parse(l))).toMatchObject([
      { allowed: null, reason: 'bad-host' },
      { allowed: null, reason: 'bad-host' },
    ])
    expect(r.stderr).toMatch(/line 1 of '<stdin>' was not judged: the URL parser refuses its host or port \(the host "xn--a\.de" is refused: it is not a valid international domain name/)
  })
})

describe("issue 27 #3: a log's user field chose the judged request", () => {
  const robots = () => tmp.path('log-robots.txt')
  beforeAll(() => writeFileSync(robots(), ROBOTS))

  it('a Basic-auth user "a b [GET /public HTTP/1.1]" does not pick /public: the request after the time is judged', async () => {
    const log = [
      '203.0.113.9 - a b [GET /public HTTP/1.1] [10/Oct/2000:13:55:36 -0700] "GET /private/secret HTTP/1.1" 200 512 "-" "curl/8"',
      '203.0.113.9 - x\\" [10/Oct/2000:13:55:36 -0700] \\"GET /public HTTP/1.1\\" [10/Oct/2000:13:55:36 -0700] "GET /private/2 HTTP/1.1" 200 5 "-" "-"',
      '203.0.113.9 - x\\x22 \\x22GET /public HTTP/1.1\\x22 [10/Oct/2000:13:55:36 -0700] "GET /private/3 HTTP/1.1" 200 5 "GET /public HTTP/1.1" "\\" 200 5 \\"-\\" \\"-"',
    ]
    for (const format of ['combined', 'common']) {
      const r = await run(['filter', '--robots', robots(), '--agent', 'bot', '--log-format', format, '--print', 'verdicts'], { input: log.join('\n') + '\n' })
      expect(r.status, r.stderr).toBe(0)
      expect(lines(r.stdout).map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual(['disallowed 2', 'disallowed 2', 'disallowed 2'])
      expect(r.stderr).not.toMatch(/warning/)
    }
  })

  it('a line whose structure does not fit is named as not judged', async () => {
    const r = await run(['filter', '--robots', robots(), '--agent', 'bot', '--log-format', 'combined'], { input: '203.0.113.9 - - [not a time] "GET /private HTTP/1.1" 200 5 "-" "-"\n' })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/line 1 of '<stdin>' was not judged: it is not a combined line/)
  })
})

/** A bundle of `keys` (each a robots.txt entry), its keys then rewritten to `rewrite` (same lengths) and the checksum made right again. */
function craftedBundle(keys: string[], rewrite: string[]): Uint8Array {
  const store = new RobotsStore()
  for (const k of keys) store.set(k, ROBOTS)
  const bytes = store.toBytes()
  const text = Buffer.from(bytes).toString('latin1')
  for (let i = 0; i < keys.length; i++) {
    expect(rewrite[i].length).toBe(keys[i].length)
    const at = text.indexOf(keys[i], BundleHeader.Size)
    bytes.set(Buffer.from(rewrite[i], 'latin1'), at)
  }
  writeU32(bytes, BundleHeader.Checksum, bundleChecksum(bytes))
  return bytes
}

describe('issue 27 #5: crafted but well-checksummed bundle keys crashed', () => {
  const cases = [
    { name: 'ip', keys: ['a.test'], rewrite: ['0x7f.1'], key: '0x7f.1' },
    { name: 'path', keys: ['https://example.com:8080'], rewrite: ['https://example.com/path'], key: 'https://example.com/path' },
    { name: 'twice', keys: ['https://example.com', 'https://example.com:444'], rewrite: ['https://example.com', 'https://example.com:443'], key: 'https://example.com:443' },
  ]

  it.each(cases)('$key: RobotsStore.fromBytes refuses it, ERR_FORMAT naming the key', ({ keys, rewrite, key }) => {
    const bytes = craftedBundle(keys, rewrite)
    let err: { code?: string; message?: string } | undefined
    try {
      RobotsStore.fromBytes(bytes)
    } catch (e) {
      err = e as typeof err
    }
    expect(err?.code).toBe('ERR_FORMAT')
    expect(err?.message).toContain(JSON.stringify(key))
  })

  it.each(cases)('$key: filter, pack, diff and fetch --update refuse it before any output, naming the bundle and the key', async ({ name, keys, rewrite, key }) => {
    const path = tmp.path(`crafted-${name}.bundle`)
    writeFileSync(path, craftedBundle(keys, rewrite))
    const good = tmp.path('good.bundle')
    const store = new RobotsStore()
    store.set('a.test', ROBOTS)
    writeFileSync(good, store.toBytes())
    const urls = Array.from({ length: 50 }, (_, i) => `http://127.0.0.1/x${i}\nhttps://example.com/p${i}`).join('\n') + '\n'
    for (const args of [
      ['filter', '--bundle', path, '--agent', 'bot', '--jobs', '2'],
      ['pack', path, '-o', tmp.path('out.bundle')],
      ['diff', '--bundle', good, '--bundle', path, '--agent', 'bot'],
      ['fetch', '--update', path, '-o', tmp.path('never.bundle')],
    ]) {
      const r = await run(args, { input: urls })
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(1)
      expect(r.stdout.toString(), args[0]).toBe('')
      expect(r.stderr, args[0]).toContain(`cannot read bundle '${path}'`)
      expect(r.stderr, args[0]).toContain(JSON.stringify(key))
      expect(r.stderr, args[0]).toMatch(/\(ERR_FORMAT\)\n$/)
      expect(r.stderr, args[0]).not.toMatch(/TypeError|Cannot read properties/)
    }
  })
})

describe('issue 27 #8: a URL list that starts with a UTF-8 BOM', () => {
  it('its first line is judged like any other, and no warning is given', async () => {
    const robots = tmp.path('bom-robots.txt')
    writeFileSync(robots, ROBOTS)
    const input = '\ufeffhttps://example.com/private/a\nhttps://example.com/b\n'
    const allowed = await run(['filter', '--robots', robots, '--agent', 'bot'], { input })
    expect(allowed.status).toBe(0)
    expect(allowed.stdout.toString()).toBe('https://example.com/b\n')
    expect(allowed.stderr).not.toMatch(/warning/)
    const verdicts = await run(['filter', '--robots', robots, '--agent', 'bot', '--print', 'verdicts', '-q'], { input })
    expect(verdicts.stdout.toString()).toBe('disallowed\t2\thttps://example.com/private/a\nallowed\t0\thttps://example.com/b\n')
    // check and diff read lines as filter does.
    const check = await run(['check', robots, '--agent', 'bot', '-'], { input })
    expect(lines(check.stdout)[0]).toMatch(/^disallowed\thttps:\/\/example\.com\/private\/a\t/)
    const diff = await run(['diff', robots, robots, '--agent', 'bot'], { input })
    expect(diff.stderr).toMatch(/2 URLs compared/)
  })

  it('pack reads JSON lines that start with a BOM; fetch reads such a URL list', async () => {
    const jsonl = tmp.path('bom.jsonl')
    writeFileSync(jsonl, `\ufeff${JSON.stringify({ origin: 'a.test', body: ROBOTS })}\n`)
    const p = await run(['pack', jsonl, '-o', tmp.path('bom.bundle')])
    expect(p.status, p.stderr).toBe(0)
    const list = tmp.path('bom-urls.txt')
    writeFileSync(list, '\ufeffhttp://bom.test/a\n')
    server.reset()
    const f = await run(['fetch', list, '-o', tmp.path('bom-fetched.bundle'), '--resolve', `*:${server.port}:127.0.0.1`, '--connect-to', `::127.0.0.1:${server.port}`, '-q'])
    expect(f.status, f.stderr).toBe(0)
    expect(server.headers.map((h) => h.host?.replace(/:\d+$/, ''))).toEqual(['bom.test'])
  })

  it('invisible characters in a quoted line are shown escaped: a BOM, zero-width and bidi characters', async () => {
    const robots = tmp.path('bom-robots.txt')
    const r = await run(['filter', '--robots', robots, '--agent', 'bot'], { input: 'x\ufeffy\u200bz\u202e\u2066w\n' })
    expect(r.status).toBe(4)
    expect(r.stderr).toContain('x\\u{feff}y\\u{200b}z\\u{202e}\\u{2066}w')
    expect(r.stderr).not.toMatch(/[\ufeff\u200b\u202e\u2066]/)
  })
})

describe('issue 27 #9: the smaller ones', () => {
  const robots = () => tmp.path('small-robots.txt')
  beforeAll(() => writeFileSync(robots(), ROBOTS))
  const VHOST_LINE = 'www.example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 512 "-" "Mozilla/5.0"'

  it('a vhost_combined log read without --log-format gets the hint "try --log-format vhost_combined"', async () => {
    const r = await run(['filter', '--robots', robots(), '--agent', 'bot'], { input: `${VHOST_LINE}\n` })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/is this a log\? try --log-format vhost_combined;/)
    const combined = await run(['filter', '--robots-dir', tmp.path('idn-dir'), '--agent', 'bot', '--log-format', 'combined'], { input: `${VHOST_LINE}\n` })
    expect(combined.stderr).toMatch(/this line fits --log-format vhost_combined/)
  })

  it('ordinary "-" 408 lines are counted in the summary, and a correct run gives no warning', async () => {
    const log = [
      '203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 512 "-" "curl/8"',
      '203.0.113.9 - - [10/Oct/2026:13:55:37 +0000] "-" 408 0 "-" "-"',
      '203.0.113.9 - - [10/Oct/2026:13:55:38 +0000] "GET /a HTTP/1.1" 200 512 "-" "curl/8"',
      '198.51.100.7 - - [10/Oct/2026:13:55:39 +0000] "-" 408 - "-" "-"',
    ]
    for (const invalid of ['keep', 'drop', 'fail']) {
      const r = await run(['filter', '--robots', robots(), '--agent', 'bot', '--log-format', 'combined', '--invalid', invalid], { input: log.join('\n') + '\n' })
      expect(r.status, invalid).toBe(0)
      expect(r.stderr, invalid).not.toMatch(/warning/)
      expect(r.stderr, invalid).toMatch(/4 lines read: 1 allowed, 1 disallowed, 2 with no request \("-"\)/)
    }
    const only = await run(['filter', '--robots', robots(), '--agent', 'bot', '--log-format', 'combined'], { input: `${log[1]}\n` })
    expect(only.status).toBe(4)
    expect(only.stderr).toMatch(/every request was "-"/)
  })

  it('memoryUsage counts a form shared by 20,000 entries once', () => {
    const robots = parseRobots(`User-agent: *\n${Array.from({ length: 2000 }, (_, i) => `Disallow: /private/${i}/`).join('\n')}\n`)
    const one = new RobotsStore()
    one.setRobots('h0.test', robots)
    const many = new RobotsStore()
    for (let i = 0; i < 20_000; i++) many.setRobots(`h${i}.test`, robots)
    const form = robots.toBytes().length
    expect(form).toBeGreaterThan(20_000)
    // The entries' own cost (keys, table, index), not 20,000 forms.
    expect(many.memoryUsage() - one.memoryUsage()).toBeLessThan(20_000 * 400)
    expect(many.memoryUsage()).toBeGreaterThan(form)
  })
})
