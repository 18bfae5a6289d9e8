/**
 * Structured fuzzing of `Robots.fromBytes` (issue 13, item 1: "fromBytes
 * trusts lengths that wrap"). Real serialised files are mutated (header
 * fields, varints of every section, section bytes), their checksum
 * recomputed, and loaded: each load must either throw a coded
 * RobotsFormatError or give a Robots that a parse could have made
 * (test/support/form-fuzz.ts), never an uncoded error, a huge allocation,
 * or rules nobody wrote.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsFormatError } from '../../src/index.js'
import { readU32, writeU32 } from '../../src/rules/byte-buffer.js'
import { FORMAT_VERSION, Header, HeaderV3 } from '../../src/rules/compact-rules.js'
import { ByteBuffer } from '../../src/rules/byte-buffer.js'
import { sealForm } from '../../src/rules/serialise.js'
import { SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { describeShared, SHARED } from '../support/shared-data.js'
import { expectParseable, headerFieldsOf, mutateForm, probeUrls, prng, toVersion3 } from '../support/form-fuzz.js'

interface Tally {
  loaded: number
  rejected: number
  codes: Map<string, number>
}

/** Mutates each form `perFile` times; every load must be a coded rejection or a parseable Robots. */
function fuzz(forms: Uint8Array[], perFile: number, seed: number): Tally {
  const rand = prng(seed)
  const tally: Tally = { loaded: 0, rejected: 0, codes: new Map() }
  for (const form of forms) {
    const urls = probeUrls(Robots.fromBytes(form))
    for (let i = 0; i < perFile; i++) {
      const m = mutateForm(form, rand)
      if (m.length >= Header.Fields) sealForm(m)
      let r: Robots
      try {
        r = Robots.fromBytes(m)
      } catch (e) {
        if (!(e instanceof RobotsFormatError)) throw new Error(`an uncoded error for a mutated form: ${String(e)}`)
        expect(['ERR_FORMAT', 'ERR_VERSION']).toContain(e.code)
        tally.rejected++
        const why = e.message.replace(/\d+/g, 'N')
        tally.codes.set(why, (tally.codes.get(why) ?? 0) + 1)
        continue
      }
      tally.loaded++
      expectParseable(r, m, urls)
    }
  }
  return tally
}

function serialised(bodies: Uint8Array[]): Uint8Array[] {
  return bodies.map((b) => parseRobots(b).toBytes())
}

