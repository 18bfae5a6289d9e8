/**
 * RobotsStore's fetch info (store/fetch-info.ts): kept per entry through
 * every setter, dropped by a setter without it, carried through compaction
 * and bundles (format 3); bundles of format 2 (before fetch info) still
 * load; a record in an untrusted bundle is checked, every byte of it
 * covered by the checksum.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, RobotsStore, type StoreFetchInfo } from '../../src/index.js'
import { readU32, writeU32 } from '../../src/rules/byte-buffer.js'
import { BUNDLE_RECORD, BUNDLE_VERSION, BundleHeader, bundleChecksum } from '../../src/store/bundle-codec.js'
import { FetchInfoField } from '../../src/store/fetch-info.js'

const BODY = 'User-agent: *\nDisallow: /private\n'
const INFO: StoreFetchInfo = {
  outcome: 'ok',
  status: 200,
  fetchedAt: 1_764_000_000_000,
  expiresAt: 1_764_086_400_000,
  reachableAt: 1_764_000_000_000,
  etag: 'W/"abc-1"',
  lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT',
  origin: 'http://a.example:8080',
}

/**
 * A bundle of format version 2, written by `robots-automaton pack` at main
 * 66a8c5f (before fetch info) from four JSON lines: `https://a.example`
 * (`User-agent: *` / `Disallow: /private`), `b.example` (Googlebot
 * disallowed, others allowed), `http://c.example:8080` unreachable,
 * `d.example` unavailable.
 */
const V2_BUNDLE =
  'UkFUQgIAAAA5sZF/BAAAAAIAAABQAAAAxgAAAAAAAAARAAAAQwAAAAAAAAAJAAAASwAAAAAAAAAVAAAAAAAAAAIAAAAJAAAAAAAAAAEAAABodHRwczovL2EuZXhhbXBsZVJBVFgCAAAAk8/7LkMAAAACAAAAQAAAAEMAAABDAAAAQwAAAEMAAAAhAAAAAAAAAAMAAAAAAAAAL3ByaXZhdGUICwhiLmV4YW1wbGVSQVRYAgAAALTR9vlLAAAABAAAADoAAABBAAAASwAAAEsAAABLAAAAOQAAAAAAAAAFAAAAAAAAAC8vCQALAQgKAQlnb29nbGVib3RodHRwOi8vYy5leGFtcGxlOjgwODBkLmV4YW1wbGU='

