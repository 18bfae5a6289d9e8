/** The parser's fast path for spelled-out keys agrees with the general one (first colon, classifyKey). */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { classifyKey, spelledKey } from '../../src/parse/keys.js'
import { KeyKind } from '../../src/parse/handler.js'

const enc = new TextEncoder()

describe('spelledKey', () => {
  it('finds exactly the lines whose first colon ends a spelled-out key, with classifyKey\'s kind (seeded)', () => {
    const piece = fc.constantFrom('disallow', 'DisAllow', 'allow', 'ALLOW', 'user-agent', 'User-Agent', 'user agent', 'useragent', 'sitemap', 'SiteMap', 'site-map', 'dissallow', ':', ' ', '\t', 'x', '/', '-', '@', 'w', 'W', 'n', 't', 'map', 'disa', '\r')
    let fast = 0
    const key = fc.constantFrom('disallow', 'DisAllow', 'allow', 'ALLOW', 'user-agent', 'User-Agent', 'sitemap', 'SiteMap', 'site-map', 'disa', 'user agent')
    fc.assert(
      fc.property(key, fc.constantFrom(':', ' :', '', 'x:', ': '), fc.array(piece, { maxLength: 4 }), (first, sep, rest) => {
        const b = enc.encode(first + sep + rest.join(''))
        const kind = spelledKey(b, 0, b.length)
        if (kind === KeyKind.Unknown) return
        fast++
        const colon = b.indexOf(58)
        expect(colon).toBeGreaterThan(0)
        expect(classifyKey(b, 0, colon)).toBe(kind)
        expect(Buffer.from(b.subarray(0, colon)).toString().toLowerCase()).toBe(['', 'user-agent', 'allow', 'disallow', 'sitemap'][kind])
      }),
      { seed: 3, numRuns: 20_000 },
    )
    expect(fast).toBeGreaterThan(500)
  })
})
