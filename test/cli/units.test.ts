// Unit tests of the CLI's byte-level helpers (imported from src, no process spawned).
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { findHost, isUrlOrPath, scanHost, SCAN_OUT_TOO_SMALL } from '../../src/cli/filter/url-host.js'
import { foldHost } from '../../src/cli/hosts/host-index.js'
import { parseArgs, type OptionSpec } from '../../src/cli/common/args.js'
import { BlockWriter, writeUint, type ByteSink } from '../../src/cli/common/block-writer.js'
import { lineBlocks } from '../../src/cli/filter/line-blocks.js'
import { LineEmitter } from '../../src/cli/filter/emitter.js'
import { judgeBlock, MatcherJudge, type LineJudge } from '../../src/cli/filter/judge-lines.js'
import { parseRobots } from '../../src/index.js'
import { LINE_CASES, LINE_RULES } from '../support/line-cases.js'
import { newStats, summaryLine } from '../../src/cli/filter/filter-stats.js'
import type { ByteReader } from '../../src/cli/filter/input.js'
import { UsageError } from '../../src/errors.js'
import { DirectoryRules } from '../../src/cli/hosts/robots-dir.js'
import { HostJudge, type EntryEvent } from '../../src/cli/hosts/host-judge.js'
import { ProgressBar } from '../../src/cli/common/progress.js'
import { LineLocator } from '../../src/cli/filter/line-locator.js'
import { WHOLE_LINES } from '../../src/cli/filter/line-layout.js'
import { newUrlRecord, scanHostField, UrlField } from '../../src/url/url-scan.js'

const enc = new TextEncoder()

/** A LineJudge from a function of the URL's range (the per-line methods only). */
function fakeJudge(judge: (b: Uint8Array, s: number, e: number) => number): LineJudge {
  return { judge, judgeOnHost: (b, s, e) => judge(b, s, e), decided: () => ({ matcher: null, source: null, host: null }) }
}

function host(url: string): string | null {
  const b = enc.encode(url)
  const out = new Int32Array(2)
  return findHost(b, 0, b.length, out) ? Buffer.from(b.subarray(out[0], out[1])).toString('latin1') : null
}

describe('findHost', () => {
  it.each([
    ['https://example.com/a', 'example.com'],
    ['https://Example.COM', 'Example.COM'],
    ['http://example.com:8080/x', 'example.com'],
    ['http://user:pw@example.com:81/x', 'example.com'],
    ['http://a@b@example.com/x', 'example.com'],
    ['http://[::1]:8080/x', '[::1]'],
    ['http://[2001:db8::1]/x', '[2001:db8::1]'],
    ['https://example.com?q=1', 'example.com'],
    ['https://example.com#f', 'example.com'],
    ['https://example.com\\evil', 'example.com'],
    ['ftp://files.example.org/pub', 'files.example.org'],
    ['svn+ssh://h.example/x', 'h.example'],
  ])('%s → %s', (url, expected) => {
    expect(host(url)).toBe(expected)
  })

  it.each(['', '/path', '//host/path', 'example.com/path', 'http:/x', 'http://', 'http:///x', 'http://:80/', 'http://[::1/x', '1http://a/', 'http//a'])(
    '%j has no host',
    (url) => {
      expect(host(url)).toBeNull()
    },
  )

  it('looks only inside the range', () => {
    const b = enc.encode('xxhttp://a.b/yy')
    const out = new Int32Array(2)
    expect(findHost(b, 2, 10, out)).toBe(true)
    expect([out[0], out[1]]).toEqual([9, 10])
    expect(findHost(b, 0, b.length, out)).toBe(true) // scheme "xxhttp"
  })

  it('never reads outside the range and always returns a sub-range', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat(40), fc.nat(40), (bytes, a, b) => {
        const start = Math.min(a, b, bytes.length)
        const end = Math.min(Math.max(a, b), bytes.length)
        const out = new Int32Array(2)
        if (findHost(bytes, start, end, out)) {
          expect(out[0]).toBeGreaterThan(start)
          expect(out[1]).toBeLessThanOrEqual(end)
          expect(out[1]).toBeGreaterThan(out[0])
        }
      }),
    )
  })
})

