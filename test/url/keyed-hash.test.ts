/**
 * The keyed hash home (src/url/keyed-hash.ts): HalfSipHash-1-3, checked
 * against an independent implementation of HalfSipHash-c-d that is itself
 * checked against the reference's published 2-4 vectors; keyed per realm
 * (names colliding under FNV-1a do not collide, a key that changes moves
 * every hash); the origin hash of a URL equals that of its stored key.
 */
import { describe, expect, it, vi } from 'vitest'
import {
  adoptHashKey,
  halfSipHash13,
  halfSipHash13x64,
  hashKeyWords,
  hostHash,
  hostHashString,
  httpSchemeHash,
  keyHash,
  originHash,
  schemeHashOf,
  secondHash,
} from '../../src/url/keyed-hash.js'
import { prng } from '../support/prng.mjs'

const enc = new TextEncoder()

/** HalfSipHash-c-d, 32-bit tag (64-bit: both words), written from the paper's description (not the module's code). */
function reference(c: number, d: number, k0: number, k1: number, msg: Uint8Array): number
function reference(c: number, d: number, k0: number, k1: number, msg: Uint8Array, wide: true): [number, number]
function reference(c: number, d: number, k0: number, k1: number, msg: Uint8Array, wide = false): number | [number, number] {
  const v = new Uint32Array([k0, wide ? k1 ^ 0xee : k1, 0x6c796765 ^ k0, 0x74656462 ^ k1])
  const rotl = (x: number, b: number): number => ((x << b) | (x >>> (32 - b))) >>> 0
  const round = (): void => {
    v[0] += v[1]; v[1] = rotl(v[1], 5); v[1] ^= v[0]; v[0] = rotl(v[0], 16)
    v[2] += v[3]; v[3] = rotl(v[3], 8); v[3] ^= v[2]
    v[0] += v[3]; v[3] = rotl(v[3], 7); v[3] ^= v[0]
    v[2] += v[1]; v[1] = rotl(v[1], 13); v[1] ^= v[2]; v[2] = rotl(v[2], 16)
  }
  const whole = msg.length - (msg.length % 4)
  for (let i = 0; i < whole; i += 4) {
    const m = (msg[i] | (msg[i + 1] << 8) | (msg[i + 2] << 16) | (msg[i + 3] << 24)) >>> 0
    v[3] ^= m
    for (let r = 0; r < c; r++) round()
    v[0] ^= m
  }
  let b = (msg.length << 24) >>> 0
  for (let i = whole, k = 0; i < msg.length; i++, k += 8) b = (b | (msg[i] << k)) >>> 0
  v[3] ^= b
  for (let r = 0; r < c; r++) round()
  v[0] ^= b
  v[2] ^= wide ? 0xee : 0xff
  for (let r = 0; r < d; r++) round()
  const first = (v[1] ^ v[3]) | 0
  if (!wide) return first
  v[1] ^= 0xdd
  for (let r = 0; r < d; r++) round()
  return [first, (v[1] ^ v[3]) | 0]
}

/** The reference implementation's vectors_hsip32 for lengths 0..7 (key 00..07, message 00..len-1), as little-endian words. */
const HSIP32_2_4 = [
  [0xa9, 0x35, 0x9f, 0x5b],
  [0x27, 0x47, 0x5a, 0xb8],
  [0xfa, 0x62, 0xa6, 0x03],
  [0x8a, 0xfe, 0xe7, 0x04],
  [0x2a, 0x6e, 0x46, 0x89],
  [0xc5, 0xfa, 0xb6, 0x69],
  [0x58, 0x63, 0xfc, 0x23],
  [0x8b, 0xcf, 0x63, 0xc5],
].map((b) => b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24))

/** The reference implementation's vectors_hsip64 for lengths 0..5, as two little-endian words each. */
const HSIP64_2_4 = [
  [0x21, 0x8d, 0x1f, 0x59, 0xb9, 0xb8, 0x3c, 0xc8],
  [0xbe, 0x55, 0x24, 0x12, 0xf8, 0x38, 0x73, 0x15],
  [0x06, 0x4f, 0x39, 0xef, 0x7c, 0x50, 0xeb, 0x57],
  [0xce, 0x0f, 0x1a, 0x45, 0xf7, 0x06, 0x06, 0x79],
  [0xd5, 0xe7, 0x8a, 0x17, 0x5b, 0xe5, 0x2e, 0xa1],
  [0xcb, 0x9d, 0x7c, 0x3f, 0x2f, 0x3d, 0xb5, 0x80],
].map((b) => [b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24), b[4] | (b[5] << 8) | (b[6] << 16) | (b[7] << 24)])

