/** toBytes / fromBytes: every corpus file (the bundled sample, and ../shared's when present) round-trips and answers identically. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsFormatError } from '../../src/index.js'
import { describePaired, SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { SHARED } from '../support/shared-data.js'
import { formLayout, Header } from '../../src/rules/compact-rules.js'
import { sealForm } from '../../src/rules/serialise.js'

/** Every robots.txt of a source, as paths: the bundled sample's 38, or ../shared's 6,817. */
function corpusFiles(full: boolean): string[] {
  if (!full) return sampleFiles().map((f) => join(SAMPLE, f))
  const root = join(SHARED, 'corpus/robots')
  const out: string[] = []
  for (const dir of readdirSync(root)) {
    if (!statSync(join(root, dir)).isDirectory()) continue
    for (const f of readdirSync(join(root, dir))) out.push(join(root, dir, f))
  }
  return out
}

describePaired('serialisation on the corpus', 'serialise-corpus', (source) => {
  it('every corpus file round-trips: same bytes again, same sitemaps, diagnostics and rules', () => {
    let n = 0
    for (const file of corpusFiles(source.id === 'full')) {
      const body = readFileSync(file)
      const robots = parseRobots(body)
      const bytes = robots.toBytes()
      const back = Robots.fromBytes(bytes)
      // Same bytes again: the compact rules (patterns, events, names, extensions) are identical.
      expect(Buffer.compare(back.toBytes(), bytes)).toBe(0)
      expect(back.sitemaps).toEqual(robots.sitemaps)
      expect(back.diagnostics.length).toBe(robots.diagnostics.length)
      expect(back.truncated).toBe(robots.truncated)
      expect(back.bytesRead).toBe(robots.bytesRead)
      const a = robots.rulesFor('Googlebot')
      const b = back.rulesFor('Googlebot')
      expect(b.count).toBe(a.count)
      for (let r = 0; r < a.count; r++) {
        expect(Buffer.compare(b.pattern(r), a.pattern(r))).toBe(0)
        expect(b.line(r)).toBe(a.line(r))
        expect(b.flags(r)).toBe(a.flags(r))
      }
      n++
    }
    expect(n).toBe(source.id === 'full' ? 6817 : 38)
  })

  it('a loaded Robots answers every paired URL like the original', () => {
    let n = 0
    for (const h of source.hosts()) {
      const a = parseRobots(h.robots ?? '')
      const b = Robots.fromBytes(a.toBytes())
      for (const agent of ['Googlebot', 'bingbot']) {
        const ma = a.agent(agent)
        const mb = b.agent(agent)
        for (const u of h.urls) {
          expect(mb.explain(u)).toEqual(ma.explain(u))
          n++
        }
      }
    }
    expect(n).toBe(2 * source.urlCount)
  })
})

describe('serialisation errors', () => {
  const bytes = parseRobots('User-agent: *\nDisallow: /x\nSitemap: https://e.com/s.xml\nCrawl-delay: 3').toBytes()
  it('rejects foreign, truncated and corrupt buffers with a code', () => {
    const cases: [Uint8Array, string][] = [
      [new TextEncoder().encode('User-agent: *'), 'ERR_FORMAT'],
      [bytes.subarray(0, bytes.length - 1), 'ERR_FORMAT'],
      [new Uint8Array(0), 'ERR_FORMAT'],
    ]
    const flipped = bytes.slice()
    flipped[bytes.length - 3] ^= 0x20
    cases.push([flipped, 'ERR_FORMAT'])
    const future = bytes.slice()
    future[4] = 99
    cases.push([future, 'ERR_VERSION'])
    for (const [buf, code] of cases) {
      let err: unknown
      try {
        Robots.fromBytes(buf)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(RobotsFormatError)
      expect((err as RobotsFormatError).code).toBe(code)
    }
  })
  it('keeps crawl-delay through a round trip', () => {
    expect(Robots.fromBytes(bytes).crawlDelay('x')).toBe(3)
  })

  it('rejects a buffer whose checksum is right but whose contents are foreign (crafted values, bad events)', () => {
    const layout = formLayout(bytes)
    const extensions = layout.extensionsStart
    expect(bytes[extensions]).toBe(0) // the crawl-delay entry's kind
    // The crawl-delay entry relabelled as a visit-time (kind 2), whose value "3" does not read.
    const relabelled = bytes.slice()
    relabelled[extensions] = 2
    // The pattern /x made to hold a byte no escaped pattern holds.
    const raw = bytes.slice()
    raw[layout.patternsStart + 1] = 0xe9
    // The event count inflated.
    const counted = bytes.slice()
    // (the count is the header's second varint, after the length, and fits one byte here)
    let p = Header.Fields
    while (counted[p] >= 0x80) p++
    expect(counted[p + 1]).toBe(layout.eventCount)
    counted[p + 1] += 1
    const codes: string[] = []
    for (const buf of [relabelled, raw, counted]) {
      sealForm(buf)
      try {
        Robots.fromBytes(buf)
        codes.push('loaded')
      } catch (e) {
        codes.push((e as RobotsFormatError).code)
      }
    }
    expect(codes).toEqual(['ERR_FORMAT', 'ERR_FORMAT', 'ERR_FORMAT'])
  })
})
