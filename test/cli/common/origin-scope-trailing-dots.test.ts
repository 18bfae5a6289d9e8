/**
 * The origin check of a ROBOTS URL (`check`, `filter`, `diff`) reads a
 * URL's host as every other host is read (semantics.md): all its trailing
 * dots dropped, then read again (`0x7f.1..` is `127.0.0.1`).
 */
import { describe, expect, it } from 'vitest'
import { OriginScope } from '../../../src/cli/common/robots-origin.js'

describe('regression: a URL whose host ends with two dots was of another origin than the ROBOTS URL', () => {
  it('example.com.. and 0x7f.1.. are example.com and 127.0.0.1 for the origin check, as --robots-dir reads them: no warning, not counted', () => {
    for (const [robots, url, host] of [
      ['http://example.com/', 'http://example.com../x', 'example.com..'],
      ['http://127.0.0.1:8080/', 'http://0x7f.1..:8080/x', '127.0.0.1..:8080'],
      ['https://xn--bcher-kva.de/', 'https://bücher.de...:443/x', 'https://BÜCHER.de..'],
    ]) {
      const warnings: string[] = []
      const scope = OriginScope.of([robots], (w) => warnings.push(w), '')!
      scope.see(url)
      scope.seeHost(host)
      expect([scope.outside, warnings], `${robots} ${url}`).toEqual([0, []])
    }
    const other = OriginScope.of(['http://example.com/'], undefined, '')!
    for (const url of ['http://example.co../x', 'http://example.com..:81/x', 'https://example.com../x']) other.see(url)
    expect(other.outside).toBe(3)
  })
})
