/** The kept-sitemap rule: the byte-level fast accept never accepts what the URL parser refuses. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isSitemapText, isSitemapUrl } from '../../src/rules/sitemap.js'

const enc = new TextEncoder()

describe('sitemap URLs', () => {
  it('the bytes agree with the string rule (seeded)', () => {
    const piece = fc.constantFrom('http://', 'https://', 'HTTP://', 'a', 'Z', '0', '9', '.', '-', 'xn--', ':', '80', '/', '?', '#', '@', '%41', ' ', '\\', '[', '::1]', 'ü', '0x7f', '1.2.3', '\t', '\u0001')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('')
        const b = enc.encode(`xx${text}yy`)
        expect(isSitemapUrl(b, 2, b.length - 2)).toBe(isSitemapText(new TextDecoder().decode(b.subarray(2, b.length - 2))))
      }),
      { seed: 31, numRuns: 20_000 },
    )
  })

  it('examples', () => {
    const ok = ['https://example.com/sitemap.xml', 'HTTP://Example.COM', 'http://a.b-c.example/x y', 'https://xn--bcher-kva.de/s', 'http://127.0.0.1/s', 'https://example.com:8080/s']
    const bad = ['/sitemap.xml', 'ftp://a.example/s.xml', 'http://', 'https:// example.com', 'http://1.2.3.999/', 'http://xn--/', 'sitemap.xml']
    for (const u of ok) expect(isSitemapUrl(enc.encode(u), 0, u.length), u).toBe(true)
    for (const u of bad) expect(isSitemapUrl(enc.encode(u), 0, u.length), u).toBe(false)
  })
})
