/**
 * `filter` on real access-log lines (issue 18, item 3): a line without a URL
 * is never passed as judged in silence. The first one is named on stderr with
 * a hint; `--invalid keep|drop|fail` says what becomes of such lines; a run
 * where no line held a URL exits 4; `--log-format` and `--host` read the
 * common log formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const ROBOTS = 'User-agent: *\nDisallow: /private\n'

/** Apache's combined format (its documentation's example line, and nginx's default). */
const COMBINED = [
  '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"',
  '192.168.1.186 - - [06/Aug/2018:09:57:51 +0800] "GET /private/report.pdf HTTP/1.1" 200 442 "http://www.example.com/index.php" "Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:61.0) Gecko/20100101 Firefox/61.0"',
  '203.0.113.5 - - [06/Aug/2018:09:57:52 +0800] "\\x16\\x03\\x01\\x00\\xF4\\x01\\x00\\x00\\xF0\\x03\\x03" 400 157 "-" "-"',
  '198.51.100.7 - - [06/Aug/2018:09:57:53 +0800] "GET /private/ok?a=\\"b\\" HTTP/1.1" 404 0 "-" "curl/8.5.0"',
]
/** Debian's vhost_combined (%v:%p first). */
const VHOST = [
  'www.example.com:443 127.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" 200 512 "-" "Mozilla/5.0"',
  'shop.example.com:80 127.0.0.1 - - [10/Oct/2026:13:55:37 +0000] "GET /private/x HTTP/1.1" 200 512 "-" "Mozilla/5.0"',
  'www.example.com:443 127.0.0.1 - - [10/Oct/2026:13:55:38 +0000] "GET /public HTTP/1.1" 200 512 "-" "Mozilla/5.0"',
]

let tmp: ReturnType<typeof tempDir>
let robots: string
let dir: string
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  robots = tmp.path('robots.txt')
  writeFileSync(robots, ROBOTS)
  dir = tmp.path('robots')
  mkdirSync(dir)
  writeFileSync(join(dir, 'www.example.com'), ROBOTS)
})
afterAll(() => tmp.cleanup())

const input = (lines: string[]): string => `${lines.join('\n')}\n`

describe('regression (issue 18): a misread log passed every line, exit 0', () => {
  it('a combined log without --field: no line holds a URL; the first is named with a hint, every line kept, exit 4', async () => {
    const r = await run(['filter', '--robots', robots, '--agent', 'Googlebot'], { input: input(COMBINED) })
    expect(r.status).toBe(4)
    expect(r.stdout.toString()).toBe(input(COMBINED))
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^robots-automaton: warning: line 1 of '<stdin>' was not judged: it holds no URL .*: 127\.0\.0\.1 - frank .*…; is this a log\? try --log-format combined; lines without a URL are written out unjudged \(--invalid keep\)$/)
    expect(lines[1]).toMatch(/^robots-automaton: 4 lines read: 0 allowed, 0 disallowed, 4 without a URL \(kept\);/)
    expect(lines[2]).toBe('robots-automaton: no line of the input held a URL (4 lines read); see the warning above')
    expect(lines.length).toBe(3)
  })

  it('a wrong host column: every path without a host, exit 4', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'Googlebot', '--field', '6', '--host-field', '3'], { input: input(VHOST) })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/line 1 of '<stdin>' was not judged: its URL is a path, and per-host rules need its host/)
    expect(r.stderr).toMatch(/3 lines read: 0 allowed, 0 disallowed, 3 without a host \(kept\)/)
  })
})

