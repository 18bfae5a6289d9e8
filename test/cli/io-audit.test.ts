/**
 * Regressions of the command line's inputs and outputs found by a hostile
 * user: each test is named after what went wrong, and runs the built CLI.
 */
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateRawSync, gzipSync } from 'node:zlib'
import { tableCrc32 } from '../../src/cli/filter/gunzip.js'
import { RobotsStore } from '../../src/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ensureBuilt, run, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp?.cleanup())

/** Runs the CLI with stdout appended to (or truncating) `outPath`, stdin from `inPath` when given. */
function runInto(args: readonly string[], outPath: string, flags: 'a' | 'w', inPath?: string) {
  const outFd = openSync(outPath, flags)
  const inFd = inPath === undefined ? 'ignore' : openSync(inPath, 'r')
  try {
    return spawnSync(process.execPath, [CLI, ...args], { stdio: [inFd, outFd, 'pipe'], encoding: 'utf8', timeout: 30_000 })
  } finally {
    closeSync(outFd)
    if (typeof inFd === 'number') closeSync(inFd)
  }
}

describe('an input that is also the output', () => {
  const urls = Array.from({ length: 3000 }, (_, i) => `https://a.test/p${i}`).join('\n') + '\n'

  it('filter, diff and check refuse an input that is stdout\'s own file (>> urls.txt), instead of reading their output back forever', () => {
    const robots = tmp.path('robots.txt')
    const cases: [string[], boolean][] = [
      [['filter', '--robots', robots, '--agent', 'bot', 'FILE'], false],
      [['filter', '--robots', robots, '--agent', 'bot', '--print', 'verdicts', tmp.path('robots.txt'), 'FILE'], false],
      [['filter', '--robots', robots, '--agent', 'bot'], true],
      [['diff', robots, robots, '--agent', 'bot', 'FILE'], false],
      [['check', robots, '--agent', 'bot', '/a', '-'], true],
    ]
    for (const [args, viaStdin] of cases) {
      for (const flags of ['a', 'w'] as const) {
        const file = tmp.path('self.txt')
        writeFileSync(file, urls)
        const r = runInto(
          args.map((a) => (a === 'FILE' ? file : a)),
          file,
          flags,
          viaStdin ? file : undefined,
        )
        expect(r.error, `${args.join(' ')}: must not loop`).toBeUndefined()
        expect(r.status, `${args.join(' ')} (${flags}): ${r.stderr}`).toBe(1)
        expect(r.stderr).toMatch(/^robots-automaton: cannot read input file '(<stdin>|[^']*self\.txt)': it is also the output \(stdout\)/m)
        // Nothing was written: appended to, the file is as it was; truncated, it is empty.
        expect(readFileSync(file, 'utf8')).toBe(flags === 'a' ? urls : '')
      }
    }
  })

  it('another file as the output is written as usual', () => {
    const file = tmp.path('in.txt')
    writeFileSync(file, urls)
    const r = runInto(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', file], tmp.path('out.txt'), 'w')
    expect(r.status, r.stderr).toBe(0)
    expect(readFileSync(tmp.path('out.txt'), 'utf8')).toBe(urls)
  })
})

