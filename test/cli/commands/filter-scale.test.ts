// `filter` at scale, through the built CLI: --jobs (byte for byte the output of
// --jobs 1), --bundle, --format jsonl, log columns, --line-buffered and the
// flush on a pause, --cache-mb, per-host counts and warnings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { dirname, join } from 'node:path'
import { parseRobots } from '../../../src/index.js'
import { CLI, ensureBuilt, isUrlLine, run, splitKeepingEndings, tempDir, urlOf, type RunResult } from '../helpers.js'

const ROBOTS = `User-agent: *
Disallow: /private
Allow: /private/ok
Disallow: /*.pdf$
`
const OTHER = `User-agent: bot
Disallow: /
Allow: /open
`

let tmp: ReturnType<typeof tempDir>
let robotsPath: string
let dir: string
let bundle: string

/** Input with every edge the issue names: empty lines, CRLF, invalid UTF-8, a 1 MB line, a last line without LF. */
function edgeInput(): Buffer {
  const parts: Buffer[] = []
  const hosts = ['https://example.com', 'http://EXAMPLE.com:8080', 'https://other.org', 'https://nofile.net', 'http://[::1]']
  for (let i = 0; i < 3000; i++) {
    const h = hosts[i % hosts.length]
    const path = ['/private/x', '/private/ok/y', '/doc.pdf', '/open/a', '/', '/a?b#c'][i % 6]
    if (i % 97 === 0) parts.push(Buffer.from('\n'))
    if (i % 89 === 0) parts.push(Buffer.from(`${h}${path}\r\n`))
    else if (i % 83 === 0) parts.push(Buffer.concat([Buffer.from(`${h}/private/\xff\xfe`, 'latin1'), Buffer.from([0xc3, 0x28, 0x0a])]))
    else parts.push(Buffer.from(`${h}${path}${i}\n`))
  }
  parts.push(Buffer.from(`https://example.com/private/${'x'.repeat(1_000_000)}\n`))
  parts.push(Buffer.from('https://other.org/open/last-line-without-newline'))
  return Buffer.concat(parts)
}

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  robotsPath = tmp.path('robots.txt')
  writeFileSync(robotsPath, ROBOTS)
  dir = tmp.path('robots')
  mkdirSync(dir)
  writeFileSync(join(dir, 'example.com'), ROBOTS)
  writeFileSync(join(dir, 'other.org'), OTHER)
  writeFileSync(join(dir, '[::1]'), OTHER)
  bundle = tmp.path('robots.bundle')
})
afterAll(() => tmp.cleanup())

/** Runs filter with tiny blocks, so that every few lines are a block of their own and --jobs starts its workers. */
function filterRun(args: string[], input: Uint8Array, blockBytes = 256): Promise<RunResult> {
  return run(['filter', '--agent', 'bot', '-q', ...args], { input, env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: String(blockBytes) } })
}