/** What `scanHost` must give: `findHost`, then `foldHost` over the host found. */
function expectScanLikeFindAndFold(bytes: Uint8Array, start: number, end: number): void {
  const range = new Int32Array(3)
  const found = findHost(bytes, start, end, range)
  const out = new Uint8Array(64)
  const info = new Int32Array(4)
  const len = scanHost(bytes, start, end, out, info)
  if (!found) {
    expect(len).toBe(0)
    return
  }
  const hostLength = range[1] - range[0]
  if (hostLength > out.length) {
    expect(len).toBe(SCAN_OUT_TOO_SMALL)
    return
  }
  expect(len).toBe(hostLength)
  expect([info[0], info[1], info[2]]).toEqual([range[0], range[1], range[2]])
  const folded = new Uint8Array(hostLength)
  const hash = foldHost(bytes, range[0], range[1], folded)
  expect(Array.from(out.subarray(0, len))).toEqual(Array.from(folded))
  expect(info[3]).toBe(hash)
}

describe('scanHost', () => {
  it('finds, lowercases and hashes the host as findHost and foldHost do', () => {
    for (const url of [
      'https://Example.COM/a',
      'http://user:pw@Example.com:81/x',
      'http://a@b@example.com/x',
      'http://[::1]:8080/x',
      'http://[::1]x:80/',
      'http://[a@b]/',
      'http://[::1/x',
      'http://[]/',
      'http://:80/',
      'http://u@/',
      'http://h:1@/',
      'https://example.com\\evil',
      'svn+ssh://H.example/x',
      'https://' + 'a'.repeat(70) + '/',
      '/path',
      '',
    ]) {
      const b = enc.encode(url)
      expectScanLikeFindAndFold(b, 0, b.length)
    }
  })

  it('agrees with findHost and foldHost on random lines and ranges', () => {
    const alphabet = 'hH:/@[]?#\\.aZ0+ -tps'.split('').map((c) => c.charCodeAt(0))
    const piece = fc.oneof(fc.constantFrom(...alphabet), fc.integer({ min: 0, max: 255 }))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.boolean(), fc.nat(60), fc.nat(60), (codes, prefixed, a, b) => {
        const bytes = new Uint8Array([...(prefixed ? [...enc.encode('hTTp://')] : []), ...codes])
        const start = Math.min(a, b, bytes.length)
        const end = Math.min(Math.max(a, b), bytes.length)
        expectScanLikeFindAndFold(bytes, 0, bytes.length)
        expectScanLikeFindAndFold(bytes, start, end)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('isUrlOrPath', () => {
  const check = (s: string) => {
    const b = enc.encode(s)
    return isUrlOrPath(b, 0, b.length)
  }
  it('accepts paths and http(s) URLs', () => {
    for (const s of ['/', '/a?b', '//x/y', 'http://a', 'https://a.b/c', 'HTTPS://A.B', 'http://a?x']) expect(check(s), s).toBe(true)
  })
  it('rejects the rest', () => {
    for (const s of ['', 'a', 'example.com/x', 'ftp://a/b', 'http:/a', 'http://', 'https:///x', 'http://?', 'httpx://a', '\ufeffhttp://a/']) {
      expect(check(s), s).toBe(false)
    }
  })
})

describe('parseArgs', () => {
  const specs: OptionSpec[] = [
    { name: 'agent', value: true },
    { name: 'print', value: true, choices: ['a', 'b'] },
    { name: 'quiet', short: 'q', value: false },
  ]
  it('reads values, flags, = syntax, - and --', () => {
    const r = parseArgs(['x', '--agent', 'G', '-q', '--print=b', '-', '--', '--agent'], specs)
    expect(Object.fromEntries(r.options)).toEqual({ agent: 'G', quiet: true, print: 'b' })
    expect(r.positionals).toEqual(['x', '-', '--agent'])
  })
  it('accepts - as a value', () => {
    expect(parseArgs(['--agent', '-'], specs).options.get('agent')).toBe('-')
  })
  it.each([
    [['--nope'], "unknown option '--nope'"],
    [['-z'], "unknown option '-z'"],
    [['--agent'], "option '--agent' needs a value"],
    [['--agent', '--quiet'], "option '--agent' needs a value"],
    [['--agent='], "option '--agent' needs a non-empty value"],
    [['--agent', 'a', '--agent', 'b'], "option '--agent' is given more than once"],
    [['--quiet=1'], "option '--quiet' takes no value"],
    [['--print', 'c'], "option '--print' must be one of a, b (got 'c')"],
  ])('%j → %s', (argv, message) => {
    expect(() => parseArgs(argv, specs)).toThrow(UsageError)
    expect(() => parseArgs(argv, specs)).toThrow(message)
  })
})

describe('writeUint', () => {
  it('writes decimal digits', () => {
    for (const n of [0, 7, 10, 99, 100, 12345, 2 ** 31 - 1, 2 ** 40]) {
      const buf = new Uint8Array(20)
      const end = writeUint(buf, 3, n)
      expect(Buffer.from(buf.subarray(3, end)).toString()).toBe(String(n))
    }
  })
})

class MemorySink implements ByteSink {
  chunks: Uint8Array[] = []
  write(chunk: Uint8Array, callback?: (err?: Error | null) => void): boolean {
    this.chunks.push(chunk)
    queueMicrotask(() => callback?.())
    return true
  }
  once(): unknown {
    return this
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('latin1')
  }
}

describe('BlockWriter', () => {
  it('keeps order across flushes and long runs', async () => {
    const sink = new MemorySink()
    const w = new BlockWriter(sink, 16)
    let expected = ''
    for (let i = 0; i < 50; i++) {
      const s = 'x'.repeat(i % 40) + String(i)
      w.bytes(enc.encode(s), 0, s.length)
      w.byte(10)
      w.uint(i)
      w.ascii('|')
      expected += `${s}\n${i}|`
    }
    await w.end()
    expect(sink.text()).toBe(expected)
  })
})

/** A reader that hands out `bytes` in the given chunk sizes. */
function chunkedReader(bytes: Uint8Array, sizes: number[]): ByteReader {
  let pos = 0
  let k = 0
  return {
    async readInto(target, offset, length) {
      if (pos >= bytes.length) return 0
      const want = Math.max(1, sizes.length ? sizes[k++ % sizes.length] : length)
      const n = Math.min(want, length, bytes.length - pos)
      target.set(bytes.subarray(pos, pos + n), offset)
      pos += n
      return n
    },
    async close() {},
  }
}

describe('lineBlocks', () => {
  it('yields whole lines whatever the chunking, and the input exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(10, 13, 97, 47), { maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 5 }),
        fc.integer({ min: 4, max: 64 }),
        async (arr, sizes, block) => {
          const bytes = Uint8Array.from(arr)
          const parts: Buffer[] = []
          for await (const b of lineBlocks(chunkedReader(bytes, sizes), 'x', block)) {
            if (!b.last) expect(b.bytes[b.bytes.length - 1]).toBe(10)
            parts.push(Buffer.from(b.bytes))
          }
          expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true)
        },
      ),
    )
  })

  it('grows for a line longer than the block', async () => {
    const line = 'a'.repeat(1000)
    const bytes = enc.encode(`${line}\n${line}`)
    const blocks: string[] = []
    for await (const b of lineBlocks(chunkedReader(bytes, [7]), 'x', 16)) blocks.push(Buffer.from(b.bytes).toString())
    expect(blocks.join('')).toBe(`${line}\n${line}`)
    expect(blocks[0]).toBe(`${line}\n`)
  })
})

/**
 * A reader handing out `chunks` one per read: at once, or once its `until`
 * promise settles; `ready()` is false while one is awaited or when the next
 * one must be awaited.
 */
function timedReader(chunks: Array<{ text: string; until?: Promise<unknown> } | Error>): ByteReader {
  let k = 0
  let waiting = false
  return {
    async readInto(target, offset) {
      const c = chunks[k++]
      if (c === undefined) return 0
      waiting = true
      if (!(c instanceof Error) && c.until) await c.until
      waiting = false
      if (c instanceof Error) throw c
      const b = enc.encode(c.text)
      target.set(b, offset)
      return b.length
    },
    ready: () => !waiting && k < chunks.length && !(chunks[k] instanceof Error) && (chunks[k] as { until?: unknown }).until === undefined,
    async close() {},
  }
}

describe('lineBlocks: early blocks', () => {
  it('--line-buffered: every read that completes a line yields it at once', async () => {
    const blocks: string[] = []
    const reader = timedReader([{ text: 'a\nb' }, { text: 'c\n' }, { text: 'd' }])
    for await (const b of lineBlocks(reader, 'x', 1024, undefined, { lineBuffered: true })) blocks.push(`${Buffer.from(b.bytes).toString()}|${b.pause}|${b.last}`)
    expect(blocks).toEqual(['a\n|true|false', 'bc\n|true|false', 'd|false|true'])
  })

  it('a pause in the input yields the complete lines read so far, before the next read ends', async () => {
    // The second read ends only once the first block is out (or, if it never comes early, after 20 s): the
    // order of events is the test, not the time they take, so a busy machine cannot change the outcome.
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
      setTimeout(resolve, 20_000).unref()
    })
    let readEnded = false
    const seen: Array<[string, boolean, boolean]> = []
    const reader = timedReader([
      { text: '/a\n/b\n/c', until: undefined },
      { text: '\n/d\n', until: released.then(() => (readEnded = true)) },
    ])
    for await (const b of lineBlocks(reader, 'x', 1 << 20, undefined, { pauseMs: 50 })) {
      seen.push([Buffer.from(b.bytes).toString(), readEnded, b.shared])
      release()
    }
    expect(seen.map(([text, ended]) => [text, ended])).toEqual([
      ['/a\n/b\n', false],
      ['/c\n/d\n', true],
    ])
    expect(seen[0][2]).toBe(true)
    // Without a pause time, nothing is yielded early.
    const whole: string[] = []
    const later = new Promise((resolve) => setTimeout(resolve, 100))
    for await (const b of lineBlocks(timedReader([{ text: '/a\n' }, { text: '/b\n', until: later }]), 'x', 1 << 20, undefined, { pauseMs: 0 })) {
      whole.push(Buffer.from(b.bytes).toString())
    }
    expect(whole).toEqual(['/a\n/b\n'])
  })

  it('a read error comes after the complete lines read before it', async () => {
    const blocks: string[] = []
    const reader = timedReader([{ text: '/a\n/b\n/partial' }, new Error('disk on fire')])
    await expect(
      (async () => {
        for await (const b of lineBlocks(reader, 'x', 1 << 20)) blocks.push(Buffer.from(b.bytes).toString())
      })(),
    ).rejects.toThrow('disk on fire')
    expect(blocks).toEqual(['/a\n/b\n'])
  })
})

