import { describe, expect, it } from 'vitest'
import { gzipSync } from 'node:zlib'
import { encodingFamily, wideEncoding } from '../../src/tools/wide-text.js'

/** `text` in UTF-16 or UTF-32, either byte order, with a byte order mark or not. */
function encode(text: string, bits: 16 | 32, order: 'LE' | 'BE', bom: boolean): Buffer {
  const s = bom ? `\ufeff${text}` : text
  const size = bits / 8
  const out = Buffer.alloc(s.length * size)
  for (let i = 0; i < s.length; i++) {
    if (size === 2) order === 'LE' ? out.writeUInt16LE(s.charCodeAt(i), i * 2) : out.writeUInt16BE(s.charCodeAt(i), i * 2)
    else order === 'LE' ? out.writeUInt32LE(s.charCodeAt(i), i * 4) : out.writeUInt32BE(s.charCodeAt(i), i * 4)
  }
  return out
}

describe('wideEncoding', () => {
  it('names UTF-16 and UTF-32 of either byte order, with a byte order mark or without', () => {
    const text = 'User-agent: *\nDisallow: /private\n'
    for (const bits of [16, 32] as const) {
      for (const order of ['LE', 'BE'] as const) {
        for (const bom of [true, false]) expect(wideEncoding(encode(text, bits, order, bom))).toEqual({ name: `UTF-${bits}${order}`, bom })
      }
    }
    expect(encodingFamily('UTF-32BE')).toBe('UTF-32')
  })

  it('UTF-8, Latin-1, binary data and short bytes are none', () => {
    for (const b of [Buffer.from('User-agent: *\nDisallow: /\n'), Buffer.from('caf\xe9 \xe9t\xe9\n', 'latin1'), gzipSync('User-agent: *\n'), Buffer.from('h\0t\0'), Buffer.alloc(64), Buffer.from('\xef\xbb\xbfUser-agent: *', 'latin1'), new Uint8Array(0)]) {
      expect(wideEncoding(b)).toBeUndefined()
    }
  })
})