describe('--jobs N: byte for byte the output of --jobs 1', () => {
  const input = edgeInput()
  const lineCount = splitKeepingEndings(input).length
  const sources = [
    ['--robots', () => ['--robots', robotsPath]],
    ['--robots-dir', () => ['--robots-dir', dir]],
    ['--bundle', () => ['--bundle', bundle]],
  ] as const

  beforeAll(async () => {
    const packed = await run(['pack', dir, '-o', bundle, '-q'])
    expect(packed.status, packed.stderr).toBe(0)
  })

  for (const [name, source] of sources) {
    it(`${name}: every output form, edge-case input, 3 jobs = 1 job`, async () => {
      for (const form of [['--print', 'verdicts'], ['--print', 'allowed'], ['--print', 'disallowed'], ['--format', 'jsonl']]) {
        const [one, three] = await Promise.all([filterRun([...source(), ...form, '--jobs', '1'], input), filterRun([...source(), ...form, '--jobs', '3'], input)])
        expect(one.status, one.stderr).toBe(0)
        expect(three.status, three.stderr).toBe(0)
        expect(three.stdout.equals(one.stdout), `${name} ${form.join(' ')}`).toBe(true)
        // Exactly one output line per input line when every line is written.
        if (form[1] === 'verdicts' || form[1] === 'jsonl') expect(one.stdout.toString('latin1').split('\n').length - 1).toBe(lineCount)
      }
    })
  }

  it('--print allowed and disallowed of 2 jobs interleave back into the input', async () => {
    const [a, d, v] = await Promise.all(['allowed', 'disallowed', 'verdicts'].map((m) => filterRun(['--robots-dir', dir, '--print', m, '--jobs', '2'], input)))
    const al = splitKeepingEndings(a.stdout)
    const dl = splitKeepingEndings(d.stdout)
    let ai = 0
    let di = 0
    const parts: Buffer[] = []
    for (const line of v.stdout.toString('latin1').split('\n').slice(0, -1)) {
      // A line without a URL (an empty line) is kept on both sides.
      if (line.startsWith('invalid')) {
        parts.push(al[ai++])
        expect(dl[di++].equals(parts[parts.length - 1])).toBe(true)
      } else parts.push(line.startsWith('allowed') ? al[ai++] : dl[di++])
    }
    expect(Buffer.concat(parts).equals(input)).toBe(true)
  })

  it('the verdicts are the library’s, whatever the jobs and the block size', async () => {
    const m = { 'example.com': parseRobots(ROBOTS).agent('bot'), 'other.org': parseRobots(OTHER).agent('bot'), '[::1]': parseRobots(OTHER).agent('bot') } as Record<string, ReturnType<ReturnType<typeof parseRobots>['agent']>>
    let want = ''
    for (const line of splitKeepingEndings(input)) {
      const url = urlOf(line)
      if (!isUrlLine(url)) {
        want += `invalid\t0\t${url.toString('latin1')}\n`
        continue
      }
      const host = /^[a-z]+:\/\/(\[[^\]]*\]|[^/:?#]+)/i.exec(url.toString('latin1'))?.[1].toLowerCase()
      const e = host !== undefined && m[host] !== undefined ? m[host].explain(new Uint8Array(url)) : { allowed: true, rule: null }
      want += `${e.allowed ? 'allowed' : 'disallowed'}\t${e.rule?.line ?? 0}\t${url.toString('latin1')}\n`
    }
    for (const [jobs, block] of [['2', 16], ['2', 100_000], ['1', 16]] as const) {
      const r = await filterRun(['--bundle', bundle, '--print', 'verdicts', '--jobs', jobs], input, block)
      const got = r.stdout.toString('latin1').split('\n')
      const wanted = want.split('\n')
      const first = wanted.findIndex((l, i) => got[i] !== l)
      expect(first === -1 ? null : [got[first]?.slice(0, 200), wanted[first].slice(0, 200)], `jobs ${jobs}, blocks of ${block} bytes`).toBeNull()
      expect(got.length).toBe(wanted.length)
    }
  })
})

/** Bytes a process has read and written so far (all its threads), from /proc/PID/io. */
function procIo(pid: number): { read: number; written: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8')
  return { read: Number(/^rchar:\s+(\d+)/m.exec(io)![1]), written: Number(/^wchar:\s+(\d+)/m.exec(io)![1]) }
}

describe('--jobs: bounded memory when stdout is slow', () => {
  it.skipIf(process.platform !== 'linux')('a consumer that stops reading holds the whole pipeline back', async () => {
    const big = tmp.path('big.txt')
    const line = 'https://example.com/public/a/fairly/long/path/to/make/the/file/large?with=query&and=more\n'
    writeFileSync(big, line.repeat(Math.ceil(120e6 / line.length)))
    const size = Math.ceil(120e6 / line.length) * line.length
    const child = spawn(process.execPath, [CLI, 'filter', '--robots-dir', dir, '--agent', 'bot', '--jobs', '2', '-q', big], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.pause()
    // Wait until the process is held back: it has read nothing more for 2 s (however slow the machine is).
    let io = procIo(child.pid!)
    for (let still = 0; still < 8; ) {
      await new Promise((r) => setTimeout(r, 250))
      const now = procIo(child.pid!)
      still = now.read === io.read ? still + 1 : 0
      io = now
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    const rssMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024
    // It filled the pipe we do not read, then stopped reading its input long before the end.
    expect(io.written).toBeGreaterThanOrEqual(64 * 1024)
    expect(io.read).toBeLessThan(size / 2)
    let bytes = 0
    child.stdout.on('data', (c: Buffer) => (bytes += c.length))
    child.stdout.resume()
    const code = await new Promise((r) => child.on('close', r))
    expect(code).toBe(0)
    expect(bytes).toBe(size)
    // 120 MB of input, all allowed: without backpressure the output would pile up in memory.
    expect(rssMb).toBeLessThan(110)
  })
})

describe('--jobs: a worker that fails', () => {
  it('a worker thread that cannot start ends the run with one line, exit 1, never a hang', () => {
    const lonely = tmp.path('lonely')
    mkdirSync(lonely)
    // The command and the chunks it shares with the other entries, without its worker's file.
    for (const f of readdirSync(dirname(CLI))) if (f.endsWith('.js') && f !== 'filter-worker.js') copyFileSync(join(dirname(CLI), f), join(lonely, f))
    const r = spawnSync(process.execPath, [join(lonely, 'cli.js'), 'filter', '--robots', robotsPath, '--agent', 'bot', '--jobs', '2'], {
      input: '/a\n/private\n'.repeat(100),
      env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '64' },
      timeout: 20_000,
      encoding: 'utf8',
    })
    expect(r.error).toBeUndefined()
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^robots-automaton: a worker thread failed: .*filter-worker\.js.*\n$/)
  })
})

describe('regression: --jobs N started its N - 1 worker threads for any input, however short', () => {
  it('a worker starts only for a block no started worker has room for; the output stays that of --jobs 1', async () => {
    const counted = tmp.path('counted')
    mkdirSync(counted)
    for (const f of readdirSync(dirname(CLI))) if (f.endsWith('.js')) copyFileSync(join(dirname(CLI), f), join(counted, f === 'filter-worker.js' ? 'real-worker.js' : f))
    // The worker's file, counting each start before it runs the real one.
    const starts = tmp.path('starts.log')
    writeFileSync(starts, '')
    writeFileSync(join(counted, 'filter-worker.js'), `import { appendFileSync } from 'node:fs'\nappendFileSync(${JSON.stringify(starts)}, 'start\\n')\nawait import('./real-worker.js')\n`)
    // Three blocks of 64 bytes: the first judged by the main thread, the other two fit in one worker's hands.
    const input = '/private/x/abcd\n/public/abcdefg\n'.repeat(6)
    const file = tmp.path('three-blocks.txt')
    writeFileSync(file, input)
    const env = { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '64' }
    const many = spawnSync(process.execPath, [join(counted, 'cli.js'), 'filter', '--robots', robotsPath, '--agent', 'bot', '--print', 'verdicts', '--jobs', '16', file], { env, encoding: 'utf8' })
    const one = await filterRun(['--robots', robotsPath, '--print', 'verdicts', '--jobs', '1'], Buffer.from(input), 64)
    expect(many.status, many.stderr).toBe(0)
    expect(many.stdout).toBe(one.stdout.toString())
    expect(readFileSync(starts, 'utf8')).toBe('start\n')
  })
})

describe('--format jsonl', () => {
  it('url, allowed, line, rule, host, source: a file that decided, a file with no matching rule, no file', async () => {
    const input = Buffer.concat([
      Buffer.from('https://example.com/private/x\nhttps://example.com/public\nhttps://nofile.net/private\n/relative\n'),
      Buffer.from([0x68, 0x74, 0x74, 0x70, 0x73, 0x3a, 0x2f, 0x2f, 0x6f, 0x74, 0x68, 0x65, 0x72, 0x2e, 0x6f, 0x72, 0x67, 0x2f, 0xff, 0x0a]),
    ])
    const r = await filterRun(['--robots-dir', dir, '--format', 'jsonl'], input)
    const records = r.stdout
      .toString()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(records).toEqual([
      { url: 'https://example.com/private/x', allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' }, host: 'example.com', source: join(dir, 'example.com'), input_line: 1 },
      { url: 'https://example.com/public', allowed: true, line: 0, rule: null, host: 'example.com', source: join(dir, 'example.com'), input_line: 2 },
      { url: 'https://nofile.net/private', allowed: true, line: 0, rule: null, host: 'nofile.net', source: null, input_line: 3 },
      // Per host, a path without a host is not judged: allowed null, and why.
      { url: '/relative', allowed: null, reason: 'no-host', line: 0, rule: null, host: null, source: null, input_line: 4 },
      { url: 'https://other.org/\ufffd', url_base64: Buffer.from('https://other.org/\xff', 'latin1').toString('base64'), allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/' }, host: 'other.org', source: join(dir, 'other.org'), input_line: 5 },
    ])
    const single = await filterRun(['--robots', robotsPath, '--format', 'jsonl', '--print', 'disallowed'], Buffer.from('/a.pdf\n/ok\n'))
    expect(JSON.parse(single.stdout.toString())).toEqual({ url: '/a.pdf', allowed: false, line: 4, rule: { kind: 'disallow', pattern: '/*.pdf$' }, host: null, source: robotsPath, input_line: 1 })
  })

  it('every record carries its line number in its input (and the input, when there are several), whatever the jobs and blocks', async () => {
    const one = tmp.path('jsonl-one.txt')
    const two = tmp.path('jsonl-two.txt')
    const lines = Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? 'not a url' : i % 5 === 0 ? '' : `/p${i}.pdf`))
    writeFileSync(one, `${lines.join('\n')}\n`)
    writeFileSync(two, `/private\n${lines.join('\n')}`)
    for (const jobs of ['1', '3']) {
      const r = await filterRun(['--robots', robotsPath, '--format', 'jsonl', '--jobs', jobs, one, two], Buffer.from(''), 64)
      const records = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { input: string; input_line: number; url: string; allowed: boolean | null; reason?: string })
      expect(records.length).toBe(801)
      records.forEach((rec, i) => {
        const [input, number] = i < 400 ? [one, i + 1] : [two, i - 399]
        expect([rec.input, rec.input_line], `record ${i} (jobs ${jobs})`).toEqual([input, number])
        const text = i < 400 ? lines[i] : i === 400 ? '/private' : lines[i - 401]
        expect(rec.url).toBe(text)
        if (text === '') expect(rec).toMatchObject({ allowed: null, reason: 'empty' })
        else if (text === 'not a url') expect(rec).toMatchObject({ allowed: null, reason: 'not-url' })
        else expect(typeof rec.allowed).toBe('boolean')
      })
    }
  })
})

