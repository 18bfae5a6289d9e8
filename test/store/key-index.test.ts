/**
 * KeyIndex: ids found by key bytes and by probes, each slot handing back the
 * location its owner gave (after adds, relocations, removals and rehashes).
 */
import { describe, expect, it } from 'vitest'
import { KeyIndex, type KeySource } from '../../src/store/key-index.js'
import { keyHash } from '../../src/url/keyed-hash.js'

const enc = new TextEncoder()

/** Keys held by id; a location is (id * 7, id * 11 + version), checked by every compare. */
function table() {
  const keys: Uint8Array[] = []
  const version: number[] = []
  const seen: [number, number, number][] = []
  const source: KeySource = {
    keyEquals(id, a, b, bytes, start, end) {
      seen.push([id, a, b])
      const k = keys[id]
      if (k.length !== end - start) return false
      for (let i = 0; i < k.length; i++) if (k[i] !== bytes[start + i]) return false
      return true
    },
  }
  const index = new KeyIndex(source)
  const loc = (id: number) => [id * 7, id * 11 + version[id]] as const
  return { keys, version, seen, index, loc }
}

describe('KeyIndex', () => {
  it('finds every key through rehashes, handing back each id\'s location', () => {
    const t = table()
    for (let id = 0; id < 3000; id++) {
      t.keys.push(enc.encode(`https://h${id}.example`))
      t.version.push(0)
      t.index.add(id, keyHash(t.keys[id], 0, t.keys[id].length), ...t.loc(id))
    }
    expect(t.index.size).toBe(3000)
    for (let id = 0; id < 3000; id++) {
      t.seen.length = 0
      expect(t.index.find(t.keys[id], 0, t.keys[id].length)).toBe(id)
      // Only keys under the same hash are compared, each with its own location.
      for (const [sid, a, b] of t.seen) expect([a, b]).toEqual([...t.loc(sid)])
      expect(t.seen.at(-1)![0]).toBe(id)
    }
    expect(t.index.find(enc.encode('https://none.example'), 0, 20)).toBe(-1)
  })

  it('relocate changes what a probe is handed; remove drops the id; a probe sees only its hash', () => {
    const t = table()
    for (let id = 0; id < 100; id++) {
      t.keys.push(enc.encode(`h${id}`))
      t.version.push(0)
      t.index.add(id, keyHash(t.keys[id], 0, t.keys[id].length), ...t.loc(id))
    }
    const h = (id: number) => keyHash(t.keys[id], 0, t.keys[id].length)
    t.version[42] = 5
    expect(t.index.relocate(42, h(42), ...t.loc(42))).toBe(true)
    const got: number[][] = []
    expect(t.index.probe(h(42), (id, a, b) => (got.push([id, a, b]), id === 42))).toBe(42)
    expect(got.at(-1)).toEqual([42, 42 * 7, 42 * 11 + 5])
    for (const [id] of got) expect(h(id)).toBe(h(42))
    expect(t.index.remove(42, h(42))).toBe(true)
    expect(t.index.remove(42, h(42))).toBe(false)
    expect(t.index.relocate(42, h(42), 0, 0)).toBe(false)
    expect(t.index.probe(h(42), (id) => id === 42)).toBe(-1)
    expect(t.index.find(t.keys[42], 0, t.keys[42].length)).toBe(-1)
    expect(t.index.size).toBe(99)
    // A removed slot is reused, and rehashing drops it.
    for (let id = 100; id < 400; id++) {
      t.keys.push(enc.encode(`h${id}`))
      t.version.push(0)
      t.index.add(id, keyHash(t.keys[id], 0, t.keys[id].length), ...t.loc(id))
    }
    for (let id = 0; id < 400; id++) if (id !== 42) expect(t.index.find(t.keys[id], 0, t.keys[id].length)).toBe(id)
  })
})
