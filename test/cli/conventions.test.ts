/**
 * The command line's conventions (issue 12 #7): --version everywhere, every
 * stderr line prefixed, check's URLs from stdin, repeated --agent with the
 * reference's multi-agent answers, lint over several files with real totals
 * and wc -l lines, non-http(s) ROBOTS URLs refused, implied rules marked,
 * and the progress bar (its drawing as a pure function, and on a pseudo-terminal).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { referenceDecide } from '../../src/match/reference-engine.js'
import { matchPath } from '../../src/url/url-path.js'
import { clock, escapesAllowed, etaSeconds, ProgressBar, progressWanted, renderProgress } from '../../src/cli/common/progress.js'
import { note } from '../../src/cli/common/stdio.js'
import { CLI, ensureBuilt, ROOT, run, tempDir, type RunResult, isUrlLine } from './helpers.js'
import { compactRulesOf } from '../../src/internals.js'

const tmp = tempDir()
const ROBOTS = 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: c\nAllow: /b/open\nDisallow: /\n'
let robotsPath: string

beforeAll(() => {
  ensureBuilt()
  robotsPath = tmp.path('robots.txt')
  writeFileSync(robotsPath, ROBOTS)
})
afterAll(() => tmp.cleanup())

/** Every line of stderr starts with the program's name (and there is at least one). */
function expectPrefixed(r: RunResult, what: string): void {
  const lines = r.stderr.split('\n')
  expect(lines.pop(), `${what}: stderr ends with a newline`).toBe('')
  expect(lines.length, what).toBeGreaterThan(0)
  for (const line of lines) expect(line, `${what}: ${r.stderr}`).toMatch(/^robots-automaton: \S/)
}

