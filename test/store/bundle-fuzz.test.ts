/**
 * Structured fuzzing of `RobotsStore.fromBytes` (the bundle format,
 * store/bundle.ts), as for `Robots.fromBytes` (issue 13, item 1): a real
 * bundle is mutated (its header, entry records, keys, and the header fields
 * and varints of the forms inside it), checksums recomputed, and loaded
 * eagerly and lazily. Each load, and with `lazy` each first use of an
 * entry, must either throw a coded RobotsFormatError or give entries that a
 * parse could have made, answering as their own rules say.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RobotsFormatError, RobotsStore } from '../../src/index.js'
import { readU32, writeU32 } from '../../src/rules/byte-buffer.js'
import { sealForm } from '../../src/rules/serialise.js'
import { BUNDLE_RECORD, BUNDLE_VERSION, BundleHeader, bundleChecksum } from '../../src/store/bundle-codec.js'
import { SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { expectParseable, mutateForm, probeUrls, prng } from '../support/form-fuzz.js'

/** Where each entry's key and form lie in a bundle. */
interface Layout {
  start: number
  records: { rec: number; key: number; keyLength: number; form: number; formLength: number; info: number; infoLength: number }[]
}

function layoutOf(b: Uint8Array): Layout {
  const n = readU32(b, BundleHeader.Entries)
  const start = readU32(b, BundleHeader.DataStart)
  const records: Layout['records'] = []
  let at = start
  for (let i = 0; i < n; i++) {
    const rec = BundleHeader.Size + i * BUNDLE_RECORD
    const keyLength = readU32(b, rec)
    const formLength = readU32(b, rec + 4)
    const infoLength = readU32(b, rec + 12)
    records.push({ rec, key: at, keyLength, form: at + keyLength, formLength, info: at + keyLength + formLength, infoLength })
    at += keyLength + formLength + infoLength
  }
  return { start, records }
}

function seal(b: Uint8Array): void {
  if (b.length < BundleHeader.Size) return
  const start = readU32(b, BundleHeader.DataStart)
  if (start <= b.length) writeU32(b, BundleHeader.Checksum, bundleChecksum(b))
}

const FIELDS = [BundleHeader.Entries, BundleHeader.FormVersion, BundleHeader.DataStart, BundleHeader.DataLength, BundleHeader.DataLength + 4]

/** One structured mutation of a bundle (checksums recomputed). */
function mutateBundle(b: Uint8Array, rand: () => number): Uint8Array {
  const { records } = layoutOf(b)
  const r = rand()
  const some = (): Layout['records'][number] => records[Math.floor(rand() * records.length)]
  const near = (v: number): number => [0, 1, v + 1, Math.max(0, v - 1), v + 2 ** 31, 2 ** 32 - 1, 2 ** 31, Math.floor(rand() * 4096)][Math.floor(rand() * 8)] >>> 0
  let m = b.slice()
  if (r < 0.15) {
    if (rand() < 0.2) m[rand() < 0.5 ? BundleHeader.Version : BundleHeader.Flags] = Math.floor(rand() * 3)
    else {
      const f = FIELDS[Math.floor(rand() * FIELDS.length)]
      writeU32(m, f, near(readU32(m, f)))
    }
  } else if (r < 0.35) {
    const e = some()
    const f = e.rec + 4 * Math.floor(rand() * 4)
    writeU32(m, f, near(readU32(m, f)))
  } else if (r < 0.4) {
    // A byte of a fetch-info record (outcome, flags, status, times, validator lengths or bytes).
    const e = records.filter((x) => x.infoLength > 0)[Math.floor(rand() * records.filter((x) => x.infoLength > 0).length)]
    const at = e.info + (rand() < 0.7 ? Math.floor(rand() * 32) : Math.floor(rand() * e.infoLength))
    m[at] = [0, 1, 3, 4, 0x0a, 0x20, 0x7f, 0xff, m[at] + 1][Math.floor(rand() * 9)] & 0xff
  } else if (r < 0.45) {
    const e = some()
    const at = e.key + Math.floor(rand() * e.keyLength)
    const choice = rand()
    if (choice < 0.4) m[at] = [0x41, 0x20, 0x7f, 0x80, 0x00][Math.floor(rand() * 5)]
    else if (choice < 0.7) {
      // Another entry's key copied over this one (same length only): a duplicate key.
      const other = records.find((x) => x !== e && x.keyLength === e.keyLength)
      if (other) m.set(b.subarray(other.key, other.key + other.keyLength), e.key)
    } else m[at] = 0x61 + Math.floor(rand() * 26)
  } else {
    const e = records.filter((x) => x.formLength > 0)[Math.floor(rand() * records.filter((x) => x.formLength > 0).length)]
    const form = b.subarray(e.form, e.form + e.formLength)
    const mf = mutateForm(form, rand)
    if (mf.length >= 56) sealForm(mf)
    const out = new Uint8Array(b.length - form.length + mf.length)
    out.set(b.subarray(0, e.form))
    out.set(mf, e.form)
    out.set(b.subarray(e.form + e.formLength), e.form + mf.length)
    if (rand() < 0.8) {
      // The record and the data length follow the form's new size.
      writeU32(out, e.rec + 4, mf.length)
      writeU32(out, BundleHeader.DataLength, out.length - readU32(out, BundleHeader.DataStart))
    }
    m = out
  }
  seal(m)
  return m
}