describe('lineBlocks limit', () => {
  it('fails with a clear error on a line longer than the limit', async () => {
    const read = async () => {
      for await (const b of lineBlocks(chunkedReader(new Uint8Array(100).fill(97), [9]), 'big.txt', 16, 64)) void b
    }
    await expect(read()).rejects.toThrow("cannot read input file 'big.txt': a line is longer than 64 bytes")
  })
})

describe('judgeBlock and LineEmitter', () => {
  // Allowed iff the URL's length is even; rule line = length.
  const judge = fakeJudge((_b, s, e) => (e - s) * 2 + ((e - s) % 2 === 0 ? 1 : 0))

  async function emit(input: string, mode: 'allowed' | 'disallowed' | 'verdicts', terminateLast = false): Promise<string> {
    const sink = new MemorySink()
    const w = new BlockWriter(sink, 8)
    const stats = newStats()
    judgeBlock(Buffer.from(input, 'latin1'), judge, new LineEmitter(w, mode), stats, terminateLast, new LineLocator(WHOLE_LINES, false), true)
    await w.end()
    return sink.text()
  }

  it('splits into allowed and disallowed, verdicts name the rule', async () => {
    const input = 'ab\r\nabc\nabcd\n\nx'
    expect(await emit(input, 'allowed')).toBe('ab\r\nabcd\n\n')
    expect(await emit(input, 'disallowed')).toBe('abc\nx')
    expect(await emit(input, 'disallowed', true)).toBe('abc\nx\n')
    expect(await emit(input, 'verdicts')).toBe('allowed\t2\tab\ndisallowed\t3\tabc\nallowed\t4\tabcd\nallowed\t0\t\ndisallowed\t1\tx\n')
  })

  it('counts lines, verdicts, invalid lines and bytes', () => {
    const stats = newStats()
    const w = new BlockWriter(new MemorySink(), 64)
    judgeBlock(Buffer.from('/a\nhttp://x/\nfoo\n\nhttps://y'), judge, new LineEmitter(w, 'verdicts'), stats, false, new LineLocator(WHOLE_LINES, false), true)
    expect(stats).toMatchObject({ lines: 5, allowed: 2, disallowed: 3, invalid: 2, bytes: 27 })
    expect(summaryLine(stats, 1)).toMatch(/^5 URLs read: 2 allowed, 3 disallowed, 2 invalid; 0\.0 MB in 1\.00 s/)
  })
})