describe('host columns', () => {
  const LOG = '203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private HTTP/1.1" 200 512 "-" "Mozilla/5.0"'

  it('a bracketed IPv6 host column ([::1], split at blanks) is the host [::1], not refused', async () => {
    const dir = tmp.path('v6-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, '[::1]'), 'User-agent: *\nDisallow: /private\n')
    const input = '[::1] /private\n[0:0::1]:8080 /private\n[::1]\t/public\n'
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--field', '2', '--host-field', '1', '--print', 'verdicts'], { input })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.toString()).toBe('disallowed\t2\t[::1] /private\ndisallowed\t2\t[0:0::1]:8080 /private\nallowed\t0\t[::1]\t/public\n')
    const v = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--log-format', 'vhost_combined', '--print', 'verdicts', '-q'], { input: `[::1] ${LOG}\n` })
    expect(v.stdout.toString()).toBe(`disallowed\t2\t[::1] ${LOG}\n`)
  })
})

describe('bundles that are not files', () => {
  it.skipIf(process.platform === 'win32')('a FIFO no process writes to, as any command\'s bundle, is refused at once (filter and diff hung, waiting for a writer, before being refused; audit and fetch --update hung)', () => {
    const fifo = tmp.path('bundle.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    for (const args of [
      ['filter', '--bundle', fifo, '--agent', 'bot'],
      ['diff', '--bundle', fifo, '--bundle', fifo, '--agent', 'bot'],
      ['audit', fifo, '--crawlers', 'bot'],
      ['fetch', '--update', fifo, '-o', tmp.path('fifo.out')],
    ]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { input: 'https://a.test/x\n', encoding: 'utf8', timeout: 15_000 })
      expect(r.error, `${args[0]} must not hang`).toBeUndefined()
      expect(r.status).toBe(1)
      expect(r.stderr).toBe(`robots-automaton: cannot read bundle '${fifo}': a FIFO no process writes to\n`)
    }
  })

  it.skipIf(process.platform === 'win32')('regression: filter and diff --bundle refused a bundle through a pipe (<(cat b.bundle)) that audit, pack and fetch --update read; lint DIR skipped a FIFO in DIR without a word', () => {
    const bundle = packedBundle('pipe-all')
    const cli = `"${process.execPath}" "${CLI}"`
    const dir = tmp.path('lint-fifo')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /x\n')
    expect(spawnSync('mkfifo', [join(dir, 'b.test')]).status).toBe(0)
    const script = [
      `echo https://a.test/x | ${cli} filter --bundle <(cat "${bundle}") --agent bot --print verdicts -q`,
      `echo https://a.test/x | ${cli} diff --bundle <(cat "${bundle}") --bundle <(sleep 0.2; cat "${bundle}") --agent bot -q; echo "diff $?"`,
      `${cli} lint "${dir}"; echo "lint $?"`,
    ].join('\n')
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 })
    expect(r.stdout).toBe('disallowed\t2\thttps://a.test/x\ndiff 0\nlint 1\n')
    expect(r.stderr).toContain(`cannot read robots.txt '${join(dir, 'b.test')}': not a regular file (a FIFO)`)
    expect(r.stderr).toContain('1 file linted: 0 errors, 0 warnings, 0 infos; 2 lines, 27 bytes; 1 file not read')
  })

  it.skipIf(!existsSync('/dev/zero'))('a device as audit\'s snapshot (/dev/zero) is refused, not read without end', () => {
    for (const args of [
      ['audit', '/dev/zero', '--crawlers', 'bot'],
      ['audit', '--bundle', '/dev/zero', '--crawlers', 'bot'],
    ]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 15_000 })
      expect(r.error, `${args.join(' ')} must not hang`).toBeUndefined()
      expect(r.status).toBe(1)
      expect(r.stderr).toBe(`robots-automaton: cannot read bundle '/dev/zero': not a regular file\n`)
    }
  })

  it.skipIf(process.platform === 'win32')('a bundle through a pipe (audit <(cat x.bundle)) is still read', () => {
    const bundle = packedBundle('piped')
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" audit <(cat "${bundle}") --crawlers bot -q`], { encoding: 'utf8', timeout: 15_000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toContain('a.test,bot,some,global,ok')
  })
})

/** A bundle `NAME.bundle` of one host, a.test, whose robots.txt disallows /x (packed by the CLI). */
function packedBundle(name: string): string {
  const bundle = tmp.path(`${name}.bundle`)
  const dir = tmp.path(`${name}-dir`)
  mkdirSync(dir)
  writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /x\n')
  expect(spawnSync(process.execPath, [CLI, 'pack', dir, '-o', bundle, '-q']).status).toBe(0)
  return bundle
}

