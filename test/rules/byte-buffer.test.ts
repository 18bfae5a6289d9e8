/**
 * ByteBuffer's varint writer against a plain LEB128 encoder (BigInt): every
 * value at and around each 7-bit boundary, and around 2^31 and 2^32, where
 * the writer switches from int32 shifts to float arithmetic; each read back
 * by VarintReader.
 */
import { describe, expect, it } from 'vitest'
import { ByteBuffer, VarintReader } from '../../src/rules/byte-buffer.js'

function leb128(v: number): number[] {
  let x = BigInt(v)
  const out: number[] = []
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80)
    x >>= 7n
  }
  out.push(Number(x))
  return out
}

const VALUES: number[] = []
for (let k = 0; k <= 49; k++) for (const d of [-1, 0, 1]) if (2 ** k + d >= 0 && 2 ** k + d < 2 ** 49) VALUES.push(2 ** k + d)
for (const v of [0, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 2 ** 49 - 1, 123_456_789_012]) VALUES.push(v)

describe('ByteBuffer.varint', () => {
  it('writes the LEB128 bytes of every boundary value and reads them back', () => {
    for (const v of VALUES) {
      const b = new ByteBuffer(4)
      b.byte(0xaa)
      b.varint(v)
      expect([...b.bytes.subarray(1, b.length)], `value ${v}`).toEqual(leb128(v))
      const r = new VarintReader(b.bytes, 1, b.length, 'test')
      expect(r.read(), `value ${v}`).toBe(v)
      expect(r.more).toBe(false)
    }
  })

  it('appends one value after another', () => {
    const b = new ByteBuffer(1)
    for (const v of VALUES) b.varint(v)
    const r = new VarintReader(b.bytes, 0, b.length, 'test')
    for (const v of VALUES) expect(r.read()).toBe(v)
    expect(r.more).toBe(false)
  })
})
