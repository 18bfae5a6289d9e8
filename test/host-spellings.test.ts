/**
 * One host, one key, everywhere: ONE table of host spellings (UTF-8,
 * percent-encoded UTF-8, uppercase non-ASCII, full-width, mixed scripts,
 * `xn--` already, invalid IDNA, IPv4 in hex, octal, integer and fewer parts,
 * IPv6, a trailing dot, ports, userinfo, an empty host, `%00`, blanks)
 * through every path that turns input into a host, each against the WHATWG
 * URL parser (`new URL()`): the core's `canonicalHost` and
 * `UrlScan.canonicalHost`, the store (`set`, `lookup`, `isAllowed`,
 * `explain`, `lookupScan`, `lookupHost`, `keyOf`, a bundle), the command
 * line's line locator (a URL line, a host column, `--host`), `fetch`'s
 * origin list, `filter --robots-dir`, `filter --bundle` (bare-host and
 * origin keys), `filter` with a host column and with vhost_combined, `pack`
 * (directory names and JSON lines), `diff`, and compare's case loader;
 * the access method (`robotsLocation`, `fetchRobots` and its redirects, the
 * address policy), `RobotsCache`, the compat entry's origin check and the
 * crawlee entry's (a fake fetch: nothing is sent).
 * A spelling the parser refuses is refused on every path, never judged as
 * another host.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalHost, classifyHost, fetchRobots, RobotsCache, robotsLocation, RobotsStore, UrlScan, type EntryId, type FetchLike } from '../src/index.js'
import { robotsParser } from '../src/compat.js'
import { RulesView } from '../src/crawlee/rules-view.js'
import { useWithCrawlee } from '../src/crawlee.js'
import { parseRobots } from '../src/index.js'
import { parseArgs } from '../src/cli/common/args.js'
import { OriginList, readOrigins } from '../src/cli/fetch/origin-input.js'
import { resolveInputs } from '../src/cli/filter/input.js'
import { INPUT_OPTIONS, lineLayout } from '../src/cli/filter/line-layout.js'
import { FAULT_CODES, LineFault, LineLocator } from '../src/cli/filter/line-locator.js'
import { hostKeyOfName } from '../src/cli/hosts/host-names.js'
import { hostOf } from '../src/compare/cases/corpus-files.js'
import { ensureBuilt, run, tempDir } from './cli/helpers.js'

/** An authority as written: the host, with a userinfo and a port where the row says so. */
const SPELLINGS: readonly string[] = [
  // international names
  'bücher.de',
  'BÜCHER.de',
  'Bücher.DE',
  'b%C3%BCcher.de',
  'B%C3%9Ccher.de',
  'ｂüｃｈｅｒ．ｄｅ',
  'xn--bcher-kva.de',
  'XN--BCHER-KVA.DE',
  'bücher.de.',
  'пример.рф',
  'exаmple.com',
  'faß.de',
  'έ.gr',
  '☃.net',
  'ⓔxample.com',
  '\u200bexample.com',
  'example.com\u3002',
  // ASCII, plain and not
  'example.com',
  'EXAMPLE.com',
  'ex_ample.com',
  'a"b$c~.test',
  'example.com.',
  'a..b.test',
  '-a.test',
  // invalid IDNA, forbidden characters
  'xn--a.com',
  'a.xn--',
  'xn--',
  '%00.test',
  '%zz.test',
  'a%20b.test',
  'a b.test',
  'a<b.test',
  'a\u0000b.test',
  // IPv4 forms
  '127.0.0.1',
  '0x7f.1',
  '0x7F.0.0.1',
  '0177.0.0.1',
  '2130706433',
  '127.1',
  '1.2.3.04',
  '1.2.3.4.',
  '1.2.3.256',
  '0x100000000',
  'a.0x',
  'a.1e',
  '0xa9fea9fe',
  '127.0.0.1..',
  // local names, trailing dots
  'localhost',
  'LOCALHOST.',
  'localhost..',
  'metadata..',
  'example.com..',
  // IPv6
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::FFFF:1.2.3.4]',
  '[::ffff:127.0.0.1]',
  '[zz]',
  '[::1',
  // ports and userinfo
  'example.com:8080',
  'localhost:8080',
  'u:p@127.1:81',
  'EXAMPLE.com:80',
  'bücher.de:0443',
  'example.com:99999',
  'example.com:abc',
  'user@bücher.de',
  'u:p@BÜCHER.de:81',
  'a@b@c.test',
  '@example.com',
  // empty
  '',
]

