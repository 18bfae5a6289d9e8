/**
 * The parsing limit (DESIGN §2, RFC 9309 §2.5): 512,000 bytes by default,
 * never lower; bytes past it are not read; the line that crosses it is
 * dropped whole; a line longer than 16,663 bytes is cut but parsed; memory
 * while reading is one line plus the chunk in hand.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_LIMIT,
  parseRobots,
  parseRobotsStream,
  reportLines,
  RobotsLimitError,
} from '../src/index.js'
import { createParser, LineReader, MAX_LINE_BYTES, compactRulesOf } from '../src/internals.js'
import { asyncChunks, encodedLengths, fixedChunks, Recorder, recordChunks, splitAt, webStream } from './support/core-helpers.js'

const enc = new TextEncoder()
const HEAD = 'User-agent: *\nDisallow: /first\n'

/** `HEAD`, comment filler, then `tail`, so that the body is exactly `size` bytes. */
function bodyOfSize(size: number, tail: string): Uint8Array {
  const fillLen = size - HEAD.length - tail.length
  const line = '# ' + 'f'.repeat(97) + '\n' // 100 bytes
  let filler = line.repeat(Math.floor(fillLen / 100))
  const rest = fillLen - filler.length
  if (rest > 0) filler += '#'.repeat(rest - 1) + '\n'
  const s = HEAD + filler + tail
  const b = enc.encode(s)
  expect(b.length).toBe(size)
  return b
}

/** An async generator of `total` bytes in `chunk`-byte pieces; counts what was pulled and whether finally ran. */
function countingSource(total: number, chunk: number, fill: (i: number) => Uint8Array) {
  const state = { pulled: 0, chunks: 0, finished: false }
  async function* gen(): AsyncGenerator<Uint8Array> {
    try {
      for (let at = 0; at < total; at += chunk) {
        const c = fill(at).subarray(0, Math.min(chunk, total - at))
        state.pulled += c.length
        state.chunks++
        yield c
      }
    } finally {
      state.finished = true
    }
  }
  return { state, source: gen() }
}

