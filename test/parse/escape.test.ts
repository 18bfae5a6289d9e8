/** Bytes as text: `utf8Text` is TextDecoder's UTF-8 (invalid sequences replaced) on every input, its ASCII shortcut included. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Text } from '../../src/parse/escape.js'

describe('utf8Text', () => {
  it('decodes as TextDecoder does: ASCII, UTF-8, invalid and cut sequences, long runs', () => {
    const dec = new TextDecoder()
    const piece = fc.constantFrom([0x61], [0x7f], [0x00], [0xc3, 0xa4], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0xc3], [0xed, 0xa0, 0x80], [0xff], Array(40).fill(0x41))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const b = Uint8Array.from(parts.flat())
        expect(utf8Text(b)).toBe(dec.decode(b))
      }),
      { seed: 7, numRuns: 5_000 },
    )
    expect(utf8Text(new Uint8Array(0))).toBe('')
  })
})
