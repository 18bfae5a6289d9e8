// `pack` and `filter --bundle` through the built CLI: directories and JSON
// lines in, the answers of --robots-dir out, and coded errors for bad bundles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { execFileSync, spawn } from 'node:child_process'
import { CLI, ensureBuilt, run, tempDir } from '../helpers.js'
import { readBundleStore } from '../../../src/cli/fetch/bundle-file.js'

let tmp: ReturnType<typeof tempDir>
let dir: string

const URLS = [
  'https://a.test/private/x',
  'https://a.test:8443/private/x',
  'http://a.test/open',
  'https://b.test/x',
  'http://b.test/x',
  'https://c.test/x',
  'https://d.test/x',
  '/path',
].join('\n')

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  dir = tmp.path('robots')
  mkdirSync(dir)
  writeFileSync(join(dir, 'a.test'), 'User-agent: *\nDisallow: /private\n')
  writeFileSync(join(dir, 'b.test'), 'User-agent: bot\nDisallow: /\n')
  writeFileSync(join(dir, 'Upper.test'), 'User-agent: *\nDisallow: /\n')
})
afterAll(() => tmp.cleanup())

describe('pack', () => {
  it('DIR → bundle: filter --bundle answers as --robots-dir, and says what it packed', async () => {
    const bundle = tmp.path('dir.bundle')
    const p = await run(['pack', dir, '-o', bundle])
    expect(p.status, p.stderr).toBe(0)
    // Upper.test is the file of the host upper.test, as URLs give it.
    expect(p.stderr).toMatch(/^robots-automaton: 3 hosts packed into .*dir\.bundle: 3 robots\.txt; 0\.0 MB in \d+\.\d\d s\n$/)
    const byDir = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts'], { input: URLS })
    const byBundle = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--print', 'verdicts'], { input: URLS })
    expect(byBundle.stdout.toString()).toBe(byDir.stdout.toString())
    expect(byBundle.stderr.replace(/in [\d.]+ s \([^)]*\)/, '')).toBe(byDir.stderr.replace(/in [\d.]+ s \([^)]*\)/, ''))
    const jsonl = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--format', 'jsonl', '-q'], { input: 'https://a.test/private\n' })
    expect(JSON.parse(jsonl.stdout.toString()).source).toBe(`${bundle}#a.test`)
  })

  it('JSON lines: origins, bare hosts, outcomes, bytes, a key given twice; gzip on stdin', async () => {
    const lines = [
      { origin: 'a.test', body: 'User-agent: *\nDisallow: /private\n' },
      { origin: 'https://A.test:8443', body: 'User-agent: *\nDisallow: /\n' },
      { origin: 'http://b.test', outcome: 'unreachable' },
      { origin: 'b.test', outcome: 'unavailable' },
      { origin: 'c.test', body_base64: Buffer.from('User-agent: bot\nDisallow: /\n').toString('base64') },
      { origin: 'c.test', body: 'User-agent: bot\nDisallow: /x\n' },
    ]
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n\n`
    const bundle = tmp.path('jsonl.bundle')
    writeFileSync(tmp.path('in.jsonl'), text)
    const p = await run(['pack', tmp.path('in.jsonl'), '-o', bundle])
    expect(p.stderr).toMatch(/^robots-automaton: 5 hosts packed into .*: 3 robots\.txt, 2 fetch outcomes; [\d.]+ MB in [\d.]+ s; 1 key given more than once \(the newest fetch kept, else the last\)\n$/)
    const r = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--print', 'verdicts', '-q'], { input: URLS })
    expect(r.stdout.toString()).toBe(
      [
        'disallowed\t2\thttps://a.test/private/x',
        'disallowed\t2\thttps://a.test:8443/private/x',
        'allowed\t0\thttp://a.test/open',
        'allowed\t0\thttps://b.test/x',
        'disallowed\t0\thttp://b.test/x',
        'disallowed\t2\thttps://c.test/x',
        'allowed\t0\thttps://d.test/x',
        'invalid\t0\t/path',
        '',
      ].join('\n'),
    )
    const outcome = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--format', 'jsonl', '-q'], { input: 'http://b.test/x\n' })
    expect(JSON.parse(outcome.stdout.toString())).toEqual({
      url: 'http://b.test/x',
      allowed: false,
      line: 0,
      rule: { kind: 'disallow', pattern: '/', implied: 'unreachable' },
      host: 'b.test',
      source: `${bundle}#http://b.test`,
      input_line: 1,
    })
    const viaStdin = await run(['pack', '-', '-o', '-', '-q'], { input: gzipSync(text) })
    expect(Buffer.compare(viaStdin.stdout, readFileSync(bundle))).toBe(0)
  })

  it('regression: pack of an empty directory (or of files none of which names a host) wrote an empty bundle and exited 0, so filter --bundle then allowed every URL', async () => {
    const empty = tmp.path('empty-dir')
    const readme = tmp.path('readme-dir')
    mkdirSync(empty)
    mkdirSync(readme)
    // A name with a space is no host's (README.md is: the host readme.md).
    writeFileSync(join(readme, 'READ ME.md'), '# robots files\n')
    const out = tmp.path('empty.bundle')
    const r = await run(['pack', empty, readme, '-', '-o', out, '-q'], { input: '' })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe('robots-automaton: no host to pack: no bundle written\n')
    expect(existsSync(out)).toBe(false)
  })

  it('regression: pack of a directory with a file it could not read replaced the bundle with one without that host, then exited 1; it now writes nothing and names the file', async () => {
    const src = tmp.path('one-unreadable')
    mkdirSync(src)
    writeFileSync(join(src, 'a.test'), 'User-agent: *\nDisallow: /a\n')
    writeFileSync(join(src, 'b.test'), 'User-agent: *\nDisallow: /b\n')
    const out = tmp.path('kept.bundle')
    expect((await run(['pack', src, '-o', out, '-q'])).status).toBe(0)
    const before = readFileSync(out)
    // Unreadable for root too: a dangling link and a directory named after hosts.
    symlinkSync(tmp.path('nowhere'), join(src, 'c.test'))
    mkdirSync(join(src, 'd.test'))
    const r = await run(['pack', src, '-o', out])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(`warning: skipped '${join(src, 'c.test')}': no such file or directory`)
    expect(r.stderr).not.toContain('packed into')
    expect(r.stderr).toMatch(/robots-automaton: 2 robots\.txt files could not be read \(the first: '[^\n]*\.test': [^\n]*\): no bundle written \('[^\n]*kept\.bundle' left as it was\); make them readable or remove them, and pack again\n$/)
    expect(readFileSync(out).equals(before)).toBe(true)
    const stdout = await run(['pack', src, '-o', '-', '-q'])
    expect(stdout.status).toBe(1)
    expect(stdout.stdout.length).toBe(0)
  })

  it('bad JSON lines name the line', async () => {
    for (const [text, message] of [
      ['{"origin":"a.test","body":"x"}\nnot json\n', /^line 2: not JSON \(.*\)$/],
      ['[1]\n', 'line 1: not a JSON object'],
      ['{"body":"x"}\n', 'line 1: no "origin" string'],
      ['{"origin":"/p","body":"x"}\n', 'line 1: "origin" is not an origin or a host: "/p" (it holds \'/\': a host ends before it (a path is not part of it))'],
      // Regression: a host the URL parser refuses was named without why.
      ['{"origin":"xn--a.com","body":"x"}\n', 'line 1: "origin" is not an origin or a host: "xn--a.com" (it is not a valid international domain name: UTS-46 processing refuses it)'],
      ['{"origin":"https://xn--a.com/","body":"x"}\n', 'line 1: "origin" is not an origin or a host: "https://xn--a.com/" (the host "xn--a.com" is refused: it is not a valid international domain name: UTS-46 processing refuses it)'],
      ['{"origin":"http://a.test:65536","body":"x"}\n', 'line 1: "origin" is not an origin or a host: "http://a.test:65536" (its port is not a number from 0 to 65535)'],
      ['{"origin":"a.test","outcome":"gone"}\n', 'line 1: "outcome" must be "ok", "unavailable" or "unreachable"'],
      ['{"origin":"a.test"}\n', 'line 1: needs one of "body" (a string) or "body_base64", or an "unavailable" or "unreachable" outcome'],
      // Regression: an "ok" record without its body was told it needed an outcome.
      ['{"origin":"a.test","outcome":"ok"}\n', 'line 1: an "ok" outcome needs one of "body" (a string) or "body_base64"'],
    ] as const) {
      writeFileSync(tmp.path('bad.jsonl'), text)
      const r = await run(['pack', tmp.path('bad.jsonl'), '-o', tmp.path('never.bundle')])
      expect(r.status).toBe(1)
      const prefix = `robots-automaton: cannot read '${tmp.path('bad.jsonl')}' `
      expect(r.stderr.startsWith(prefix)).toBe(true)
      const rest = r.stderr.slice(prefix.length).trimEnd()
      if (typeof message === 'string') expect(rest).toBe(message)
      else expect(rest).toMatch(message)
      expect(existsSync(tmp.path('never.bundle'))).toBe(false)
    }
  })

  it('regression: filter --bundle finds an https origin entry on every line, not only the first (a later line\'s https origin was judged by its bare host or as missing)', async () => {
    const lines = [
      { origin: 'a.test', outcome: 'unavailable' },
      { origin: 'https://b.test:8443', outcome: 'unreachable' },
      { origin: 'https://c.test', body: 'User-agent: *\nDisallow: /s\n' },
      { origin: 'c.test', body: 'User-agent: *\nDisallow: /h\n' },
    ]
    const bundle = tmp.path('origins.bundle')
    const p = await run(['pack', '-', '-o', bundle, '-q'], { input: lines.map((l) => JSON.stringify(l)).join('\n') })
    expect(p.status, p.stderr).toBe(0)
    const urls = ['http://a.test/x', 'https://b.test:8443/x', 'https://c.test/s', 'http://c.test/s', 'https://c.test/h', 'http://c.test/h']
    const want = ['allowed', 'disallowed', 'disallowed', 'allowed', 'allowed', 'disallowed']
    for (const order of [urls, [...urls].reverse()]) {
      const r = await run(['filter', '--bundle', bundle, '--agent', 'bot', '--print', 'verdicts', '-q'], { input: order.join('\n') })
      expect(r.status, r.stderr).toBe(0)
      const got = r.stdout.toString().trimEnd().split('\n').map((l) => `${l.split('\t')[2]} ${l.split('\t')[0]}`)
      expect(got).toEqual(order.map((u) => `${u} ${want[urls.indexOf(u)]}`))
    }
  })

  it('regression: a bundle through stdin, a pipe or gzip is merged as a bundle (it was read as JSON lines: "not JSON", exit 1)', async () => {
    const part = tmp.path('part.bundle')
    expect((await run(['pack', dir, '-o', part, '-q'])).status).toBe(0)
    const bytes = readFileSync(part)
    writeFileSync(tmp.path('part.bundle.gz'), gzipSync(bytes))
    writeFileSync(tmp.path('more.jsonl'), '{"origin":"e.test","outcome":"unreachable"}\n')
    const keysOf = async (args: string[], input?: Uint8Array): Promise<string> => {
      const out = tmp.path('merged.bundle')
      const r = await run(['pack', ...args, '-o', out], input === undefined ? {} : { input })
      expect(r.status, r.stderr).toBe(0)
      const v = await run(['filter', '--bundle', out, '--agent', 'bot', '--print', 'verdicts', '-q'], { input: 'https://a.test/private\nhttps://b.test/x\nhttps://e.test/x\nhttps://z.test/x\n' })
      return v.stdout.toString()
    }
    const want = await keysOf([part, tmp.path('more.jsonl')])
    expect(want.split('\n').map((l) => l.split('\t')[0])).toEqual(['disallowed', 'disallowed', 'disallowed', 'allowed', ''])
    expect(await keysOf(['-', tmp.path('more.jsonl')], bytes)).toBe(want)
    expect(await keysOf([tmp.path('part.bundle.gz'), tmp.path('more.jsonl')])).toBe(want)
    expect(await keysOf(['-', tmp.path('more.jsonl')], gzipSync(bytes))).toBe(want)
    // A bundle cut short through stdin is the coded error it is as a file.
    const cut = await run(['pack', '-', '-o', tmp.path('never.bundle')], { input: bytes.subarray(0, bytes.length - 3) })
    expect(cut.status).toBe(1)
    expect(cut.stderr).toMatch(/^robots-automaton: cannot read bundle '<stdin>': \d+ bytes where the header says \d+ \(truncated or padded\) \(ERR_FORMAT\)\n$/)
    expect(existsSync(tmp.path('never.bundle'))).toBe(false)
  })

  it("regression: a gzip-compressed bundle given to filter, diff, audit or fetch --update was only 'bad magic'; the error now says it is gzip", async () => {
    const bundle = tmp.path('gz-source.bundle')
    await run(['pack', dir, '-o', bundle, '-q'])
    const gz = tmp.path('gz.bundle.gz')
    writeFileSync(gz, gzipSync(readFileSync(bundle)))
    const said = /^robots-automaton: cannot read bundle '.*gz\.bundle\.gz': not a robots-automaton bundle \(bad magic or too short\): it is gzip, so decompress it first \(ERR_FORMAT\)$/
    // filter and diff (a bundle read into shared memory), audit and fetch --update (read whole).
    const r = await run(['filter', '--bundle', gz, '--agent', 'bot'], { input: '/a\n' })
    expect(r.status).toBe(1)
    expect(r.stderr.trimEnd()).toMatch(said)
    expect(() => readBundleStore(gz)).toThrow(/gz\.bundle\.gz': not a robots-automaton bundle \(bad magic or too short\): it is gzip, so decompress it first \(ERR_FORMAT\)$/)
  })

  it('a truncated, corrupted, foreign or missing bundle: exit 1 with a coded error, nothing written', async () => {
    const bundle = tmp.path('good.bundle')
    await run(['pack', dir, '-o', bundle, '-q'])
    const bytes = readFileSync(bundle)
    const cases: Array<[Uint8Array | null, RegExp]> = [
      [bytes.subarray(0, bytes.length - 1), /\d+ bytes where the header says \d+ \(truncated or padded\) \(ERR_FORMAT\)$/],
      [bytes.subarray(0, 10), /not a robots-automaton bundle \(bad magic or too short\) \(ERR_FORMAT\)$/],
      [Buffer.concat([bytes, Buffer.from('x')]), /\d+ bytes where the header says \d+ \(truncated or padded\) \(ERR_FORMAT\)$/],
      [(() => { const b = Buffer.from(bytes); b[b.length - 5] ^= 1; return b })(), /entry 2: checksum mismatch \(corrupt buffer\) \(ERR_FORMAT\)$/],
      [(() => { const b = Buffer.from(bytes); b[b.readUInt32LE(20)] ^= 1; return b })(), /checksum mismatch \(corrupt header, entry table, keys or fetch info\) \(ERR_FORMAT\)$/],
      [Buffer.from('User-agent: *\nDisallow: /\n'.repeat(4)), /not a robots-automaton bundle \(bad magic or too short\) \(ERR_FORMAT\)$/],
      [(() => { const b = Buffer.from(bytes); b.writeUInt16LE(9, 4); return b })(), /bundle format version 9 is not supported \(this build reads 2 and 3\) \(ERR_VERSION\)$/],
      [null, /cannot read bundle '.*': no such file or directory$/],
    ]
    for (const [content, message] of cases) {
      const path = tmp.path('bad.bundle')
      const target = content === null ? tmp.path('missing.bundle') : path
      if (content !== null) writeFileSync(path, content)
      const r = await run(['filter', '--bundle', target, '--agent', 'bot'], { input: '/a\n' })
      expect(r.status).toBe(1)
      expect(r.stdout.length).toBe(0)
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
      expect(r.stderr.trimEnd()).toMatch(/^robots-automaton: cannot read bundle '/)
      expect(r.stderr.trimEnd()).toMatch(message)
    }
  })
})

