/**
 * The tools' grouped counts: what `Intl.NumberFormat('en-US')` writes, for
 * every kind of number, though integers are grouped without it.
 */
import { describe, expect, it } from 'vitest'
import { count, plural } from '../../src/tools/counts.js'

const intl = new Intl.NumberFormat('en-US')

describe('count', () => {
  it("groups integers by threes exactly as Intl.NumberFormat('en-US') does, around every group boundary and sign", () => {
    const values: number[] = [0, -0, 1, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]
    for (let p = 1; p <= 1e15; p *= 10) values.push(p - 1, p, p + 1, -p, 2 * p + 7)
    for (let i = 0; i < 2000; i++) values.push(Math.floor(Math.sin(i) * 10 ** (i % 16)))
    for (const n of values) expect(count(n), String(n)).toBe(intl.format(n))
  })

  it('leaves what is not a safe integer to the formatter: fractions, huge numbers, NaN, infinities', () => {
    for (const n of [0.5, 1234.5678, -9876.54321, 2 ** 60, 1e21, -1e300, Number.NaN, Infinity, -Infinity, Number.MIN_VALUE]) {
      expect(count(n), String(n)).toBe(intl.format(n))
    }
  })

  it('plural: one word, or the word with an s', () => {
    expect([plural(1, 'URL'), plural(0, 'URL'), plural(1234, 'error')]).toEqual(['1 URL', '0 URLs', '1,234 errors'])
  })
})