/** What the WHATWG parser gives for `http://SPELLING/private`: its host without the DNS root's trailing dot (`example.com.` is `example.com`), or null when it refuses the URL. */
function whatwg(spelling: string): string | null {
  // An empty authority is no host: the parser would skip the slashes and take "private" as the host,
  // while the reference matches /private as the path; such a line is not judged.
  if (spelling === '') return null
  try {
    return new URL(`http://${spelling}/private`).hostname.replace(/([^.])\.+$/, '$1')
  } catch {
    return null
  }
}

interface Row {
  spelling: string
  url: string
  /** The parser's host, or null. */
  host: string | null
  /** The port written, as the origin key carries it ('' for none or the default). */
  port: string
  /** Only the host, without userinfo or port. */
  bare: boolean
  /** Fits one blank-free, tab-free column of a log. */
  column: boolean
}

const ROWS: Row[] = SPELLINGS.map((spelling) => {
  const host = whatwg(spelling)
  let port = ''
  if (host !== null) {
    const p = new URL(`http://${spelling}/private`).port
    port = p === '' ? '' : `:${p}`
  }
  const bare = !/[@]/.test(spelling) && !/:[^\]]*$/.test(spelling.replace(/^\[[^\]]*\]/, ''))
  return { spelling, url: `http://${spelling}/private`, host, port, bare, column: !/[\s\u0000]/.test(spelling) && spelling !== '' }
})

const ACCEPTED = ROWS.filter((r) => r.host !== null)
const REFUSED = ROWS.filter((r) => r.host === null)
const HOSTS = [...new Set(ACCEPTED.map((r) => r.host!))]
const ROBOTS = 'User-agent: *\nDisallow: /private\n'
const enc = new TextEncoder()

function codeOf(f: () => unknown): string | undefined {
  try {
    f()
  } catch (err) {
    return (err as { code?: string }).code
  }
  return undefined
}

describe('the table', () => {
  it('holds accepted and refused spellings of many kinds', () => {
    expect(ACCEPTED.length).toBeGreaterThan(30)
    expect(REFUSED.length).toBeGreaterThan(15)
    expect(HOSTS).toContain('xn--bcher-kva.de')
    expect(HOSTS).toContain('127.0.0.1')
    expect(HOSTS).toContain('[::1]')
  })
})

describe('the core: canonicalHost, UrlScan.canonicalHost', () => {
  it.each(ROWS.filter((r) => r.bare).map((r) => [r.spelling, r] as const))('canonicalHost(%j)', (_s, row) => {
    if (row.host === null) expect(codeOf(() => canonicalHost(row.spelling))).toBe('ERR_INPUT')
    else expect(canonicalHost(row.spelling)).toBe(row.host)
  })

  it("regression: canonicalHost('1.2.3.256..')'s reason said UTS-46 when the host, its trailing dots dropped, is an invalid IPv4 address", () => {
    for (const h of ['1.2.3.256', '1.2.3.256.', '1.2.3.256..', '0x100000000...']) {
      expect(() => canonicalHost(h), h).toThrow(/is not a host: it ends in a number but is not a valid IPv4 address$/)
    }
    expect(() => canonicalHost('xn--a.test..')).toThrow(/UTS-46/)
  })

  it.each(ROWS.map((r) => [r.spelling, r] as const))('UrlScan of http://%s/private, bytes and string', (_s, row) => {
    const scan = new UrlScan()
    for (const scanned of [scan.scan(enc.encode(row.url)), scan.scanString(row.url)]) {
      if (row.host === null) {
        // No host, a host the parser refuses, or a port that is none.
        if (scanned && scan.port !== UrlScan.BAD_PORT) expect(codeOf(() => scan.canonicalHost())).toBe('ERR_INPUT')
      } else {
        expect(scanned).toBe(true)
        expect(scan.canonicalHost()).toBe(row.host)
        // A plain host is its own lowercase.
        if (scan.plainHost) expect(row.url.slice(scan.hostStart, scan.hostEnd).toLowerCase()).toBe(row.host)
      }
    }
  })
})

