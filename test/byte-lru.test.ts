/** ByteLru: recency order, the byte and entry budgets, re-measured sizes, slot reuse, bad options. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteLru } from '../src/byte-lru.js'
import { RobotsError } from '../src/errors.js'

const keysOf = <K, V>(lru: ByteLru<K, V>): K[] => [...lru.entries()].map(([k]) => k)

describe('ByteLru', () => {
  it('evicts the least recently used entries to stay within maxBytes; get refreshes, peek does not', () => {
    const lru = new ByteLru<string, number>({ maxBytes: 30 })
    expect(lru.set('a', 1, 10)).toBe(true)
    expect(lru.set('b', 2, 10)).toBe(true)
    expect(lru.set('c', 3, 10)).toBe(true)
    expect(lru.get('a')).toBe(1) // a is now the newest
    expect(lru.peek('b')).toBe(2) // b stays the oldest
    expect(lru.set('d', 4, 10)).toBe(true)
    expect(keysOf(lru)).toEqual(['c', 'a', 'd'])
    expect(lru.has('b')).toBe(false)
    expect(lru.evictions).toBe(1)
    expect(lru.bytes).toBe(30)
    expect(lru.size).toBe(3)
  })

  it('evicts as many entries as a large one needs, and never keeps an entry alone over the budget', () => {
    const lru = new ByteLru<string, string>({ maxBytes: 100 })
    for (const k of ['a', 'b', 'c', 'd']) lru.set(k, k, 25)
    expect(lru.set('big', 'x', 60)).toBe(true)
    expect(keysOf(lru)).toEqual(['d', 'big'])
    expect(lru.bytes).toBe(85)
    expect(lru.evictions).toBe(3)
    expect(lru.set('huge', 'y', 101)).toBe(false)
    expect(lru.has('huge')).toBe(false)
    expect(keysOf(lru)).toEqual([]) // everything older went first, then the entry itself
    expect(lru.bytes).toBe(0)
  })

  it('resize keeps the recency order, evicts older and newer entries before the resized one', () => {
    const lru = new ByteLru<number, number>({ maxBytes: 40 })
    for (let k = 0; k < 4; k++) lru.set(k, k, 10)
    expect(lru.resize(1, 25)).toBe(true)
    // Over by 15: the oldest others go first (0, then 2), entry 1 keeps its place.
    expect(keysOf(lru)).toEqual([1, 3])
    expect(lru.sizeOf(1)).toBe(25)
    expect(lru.bytes).toBe(35)
    expect(lru.resize(1, 5)).toBe(true)
    expect(lru.bytes).toBe(15)
    expect(lru.resize(3, 41)).toBe(false)
    expect(keysOf(lru)).toEqual([])
    expect(lru.resize(99, 1)).toBe(false)
  })

  it('set on a present key replaces the value and size, makes it the newest, and is no eviction', () => {
    const lru = new ByteLru<string, number>({ maxBytes: 100 })
    lru.set('a', 1, 10)
    lru.set('b', 2, 10)
    lru.set('a', 3, 50)
    expect(keysOf(lru)).toEqual(['b', 'a'])
    expect(lru.peek('a')).toBe(3)
    expect(lru.bytes).toBe(60)
    expect(lru.evictions).toBe(0)
  })

  it('maxEntries bounds the count; delete and clear are not evictions', () => {
    const lru = new ByteLru<string, number>({ maxBytes: Infinity, maxEntries: 2 })
    lru.set('a', 1, 0)
    lru.set('b', 2, 0)
    lru.set('c', 3, 0)
    expect(keysOf(lru)).toEqual(['b', 'c'])
    expect(lru.evictions).toBe(1)
    expect(lru.delete('b')).toBe(true)
    expect(lru.delete('b')).toBe(false)
    lru.clear()
    expect(lru.size).toBe(0)
    expect(lru.bytes).toBe(0)
    expect(lru.evictions).toBe(1)
    lru.set('d', 4, 0)
    expect(keysOf(lru)).toEqual(['d'])
  })

  it('agrees with a plain model on random operations (slots freed and reused)', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('set'), k: fc.integer({ min: 0, max: 12 }), b: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ t: fc.constant('get'), k: fc.integer({ min: 0, max: 12 }), b: fc.constant(0) }),
      fc.record({ t: fc.constant('resize'), k: fc.integer({ min: 0, max: 12 }), b: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ t: fc.constant('delete'), k: fc.integer({ min: 0, max: 12 }), b: fc.constant(0) }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 6 }), (ops, maxBytes, maxEntries) => {
        const lru = new ByteLru<number, number>({ maxBytes, maxEntries })
        // The model: an array from least to most recently used.
        let model: { k: number; b: number }[] = []
        let evictions = 0
        const fit = (keep: number) => {
          const over = () => model.reduce((s, e) => s + e.b, 0) > maxBytes || model.length > maxEntries
          for (const e of [...model]) {
            if (!over()) break
            if (e.k === keep) continue
            model = model.filter((x) => x !== e)
            evictions++
          }
          if (over()) {
            model = model.filter((x) => x.k !== keep)
            evictions++
            return false
          }
          return true
        }
        for (const { t, k, b } of ops) {
          const at = model.findIndex((e) => e.k === k)
          if (t === 'set') {
            if (at >= 0) model.splice(at, 1)
            model.push({ k, b })
            expect(lru.set(k, k * 10, b)).toBe(fit(k))
          } else if (t === 'get') {
            expect(lru.get(k)).toBe(at >= 0 ? k * 10 : undefined)
            if (at >= 0) model.push(...model.splice(at, 1))
          } else if (t === 'resize') {
            if (at >= 0) model[at].b = b
            expect(lru.resize(k, b)).toBe(at >= 0 ? fit(k) : false)
          } else {
            expect(lru.delete(k)).toBe(at >= 0)
            if (at >= 0) model.splice(at, 1)
          }
          expect(keysOf(lru)).toEqual(model.map((e) => e.k))
          expect(lru.bytes).toBe(model.reduce((s, e) => s + e.b, 0))
          expect(lru.evictions).toBe(evictions)
        }
      }),
      { seed: 8, numRuns: 300 },
    )
  })

  it('bad budgets and sizes are coded RangeErrors', () => {
    for (const maxBytes of [-1, Number.NaN, '10', undefined, null]) {
      expect(() => new ByteLru({ maxBytes: maxBytes as number })).toThrow(expect.objectContaining({ code: 'ERR_BUDGET' }))
    }
    for (const maxEntries of [0, 1.5, -3, Number.NaN]) {
      expect(() => new ByteLru({ maxBytes: 1, maxEntries })).toThrow(expect.objectContaining({ code: 'ERR_BUDGET' }))
    }
    const lru = new ByteLru<string, number>({ maxBytes: 10 })
    for (const size of [-1, Number.NaN, Infinity, '3']) {
      let err: unknown
      try {
        lru.set('a', 1, size as number)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(RobotsError)
      expect(err).toBeInstanceOf(RangeError)
      expect((err as RobotsError).code).toBe('ERR_RANGE')
    }
    expect(lru.size).toBe(0)
  })

  it('onEvict hears of every eviction, after the entry is gone, and not of delete or clear', () => {
    const heard: string[] = []
    const lru: ByteLru<string, number> = new ByteLru({ maxBytes: 10, onEvict: (k, v) => heard.push(`${k}=${v}:${lru.has(k)}`) })
    lru.set('a', 1, 4)
    lru.set('b', 2, 4)
    lru.set('c', 3, 4)
    lru.delete('b')
    lru.set('d', 4, 20)
    lru.clear()
    expect(heard).toEqual(['a=1:false', 'c=3:false', 'd=4:false'])
  })
})
