/**
 * The streaming reader: the result is the same for every way of cutting the
 * body into chunks (DESIGN §2), for real corpus files chosen for their awkward
 * bytes (BOM, CRLF, lone CR, NUL, invalid UTF-8, long lines) and for synthetic
 * bodies that put the awkward bytes exactly at a chunk boundary.
 *
 * "Same result" is checked twice: the full log of ParseHandler calls (every
 * call, every byte, every flag) through `createParser`, and
 * `parseRobots(bytes).toBytes()` against `parseRobotsStream(chunks).toBytes()`.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, parseRobotsStream, reportLines } from '../../src/index.js'
import { LineFlag, MAX_LINE_BYTES, parseInto } from '../../src/internals.js'
import {
  asyncChunks,
  concatBytes,
  fixedChunks,
  latin1Bytes,
  randomOffsets,
  recordChunks,
  Recorder,
  seededRandom,
  splitAt,
  webStream,
} from '../support/core-helpers.js'
import { describeShared, SHARED } from '../support/shared-data.js'

const CORPUS = resolve(SHARED, 'corpus/robots')

interface FeatureRow {
  file: string
  bytes: number
  [k: string]: string | number
}

function readFeatures(): FeatureRow[] {
  const text = readFileSync(resolve(CORPUS, 'FEATURES.tsv'), 'utf8')
  const [head, ...rows] = text.trim().split('\n')
  const cols = head.split('\t')
  return rows.map((r) => {
    const cells = r.split('\t')
    const o: FeatureRow = { file: '', bytes: 0 }
    cols.forEach((c, i) => (o[c] = c === 'file' ? cells[i] : Number(cells[i])))
    return o
  })
}

/** Feature name → predicate; each contributes its 3 smallest files and one larger one (≤ 40 KB). */
const FEATURES: Record<string, (r: FeatureRow) => boolean> = {
  bom: (r) => r.bom_utf8 === 1,
  crlf: (r) => r.crlf === 1,
  loneCr: (r) => r.lone_cr === 1,
  nul: (r) => r.nul === 1,
  invalidUtf8: (r) => r.valid_utf8 === 0,
  longLine: (r) => (r.max_line as number) > MAX_LINE_BYTES,
}

function chooseFiles(): Map<string, string[]> {
  const rows = readFeatures()
  const out = new Map<string, string[]>()
  for (const [name, pred] of Object.entries(FEATURES)) {
    const hits = rows.filter(pred).sort((a, b) => a.bytes - b.bytes || (a.file < b.file ? -1 : 1))
    const picked = hits.slice(0, 3)
    const larger = hits.filter((r) => r.bytes <= 40_000 && !picked.includes(r)).pop()
    if (larger) picked.push(larger)
    out.set(name, picked.map((r) => r.file))
  }
  return out
}

const SMALL = 3_000
const EDGE = 300

/** Offsets for 2-way splits: all of them for small bodies, else the edges plus random ones. */
function twoWayOffsets(length: number, seed: number): number[] {
  if (length <= SMALL) return Array.from({ length: length + 1 }, (_, i) => i)
  const set = new Set<number>()
  for (let i = 0; i <= EDGE; i++) {
    set.add(i)
    set.add(length - i)
  }
  const rnd = seededRandom(seed)
  for (let i = 0; i < 150; i++) set.add(Math.floor(rnd() * (length + 1)))
  return [...set].sort((a, b) => a - b)
}

/** Random multi-way splits checked per body by {@link checkAllSplits}, besides the 2-way ones and the 1-byte chunks. */
const RANDOM_RUNS = 25

/**
 * Checks every 2-way split and random multi-way splits of `body` against the
 * one-chunk parse; returns the number of splittings checked, so that callers
 * can assert that every split point was: `splitsFor(body)`.
 */