describe('bundles read through a pipe without end', () => {
  it.skipIf(process.platform === 'win32')('fetch --update and audit read a pipe as a bundle only as far as its header says (<(cat /dev/zero) took memory without end)', () => {
    const bundle = packedBundle('endless')
    const cli = `"${process.execPath}" "${CLI}"`
    const script = [
      `${cli} fetch --update <(cat /dev/zero) -o "${tmp.path('endless.out')}"; echo "status $?" >&2`,
      `${cli} audit <(cat "${bundle}" /dev/zero) --crawlers bot -q; echo "status $?" >&2`,
    ].join('\n')
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 })
    expect(r.error, 'must not hang').toBeUndefined()
    expect(r.stderr.replace(/\/dev\/fd\/\d+/g, 'PIPE')).toBe(
      "robots-automaton: cannot read bundle 'PIPE': not a robots-automaton bundle (bad magic or too short) (ERR_FORMAT)\nstatus 1\n" +
        "robots-automaton: cannot read bundle 'PIPE': longer than its header says\nstatus 1\n",
    )
  })
})

describe('audit counts', () => {
  it("one host is '1 host', not '1 hosts', in the summary and in the comparison of two snapshots", async () => {
    const dir = tmp.path('one-host')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /x\n')
    const r = await run(['audit', dir, '--crawlers', 'bot', '--format', 'table'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.toString()).toMatch(/\n1 host: 1 ok\n$/)
    const two = await run(['audit', dir, dir, '--crawlers', 'bot', '--format', 'table'])
    expect(two.stdout.toString()).toMatch(/\n1 host compared\n$/)
  })
})

describe('lint of a directory', () => {
  it.skipIf(process.platform === 'win32')('a link back to a parent (sub/up -> ..) is walked once, not linted again at every depth until the links run out', async () => {
    const dir = tmp.path('lint-loop')
    mkdirSync(join(dir, 'sub'), { recursive: true })
    writeFileSync(join(dir, 'a.txt'), 'User-agent: *\nDisallow: /\n')
    writeFileSync(join(dir, 'sub', 'b.txt'), 'User-agent: *\nDisallow: /x\n')
    symlinkSync('..', join(dir, 'sub', 'up'))
    symlinkSync('.', join(dir, 'self'))
    const r = await run(['lint', dir])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toContain(`warning: skipped '${join(dir, 'self')}' (and 1 more): a link to a directory already linted`)
    expect(r.stderr).toMatch(/\n?robots-automaton: 2 files linted: 0 errors, 0 warnings, 0 infos; 4 lines, 53 bytes\n$/)
    expect(r.stderr).not.toMatch(/too many symbolic links|not read/)
  })
})

/** A gzip member of `data`, with the optional header fields of RFC 1952 (its CRC-32 spoiled with `badCrc`). */
function gzipMember(data: string, header: { extra?: boolean; name?: string; comment?: string; headerCrc?: boolean } = {}, badCrc = false): Buffer {
  const body = Buffer.from(data)
  const flags = (header.headerCrc ? 2 : 0) | (header.extra ? 4 : 0) | (header.name !== undefined ? 8 : 0) | (header.comment !== undefined ? 16 : 0)
  const parts = [Buffer.from([0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 0xff])]
  if (header.extra) parts.push(Buffer.from([6, 0]), Buffer.from('XYZXYZ'))
  if (header.name !== undefined) parts.push(Buffer.from(`${header.name}\0`))
  if (header.comment !== undefined) parts.push(Buffer.from(`${header.comment}\0`))
  if (header.headerCrc) parts.push(Buffer.alloc(2, 0)) // not checked by gzip readers
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE((gzipSync(body).readUInt32LE(gzipSync(body).length - 8) ^ (badCrc ? 1 : 0)) >>> 0, 0)
  trailer.writeUInt32LE(body.length, 4)
  return Buffer.concat([...parts, deflateRawSync(body), trailer])
}

/** Runs the CLI with `input` written to its stdin in pieces of `piece` bytes, each after a pause. */
function runPiecewise(args: readonly string[], input: Buffer, piece: number): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
    child.stdin.on('error', () => {})
    let at = 0
    const next = (): void => {
      if (at >= input.length) return void child.stdin.end()
      child.stdin.write(input.subarray(at, at + piece))
      at += piece
      setTimeout(next, 1)
    }
    next()
  })
}