describe('judgeBlock: the line-convention data suite (test/support/line-cases.ts)', () => {
  const matcher = parseRobots(LINE_RULES).agent('bot')
  for (const c of LINE_CASES) {
    it(c.name, async () => {
      const block = Buffer.from(c.input, 'latin1')
      // Per line (the --robots-dir path): the URL each judge call sees.
      const seen: string[] = []
      const recorder = fakeJudge((b, start, end) => {
        seen.push(Buffer.from(b.subarray(start, end)).toString('latin1'))
        return 1
      })
      judgeBlock(block, recorder, new LineEmitter(new BlockWriter(new MemorySink(), 64), 'allowed'), newStats(), false, new LineLocator(WHOLE_LINES, false), true)
      expect(seen).toEqual(c.lines.map((l) => l.url))
      // Whole blocks through matchLines (the --robots path): verdicts, rule lines and URLs as written.
      const sink = new MemorySink()
      const w = new BlockWriter(sink, 64)
      const stats = newStats()
      judgeBlock(block, new MatcherJudge(matcher, 'robots.txt'), new LineEmitter(w, 'verdicts'), stats, false, new LineLocator(WHOLE_LINES, false), true)
      await w.end()
      const want = c.lines.map(({ url }) => {
        const e = matcher.explain(new Uint8Array(Buffer.from(url, 'latin1')))
        return `${e.allowed ? 'allowed' : 'disallowed'}\t${e.rule?.line ?? 0}\t${url}\n`
      })
      expect(sink.text()).toBe(want.join(''))
      expect(stats.lines).toBe(c.lines.length)
    })
  }
})

