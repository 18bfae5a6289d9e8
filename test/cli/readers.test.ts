/**
 * The command line's readers of bytes fed by a hostile user: the same bytes in
 * every chunking give the same output, and what cannot be read is an error,
 * never data dropped in silence. Each regression is named after what went wrong.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { gunzipMembers } from '../../src/cli/filter/gunzip.js'
import { openInput, type ByteReader } from '../../src/cli/filter/input.js'
import { CliError } from '../../src/cli/common/cli-error.js'
import { lineBlocks } from '../../src/cli/filter/line-blocks.js'
import { CLI, ensureBuilt, run, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp?.cleanup())

/** `bytes` cut at `cuts`, as a source of chunks. */
async function* chunked(bytes: Buffer, cuts: readonly number[]): AsyncGenerator<Buffer> {
  let at = 0
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(at, cut)
    at = cut
  }
}

/** Everything `gunzipMembers` decodes from `bytes` cut at `cuts`, and the code of its error (or undefined). */
async function gunzipAt(bytes: Buffer, cuts: readonly number[]): Promise<{ text: string; code: string | undefined }> {
  const out: Buffer[] = []
  try {
    for await (const b of gunzipMembers(chunked(bytes, cuts))) out.push(b)
  } catch (err) {
    return { text: Buffer.concat(out).toString(), code: (err as { code?: string }).code }
  }
  return { text: Buffer.concat(out).toString(), code: undefined }
}

describe('gzip input after zero padding', () => {
  const A = 'https://a.test/a\n'
  const B = 'https://a.test/private\n'

  it('a member or text after zero padding is an error at every split, not dropped in silence (it was skipped with exit 0; zcat calls it trailing garbage)', async () => {
    for (const rest of [gzipSync(B), Buffer.from(B), Buffer.from([0, 0, 1])]) {
      const input = Buffer.concat([gzipSync(A), Buffer.alloc(4, 0), rest])
      for (let cut = 1; cut < input.length; cut++) {
        const r = await gunzipAt(input, [cut])
        expect(r, `cut at ${cut}`).toEqual({ text: A, code: 'Z_DATA_ERROR' })
      }
    }
  })

  it('zero padding to the end is still read as zcat reads it, at every split', async () => {
    const input = Buffer.concat([gzipSync(A), gzipSync(B), Buffer.alloc(700, 0)])
    for (let cut = 1; cut < input.length; cut++) expect(await gunzipAt(input, [cut])).toEqual({ text: A + B, code: undefined })
  })

  it('filter: a member after zero padding fails the run (exit 1) after the lines before it', async () => {
    const file = tmp.path('padded.gz')
    writeFileSync(file, Buffer.concat([gzipSync(A), Buffer.alloc(4, 0), gzipSync(B)]))
    const r = await run(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', '--print', 'verdicts', '-q', file])
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toBe(`allowed\t0\t${A}`)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${file}': not valid gzip data\n`)
  })
})

describe('regression: compressed data that is not gzip (zstd, xz, bzip2, zlib), or inside gzip, was read as lines of text', () => {
  // Its bytes were lines without a URL, "is this a log?", exit 4 alone; after a list, only counted (exit 0).
  it('such an input is refused naming its format and how to decompress it; text that starts alike is read', async () => {
    const cases: [string, Buffer][] = [
      ['zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x04, 0x21, 0x00, 0x00, 0x2f, 0x6f, 0x6b, 0x0a])],
      ['xz', Buffer.from('fd377a585a000004e6d6b446', 'hex')],
      ['bzip2', Buffer.from('BZh91AY&SY\xf5\xfd\n/ok\n', 'latin1')],
      ['bzip2', Buffer.from('425a683917724538509000000000', 'hex')],
      ['zlib', deflateSync('/ok\n')],
    ]
    for (const [format, bytes] of cases) {
      const file = tmp.path(`in.${format}.gz`)
      writeFileSync(file, bytes)
      const e = await openInput({ name: file, path: file, size: bytes.length }, { bytes: 0 }).then(() => undefined, (err: unknown) => err)
      expect(e, format).toBeInstanceOf(CliError)
      expect((e as CliError).code).toBe('ERR_READ')
      expect((e as CliError).message).toContain(`'${file}': it is ${format} data, and only gzip is decompressed`)
    }
    for (const text of ['BZh\n/ok\n', 'BZh9\n', '(\n/ok\n', 'x\n', 'B']) {
      const file = tmp.path('text.txt')
      writeFileSync(file, text)
      const reader = await openInput({ name: file, path: file, size: text.length }, { bytes: 0 })
      const out = new Uint8Array(64)
      let n = 0
      for (let got; (got = await reader.readInto(out, n, out.length - n)) > 0; ) n += got
      await reader.close()
      expect(Buffer.from(out.subarray(0, n)).toString('latin1')).toBe(text)
    }
  })

  it('so is such data inside gzip, and gzip inside gzip (compressed twice): it is decompressed once, never read as text', async () => {
    const zstd = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x04, 0x21, 0x00, 0x00, 0x2f, 0x6f, 0x6b, 0x0a])
    for (const [format, bytes] of [['gzip', gzipSync(gzipSync('/ok\n'))], ['zstd', gzipSync(zstd)]] as const) {
      const file = tmp.path(`nested.${format}.gz`)
      writeFileSync(file, bytes)
      const e = await openInput({ name: file, path: file, size: bytes.length }, { bytes: 0 }).then(() => undefined, (err: unknown) => err)
      expect((e as CliError).message, format).toContain(`'${file}': it is ${format} data inside gzip`)
    }
  })

  it('filter: the lines of the inputs before it are written, then exit 1 naming it', async () => {
    const file = tmp.path('list.zst')
    writeFileSync(file, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x04, 0x21, 0x00, 0x00, 0x2f, 0x6f, 0x6b, 0x0a]))
    const first = tmp.path('first.txt')
    writeFileSync(first, '/a\n')
    const r = await run(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', '-q', first, file])
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toBe('/a\n')
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${file}': it is zstd data, and only gzip is decompressed: decompress it first (zstd -dc)\n`)
  })
})