describe('pack of a named FIFO', () => {
  it('regression: a named FIFO as pack\'s input waited forever or lost its bytes (opened to sniff a bundle, its first bytes taken, then opened again for a writer gone); it is read once, JSON lines or a bundle', async () => {
    const lines = tmp.path('fifo-lines.jsonl')
    writeFileSync(lines, JSON.stringify({ origin: 'http://f.test', body: 'User-agent: *\nDisallow: /x\n' }) + '\n')
    const packed = tmp.path('fifo-first.bundle')
    const outs: string[] = []
    for (const [i, source] of [lines, packed].entries()) {
      const fifo = tmp.path(`in-${i}.fifo`)
      execFileSync('mkfifo', [fifo])
      const out = tmp.path(`fifo-${i}.bundle`)
      const pack = spawn(process.execPath, [CLI, 'pack', fifo, '-o', i === 0 ? packed : out], { stdio: ['ignore', 'ignore', 'pipe'] })
      // The writer in a process of its own: the test's thread never blocks on the FIFO.
      const writer = spawn('/bin/sh', ['-c', 'cat "$0" > "$1"', source, fifo], { stdio: 'ignore' })
      let stderr = ''
      pack.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
      const stall = setTimeout(() => {
        pack.kill('SIGKILL')
        writer.kill('SIGKILL')
      }, 60_000)
      const status = await new Promise<number | null>((resolve) => pack.on('close', resolve))
      clearTimeout(stall)
      writer.kill('SIGKILL')
      expect(status, stderr).toBe(0)
      expect(stderr).toMatch(/1 host packed into/)
      outs.push(i === 0 ? packed : out)
    }
    for (const o of outs) expect(readBundleStore(o).has('http://f.test')).toBe(true)
  })
})
