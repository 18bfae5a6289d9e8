/**
 * The keys of a fetch run (cli/fetch/key-set.ts): each once, in the order
 * first seen, with the origin fetched for each, found again by value,
 * through the index's growth; and memory that follows the keys' bytes.
 */
import { describe, expect, it } from 'vitest'
import { KeySet } from '../../../src/cli/fetch/key-set.js'
import { duration } from '../../../src/cli/common/numbers.js'

describe('KeySet', () => {
  it('regression: a name that is not ASCII (a journal record edited by hand) was found as the key its low bytes spell (ı, U+0131, as "1"); now it is not held', () => {
    const s = new KeySet()
    s.add('https://h1.example')
    expect(s.indexOf('https://h\u0131.example')).toBe(-1)
    expect(s.has('https://h\u0131.example')).toBe(false)
    expect(s.get('https://h\u0131.example')).toBeUndefined()
    expect(s.indexOf('https://h1.example')).toBe(0)
  })

  it('adds each key once, in order, with its origin, and finds every one again after the index grows', () => {
    const s = new KeySet()
    const n = 50_000
    for (let i = 0; i < n; i++) expect(s.add(`https://h${i}.example`)).toBe(i)
    for (let i = 0; i < n; i += 7) expect(s.add(`https://h${i}.example`)).toBe(i)
    expect(s.add('bare.example', 'http://bare.example')).toBe(n)
    expect(s.size).toBe(n + 1)
    for (let i = 0; i < n; i += 997) {
      expect(s.key(i)).toBe(`https://h${i}.example`)
      expect(s.indexOf(`https://h${i}.example`)).toBe(i)
      expect(s.origin(i)).toBe(`https://h${i}.example`)
    }
    expect(s.origin(n)).toBe('http://bare.example')
    expect(s.get('bare.example')).toBe('http://bare.example')
    expect(s.has('https://h1.example.')).toBe(false)
    expect(s.indexOf('https://h1')).toBe(-1)
    expect(s.indexOf('')).toBe(-1)
    expect([...s].slice(0, 2)).toEqual([
      ['https://h0.example', 'https://h0.example'],
      ['https://h1.example', 'https://h1.example'],
    ])
  })

  it('keys that share a prefix or differ by one byte stay apart', () => {
    const s = new KeySet()
    const keys = ['a.example', 'a.example:1', 'b.example', 'a.exampl', 'https://a.example', 'http://a.example']
    for (const k of keys) s.add(k)
    expect([...s].map(([k]) => k)).toEqual(keys)
    for (const [i, k] of keys.entries()) expect(s.indexOf(k)).toBe(i)
  })
})

describe('duration: ages as a person says them, never inflated', () => {
  it('rounds down within its unit', () => {
    expect(duration(0)).toBe('0 seconds')
    expect(duration(1000)).toBe('1 second')
    expect(duration(90_000)).toBe('90 seconds')
    expect(duration(119_999)).toBe('119 seconds')
    expect(duration(120_000)).toBe('2 minutes')
    expect(duration(90 * 60_000)).toBe('90 minutes')
    expect(duration(2 * 3_600_000)).toBe('2 hours')
    expect(duration(47 * 3_600_000)).toBe('47 hours')
    expect(duration(3 * 86_400_000 + 5)).toBe('3 days')
    expect(duration(-5)).toBe('0 seconds')
  })
})