describe('RobotsStore: fetch info', () => {
  it('is kept by set, setRobots and setOutcome, and dropped by a setter without it', () => {
    const s = new RobotsStore()
    s.set('https://a.example', BODY, INFO)
    s.setRobots('https://b.example', parseRobots(BODY), { ...INFO, etag: undefined })
    s.setOutcome('c.example', 'unreachable', { outcome: 'unreachable', fetchedAt: 5, expiresAt: 6, reachableAt: 5 })
    s.setOutcome('d.example', 'unavailable')
    expect(s.fetchInfo('https://a.example/x')).toEqual(INFO)
    const { etag: _, ...noEtag } = INFO
    expect(s.fetchInfo('https://b.example')).toEqual(noEtag)
    expect(s.fetchInfo('c.example')).toEqual({ outcome: 'unreachable', fetchedAt: 5, expiresAt: 6, reachableAt: 5 })
    expect(s.fetchInfo('d.example')).toBeUndefined()
    expect(s.fetchInfo('e.example')).toBeUndefined()
    s.set('https://a.example', BODY)
    expect(s.fetchInfo('https://a.example')).toBeUndefined()
    // The answers are the entries' rules, whatever the info.
    expect(s.isAllowed('https://b.example/private', 'bot')).toBe(false)
    expect(s.isAllowed('http://c.example/x', 'bot')).toBe(false)
  })

  it('survives compaction and a bundle round trip (format 3), eager and lazy', () => {
    const s = new RobotsStore()
    for (let i = 0; i < 2000; i++) s.set(`https://h${i}.example`, BODY.repeat(40), { ...INFO, fetchedAt: INFO.fetchedAt + i })
    for (let i = 0; i < 1500; i++) s.delete(`https://h${i}.example`)
    s.compact()
    expect(s.stats().garbageBytes).toBe(0)
    s.setOutcome('x.example', 'unavailable', { outcome: 'unavailable', status: 404, fetchedAt: 1, expiresAt: 2, reachableAt: 1 })
    expect(s.fetchInfo('https://h1999.example')?.fetchedAt).toBe(INFO.fetchedAt + 1999)
    const bytes = s.toBytes()
    expect(bytes[BundleHeader.Version]).toBe(BUNDLE_VERSION)
    for (const lazy of [false, true]) {
      const t = RobotsStore.fromBytes(bytes, { lazy })
      expect(t.size).toBe(501)
      for (let i = 1500; i < 2000; i++) expect(t.fetchInfo(`https://h${i}.example`)).toEqual({ ...INFO, fetchedAt: INFO.fetchedAt + i })
      expect(t.fetchInfo('x.example')).toEqual({ outcome: 'unavailable', status: 404, fetchedAt: 1, expiresAt: 2, reachableAt: 1 })
      expect(t.isAllowed('https://h1600.example/private', 'bot')).toBe(false)
      expect(t.toBytes()).toEqual(bytes)
    }
  })

  it('bad info is ERR_INPUT and changes nothing', () => {
    const s = new RobotsStore()
    s.set('https://a.example', BODY, INFO)
    const bad: unknown[] = [
      null,
      { ...INFO, outcome: 'fine' },
      { ...INFO, status: 42 },
      { ...INFO, status: 200.5 },
      { ...INFO, fetchedAt: -1 },
      { ...INFO, expiresAt: Infinity },
      { ...INFO, reachableAt: undefined },
      { ...INFO, etag: 'a\nb' },
      { ...INFO, etag: '' },
      { ...INFO, lastModified: 'é' },
      { ...INFO, etag: 'x'.repeat(1025) },
      { ...INFO, origin: 'http://a b' .replace(' ', '\u0000') },
    ]
    for (const info of bad) {
      expect(() => s.set('https://a.example', 'User-agent: *\nDisallow: /\n', info as StoreFetchInfo), JSON.stringify(info)).toThrow(
        expect.objectContaining({ code: 'ERR_INPUT' }),
      )
    }
    expect(s.fetchInfo('https://a.example')).toEqual(INFO)
    expect(s.isAllowed('https://a.example/x', 'bot')).toBe(true)
  })

  it('reads a bundle of format 2 (no fetch info), and writes it again as format 3', () => {
    const v2 = Uint8Array.from(Buffer.from(V2_BUNDLE, 'base64'))
    expect(v2[BundleHeader.Version]).toBe(2)
    const s = RobotsStore.fromBytes(v2)
    expect([...s.keys()].sort()).toEqual(['b.example', 'd.example', 'http://c.example:8080', 'https://a.example'])
    expect(s.isAllowed('https://a.example/private', 'bot')).toBe(false)
    expect(s.isAllowed('https://b.example/x', 'Googlebot')).toBe(false)
    expect(s.isAllowed('https://b.example/x', 'bot')).toBe(true)
    expect(s.source('http://c.example:8080')).toBe('unreachable')
    expect(s.source('d.example')).toBe('unavailable')
    for (const k of s.keys()) expect(s.fetchInfo(k)).toBeUndefined()
    const v3 = s.toBytes()
    expect(v3[BundleHeader.Version]).toBe(3)
    const t = RobotsStore.fromBytes(v3)
    expect([...t.keys()].sort()).toEqual([...s.keys()].sort())
  })

  it('a record in a bundle is checked and covered by the checksum', () => {
    const s = new RobotsStore()
    s.set('https://a.example', BODY, INFO)
    const bytes = s.toBytes()
    const start = readU32(bytes, BundleHeader.DataStart)
    const infoAt = start + readU32(bytes, BundleHeader.Size) + readU32(bytes, BundleHeader.Size + 4)
    expect(readU32(bytes, BundleHeader.Size + 12)).toBe(bytes.length - infoAt)
    const mutate = (at: number, value: number): Uint8Array => {
      const b = bytes.slice()
      b[at] = value
      return b
    }
    // Unsealed: the checksum catches any change.
    expect(() => RobotsStore.fromBytes(mutate(bytes.length - 1, 0x41))).toThrow(/checksum mismatch \(corrupt header, entry table, keys or fetch info\)/)
    // Sealed again: each field is checked on its own.
    const sealed = (b: Uint8Array): Uint8Array => {
      writeU32(b, BundleHeader.Checksum, bundleChecksum(b))
      return b
    }
    const cases: Array<[Uint8Array, RegExp]> = [
      [mutate(infoAt + FetchInfoField.Outcome, 9), /unknown fetch outcome 9/],
      [mutate(infoAt + FetchInfoField.Flags, 1), /unknown fetch-info flags/],
      [mutate(infoAt + FetchInfoField.Status + 1, 0x40), /HTTP status \d+ out of range/],
      [mutate(infoAt + FetchInfoField.ExpiresAt + 7, 1), /a fetch time past 2\^53/],
      [mutate(infoAt + FetchInfoField.EtagLength, 200), /fetch-info lengths do not add up/],
      [mutate(infoAt + FetchInfoField.Reserved, 1), /unknown fetch-info flags/],
      [mutate(bytes.length - 1, 0x0a), /a validator or origin holds a byte outside printable ASCII/],
    ]
    for (const [b, message] of cases) {
      expect(() => RobotsStore.fromBytes(sealed(b)), String(message)).toThrow(message)
      expect(() => RobotsStore.fromBytes(sealed(b)), String(message)).toThrow(expect.objectContaining({ code: 'ERR_FORMAT' }))
    }
    // A record length that runs past the data.
    const long = bytes.slice()
    writeU32(long, BundleHeader.Size + 12, 1000)
    expect(() => RobotsStore.fromBytes(sealed(long))).toThrow(/past the end of the data/)
    expect(BUNDLE_RECORD).toBe(16)
  })
})
