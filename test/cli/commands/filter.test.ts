// `filter`: options, output formats, edge-case inputs, exit codes, and the
// guarantee that --print allowed and --print disallowed together are the input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { resolve } from 'node:path'
import { parseRobots, type AgentMatcher } from '../../../src/index.js'
import { CLI, ensureBuilt, isUrlLine, run, splitKeepingEndings, tempDir, urlOf, type RunResult } from '../helpers.js'
import { describeShared, SHARED } from '../../support/shared-data.js'

const ROBOTS = `User-agent: *
Disallow: /private
Allow: /private/ok
Disallow: /*.pdf$
`
const OTHER = `User-agent: bot
Disallow: /
`

let tmp: ReturnType<typeof tempDir>
let robotsPath: string
let matcher: AgentMatcher

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  robotsPath = tmp.path('robots.txt')
  writeFileSync(robotsPath, ROBOTS)
  matcher = parseRobots(ROBOTS).agent('bot')
})
afterAll(() => tmp.cleanup())

/** `filter --robots ROBOTS --agent bot --print MODE ...extra` with `input` on stdin. */
function filter(mode: string, input: string | Uint8Array, extra: string[] = []): Promise<RunResult> {
  return run(['filter', '--robots', robotsPath, '--agent', 'bot', '--print', mode, '-q', ...extra], { input })
}

/** What the library says of each line of `input`: `allowed<TAB>LINE<TAB>URL`, or `invalid<TAB>0<TAB>LINE` for a line without a URL. */
function expectedVerdicts(input: Uint8Array, m: AgentMatcher = matcher): string {
  let out = ''
  for (const line of splitKeepingEndings(input)) {
    const url = urlOf(line)
    if (!isUrlLine(url)) {
      out += `invalid\t0\t${url.toString('latin1')}\n`
      continue
    }
    const e = m.explain(new Uint8Array(url))
    out += `${e.allowed ? 'allowed' : 'disallowed'}\t${e.rule?.line ?? 0}\t${url.toString('latin1')}\n`
  }
  return out
}

/** Checks that allowed + disallowed outputs interleave back into `input`, order kept, as the verdicts say (a line without a URL, kept, is in both). */
/** Every line lands on exactly one side; `status`: the exit status each run must end with. */
async function expectLossless(input: Uint8Array, args: (mode: string) => Promise<RunResult>, status = 0): Promise<void> {
  const [allowed, disallowed, verdicts] = await Promise.all([args('allowed'), args('disallowed'), args('verdicts')])
  for (const r of [allowed, disallowed, verdicts]) expect(r.status, r.stderr).toBe(status)
  const a = splitKeepingEndings(allowed.stdout)
  const d = splitKeepingEndings(disallowed.stdout)
  const v = verdicts.stdout.toString('latin1').split('\n')
  const lines = splitKeepingEndings(input)
  expect(v.length - 1).toBe(lines.length)
  let ai = 0
  let di = 0
  const rebuilt: Buffer[] = []
  // One expect for the lines (the first one lost named), not one a line.
  let lost: string | undefined
  for (let i = 0; i < lines.length && lost === undefined; i++) {
    if (v[i].startsWith('invalid\t')) {
      const [x, y] = [a[ai++], d[di++]]
      if (!(x !== undefined && y !== undefined && x.equals(y))) lost = `line ${i}, kept on both sides: ${JSON.stringify(x?.toString('latin1'))} against ${JSON.stringify(y?.toString('latin1'))}`
      rebuilt.push(x)
      continue
    }
    const next = v[i].startsWith('allowed\t') ? a[ai++] : d[di++]
    if (next === undefined) lost = `line ${i}: missing from the ${v[i].startsWith('allowed\t') ? 'allowed' : 'disallowed'} output`
    rebuilt.push(next)
  }
  expect(lost).toBeUndefined()
  expect(ai).toBe(a.length)
  expect(di).toBe(d.length)
  expect(Buffer.concat(rebuilt).equals(Buffer.from(input))).toBe(true)
}