describe('log columns: --field, --host-field, --delimiter', () => {
  const LOG = [
    'example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" 200 512 "-" "Mozilla/5.0"',
    'EXAMPLE.com 203.0.113.9 - - [10/Oct/2026:13:55:37 +0000] "GET /private/ok/1 HTTP/1.1" 200 512 "-" "Mozilla/5.0"',
    'other.org:80 198.51.100.7 - - [10/Oct/2026:13:55:38 +0000] "GET /x HTTP/1.1" 404 0 "-" "curl/8"',
    'nofile.net 198.51.100.7 - - [10/Oct/2026:13:55:39 +0000] "GET /private HTTP/1.1" 200 9 "-" "curl/8"',
    'short line',
    '',
  ]

  it('judges the URL column by the host column and writes whole lines', async () => {
    const input = `${LOG.join('\n')}\n`
    const v = await filterRun(['--robots-dir', dir, '--field', '6', '--host-field', '1', '--print', 'verdicts'], Buffer.from(input))
    expect(v.stdout.toString()).toBe(
      [
        `disallowed\t2\t${LOG[0]}`,
        `allowed\t3\t${LOG[1]}`,
        `disallowed\t2\t${LOG[2]}`,
        `allowed\t0\t${LOG[3]}`,
        'invalid\t0\tshort line',
        'invalid\t0\t',
        '',
      ].join('\n'),
    )
    // The same with the format's name.
    const named = await filterRun(['--robots-dir', dir, '--log-format', 'vhost_combined', '--print', 'verdicts'], Buffer.from(input))
    expect(named.stdout.toString()).toBe(v.stdout.toString())
    const allowed = await filterRun(['--robots-dir', dir, '--field', '6', '--host-field', '1', '--jobs', '2'], Buffer.from(input))
    expect(allowed.stdout.toString()).toBe(`${LOG[1]}\n${LOG[3]}\nshort line\n\n`)
    const dropped = await filterRun(['--robots-dir', dir, '--log-format', 'vhost_combined', '--invalid', 'drop'], Buffer.from(input))
    expect(dropped.stdout.toString()).toBe(`${LOG[1]}\n${LOG[3]}\n`)
    const summary = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--log-format', 'vhost_combined'], { input })
    expect(summary.status).toBe(0)
    expect(summary.stderr).toMatch(/^robots-automaton: warning: line 5 of '<stdin>' was not judged: it is not a vhost_combined line \(vhost\[:port\] host ident user \[time\] "request" status size "referrer" "agent"\) with a request line \("GET \/path HTTP\/1\.1"\): short line; check --log-format/)
    expect(summary.stderr).toMatch(/6 lines read: 2 allowed, 2 disallowed, 2 without a URL \(kept\); .*hosts: 2 with a robots\.txt, 1 without one, 0 unreadable\n$/)
  })

  it('--delimiter: CSV and TSV columns, URLs in full', async () => {
    const csv = 'id,url,host\n1,https://example.com/private/a,x\n2,,y\n3,/doc.pdf,z\n'
    const r = await filterRun(['--robots', robotsPath, '--field', '2', '--delimiter', ',', '--print', 'verdicts'], Buffer.from(csv))
    expect(r.stdout.toString()).toBe('invalid\t0\tid,url,host\ndisallowed\t2\t1,https://example.com/private/a,x\ninvalid\t0\t2,,y\ndisallowed\t4\t3,/doc.pdf,z\n')
    const tsv = await filterRun(['--robots', robotsPath, '--field', '2', '--delimiter', '\\t', '--print', 'disallowed'], Buffer.from('a\t/private b\tc\nd\t/ok\n'))
    expect(tsv.stdout.toString()).toBe('a\t/private b\tc\n')
  })
})