function coded(e: unknown): void {
  if (!(e instanceof RobotsFormatError)) throw new Error(`an uncoded error from a mutated bundle: ${String(e)}`)
  expect(['ERR_FORMAT', 'ERR_VERSION']).toContain(e.code)
}

/**
 * Every entry of a loaded store: parseable rules, answering as its own rules
 * say (checked in depth for entries whose form differs from the original's
 * in `orig`); coded errors allowed when lazy.
 */
function checkStore(t: RobotsStore, lazy: boolean, orig: Map<string, Buffer>): number {
  let errors = 0
  for (const key of t.keys()) {
    // Fetch info is checked whole at load, lazy or not: it decodes to a record in range.
    const info = t.fetchInfo(key)
    if (info !== undefined) {
      expect(['ok', 'unavailable', 'unreachable', 'not-modified', 'refused']).toContain(info.outcome)
      for (const time of [info.fetchedAt, info.expiresAt, info.reachableAt]) expect(Number.isSafeInteger(time)).toBe(true)
    }
    let robots
    try {
      robots = t.get(key)
    } catch (e) {
      if (!lazy) throw e
      coded(e)
      errors++
      continue
    }
    const url = key.includes('://') ? key : `https://${key}`
    if (robots === undefined) {
      expect(['unavailable', 'unreachable']).toContain(t.source(key))
      expect(t.isAllowed(`${url}/x`, 'bot')).toBe(t.source(key) === 'unavailable')
      continue
    }
    const bytes = robots.toBytes()
    if (orig.get(key)?.equals(bytes)) continue
    const urls = probeUrls(robots)
    expectParseable(robots, bytes, urls)
    for (const u of urls.slice(0, 4)) expect(t.explain(url + u, 'bot').allowed).toBe(robots.agent('bot').isAllowed(u))
  }
  return errors
}

