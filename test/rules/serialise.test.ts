/** toBytes / fromBytes: every corpus file (the bundled sample, and ../shared's when present) round-trips and answers identically. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsFormatError } from '../../src/index.js'
import { describePaired, SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { SHARED } from '../support/shared-data.js'
import { FormFlag, formLayout, FORMAT_VERSION, Header } from '../../src/rules/compact-rules.js'
import { headerFieldsOf } from '../support/form-fuzz.js'
import { ByteBuffer } from '../../src/rules/byte-buffer.js'
import { DIAG_INDEX } from '../../src/rules/diagnostics.js'
import { MAX_SHARED } from '../../src/rules/sitemap-list.js'
import { fnv1a, sealForm } from '../../src/rules/serialise.js'

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
      // One expect a file (the first difference named), not three a rule.
      const differs = (what: string, got: unknown, want: unknown): string | undefined => (Object.is(got, want) ? undefined : `${what}: ${String(got)} against ${String(want)}`)
      const a = robots.rulesFor('Googlebot')
      const b = back.rulesFor('Googlebot')
      const wrong =
        // Same bytes again: the compact rules (patterns, events, names, extensions) are identical.
        differs('bytes again (compare)', Buffer.compare(back.toBytes(), bytes), 0) ??
        differs('sitemaps', JSON.stringify(back.sitemaps), JSON.stringify(robots.sitemaps)) ??
        differs('diagnostics', back.diagnostics.length, robots.diagnostics.length) ??
        differs('truncated', back.truncated, robots.truncated) ??
        differs('bytesRead', back.bytesRead, robots.bytesRead) ??
        differs('rules', b.count, a.count) ??
        Array.from({ length: a.count }, (_, r) =>
          differs(`rule ${r} pattern (compare)`, Buffer.compare(b.pattern(r), a.pattern(r)), 0) ?? differs(`rule ${r} line`, b.line(r), a.line(r)) ?? differs(`rule ${r} flags`, b.flags(r), a.flags(r)),
        ).find((d) => d !== undefined)
      expect(wrong, file).toBeUndefined()
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
  it('diagnosticTotals past the 1,000-diagnostic cap are a parse\'s: a loaded form counts the listed ones and says more were found (docs/api-reports.md)', () => {
    const body = 'User-agent: *\n' + 'Foo: bar\n'.repeat(3000) + 'Disallow: x\n'.repeat(500)
    const parsed = parseRobots(body)
    expect(parsed.diagnosticTotals).toEqual({ error: 500, warning: 3000, info: 0 })
    const loaded = Robots.fromBytes(parsed.toBytes())
    expect(loaded.diagnostics).toEqual(parsed.diagnostics)
    expect(loaded.diagnostics.at(-1)?.code).toBe('too-many-diagnostics')
    expect(loaded.diagnosticTotals).toEqual({ error: 0, warning: 1000, info: 0 })
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

/** A version 4 form rebuilt with its varint header fields replaced by `fields` (length first) over the same sections, sealed. */
function withFields(form: Uint8Array, fields: number[], flags = form[Header.Flags]): Uint8Array {
  const head = new ByteBuffer(64)
  for (const v of fields) head.varint(v)
  const body = form.subarray(form[Header.HeaderBytes])
  const out = new Uint8Array(Header.Fields + head.length + body.length)
  out.set(form.subarray(0, Header.Fields))
  out.set(head.bytes.subarray(0, head.length), Header.Fields)
  out.set(body, Header.Fields + head.length)
  out[Header.HeaderBytes] = Header.Fields + head.length
  out[Header.Flags] = flags
  sealForm(out)
  return out
}

/** The sections of a form of this version, rebuilt with `section` (3: sitemaps, 4: diagnostics) replaced by `bytes`. */
function withSection(form: Uint8Array, section: 3 | 4, bytes: number[]): Uint8Array {
  const l = formLayout(form)
  const fields = headerFieldsOf(form).fields
  const from = section === 3 ? l.sitemapsStart : l.diagnosticsStart
  const to = section === 3 ? l.diagnosticsStart : l.length
  const body = [...form.subarray(form[Header.HeaderBytes], from), ...bytes, ...form.subarray(to)]
  const next = new Uint8Array(form[Header.HeaderBytes] + body.length)
  next.set(form.subarray(0, form[Header.HeaderBytes]))
  next.set(body, form[Header.HeaderBytes])
  if (section === 3) fields[fields.length - 3] = bytes.length // the sitemaps' length comes before bytes read and lines
  fields[0] = 0
  let out = withFields(next, fields)
  for (let k = 0; k < 3; k++) out = withFields(next, [out.length, ...fields.slice(1)])
  return out
}