/** Seeded bytes, for junk inputs. */
function junk(seed: number, length: number): Uint8Array {
  let s = seed >>> 0
  const out = new Uint8Array(length)
  const pool = [10, 10, 13, 0, 0x2f, 0x2a, 0x24, 0x3f, 0x23, 0x25, 0xff, 0xc3, 0x80, 0x20, 0x70, 0x72, 0x69, 0x76, 0x61, 0x74, 0x65, 0x68, 0x3a]
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    out[i] = s & 0x100 ? pool[(s >>> 9) % pool.length] : (s >>> 16) & 0xff
  }
  return out
}

const URLS = [
  'https://example.com/',
  'https://example.com/private/x',
  'https://example.com/private/ok/y',
  '/doc.pdf',
  '/doc.pdf?x',
  'ftp://example.com/private',
  '',
  'example.com/private',
].join('\n')

describe('--print', () => {
  it('allowed (default) writes the allowed lines unchanged', async () => {
    const r = await run(['filter', '--robots', robotsPath, '--agent', 'bot', '-q'], { input: `${URLS}\n` })
    expect(r.status).toBe(0)
    // Lines without a URL are not judged: kept, whatever --print picks.
    expect(r.stdout.toString()).toBe('https://example.com/\nhttps://example.com/private/ok/y\n/doc.pdf?x\nftp://example.com/private\n\nexample.com/private\n')
    expect(r.stderr).toBe('')
  })

  it('disallowed writes the others', async () => {
    const r = await filter('disallowed', `${URLS}\n`)
    expect(r.stdout.toString()).toBe('https://example.com/private/x\n/doc.pdf\nftp://example.com/private\n\nexample.com/private\n')
  })

  it('verdicts writes every line with the deciding rule’s line', async () => {
    const r = await filter('verdicts', `${URLS}\n`)
    expect(r.stdout.toString()).toBe(
      [
        'allowed\t0\thttps://example.com/',
        'disallowed\t2\thttps://example.com/private/x',
        'allowed\t3\thttps://example.com/private/ok/y',
        'disallowed\t4\t/doc.pdf',
        'allowed\t0\t/doc.pdf?x',
        'invalid\t0\tftp://example.com/private',
        'invalid\t0\t',
        'invalid\t0\texample.com/private',
        '',
      ].join('\n'),
    )
    expect(r.stdout.toString()).toBe(expectedVerdicts(Buffer.from(`${URLS}\n`)))
  })
})

