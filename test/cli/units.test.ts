// Unit tests of the CLI's byte-level helpers (imported from src, no process spawned).
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { parseArgs, type OptionSpec } from '../../src/cli/common/args.js'
import { BlockWriter, writeUint, type ByteSink } from '../../src/cli/common/block-writer.js'
import { lineBlocks } from '../../src/cli/filter/line-blocks.js'
import { LineEmitter } from '../../src/cli/filter/emitter.js'
import { judgeBlock, MatcherJudge, type LoopOptions } from '../../src/cli/filter/judge-lines.js'
import type { LineJudge } from '../../src/cli/filter/line-judge.js'
import { parseRobots } from '../../src/index.js'
import { LINE_CASES, LINE_RULES } from '../support/line-cases.js'
import { newStats, summaryLine } from '../../src/cli/filter/filter-stats.js'
import type { ByteReader } from '../../src/cli/filter/input.js'
import { UsageError } from '../../src/cli/common/cli-error.js'
import { DirectoryRules } from '../../src/cli/hosts/robots-dir.js'
import type { CacheBytes } from '../../src/cli/common/heap-room.js'
import { HostJudge } from '../../src/cli/filter/host-judge.js'
import type { EntryEvent } from '../../src/cli/hosts/host-rules.js'
import { ProgressBar } from '../../src/cli/common/progress.js'
import { LineLocator } from '../../src/cli/filter/line-locator.js'
import { WHOLE_LINES } from '../../src/cli/filter/line-layout.js'
import { LineFault } from '../../src/cli/filter/line-locator.js'
import { INPUT_OPTIONS, lineLayout } from '../../src/cli/filter/line-layout.js'

const enc = new TextEncoder()

/** A LineJudge from a function of the URL's range (the per-line method only). */
function fakeJudge(judge: (b: Uint8Array, s: number, e: number) => number): LineJudge {
  return { judge: (b, locator) => judge(b, locator.urlStart, locator.urlEnd), decided: () => ({ matcher: null, rule: null, source: null, host: null }) }
}

