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
import { Header } from '../../src/rules/compact-rules.js'
import { sealForm } from '../../src/rules/serialise.js'
import { SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { describeShared, SHARED } from '../support/shared-data.js'
import { expectParseable, mutateForm, probeUrls, prng } from '../support/form-fuzz.js'

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
      if (m.length >= Header.Size) sealForm(m)
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
    const t = fuzz(forms, 320, 9)
    expect(t.loaded + t.rejected).toBeGreaterThanOrEqual(12_000)
    // Both outcomes occur: the check is not vacuous either way.
    expect(t.loaded).toBeGreaterThan(100)
    expect(t.rejected).toBeGreaterThan(5_000)
  })

  it('a header length of 2^31 (the wrap of issue 13) is rejected before anything is allocated', () => {
    const form = parseRobots('User-agent: *\nDisallow: /x\n').toBytes()
    for (const field of [Header.EventsStart, Header.NamesStart, Header.DiagnosticsStart, Header.Length, Header.EventCount]) {
      for (const v of [2 ** 31, 2 ** 32 - 1, 2 ** 32 - 4, readU32(form, field) + 2 ** 31]) {
        const m = form.slice()
        writeU32(m, field, v >>> 0)
        sealForm(m)
        expect(() => Robots.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
      }
    }
  })

  it('sections that overlap are rejected', () => {
    const form = parseRobots('User-agent: a\nDisallow: /x\nCrawl-delay: 4\nSitemap: https://e.com/s\n').toBytes()
    // The names section starting inside the events: the events would end where the names begin.
    const m = form.slice()
    writeU32(m, Header.NamesStart, readU32(m, Header.EventsStart) + 1)
    sealForm(m)
    expect(() => Robots.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
    // Sections out of order.
    const o = form.slice()
    writeU32(o, Header.ExtensionsStart, readU32(o, Header.SitemapsStart) + 1)
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