describe('format version 4: the header, front-coded sitemaps, diagnostics', () => {
  const codeOf = (f: () => unknown): string => {
    try {
      f()
      return 'loaded'
    } catch (e) {
      if (!(e instanceof RobotsFormatError)) throw e
      return e.code
    }
  }

  it('writes only the header fields a file needs: an empty names, extensions or sitemaps section has no field', () => {
    const bare = parseRobots('User-agent: *\nDisallow: /x\n').toBytes()
    expect(bare[Header.Version]).toBe(FORMAT_VERSION)
    expect(bare[Header.Flags]).toBe(0)
    expect(headerFieldsOf(bare).fields).toHaveLength(6) // length, events, patterns' bytes, events' bytes, bytes read, lines
    expect(bare[Header.HeaderBytes]).toBe(Header.Fields + 6)
    const full = parseRobots('User-agent: a\nDisallow: /x\nCrawl-delay: 2\nSitemap: https://e.com/s\n').toBytes()
    expect(full[Header.Flags]).toBe(FormFlag.HasNames | FormFlag.HasExtensions | FormFlag.HasSitemaps)
    expect(headerFieldsOf(full).fields).toHaveLength(9)
    // A section the flags name must not be empty; an unknown flag is refused.
    const names = headerFieldsOf(full).fields
    expect(codeOf(() => Robots.fromBytes(withFields(full, names, full[Header.Flags] | 16)))).toBe('ERR_FORMAT')
    expect(codeOf(() => Robots.fromBytes(withFields(bare, [...headerFieldsOf(bare).fields.slice(0, 4), 0, ...headerFieldsOf(bare).fields.slice(4)], FormFlag.HasSitemaps)))).toBe('ERR_FORMAT')
    // A header size that disagrees with its fields.
    const off = full.slice()
    off[Header.HeaderBytes]++
    sealForm(off)
    expect(codeOf(() => Robots.fromBytes(off))).toBe('ERR_FORMAT')
  })

  it('front-codes sitemaps (the first against "https://www."), shares of at most 127 bytes, any bytes as served', () => {
    const long = `https://www.example.com/${'d/'.repeat(100)}`
    const maps = ['https://www.example.com/a.xml', 'https://www.example.com/b.xml', 'http://other.example/é.xml', `${long}1.xml`, `${long}2.xml`, 'https://www.example.com/a.xml']
    const r = parseRobots(maps.map((m) => `Sitemap: ${m}`).join('\n'))
    expect(r.sitemaps).toEqual(maps)
    const bytes = r.toBytes()
    const back = Robots.fromBytes(bytes)
    expect(back.sitemaps).toEqual(maps)
    const l = formLayout(bytes)
    // Each: the share (one byte), the rest's length and the rest, the share being all the bytes in common up to 127.
    let previous = Buffer.from('https://www.')
    let size = 0
    for (const m of maps) {
      const b = Buffer.from(m)
      let k = 0
      while (k < 127 && k < b.length && k < previous.length && b[k] === previous[k]) k++
      size += 1 + (b.length - k < 128 ? 1 : 2) + b.length - k
      previous = b
    }
    expect(l.diagnosticsStart - l.sitemapsStart).toBe(size)
    expect(size).toBeLessThan(maps.reduce((n, m) => n + Buffer.byteLength(m) + 1, 0) * 0.75)
    // The first sitemap shares "https://www." (12 bytes) with the seed.
    expect(bytes[l.sitemapsStart]).toBe(12)
    expect(MAX_SHARED).toBe(127)
  })

  it('refuses a sitemap that shares more than the previous one has, or less than it could', () => {
    const r = parseRobots('Sitemap: https://e.com/a\nSitemap: https://e.com/b\n').toBytes()
    const enc = (s: string): number[] => [...Buffer.from(s)]
    // The first shares "https://" with the seed (8 bytes), then a length and the rest; the second shares 14 bytes with the first.
    const l = formLayout(r)
    expect([...r.subarray(l.sitemapsStart, l.diagnosticsStart)]).toEqual([8, 7, ...enc('e.com/a'), 14, 1, ...enc('b')])
    const ok = withSection(r, 3, [8, 7, ...enc('e.com/a'), 14, 1, ...enc('b')])
    expect(Buffer.compare(ok, r)).toBe(0)
    expect(codeOf(() => Robots.fromBytes(withSection(r, 3, [8, 7, ...enc('e.com/a'), 16, 1, ...enc('b')])))).toBe('ERR_FORMAT') // past the previous
    expect(codeOf(() => Robots.fromBytes(withSection(r, 3, [8, 7, ...enc('e.com/a'), 13, 2, ...enc('/b')])))).toBe('ERR_FORMAT') // shares less than it could
    expect(codeOf(() => Robots.fromBytes(withSection(r, 3, [7, 8, ...enc('/e.com/a')])))).toBe('ERR_FORMAT') // the seed's "/" too
    expect(codeOf(() => Robots.fromBytes(withSection(r, 3, [8, 7, ...enc('e.com/a'), 0x80, 0x01, 1, ...enc('b')])))).toBe('ERR_FORMAT') // a share past 127
  })

  it('stores diagnostic lines as steps, and pattern-start quotes the pattern of the rule on its line', () => {
    const body = 'User-agent: *\nDisallow: x/1\nfoo: bar\nAllow: y/2\nDisallow: /ok\n'
    const r = parseRobots(body)
    const want = r.diagnostics
    expect(want.filter((d) => d.code === 'pattern-start').map((d) => [d.line, d.message.endsWith('"x/1"') || d.message.endsWith('"y/2"')])).toEqual([[2, true], [4, true]])
    const bytes = r.toBytes()
    expect(Robots.fromBytes(bytes).diagnostics).toEqual(want)
    // pattern-start holds no bytes of its own: each diagnostic is two varints (code, line step), bar unknown-directive's quote.
    const l = formLayout(bytes)
    expect(l.length - l.diagnosticsStart).toBe(2 + (2 + 1 + 3) + 2)
    // Crafted: a pattern-start on a line with no rule, or on the line of a rule that starts with "/".
    const section = [...bytes.subarray(l.diagnosticsStart, l.length)]
    const diag = (code: string): number => DIAG_INDEX[code as keyof typeof DIAG_INDEX] * 2
    expect(codeOf(() => Robots.fromBytes(withSection(bytes, 4, [diag('pattern-start'), 2])))).toBe('loaded')
    expect(codeOf(() => Robots.fromBytes(withSection(bytes, 4, [diag('pattern-start'), 3])))).toBe('ERR_FORMAT')
    expect(codeOf(() => Robots.fromBytes(withSection(bytes, 4, [diag('pattern-start'), 5])))).toBe('ERR_FORMAT')
    expect(codeOf(() => Robots.fromBytes(withSection(bytes, 4, [diag('pattern-start'), 2, diag('pattern-start'), 0])))).toBe('ERR_FORMAT')
    expect(codeOf(() => Robots.fromBytes(withSection(bytes, 4, [diag('pattern-start') + 1, 2, 3, ...Buffer.from('x/1')])))).toBe('ERR_FORMAT')
    expect(Buffer.compare(withSection(bytes, 4, section), bytes)).toBe(0)
  })
})