/**
 * How long to wait for output that must come before the writer goes on: the time-out only ends a test that
 * fails (the output never comes until stdin ends), so it is long enough for a busy machine.
 */
const STALL_MS = 20_000

/** Spawns filter with a stdin we write to over time; resolves each stdout chunk with its arrival time. */
function slowWriter(args: string[]): { write: (s: string) => void; end: () => void; output: () => string; waitFor: (text: string, ms: number) => Promise<boolean>; done: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, 'filter', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  const listeners: Array<() => void> = []
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString()
    listeners.splice(0).forEach((l) => l())
  })
  child.stderr.on('data', () => {})
  const done = new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    write: (s) => child.stdin.write(s),
    end: () => child.stdin.end(),
    output: () => out,
    waitFor: (text, ms) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(out.includes(text)), ms)
        const check = () => {
          if (out.includes(text)) {
            clearTimeout(timer)
            resolve(true)
          } else listeners.push(check)
        }
        check()
      }),
    done,
  }
}

describe('--line-buffered, and the flush when the input pauses', () => {
  it("regression: --line-buffered --jobs 4 judged in one thread and said nothing of the --jobs ignored; a usage error now (--jobs 1 still goes)", async () => {
    const r = await run(['filter', '--robots', robotsPath, '--agent', 'bot', '--line-buffered', '--jobs', '4', '-q'], { input: 'https://example.com/a\n' })
    expect([r.status, r.stdout.length, r.stderr]).toEqual([2, 0, "robots-automaton: filter: '--jobs 4' does not go with '--line-buffered', which judges each line in the main thread as it comes (see 'robots-automaton filter --help')\n"])
  })

  it('--line-buffered: each line comes out before the writer sends the next', async () => {
    const p = slowWriter(['--robots', robotsPath, '--agent', 'bot', '--line-buffered', '--print', 'verdicts', '-q'])
    for (let i = 0; i < 4; i++) {
      p.write(`/page/${i}\n`)
      expect(await p.waitFor(`allowed\t0\t/page/${i}\n`, STALL_MS), `line ${i}`).toBe(true)
      // Nothing of the next line was written yet: the output holds exactly the lines so far.
      expect(p.output().split('\n').length - 1).toBe(i + 1)
    }
    p.write('/private/a\n/private/b\n')
    expect(await p.waitFor('disallowed\t2\t/private/b\n', STALL_MS)).toBe(true)
    p.end()
    expect(await p.done).toBe(0)
  })

  it('without it, what was read is written once the input pauses (at the latest about 0.1 s later)', async () => {
    const p = slowWriter(['--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts', '-q'])
    p.write('https://example.com/private/1\nhttps://other.org/open/2\nhttps://example.com/par')
    expect(await p.waitFor('allowed\t3\thttps://other.org/open/2\n', STALL_MS)).toBe(true)
    expect(p.output()).toBe('disallowed\t2\thttps://example.com/private/1\nallowed\t3\thttps://other.org/open/2\n')
    p.write('tial\n')
    p.end()
    expect(await p.done).toBe(0)
    expect(p.output()).toMatch(/\nallowed\t0\thttps:\/\/example\.com\/partial\n$/)
  })
})