describe('RobotsStore.fromBytes fuzz (regression: untrusted lengths, as for Robots.fromBytes)', () => {
  it('4,000 structured mutations of a real bundle, loaded eagerly and lazily: coded errors or parseable entries', () => {
    const store = new RobotsStore()
    for (const f of sampleFiles()) store.set(f.slice('robots/'.length), readFileSync(join(SAMPLE, f)))
    store.setOutcome('https://down.example', 'unreachable', { outcome: 'unreachable', status: 503, fetchedAt: 2e12, expiresAt: 2e12 + 6e5, reachableAt: 2e12 })
    store.setOutcome('gone.example', 'unavailable', { outcome: 'unavailable', status: 404, fetchedAt: 2e12, expiresAt: 2e12 + 864e5, reachableAt: 2e12, etag: '"x"' })
    for (const key of [...store.keys()].slice(0, 8)) {
      const r = store.get(key)
      if (r) store.setRobots(key, r, { outcome: 'ok', status: 200, fetchedAt: 2e12, expiresAt: 2e12 + 864e5, reachableAt: 2e12, etag: 'W/"1"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' })
    }
    const bundle = store.toBytes()
    const orig = new Map<string, Buffer>()
    for (const key of store.keys()) {
      const r = store.get(key)
      if (r) orig.set(key, Buffer.from(r.toBytes()))
    }
    const rand = prng(23)
    let loaded = 0
    let rejected = 0
    let lazyErrors = 0
    for (let i = 0; i < 4000; i++) {
      const m = mutateBundle(bundle, rand)
      const lazy = i % 2 === 1
      let t: RobotsStore
      try {
        t = RobotsStore.fromBytes(m, { lazy })
      } catch (e) {
        coded(e)
        rejected++
        continue
      }
      loaded++
      lazyErrors += checkStore(t, lazy, orig)
    }
    expect(loaded + rejected).toBe(4000)
    expect(loaded).toBeGreaterThan(200)
    expect(rejected).toBeGreaterThan(1500)
    expect(lazyErrors).toBeGreaterThan(50)
  }, 300_000)

  it('a small bundle cut at every offset, or with any one bit of it flipped, is a coded error, eager and lazy (never loaded as other entries)', () => {
    const s = new RobotsStore()
    s.set('a.example', 'User-agent: *\nDisallow: /a*b$\nAllow: /a/index.html\nCrawl-delay: 5\nSitemap: https://a.example/s.xml\n', { outcome: 'ok', status: 200, fetchedAt: 2e12, expiresAt: 2e12 + 1, reachableAt: 2e12, etag: '"e"' })
    s.setOutcome('https://b.example:8443', 'unreachable')
    s.set('c.example', 'User-agent: x\nAllow: /\n')
    const b = s.toBytes()
    const load = (m: Uint8Array, lazy: boolean, what: string): void => {
      try {
        RobotsStore.fromBytes(m, { lazy })
      } catch (e) {
        coded(e)
        return
      }
      throw new Error(`${what} loaded`)
    }
    for (const lazy of [false, true]) {
      for (let i = 0; i < b.length; i++) load(b.subarray(0, i), lazy, `cut at ${i}`)
      for (let i = 0; i < b.length; i++) {
        for (let bit = 0; bit < 8; bit++) {
          const m = b.slice()
          m[i] ^= 1 << bit
          load(m, lazy, `byte ${i} bit ${bit}`)
        }
      }
    }
  })

  it('lengths that wrap in 32-bit arithmetic are rejected before anything is allocated', () => {
    const s = new RobotsStore()
    s.set('a.example', 'User-agent: *\nDisallow: /x\n')
    const b = s.toBytes()
    for (const [field, v] of [
      [BundleHeader.Entries, 2 ** 31],
      [BundleHeader.Entries, 0x15555555], // 32 + 12 N wraps to a small number in 32 bits (format 2's records)
      [BundleHeader.Entries, 0x0fffffff], // 32 + 16 N wraps to 16 in 32 bits
      [BundleHeader.DataStart, 2 ** 32 - 1],
      [BundleHeader.DataLength, 2 ** 32 - 1],
      [BundleHeader.Size + 4, 2 ** 32 - 8],
      [BundleHeader.Size, 2 ** 31],
    ] as const) {
      const m = b.slice()
      writeU32(m, field, v)
      seal(m)
      expect(() => RobotsStore.fromBytes(m)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
    }
    expect(() => RobotsStore.fromBytes(b.subarray(0, b.length - 1))).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
    const other = b.slice()
    other[BundleHeader.Version] = BUNDLE_VERSION + 1
    seal(other)
    expect(() => RobotsStore.fromBytes(other)).toThrow(expect.objectContaining({ code: 'ERR_VERSION' }))
    expect(() => RobotsStore.fromBytes('bundle' as unknown as Uint8Array)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })

  it('regression: a corrupted key byte is a checksum mismatch (version 1 left keys out of the checksum, moving rules to another host unseen)', () => {
    const s = new RobotsStore()
    s.set('a.example', 'User-agent: *\nDisallow: /x\n')
    s.set('b.example', 'User-agent: *\nDisallow: /\n')
    const b = s.toBytes()
    const start = readU32(b, BundleHeader.DataStart)
    for (let k = 0; k < 'a.example'.length; k++) {
      const m = b.slice()
      m[start + k] = m[start + k] === 0x62 ? 0x63 : 0x62
      expect(() => RobotsStore.fromBytes(m), `key byte ${k}`).toThrow(/checksum mismatch/)
      expect(() => RobotsStore.fromBytes(m, { lazy: true }), `key byte ${k}, lazy`).toThrow(/checksum mismatch/)
    }
    expect(bundleChecksum(b)).toBe(readU32(b, BundleHeader.Checksum))
    const v1 = b.slice()
    v1[BundleHeader.Version] = 1
    expect(() => RobotsStore.fromBytes(v1)).toThrow(expect.objectContaining({ code: 'ERR_VERSION' }))
  })
})