describe('--log-format, --host, quoted columns', () => {
  it('--log-format combined takes the request line\'s target; a TLS handshake line is named and kept', async () => {
    const r = await run(['filter', '--robots', robots, '--agent', 'Googlebot', '--log-format', 'combined', '--print', 'verdicts'], { input: input(COMBINED) })
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe(
      [`allowed\t0\t${COMBINED[0]}`, `disallowed\t2\t${COMBINED[1]}`, `invalid\t0\t${COMBINED[2]}`, `disallowed\t2\t${COMBINED[3]}`, ''].join('\n'),
    )
    expect(r.stderr).toMatch(/^robots-automaton: warning: line 3 of '<stdin>' was not judged: it is not a combined line \(host ident user \[time\] "request" status size "referrer" "agent"\) with a request line/)
    expect(r.stderr).toMatch(/4 lines read: 1 allowed, 2 disallowed, 1 without a URL \(kept\)/)
  })

  it('--field 5 reads the same quoted request line; --field 8 the referer', async () => {
    const five = await run(['filter', '--robots', robots, '--agent', 'G', '--field', '5', '--print', 'verdicts', '-q'], { input: input(COMBINED.slice(0, 2)) })
    expect(five.stdout.toString()).toBe(`allowed\t0\t${COMBINED[0]}\ndisallowed\t2\t${COMBINED[1]}\n`)
    const referer = await run(['filter', '--robots-dir', dir, '--agent', 'G', '--field', '8', '--format', 'jsonl', '-q'], { input: input(COMBINED.slice(0, 2)) })
    expect(referer.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual(['http://www.example.com/start.html', 'http://www.example.com/index.php'])
  })

  it('--host gives a whole log of paths its host (per-host rules)', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'G', '--log-format', 'common', '--host', 'www.example.com', '--print', 'disallowed', '-q'], { input: input(COMBINED) })
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe(`${COMBINED[1]}\n${COMBINED[2]}\n${COMBINED[3]}\n`)
    const jsonl = await run(['filter', '--robots-dir', dir, '--agent', 'G', '--log-format', 'combined', '--host', 'www.example.com', '--format', 'jsonl', '-q'], { input: input(COMBINED) })
    const records = jsonl.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(records.map((x) => [x.url, x.allowed, x.host, x.input_line])).toEqual([
      ['/apache_pb.gif', true, 'www.example.com', 1],
      ['/private/report.pdf', false, 'www.example.com', 2],
      ['\\x16\\x03\\x01\\x00\\xF4\\x01\\x00\\x00\\xF0\\x03\\x03', null, null, 3],
      // The request as sent: Apache's \" is a quote.
      ['/private/ok?a="b"', false, 'www.example.com', 4],
    ])
    expect(records[2].reason).toBe('no-request')
  })

  it('--log-format vhost_combined judges each line by its vhost', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'G', '--log-format', 'vhost_combined', '--print', 'verdicts', '-q'], { input: input(VHOST) })
    expect(r.stdout.toString()).toBe([`disallowed\t2\t${VHOST[0]}`, `allowed\t0\t${VHOST[1]}`, `allowed\t0\t${VHOST[2]}`, ''].join('\n'))
  })
})