const K0 = 0x03020100
const K1 = 0x07060504

describe('keyed-hash: HalfSipHash', () => {
  it('the independent implementation gives the reference vectors of HalfSipHash-2-4', () => {
    for (let len = 0; len < HSIP32_2_4.length; len++) {
      const msg = Uint8Array.from({ length: len }, (_, i) => i)
      expect(reference(2, 4, K0, K1, msg), `length ${len}`).toBe(HSIP32_2_4[len])
    }
  })

  it('the independent implementation gives the reference vectors of HalfSipHash-2-4 with the 64-bit tag', () => {
    for (let len = 0; len < HSIP64_2_4.length; len++) {
      const msg = Uint8Array.from({ length: len }, (_, i) => i)
      expect(reference(2, 4, K0, K1, msg, true), `length ${len}`).toEqual(HSIP64_2_4[len])
    }
  })

  it('halfSipHash13x64 is HalfSipHash-1-3 with the 64-bit tag; hostHash and secondHash are its words', () => {
    const r = prng(64)
    for (let len = 0; len <= 64; len++) {
      const k0 = (r() * 2 ** 32) | 0
      const k1 = (r() * 2 ** 32) | 0
      const msg = Uint8Array.from({ length: len }, () => Math.floor(r() * 0x40))
      expect(halfSipHash13x64(k0, k1, msg), `length ${len}`).toEqual(reference(1, 3, k0, k1, msg, true))
    }
    const words = hashKeyWords()
    const name = enc.encode('www.example.com')
    expect([hostHash(name, 0, name.length), secondHash(name, 0, name.length)]).toEqual(halfSipHash13x64(words[0], words[1], name))
  })

  it('halfSipHash13 is HalfSipHash-1-3 (lengths 0..64, random keys; bytes below A so case folding is moot)', () => {
    const r = prng(19)
    for (let len = 0; len <= 64; len++) {
      const k0 = (r() * 2 ** 32) | 0
      const k1 = (r() * 2 ** 32) | 0
      const msg = Uint8Array.from({ length: len }, () => Math.floor(r() * 0x40))
      expect(halfSipHash13(k0, k1, msg), `length ${len}`).toBe(reference(1, 3, k0, k1, msg))
    }
  })

  it('ASCII capitals hash as their lower case; other bytes as they are', () => {
    const a = enc.encode('WWW.Example.COM')
    const b = enc.encode('www.example.com')
    expect(hostHash(a, 0, a.length)).toBe(hostHash(b, 0, b.length))
    expect(halfSipHash13(1, 2, a)).toBe(reference(1, 3, 1, 2, b))
    expect(hostHashString('WWW.Example.COM')).toBe(hostHash(b, 0, b.length))
    const c = Uint8Array.of(0xc3, 0x89)
    expect(hostHash(c, 0, 2)).not.toBe(hostHash(Uint8Array.of(0xe3, 0xa9), 0, 2))
  })

  it('ASCII case folding is exact for every byte value at every place in a word and in the tail (the words are lowered four bytes at once)', () => {
    const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b)
    for (const len of [4, 5, 6, 7, 8]) {
      for (let place = 0; place < len; place++) {
        for (let b = 0; b < 256; b++) {
          // The byte among neighbours that are capitals, letters and bytes with the high bit, so that no carry between bytes goes unseen.
          const msg = Uint8Array.from({ length: len }, (_, i) => (i === place ? b : [0x5a, 0xc1, 0x41, 0xff, 0x7a, 0x40, 0x5b, 0x80][(i + b) & 7]))
          const [a0, a1] = halfSipHash13x64(7, 9, msg)
          const [r0, r1] = reference(1, 3, 7, 9, msg.map(lower), true)
          if (a0 !== r0 || a1 !== r1) expect({ len, place, byte: b }).toBe('hashed as its lower case')
        }
      }
    }
  })

  it('hashes a range, not the buffer', () => {
    const buf = enc.encode('xxexample.comyy')
    const own = enc.encode('example.com')
    expect(hostHash(buf, 2, 13)).toBe(hostHash(own, 0, own.length))
    expect(secondHash(buf, 2, 13)).toBe(secondHash(own, 0, own.length))
    expect(secondHash(own, 0, own.length)).not.toBe(hostHash(own, 0, own.length))
  })
})