async function checkAllSplits(body: Uint8Array, seed: number, streamEvery = 1): Promise<number> {
  const whole = recordChunks([body])
  const wholeBytes = parseRobots(body).toBytes()
  let checked = 0
  const offsets = twoWayOffsets(body.length, seed)
  for (let k = 0; k < offsets.length; k++) {
    const chunks = splitAt(body, [offsets[k]])
    const got = recordChunks(chunks)
    if (got.log.length !== whole.log.length || got.log.some((l, i) => l !== whole.log[i])) {
      expect(got.log, `2-way split at ${offsets[k]}`).toEqual(whole.log)
    }
    expect(got.lineCount).toBe(whole.lineCount)
    if (k % streamEvery === 0) {
      const streamed = await parseRobotsStream(asyncChunks(chunks))
      expect(Buffer.compare(streamed.toBytes(), wholeBytes), `stream split at ${offsets[k]}`).toBe(0)
    }
    checked++
  }
  const rnd = seededRandom(seed ^ 0x9e3779b9)
  for (let run = 0; run < RANDOM_RUNS; run++) {
    const parts = 2 + Math.floor(rnd() * Math.min(60, body.length + 1))
    const chunks = splitAt(body, randomOffsets(body.length, parts, rnd))
    const got = recordChunks(chunks)
    expect(got.log, `random split run ${run} (${parts} parts, seed ${seed})`).toEqual(whole.log)
    const streamed = await parseRobotsStream(asyncChunks(chunks))
    expect(Buffer.compare(streamed.toBytes(), wholeBytes), `random stream run ${run}`).toBe(0)
    checked++
  }
  // 1-byte chunks: every boundary at once.
  const ones = fixedChunks(body, 1)
  expect(recordChunks(ones).log).toEqual(whole.log)
  expect(Buffer.compare((await parseRobotsStream(asyncChunks(ones))).toBytes(), wholeBytes)).toBe(0)
  return checked + 1
}

/**
 * The splittings checkAllSplits must have checked: every 2-way split point of
 * a small body (length + 1 of them: before the first byte to after the last),
 * the edge and random points of a large one, the random multi-way runs and
 * the 1-byte chunks.
 */
function splitsFor(body: Uint8Array, seed: number): number {
  const twoWay = body.length <= SMALL ? body.length + 1 : twoWayOffsets(body.length, seed).length
  return twoWay + RANDOM_RUNS + 1
}