describe('per-host counts, the cache budget, warnings', () => {
  it('counts distinct hosts, not look-ups; --cache-mb 0 reloads but answers the same', async () => {
    let input = ''
    for (let r = 0; r < 20; r++) for (let i = 0; i < 25; i++) input += `https://n${i}.test/x\nhttps://example.com/private/${r}\nhttps://other.org/${i}\n`
    const big = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts'], { input })
    expect(big.stderr).toMatch(/^robots-automaton: 1,500 lines read: .*; hosts: 2 with a robots\.txt, 25 without one, 0 unreadable\n$/)
    const none = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts', '--cache-mb', '0', '--jobs', '1'], { input })
    expect(none.stdout.equals(big.stdout)).toBe(true)
    expect(none.stderr).toMatch(/hosts: 2 with a robots\.txt, 25 without one, 0 unreadable; [\d,]+ robots\.txt loaded again after eviction \(raise --cache-mb\)\n$/)
  })

  it('HTML, binary and truncated robots.txt get one warning each, at most 10, the rest counted', async () => {
    const many = tmp.path('many')
    mkdirSync(many)
    let input = ''
    for (let i = 0; i < 14; i++) {
      writeFileSync(join(many, `h${i}.test`), i % 2 ? '<!DOCTYPE html>\n<html>not found</html>\n' : gzipSync('User-agent: *\nDisallow: /\n'.repeat(20)))
      input += `https://h${i}.test/a\nhttps://h${i}.test/b\n`
    }
    writeFileSync(join(many, 'big.test'), `User-agent: *\n${'Disallow: /some/long/enough/path\n'.repeat(20_000)}`)
    input = `https://big.test/a\n${input}`
    for (const jobs of ['1', '2']) {
      const r = await run(['filter', '--robots-dir', many, '--agent', 'bot', '--jobs', jobs], { input, env: { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '64' } })
      const lines = r.stderr.trimEnd().split('\n')
      expect(lines.filter((l) => l.startsWith('robots-automaton: warning: ')).length, r.stderr).toBe(10)
      expect(lines.filter((l) => /h\d+\.test' looks like an HTML page/.test(l)).length).toBeGreaterThan(0)
      expect(lines[lines.length - 1]).toMatch(/hosts: 15 with a robots\.txt, 0 without one, 0 unreadable; files with problems: 7 HTML, 7 binary, 1 truncated; 5 more warnings not shown$/)
    }
  })

  it('a UTF-16 robots.txt whose ASCII lines are rules: check and filter do not warn "URLs allowed" and then disallow', async () => {
    const file = tmp.path('utf16-rules.txt')
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\nUser-agent: *\nDisallow: /\n')]))
    const c = await run(['check', file, '--agent', 'bot', '/x'])
    expect(c.stdout.toString()).toBe('disallowed\t/x\tline 3: Disallow: /\n')
    expect(c.stderr).toContain('[utf16-body]')
    expect(c.stderr).not.toContain('URLs allowed')
    const dir = tmp.path('utf16-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'u.test'), readFileSync(file))
    for (const jobs of ['1', '2']) {
      const f = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--jobs', jobs, '--print', 'verdicts'], { input: 'https://u.test/x\n' })
      expect(f.stdout.toString()).toBe('disallowed\t3\thttps://u.test/x\n')
      expect(f.stderr).toContain('[utf16-body]')
      expect(f.stderr).not.toContain('URLs allowed')
    }
  })

  it('check and filter --robots warn about an HTML robots.txt', async () => {
    const html = tmp.path('robots.html.txt')
    writeFileSync(html, '<html><head><title>404</title></head></html>\n')
    const c = await run(['check', html, '--agent', 'bot', '/x'])
    expect(c.stderr).toContain(`warning: '${html}' looks like an HTML page, not a robots.txt [html-body]`)
    const f = await run(['filter', '--robots', html, '--agent', 'bot'], { input: '/x\n' })
    expect(f.stderr.split('\n')[0]).toContain('looks like an HTML page')
    const q = await run(['filter', '--robots', html, '--agent', 'bot', '-q'], { input: '/x\n' })
    expect(q.stderr).toBe('')
  })
})
