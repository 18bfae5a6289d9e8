/**
 * BundleWriter (a bundle written entry by entry, three passes) writes the
 * bytes `RobotsStore.toBytes()` writes for the same entries in the same
 * order, loads back, and refuses entries that differ between its passes.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, RobotsStore, type StoreFetchInfo } from '../../src/index.js'
import { BundleWriter, type BundleEntryKind } from '../../src/internals.js'

interface Entry {
  key: string
  kind: BundleEntryKind
  form?: Uint8Array
  info?: StoreFetchInfo
}

function written(entries: readonly Entry[]): Uint8Array {
  const w = new BundleWriter(entries.length)
  for (const e of entries) w.measure(e.key, e.kind, e.form?.length ?? 0, e.info)
  for (const e of entries) w.hash(e.key, e.info)
  const parts = [w.head(), ...entries.map((e) => w.entry(e.key, e.form, e.info))]
  return Buffer.concat(parts)
}

describe('BundleWriter', () => {
  it('writes what RobotsStore.toBytes() writes, for every kind, with and without fetch info', () => {
    const t = Date.UTC(2026, 10, 1)
    const robots = parseRobots('User-agent: *\nDisallow: /private\n# x\n')
    const entries: Entry[] = [
      { key: 'https://a.example', kind: 'robots', form: robots.toBytes(), info: { outcome: 'ok', status: 200, fetchedAt: t, expiresAt: t + 1000, reachableAt: t, etag: '"e"' } },
      { key: 'b.example', kind: 'unavailable', info: { outcome: 'unavailable', status: 404, fetchedAt: t, expiresAt: t + 5, reachableAt: t, origin: 'http://b.example' } },
      { key: 'http://c.example:8080', kind: 'unreachable' },
      { key: 'https://d.example', kind: 'unreachable', info: { outcome: 'refused', fetchedAt: t, expiresAt: t, reachableAt: t } },
      { key: 'e.example', kind: 'robots', form: parseRobots('').toBytes() },
    ]
    const store = new RobotsStore()
    for (const e of entries) {
      if (e.kind === 'robots') store.setRobots(e.key, parseRobots('User-agent: *\nDisallow: /private\n# x\n'), e.info)
      else store.setOutcome(e.key, e.kind, e.info)
    }
    // e.example's form is that of an empty file.
    store.setRobots('e.example', parseRobots(''))
    const bytes = written(entries)
    expect(Buffer.from(bytes).equals(Buffer.from(store.toBytes()))).toBe(true)
    const back = RobotsStore.fromBytes(bytes)
    expect(back.isAllowed('https://a.example/private', 'x')).toBe(false)
    expect(back.fetchInfo('https://d.example')?.outcome).toBe('refused')
    expect(written([]).length).toBe(32)
    expect(RobotsStore.fromBytes(written([])).size).toBe(0)
  })

  it('refuses a key not in the store’s form, a form that does not fit its kind, and entries that differ between passes', () => {
    expect(() => new BundleWriter(1).measure('HTTPS://A.example', 'unreachable', 0, undefined)).toThrow(/not in the store's form/)
    expect(() => new BundleWriter(1).measure('a.example', 'robots', 0, undefined)).toThrow(/does not fit/)
    const w = new BundleWriter(1)
    w.measure('a.example', 'unreachable', 0, undefined)
    expect(() => w.hash('ab.example', undefined)).toThrow(/not the one measured/)
  })
})