describe('the store', () => {
  const byHost = new RobotsStore()
  const byOrigin = new RobotsStore()
  for (const host of HOSTS) byHost.set(host, ROBOTS)
  for (const row of ACCEPTED) byOrigin.set(`http://${row.host}${row.port}`, ROBOTS)
  const loaded = RobotsStore.fromBytes(byHost.toBytes())
  const loadedOrigins = RobotsStore.fromBytes(byOrigin.toBytes())

  it.each(ROWS.map((r) => [r.spelling, r] as const))('http://%s/private: lookup, isAllowed, explain, lookupScan, lookupHost, keyOf, a bundle', (_s, row) => {
    const scan = new UrlScan()
    for (const store of [byHost, byOrigin, loaded, loadedOrigins]) {
      for (const input of [row.url, enc.encode(row.url)]) {
        if (row.host === null) {
          expect(codeOf(() => store.isAllowed(input, 'bot'))).toBe('ERR_INPUT')
          expect(codeOf(() => store.explain(input, 'bot'))).toBe('ERR_INPUT')
          continue
        }
        expect(store.isAllowed(input, 'bot')).toBe(false)
        const e = store.explain(input, 'bot')
        expect(e.key).toBe(store === byHost || store === loaded ? row.host : `http://${row.host}${row.port}`)
        expect(e.rule?.line).toBe(2)
      }
      scan.scan(enc.encode(row.url))
      if (row.host === null) expect(codeOf(() => store.lookupScan(scan))).toBe('ERR_INPUT')
      else expect(store.entryKey(store.lookupScan(scan) as EntryId)).toBe(store === byHost || store === loaded ? row.host : `http://${row.host}${row.port}`)
    }
    // lookupHost: the bare host, whatever the port.
    const scanned = scan.scan(enc.encode(row.url))
    if (row.host !== null) expect(byHost.entryKey(byHost.lookupHost(scan) as EntryId)).toBe(row.host)
    else if (scanned && scan.port !== UrlScan.BAD_PORT) expect(codeOf(() => byHost.lookupHost(scan))).toBe('ERR_INPUT')
    // Keys: a bare host and an origin.
    if (row.host !== null) {
      if (row.bare) expect(RobotsStore.keyOf(row.spelling)).toBe(row.host)
      expect(RobotsStore.keyOf(`http://${row.spelling}`)).toBe(`http://${row.host}${row.port}`)
    } else {
      if (row.bare) expect(codeOf(() => RobotsStore.keyOf(row.spelling))).toBe('ERR_INPUT')
      expect(codeOf(() => RobotsStore.keyOf(`http://${row.spelling}`))).toBe('ERR_INPUT')
    }
  })
})

describe("the command line's line locator: a URL line, a host column, --host", () => {
  it.each(ROWS.map((r) => [r.spelling, r] as const))('%j', (_s, row) => {
    const locate = (line: string, options: string[]): { fault: string; host: string | null } => {
      const locator = new LineLocator(lineLayout(parseArgs(options, INPUT_OPTIONS)), true)
      const b = enc.encode(line)
      const f = locator.locate(b, 0, b.length)
      return { fault: FAULT_CODES[f] || 'none', host: f === LineFault.None ? locator.hostText() : null }
    }
    const url = locate(row.url, [])
    if (row.host === null) expect(['bad-host', 'not-url']).toContain(url.fault)
    else expect(url).toEqual({ fault: 'none', host: row.host })
    if (row.column) {
      const column = locate(`/private\t${row.spelling}`, ['--field', '1', '--host-field', '2', '--delimiter', '\\t'])
      if (row.host === null) expect(column.fault).toBe('bad-host')
      else expect(column).toEqual({ fault: 'none', host: row.host })
      let layout: ReturnType<typeof lineLayout> | undefined
      try {
        layout = lineLayout(parseArgs([`--host=${row.spelling}`], INPUT_OPTIONS))
      } catch (err) {
        expect((err as Error).message).toMatch(/option '--host' must be a host/)
      }
      expect(layout === undefined).toBe(row.host === null)
      if (layout !== undefined) expect(locate('/private', [`--host=${row.spelling}`])).toEqual({ fault: 'none', host: row.host })
    }
  })
})

