/**
 * The origins `fetch` collects: one per distinct origin in the order first
 * seen, keyed as `filter --bundle` looks lines up (a URL by its origin, a
 * host column by its bare host), whatever the case, user info or default
 * port; a host column's port picks the scheme; lines without a host and
 * other schemes are counted, not fetched; memory bounded by the origins.
 */
import { describe, expect, it } from 'vitest'
import { OriginList } from '../../../src/cli/fetch/origin-input.js'

const bytes = (s: string) => new TextEncoder().encode(s)

function urls(list: OriginList, ...lines: string[]): void {
  for (const l of lines) {
    const b = bytes(l)
    list.addUrl(b, 0, b.length)
  }
}

function hosts(list: OriginList, scheme: 'http' | 'https', ...columns: string[]): void {
  for (const c of columns) {
    const b = bytes(`x ${c} y`)
    list.addHostColumn(b, 2, 2 + c.length, scheme)
  }
}

describe('OriginList', () => {
  it('URL lines: one origin each, canonical keys, in the order first seen', () => {
    const list = new OriginList()
    urls(
      list,
      'https://B.test/a',
      'https://b.test:443/b?x',
      'https://user@b.test/c',
      'http://b.test/d',
      'https://b.test:8443/e',
      'https://[::1]:8080/f',
      'https://xn--bcher-kva.test/g',
      'ftp://c.test/x',
      '/path/only',
      '',
      'https://b.test',
    )
    expect([...list.origins]).toEqual([
      ['https://b.test', 'https://b.test'],
      ['http://b.test', 'http://b.test'],
      ['https://b.test:8443', 'https://b.test:8443'],
      ['https://[::1]:8080', 'https://[::1]:8080'],
      ['https://xn--bcher-kva.test', 'https://xn--bcher-kva.test'],
    ])
    expect(list.withoutHost).toBe(2)
    expect(list.unusable).toBe(1)
  })

  it('host columns: bare-host keys; :80 is http, :443 https, another port the scheme given', () => {
    const list = new OriginList()
    hosts(list, 'https', 'a.test:80', 'A.TEST:443', 'b.test:443', 'c.test', 'd.test:8080', 'https://e.test:444/x', '[::1]:80')
    hosts(list, 'http', 'f.test', 'g.test:8081')
    expect([...list.origins]).toEqual([
      ['a.test', 'http://a.test'],
      ['b.test', 'https://b.test'],
      ['c.test', 'https://c.test'],
      ['d.test', 'https://d.test:8080'],
      ['e.test', 'https://e.test:444'],
      ['[::1]', 'http://[::1]'],
      ['f.test', 'http://f.test'],
      ['g.test', 'http://g.test:8081'],
    ])
  })

  it('host columns seen again come from the cache; an empty or bad one is counted', () => {
    const list = new OriginList()
    hosts(list, 'https', 'a.test:80', 'a.test:80', '', 'bad host!:1')
    expect([...list.origins]).toEqual([['a.test', 'http://a.test']])
    expect(list.withoutHost).toBe(1)
    expect(list.unusable).toBe(1)
  })

  it('regression: many raw spellings of few origins do not grow memory without bound (the cache is cleared when full)', () => {
    const list = new OriginList()
    for (let i = 0; i < 200_000; i++) urls(list, `https://u${i}@a.test/x`)
    expect([...list.origins.keys()]).toEqual(['https://a.test'])
    expect((list as unknown as { raw: Map<string, string> }).raw.size).toBeLessThanOrEqual(1 << 16)
  })
})