describe('gzip input', () => {
  const robots = () => tmp.path('robots.txt')
  const A = 'https://a.test/private\n'
  const B = 'https://a.test/ok\n'

  it('the CRC-32 used where the platform has none is gzip\'s, also continued across chunks', () => {
    for (const text of ['', 'a', 'https://a.test/p\n'.repeat(1000)]) {
      const bytes = Buffer.from(text)
      const gz = gzipSync(bytes)
      expect(tableCrc32(bytes, 0)).toBe(gz.readUInt32LE(gz.length - 8))
      const half = bytes.length >> 1
      expect(tableCrc32(bytes.subarray(half), tableCrc32(bytes.subarray(0, half), 0))).toBe(gz.readUInt32LE(gz.length - 8))
    }
  })

  it('trailing garbage after the last member: every line of the good members is written before the error (the last block of lines was lost)', () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `https://a.test/p${i}\n`).join('')
    const file = tmp.path('garbage.gz')
    writeFileSync(file, Buffer.concat([gzipSync(lines), Buffer.from('garbage\n')]))
    const r = spawnSync(process.execPath, [CLI, 'filter', '--robots', robots(), '--agent', 'bot', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${file}': not valid gzip data\n`)
    expect(r.stdout.length).toBe(lines.length)
    expect(r.stdout === lines).toBe(true)
  })

  it('members with every optional header field, empty members and zero padding are read as zcat reads them, at every split of a slow pipe', async () => {
    const good = Buffer.concat([
      gzipMember(A, { extra: true, name: 'urls.txt', comment: 'c', headerCrc: true }),
      gzipMember(''),
      gzipMember(B, { name: '' }),
      Buffer.alloc(40, 0),
    ])
    for (const piece of [1, 3, 7, 64]) {
      const r = await runPiecewise(['filter', '--robots', robots(), '--agent', 'bot', '--print', 'verdicts', '-q'], good, piece)
      expect(r.status, `${piece}: ${r.stderr}`).toBe(0)
      expect(r.stdout).toBe(`disallowed\t2\t${A}allowed\t0\t${B}`)
    }
  })

  it('a member header whose name never ends is refused once past its limit, not held (and copied) without bound', () => {
    const file = tmp.path('endless-name.gz')
    const header = Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 0xff])
    writeFileSync(file, Buffer.concat([header, Buffer.alloc(4 << 20, 0x61)]))
    const r = spawnSync(process.execPath, [CLI, 'filter', '--robots', robots(), '--agent', 'bot', file], { encoding: 'utf8', timeout: 30_000 })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${file}': not valid gzip data\n`)
  })

  it('a member whose checksum does not match, a member cut short and bytes that are no member fail the run (exit 1) after the lines before them', async () => {
    const cases: [Buffer, string, string][] = [
      [Buffer.concat([gzipMember(A), gzipMember(B, {}, true)]), 'not valid gzip data', `disallowed\t2\t${A}allowed\t0\t${B}`],
      [Buffer.concat([gzipMember(A), gzipMember(B).subarray(0, 25)]), 'gzip data is cut short', `disallowed\t2\t${A}`],
      [Buffer.concat([gzipMember(A), gzipMember(B).subarray(0, 6)]), 'gzip data is cut short', `disallowed\t2\t${A}`],
      [Buffer.concat([gzipMember(A), Buffer.from('PK\x03\x04')]), 'not valid gzip data', `disallowed\t2\t${A}`],
    ]
    for (const [input, why, out] of cases) {
      for (const piece of [5, 1 << 20]) {
        const r = await runPiecewise(['filter', '--robots', robots(), '--agent', 'bot', '--print', 'verdicts', '-q'], input, piece)
        expect(r.status, why).toBe(1)
        expect(r.stderr).toBe(`robots-automaton: cannot read input file '<stdin>': ${why}\n`)
        // A line cut short at the failure is not judged: only whole lines are written.
        expect(r.stdout.startsWith(out.slice(0, out.indexOf('\n') + 1)), why).toBe(true)
        expect(out.startsWith(r.stdout), why).toBe(true)
      }
    }
  })
})

