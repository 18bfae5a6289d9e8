/** The four-byte word tests and printableEnd agree with a byte at a time, at every start and end of a buffer. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isPatternWord, isPrintableWord, isProseWord, printableEnd } from '../../src/parse/words.js'

const printable = (x: number): boolean => x >= 32 && x < 127
const word = (b: number[]): number => (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) | 0

/** printableEnd read a byte at a time. */
function byBytes(b: Uint8Array, j: number, stop: number): number {
  while (j < stop && (printable(b[j]) || b[j] === 9)) j++
  return j
}

describe('four-byte word tests', () => {
  it('each says exactly whether all four bytes are of its class', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(9, 31, 32, 35, 36, 37, 38, 58, 126, 127, 128, 255))
    fc.assert(
      fc.property(fc.array(byte, { minLength: 4, maxLength: 4 }), (b) => {
        const w = word(b)
        expect(isPrintableWord(w)).toBe(b.every(printable))
        expect(isPatternWord(w)).toBe(b.every((x) => x > 37 && x < 127))
        expect(isProseWord(w)).toBe(b.every((x) => printable(x) && x !== 35 && x !== 58))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('printableEnd', () => {
  it('stops where a byte at a time stops, for every start and end of random buffers', () => {
    const byte = fc.oneof(fc.constantFrom(65, 97, 32, 126), fc.constantFrom(9, 10, 13, 0, 31, 127, 128, 200))
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), fc.nat(7), (arr, pad) => {
        // The bytes at an offset in a larger buffer: the view covers all of it, as the builder's does.
        const all = new Uint8Array(arr.length + pad)
        all.set(arr, pad)
        const dv = new DataView(all.buffer)
        for (let j = 0; j <= all.length; j++) for (let stop = j; stop <= all.length; stop++) {
          expect(printableEnd(all, dv, j, stop)).toBe(byBytes(all, j, stop))
        }
      }),
      { numRuns: 400 },
    )
  })

  it('reads past long runs of printable ASCII and tabs to the first other byte', () => {
    const text = 'a\tb'.repeat(1000) + '\n' + 'tail'
    const b = new TextEncoder().encode(text)
    expect(printableEnd(b, new DataView(b.buffer), 0, b.length)).toBe(3000)
    expect(printableEnd(b, new DataView(b.buffer), 3001, b.length)).toBe(b.length)
  })
})