describe('limits: the 512,000-byte parsing limit', () => {
  it('the default limit is 512,000 bytes and the line limit 16,663', () => {
    expect(DEFAULT_LIMIT).toBe(512_000)
    expect(MAX_LINE_BYTES).toBe(16_663)
  })

  it('a body of exactly 512,000 bytes is read whole, its last line (no newline) kept', async () => {
    const body = bodyOfSize(512_000, 'Disallow: /last')
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(false)
    expect(robots.bytesRead).toBe(512_000)
    expect(robots.agent('bot').isAllowed('/last')).toBe(false)
    expect(robots.agent('bot').isAllowed('/first')).toBe(false)
    expect(robots.diagnostics.some((d) => d.code === 'truncated')).toBe(false)
    const streamed = await parseRobotsStream(asyncChunks(fixedChunks(body, 65_536)))
    expect(Buffer.compare(streamed.toBytes(), robots.toBytes())).toBe(0)
    expect(reportLines(body).truncated).toBe(false)
  })

  it('one byte more: truncated, bytesRead 512,000, the crossing line dropped', async () => {
    const body = bodyOfSize(512_001, 'Disallow: /lastx')
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.bytesRead).toBe(512_000)
    // `Disallow: /last` is what was read of the crossing line: it must not count.
    expect(robots.agent('bot').isAllowed('/last')).toBe(true)
    expect(robots.agent('bot').isAllowed('/lastx')).toBe(true)
    expect(robots.agent('bot').isAllowed('/first')).toBe(false)
    const diag = robots.diagnostics.filter((d) => d.code === 'truncated')
    expect(diag).toHaveLength(1)
    expect(diag[0].line).toBe(robots.lineCount + 1)
    expect(diag[0].severity).toBe('error')
    const report = reportLines(body)
    expect(report.truncated).toBe(true)
    expect(report.lines.at(-1)!.tag).toBe('Unknown') // the last kept line is filler
    for (const size of [1, 4096, 65_536, 511_999, 512_000, 512_001]) {
      const streamed = await parseRobotsStream(asyncChunks(fixedChunks(body, size)))
      expect(Buffer.compare(streamed.toBytes(), robots.toBytes()), `chunk size ${size}`).toBe(0)
    }
  })

  it('a rule straddling byte 512,000 is dropped whole (not read as a shorter rule)', async () => {
    // `Disallow: /secret` with the limit falling between "/sec" and "ret".
    const tail = 'Disallow: /secret\nDisallow: /after\n'
    const lineStart = 512_000 - 'Disallow: /sec'.length
    const body = bodyOfSize(lineStart + tail.length, tail)
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.bytesRead).toBe(512_000)
    const m = robots.agent('bot')
    expect(m.isAllowed('/sec')).toBe(true)
    expect(m.isAllowed('/secret')).toBe(true)
    expect(m.isAllowed('/security')).toBe(true)
    expect(m.isAllowed('/after')).toBe(true)
    expect(m.isAllowed('/first')).toBe(false)
    expect(Buffer.from(compactRulesOf(robots).patterns).toString('latin1')).toBe('/first')
    // Every chunk boundary near the limit gives the same result.
    const want = robots.toBytes()
    for (let cut = 512_000 - 40; cut <= 512_000 + 20; cut++) {
      const r = await parseRobotsStream(asyncChunks(splitAt(body, [cut])))
      expect(Buffer.compare(r.toBytes(), want), `split at ${cut}`).toBe(0)
    }
    const rec = recordChunks([body])
    expect(rec.log.some((l) => l.includes('/sec'))).toBe(false)
  })

  it('a line whose newline is the first byte past the limit is dropped (its end was not read)', () => {
    const tail = 'Disallow: /edge\nDisallow: /after\n'
    const body = bodyOfSize(512_000 - 'Disallow: /edge'.length + tail.length, tail)
    expect(body[512_000]).toBe(10)
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.agent('bot').isAllowed('/edge')).toBe(true)
  })

  it('a line ending with the last byte within the limit is kept; the empty rest is not a line', () => {
    const tail = 'Disallow: /kept\nDisallow: /after\n'
    const body = bodyOfSize(512_000 - 'Disallow: /kept\n'.length + tail.length, tail)
    expect(body[511_999]).toBe(10)
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.agent('bot').isAllowed('/kept')).toBe(false)
    expect(robots.agent('bot').isAllowed('/after')).toBe(true)
    const full = parseRobots(body.subarray(0, 512_000))
    expect(full.truncated).toBe(false)
    // The truncated parse saw the same lines minus the (empty) line after the last newline.
    expect(robots.lineCount).toBe(full.lineCount - 1)
  })

  it('CR as the last byte within the limit and LF just past it: the line before is kept', () => {
    const tail = 'Disallow: /cr\r\nDisallow: /after\n'
    const body = bodyOfSize(512_000 - 'Disallow: /cr\r'.length + tail.length, tail)
    expect(body[511_999]).toBe(13)
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.agent('bot').isAllowed('/cr')).toBe(false)
  })

  it('regression: a string past the limit is read as its UTF-8 bytes are, encoding only its first limit + 1 chars (all of a 300 MB string was encoded)', async () => {
    const enc = new TextEncoder()
    // Every way the limit can fall: on a line end, on a CR of a CRLF, inside 2-, 3- and 4-byte characters
    // (a surrogate pair cut by the slice), at each offset; limits 512,000 and 600,000; lengths at the limit.
    const tails = ['\n', '\r\n', 'é', '日', '😀', 'é\n', '😀\r\n', '\r', 'x']
    let compared = 0
    for (const limit of [512_000, 600_000]) {
      for (const tail of tails) {
        for (let shift = -6; shift <= 6; shift++) {
          const head = `User-agent: *\nDisallow: /a\n${'#'.repeat(40)}\n`
          const fillTo = limit - head.length + shift
          const rule = 'Disallow: /edge'
          const text = head + 'x'.repeat(Math.max(0, fillTo - rule.length - 1)) + '\n' + rule + tail.repeat(3) + 'Disallow: /after\n'
          const fromText = parseRobots(text, { limit })
          const fromBytes = parseRobots(enc.encode(text), { limit })
          expect([fromText.truncated, fromText.bytesRead, fromText.lineCount], `${limit} ${JSON.stringify(tail)} ${shift}`).toEqual([fromBytes.truncated, fromBytes.bytesRead, fromBytes.lineCount])
          expect(fromText.toBytes(), `${limit} ${JSON.stringify(tail)} ${shift}`).toEqual(fromBytes.toBytes())
          compared++
        }
      }
    }
    expect(compared).toBe(2 * 9 * 13)
    // The encoder sees at most limit + 1 chars of a longer string.
    const long = 'User-agent: *\nDisallow: /a\n' + 'x'.repeat(3_000_000)
    const seen = await encodedLengths(() => {
      expect(parseRobots(long).truncated).toBe(true)
      expect(reportLines(long).lines.length).toBeGreaterThan(0)
    })
    expect(Math.max(...seen)).toBeLessThanOrEqual(512_001)
    expect(parseRobots(long, { limit: Infinity }).truncated).toBe(false)
  })

  it('a limit below 512,000 is a RangeError with code ERR_LIMIT, everywhere a limit is taken', async () => {
    for (const bad of [511_999, 0, -1, 1000, Number.NaN, '600000' as unknown as number, null as unknown as number]) {
      const check = (f: () => unknown) => {
        let err: unknown
        try {
          f()
        } catch (e) {
          err = e
        }
        expect(err, `limit ${String(bad)}`).toBeInstanceOf(RangeError)
        expect(err).toBeInstanceOf(RobotsLimitError)
        expect((err as RobotsLimitError).code).toBe('ERR_LIMIT')
      }
      check(() => parseRobots('User-agent: *', { limit: bad }))
      check(() => reportLines('User-agent: *', { limit: bad }))
      check(() => createParser(new Recorder(), bad))
      check(() => new LineReader(() => {}, bad))
      await expect(parseRobotsStream(asyncChunks([enc.encode('x')]), { limit: bad })).rejects.toMatchObject({
        code: 'ERR_LIMIT',
        name: 'RobotsLimitError',
      })
    }
  })

  it('a higher limit is accepted and honoured', async () => {
    const body = bodyOfSize(700_000, 'Disallow: /deep')
    const dflt = parseRobots(body)
    expect(dflt.truncated).toBe(true)
    expect(dflt.agent('bot').isAllowed('/deep')).toBe(true)
    const high = parseRobots(body, { limit: 1_000_000 })
    expect(high.truncated).toBe(false)
    expect(high.bytesRead).toBe(700_000)
    expect(high.agent('bot').isAllowed('/deep')).toBe(false)
    const exact = parseRobots(body, { limit: 700_000 })
    expect(exact.truncated).toBe(false)
    const under = parseRobots(body, { limit: 699_999 })
    expect(under.truncated).toBe(true)
    expect(under.bytesRead).toBe(699_999)
    expect(under.agent('bot').isAllowed('/deep')).toBe(true)
    const streamed = await parseRobotsStream(asyncChunks(fixedChunks(body, 10_000)), { limit: 1_000_000 })
    expect(Buffer.compare(streamed.toBytes(), high.toBytes())).toBe(0)
    expect(parseRobots(body, { limit: Infinity }).truncated).toBe(false)
  })

  it('a 10 MB async generator is read only up to the limit, and its finally block runs', async () => {
    const chunk = 65_536
    const block = enc.encode(('Disallow: /x' + 'y'.repeat(87) + '\n').repeat(Math.ceil(chunk / 100) + 1))
    const { state, source } = countingSource(10 * 1024 * 1024, chunk, () => block)
    const robots = await parseRobotsStream(
      (async function* () {
        yield enc.encode('User-agent: *\n')
        yield* source
      })(),
    )
    expect(robots.truncated).toBe(true)
    expect(robots.bytesRead).toBe(512_000)
    expect(state.pulled).toBeLessThanOrEqual(512_000 + chunk)
    expect(state.pulled).toBeGreaterThanOrEqual(512_000 - 14)
    expect(state.finished).toBe(true)
  })

  it('a 10 MB Web ReadableStream is cancelled at the limit', async () => {
    const chunk = 65_536
    let pulled = 0
    let cancelled = false
    const data = new Uint8Array(chunk).fill(0x23) // '#'
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= 10 * 1024 * 1024) return controller.close()
          pulled += chunk
          controller.enqueue(data.slice())
        },
        cancel() {
          cancelled = true
        },
      },
      { highWaterMark: 0 },
    )
    const robots = await parseRobotsStream(stream)
    expect(robots.truncated).toBe(true)
    expect(robots.bytesRead).toBe(512_000)
    expect(pulled).toBeLessThanOrEqual(512_000 + 2 * chunk)
    expect(cancelled).toBe(true)
    // The stream's lock was released, so the caller can still use it.
    expect(stream.locked).toBe(false)
  })

  it('a 20,000-byte line is cut at 16,663 bytes, still parsed, flagged and diagnosed', async () => {
    const prefix = 'Disallow: '
    const pattern = '/' + 'a'.repeat(20_000 - prefix.length - 1)
    const body = enc.encode('User-agent: *\n' + prefix + pattern + '\nAllow: /z\n')
    const robots = parseRobots(body)
    const m = robots.agent('bot')
    const keptPattern = pattern.slice(0, MAX_LINE_BYTES - prefix.length)
    expect(compactRulesOf(robots).patterns.length).toBe(keptPattern.length + 2)
    expect(m.isAllowed(keptPattern)).toBe(false)
    expect(m.isAllowed(keptPattern.slice(0, -1))).toBe(true)
    expect(m.isAllowed(keptPattern.slice(0, -1) + 'b')).toBe(true)
    expect(m.explain(pattern).rule?.line).toBe(2)
    expect(m.isAllowed('/z')).toBe(true)
    const lineDiag = robots.diagnostics.filter((d) => d.code === 'line-too-long')
    expect(lineDiag.map((d) => d.line)).toEqual([2])
    const report = reportLines(body)
    expect(report.lines[1]).toMatchObject({ line: 2, tag: 'Disallow', metadata: { isLineTooLong: true } })
    expect(report.lines[2]).toMatchObject({ line: 3, tag: 'Allow', metadata: { isLineTooLong: false } })
    const streamed = await parseRobotsStream(asyncChunks(fixedChunks(body, 333)))
    expect(Buffer.compare(streamed.toBytes(), robots.toBytes())).toBe(0)
  })

  it('memory while streaming 10 MB (limit raised) stays bounded by one line plus the chunk in hand', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const chunk = 64 * 1024
    const total = 10 * 1024 * 1024
    // Comment lines, and very long lines that span many chunks: nothing of them is kept.
    const longLine = enc.encode('#' + 'L'.repeat(200_000) + '\n')
    const comments = enc.encode(('# ' + 'c'.repeat(60) + '\n').repeat(2000))
    const samples: number[] = []
    async function* gen(): AsyncGenerator<Uint8Array> {
      yield enc.encode('User-agent: *\nDisallow: /private\n')
      let at = 0
      let n = 0
      while (at < total) {
        const src = n % 8 < 4 ? longLine : comments
        const off = (n * chunk) % (src.length - chunk)
        const c = src.slice(off, off + chunk) // a fresh chunk each time, as a socket gives
        at += c.length
        if (n % 16 === 0) {
          gc()
          samples.push(process.memoryUsage().heapUsed)
        }
        n++
        yield c
      }
    }
    gc()
    const before = process.memoryUsage().heapUsed
    const robots = await parseRobotsStream(gen(), { limit: 64 * 1024 * 1024 })
    gc()
    const after = process.memoryUsage().heapUsed
    expect(robots.truncated).toBe(false)
    expect(robots.bytesRead).toBeGreaterThan(total)
    expect(robots.agent('a').isAllowed('/private')).toBe(false)
    const peak = Math.max(...samples)
    // Growth is a few chunks at most, far from the 10 MB streamed.
    expect(peak - before).toBeLessThan(3 * 1024 * 1024)
    expect(after - before).toBeLessThan(3 * 1024 * 1024)
  })

  it('structurally, a LineReader holds one line buffer (16,663 bytes) and no chunk, whatever it was fed', () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61)
    for (let i = 0; i < chunk.length; i += 5000) chunk[i] = 10
    let lines = 0
    let longest = 0
    const handler = new Recorder()
    handler.lineEnd = (_n: number, _flags: number, _bytes: Uint8Array, start: number, end: number) => {
      lines++
      longest = Math.max(longest, end - start)
    }
    const reader = createParser(handler, 64 * 1024 * 1024)
    for (let i = 0; i < 160; i++) expect(reader.push(chunk.slice())).toBe(true)
    reader.end()
    expect(reader.bytesRead).toBe(160 * 64 * 1024)
    expect(lines).toBeGreaterThan(160 * 13)
    expect(longest).toBe(4999)
    // Lines span chunk boundaries, so the reader needed its line buffer; it holds nothing else.
    let held = 0
    for (const v of Object.values(reader)) if (ArrayBuffer.isView(v)) held += v.byteLength
    expect(held).toBeGreaterThan(0)
    expect(held).toBeLessThanOrEqual(MAX_LINE_BYTES)
    expect(handler.log.filter((l) => !l.startsWith('end'))).toEqual([])
  })

  it('with the default limit, a 10 MB stream in 64 KiB chunks stops at bytesRead 512,000', async () => {
    const chunk = 64 * 1024
    const data = enc.encode(('Allow: /' + 'p'.repeat(90) + '\n').repeat(700))
    const { state, source } = countingSource(10 * 1024 * 1024, chunk, (at) => data.subarray(at % 1000, (at % 1000) + chunk))
    const robots = await parseRobotsStream(source)
    expect(robots.bytesRead).toBe(512_000)
    expect(robots.truncated).toBe(true)
    expect(state.chunks).toBeLessThanOrEqual(Math.ceil(512_000 / chunk) + 1)
    expect(state.finished).toBe(true)
  })

  it('regression: crawlDelay over 300,000 crawl-delay lines (raised limit) overflowed the call stack', () => {
    const body = 'User-agent: *\n' + 'Crawl-delay: 1\n'.repeat(300_000) + 'Crawl-delay: 9\n' + 'Request-rate: 1/2s\n'.repeat(200_000)
    const robots = parseRobots(body, { limit: 20_000_000 })
    expect(robots.truncated).toBe(false)
    expect(robots.crawlDelay('bot')).toBe(9)
    expect(robots.requestRate('bot')).toEqual({ requests: 1, seconds: 2 })
  })

  it('the same truncation from a Web ReadableStream, bytes and string', async () => {
    const body = bodyOfSize(600_000, 'Disallow: /tail')
    const want = parseRobots(body).toBytes()
    expect(Buffer.compare((await parseRobotsStream(webStream(fixedChunks(body, 50_000)))).toBytes(), want)).toBe(0)
    expect(Buffer.compare(parseRobots(new TextDecoder().decode(body)).toBytes(), want)).toBe(0)
  })
})