describe('pack into its own input directory', () => {
  it('pack DIR -o DIR/out.bundle run again skips its own output, not packing the last bundle as the host out.bundle\'s robots.txt', async () => {
    const dir = tmp.path('pack-self')
    mkdirSync(dir)
    writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /x\n')
    const out = join(dir, 'out.bundle')
    expect((await run(['pack', dir, '-o', out, '-q'])).status).toBe(0)
    symlinkSync(out, tmp.path('pack-self.link'))
    for (const o of [out, tmp.path('pack-self.link')]) {
      const r = await run(['pack', dir, '-o', o])
      expect(r.status, r.stderr).toBe(0)
      expect(r.stderr).toContain(`warning: skipped '${out}': it is the output (-o), not a host's robots.txt`)
      expect(r.stderr).not.toMatch(/binary/)
      expect([...RobotsStore.fromBytes(new Uint8Array(readFileSync(out))).keys()]).toEqual(['a.test'])
    }
  })
})

describe('stdin that is a directory', () => {
  it.skipIf(process.platform === 'win32')('< DIR fails (exit 1) in every command that reads stdin, instead of passing for an empty robots.txt (all allowed) or an empty URL list', () => {
    const dir = tmp.path('stdin-dir')
    mkdirSync(dir)
    const robots = tmp.path('robots.txt')
    const cases: [string[], string][] = [
      [['check', '-', '--agent', 'bot', '/private'], "robots.txt from 'stdin'"],
      [['filter', '--robots', '-', '--agent', 'bot', robots], "robots.txt from 'stdin'"],
      [['diff', '-', robots, '--agent', 'bot', robots], "robots.txt from 'stdin'"],
      [['lint', '-'], "robots.txt from 'stdin'"],
      [['check', robots, '--agent', 'bot'], 'stdin'],
      [['filter', '--robots', robots, '--agent', 'bot'], 'stdin'],
      [['diff', robots, robots, '--agent', 'bot'], 'stdin'],
      [['pack', '-', '-o', tmp.path('never.bundle')], 'stdin'],
    ]
    for (const [args, what] of cases) {
      const fd = openSync(dir, 'r')
      try {
        const r = spawnSync(process.execPath, [CLI, ...args], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', timeout: 15_000 })
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(1)
        expect(r.stdout).toBe('')
        expect(r.stderr).toBe(`robots-automaton: cannot read ${what}: is a directory\n`)
      } finally {
        closeSync(fd)
      }
    }
  })
})

describe('playground --out', () => {
  it("a file as --out DIR is 'not a directory' (the message was Node's 'EEXIST: file already exists, mkdir …'), and the folder name is escaped", async () => {
    const file = tmp.path('page\x1b[2J')
    writeFileSync(file, 'x')
    const r = await run(['playground', '--out', file])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot write the page into ${tmp.path('page\\x1b[2J')}: not a directory\n`)
    expect(readFileSync(file, 'utf8')).toBe('x')
  })
})

describe('--crawlers @FILE', () => {
  it.skipIf(!existsSync('/dev/zero'))('@/dev/zero is refused as too large once its limit is read, not read without end', () => {
    const r = spawnSync(process.execPath, [CLI, 'check', tmp.path('robots.txt'), '--crawlers', '@/dev/zero', '/a'], { encoding: 'utf8', timeout: 15_000 })
    expect(r.error, 'must not hang').toBeUndefined()
    expect(r.status).toBe(2)
    expect(r.stderr).toBe("robots-automaton: check: --crawlers @/dev/zero: larger than 1048576 bytes (see 'robots-automaton check --help')\n")
  })
})

describe('pack JSON lines', () => {
  it('a "body_base64" that is not base64 (a text body put there) stops the run naming the line; it was decoded into noise and packed as a host with no rule, allowed', async () => {
    const jsonl = tmp.path('b64.jsonl')
    const body = Buffer.from('User-agent: *\nDisallow: /\n').toString('base64')
    const good = [
      { origin: 'a.test', body_base64: body },
      { origin: 'c.test', body_base64: body.replace(/=+$/, '') },
      { origin: 'd.test', body_base64: `${body.slice(0, 8)}\n${body.slice(8)}` },
    ]
    for (const [bad, line] of [
      [{ origin: 'b.test', body_base64: 'User-agent: *\nDisallow: /\n' }, 4],
      [{ origin: 'e.test', body_base64: `${body}garbage` }, 4],
      [{ origin: 'f.test', body_base64: 'QUJDR' }, 4],
    ] as const) {
      writeFileSync(jsonl, [...good, bad].map((o) => JSON.stringify(o)).join('\n') + '\n')
      const r = await run(['pack', jsonl, '-o', tmp.path('b64.bundle')])
      expect(r.status, JSON.stringify(bad)).toBe(1)
      expect(r.stderr).toBe(`robots-automaton: cannot read '${jsonl}' line ${line}: "body_base64" is not base64 (a text body goes in "body")\n`)
    }
    writeFileSync(jsonl, good.map((o) => JSON.stringify(o)).join('\n') + '\n')
    expect((await run(['pack', jsonl, '-o', tmp.path('b64.bundle'), '-q'])).status).toBe(0)
    const store = RobotsStore.fromBytes(new Uint8Array(readFileSync(tmp.path('b64.bundle'))))
    for (const host of ['a.test', 'c.test', 'd.test']) expect(store.isAllowed(`https://${host}/x`, 'bot'), host).toBe(false)
  })
})

describe('request targets that start with //', () => {
  // As the reference judges http://victim.test//cdn/private/x and http://victim.test// (checked against google/robotstxt).
  const ROBOTS = 'User-agent: *\nDisallow: /private\nAllow: /$\nDisallow: /\n'
  const request = (target: string) => `1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET ${target} HTTP/1.1" 200 5 "-" "-"`
  const TARGETS = ['//cdn/private/x', '//', '/', '/private']
  const EXPECTED = ['disallowed\t4', 'disallowed\t4', 'allowed\t3', 'disallowed\t2']

  it("a log's //a/b is the path //a/b of the line's host (it was judged as the path /b, as if a were a host: // read as /, allowed)", async () => {
    const dir = tmp.path('slashes')
    mkdirSync(dir)
    writeFileSync(join(dir, 'victim.test'), ROBOTS)
    const verdicts = (out: Buffer) => out.toString().trimEnd().split('\n').map((l) => l.split('\t').slice(0, 2).join('\t'))
    for (const jobs of ['1', '2']) {
      const v = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--log-format', 'vhost_combined', '--print', 'verdicts', '--jobs', jobs, '-q'], { input: TARGETS.map((t) => `victim.test:443 ${request(t)}\n`).join('') })
      expect(verdicts(v.stdout)).toEqual(EXPECTED)
    }
    const one = await run(['filter', '--robots', join(dir, 'victim.test'), '--agent', 'bot', '--log-format', 'combined', '--format', 'jsonl', '-q'], { input: TARGETS.map((t) => `${request(t)}\n`).join('') })
    expect(one.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l)).map((o) => `${o.allowed ? 'allowed' : 'disallowed'}\t${o.line}`)).toEqual(EXPECTED)
    const host = await run(['filter', '--robots-dir', dir, '--host', 'victim.test', '--crawlers', 'bot,other', '--format', 'jsonl', '-q'], { input: TARGETS.join('\n') + '\n' })
    expect(host.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l).crawlers.bot).map((c) => `${c.allowed ? 'allowed' : 'disallowed'}\t${c.line}`)).toEqual(EXPECTED)
    const d = await run(['diff', tmp.path('robots.txt'), join(dir, 'victim.test'), '--agent', 'bot', '--log-format', 'combined', '--format', 'jsonl', '-q'], { input: TARGETS.map((t) => `${request(t)}\n`).join('') })
    expect(d.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l)).map((o) => [o.url, o.new.line])).toEqual([
      ['//cdn/private/x', 4],
      ['//', 4],
    ])
  })

  it('a URL list line //a/b without a host given apart is read as the reference reads it (host a, path /b)', async () => {
    const r = await run(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', '--print', 'verdicts', '-q'], { input: '//cdn/private/x\n' })
    expect(r.stdout.toString()).toBe('disallowed\t2\t//cdn/private/x\n')
  })
})