describe('regression: a logged request line was judged as escaped, not as sent', () => {
  const RULES = 'User-agent: *\nDisallow: /a"b\nDisallow: /c\\d\nDisallow: /caf%C3%A9/\nDisallow: /x%E9\nAllow: /caf\n'
  /** Targets as sent (Latin-1 strings: one char a byte), each logged as Apache and as nginx write it. */
  const SENT = ['/a"b', '/c\\d', '/caf\xc3\xa9/', '/caf\xc3\xa9', '/x\xe9', '/x%E9', '/ok', '//a"b']
  const apache = (t: string): string => [...Buffer.from(t, 'latin1')].map((c) => (c === 0x22 ? '\\"' : c === 0x5c ? '\\\\' : c < 0x20 || c >= 0x7f ? `\\x${c.toString(16)}` : String.fromCharCode(c))).join('')
  const nginx = (t: string): string => [...Buffer.from(t, 'latin1')].map((c) => (c === 0x22 || c === 0x5c || c < 0x20 || c >= 0x7f ? `\\x${c.toString(16).toUpperCase()}` : String.fromCharCode(c))).join('')
  const logLine = (target: string): string => `203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "GET ${target} HTTP/1.1" 200 5 "-" "curl/8"`

  it('Apache\'s \\" \\\\ \\xhh and nginx\'s \\xHH are undone: every line is judged as a URL list line of the bytes sent', async () => {
    const rules = tmp.path('escapes.txt')
    writeFileSync(rules, RULES)
    const list = await run(['filter', '--robots', rules, '--agent', 'G', '--host', 'example.com', '--print', 'verdicts', '-q'], { input: Buffer.from(`${SENT.join('\n')}\n`, 'latin1') })
    const expected = list.stdout.toString('latin1').trimEnd().split('\n').map((l) => l.split('\t').slice(0, 2).join('\t'))
    // The reference's answers for http://example.com + each (raw bytes never match a %XX pattern).
    expect(expected).toEqual(['disallowed\t2', 'disallowed\t3', 'allowed\t6', 'allowed\t6', 'allowed\t0', 'disallowed\t5', 'allowed\t0', 'allowed\t0'])
    for (const escape of [apache, nginx]) {
      const logged = SENT.map((t) => logLine(escape(t)))
      for (const args of [['--log-format', 'combined'], ['--field', '5']]) {
        const r = await run(['filter', '--robots', rules, '--agent', 'G', ...args, '--print', 'verdicts', '-q'], { input: input(logged) })
        expect(r.status).toBe(0)
        const got = r.stdout.toString().trimEnd().split('\n')
        expect(got.map((l) => l.split('\t').slice(0, 2).join('\t')), `${escape.name} ${args.join(' ')}`).toEqual(expected)
        // The lines themselves are written as read.
        expect(got.map((l) => l.split('\t')[2])).toEqual(logged)
      }
    }
  })

  it('--format jsonl names the URL as sent (url_base64 for bytes that are not UTF-8); diff reads it alike', async () => {
    const rules = tmp.path('escapes.txt')
    writeFileSync(rules, RULES)
    const logged = [logLine('/a\\"b'), logLine('/x\\xe9'), logLine('/caf\\xc3\\xa9/')]
    const r = await run(['filter', '--robots', rules, '--agent', 'G', '--log-format', 'combined', '--format', 'jsonl', '-q'], { input: input(logged) })
    const records = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(records.map((x) => [x.url, x.allowed, x.line])).toEqual([['/a"b', false, 2], ['/x\ufffd', true, 0], ['/café/', true, 6]])
    expect(Buffer.from(records[1].url_base64, 'base64').toString('latin1')).toBe('/x\xe9')
    const before = tmp.path('none.txt')
    writeFileSync(before, '')
    const after = tmp.path('all.txt')
    writeFileSync(after, 'User-agent: *\nDisallow: /\n')
    const d = await run(['diff', before, after, '--agent', 'G', '--log-format', 'combined', '--format', 'jsonl', '-q'], { input: input(logged) })
    expect(d.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual(['/a"b', '/x\ufffd', '/café/'])
  })
})

describe('regression: -q with exit 4 said "see the warning above", though no warning was shown', () => {
  const NOT_LOG = input(['hello', 'world'])
  const DASH = input(['203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "-" 408 0 "-" "-"'])
  /** Every command that stops with exit 4 when no line held a URL (fetch and audit stop before any fetch: the list names no origin). */
  const commands = (): string[][] => {
    const other = tmp.path('other.txt')
    writeFileSync(other, 'User-agent: *\nDisallow: /\n')
    const resolve = ['--resolve', 'x.invalid:443:127.0.0.1']
    return [
      ['filter', '--robots', robots, '--agent', 'G'],
      ['diff', robots, other, '--agent', 'G'],
      ['diff', robots, other, '--crawlers', 'Googlebot,Bingbot'],
      ['fetch', '-o', tmp.path('never.bundle'), ...resolve],
      ['audit', '--crawlers', 'Googlebot', '--fetch', ...resolve],
    ]
  }

  it('with -q the error names the first line itself; without, the warning names it and the error points to it', async () => {
    for (const args of commands()) {
      const quiet = await run([...args, '--log-format', 'combined', '-q'], { input: NOT_LOG })
      expect(quiet.status, args.join(' ')).toBe(4)
      const err = quiet.stderr.trimEnd().split('\n')
      expect(err.length, args.join(' ')).toBe(1)
      expect(err[0], args.join(' ')).toMatch(/^robots-automaton: no line of the input held a URL( with a host)? \(2 lines read\): line 1 of '<stdin>' was not judged: it is not a combined line .*: hello; check --log-format/)
      expect(quiet.stderr).not.toMatch(/see the warning above/)
      const loud = await run([...args, '--log-format', 'combined'], { input: NOT_LOG })
      expect(loud.status, args.join(' ')).toBe(4)
      expect(loud.stderr, args.join(' ')).toMatch(/warning: .*2 lines/s)
      if (!args.includes('audit')) expect(loud.stderr, args.join(' ')).toMatch(/warning: line 1 of '<stdin>' was not judged[^]*see the warning above\n$/)
      else expect(loud.stderr, args.join(' ')).toMatch(/\(2 lines read\): line 1 of '<stdin>' was not judged/)
    }
  })

  it('every request "-": the error says so, quiet or not, and never points to a warning', async () => {
    for (const args of commands()) {
      for (const q of [['-q'], []]) {
        const r = await run([...args, '--log-format', 'combined', ...q], { input: DASH })
        expect(r.status, args.join(' ')).toBe(4)
        expect(r.stderr, args.join(' ')).toMatch(/no line of the input held a URL( with a host)? \(1 line read\): every request was "-" \(no request line received\)\n$/)
        expect(r.stderr).not.toMatch(/see the warning above/)
      }
    }
  })
})

describe('regression: an nginx line whose request is empty ("" 400) was warned about as no log line and stopped --invalid fail, now it is counted as a request that never arrived', () => {
  it('counted as "-" is: no warning, no stop, reason empty-request', async () => {
    const lines = ['203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "" 400 0 "-" "-"', COMBINED[0]]
    const fail = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--invalid', 'fail', '--print', 'verdicts'], { input: input(lines) })
    expect(fail.status, fail.stderr).toBe(0)
    expect(fail.stderr).not.toMatch(/warning|stopped at/)
    expect(fail.stderr).toMatch(/1 with no request/)
    expect(fail.stdout.toString()).toMatch(/^allowed\t0\t127\.0\.0\.1 /)
    const r = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--print', 'verdicts', '--format', 'jsonl'], { input: input(lines) })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/warning/)
    const records = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(records[0]).toMatchObject({ allowed: null, reason: 'empty-request', input_line: 1 })
    expect(records[1]).toMatchObject({ allowed: true, input_line: 2 })
  })
})

describe('regression: --invalid fail said "(stopped)" in the summary of a run that went on (its only unjudged lines "-" requests, left out), now "(dropped)"', () => {
  it('says dropped when the run went on, stopped when it stopped', async () => {
    const dash = '203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "-" 408 0 "-" "-"'
    const on = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--invalid', 'fail'], { input: input([dash, COMBINED[0]]) })
    expect(on.status, on.stderr).toBe(0)
    expect(on.stdout.toString()).toBe(`${COMBINED[0]}\n`)
    expect(on.stderr).toMatch(/2 lines read: 1 allowed, 0 disallowed, 1 with no request \("-"\) \(dropped\)/)
    const stop = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--invalid', 'fail'], { input: input([dash, 'not a log line', COMBINED[0]]) })
    expect(stop.status).toBe(4)
    expect(stop.stderr).toMatch(/\(stopped\)/)
  })
})

describe('--invalid keep|drop|fail', () => {
  const MIXED = ['/a', 'not a url', '/private/x', '', '/b']

  it('keep (default) writes the lines without a URL whatever --print says; drop leaves them out', async () => {
    const keep = await run(['filter', '--robots', robots, '--agent', 'G', '--print', 'disallowed', '-q'], { input: input(MIXED) })
    expect(keep.stdout.toString()).toBe('not a url\n/private/x\n\n')
    const drop = await run(['filter', '--robots', robots, '--agent', 'G', '--invalid', 'drop'], { input: input(MIXED) })
    expect(drop.status).toBe(0)
    expect(drop.stdout.toString()).toBe('/a\n/b\n')
    expect(drop.stderr).toMatch(/line 2 of '<stdin>' was not judged: .*; lines without a URL are left out \(--invalid drop\)\n/)
    expect(drop.stderr).toMatch(/5 lines read: 2 allowed, 1 disallowed, 2 without a URL \(dropped\)/)
  })

  it('fail: the lines before the first without a URL are written, then exit 4 naming it (also with workers)', async () => {
    for (const jobs of ['1', '2']) {
      const many = [...Array.from({ length: 5000 }, (_, i) => `/p${i}`), 'GET /x HTTP/1.1', ...Array.from({ length: 100 }, (_, i) => `/q${i}`)]
      const r = await run(['filter', '--robots', robots, '--agent', 'G', '--invalid', 'fail', '--jobs', jobs], {
        input: input(many),
        env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '256' },
      })
      expect(r.status, `jobs ${jobs}`).toBe(4)
      expect(r.stdout.toString()).toBe(input(many.slice(0, 5000)))
      expect(r.stderr).toMatch(/robots-automaton: stopped at line 5001 of '<stdin>' \(--invalid fail\): it holds no URL .*: GET \/x HTTP\/1\.1\n$/)
    }
  })

  it('an empty input holds no line: exit 0', async () => {
    const r = await run(['filter', '--robots', robots, '--agent', 'G'], { input: '' })
    expect(r.status).toBe(0)
  })
})