const KEEP: LoopOptions = { wholeLines: true, invalid: 'keep' }

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
  it("a value that starts with '-' (--jobs -1, --robots -r.txt) is told how to give it: it was only 'needs a value', as if none was given", () => {
    expect(() => parseArgs(['--agent', '-1'], specs)).toThrow("option '--agent' needs a value (to give '-1', write '--agent=-1')")
    expect(() => parseArgs(['--agent', '-r.txt'], specs)).toThrow("(to give '-r.txt', write '--agent=-r.txt')")
    for (const next of ['-q', '--quiet', '--nope']) expect(() => parseArgs(['--agent', next], specs)).toThrow(/needs a value$/)
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

  it('regression (issue 19): a long line read in small chunks is searched for its LF once, not again on every read', async () => {
    // A 16 MiB line in 64 KiB reads (a pipe's): the old reader searched the whole partial line after each read.
    const line = new Uint8Array(16 << 20).fill(0x61)
    const bytes = new Uint8Array(line.length + 3)
    bytes.set(line)
    bytes.set([10, 0x62, 10], line.length)
    let searched = 0
    const original = Buffer.prototype.lastIndexOf
    const originalIndexOf = Buffer.prototype.indexOf
    Buffer.prototype.lastIndexOf = function (this: Buffer, value: unknown, from?: unknown, ...rest: unknown[]) {
      searched += typeof from === 'number' ? Math.min(this.length, from + 1) : this.length
      return original.call(this, value as number, from as number, ...(rest as [BufferEncoding]))
    } as typeof original
    Buffer.prototype.indexOf = function (this: Buffer, value: unknown, from?: unknown, ...rest: unknown[]) {
      searched += this.length - (typeof from === 'number' ? from : 0)
      return originalIndexOf.call(this, value as number, from as number, ...(rest as [BufferEncoding]))
    } as typeof originalIndexOf
    let total = 0
    try {
      for await (const b of lineBlocks(chunkedReader(bytes, [1 << 16]), 'x', 1 << 20)) total += b.bytes.length
    } finally {
      Buffer.prototype.lastIndexOf = original
      Buffer.prototype.indexOf = originalIndexOf
    }
    expect(total).toBe(bytes.length)
    expect(searched).toBeLessThan(2 * bytes.length)
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

  async function emit(input: string, mode: 'allowed' | 'disallowed' | 'verdicts', terminateLast = false, invalid: 'keep' | 'drop' | 'fail' = 'keep'): Promise<string> {
    const sink = new MemorySink()
    const w = new BlockWriter(sink, 8)
    const stats = newStats()
    judgeBlock(Buffer.from(input, 'latin1'), judge, new LineEmitter(w, mode), stats, terminateLast, new LineLocator(WHOLE_LINES, false), { wholeLines: true, invalid })
    await w.end()
    return sink.text()
  }

  it('splits into allowed and disallowed, verdicts name the rule; a line without a URL is kept on both sides, unjudged', async () => {
    const input = '/a\r\n/ab\n/abc\n\n/'
    expect(await emit(input, 'allowed')).toBe('/a\r\n/abc\n\n')
    expect(await emit(input, 'disallowed')).toBe('/ab\n\n/')
    expect(await emit(input, 'disallowed', true)).toBe('/ab\n\n/\n')
    expect(await emit(input, 'verdicts')).toBe('allowed\t2\t/a\ndisallowed\t3\t/ab\nallowed\t4\t/abc\ninvalid\t0\t\ndisallowed\t1\t/\n')
  })

  it('--invalid drop leaves lines without a URL out; fail stops the block before the first', async () => {
    const input = '/a\r\nab\n/abc\n\n/'
    expect(await emit(input, 'allowed', false, 'drop')).toBe('/a\r\n/abc\n')
    expect(await emit(input, 'verdicts', false, 'drop')).toBe('allowed\t2\t/a\nallowed\t4\t/abc\ndisallowed\t1\t/\n')
    expect(await emit(input, 'verdicts', false, 'fail')).toBe('allowed\t2\t/a\n')
    const stats = newStats()
    judgeBlock(Buffer.from(input), judge, new LineEmitter(new BlockWriter(new MemorySink(), 64), 'allowed'), stats, false, new LineLocator(WHOLE_LINES, false), { wholeLines: true, invalid: 'fail' })
    expect(stats).toMatchObject({ lines: 2, allowed: 1, disallowed: 0, noUrl: 1, stopped: true, faultIndex: 1, fault: LineFault.NotUrl, faultText: 'ab' })
  })

  it('counts lines, verdicts, lines without a URL and bytes; the summary says what became of them', () => {
    const stats = newStats()
    const w = new BlockWriter(new MemorySink(), 64)
    judgeBlock(Buffer.from('/a\nhttp://x/\nfoo\n\nhttps://y'), judge, new LineEmitter(w, 'verdicts'), stats, false, new LineLocator(WHOLE_LINES, false), KEEP)
    expect(stats).toMatchObject({ lines: 5, allowed: 1, disallowed: 2, noUrl: 2, noHost: 0, bytes: 27, faultIndex: 2, fault: LineFault.NotUrl })
    expect(summaryLine(stats, 1, 'keep')).toMatch(/^5 lines read: 1 allowed, 2 disallowed, 2 without a URL \(kept\); 0\.0 MB in 1\.00 s/)
    expect(summaryLine(stats, 1, 'drop')).toMatch(/2 without a URL \(dropped\)/)
  })

  it('per host, a path without a host is not judged: counted apart', () => {
    const stats = newStats()
    const w = new BlockWriter(new MemorySink(), 64)
    judgeBlock(Buffer.from('/a\nhttp://x/\n'), judge, new LineEmitter(w, 'verdicts'), stats, false, new LineLocator(WHOLE_LINES, true), { wholeLines: false, invalid: 'keep' })
    expect(stats).toMatchObject({ lines: 2, allowed: 0, disallowed: 1, noUrl: 0, noHost: 1, fault: LineFault.NoHost })
    expect(summaryLine(stats, 1, 'keep')).toMatch(/1 without a host \(kept\)/)
  })
})

/** A URL as `filter` reads one, by the documentation's words: a path, or an http(s) URL with a host. */
function isUrl(url: string): boolean {
  // A CR that ends no line: the input's lines may end with CR alone, so filter judges no such line (reason `cr`).
  if (url.includes('\r')) return false
  return url.startsWith('/') || /^https?:\/\/[^/?#\\:]/i.test(url)
}

describe('judgeBlock: the line-convention data suite (test/support/line-cases.ts)', () => {
  const matcher = parseRobots(LINE_RULES).agent('bot')
  for (const c of LINE_CASES) {
    it(`${c.name}: judgeBlock sees the lines and gives the verdicts the data suite states`, async () => {
      const block = Buffer.from(c.input, 'latin1')
      // Per line (the --robots-dir path): the URL each judge call sees.
      const seen: string[] = []
      const recorder = fakeJudge((b, start, end) => {
        seen.push(Buffer.from(b.subarray(start, end)).toString('latin1'))
        return 1
      })
      judgeBlock(block, recorder, new LineEmitter(new BlockWriter(new MemorySink(), 64), 'allowed'), newStats(), false, new LineLocator(WHOLE_LINES, false), KEEP)
      expect(seen).toEqual(c.lines.filter((l) => isUrl(l.url)).map((l) => l.url))
      // Whole blocks through matchLines (the --robots path): verdicts, rule lines and URLs as written.
      const sink = new MemorySink()
      const w = new BlockWriter(sink, 64)
      const stats = newStats()
      judgeBlock(block, new MatcherJudge(matcher, 'robots.txt'), new LineEmitter(w, 'verdicts'), stats, false, new LineLocator(WHOLE_LINES, false), KEEP)
      await w.end()
      const want = c.lines.map(({ url }) => {
        if (!isUrl(url)) return `invalid\t0\t${url}\n`
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
      who: { agent: ['bot'] },
      missingAllowed: options.missingAllowed ?? true,
      cacheBytes: (options.cacheBytes ?? 1 << 26) as CacheBytes,
      onEntry: (e) => events.push(e),
    })
    return { judge, events }
  }

  /** Each URL located and judged in turn (a path has no host: -1). */
  const judgeAll = (d: HostJudge, urls: string[], layout = WHOLE_LINES) => {
    const locator = new LineLocator(layout, true)
    return urls.map((u) => {
      const b = enc.encode(u)
      return locator.locate(b, 0, b.length) === LineFault.None ? d.judge(b, locator) : -1
    })
  }

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
      4, 4, 5, 4, 4, 5, -1, 4,
    ])
  })

  it('never leaves DIR and treats odd hosts as missing; a host the URL parser refuses is not judged', () => {
    const dir = makeDir({})
    mkdirSync(join(dir, 'sub'))
    writeFileSync(join(dir, 'sub', 'x'), 'User-agent: *\nDisallow: /\n')
    const { judge } = hostJudge(join(dir, 'sub'))
    expect(judgeAll(judge, ['https://../sub/x', 'https://./x', `https://${'a'.repeat(300)}/`, 'https://a%00b/', 'https://x/'])).toEqual([1, 1, 1, -1, 2 * 2])
  })

  it('judges by a host column (--host-field): host, host:port, [v6]:port, or a URL; a URL of its own keeps its host', () => {
    const dir = makeDir({ 'a.test': 'User-agent: *\nDisallow: /p\n', '[::1]': 'User-agent: *\nDisallow: /\n' })
    const { judge } = hostJudge(dir, { missingAllowed: false })
    const layout = lineLayout(parseArgs(['--field', '1', '--host-field', '2'], INPUT_OPTIONS))
    const lines = ['/p a.test', '/p A.TEST:443', '/p [::1]:80', '/p https://a.test/x', '/p nofile.test', 'https://a.test/p [::1]', '/p', '/p :80']
    expect(judgeAll(judge, lines, layout)).toEqual([2 * 2, 2 * 2, 2 * 2, 2 * 2, 0, 2 * 2, -1, -1])
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