describe('gzip member headers', () => {
  it('a long member name fed one byte a chunk is copied a few times per byte, not once per chunk (time grew with the square of the name)', async () => {
    const body = 'https://a.test/x\n'
    const gz = gzipSync(body)
    const name = 1 << 16
    // FNAME set: the name's bytes, its NUL, then the deflate data and trailer of gzip's own member.
    const member = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 0xff]), Buffer.alloc(name, 0x61), Buffer.from([0]), gz.subarray(10)])
    const concat = vi.spyOn(Buffer, 'concat')
    try {
      const r = await gunzipAt(member, [...Array(member.length).keys()].slice(1))
      expect(r).toEqual({ text: body, code: undefined })
      const copied = concat.mock.results.reduce((sum, x) => sum + (x.value as Buffer).length, 0)
      expect(copied).toBeLessThan(8 * member.length)
    } finally {
      concat.mockRestore()
    }
  })
})

describe('pack JSON lines', () => {
  it('a line that is not valid UTF-8 stops the run naming the line (its body was packed with U+FFFD: Disallow: /caf\\xe9 became /caf%EF%BF%BD)', async () => {
    const file = tmp.path('latin1.jsonl')
    // A line of files joined with cat may start with a BOM too: skipped, as before.
    const good = Buffer.from('\ufeff{"origin":"https://b.test","body":"User-agent: *\\nDisallow: /caf\u00e9\\n"}\r\n\ufeff{"origin":"c.test","body":""}\n')
    const bad = Buffer.concat([Buffer.from('{"origin":"https://a.test","body":"User-agent: *\\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\\n"}\n')])
    writeFileSync(file, Buffer.concat([good, bad]))
    const r = await run(['pack', file, '-o', tmp.path('latin1.bundle')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read '${file}' line 3: not valid UTF-8 (a body that is not UTF-8 goes in "body_base64")\n`)
    // Valid UTF-8 (a BOM, CRLF, text past ASCII) packs as before.
    writeFileSync(file, good)
    const ok = await run(['pack', file, '-o', tmp.path('latin1.bundle'), '-q'])
    expect(ok.status, ok.stderr).toBe(0)
    const f = await run(['filter', '--bundle', tmp.path('latin1.bundle'), '--agent', 'bot', '--print', 'verdicts', '-q'], { input: 'https://b.test/caf%C3%A9\n' })
    expect(f.stdout.toString()).toBe('disallowed\t2\thttps://b.test/caf%C3%A9\n')
  })
})

/** A reader that hands out `bytes` cut at `cuts` (one piece per read, as a slow pipe does). */
function piecesReader(bytes: Buffer, cuts: readonly number[]): ByteReader {
  const pieces: Buffer[] = []
  let at = 0
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(at, cut))
    at = cut
  }
  return {
    async readInto(target, offset, length) {
      while (pieces.length > 0 && pieces[0].length === 0) pieces.shift()
      const piece = pieces[0]
      if (piece === undefined) return 0
      const n = Math.min(length, piece.length)
      target.set(piece.subarray(0, n), offset)
      pieces[0] = piece.subarray(n)
      return n
    },
    async close() {},
  }
}

/** A URL list with what a hostile user puts in one: a BOM, CRLF, a lone CR, a NUL, bytes that are not UTF-8, a long line, no final newline. */
const HOSTILE = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('https://a.test/private\r\n/caf\xc3\xa9\r\r\n\x00/private\n/p%2F\xe9\n\n', 'latin1'),
  Buffer.from(`/${'x'.repeat(300)}\r\n`),
  Buffer.from('https://a.test/private\r', 'latin1'),
])

describe('line blocks at every split', () => {
  it('every one- and two-cut chunking of a hostile list gives the same lines, each block ending at an LF but the last, the BOM skipped', async () => {
    const expected = HOSTILE.subarray(3).toString('latin1')
    const cuttings: number[][] = [[...Array(HOSTILE.length).keys()].slice(1)]
    for (let a = 1; a < HOSTILE.length; a++) cuttings.push([a])
    for (let a = 1; a < 40; a++) for (let b = a + 1; b < 60; b++) cuttings.push([a, b])
    for (const cuts of cuttings) {
      for (const blockSize of [16, 64, 1 << 20]) {
        for (const lineBuffered of [false, true]) {
          const blocks: string[] = []
          for await (const block of lineBlocks(piecesReader(HOSTILE, cuts), 'x', blockSize, undefined, { lineBuffered })) blocks.push(Buffer.from(block.bytes).toString('latin1'))
          const where = `cuts ${cuts.slice(0, 3).join(',')}${cuts.length > 3 ? '…' : ''}, block ${blockSize}, line-buffered ${lineBuffered}`
          expect(blocks.join(''), where).toBe(expected)
          for (const b of blocks.slice(0, -1)) expect(b.endsWith('\n'), where).toBe(true)
        }
      }
    }
  })
})

/** Runs the CLI with `input` written to its stdin in `pieces`, each after a pause of `delay` ms (so that each is read alone). */
function runPieces(args: readonly string[], pieces: readonly Buffer[], delay: number): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('latin1'), stderr }))
    child.stdin.on('error', () => {})
    let i = 0
    const next = (): void => {
      if (i >= pieces.length) return void child.stdin.end()
      child.stdin.write(pieces[i++])
      setTimeout(next, delay)
    }
    next()
  })
}

/** `bytes` cut at `cuts`. */
function cutAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const out: Buffer[] = []
  let at = 0
  for (const cut of [...cuts, bytes.length]) {
    out.push(bytes.subarray(at, cut))
    at = cut
  }
  return out
}

describe('every command that reads stdin, fed in pieces', () => {
  const LOG = Buffer.from(
    '\xef\xbb\xbf1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /private\\x41b HTTP/1.1" 200 2326 "-" "UA"\r\n' +
      '5.6.7.8 - u\\"s [10/Oct/2000:13:55:36 -0700] "GET /a\\"b\\\\c HTTP/1.0" 200 1 "-" "x"\n' +
      '9.9.9.9 - - [10/Oct/2000:13:55:36 -0700] "GET /caf\\xc3\\xa9 HTTP/1.1" 404 - "r" "a"',
    'latin1',
  )
  const ROBOTS = Buffer.from('\xef\xbb\xbfUser-agent: bot\r\nDisallow: /caf\xc3\xa9\r\rAllow: /a#c\nDisallow: /\x00x\nuser-agent:*\rdisallow:/p\n# end\nDisallow: /z', 'latin1')

  it('one byte a read, or cut inside the BOM, a CRLF, a UTF-8 sequence or a log escape: the output of the whole input (filter, --log-format, check, diff, lint, check -)', async () => {
    const robots = tmp.path('robots.txt')
    writeFileSync(tmp.path('new.txt'), 'User-agent: *\nAllow: /\n')
    const cases: [string[], Buffer][] = [
      [['filter', '--robots', robots, '--agent', 'bot', '--print', 'verdicts'], HOSTILE],
      [['filter', '--robots', robots, '--agent', 'bot', '--format', 'jsonl', '--log-format', 'combined'], LOG],
      [['check', robots, '--agent', 'bot', '--json'], HOSTILE],
      [['diff', robots, tmp.path('new.txt'), '--agent', 'bot'], HOSTILE],
      [['lint', '-', '--json'], ROBOTS],
      [['check', '-', '--agent', 'bot', '/caf%C3%A9', '/a', '/x', '/z', '/p'], ROBOTS],
    ]
    // The summaries' times differ from run to run.
    const timeless = (s: string) => s.replace(/[0-9.]+ MB in [^\n]*/g, '')
    for (const [args, input] of cases) {
      const whole = await runPieces(args, [input], 0)
      expect([0, 3], `${args[0]}: ${whole.stderr}`).toContain(whole.status)
      const cuttings = [[...Array(input.length).keys()].slice(1), [1], [2], [input.indexOf('\r') + 1], [input.indexOf(0xc3) + 1], [input.indexOf('\\') + 1], [input.indexOf('\\') + 2]]
      const runs = await Promise.all(cuttings.map((cuts) => runPieces(args, cutAt(input, cuts), cuts.length > 1 ? 1 : 30)))
      runs.forEach((r, k) => {
        const where = `${args.slice(0, 1)} ${args.includes('--log-format') ? 'log ' : ''}cut at ${cuttings[k].length > 1 ? 'every byte' : cuttings[k][0]}`
        expect(r.status, where).toBe(whole.status)
        expect(r.stdout, where).toBe(whole.stdout)
        expect(timeless(r.stderr), where).toBe(timeless(whole.stderr))
      })
    }
  })
})
