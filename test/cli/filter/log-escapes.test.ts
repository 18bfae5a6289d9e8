// A logged request target's escapes undone (src/cli/filter/log-escapes.ts): Apache's, nginx's default and its escape=json.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { unescapeLogged } from '../../../src/cli/filter/log-escapes.js'

const enc = new TextEncoder()

function undo(text: string): number[] | undefined {
  const b = enc.encode(text)
  const out = unescapeLogged(b, 0, b.length)
  return out === undefined ? undefined : [...out]
}

const bytes = (text: string): number[] => [...Buffer.from(text, 'latin1')]

describe('unescapeLogged', () => {
  it('a target without a backslash is its own text (undefined: nothing to copy)', () => {
    expect(undo('/a"b%20c')).toBeUndefined()
    const b = enc.encode('x\\"y /plain')
    expect(unescapeLogged(b, 4, b.length)).toBeUndefined()
  })

  it('looks only within its range, never on to the block\'s end (a block of lines stays linear)', () => {
    const block = enc.encode(`${'/a\n'.repeat(10_000)}\\`)
    const { indexOf } = Uint8Array.prototype
    let calls = 0
    Uint8Array.prototype.indexOf = function (this: Uint8Array, ...args: [number, number?]) {
      calls++
      return indexOf.apply(this, args)
    }
    try {
      for (let p = 0; p + 3 <= block.length; p += 3) expect(unescapeLogged(block, p, p + 2)).toBeUndefined()
    } finally {
      Uint8Array.prototype.indexOf = indexOf
    }
    expect(calls).toBe(0)
  })

  it("Apache's escapes: \\\" \\\\ \\b \\n \\r \\t \\v and \\xhh", () => {
    expect(undo('/a\\"b\\\\c')).toEqual(bytes('/a"b\\c'))
    expect(undo('/\\b\\n\\r\\t\\v')).toEqual([0x2f, 8, 10, 13, 9, 11])
    expect(undo('/caf\\xc3\\xa9')).toEqual([...enc.encode('/café')])
  })

  it("nginx's \\xHH (capitals) and escape=json's \\f and \\u00HH", () => {
    expect(undo('/a\\x22b\\x5Cc\\xE9')).toEqual(bytes('/a"b\\c\xe9'))
    expect(undo('/\\f\\u001f\\u0041')).toEqual([0x2f, 12, 0x1f, 0x41])
  })

  it('a backslash before anything else stays as written (a log that does not escape); one that ends the text too', () => {
    expect(undo('/a\\q\\x4\\xZZ\\u12\\')).toEqual(bytes('/a\\q\\x4\\xZZ\\u12\\'))
    // \\ is one backslash, read first: \\x41 is \ then x41.
    expect(undo('/\\\\x41')).toEqual(bytes('/\\x41'))
  })

  it('undoes what Apache and nginx write, for any bytes (seeded)', () => {
    const apache = (b: Uint8Array): string => [...b].map((c) => (c === 0x22 ? '\\"' : c === 0x5c ? '\\\\' : c === 9 ? '\\t' : c < 0x20 || c >= 0x7f ? `\\x${c.toString(16).padStart(2, '0')}` : String.fromCharCode(c))).join('')
    const nginx = (b: Uint8Array): string => [...b].map((c) => (c === 0x22 || c === 0x5c || c < 0x20 || c >= 0x7f ? `\\x${c.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(c))).join('')
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(apache, nginx), (raw, escape) => {
        const logged = escape(raw)
        const b = enc.encode(`"GET ${logged}`)
        const out = unescapeLogged(b, 5, b.length)
        expect(out === undefined ? [...b.subarray(5)] : [...out]).toEqual([...raw])
      }),
      { seed: 41, numRuns: 2000 },
    )
  })
})
