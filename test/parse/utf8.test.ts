/** The byte-level UTF-8 validator agrees with TextDecoder's fatal mode. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isValidUtf8 as validIn } from '../../src/parse/utf8.js'

/** isValidUtf8 with its view of the bytes (runs of ASCII are read four bytes at a time through it). */
function isValidUtf8(b: Uint8Array, from: number, to: number, cutOk: boolean): boolean {
  return validIn(b, from, to, cutOk, new DataView(b.buffer, b.byteOffset, b.byteLength))
}

const strict = new TextDecoder('utf-8', { fatal: true })
function decoderSays(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes)
    return true
  } catch {
    return false
  }
}

describe('isValidUtf8', () => {
  it('agrees with TextDecoder (fatal) on random bytes, biased to UTF-8 lead and continuation bytes', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0x80, 0xbf, 0xa0, 0x9f, 0x90, 0x8f))
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 12 }), (arr) => {
        const b = Uint8Array.from(arr)
        expect(isValidUtf8(b, 0, b.length, false)).toBe(decoderSays(b))
      }),
      { seed: 7, numRuns: 20_000 },
    )
  })
  it('agrees with TextDecoder on any part of a buffer of ASCII runs and UTF-8 (the four-byte reads at every offset)', () => {
    const piece = fc.oneof(fc.constantFrom('a', 'abcd', 'abcdefghi', ' /x', 'é', '€', '😀', '日本'), fc.integer({ min: 0x80, max: 0xff }))
    const enc = new TextEncoder()
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), fc.nat(), fc.nat(), (pieces, x, y) => {
        const parts = pieces.map((p) => (typeof p === 'string' ? [...enc.encode(p)] : [p]))
        const b = Uint8Array.from(parts.flat())
        const from = b.length ? x % (b.length + 1) : 0
        const to = from + (b.length - from ? y % (b.length - from + 1) : 0)
        expect(isValidUtf8(b, from, to, false)).toBe(decoderSays(b.subarray(from, to)))
      }),
      { seed: 11, numRuns: 20_000 },
    )
  })
  it('accepts real text and rejects overlongs, surrogates and values past U+10FFFF', () => {
    const enc = new TextEncoder()
    const ok = enc.encode('Disallow: /ä/€/😀 — 日本')
    expect(isValidUtf8(ok, 0, ok.length, false)).toBe(true)
    for (const bad of [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff]]) {
      expect(isValidUtf8(Uint8Array.from(bad), 0, bad.length, false)).toBe(false)
    }
  })
  it('with cutOk, a sequence cut by the end is fine (a line cut at the limit)', () => {
    const b = Uint8Array.from([0x61, 0xe2, 0x82])
    expect(isValidUtf8(b, 0, 3, false)).toBe(false)
    expect(isValidUtf8(b, 0, 3, true)).toBe(true)
  })
})