describe('inputs', () => {
  it('empty input: no output, a zero summary', async () => {
    const r = await run(['filter', '--robots', robotsPath, '--agent', 'bot'], { input: '' })
    expect(r.status).toBe(0)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toMatch(/^robots-automaton: 0 lines read: 0 allowed, 0 disallowed; 0\.0 MB in \d+\.\d\d s \(\d+\.\d MB\/s, [\d.kM-]+ lines\/s\)\n$/)
  })

  it('no final newline: the last line is kept as is', async () => {
    expect((await filter('allowed', '/private\n/a')).stdout.toString()).toBe('/a')
    expect((await filter('disallowed', '/a\n/private')).stdout.toString()).toBe('/private')
    expect((await filter('verdicts', '/a\n/private')).stdout.toString()).toBe('allowed\t0\t/a\ndisallowed\t2\t/private\n')
    await expectLossless(Buffer.from('/a\n/private\n/b'), (m) => filter(m, '/a\n/private\n/b'))
  })

  it('CRLF input: lines are written with their CRLF, judged without the CR', async () => {
    const input = '/private\r\n/a\r\n/doc.pdf\r\n/x\r'
    expect((await filter('allowed', input)).stdout.toString()).toBe('/a\r\n/x\r')
    expect((await filter('verdicts', input)).stdout.toString()).toContain('allowed\t0\t/x\n')
    expect((await filter('disallowed', input)).stdout.toString()).toBe('/private\r\n/doc.pdf\r\n')
    expect((await filter('verdicts', input)).stdout.toString()).toBe(expectedVerdicts(Buffer.from(input)))
    expect((await filter('verdicts', input)).stdout.toString()).toContain('disallowed\t4\t/doc.pdf\n')
  })

  it('a 1 MB line', async () => {
    const long = `/${'a'.repeat(1 << 20)}`
    const input = `/private/${long}\n${long}\n/private\n`
    const a = await filter('allowed', input)
    expect(a.stdout.toString()).toBe(`${long}\n`)
    const d = await filter('disallowed', input)
    expect(d.stdout.toString()).toBe(`/private/${long}\n/private\n`)
    const v = await filter('verdicts', input)
    expect(v.stdout.toString()).toBe(`disallowed\t2\t/private/${long}\nallowed\t0\t${long}\ndisallowed\t2\t/private\n`)
  })

  it('a line longer than the 1 MiB block, with no newline, through a pipe in small chunks', async () => {
    const long = `/private${'x'.repeat(3 << 20)}`
    const v = await filter('verdicts', long)
    expect(v.stdout.toString()).toBe(`disallowed\t2\t${long}\n`)
  })

  it('binary junk: every line judged as the library judges it, nothing lost', async () => {
    for (const seed of [1, 2, 3]) {
      const input = junk(seed, 200_000 + seed * 1000)
      const v = await filter('verdicts', input)
      expect(v.stdout.toString('latin1') === expectedVerdicts(input)).toBe(true)
      // The same verdicts and rule lines as the library's batch API.
      const ruleLines = new Int32Array(input.length + 1)
      const bits = matcher.matchLines(input, new Uint8Array(input.length + 1), ruleLines)
      const got = v.stdout.toString('latin1').split('\n').slice(0, -1)
      expect(got.length).toBe(bits.length)
      const urls = splitKeepingEndings(input).map(urlOf)
      expect(got.every((l, i) => l.startsWith(isUrlLine(urls[i]) ? `${bits[i] ? 'allowed' : 'disallowed'}\t${ruleLines[i]}\t` : 'invalid\t0\t'))).toBe(true)
      await expectLossless(input, (m) => filter(m, input))
    }
  })

  it('reads FILE arguments in order, - for stdin among them', async () => {
    writeFileSync(tmp.path('one.txt'), '/a\n/private/1\n')
    writeFileSync(tmp.path('two.txt'), '/b\n/private/2\n')
    const r = await filter('verdicts', '/c\n', [tmp.path('one.txt'), '-', tmp.path('two.txt')])
    expect(r.stdout.toString()).toBe(
      'allowed\t0\t/a\ndisallowed\t2\t/private/1\nallowed\t0\t/c\nallowed\t0\t/b\ndisallowed\t2\t/private/2\n',
    )
  })

  it('a file without a final newline followed by another: the lines do not merge', async () => {
    writeFileSync(tmp.path('nonl.txt'), '/a\n/b')
    writeFileSync(tmp.path('next.txt'), '/c\n')
    const r = await filter('allowed', '', [tmp.path('nonl.txt'), tmp.path('next.txt')])
    expect(r.stdout.toString()).toBe('/a\n/b\n/c\n')
    const last = await filter('allowed', '', [tmp.path('next.txt'), tmp.path('nonl.txt')])
    expect(last.stdout.toString()).toBe('/c\n/a\n/b')
  })

  it('.gz input is decompressed', async () => {
    const plain = `${URLS}\n`.repeat(2000)
    writeFileSync(tmp.path('urls.txt.gz'), Buffer.concat([gzipSync(plain.slice(0, 5000)), gzipSync(plain.slice(5000))]))
    writeFileSync(tmp.path('urls.txt'), plain)
    for (const mode of ['allowed', 'disallowed', 'verdicts']) {
      const gz = await filter(mode, '', [tmp.path('urls.txt.gz')])
      const txt = await filter(mode, '', [tmp.path('urls.txt')])
      expect(gz.status).toBe(0)
      expect(gz.stdout.equals(txt.stdout)).toBe(true)
    }
    const s = await run(['filter', '--robots', robotsPath, '--agent', 'bot', tmp.path('urls.txt.gz')])
    expect(s.stderr).toMatch(/^robots-automaton: warning: line 6 of '.*urls\.txt\.gz' was not judged: it holds no URL .*: ftp:\/\/example\.com\/private; is this a log\? try --log-format combined, or --field N; lines without a URL are written out unjudged \(--invalid keep\)\n/)
    expect(s.stderr).toMatch(/\nrobots-automaton: 16,000 lines read: 6,000 allowed, 4,000 disallowed, 6,000 without a URL \(kept\); 0\.3 MB/)
  })

  it('a corrupt gzip file (gzip magic, then junk): exit 1 naming it', async () => {
    writeFileSync(tmp.path('bad.gz'), Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('this is not gzip\n')]))
    const r = await filter('allowed', '', [tmp.path('bad.gz')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${tmp.path('bad.gz')}': not valid gzip data\n`)
  })

  it('gzip is recognised by its magic bytes, not by the .gz name (files and stdin)', async () => {
    const plain = `${URLS}\n`.repeat(50)
    writeFileSync(tmp.path('zipped.txt'), gzipSync(plain))
    writeFileSync(tmp.path('plain.gz'), plain)
    const want = await filter('verdicts', plain)
    for (const r of [await filter('verdicts', '', [tmp.path('zipped.txt')]), await filter('verdicts', '', [tmp.path('plain.gz')]), await filter('verdicts', gzipSync(plain))]) {
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout.equals(want.stdout)).toBe(true)
    }
  })

  it('input that fails midway: the lines judged before the failure are written, then exit 1', async () => {
    let good = ''
    for (let i = 0; i < 40_000; i++) good += `/a/${(i * 7919) % 100_003}\n/private/${(i * 104_729) % 99_991}\n`
    // A gzip stream cut short: everything before the cut decodes.
    const zipped = gzipSync(good)
    const cut = zipped.subarray(0, zipped.length >>> 1)
    writeFileSync(tmp.path('cut.gz'), cut)
    const r = await filter('verdicts', '', [tmp.path('cut.gz')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${tmp.path('cut.gz')}': gzip data is cut short\n`)
    const lines = r.stdout.toString().split('\n')
    expect(lines.length).toBeGreaterThan(10_000)
    expect(r.stdout.toString()).toBe(expectedVerdicts(Buffer.from(good)).slice(0, r.stdout.length))
    expect(r.stdout[r.stdout.length - 1]).toBe(10)
  })

  it('a missing file: exit 1 naming it, nothing written', async () => {
    writeFileSync(tmp.path('ok.txt'), '/a\n')
    const r = await filter('allowed', '', [tmp.path('ok.txt'), tmp.path('missing.txt')])
    expect(r.status).toBe(1)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${tmp.path('missing.txt')}': no such file or directory\n`)
  })

  it('a directory given as a file: exit 1 naming it', async () => {
    mkdirSync(tmp.path('dir-in'), { recursive: true })
    const r = await filter('allowed', '', [tmp.path('dir-in')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${tmp.path('dir-in')}': is a directory\n`)
  })

  it('stdin redirected from a file (< FILE) is read directly, with its size known', () => {
    const file = tmp.path('redirect.txt')
    writeFileSync(file, '/a\n/private\n/b'.repeat(50_000))
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" filter --robots "${robotsPath}" --agent bot --print verdicts < "${file}"`], { maxBuffer: 64 << 20 })
    expect(r.status).toBe(0)
    expect(r.stdout.toString() === expectedVerdicts(readFileSync(file))).toBe(true)
    expect(r.stderr.toString()).toMatch(/^robots-automaton: 100,001 lines read: /)
  })

  it('--robots - reads the robots.txt from stdin and URLs from files', async () => {
    writeFileSync(tmp.path('u.txt'), '/private\n/a\n')
    const r = await run(['filter', '--robots', '-', '--agent', 'bot', '-q', tmp.path('u.txt')], { input: ROBOTS })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe('/a\n')
  })
})

describe('summary and stdout', () => {
  it('summary on stderr: lines read, allowed, disallowed, without a URL, MB/s, lines/s', async () => {
    const r = await run(['filter', '--robots', robotsPath, '--agent', 'bot'], { input: `${URLS}\n` })
    expect(r.stderr).toMatch(/\nrobots-automaton: 8 lines read: 3 allowed, 2 disallowed, 3 without a URL \(kept\); 0\.0 MB in \d+\.\d\d s \(\d+\.\d MB\/s, [\d.kM]+ lines\/s\)\n$/)
  })

  it('--quiet silences it', async () => {
    const r = await run(['filter', '--robots', robotsPath, '--agent', 'bot', '--quiet'], { input: `${URLS}\n` })
    expect(r.stderr).toBe('')
  })

  it('a closed stdout (| head -1) ends the run quietly with 0', () => {
    const big = tmp.path('many.txt')
    writeFileSync(big, '/a\n/private\n'.repeat(1_000_000))
    for (const mode of ['allowed', 'verdicts']) {
      const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" filter --robots "${robotsPath}" --agent bot --print ${mode} "${big}" | head -1; echo "status=\${PIPESTATUS[0]}"`], {
        encoding: 'utf8',
      })
      expect(r.stdout).toBe(mode === 'allowed' ? '/a\nstatus=0\n' : 'allowed\t0\t/a\nstatus=0\n')
      expect(r.stderr).toBe('')
    }
  })

  it.skipIf(!existsSync('/dev/full'))('a full disk (> /dev/full): exit 1, one line', () => {
    for (const args of [`filter --robots "${robotsPath}" --agent bot`, `check "${robotsPath}" --agent bot /a`, '--help']) {
      const r = spawnSync('bash', ['-c', `echo /a | "${process.execPath}" "${CLI}" ${args} > /dev/full`], { encoding: 'utf8' })
      expect(r.status).toBe(1)
      expect(r.stderr).toMatch(/^(.*\n)?robots-automaton: cannot write to stdout: no space left on device\n$/)
    }
  })

  it.skipIf(!existsSync('/usr/bin/script'))('a progress bar when stderr is a terminal', () => {
    const big = tmp.path('many2.txt')
    writeFileSync(big, '/a\n/private\n'.repeat(2_000_000))
    const cmd = `"${process.execPath}" "${CLI}" filter --robots "${robotsPath}" --agent bot "${big}" > /dev/null`
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8' })
    expect(r.stdout).toMatch(/\r\s*\d+% \[[#-]{20}\] \d+\.\d MB \/ 24\.0 MB/)
    expect(r.stdout).toMatch(/4,000,000 lines read/)
    const quiet = spawnSync('script', ['-qec', cmd.replace('filter', 'filter -q'), '/dev/null'], { encoding: 'utf8' })
    expect(quiet.stdout).toBe('')
  })
})

describe('--robots-dir', () => {
  let dir: string
  beforeAll(() => {
    dir = tmp.path('robots-dir')
    mkdirSync(dir, { recursive: true })
    writeFileSync(resolve(dir, 'example.com'), ROBOTS)
    writeFileSync(resolve(dir, 'other.org'), OTHER)
    writeFileSync(resolve(dir, '[::1]'), OTHER)
    mkdirSync(resolve(dir, 'adir.net'))
  })

  const LINES = [
    'https://example.com/private/x',
    'https://EXAMPLE.com:8443/private/y',
    'http://user:pw@example.com/ok',
    'https://other.org/anything',
    'http://[::1]:80/x',
    'https://nofile.net/private',
    'https://adir.net/private',
    'https://../private',
    '/private',
    '',
    'junk',
  ]

  function dirFilter(mode: string, extra: string[] = []): Promise<RunResult> {
    return run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', mode, ...extra], { input: `${LINES.join('\n')}\n` })
  }

  it('judges each URL by its host’s file; --missing for hosts without one; a line without a URL or host is not judged; a file that cannot be read fails the run (exit 1) after every line is written', async () => {
    const r = await dirFilter('verdicts')
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toBe(
      [
        'disallowed\t2\thttps://example.com/private/x',
        'disallowed\t2\thttps://EXAMPLE.com:8443/private/y',
        'allowed\t0\thttp://user:pw@example.com/ok',
        'disallowed\t2\thttps://other.org/anything',
        'disallowed\t2\thttp://[::1]:80/x',
        'allowed\t0\thttps://nofile.net/private',
        'allowed\t0\thttps://adir.net/private',
        'allowed\t0\thttps://../private',
        'invalid\t0\t/private',
        'invalid\t0\t',
        'invalid\t0\tjunk',
        '',
      ].join('\n'),
    )
    expect(r.stderr).toMatch(
      /^robots-automaton: warning: skipped '.*\/adir\.net': not a regular file \(a directory\); the host is judged as one without a robots\.txt \(--missing allow\)\nrobots-automaton: warning: line 9 of '<stdin>' was not judged: its URL is a path, and per-host rules need its host: \/private; give the host: --host HOST, --field N with --host-field M, or --log-format vhost_combined; lines without a URL are written out unjudged \(--invalid keep\)\nrobots-automaton: 11 lines read: 4 allowed, 4 disallowed, 2 without a URL, 1 without a host \(kept\); .*; hosts: 3 with a robots\.txt, 2 without one, 1 unreadable\nrobots-automaton: a robots\.txt file this run used could not be read \('.*\/adir\.net': not a regular file \(a directory\)\); the URLs of its host were judged as those of a host without one \(--missing allow\), which may not be the site's answer: make the file readable or remove it\n$/,
    )
  })

  it('--missing disallow', async () => {
    const r = await dirFilter('verdicts', ['--missing', 'disallow', '-q'])
    const verdicts = r.stdout.toString().trimEnd().split('\n').map((l) => l.split('\t')[0])
    expect(verdicts).toEqual(['disallowed', 'disallowed', 'allowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'disallowed', 'invalid', 'invalid', 'invalid'])
    // -q keeps the warnings back, never the error that the unreadable adir.net fails the run with.
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^robots-automaton: a robots\.txt file this run used could not be read \('.*\/adir\.net': not a regular file \(a directory\)\)[^\n]*--missing disallow[^\n]*\n$/)
    const warned = await dirFilter('verdicts', ['--missing', 'disallow'])
    expect(warned.stderr).toMatch(/the host is judged as one without a robots\.txt \(--missing disallow\)\n/)
  })

  it('allowed and disallowed outputs interleave back into the input', async () => {
    const input = Buffer.from(`${LINES.join('\r\n')}`)
    // adir.net, a directory, cannot be read: every line is still written, and each run exits 1.
    await expectLossless(input, (m) => run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', m, '-q'], { input }), 1)
  })

  it('a missing or non-directory DIR: exit 1 naming it', async () => {
    const missing = await run(['filter', '--robots-dir', tmp.path('nope'), '--agent', 'bot'], { input: '/a\n' })
    expect(missing.status).toBe(1)
    expect(missing.stderr).toBe(`robots-automaton: cannot read robots directory '${tmp.path('nope')}': no such file or directory\n`)
    const file = await run(['filter', '--robots-dir', robotsPath, '--agent', 'bot'], { input: '/a\n' })
    expect(file.status).toBe(1)
    expect(file.stderr).toBe(`robots-automaton: cannot read robots directory '${robotsPath}': not a directory\n`)
  })
})

describeShared('cli-url-lists', () => {
  const lists = ['kasztp.txt', 'userbait.txt']

  it.each(lists)('%s: verdicts equal the library, allowed + disallowed = input (a BOM that starts it is no part of its first line)', async (name) => {
    const file = readFileSync(resolve(SHARED, 'corpus/urls', name))
    const input = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? file.subarray(3) : file
    const robots = resolve(SHARED, 'corpus/robots/anubhavp28-benchmark/www.nytimes.com')
    const m = parseRobots(readFileSync(robots)).agent('Googlebot')
    const args = (mode: string) => run(['filter', '--robots', robots, '--agent', 'Googlebot', '--print', mode, '-q', resolve(SHARED, 'corpus/urls', name)])
    const v = await args('verdicts')
    expect(v.stdout.toString('latin1') === expectedVerdicts(input, m)).toBe(true)
    await expectLossless(input, args)
  })
})