describe('keyed-hash: the key', () => {
  it('is random per realm: not the zero key, four words', () => {
    const words = hashKeyWords()
    expect(words.length).toBe(4)
    expect([...words].some((w) => w !== 0)).toBe(true)
    const name = enc.encode('example.com')
    expect(hostHash(name, 0, name.length)).toBe(halfSipHash13x64(words[0], words[1], name)[0])
  })

  it('names colliding under FNV-1a do not collide (regression: the unkeyed hash of issue 19)', () => {
    // Two strings with one FNV-1a-32 hash (a known pair).
    const fnv = (s: string): number => {
      let h = 0x811c9dc5
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
      return h
    }
    const [x, y] = ['costarring', 'liquid']
    expect(fnv(x)).toBe(fnv(y))
    expect(hostHashString(x)).not.toBe(hostHashString(y))
  })

  it('adopting another key changes every hash, and adopting the old one restores them (a worker thread takes its parent key)', () => {
    const old = hashKeyWords()
    const name = enc.encode('example.com')
    const before = hostHash(name, 0, name.length)
    const http = httpSchemeHash(false)
    try {
      adoptHashKey(Int32Array.of(1, 2, 3, 4))
      expect(hostHash(name, 0, name.length)).toBe(halfSipHash13x64(1, 2, name)[0])
      expect(hostHash(name, 0, name.length)).not.toBe(before)
      expect(httpSchemeHash(false)).not.toBe(http)
      expect(httpSchemeHash(false)).toBe(schemeHashOf('http'))
      expect(httpSchemeHash(true)).toBe(schemeHashOf('https'))
    } finally {
      adoptHashKey(old)
    }
    expect(hostHash(name, 0, name.length)).toBe(before)
    expect(httpSchemeHash(false)).toBe(http)
    expect(() => adoptHashKey(new Int32Array(3))).toThrow(TypeError)
  })

  it('the http(s) scheme hashes are made on first use under the key then current (a key adopted before the first URL)', async () => {
    const old = hashKeyWords()
    vi.resetModules()
    const fresh = await import('../../src/url/keyed-hash.js')
    try {
      fresh.adoptHashKey(Int32Array.of(5, 6, 7, 8))
      expect(fresh.httpSchemeHash(true)).toBe(fresh.schemeHashOf('https'))
      expect(fresh.httpSchemeHash(false)).toBe(fresh.schemeHashOf('http'))
      fresh.adoptHashKey(old)
      expect(fresh.httpSchemeHash(true)).toBe(schemeHashOf('https'))
      expect(fresh.httpSchemeHash(false)).toBe(httpSchemeHash(false))
    } finally {
      adoptHashKey(old)
    }
  })
})

describe('keyed-hash: keys', () => {
  const key = (s: string): number => {
    const b = enc.encode(s)
    return keyHash(b, 0, b.length)
  }
  const host = (s: string): number => hostHashString(s)

  it('a bare host key hashes as its host; an origin key by host, scheme and port', () => {
    expect(key('example.com')).toBe(host('example.com'))
    expect(key('https://example.com')).toBe(originHash(host('example.com'), httpSchemeHash(true), 0))
    expect(key('http://example.com:8080')).toBe(originHash(host('example.com'), httpSchemeHash(false), 8081))
    expect(key('https://example.com:0')).toBe(originHash(host('example.com'), httpSchemeHash(true), 1))
    expect(key('https://[::1]')).toBe(originHash(host('[::1]'), httpSchemeHash(true), 0))
    expect(key('https://[::1]:8443')).toBe(originHash(host('[::1]'), httpSchemeHash(true), 8444))
    expect(key('ftp://example.com')).toBe(originHash(host('example.com'), schemeHashOf('ftp'), 0))
    expect(schemeHashOf('HTTPS')).toBe(httpSchemeHash(true))
  })

  it('origins of one host differ by scheme and port', () => {
    const seen = new Set<number>()
    for (const k of ['example.com', 'https://example.com', 'http://example.com', 'https://example.com:1', 'https://example.com:2', 'ws://example.com']) seen.add(key(k))
    expect(seen.size).toBe(6)
  })
})
