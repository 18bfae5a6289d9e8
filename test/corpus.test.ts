/**
 * Every real robots.txt (the bundled sample's, and ../shared/corpus/robots's
 * when it is there) parses without throwing,
 * and gives the same result from bytes, from a string (files that are valid
 * UTF-8) and from a stream of tiny chunks (1 byte for files up to 20 KB,
 * 7 bytes above). The result is compared through `toBytes()`, which holds the
 * rules, names, sitemaps, extensions, diagnostics and the read info.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, parseRobotsStream, Robots } from '../src/index.js'
import { firstDiff } from './support/core-helpers.js'
import { SAMPLE, sampleFiles } from './support/corpus-data.js'
import { describeShared, SHARED } from './support/shared-data.js'

const CORPUS = resolve(SHARED, 'corpus/robots')
const SMALL_FILE = 20_000

function listCorpus(): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const dir of readdirSync(CORPUS).sort()) {
    const full = resolve(CORPUS, dir)
    if (!statSync(full).isDirectory()) continue
    out.set(dir, readdirSync(full).sort().map((f) => `${dir}/${f}`))
  }
  return out
}

/** A cheap async iterable of fixed-size views (no generator machinery per chunk). */
function chunked(body: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      let at = 0
      return {
        next(): Promise<IteratorResult<Uint8Array>> {
          if (at >= body.length) return Promise.resolve({ done: true, value: undefined })
          const v = body.subarray(at, at + size)
          at += size
          return Promise.resolve({ done: false, value: v })
        },
      }
    },
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function decodeStrict(b: Uint8Array): string | null {
  try {
    return strictUtf8.decode(b)
  } catch {
    return null
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array, what: string): void {
  if (a.length !== b.length || firstDiff(a, b) >= 0) {
    expect.fail(`${what}: serialised results differ (lengths ${a.length} / ${b.length}, first difference at ${firstDiff(a, b)})`)
  }
}

/** Parses every file of `root` (paths relative to it) in every input form; returns the totals. */
async function checkFiles(root: string, files: readonly string[], totals: Totals): Promise<void> {
  for (const file of files) {
    const body = new Uint8Array(readFileSync(resolve(root, file)))
    let robots: Robots
    try {
      robots = parseRobots(body)
    } catch (e) {
      expect.fail(`${file}: parseRobots threw ${String(e)}`)
    }
    const want = robots.toBytes()
    expect(robots.bytesRead, file).toBe(Math.min(body.length, 512_000))
    expect(robots.truncated, file).toBe(body.length > 512_000)
    if (robots.truncated) totals.truncated++

    const textBody = decodeStrict(body)
    if (textBody !== null) {
      sameBytes(parseRobots(textBody).toBytes(), want, `${file} (string)`)
      totals.strings++
    } else {
      totals.invalidUtf8++
    }

    const size = body.length <= SMALL_FILE ? 1 : 7
    const streamed = await parseRobotsStream(chunked(body, size))
    sameBytes(streamed.toBytes(), want, `${file} (${size}-byte chunks)`)

    sameBytes(Robots.fromBytes(want).toBytes(), want, `${file} (fromBytes round trip)`)
    totals.files++
  }
}

interface Totals {
  files: number
  strings: number
  invalidUtf8: number
  truncated: number
}

describe(`corpus: every file of the bundled sample (corpus/robots), every input form`, () => {
  it('the 38 files', async () => {
    const totals: Totals = { files: 0, strings: 0, invalidUtf8: 0, truncated: 0 }
    const files = sampleFiles()
    await checkFiles(SAMPLE, files, totals)
    expect(totals.files).toBe(38)
    expect(totals.strings).toBe(38)
  })
})

describeShared('corpus-files', (available) => {
  const dirs = available ? listCorpus() : new Map<string, string[]>()

  it('has the 6,817 corpus files', () => {
    let n = 0
    for (const files of dirs.values()) n += files.length
    expect(n).toBe(6817)
  })

  const totals: Totals = { files: 0, strings: 0, invalidUtf8: 0, truncated: 0 }

  for (const [dir, files] of dirs) {
    it(`${dir} (${files.length} files)`, async () => {
      await checkFiles(CORPUS, files, totals)
    })
  }

  it('covered every file, both string and non-UTF-8 paths, and the truncated ones', () => {
    expect(totals.files).toBe(6817)
    expect(totals.strings).toBeGreaterThan(6000)
    expect(totals.invalidUtf8).toBeGreaterThan(0)
    expect(totals.truncated).toBeGreaterThan(0)
  })
})
