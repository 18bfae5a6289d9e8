/** Store keys: a URL's key bytes from the fast path are the URL parser's origin, whenever the fast path takes the URL. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fastOrigin, MAX_KEY_BYTES, OriginOut, slowOrigin, storeKey } from '../../src/store/origin-keys.js'
import { hashKey } from '../../src/store/key-index.js'

const enc = new TextEncoder()

describe('store keys', () => {
  it('fastOrigin equals the URL parser wherever it answers, on strings and bytes (seeded)', () => {
    const scheme = fc.constantFrom('http://', 'https://', 'HTTPS://', 'hTtP://', 'ftp://', 'http:/', '')
    const hostPiece = fc.constantFrom('a', 'Z', '0', '9', '.', '-', 'xn--', 'com', 'example', 'ü', '0x7f', '1', '%41', '@', '[::1]', '_')
    const port = fc.constantFrom('', ':', ':80', ':443', ':0080', ':8080', ':65535', ':65536', ':1x', ':000443')
    const rest = fc.constantFrom('', '/', '/a?b', '?q', '#f', '\\x', ' x', '\t', '/ü')
    let fast = 0
    fc.assert(
      fc.property(scheme, fc.array(hostPiece, { maxLength: 6 }), port, rest, (s, host, p, r) => {
        const url = s + host.join('') + p + r
        const out = new Uint8Array(MAX_KEY_BYTES)
        const range = new Int32Array(OriginOut.Size)
        for (const input of [url, enc.encode(url)]) {
          const n = fastOrigin(input, 0, input.length, out, range)
          if (n <= 0) continue
          fast++
          const slow = slowOrigin(url)
          expect(slow, url).not.toBeNull()
          expect(new TextDecoder().decode(out.subarray(0, n)), url).toBe(slow!.key)
          expect([range[0], range[1]], url).toEqual([slow!.hostStart, slow!.hostEnd])
          expect(range[OriginOut.OriginHash] >>> 0).toBe(hashKey(out, 0, n))
          expect(range[OriginOut.HostHash] >>> 0).toBe(hashKey(out, range[0], range[1]))
        }
      }),
      { seed: 41, numRuns: 30_000 },
    )
    expect(fast).toBeGreaterThan(1000)
  })

  it('storeKey: origins, URLs and bare hosts', () => {
    expect(storeKey('https://EXAMPLE.com:443/x?y', 'k')).toEqual({ key: 'https://example.com', hostStart: 8, hostEnd: 19 })
    expect(storeKey('http://example.com:8080', 'k').key).toBe('http://example.com:8080')
    expect(storeKey(new URL('https://a.example/b'), 'k').key).toBe('https://a.example')
    expect(storeKey('Example.COM', 'k')).toEqual({ key: 'example.com', hostStart: 0, hostEnd: 11 })
    expect(storeKey('[::1]', 'k').key).toBe('[::1]')
  })
})