describe('Robots.fromBytes fuzz (regression: fromBytes trusted lengths that wrap)', () => {
  it('12,000+ structured mutations of the sample corpus files, checksum recomputed: coded errors or parseable rules', () => {
    const bodies = sampleFiles().map((f) => new Uint8Array(readFileSync(join(SAMPLE, f))))
    bodies.push(new TextEncoder().encode('User-agent: *\nDisallow: /a\nCrawl-delay: 5\nSitemap: https://e.com/s.xml\nFoo: bar\n'))
    const forms = serialised(bodies)
    expect(forms.every((f) => f[Header.Version] === FORMAT_VERSION)).toBe(true)
    const t = fuzz(forms, 320, 9)
    expect(t.loaded + t.rejected).toBeGreaterThanOrEqual(12_000)
    // Both outcomes occur: the check is not vacuous either way.
    expect(t.loaded).toBeGreaterThan(100)
    expect(t.rejected).toBeGreaterThan(5_000)
  })

  it('6,000+ structured mutations of the same files as version 3 forms (still read): coded errors or parseable rules', () => {
    const bodies = sampleFiles().map((f) => new Uint8Array(readFileSync(join(SAMPLE, f))))
    bodies.push(new TextEncoder().encode('User-agent: *\nDisallow: /a\nCrawl-delay: 5\nSitemap: https://e.com/s.xml\nFoo: bar\n'))
    const v4 = serialised(bodies)
    const forms = v4.map((f) => toVersion3(f))
    forms.forEach((f, i) => {
      const old = Robots.fromBytes(f)
      const now = Robots.fromBytes(v4[i])
      expect([old.sitemaps, old.diagnostics, old.bytesRead, old.lineCount, old.truncated]).toEqual([now.sitemaps, now.diagnostics, now.bytesRead, now.lineCount, now.truncated])
    })
    const t = fuzz(forms, 160, 10)
    expect(t.loaded + t.rejected).toBeGreaterThanOrEqual(6_000)
    expect(t.loaded).toBeGreaterThan(50)
    expect(t.rejected).toBeGreaterThan(2_500)
  })

  it('a header length of 2^31 (the wrap of issue 13) is rejected before anything is allocated (version 4: any header field)', () => {
    const v4 = parseRobots('User-agent: *\nDisallow: /x\nSitemap: https://e.com/s\n').toBytes()
    const values = headerFieldsOf(v4).fields
    expect(values.length).toBe(7) // length, events, patterns, events' bytes, sitemaps' bytes, bytes read, lines
    for (let k = 0; k < values.length; k++) {
      if (k === 5) continue // bytes read: any value a line count fits
      for (const x of [2 ** 31, 2 ** 32 - 1, 2 ** 48, values[k] + 2 ** 31]) {
        const head = new ByteBuffer(64)
        values.forEach((v, i) => head.varint(i === k ? x : v))
        const m = new Uint8Array(Header.Fields + head.length + v4.length - v4[Header.HeaderBytes])
        m.set(v4.subarray(0, Header.Fields))
        m.set(head.bytes.subarray(0, head.length), Header.Fields)
        m.set(v4.subarray(v4[Header.HeaderBytes]), Header.Fields + head.length)
        m[Header.HeaderBytes] = Header.Fields + head.length
        sealForm(m)
        expect(() => Robots.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
      }
    }
    const form = toVersion3(parseRobots('User-agent: *\nDisallow: /x\n').toBytes())
    for (const field of [HeaderV3.EventsStart, HeaderV3.NamesStart, HeaderV3.DiagnosticsStart, HeaderV3.Length, HeaderV3.EventCount]) {
      for (const v of [2 ** 31, 2 ** 32 - 1, 2 ** 32 - 4, readU32(form, field) + 2 ** 31]) {
        const m = form.slice()
        writeU32(m, field, v >>> 0)
        sealForm(m)
        expect(() => Robots.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
      }
    }
  })

  it('sections that overlap are rejected', () => {
    const form = toVersion3(parseRobots('User-agent: a\nDisallow: /x\nCrawl-delay: 4\nSitemap: https://e.com/s\n').toBytes())
    // The names section starting inside the events: the events would end where the names begin.
    const m = form.slice()
    writeU32(m, HeaderV3.NamesStart, readU32(m, HeaderV3.EventsStart) + 1)
    sealForm(m)
    expect(() => Robots.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
    // Sections out of order.
    const o = form.slice()
    writeU32(o, HeaderV3.ExtensionsStart, readU32(o, HeaderV3.SitemapsStart) + 1)
    sealForm(o)
    expect(() => Robots.fromBytes(o)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
  })
})

describeShared('serialise-fuzz-corpus', (available) => {
  it('5,000 mutations of 250 ../shared corpus files', () => {
    if (!available) return
    const root = join(SHARED, 'corpus/robots')
    const files: string[] = []
    for (const dir of readdirSync(root).sort()) {
      if (!statSync(join(root, dir)).isDirectory()) continue
      for (const f of readdirSync(join(root, dir)).sort()) files.push(join(root, dir, f))
    }
    const step = Math.floor(files.length / 250)
    const bodies = files.filter((_, i) => i % step === 0).slice(0, 250).map((f) => new Uint8Array(readFileSync(f)))
    const t = fuzz(serialised(bodies), 20, 17)
    expect(t.loaded + t.rejected).toBe(5_000)
  }, 300_000)
})
