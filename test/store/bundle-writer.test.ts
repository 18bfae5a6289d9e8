/**
 * BundleWriter (a bundle written entry by entry, its checksum from the data
 * read back) writes the bytes `RobotsStore.toBytes()` writes for the same
 * entries in the same order, whatever the chunks the data is read back in,
 * loads back, and refuses what does not fit.
 */
import { describe, expect, it } from 'vitest'
import { BundleWriter, parseRobots, RobotsError, RobotsStore, type BundleEntryKind, type StoreFetchInfo } from '../../src/index.js'

interface Entry {
  key: string
  kind: BundleEntryKind
  form?: Uint8Array
  info?: StoreFetchInfo
}

function written(entries: readonly Entry[], readBack = 7): Uint8Array {
  const w = new BundleWriter(entries.length)
  const data = Buffer.concat(entries.map((e) => w.entry(e.key, e.kind, e.form, e.info)))
  const head = Buffer.from(w.head())
  const sum = w.checksum()
  for (let at = 0; at < data.length; at += readBack) sum.update(data.subarray(at, at + readBack))
  head.set(sum.digest(), sum.offset)
  return Buffer.concat([head, data])
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
    for (const chunk of [1, 3, 64, 1 << 20]) expect(Buffer.from(written(entries, chunk)).equals(bytes), String(chunk)).toBe(true)
    const back = RobotsStore.fromBytes(bytes)
    expect(back.isAllowed('https://a.example/private', 'x')).toBe(false)
    expect(back.fetchInfo('https://d.example')?.outcome).toBe('refused')
    expect(written([]).length).toBe(32)
    expect(RobotsStore.fromBytes(written([])).size).toBe(0)
  })

  it('regression: a count whose entry table cannot be allocated is ERR_RANGE, not the typed array\'s own RangeError', () => {
    let err: unknown
    try {
      new BundleWriter(0xffffffff)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(RobotsError)
    expect((err as RobotsError).code).toBe('ERR_RANGE')
    expect(new BundleWriter(0).headSize).toBeGreaterThan(0)
  })

  it('regression: a form its loader would refuse (a flipped byte, not a form at all) is ERR_FORMAT at entry(), not written into a bundle RobotsStore.fromBytes refuses whole', () => {
    const form = parseRobots('User-agent: *\nDisallow: /x\n').toBytes()
    const flipped = form.slice()
    flipped[flipped.length - 1] ^= 1
    for (const bad of [flipped, new Uint8Array(64), form.subarray(0, form.length - 1)]) {
      let err: unknown
      try {
        new BundleWriter(1).entry('a.example', 'robots', bad, undefined)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(RobotsError)
      expect((err as RobotsError).code).toBe('ERR_FORMAT')
      expect((err as Error).message).toMatch(/^BundleWriter: the form of a\.example: /)
    }
    let err: unknown
    try {
      new BundleWriter(1).entry('a.example', 'robots', 'User-agent: *' as unknown as Uint8Array, undefined)
    } catch (e) {
      err = e
    }
    expect((err as RobotsError).code).toBe('ERR_INPUT')
    expect(new BundleWriter(1).entry('a.example', 'robots', form, undefined).length).toBe('a.example'.length + form.length)
  })

  it('refuses a key not in the store’s form, a form that does not fit its kind, more entries than counted, data that does not match', () => {
    expect(() => new BundleWriter(1).entry('HTTPS://A.example', 'unreachable', undefined, undefined)).toThrow(/not in the store's form/)
    expect(() => new BundleWriter(1).entry('a.example', 'robots', undefined, undefined)).toThrow(/does not fit/)
    const w = new BundleWriter(1)
    w.entry('a.example', 'unreachable', undefined, undefined)
    expect(() => w.entry('b.example', 'unreachable', undefined, undefined)).toThrow(/more than 1/)
    const sum = w.checksum()
    expect(() => sum.digest()).toThrow(/0 data bytes read back of 9/)
    expect(() => new BundleWriter(2).head()).toThrow(/0 entries given of 2/)
  })
})

describe('RobotsStore.bundleSize', () => {
  it('gives the size a bundle announces once its header is read, the header size before, and undefined for what is no bundle', () => {
    const store = new RobotsStore()
    store.set('https://a.test', 'User-agent: *\nDisallow: /private\n')
    store.setOutcome('https://b.test', 'unreachable')
    const bytes = store.toBytes()
    for (let k = 0; k <= bytes.length; k++) expect(RobotsStore.bundleSize(bytes.subarray(0, k))).toBe(k < 32 ? 32 : bytes.length)
    // What follows the bundle is not its size's business: a reader refuses it.
    expect(RobotsStore.bundleSize(Buffer.concat([bytes, Buffer.from('trailing')]))).toBe(bytes.length)
    const big = Buffer.from(bytes.subarray(0, 32))
    big.writeUInt32LE(3, 28)
    expect(RobotsStore.bundleSize(big)).toBe(3 * 2 ** 32 + bytes.length)
    for (const no of ['{"key":"a.test"}', 'RATX', 'X', 'ratb']) expect(RobotsStore.bundleSize(Buffer.from(no))).toBeUndefined()
    expect(RobotsStore.bundleSize(Buffer.from('RA'))).toBe(32)
  })

  it('refuses what is no Uint8Array with ERR_INPUT', () => {
    for (const bad of ['RATB', null, undefined, [0x52, 0x41, 0x54, 0x42], 32]) {
      let caught: unknown
      try {
        RobotsStore.bundleSize(bad as unknown as Uint8Array)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(RobotsError)
      expect((caught as RobotsError).code).toBe('ERR_INPUT')
    }
  })
})
