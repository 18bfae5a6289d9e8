// HostIndex: the directory's (and a bundle's) host set, asked per line by bytes.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { HostIndex, HostIndexBuilder, isIndexableName } from '../../../src/cli/hosts/host-index.js'
import { hostHash } from '../../../src/url/keyed-hash.js'

const enc = new TextEncoder()

function build(names: string[]): { index: HostIndex; builder: HostIndexBuilder } {
  const builder = new HostIndexBuilder()
  for (const n of names) builder.add(enc.encode(n))
  return { index: builder.build(), builder }
}

describe('HostIndex', () => {
  it('finds names by bytes, ASCII case ignored on the asking side', () => {
    const { index } = build(['example.com', '[::1]', 'bücher.de', 'a'])
    const find = (s: string) => {
      const b = enc.encode(`xx${s}yy`)
      return index.find(b, 2, b.length - 2)
    }
    expect(find('example.com')).toBe(0)
    expect(find('EXAMPLE.Com')).toBe(0)
    expect(find('[::1]')).toBe(1)
    expect(find('bücher.de')).toBe(2)
    expect(find('a')).toBe(3)
    expect(find('example.co')).toBe(-1)
    expect(find('')).toBe(-1)
    expect(index.name(2)).toBe('bücher.de')
    expect(index.count).toBe(4)
  })

  it('leaves out names that can never be asked for, and counts duplicates', () => {
    const builder = new HostIndexBuilder()
    expect(builder.add(enc.encode('Upper.com'))).toBe(-1)
    expect(builder.add(enc.encode(''))).toBe(-1)
    expect(builder.add(enc.encode('a\nb'))).toBe(-1)
    expect(builder.add(enc.encode('x.test'))).toBe(0)
    expect(builder.add(enc.encode('x.test'))).toBe(1)
    const index = builder.build()
    expect(builder.duplicates).toBe(1)
    const b = enc.encode('x.test')
    expect(index.find(b, 0, b.length)).toBe(0)
    expect(isIndexableName(enc.encode('ok.test'))).toBe(true)
  })

  it('agrees with a Set on random names, with and without the hash given (the URL scan\'s)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z0-9.-]{1,12}$/), { maxLength: 200 }), fc.array(fc.stringMatching(/^[a-zA-Z0-9.-]{0,12}$/), { maxLength: 50 }), (names, asked) => {
        const { index } = build(names)
        const set = new Map(names.map((n, i) => [n, i]))
        for (const q of [...names, ...asked]) {
          const b = enc.encode(q)
          const want = set.get(q.toLowerCase()) ?? -1
          expect(index.find(b, 0, b.length)).toBe(want)
          expect(index.find(b, 0, b.length, hostHash(b, 0, b.length))).toBe(want)
        }
      }),
    )
  })

  it('rebuilds from its arrays (as a worker thread does) and shares them', () => {
    const { index } = build(['a.test', 'b.test'])
    const copy = HostIndex.fromData(index.data)
    const b = enc.encode('B.TEST')
    expect(copy.find(b, 0, b.length)).toBe(1)
    expect(copy.data.names.buffer).toBe(index.data.names.buffer)
    expect(index.data.names.buffer).toBeInstanceOf(SharedArrayBuffer)
  })
})