describe('the command line, end to end', () => {
  let tmp: ReturnType<typeof tempDir>
  let dir: string
  let urls: string
  beforeAll(() => {
    ensureBuilt()
    tmp = tempDir()
    dir = tmp.path('robots')
    mkdirSync(dir)
    for (const host of HOSTS) writeFileSync(join(dir, host), ROBOTS)
    urls = tmp.path('urls.txt')
    writeFileSync(urls, ROWS.map((r) => r.url).join('\n') + '\n')
  })
  afterAll(() => tmp?.cleanup())

  /** JSON records of a filter run, one per row, in order. */
  const records = async (args: string[], input = urls): Promise<Record<string, unknown>[]> => {
    const r = await run(['filter', ...args, '--agent', 'bot', '--format', 'jsonl', input])
    expect(r.status, r.stderr).toBe(0)
    const out = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(out).toHaveLength(ROWS.length)
    return out
  }

  /** Every accepted row judged by its host's rules (disallowed, line 2), every refused one not judged. */
  const expectJudged = (out: Record<string, unknown>[], source: (row: Row) => string): void => {
    ROWS.forEach((row, i) => {
      const rec = out[i]
      if (row.host === null) {
        expect(rec.allowed, row.spelling).toBeNull()
        expect(['bad-host', 'not-url', 'no-host'], row.spelling).toContain(rec.reason)
      } else expect(rec, row.spelling).toMatchObject({ allowed: false, line: 2, host: row.host, source: source(row) })
    })
  }

  it('filter --robots-dir: files named by the host as the parser writes it', async () => {
    expectJudged(await records(['--robots-dir', dir]), (row) => `${dir}/${row.host}`)
  })

  it('pack DIR, then filter --bundle (bare-host keys); pack JSON lines of origins, then filter --bundle (origin keys)', async () => {
    const bundle = tmp.path('dir.bundle')
    const p = await run(['pack', dir, '-o', bundle])
    expect(p.status, p.stderr).toBe(0)
    expect(p.stderr).not.toMatch(/skipped/)
    expectJudged(await records(['--bundle', bundle]), (row) => `${bundle}#${row.host}`)
    const jsonl = tmp.path('origins.jsonl')
    writeFileSync(jsonl, ACCEPTED.map((r) => JSON.stringify({ origin: r.url, body: ROBOTS })).join('\n') + '\n')
    const origins = tmp.path('origins.bundle')
    const q = await run(['pack', jsonl, '-o', origins])
    expect(q.status, q.stderr).toBe(0)
    const keys = [...RobotsStore.fromBytes(new Uint8Array(readFileSync(origins))).keys()].sort()
    expect(keys).toEqual([...new Set(ACCEPTED.map((r) => `http://${r.host}${r.port}`))].sort())
    expectJudged(await records(['--bundle', origins]), (row) => `${origins}#http://${row.host}${row.port}`)
  })

  it('pack, --robots-dir: a file named by any spelling of its host is that host\'s file, the spelling URLs give marked canonical', () => {
    for (const row of ACCEPTED.filter((r) => r.bare)) {
      expect(hostKeyOfName(enc.encode(row.spelling)), row.spelling).toEqual({ key: row.host, canonical: row.spelling === row.host })
    }
    for (const row of REFUSED.filter((r) => r.bare && r.spelling !== '')) expect(hostKeyOfName(enc.encode(row.spelling)), row.spelling).toEqual({ reason: expect.stringMatching(/^not a host name: /) })
  })

  it('filter with a host column (--host-field) and with vhost_combined, its host column as written and as the server escapes it', async () => {
    const columns = ROWS.filter((r) => r.column)
    const tsv = tmp.path('columns.tsv')
    writeFileSync(tsv, columns.map((r) => `/private\t${r.spelling}`).join('\n') + '\n')
    const log = tmp.path('vhost.log')
    writeFileSync(log, columns.map((r) => `${r.spelling} 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 5 "-" "curl/8"`).join('\n') + '\n')
    // The same log as nginx writes it: a byte from 0x7f on, '"' and '\\' as \xHH.
    const escaped = tmp.path('vhost-escaped.log')
    const nginx = (text: string) => [...enc.encode(text)].map((b) => (b >= 0x7f || b === 0x22 || b === 0x5c ? `\\x${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b))).join('')
    writeFileSync(escaped, columns.map((r) => `${nginx(r.spelling)} 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 5 "-" "curl/8"`).join('\n') + '\n')
    for (const [args, input] of [
      [['--field', '1', '--host-field', '2', '--delimiter', '\\t'], tsv],
      [['--log-format', 'vhost_combined'], log],
      [['--log-format', 'vhost_combined'], escaped],
    ] as const) {
      const r = await run(['filter', '--robots-dir', dir, ...args, '--agent', 'bot', '--format', 'jsonl', input])
      expect(r.status, r.stderr).toBe(0)
      const out = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(out).toHaveLength(columns.length)
      columns.forEach((row, i) => {
        if (row.host === null) expect(out[i], row.spelling).toMatchObject({ allowed: null, reason: 'bad-host' })
        else expect(out[i], row.spelling).toMatchObject({ allowed: false, line: 2, host: row.host })
      })
    }
  })

  it("fetch's origin list: every accepted spelling keyed by the parser's origin, every refused one named, never fetched", async () => {
    const list = new OriginList('https')
    await readOrigins(await resolveInputs([urls]), lineLayout(parseArgs([], INPUT_OPTIONS)), list)
    expect([...list.origins].map(([key]) => key).sort()).toEqual([...new Set(ACCEPTED.map((r) => `http://${r.host}${r.port}`))].sort())
    expect(list.faulty).toBe(REFUSED.length)
    expect(list.unusable).toBe(0)
  })

  it('diff of two directories: each URL by its host on both sides', async () => {
    const before = tmp.path('open')
    mkdirSync(before)
    for (const host of HOSTS) writeFileSync(join(before, host), 'User-agent: *\nAllow: /\n')
    const r = await run(['diff', '--robots-dir', before, '--robots-dir', dir, '--agent', 'bot', '--format', 'jsonl', urls])
    expect(r.status, r.stderr).toBe(3)
    const out = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(out.map((o) => [o.url, o.change, o.host])).toEqual(ACCEPTED.map((row) => [row.url, 'now-disallowed', row.host]))
  })

  it("compare's case loader groups URLs by the parser's host", () => {
    for (const row of ROWS) expect(hostOf(row.url), row.spelling).toBe(row.host ?? '')
  })
})

/** The WHATWG parser's reading of `text`, or null when it refuses it. */
function parsed(text: string, base?: string): URL | null {
  try {
    return new URL(text, base)
  } catch {
    return null
  }
}

/** A host without the DNS root's trailing dots, as the table writes hosts. */
const denoted = (hostname: string): string => hostname.replace(/([^.])\.+$/, '$1')

/** A fake fetch that records each URL asked for; `answer` may answer one, else 200 with {@link ROBOTS}. */
function fakeFetch(answer?: (url: string) => Response | undefined): { fetch: FetchLike; asked: string[] } {
  const asked: string[] = []
  const fetch: FetchLike = async (input) => {
    asked.push(input)
    return answer?.(input) ?? new Response(ROBOTS, { status: 200, headers: { 'content-type': 'text/plain' } })
  }
  return { fetch, asked }
}

/** A string's UTF-8 bytes, one char per byte, as a header value reaches a fetch. */
const asHeader = (text: string): string => [...enc.encode(text)].map((b) => String.fromCharCode(b)).join('')

describe('the access method: robotsLocation, fetchRobots, redirects, the address policy', () => {
  it('regression: a private address or local name written with more than one trailing dot (`localhost..`, `127.0.0.1..`, `metadata..`) was classified public and passed the address policy; every spelling is classified as the address it denotes', () => {
    const cases: [string, string][] = [
      ['0x7f.1', 'loopback'],
      ['0x7F.0.0.1', 'loopback'],
      ['0177.0.0.1', 'loopback'],
      ['2130706433', 'loopback'],
      ['127.1', 'loopback'],
      ['127.0.0.1..', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::1]', 'loopback'],
      ['[0:0:0:0:0:0:0:1]', 'loopback'],
      ['localhost', 'loopback'],
      ['localhost.', 'loopback'],
      ['LOCALHOST.', 'loopback'],
      ['localhost..', 'loopback'],
      ['ｌｏｃａｌｈｏｓｔ', 'loopback'],
      ['0xa9fea9fe', 'link-local'],
      ['metadata..', 'local-name'],
    ]

    for (const [spelling, cls] of cases) {
      expect(classifyHost(spelling), spelling).toBe(cls)
      expect(classifyHost(`http://${spelling}/private`), spelling).toBe(cls)
      expect(classifyHost(new URL(`http://${spelling}/private`)), spelling).toBe(cls)
    }
  })

  it("regression: classifyHost of a host with a port (`localhost:8080`, `127.0.0.1:80`, `u:p@0x7f.1:81`) was undefined, public: it was read as an IPv6 address without brackets, which it is not", () => {
    for (const [spelling, cls] of [['localhost:8080', 'loopback'], ['127.0.0.1:80', 'loopback'], ['u:p@0x7f.1:81', 'loopback'], ['10.0.0.5:443', 'private'], ['user@169.254.169.254', 'link-local'], ['::1', 'loopback'], ['::ffff:127.0.0.1', 'loopback']] as const) {
      expect(classifyHost(spelling), spelling).toBe(cls)
    }
  })

  it.each(ROWS.map((r) => [r.spelling, r] as const))('http://%s/private: the robots.txt URL asked for, under each policy', async (_s, row) => {
    const url = parsed(row.url)
    if (url === null) {
      expect(codeOf(() => robotsLocation(row.url))).toBe('ERR_INPUT')
      const f = fakeFetch()
      await expect(fetchRobots(row.url, { fetch: f.fetch })).rejects.toMatchObject({ code: 'ERR_INPUT' })
      expect(f.asked).toEqual([])
      return
    }
    // scheme://authority/robots.txt, the userinfo left out (RFC 9309 §2.3).
    const robotsUrl = `${url.origin}/robots.txt`
    expect(robotsUrl).toBe(new URL(`${url.protocol}//${url.host}/robots.txt`).href)
    expect(robotsLocation(row.url)).toEqual({ origin: url.origin, robotsUrl })
    expect(robotsLocation(url)).toEqual({ origin: url.origin, robotsUrl })
    // The class of the host denoted, however it is spelled.
    const cls = classifyHost(denoted(url.hostname))
    expect(classifyHost(url), row.spelling).toBe(cls)
    expect(classifyHost(row.url), row.spelling).toBe(cls)
    if (row.spelling !== '') expect(classifyHost(row.spelling), row.spelling).toBe(cls)
    for (const policy of ['allow', 'origin', 'refuse'] as const) {
      const f = fakeFetch()
      const r = await fetchRobots(row.url, { fetch: f.fetch, privateAddresses: policy })
      if (policy === 'refuse' && cls !== undefined) {
        expect(r, `${row.spelling} ${policy}`).toMatchObject({ outcome: 'refused', error: { code: cls } })
        expect(f.asked).toEqual([])
      } else {
        expect(r.outcome, `${row.spelling} ${policy}`).toBe('ok')
        expect(f.asked).toEqual([robotsUrl])
        expect(r.robots.isAllowed(row.url, 'bot')).toBe(false)
      }
    }
  })

  const START = 'http://start.example/robots.txt'
  it.each(ROWS.filter((r) => r.spelling !== '' && !/[\u0000-\u001f]/.test(r.spelling)).map((r) => [r.spelling, r] as const))(
    'a redirect to http://%s/robots.txt: the hop keyed as the parser keys it, a private address blocked however spelled',
    async (_s, row) => {
      const written = `http://${row.spelling}/robots.txt`
      // As a server writes it: non-ASCII chars as their UTF-8 bytes (a browser reads those back as UTF-8).
      for (const location of /^[\x00-\x7f]*$/.test(written) ? [written] : [asHeader(written), encodeURI(written)]) {
        const target = parsed(written)
        for (const policy of ['origin', 'refuse', 'allow'] as const) {
          const f = fakeFetch((u) => (u === START ? new Response(null, { status: 301, headers: { location } }) : undefined))
          const r = await fetchRobots(START, { fetch: f.fetch, privateAddresses: policy })
          const what = `${row.spelling} ${JSON.stringify(location)} ${policy}`
          if (target === null) {
            expect(r.reason, what).toBe('redirect-invalid-location')
            expect(f.asked).toEqual([START])
            continue
          }
          expect(r.redirects[0], what).toMatchObject({ url: START, status: 301, location: target.href })
          const cls = policy === 'allow' ? undefined : classifyHost(denoted(target.hostname))
          if (cls !== undefined) {
            expect(r, what).toMatchObject({ outcome: 'unavailable', reason: 'redirect-blocked' })
            expect(r.redirects[0]!.blocked, what).toBe(cls)
            expect(f.asked).toEqual([START])
          } else {
            expect(r, what).toMatchObject({ outcome: 'ok', finalUrl: target.href })
            expect(f.asked).toEqual([START, target.href])
          }
        }
      }
      // A transport that followed the redirect itself (a browser's fetch): the file it reached is judged by its host alike.
      const target = parsed(written)
      if (target === null) return
      for (const policy of ['origin', 'refuse'] as const) {
        const transport = {
          request: async () => ({ status: 200, headers: new Headers(), body: null, followedTo: target.href, cancel() {} }),
        }
        const r = await fetchRobots(START, { transport, privateAddresses: policy })
        const cls = classifyHost(denoted(target.hostname))
        expect(r.redirects[0]!.blocked, `${row.spelling} followed, ${policy}`).toBe(cls)
        expect(r.outcome).toBe(cls === undefined ? 'ok' : 'unavailable')
      }
    },
  )
})

describe('RobotsCache', () => {
  it('two spellings of one origin share one entry (one fetch); two origins never share one', async () => {
    const f = fakeFetch()
    const cache = new RobotsCache({ fetch: f.fetch, privateAddresses: 'allow' })
    for (const row of ACCEPTED) {
      const lookup = await cache.lookup(row.url)
      expect(lookup.origin, row.spelling).toBe(`http://${row.host}${row.port}`)
      expect(await cache.isAllowed(row.url, 'bot'), row.spelling).toBe(false)
      expect(await cache.isAllowed(new URL(row.url), 'bot'), row.spelling).toBe(false)
    }
    const keys = new Set(ACCEPTED.map((r) => `http://${r.host}${r.port}`))
    expect(f.asked).toHaveLength(keys.size)
    expect(new Set(f.asked.map((u) => RobotsStore.keyOf(new URL(u).origin)))).toEqual(keys)
    expect(cache.stats().entries).toBe(keys.size)
    for (const row of REFUSED.filter((r) => r.spelling !== '')) {
      await expect(cache.lookup(row.url), row.spelling).rejects.toMatchObject({ code: 'ERR_INPUT' })
      await expect(cache.isAllowed(row.url, 'bot'), row.spelling).rejects.toMatchObject({ code: 'ERR_INPUT' })
    }
    expect(f.asked).toHaveLength(keys.size)
  })

  it("privateAddresses 'refuse': each spelling's entry refused as the address it denotes, nothing sent for it", async () => {
    const f = fakeFetch()
    const cache = new RobotsCache({ fetch: f.fetch, privateAddresses: 'refuse' })
    for (const row of ACCEPTED) {
      const cls = classifyHost(row.host!)
      const lookup = await cache.lookup(row.url)
      if (cls === undefined) expect(lookup.result.outcome, row.spelling).toBe('ok')
      else expect(lookup.result, row.spelling).toMatchObject({ outcome: 'refused', error: { code: cls } })
      expect(await cache.isAllowed(row.url, 'bot'), row.spelling).toBe(false)
    }
    const open = new Set(ACCEPTED.filter((r) => classifyHost(r.host!) === undefined).map((r) => `http://${r.host}${r.port}/robots.txt`))
    expect(new Set(f.asked)).toEqual(open)
    expect(f.asked).toHaveLength(open.size)
  })

  it("ports: a scheme's default port is no port (80 for http, 443 for https), another is another origin", async () => {
    const f = fakeFetch()
    const cache = new RobotsCache({ fetch: f.fetch })
    const groups: [string, string[]][] = [
      ['http://example.com', ['http://example.com/a', 'http://example.com:80/a', 'http://EXAMPLE.com:080/a', 'http://example.com.:80/a']],
      ['https://example.com', ['https://example.com/a', 'https://example.com:443/a', 'https://example.com:0443/a']],
      ['http://example.com:443', ['http://example.com:443/a']],
      ['https://example.com:80', ['https://example.com:80/a']],
      ['http://example.com:8080', ['http://example.com:8080/a', 'http://u:p@example.com:8080/a']],
    ]
    for (const [origin, urls] of groups) {
      for (const url of urls) {
        expect((await cache.lookup(url)).origin, url).toBe(origin)
        expect(RobotsStore.keyOf(new URL(url).origin)).toBe(origin)
      }
    }
    expect(f.asked.sort()).toEqual(groups.map(([o]) => `${o}/robots.txt`).sort())
  })
})

describe("the compat entry's origin check (robots-parser's: both URLs through the WHATWG parser)", () => {
  it('isAllowed, isDisallowed, getMatchingLineNumber: an answer for every spelling of the origin, undefined for any other', () => {
    for (const r of ROWS) {
      const robotsUrl = `http://${r.spelling}/robots.txt`
      const home = parsed(robotsUrl)
      const robots = robotsParser(robotsUrl, ROBOTS)
      for (const s of ROWS) {
        const u = parsed(s.url)
        const same = home !== null && u !== null && u.protocol === home.protocol && u.hostname === home.hostname && u.port === home.port
        const what = `${r.spelling} / ${s.spelling}`
        expect(robots.isAllowed(s.url, 'bot'), what).toBe(same ? false : undefined)
        expect(robots.isDisallowed(s.url, 'bot'), what).toBe(true)
        expect(robots.getMatchingLineNumber(s.url, 'bot'), what).toBe(same ? 2 : -1)
        if (u !== null) expect(robots.isAllowed(u, 'bot'), what).toBe(same ? false : undefined)
      }
    }
    // As robots-parser: hostnames compared as the parser writes them, so a trailing dot is another host here.
    expect(robotsParser('http://example.com/robots.txt', ROBOTS).isAllowed('http://example.com./private', 'bot')).toBeUndefined()
  })
})

describe("the crawlee entry's origin check (a file per cache entry)", () => {
  it("regression: a file made for one spelling of an origin (a trailing dot) answered undefined (allowed) for another spelling that shares its cache entry", () => {
    const rules = parseRobots(ROBOTS)
    for (const r of ACCEPTED) {
      const view = new RulesView(robotsLocation(r.url).origin, { current: () => rules })
      const key = `http://${r.host}${r.port}`
      for (const s of ROWS) {
        const same = s.host !== null && `http://${s.host}${s.port}` === key
        const what = `${r.spelling} / ${s.spelling}`
        expect(view.isAllowed(s.url, 'bot'), what).toBe(same ? false : undefined)
        const u = parsed(s.url)
        if (u !== null) expect(view.isAllowed(u, 'bot'), what).toBe(same ? false : undefined)
      }
    }
  })
})

describe('the crawlee entry, end to end (stand-ins of Crawlee\'s classes, a fake transport)', () => {
  /** A stand-in for Crawlee's RobotsTxtFile and BasicCrawler: a `robots` member that `isAllowed` asks, undefined read as allowed. */
  function fakeCrawlee() {
    class RobotsTxtFile {
      constructor(readonly url: string) {
        Object.defineProperty(this, 'robots', { value: { isAllowed: () => true, getSitemaps: () => [] }, writable: true, enumerable: true, configurable: true })
      }
      static async find(url: string): Promise<RobotsTxtFile> {
        return RobotsTxtFile.from(url, '')
      }
      static async load(url: string): Promise<RobotsTxtFile> {
        return RobotsTxtFile.from(url, '')
      }
      static from(url: string, _content: string): RobotsTxtFile {
        return new RobotsTxtFile(url)
      }
      isAllowed(url: string, ua = '*'): boolean {
        return (this as unknown as { robots: { isAllowed(u: string, a: string): boolean | undefined } }).robots.isAllowed(url, ua) ?? true
      }
    }
    class BasicCrawler {
      respectRobotsTxtFile = true
      async getRobotsTxtFileForUrl(_url: string): Promise<RobotsTxtFile | undefined> {
        return undefined
      }
    }
    return { RobotsTxtFile, BasicCrawler }
  }

  it("regression: a page of one spelling of an origin (example.com.) was allowed by the file its other spelling (example.com) had fetched: one fetch per origin, every spelling judged by its rules", async () => {
    const asked: string[] = []
    const transport = {
      request: async (req: { url: string }) => {
        asked.push(req.url)
        return { status: 200, headers: new Headers({ 'content-type': 'text/plain' }), body: new Response(ROBOTS).body, cancel() {} }
      },
    }
    const crawlee = fakeCrawlee()
    const robots = useWithCrawlee(crawlee, { transport, privateAddresses: 'allow' })
    try {
      const crawler = new crawlee.BasicCrawler()
      for (const a of ACCEPTED) {
        const viaFind = await crawlee.RobotsTxtFile.find(a.url)
        const viaCrawler = (await crawler.getRobotsTxtFileForUrl(a.url))!
        for (const b of ACCEPTED) {
          if (`http://${b.host}${b.port}` !== `http://${a.host}${a.port}`) continue
          expect(viaFind.isAllowed(b.url, 'bot'), `${a.spelling} / ${b.spelling}`).toBe(false)
          expect(viaCrawler.isAllowed(b.url, 'bot'), `${a.spelling} / ${b.spelling}`).toBe(false)
          expect((await crawler.getRobotsTxtFileForUrl(b.url))!.isAllowed(a.url, 'bot'), `${b.spelling} / ${a.spelling}`).toBe(false)
        }
      }
      const keys = new Set(ACCEPTED.map((r) => `http://${r.host}${r.port}`))
      expect(asked).toHaveLength(keys.size)
    } finally {
      robots.restore()
    }
  })
})