describe('regression: a combined line whose request\'s method is not an upper-case word ("get /a HTTP/1.1") was "not a combined line"', () => {
  const line = (request: string): string => `203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "${request}" 200 5 "-" "curl/8"`

  it('get, Propfind and m-search requests are judged by their targets', async () => {
    const lines = [line('get /private/a HTTP/1.1'), line('Propfind /b HTTP/1.1'), line('m-search /private/c HTTP/1.1'), line('PROPFIND /private/d HTTP/1.1')]
    const r = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--print', 'verdicts'], { input: input(lines) })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.toString()).toBe([`disallowed\t2\t${lines[0]}`, `allowed\t0\t${lines[1]}`, `disallowed\t2\t${lines[2]}`, `disallowed\t2\t${lines[3]}`, ''].join('\n'))
    expect(r.stderr).not.toMatch(/warning/)
  })

  it('a lower-case method without its version: the method is named, never "not a combined line"; --invalid fail says the same', async () => {
    const r = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined'], { input: input([line('get /a')]) })
    expect(r.status).toBe(4)
    expect(r.stderr).not.toMatch(/not a combined line/)
    expect(r.stderr).toMatch(/^robots-automaton: warning: line 1 of '<stdin>' was not judged: its request is no HTTP request line: its method 'get' is not an upper-case word, which is read only in a whole 'METHOD target HTTP\/x\.y': 203\.0\.113\.9 .*; nothing to judge: /)
    const fail = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined', '--invalid', 'fail', '-q'], { input: input([line('get /a')]) })
    expect(fail.status).toBe(4)
    expect(fail.stderr).toMatch(/stopped at line 1 of '<stdin>' \(--invalid fail\): its request is no HTTP request line: its method 'get' is not an upper-case word/)
  })

  it('OPTIONS * and CONNECT host:port: not-url, named as a request target that is no path, never "column 5" nor "check --log-format"', async () => {
    for (const request of ['OPTIONS * HTTP/1.1', 'CONNECT example.org:443 HTTP/1.1']) {
      const r = await run(['filter', '--robots', robots, '--agent', 'G', '--log-format', 'combined'], { input: input([line(request), COMBINED[0]]) })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stderr, request).toMatch(/^robots-automaton: warning: line 1 of '<stdin>' was not judged: its request target is neither a path \(\/…\) nor an http\(s\) URL: .*; robots\.txt rules judge paths: a request for \* \(OPTIONS \*\) or for host:port \(CONNECT\) names none;/)
      expect(r.stderr).not.toMatch(/column 5|check --log-format/)
    }
  })
})