describe('every stderr line is prefixed robots-automaton:', () => {
  it('warnings, errors, summaries and usage errors of every command', async () => {
    const dir = tmp.path('hosts')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.test'), ROBOTS)
    writeFileSync(join(dir, 'html.test'), '<!DOCTYPE html><html></html>\n')
    mkdirSync(join(dir, 'sub.test'))
    writeFileSync(tmp.path('bad.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]))
    writeFileSync(tmp.path('many'), 'x\n'.repeat(3))
    const runs: [string, string[], string?][] = [
      ['no command', []],
      ['unknown command', ['frob']],
      ['check: agent warning and summary', ['check', robotsPath, '--agent', 'Googlebot/2.1', '/a']],
      ['check: missing file', ['check', tmp.path('none'), '--agent', 'a', '/a']],
      ['check: usage error', ['check', robotsPath]],
      ['check: html body warning', ['check', join(dir, 'html.test'), '--agent', 'a', '/x']],
      ['filter: per-host warnings and summary', ['filter', '--robots-dir', dir, '--agent', 'a'], 'https://a.test/d/x\nhttps://html.test/\nhttps://sub.test/\n'],
      ['filter: bad gzip', ['filter', '--robots', robotsPath, '--agent', 'a', tmp.path('bad.gz')]],
      ['filter: usage error', ['filter', '--agent', 'a']],
      ['lint: several files, one missing', ['lint', robotsPath, tmp.path('many'), tmp.path('none')]],
      ['pack: warnings and summary', ['pack', dir, '-o', tmp.path('x.bundle')]],
      ['diff: summary', ['diff', robotsPath, tmp.path('many'), '--agent', 'a'], '/d/x\n'],
      ['compare: usage error', ['compare', '--cases', 'unit']],
      ['ftp ROBOTS', ['check', 'ftp://e.com/robots.txt', '--agent', 'a', '/']],
    ]
    for (const [what, args, input] of runs) expectPrefixed(await run(args, { input }), what)
  })
})

describe('check: URLs from stdin', () => {
  const urls = ['https://e.com/d/', 'https://e.com/d/x', '/b', '/b/open', '']
  it('reads them when no URL is given (LF, CRLF, no final newline), as if given as arguments', async () => {
    const byArgs = await run(['check', robotsPath, '--agent', 'c', ...urls])
    expect(byArgs.status).toBe(0)
    const byStdin = await run(['check', robotsPath, '--agent', 'c'], { input: `${urls.slice(0, 2).join('\r\n')}\r\n${urls.slice(2).join('\n')}` })
    // The input's last line is empty and has no newline: it is no line at all (as wc -l and filter count).
    expect(byStdin.stdout.toString()).toBe(byArgs.stdout.toString().split('\n').slice(0, 4).join('\n') + '\n')
    expect(byStdin.stderr).toBe('robots-automaton: 4 URLs checked: 1 allowed, 3 disallowed\n')
    const gz = await run(['check', robotsPath, '--agent', 'c', '--json'], { input: gzipSync(`${urls.join('\n')}\n`) })
    expect(gz.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual(urls)
  })

  it("reads them where a URL is '-', in order", async () => {
    const r = await run(['check', robotsPath, '--agent', 'c', '/first', '-', '/last'], { input: '/b/open\n/x\n' })
    expect(r.stdout.toString().split('\n').map((l) => l.split('\t')[1])).toEqual(['/first', '/b/open', '/x', '/last', undefined])
  })
})

describe('--agent repeated: one crawler answering to several tokens, as the reference judges it', () => {
  const files = readdirSync(join(ROOT, 'corpus/robots')).sort().slice(0, 12)
  it('check --json and filter --print verdicts give referenceDecide(tokens) on corpus files', async () => {
    let compared = 0
    for (const name of files) {
      const body = readFileSync(join(ROOT, 'corpus/robots', name))
      const robots = parseRobots(body)
      const text = body.toString('latin1')
      const named = [...new Set([...text.matchAll(/^\s*user-?agent\s*:\s*([A-Za-z_-]+)/gim)].map((m) => m[1]))]
      const tokens = [named[0] ?? 'Googlebot', named[1] ?? 'Bingbot', 'nobody-else']
      // Paths from the file's own patterns, so that rules decide them.
      const paths = [...new Set([...text.matchAll(/^\s*(?:dis)?allow\s*:\s*(\S+)/gim)].map((m) => m[1].replace(/[*$]/g, 'x')))].slice(0, 40)
      paths.push('/', '/index.html')
      const agentArgs = tokens.flatMap((t) => ['--agent', t])
      const file = join(ROOT, 'corpus/robots', name)
      const checked = await run(['check', file, ...agentArgs, '--json', '-q', '--', ...paths])
      expect(checked.status, checked.stderr).toBe(0)
      const filtered = await run(['filter', '--robots', file, ...agentArgs, '--print', 'verdicts', '-q', '-j', '1'], { input: paths.join('\n') + '\n' })
      const verdicts = filtered.stdout.toString().split('\n')
      checked.stdout.toString().trimEnd().split('\n').forEach((line, i) => {
        const got = JSON.parse(line)
        const want = referenceDecide(compactRulesOf(robots), tokens, matchPath(Buffer.from(paths[i])))
        expect({ allowed: got.allowed, line: got.rule?.line ?? 0 }, `${name} ${tokens} ${paths[i]}`).toEqual({ allowed: want.allowed, line: want.line })
        // filter does not judge a line without a URL (a pattern that is not a path: `Sitemap:`, `*.pdf`).
        const verdict = isUrlLine(Buffer.from(paths[i])) ? `${want.allowed ? 'allowed' : 'disallowed'}\t${want.line}` : 'invalid\t0'
        expect(verdicts[i], `${name} ${paths[i]}`).toBe(`${verdict}\t${paths[i]}`)
        compared++
      })
    }
    expect(compared).toBeGreaterThan(100)
  })

  it('per host too: --robots-dir and --bundle, in the main thread and in workers, answer as --robots', async () => {
    const dir = tmp.path('multi-hosts')
    mkdirSync(dir)
    writeFileSync(join(dir, 'e.test'), ROBOTS)
    const bundle = tmp.path('multi.bundle')
    expect((await run(['pack', dir, '-o', bundle, '-q'])).status).toBe(0)
    const paths = ['/b/open', '/b/x', '/d/', '/d/x', '/elsewhere', '/']
    const input = Array.from({ length: 2000 }, (_, i) => `https://e.test${paths[i % paths.length]}`).join('\n') + '\n'
    const agents = ['--agent', 'b', '--agent', 'c']
    const want = await run(['filter', '--robots', robotsPath, ...agents, '--print', 'verdicts', '-q', '-j', '1'], { input })
    expect(want.stdout.toString()).toContain('allowed\t9\thttps://e.test/b/open\n')
    expect(want.stdout.toString()).toContain('disallowed\t10\thttps://e.test/d/x\n')
    for (const rules of [['--robots-dir', dir], ['--bundle', bundle]]) {
      for (const jobs of ['1', '3']) {
        const got = await run(['filter', ...rules, ...agents, '--print', 'verdicts', '-q', '-j', jobs], { input })
        expect(got.stdout.toString(), `${rules[0]} -j ${jobs}`).toBe(want.stdout.toString())
      }
    }
  })

  it('the groups naming any token apply, merged; * only when none does', async () => {
    const r = await run(['check', robotsPath, '--agent', 'b', '--agent', 'c', '-q', '/b/open', '/b/x', '/d/x', '/elsewhere'])
    expect(r.stdout.toString()).toBe(
      'allowed\t/b/open\tline 9: Allow: /b/open\ndisallowed\t/b/x\tline 6: Disallow: /b\n' +
        'disallowed\t/d/x\tline 10: Disallow: /\ndisallowed\t/elsewhere\tline 10: Disallow: /\n',
    )
    const diff = await run(['diff', robotsPath, tmp.path('empty-robots'), '--agent', 'b', '--agent', 'zzz', '-q'], { input: '/b/x\n/d/x\n' })
    expect(diff.status).toBe(1) // the file does not exist: the test below writes it
    writeFileSync(tmp.path('empty-robots'), '')
    const diff2 = await run(['diff', robotsPath, tmp.path('empty-robots'), '--agent', 'b', '--agent', 'zzz', '-q'], { input: '/b/x\n/d/x\n' })
    expect(diff2.stdout.toString()).toBe('now-allowed\t/b/x\tline 6: Disallow: /b\tno matching rule\n')
  })
})

describe('lint: several files, directories, real totals, wc -l lines', () => {
  it('counts lines as wc -l does on corpus files, and sums them', async () => {
    const dir = join(ROOT, 'corpus/robots')
    const names = readdirSync(dir).sort()
    const r = await run(['lint', dir])
    const summaries = r.stderr.trimEnd().split('\n')
    expect(summaries).toHaveLength(names.length + 1)
    let sum = 0
    names.forEach((name, i) => {
      const wc = Number(execFileSync('wc', ['-l', join(dir, name)]).toString().trim().split(/\s+/)[0])
      sum += wc
      expect(summaries[i]).toMatch(new RegExp(`^robots-automaton: ${join(dir, name).replace(/[.]/g, '\\.')}: .*; ${wc.toLocaleString('en-US')} lines?, `))
    })
    expect(summaries.at(-1)).toMatch(new RegExp(`^robots-automaton: ${names.length} files linted: .*; ${sum.toLocaleString('en-US')} lines, `))
  })

  it('a final line without a newline is not a line; a CR alone ends none', async () => {
    for (const [body, lines] of [['', 0], ['a', 0], ['Disallow: /\n', 1], ['a\nb', 1], ['a\rb\r', 0], ['a\r\nb\r\n', 2]] as const) {
      writeFileSync(tmp.path('wc.txt'), body)
      const r = await run(['lint', '--json', tmp.path('wc.txt')])
      expect(JSON.parse(r.stdout.toString()).lines, JSON.stringify(body)).toBe(lines)
      expect(lines).toBe(Number(execFileSync('wc', ['-l', tmp.path('wc.txt')]).toString().trim().split(/\s+/)[0]))
    }
  })

  it('gives the real totals past the 1,000 diagnostics listed', async () => {
    writeFileSync(tmp.path('junk.txt'), 'User-agent: *\n' + 'not a directive\n'.repeat(2500) + 'Disallow: nope\n'.repeat(3))
    const r = await run(['lint', tmp.path('junk.txt')])
    expect(r.status).toBe(1)
    expect(r.stdout.toString().trimEnd().split('\n')).toHaveLength(1001) // the list stays capped
    expect(r.stderr).toBe(`robots-automaton: ${tmp.path('junk.txt')}: 3 errors, 2,500 warnings, 0 infos; 2,504 lines, ${(14 + 16 * 2500 + 15 * 3).toLocaleString('en-US')} bytes\n`)
    const json = await run(['lint', '--json', tmp.path('junk.txt'), robotsPath])
    const reports = json.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(reports.map((x) => [x.source, x.errors, x.warnings, x.lines])).toEqual([
      [tmp.path('junk.txt'), 3, 2500, 2504],
      [robotsPath, 0, 0, 10],
    ])
  })

  it('a file that cannot be read among several is reported; the others are linted; exit 1', async () => {
    const r = await run(['lint', robotsPath, tmp.path('none'), robotsPath])
    expect(r.status).toBe(1)
    expect(r.stderr.split('\n').filter((l) => l.startsWith(`robots-automaton: ${robotsPath}: 0 errors`)).length).toBe(2)
    expect(r.stderr).toContain(`robots-automaton: cannot read robots.txt '${tmp.path('none')}': no such file or directory\n`)
    expect(r.stderr).toMatch(/robots-automaton: 2 files linted: 0 errors, 0 warnings, 0 infos; 20 lines, [\d,]+ bytes; 1 file not read\n$/)
  })
})

describe('a ROBOTS URL of another scheme than http(s)', () => {
  it.each([
    ['check', 'ftp://e.com/robots.txt', '--agent', 'a', '/'],
    ['lint', 'file:///etc/robots.txt'],
    ['filter', '--robots', 'ftp://e.com/robots.txt', '--agent', 'a'],
    ['diff', robotsPathLater(), 'gopher://e.com/robots.txt', '--agent', 'a'],
  ])('%s: usage error, exit 2', async (...args) => {
    const r = await run(args.map((a) => (a === '@robots' ? robotsPath : a)))
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^robots-automaton: \w+: only http\(s\) URLs are supported \(ROBOTS is '(ftp|file|gopher):[^']*'\) \(see 'robots-automaton \w+ --help'\)\n$/)
  })
})

function robotsPathLater(): string {
  return '@robots'
}

describe('check marks the rules that are not lines of the file', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === '/robots.txt' && req.headers.host?.startsWith('127.0.0.1') ? 503 : 404
      res.end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => server.close())

  it("the index.html rule's directory form", async () => {
    const r = await run(['check', robotsPath, '--agent', 'a', '-q', '/d/', '/d/index.html'])
    expect(r.stdout.toString()).toBe(
      'allowed\t/d/\timplied: Allow: /d/$ (from line 3: Allow: /d/index.html)\nallowed\t/d/index.html\tline 3: Allow: /d/index.html\n',
    )
    const j = await run(['check', robotsPath, '--agent', 'a', '-q', '--json', '/d/'])
    expect(JSON.parse(j.stdout.toString()).rule).toEqual({ line: 3, kind: 'allow', pattern: '/d/$', implied: 'index.html', from: '/d/index.html' })
    // A file that writes the directory form itself: a line of the file.
    writeFileSync(tmp.path('dollar.txt'), 'User-agent: *\nDisallow: /d/\nAllow: /d/$\n')
    const own = await run(['check', tmp.path('dollar.txt'), '--agent', 'a', '-q', '/d/'])
    expect(own.stdout.toString()).toBe('allowed\t/d/\tline 3: Allow: /d/$\n')
  })

  it('the Disallow: / of an unreachable robots.txt', async () => {
    const r = await run(['check', `${base}/`, '--agent', 'a', '--stand-in', '/x'])
    expect(r.stdout.toString()).toBe('disallowed\t/x\timplied: Disallow: / (robots.txt unreachable)\n')
    expectPrefixed(r, 'unreachable fetch')
    const j = await run(['check', `${base}/`, '--agent', 'a', '-q', '--json', '--stand-in', '/x'])
    expect(JSON.parse(j.stdout.toString()).rule).toEqual({ line: 0, kind: 'disallow', pattern: '/', implied: 'unreachable' })
  })

  it('filter --robots URL unreachable reports line 0 and an implied rule, not the stand-in file line 2', async () => {
    const input = Array.from({ length: 3000 }, (_, i) => `${base}/p${i}`).join('\n') + '\n'
    for (const jobs of ['1', '2']) {
      const v = await run(['filter', '--robots', `${base}/`, '--stand-in', '--agent', 'a', '-q', '--print', 'verdicts', '--jobs', jobs], { input })
      const rows = v.stdout.toString().trimEnd().split('\n')
      expect(rows).toHaveLength(3000)
      for (const row of rows) expect(row).toMatch(/^disallowed\t0\t/)
      const j = await run(['filter', '--robots', `${base}/`, '--stand-in', '--agent', 'a', '-q', '--format', 'jsonl', '--jobs', jobs], { input })
      const records = j.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
      expect(records).toHaveLength(3000)
      for (const r of records) {
        expect(r.allowed).toBe(false)
        expect(r.line).toBe(0)
        expect(r.rule).toEqual({ kind: 'disallow', pattern: '/', implied: 'unreachable' })
      }
    }
  })
})

describe('progress bar', () => {
  const frame = { done: 25 * 2 ** 20, total: 100 * 2 ** 20, items: 1_000_000, seconds: 10, columns: 120 }

  it('renders percent, bar, sizes, counts, rate and an ETA when the size is known', () => {
    expect(renderProgress(frame)).toBe(' 25% [#####---------------] 26.2 MB / 104.9 MB  1,000,000 URLs  100k URLs/s  ETA 0:30')
    expect(etaSeconds(25, 100, 10)).toBe(30)
    expect(clock(3725)).toBe('1:02:05')
    expect(clock(59.6)).toBe('1:00')
  })

  it('no ETA without a size, or in the first second', () => {
    expect(renderProgress({ ...frame, total: undefined })).toBe('26.2 MB  1,000,000 URLs  100k URLs/s')
    expect(renderProgress({ ...frame, seconds: 0.5 })).not.toContain('ETA')
    expect(etaSeconds(0, 100, 10)).toBeUndefined()
  })

  it('fits the terminal, dropping the rate, then the URL count, the sizes and the bar', () => {
    for (let columns = 1; columns <= 130; columns++) {
      expect(renderProgress({ ...frame, columns }).length, String(columns)).toBeLessThanOrEqual(Math.max(10, columns - 1))
    }
    expect(renderProgress({ ...frame, columns: 80 })).toBe(' 25% [#####---------------] 26.2 MB / 104.9 MB  1,000,000 URLs  ETA 0:30')
    expect(renderProgress({ ...frame, columns: 60 })).toBe(' 25% [#####---------------] 26.2 MB / 104.9 MB  ETA 0:30')
    expect(renderProgress({ ...frame, columns: 40 })).toBe(' 25% [#####---------------]  ETA 0:30')
    expect(renderProgress({ ...frame, columns: 20 })).toBe(' 25%  ETA 0:30')
  })

  it('under NO_COLOR: no escape sequence at all, erased with spaces', () => {
    let out = ''
    const bar = new ProgressBar({ columns: 100, write: (s: string) => ((out += s), true) }, 2_000_000, escapesAllowed({ NO_COLOR: '1' }))
    bar.update(1_000_000, 12345)
    const drawn = out.length - 1
    bar.done()
    expect(out).not.toContain('\x1b')
    expect(out.endsWith(`\r${' '.repeat(drawn)}\r`)).toBe(true)
    expect(escapesAllowed({ NO_COLOR: '' })).toBe(true)
    expect(escapesAllowed({})).toBe(true)
  })

  it('is drawn only on a terminal stderr whose stdout is not the terminal, not on TERM=dumb, not with --quiet', () => {
    const base = { quiet: false, stderrIsTTY: true, stdoutIsTTY: false, env: { TERM: 'xterm' } }
    expect(progressWanted(base)).toBe(true)
    expect(progressWanted({ ...base, stdoutIsTTY: true })).toBe(false)
    expect(progressWanted({ ...base, stderrIsTTY: false })).toBe(false)
    expect(progressWanted({ ...base, env: { TERM: 'dumb' } })).toBe(false)
    expect(progressWanted({ ...base, quiet: true })).toBe(false)
    expect(progressWanted({ ...base, stderrIsTTY: false, env: { ROBOTS_AUTOMATON_PROGRESS: '1' } })).toBe(true)
    expect(progressWanted({ ...base, env: { ROBOTS_AUTOMATON_PROGRESS: '0' } })).toBe(false)
  })

  it('a note erases the bar first: a warning never lands inside it', () => {
    let out = ''
    const term = { columns: 100, write: (s: string) => ((out += s), true) }
    const bar = new ProgressBar(term, undefined)
    bar.update(1000, 10)
    const written: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((s: string) => (written.push(`${out}|${s}`), true)) as typeof process.stderr.write
    try {
      note('warning: something')
    } finally {
      process.stderr.write = write
      bar.done()
    }
    expect(written).toHaveLength(1)
    // When the line was written, the bar had been erased just before it.
    expect(written[0]).toMatch(/\r[^\r]*\x1b\[K\r\x1b\[K\|robots-automaton: warning: something\n$/)
  })

  const hasScript = spawnSync('script', ['--version']).status === 0
  it.runIf(hasScript)('on a pseudo-terminal: drawn and erased before the summary; none on TERM=dumb or with stdout on the terminal', () => {
    writeFileSync(tmp.path('urls.txt'), Array.from({ length: 200_000 }, (_, i) => `https://e.com/d/${i}\n`).join(''))
    const cmd = (redirect: string) =>
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} filter --robots ${JSON.stringify(robotsPath)} --agent a -j 1 ${JSON.stringify(tmp.path('urls.txt'))} ${redirect}`
    const tty = (redirect: string, env: NodeJS.ProcessEnv) =>
      spawnSync('script', ['-qec', cmd(redirect), '/dev/null'], { env: { ...process.env, NO_COLOR: '', ...env }, encoding: 'latin1' }).stdout
    const toFile = `> ${JSON.stringify(tmp.path('out.txt'))}`
    const drawn = tty(toFile, { TERM: 'xterm' })
    // A bar drawn at the start of the line, erased, then the summary on a clean line.
    expect(drawn).toMatch(/^\r +\d+% \[[#-]{20}\].*\x1b\[K/)
    expect(drawn).toMatch(/\r\x1b\[Krobots-automaton: 200,000 lines read: 0 allowed, 200,000 disallowed; [^\r\n]*\r\n$/)
    const plain = tty(toFile, { TERM: 'xterm', NO_COLOR: '1' })
    expect(plain).toMatch(/^\r +\d+% \[/)
    expect(plain).not.toContain('\x1b')
    expect(plain).toMatch(/\r +\rrobots-automaton: 200,000 lines read: [^\r]*\r\n$/)
    const dumb = tty(toFile, { TERM: 'dumb' })
    expect(dumb).toMatch(/^robots-automaton: 200,000 lines read: [^\r]*\r\n$/)
    const onScreen = tty('> /dev/tty', { TERM: 'xterm' })
    expect(onScreen).not.toContain('\x1b[K')
    expect(onScreen).toMatch(/^robots-automaton: 200,000 lines read: [^\r]*\r\n$/)
    const forced = spawnSync(process.execPath, [CLI, 'filter', '--robots', robotsPath, '--agent', 'a', '-j', '1', tmp.path('urls.txt')], {
      env: { ...process.env, ROBOTS_AUTOMATON_PROGRESS: '1' },
      encoding: 'latin1',
    })
    expect(forced.stderr).toMatch(/^\r +\d+% \[/)
  })
})