/** The checksum as its doc comment defines it, one byte at a time and in exact integers: FNV-1a over little-endian words, the last one zero-padded, the word at `skip` read as 0. */
function checksumReference(bytes: Uint8Array, start: number, end: number, skip: number): number {
  let h = 0x811c9dc5n
  for (let i = start; i < end; i += 4) {
    let w = 0n
    for (let k = 0; k < 4; k++) {
      const at = i + k
      const zero = at >= end || (skip >= 0 && at >= skip && at < skip + 4)
      w |= BigInt(zero ? 0 : bytes[at]) << BigInt(8 * k)
    }
    h = ((h ^ w) * 0x01000193n) & 0xffffffffn
  }
  return Number(h)
}

describe('the checksum (fnv1a)', () => {
  const bytes = new Uint8Array(64 + 8)
  let seed = 0x9e3779b9
  for (let i = 0; i < bytes.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    bytes[i] = seed >>> 24
  }

  it('of nothing is the FNV offset basis', () => {
    expect(fnv1a(bytes, 5, 5)).toBe(0x811c9dc5)
  })

  it('equals the reference at every length 0..64, every start 0..7, with no skip and a skip at every whole word', () => {
    let checked = 0
    // Lengths in rising order from each start: a whole-word length first, then tails of every size (a regression: the tail after an optimised word loop).
    for (let start = 0; start < 8; start++) {
      for (let length = 0; length <= 64; length++) {
        const end = start + length
        expect(fnv1a(bytes, start, end)).toBe(checksumReference(bytes, start, end, -1))
        for (let skip = start; skip + 4 <= end; skip += 4) {
          expect(fnv1a(bytes, start, end, skip)).toBe(checksumReference(bytes, start, end, skip))
          checked++
        }
        checked++
      }
    }
    // Per start: 65 lengths, and a skip at each of their 496 whole words in all.
    expect(checked).toBe(8 * (65 + 496))
  })
})
