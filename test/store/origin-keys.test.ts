/**
 * Store keys: a URL is looked up by the origin the WHATWG URL parser gives
 * it, whether the store's look-up takes the scan's fast path (an http(s) URL
 * with a plain host: no key made) or the parser's.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RobotsStore, UrlScan, type EntryId } from '../../src/index.js'
import { slowOrigin, storeKey } from '../../src/store/origin-keys.js'

const enc = new TextEncoder()

describe('store keys', () => {
  it('lookup finds the entry of the URL parser\'s origin, and of its bare host, on strings and bytes (seeded)', () => {
    const scheme = fc.constantFrom('http://', 'https://', 'HTTPS://', 'hTtP://', 'ftp://', 'http:/', '', 'https:')
    const hostPiece = fc.constantFrom('a', 'Z', '0', '9', '.', '-', 'xn--', 'com', 'example', 'ü', '0x7f', '1', '%41', '@', '[::1]', '_', ':')
    const port = fc.constantFrom('', ':', ':80', ':443', ':0080', ':8080', ':65535', ':65536', ':1x', ':000443')
    const rest = fc.constantFrom('', '/', '/a?b', '?q', '#f', '\\x', ' x', '\t', '/ü', ';p')
    const byOrigin = new RobotsStore()
    const byHost = new RobotsStore()
    const other = new RobotsStore()
    other.set('https://elsewhere.test', 'User-agent: *\nDisallow: /\n')
    other.set('elsewhere.test', 'User-agent: *\nDisallow: /\n')
    let found = 0
    fc.assert(
      fc.property(scheme, fc.array(hostPiece, { maxLength: 6 }), port, rest, (s, host, p, r) => {
        const url = s + host.join('') + p + r
        // An empty authority after "://" names no host, though the parser skips the slashes and takes what follows.
        const scan = new UrlScan()
        const emptyAuthority = !scan.scanString(url) && scan.schemeEnd >= 0
        let slow = emptyAuthority ? null : slowOrigin(url)
        // A host in the path the reference matches names no host either: the text before that path must name the origin.
        const ps = scan.pathStart
        if (slow !== null && ps >= 0 && (scan.hostStart >= 0 ? ps < scan.hostEnd : slowOrigin(url.slice(0, ps))?.key !== slow.key)) slow = null
        for (const input of [url, enc.encode(url)]) {
          if (slow === null) {
            expect(() => byOrigin.lookup(input), url).toThrow(/not an absolute URL with a host/)
            continue
          }
          expect(other.lookup(input), url).toBe(-1)
          byOrigin.set(slow.key, '')
          expect(byOrigin.lookup(input), url).toBeGreaterThanOrEqual(0)
          expect(byOrigin.entryKey(byOrigin.lookup(input) as EntryId), url).toBe(slow.key)
          byOrigin.delete(slow.key)
          const bare = slow.key.slice(slow.hostStart, slow.hostEnd)
          let hostKey: string | undefined
          try {
            hostKey = storeKey(bare, 'test').key
          } catch {
            hostKey = undefined
          }
          if (hostKey === undefined) continue
          byHost.set(hostKey, '')
          expect(byHost.lookup(input), url).toBeGreaterThanOrEqual(0)
          byHost.delete(hostKey)
          found++
        }
      }),
      { seed: 41, numRuns: 20_000 },
    )
    expect(found).toBeGreaterThan(1000)
  })

  it('an origin key and a bare-host key of one host: the origin first, then the host', () => {
    const store = new RobotsStore()
    store.set('example.com', 'User-agent: *\nDisallow: /host\n')
    store.set('https://example.com:8443', 'User-agent: *\nDisallow: /origin\n')
    expect(store.entryKey(store.lookup('https://EXAMPLE.com:8443/x') as EntryId)).toBe('https://example.com:8443')
    expect(store.entryKey(store.lookup('https://example.com/x') as EntryId)).toBe('example.com')
    expect(store.entryKey(store.lookup('http://user:pw@example.com:8443/') as EntryId)).toBe('example.com')
    expect(store.lookup('https://example.org/')).toBe(-1)
    expect(store.isAllowed('https://example.com:8443/origin', 'bot')).toBe(false)
    expect(store.isAllowed('https://example.com/host', 'bot')).toBe(false)
    expect(store.isAllowed(enc.encode('https://example.com:8443/host'), 'bot')).toBe(true)
  })

  it('storeKey: origins, URLs and bare hosts', () => {
    expect(storeKey('https://EXAMPLE.com:443/x?y', 'k')).toEqual({ key: 'https://example.com', hostStart: 8, hostEnd: 19 })
    expect(storeKey('http://example.com:8080', 'k').key).toBe('http://example.com:8080')
    expect(storeKey(new URL('https://a.example/b'), 'k').key).toBe('https://a.example')
    expect(storeKey('Example.COM', 'k')).toEqual({ key: 'example.com', hostStart: 0, hostEnd: 11 })
    expect(storeKey('[::1]', 'k').key).toBe('[::1]')
  })

  it("regression: a long host's bare-host entry is found by every URL of it, https and a port too (a URL whose origin key would pass 1,024 bytes was ERR_INPUT, 'not an absolute URL with a host')", () => {
    const host = 'a'.repeat(1010) + '.com'
    const store = new RobotsStore()
    store.set(host, 'User-agent: *\nDisallow: /\n')
    for (const url of [`http://${host}/x`, `https://${host}:8443/x`, `HTTPS://u@${host.toUpperCase()}:65535/x`, `https://${host.replace('a', '%61')}:8443/x`]) {
      for (const input of [url, enc.encode(url)]) {
        expect(store.isAllowed(input, 'bot'), url).toBe(false)
        expect(store.explain(input, 'bot').key, url).toBe(host)
      }
    }
    // A host longer than any key has no entry: judged as a host without one, never refused.
    const longer = `https://${'b'.repeat(2000)}.com:8443/x`
    expect(store.lookup(longer)).toBe(-1)
    expect(store.isAllowed(longer, 'bot')).toBe(true)
    const origins = new RobotsStore()
    origins.set('https://example.com', 'User-agent: *\nDisallow: /\n')
    expect(origins.lookup(longer)).toBe(-1)
  })

  it("regression: an origin whose host the URL parser refuses says why, not only 'is not a URL'", () => {
    expect(() => storeKey('https://xn--a.com/', 'k')).toThrow('k: "https://xn--a.com/" is not a URL of a site: the host "xn--a.com" is refused: it is not a valid international domain name')
    expect(() => storeKey('http://a.test:99999', 'k')).toThrow('k: "http://a.test:99999" is not a URL of a site: its port is not a number from 0 to 65535')
    expect(() => storeKey('http://', 'k')).toThrow(/^k: "http:\/\/" is not a URL$/)
  })
})