describe('HostJudge over DirectoryRules (--robots-dir)', () => {
  const dirs: Array<() => void> = []
  afterAll(() => dirs.forEach((c) => c()))

  function makeDir(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'robots-dir-'))
    dirs.push(() => rmSync(dir, { recursive: true, force: true }))
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body)
    return dir
  }

  function hostJudge(dir: string, options: { missingAllowed?: boolean; cacheBytes?: number } = {}): { judge: HostJudge; events: EntryEvent[] } {
    const events: EntryEvent[] = []
    const judge = new HostJudge(DirectoryRules.open(dir), {
      agent: ['bot'],
      missingAllowed: options.missingAllowed ?? true,
      cacheBytes: options.cacheBytes ?? 1 << 26,
      onEntry: (e) => events.push(e),
    })
    return { judge, events }
  }

  const judgeAll = (d: HostJudge, urls: string[]) =>
    urls.map((u) => {
      const b = enc.encode(u)
      return d.judge(b, 0, b.length)
    })

  it('gives each host its own file, whatever the cache budget, case or port', () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 6; i++) files[`h${i}.test`] = `User-agent: *\nDisallow: /${i}\n`
    const dir = makeDir(files)
    const urls: string[] = []
    for (let r = 0; r < 4; r++) {
      for (let i = 0; i < 7; i++) {
        urls.push(`https://h${i}.test/${i}/x`, `http://H${i}.TEST:8080/${i}`, `https://h${i}.test/${(i + 1) % 7}`)
      }
    }
    const expected = urls.map((u) => {
      const i = Number(/h(\d)/i.exec(u)![1])
      const path = u.replace(/^[a-z]+:\/\/[^/]+/i, '')
      return i < 6 && path.startsWith(`/${i}`) ? 2 * 2 + 0 : 1
    })
    // 0: nothing kept (every return of a host loads its file again); room for about one host's
    // matcher (measured: matcher sizes depend on the engine's tiers); all of them.
    const all = hostJudge(dir, { cacheBytes: 1 << 26 }).judge
    judgeAll(all, urls)
    const one = Math.floor((all.cacheBytes / 6) * 1.5)
    for (const cacheBytes of [0, one, 1 << 26]) {
      const { judge, events } = hostJudge(dir, { cacheBytes })
      expect(judgeAll(judge, urls), `cacheBytes ${cacheBytes}`).toEqual(expected)
      // Each entry's first load is reported once, however often it is loaded.
      expect(events.map((e) => e.id).sort()).toEqual([0, 1, 2, 3, 4, 5])
      expect(judge.missing.count).toBe(1)
      expect(judge.noHost).toBe(0)
      if (cacheBytes === 1 << 26) expect(judge.reloads).toBe(0)
      else expect(judge.reloads).toBeGreaterThan(0)
      if (cacheBytes === 0) expect(judge.cacheBytes).toBe(0)
    }
  })

  it('counts distinct hosts without a file, not look-ups', () => {
    const { judge } = hostJudge(makeDir({ 'a.test': 'User-agent: *\nDisallow: /\n' }))
    const urls: string[] = []
    for (let r = 0; r < 50; r++) for (let i = 0; i < 30; i++) urls.push(`https://n${i}.test/`, `https://A.test/${r}`, `HTTPS://N${i}.TEST:81/x`)
    judgeAll(judge, urls)
    expect(judge.missing.count).toBe(30)
    expect(judge.missing.exact).toBe(true)
  })

  it('the fast path (same scheme://authority/ as the line before) never mixes hosts', () => {
    const dir = makeDir({ 'a.test': 'User-agent: *\nDisallow: /\n', 'a.tes': 'User-agent: *\nAllow: /\n' })
    const { judge } = hostJudge(dir, { missingAllowed: false })
    expect(judgeAll(judge, ['https://a.test/x', 'https://a.test/y', 'https://a.tes/x', 'https://a.test', 'https://a.test?q', 'https://a.tes?q', '/x', 'https://a.test/'])).toEqual([
      4, 4, 5, 4, 4, 5, 0, 4,
    ])
  })

  it('never leaves DIR and treats odd hosts as missing', () => {
    const dir = makeDir({})
    mkdirSync(join(dir, 'sub'))
    writeFileSync(join(dir, 'sub', 'x'), 'User-agent: *\nDisallow: /\n')
    const { judge } = hostJudge(join(dir, 'sub'))
    expect(judgeAll(judge, ['https://../sub/x', 'https://./x', `https://${'a'.repeat(300)}/`, 'https://a%00b/', 'https://x/'])).toEqual([1, 1, 1, 1, 2 * 2])
  })

  it('judges by a host column (--host-field): host, host:port, [v6]:port, or a URL', () => {
    const dir = makeDir({ 'a.test': 'User-agent: *\nDisallow: /p\n', '[::1]': 'User-agent: *\nDisallow: /\n' })
    const { judge } = hostJudge(dir, { missingAllowed: false })
    const line = enc.encode('/p a.test A.TEST:443 [::1]:80 https://a.test/x nofile.test')
    const field = (text: string) => {
      const at = Buffer.from(line).indexOf(text)
      return [at, at + text.length] as const
    }
    const url = [0, 2] as const
    for (const [column, code] of [
      ['a.test', 2 * 2],
      ['A.TEST:443', 2 * 2],
      ['[::1]:80', 2 * 2],
      ['https://a.test/x', 2 * 2],
      ['nofile.test', 0],
    ] as const) {
      const host = newUrlRecord()
      const [from, to] = field(column)
      expect(scanHostField(line, from, to, host), column).toBe(true)
      expect(judge.judgeOnHost(line, url[0], url[1], line, host[UrlField.HostStart], host[UrlField.HostEnd]), column).toBe(code)
    }
  })

  it('rejects a DIR that is not a directory', () => {
    const dir = makeDir({ f: '' })
    expect(() => DirectoryRules.open(join(dir, 'f'))).toThrow(/not a directory/)
    expect(() => DirectoryRules.open(join(dir, 'nope'))).toThrow(/no such file/)
  })
})

describe('ProgressBar', () => {
  it('shows a percentage when the size is known, and erases itself', () => {
    // The bar's clock is the test's (a busy machine may pause 200 ms between two statements).
    vi.useFakeTimers({ toFake: ['performance'] })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    let out = ''
    const term = { columns: 100, write: (s: string) => ((out += s), true) }
    const bar = new ProgressBar(term, 2_000_000)
    bar.update(1_000_000, 12345)
    expect(out).toMatch(/^\r 50% \[#{10}-{10}\] 1\.0 MB \/ 2\.0 MB {2}12,345 URLs {2}[\d.kM]+ URLs\/s\x1b\[K$/)
    bar.update(1_500_000, 20000) // too soon: not redrawn
    expect(out.split('\r').length).toBe(2)
    bar.clear()
    expect(out.endsWith('\r\x1b[K')).toBe(true)
  })

  it('shows bytes and lines without a size, fitted to the terminal width (whole parts dropped, the rate first)', () => {
    let out = ''
    const bar = new ProgressBar({ columns: 20, write: (s: string) => ((out += s), true) }, undefined)
    bar.update(5_000_000, 7)
    expect(out).toBe('\r5.0 MB  7 URLs\x1b[K')
  })
})