describeShared('reader-corpus', (available) => {
  const chosen = available ? chooseFiles() : new Map<string, string[]>()

  it('found files for every awkward feature', () => {
    for (const name of Object.keys(FEATURES)) expect(chosen.get(name)?.length, name).toBeGreaterThanOrEqual(2)
  })

  let seed = 1
  for (const [feature, files] of chosen) {
    for (const file of files) {
      const s = seed++
      it(`${feature}: ${file}`, async () => {
        const body = new Uint8Array(readFileSync(resolve(CORPUS, file)))
        const checked = await checkAllSplits(body, s, body.length > SMALL ? 3 : 1)
        expect(checked).toBe(splitsFor(body, s))
        // A large body: at least both edges of EDGE + 1 points each, beyond the random and 1-byte runs.
        if (body.length > SMALL) expect(checked).toBeGreaterThanOrEqual(2 * (EDGE + 1) + RANDOM_RUNS + 1)
      })
    }
  }

  it('the chosen files really have the feature (sanity of the selection)', () => {
    const bytes = (f: string) => new Uint8Array(readFileSync(resolve(CORPUS, f)))
    for (const f of chosen.get('bom')!) expect([...bytes(f).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    for (const f of chosen.get('nul')!) expect(bytes(f).includes(0)).toBe(true)
    for (const f of chosen.get('longLine')!) {
      expect(reportLines(bytes(f)).lines.some((l) => l.metadata.isLineTooLong)).toBe(true)
    }
  })

  it('a Web ReadableStream source gives the same bytes as parseRobots', async () => {
    const rnd = seededRandom(4242)
    for (const files of chosen.values()) {
      for (const file of files) {
        const body = new Uint8Array(readFileSync(resolve(CORPUS, file)))
        const want = parseRobots(body).toBytes()
        for (let run = 0; run < 3; run++) {
          const chunks = splitAt(body, randomOffsets(body.length, 2 + Math.floor(rnd() * 20), rnd))
          const got = await parseRobotsStream(webStream(chunks))
          expect(Buffer.compare(got.toBytes(), want), `${file} run ${run}`).toBe(0)
        }
      }
    }
  })
})

const text = (s: string) => new TextEncoder().encode(s)

describe('reader: synthetic bodies at chunk boundaries', () => {
  it('CRLF exactly at a chunk boundary is one line ending', async () => {
    const body = text('User-agent: *\r\nDisallow: /a\r\nAllow: /b\r\n')
    const cut = body.indexOf(13) + 1 // between \r and \n
    const got = recordChunks(splitAt(body, [cut]))
    expect(got.lineCount).toBe(4)
    expect(got.log.filter((l) => !l.startsWith('end'))).toEqual(['ua 1 *', 'disallow 2 /a', 'allow 3 /b'])
    expect(got.log).toEqual(recordChunks([body]).log)
    const streamed = await parseRobotsStream(asyncChunks(splitAt(body, [cut])))
    expect(streamed.lineCount).toBe(4)
    expect(streamed.agent('x').isAllowed('/a')).toBe(false)
    expect(body.length).toBeLessThanOrEqual(SMALL)
    expect(await checkAllSplits(body, 11)).toBe(body.length + 1 + RANDOM_RUNS + 1)
  })

  it('CR at the end of one chunk, LF at the start of the next, with empty chunks between', () => {
    const body = text('User-agent: *\r\nDisallow: /a\r')
    const cr = body.indexOf(13)
    const chunks = [body.slice(0, cr + 1), new Uint8Array(0), new Uint8Array(0), body.slice(cr + 1)]
    expect(recordChunks(chunks).log).toEqual(recordChunks([body]).log)
    expect(recordChunks([body]).lineCount).toBe(3)
  })

  it('lone CR, LF CR and CR CR end lines as in the reference', () => {
    expect(recordChunks([text('a: 1\rb: 2')]).lineCount).toBe(2)
    expect(recordChunks([text('a: 1\r\rb: 2')]).lineCount).toBe(3)
    expect(recordChunks([text('a: 1\n\rb: 2')]).lineCount).toBe(3)
    expect(recordChunks([text('a: 1\r\n\nb: 2')]).lineCount).toBe(3)
    expect(recordChunks([text('a: 1\r\n\r\nb: 2')]).lineCount).toBe(3)
    expect(recordChunks([text('')]).lineCount).toBe(1)
    expect(recordChunks([text('\n')]).lineCount).toBe(2)
  })

  it('a partial BOM (EF BB) then text is skipped', async () => {
    const body = concatBytes(Uint8Array.of(0xef, 0xbb), text('User-agent: *\nDisallow: /x\n'))
    const got = recordChunks([body])
    expect(got.log[0]).toBe('ua 1 *')
    expect(parseRobots(body).agent('a').isAllowed('/x')).toBe(false)
    expect(body.length).toBeLessThanOrEqual(SMALL)
    expect(await checkAllSplits(body, 12)).toBe(body.length + 1 + RANDOM_RUNS + 1)
  })

  it('a lone EF then text is skipped too; a BOM prefix followed by a non-BOM byte keeps that byte', () => {
    expect(recordChunks([concatBytes(Uint8Array.of(0xef), text('User-agent: *'))]).log[0]).toBe('ua 1 *')
    // EF BB EF: the third byte breaks the BOM and is kept as content.
    const got = recordChunks([concatBytes(Uint8Array.of(0xef, 0xbb, 0xef), text('User-agent: *'))])
    expect(got.log[0]).toBe('unknown 1 \xefUser-agent *')
  })

  it('a BOM split across chunks (every split) is skipped', async () => {
    const body = concatBytes(Uint8Array.of(0xef, 0xbb, 0xbf), text('User-agent: *\r\nDisallow: /x\r\n'))
    expect(recordChunks([body]).log[0]).toBe('ua 1 *')
    expect(recordChunks([Uint8Array.of(0xef), Uint8Array.of(0xbb), Uint8Array.of(0xbf), body.slice(3)]).log).toEqual(
      recordChunks([body]).log,
    )
    expect(body.length).toBeLessThanOrEqual(SMALL)
    expect(await checkAllSplits(body, 13)).toBe(body.length + 1 + RANDOM_RUNS + 1)
  })

  it('a BOM is skipped only at the very start of the body', () => {
    const body = concatBytes(text('\n'), Uint8Array.of(0xef, 0xbb, 0xbf), text('User-agent: *\nDisallow: /x\n'))
    const log = recordChunks([body]).log
    expect(log).toContain('unknown 2 \xef\xbb\xbfUser-agent *')
    expect(log.some((l) => l.startsWith('ua '))).toBe(false)
    // The second BOM after a first one is content as well.
    const twice = concatBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf), text('User-agent: *'))
    expect(recordChunks([twice]).log[0]).toBe('unknown 1 \xef\xbb\xbfUser-agent *')
  })

  it('a NUL byte ends the line (the rest of the physical line is ignored, not a new line)', async () => {
    const body = latin1Bytes('User-agent: *\nDisallow: /a\x00Disallow: /b\nDisallow: /c\n')
    const log = recordChunks([body]).log
    expect(log.filter((l) => l.startsWith('disallow'))).toEqual(['disallow 2 /a', 'disallow 3 /c'])
    expect(recordChunks([body]).lineCount).toBe(4)
    const robots = parseRobots(body)
    expect(robots.agent('x').isAllowed('/b')).toBe(true)
    expect(robots.agent('x').isAllowed('/a')).toBe(false)
    expect(body.length).toBeLessThanOrEqual(SMALL)
    expect(await checkAllSplits(body, 14)).toBe(body.length + 1 + RANDOM_RUNS + 1)
  })

  it('invalid UTF-8 and a multi-byte sequence cut by a chunk boundary give the same bytes', async () => {
    const body = concatBytes(
      text('User-agent: *\nDisallow: /caf'),
      Uint8Array.of(0xc3, 0xa9), // é
      text('\nDisallow: /bad'),
      Uint8Array.of(0xff, 0xc3), // invalid
      text('\nAllow: /\u{1f600}\n'),
    )
    const log = recordChunks([body]).log
    expect(log).toContain('disallow 2 /caf%C3%A9')
    expect(log).toContain('disallow 3 /bad%FF%C3')
    expect(log).toContain('allow 4 /%F0%9F%98%80')
    expect(body.length).toBeLessThanOrEqual(SMALL)
    expect(await checkAllSplits(body, 15)).toBe(body.length + 1 + RANDOM_RUNS + 1)
  })

  for (const len of [MAX_LINE_BYTES - 1, MAX_LINE_BYTES, MAX_LINE_BYTES + 1, MAX_LINE_BYTES + 2, 40_000]) {
    it(`a line of exactly ${len} bytes (limit ${MAX_LINE_BYTES}), every chunk split near its edges`, async () => {
      const head = 'User-agent: *\n'
      const prefix = 'Disallow: /'
      const line = prefix + 'a'.repeat(len - prefix.length)
      expect(line.length).toBe(len)
      const body = text(head + line + '\r\nDisallow: /z\n')
      const whole = recordChunks([body])
      const tooLong = len > MAX_LINE_BYTES
      const kept = Math.min(len, MAX_LINE_BYTES)
      expect(whole.log).toContain(`disallow 2 /${'a'.repeat(kept - prefix.length)}`)
      expect(whole.log).toContain('disallow 3 /z')
      const end2 = whole.log.find((l) => l.startsWith('end 2 '))!
      const flags = Number(end2.split(' ')[2])
      expect((flags & LineFlag.isLineTooLong) !== 0).toBe(tooLong)
      expect(end2.length - `end 2 ${flags} `.length).toBe(kept)
      expect(whole.lineCount).toBe(4)
      expect(reportLines(body).lines[1].metadata.isLineTooLong).toBe(tooLong)
      // Splits around where the line starts, where it is cut, and where it ends.
      const lineStart = head.length
      const offsets = new Set<number>()
      for (let d = -20; d <= 20; d++) {
        for (const at of [lineStart, lineStart + MAX_LINE_BYTES, lineStart + len, lineStart + len + 1]) {
          if (at + d >= 0 && at + d <= body.length) offsets.add(at + d)
        }
      }
      const rnd = seededRandom(len)
      for (let i = 0; i < 40; i++) offsets.add(Math.floor(rnd() * (body.length + 1)))
      const wholeBytes = parseRobots(body).toBytes()
      for (const o of offsets) {
        expect(recordChunks(splitAt(body, [o])).log, `split at ${o}`).toEqual(whole.log)
      }
      for (const o of [...offsets].slice(0, 30)) {
        const got = await parseRobotsStream(asyncChunks(splitAt(body, [o])))
        expect(Buffer.compare(got.toBytes(), wholeBytes), `stream split at ${o}`).toBe(0)
      }
      for (let run = 0; run < 10; run++) {
        const chunks = splitAt(body, randomOffsets(body.length, 2 + Math.floor(rnd() * 200), rnd))
        expect(recordChunks(chunks).log).toEqual(whole.log)
      }
      expect(recordChunks(fixedChunks(body, 1)).log).toEqual(whole.log)
      expect(recordChunks(fixedChunks(body, 4096)).log).toEqual(whole.log)
    })
  }

  it('a too-long line is summarised by its kept bytes only: a #, NUL, %, $ or byte >= 0x80 past the cut is not seen, at every split near the cut and the end', () => {
    const head = 'User-agent: *\n'
    const prefix = 'Disallow: /'
    const SPECIAL = ['#c', '\u0000', '%41', '$', '\u00e9', '\u00ff']
    const cases: [kept: string, tail: string][] = []
    for (const sp of SPECIAL) {
      cases.push(['', sp], [sp, ''], [sp, 'x' + sp], ['', 'x'.repeat(5000) + sp + 'y'.repeat(3)])
    }
    for (const [inKept, inTail] of cases) {
      const keptBody = prefix + 'a'.repeat(MAX_LINE_BYTES - prefix.length - text(inKept).length) + inKept
      expect(text(keptBody).length).toBe(MAX_LINE_BYTES)
      const body = text(head + keptBody + 'b'.repeat(7) + inTail + 'c'.repeat(9) + '\nDisallow: /z\n')
      const whole = recordChunks([body])
      // The line as if it ended at the cut: the same flags but isLineTooLong.
      const cutOnly = recordChunks([text(head + keptBody + '\nDisallow: /z\n')])
      const flagsOf = (log: string[]) => Number(log.find((l) => l.startsWith('end 2 '))!.split(' ')[2])
      expect(flagsOf(whole.log), JSON.stringify([inKept, inTail])).toBe(flagsOf(cutOnly.log) | LineFlag.isLineTooLong)
      const lineStart = text(head).length
      const lineEnd = body.length - text('\nDisallow: /z\n').length
      for (const at of [lineStart + MAX_LINE_BYTES, lineEnd]) {
        for (let d = -12; d <= 12; d++) expect(recordChunks(splitAt(body, [at + d])).log, `split at ${at + d}`).toEqual(whole.log)
      }
      expect(recordChunks(fixedChunks(body, 4096)).log).toEqual(whole.log)
    }
  })

  it('a too-long line is cut at 16,663 bytes even when its CR LF falls right after the cut', () => {
    const body = text('User-agent: *\nDisallow: /' + 'b'.repeat(MAX_LINE_BYTES - 11 + 1) + '\r\nAllow: /q')
    const whole = recordChunks([body])
    expect(whole.lineCount).toBe(3)
    expect(whole.log).toContain('allow 3 /q')
    for (let cut = body.length - 20; cut <= body.length; cut++) expect(recordChunks(splitAt(body, [cut])).log).toEqual(whole.log)
  })

  it('many too-long lines in one chunk, ending in LF, CR, CRLF or not at all: each byte is searched at most twice for the line ends (reading stays linear)', () => {
    for (const ends of [['\n'], ['\r'], ['\r\n'], ['\n', '\r', '\r\n']]) {
      let src = 'User-agent: *\n'
      for (let k = 0; k < 27; k++) src += (k % 3 === 0 ? 'Disallow: /' : k % 3 === 1 ? '<p>\u00e9 ' : 'x-key: %41') + 'a'.repeat(MAX_LINE_BYTES + k * 37) + ends[k % ends.length]
      src += 'Allow: /end'
      const body = text(src)
      const whole = recordChunks([body])
      expect(whole.lineCount, JSON.stringify(ends)).toBe(29)
      expect(whole.log).toContain('allow 29 /end')
      // Bytes looked at by Uint8Array.prototype.indexOf (the reader's search for a too-long line's end).
      const indexOf = Uint8Array.prototype.indexOf
      let searched = 0
      Uint8Array.prototype.indexOf = function (this: Uint8Array, value: number, from?: number) {
        const at = indexOf.call(this, value, from)
        searched += (at < 0 ? this.length : at + 1) - (from ?? 0)
        return at
      }
      try {
        expect(recordChunks([body]).log).toEqual(whole.log)
      } finally {
        Uint8Array.prototype.indexOf = indexOf
      }
      expect(searched).toBeGreaterThan(0)
      expect(searched).toBeLessThanOrEqual(2 * body.length)
      expect(recordChunks(fixedChunks(body, 4096)).log).toEqual(whole.log)
      expect(recordChunks(fixedChunks(body, 40_000)).log).toEqual(whole.log)
    }
  })

  it('a too-long line crossing the parsing limit is dropped; the bytes past the limit are not searched', () => {
    const head = 'User-agent: *\nDisallow: /a\n'
    const body = text(head + 'b'.repeat(600_000) + '\nDisallow: /c\n')
    const whole = recordChunks([body])
    expect(whole.log).not.toContain('disallow 3 /c')
    expect(whole.log.filter((l) => l.startsWith('end '))).toHaveLength(2)
    const indexOf = Uint8Array.prototype.indexOf
    let beyond = false
    Uint8Array.prototype.indexOf = function (this: Uint8Array, value: number, from?: number) {
      if (this.length > 512_000) beyond = true
      return indexOf.call(this, value, from)
    }
    try {
      expect(recordChunks([body]).log).toEqual(whole.log)
    } finally {
      Uint8Array.prototype.indexOf = indexOf
    }
    expect(beyond).toBe(false)
    expect(recordChunks(fixedChunks(body, 65_536)).log).toEqual(whole.log)
  })

  it('a chunk buffer reused by the source after each push does not change the result', async () => {
    // Some sources (fs reads into one buffer) hand out the same memory again:
    // the reader must copy what it keeps across chunks.
    const body = text('User-agent: *\nDisallow: /private\nAllow: /private/ok\nSitemap: https://a.example/s.xml\nCrawl-delay: 3\n')
    const want = parseRobots(body).toBytes()
    for (const size of [1, 3, 7, 16]) {
      async function* reused(): AsyncGenerator<Uint8Array> {
        const buf = new Uint8Array(size)
        for (let i = 0; i < body.length; i += size) {
          const n = Math.min(size, body.length - i)
          buf.set(body.subarray(i, i + n))
          yield buf.subarray(0, n)
          buf.fill(0x58) // scribble over the previous chunk
        }
      }
      const got = await parseRobotsStream(reused())
      expect(Buffer.compare(got.toBytes(), want), `chunk size ${size}`).toBe(0)
    }
  })

  it('string chunks in an async iterable are read as UTF-8', async () => {
    async function* strings(): AsyncGenerator<string> {
      yield 'User-agent: *\nDisa'
      yield 'llow: /ä\n'
      yield 'Allow: /ä/ok'
    }
    const got = await parseRobotsStream(strings())
    expect(Buffer.compare(got.toBytes(), parseRobots('User-agent: *\nDisallow: /ä\nAllow: /ä/ok').toBytes())).toBe(0)
  })

  it('a stream chunk that is not bytes or a string is a TypeError with code ERR_INPUT', async () => {
    async function* bad(): AsyncGenerator<unknown> {
      yield 42
    }
    await expect(parseRobotsStream(bad() as AsyncIterable<Uint8Array>)).rejects.toMatchObject({ code: 'ERR_INPUT' })
    await expect(parseRobotsStream(42 as unknown as AsyncIterable<Uint8Array>)).rejects.toBeInstanceOf(TypeError)
  })

  it('parseInto reports every line to lineEnd exactly once, in order', () => {
    const rec = new Recorder()
    const reader = parseInto(latin1Bytes('a\rb\r\nc\n\nd\x00e\r'), rec)
    const ends = rec.log.filter((l) => l.startsWith('end')).map((l) => Number(l.split(' ')[1]))
    expect(ends).toEqual([1, 2, 3, 4, 5, 6])
    expect(reader.lineCount).toBe(6)
  })
})
