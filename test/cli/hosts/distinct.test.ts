// DistinctCounter: distinct hosts in bounded memory (exact, then an estimate).
import { describe, expect, it } from 'vitest'
import { DistinctCounter } from '../../../src/cli/hosts/distinct.js'
import { UrlScan } from '../../../src/index.js'

const enc = new TextEncoder()

const scan = new UrlScan()

function add(c: DistinctCounter, name: string): boolean {
  const b = enc.encode(name)
  scan.scanHost(b, 0, b.length)
  return c.add(scan)
}

describe('DistinctCounter', () => {
  it('counts each name once, ASCII case ignored', () => {
    const c = new DistinctCounter()
    expect(add(c, 'a.test')).toBe(true)
    expect(add(c, 'A.TEST')).toBe(false)
    expect(add(c, 'b.test')).toBe(true)
    for (let i = 0; i < 5000; i++) add(c, `h${i % 1000}.test`)
    expect(c.count).toBe(1002)
    expect(c.exact).toBe(true)
  })

  it('past the exact limit, estimates within a few percent and stops growing', () => {
    const c = new DistinctCounter(1000)
    for (let i = 0; i < 50_000; i++) add(c, `host-${i}.example`)
    for (let i = 0; i < 50_000; i++) add(c, `host-${i}.example`)
    expect(c.exact).toBe(false)
    expect(Math.abs(c.count - 50_000) / 50_000).toBeLessThan(0.05)
    expect(c.byteLength).toBeLessThan(64 * 1024)
  })

  it('merging what other counters saw gives the union (worker threads)', () => {
    const main = new DistinctCounter()
    const workers = [new DistinctCounter(undefined, true), new DistinctCounter(undefined, true)]
    for (let i = 0; i < 300; i++) add(workers[i % 2], `h${i % 200}.test`)
    for (let i = 0; i < 50; i++) add(main, `h${i}.test`)
    for (const w of workers) {
      const fresh = w.takeNew()
      main.merge(fresh.fingerprints, fresh.overflowed)
      expect(w.takeNew().fingerprints.length).toBe(0)
    }
    expect(main.count).toBe(200)
    // An overflowed worker makes the total an estimate, from the merged registers.
    const big = new DistinctCounter(10, true)
    for (let i = 0; i < 5000; i++) add(big, `x${i}.test`)
    const fresh = big.takeNew()
    main.merge(fresh.fingerprints, fresh.overflowed, big.registers)
    expect(main.exact).toBe(false)
    expect(Math.abs(main.count - 5200) / 5200).toBeLessThan(0.05)
  })
})
