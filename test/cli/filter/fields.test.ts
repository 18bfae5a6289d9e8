// Log columns: --field, --host-field, --delimiter.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FieldKind, findField, parseDelimiter, requestTarget, unquoteCsv, WHITESPACE } from '../../../src/cli/filter/fields.js'
import { newUrlRecord, scanHostField, UrlField } from '../../../src/url/url-scan.js'

const enc = new TextEncoder()

function field(line: string, n: number, delimiter = WHITESPACE): string | null {
  const b = enc.encode(line)
  const out = new Int32Array(2)
  return findField(b, 0, b.length, n, delimiter, out, 0) !== FieldKind.None ? Buffer.from(b.subarray(out[0], out[1])).toString() : null
}

function target(text: string): string | null {
  const b = enc.encode(text)
  const out = new Int32Array(2)
  return requestTarget(b, 0, b.length, out, 0) ? Buffer.from(b.subarray(out[0], out[1])).toString() : null
}

describe('findField', () => {
  const log = 'www.example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x?y=1 HTTP/1.1" 200 512 "-" "Mozilla/5.0"'
  it('whitespace runs separate columns, as awk splits them; quoted and bracketed text is one column', () => {
    expect(field(log, 1)).toBe('www.example.com:443')
    expect(field(log, 5)).toBe('10/Oct/2026:13:55:36 +0000')
    expect(field(log, 6)).toBe('GET /private/x?y=1 HTTP/1.1')
    expect(field(log, 7)).toBe('200')
    expect(field(log, 9)).toBe('-')
    expect(field(log, 10)).toBe('Mozilla/5.0')
    expect(field(log, 11)).toBeNull()
    expect(field('  a \t\t b  ', 1)).toBe('a')
    expect(field('  a \t\t b  ', 2)).toBe('b')
    expect(field('  a \t\t b  ', 3)).toBeNull()
    expect(field('', 1)).toBeNull()
  })

  it('a delimiter byte separates every column, empty ones included, as cut -d splits them', () => {
    expect(field('a,,c', 2, 0x2c)).toBe('')
    expect(field('a,,c', 3, 0x2c)).toBe('c')
    expect(field('a,,c', 4, 0x2c)).toBeNull()
    expect(field('a\tb c\td', 2, 0x09)).toBe('b c')
    expect(field('', 1, 0x2c)).toBe('')
  })

  it('--delimiter takes one byte or \\t', () => {
    expect(parseDelimiter(',')).toBe(0x2c)
    expect(parseDelimiter('\\t')).toBe(9)
    expect(parseDelimiter('tab')).toBe(9)
    expect(parseDelimiter('\t')).toBe(9)
    expect(parseDelimiter('ab')).toBeUndefined()
    expect(parseDelimiter('é')).toBeUndefined()
    expect(parseDelimiter('\n')).toBeUndefined()
  })
})

describe('quoted columns', () => {
  it('a quote closes before a blank or the line end; a backslash escapes; without a closing quote the column is read as unquoted', () => {
    expect(field('"a b" c', 1)).toBe('a b')
    expect(field('"a b" c', 2)).toBe('c')
    expect(field('"a\\" b" c', 1)).toBe('a\\" b')
    expect(field('"a"b c" d', 1)).toBe('a"b c')
    expect(field('"a b', 1)).toBe('"a')
    expect(field('"a b', 2)).toBe('b')
    expect(field('""', 1)).toBe('')
    expect(field('x "" y', 3)).toBe('y')
    expect(field('[a b] [c', 1)).toBe('a b')
    expect(field('[a b] [c', 2)).toBe('[c')
    expect(field('[::1]:80 x', 1)).toBe('[::1]:80')
    expect(field('a"b c"', 1)).toBe('a"b')
  })

  it('with a delimiter, a quoted column runs to a quote before the delimiter (CSV)', () => {
    expect(field('"a,b",c', 1, 0x2c)).toBe('a,b')
    expect(field('"a,b",c', 2, 0x2c)).toBe('c')
    expect(field('x,"y "" z",w', 2, 0x2c)).toBe('y "" z')
    expect(field('x,"y', 2, 0x2c)).toBe('"y')
    expect(field('[a,b]', 1, 0x2c)).toBe('[a')
  })

  it('regression: a CSV column\'s "" was judged as two quotes ("/p""x" as /p""x, not /p"x), and a backslash before its closing quote kept it open', () => {
    // RFC 4180, as Python's csv reads these lines: a pair "" inside quotes is one quote, a backslash is a byte.
    const csv = (line: string, n: number): string | null => {
      const b = enc.encode(line)
      const out = new Int32Array(2)
      const kind = findField(b, 0, b.length, n, 0x2c, out, 0)
      if (kind === FieldKind.None) return null
      const u = kind === FieldKind.Quoted ? unquoteCsv(b, out[0], out[1]) : undefined
      return Buffer.from(u ?? b.subarray(out[0], out[1])).toString()
    }
    expect(csv('1,"/p""x",2', 2)).toBe('/p"x')
    expect(csv('1,"/q\\",2', 2)).toBe('/q\\')
    expect(csv('1,"/q\\",2', 3)).toBe('2')
    expect(csv('"a"",b",/c,3', 1)).toBe('a",b')
    expect(csv('"a"",b",/c,3', 2)).toBe('/c')
    expect(csv('1,"/p"",x""",2', 2)).toBe('/p",x"')
    expect(csv('1,"""/p""",2', 2)).toBe('"/p"')
    expect(csv('1,"",2', 2)).toBe('')
    expect(csv('1,"/p""', 2)).toBe('"/p""')
    // After a quote that never closes, a later column's own first run of quotes still closes it.
    expect(csv('"a,"",x', 2)).toBe('')
    expect(csv('"a,"",x', 3)).toBe('x')
  })

  it('reports whether the column was quoted', () => {
    const b = enc.encode('a "b c"')
    const out = new Int32Array(2)
    expect(findField(b, 0, b.length, 1, WHITESPACE, out, 0)).toBe(FieldKind.Plain)
    expect(findField(b, 0, b.length, 2, WHITESPACE, out, 0)).toBe(FieldKind.Quoted)
    expect(findField(b, 0, b.length, 3, WHITESPACE, out, 0)).toBe(FieldKind.None)
  })
})

describe('requestTarget', () => {
  it('takes the target of METHOD SP target [SP HTTP/version]', () => {
    expect(target('GET /a?b=1 HTTP/1.1')).toBe('/a?b=1')
    expect(target('POST http://example.com/x HTTP/2.0')).toBe('http://example.com/x')
    expect(target('GET /a')).toBe('/a')
    expect(target('M-SEARCH * HTTP/1.1')).toBe('*')
    expect(target('GET /a b HTTP/1.1')).toBe('/a b')
    expect(target('GET /a b')).toBe('/a b')
  })

  it('is not fooled by what logs hold instead of a request line', () => {
    expect(target('-')).toBeNull()
    expect(target('GET')).toBeNull()
    expect(target('GET ')).toBeNull()
    expect(target('get /a HTTP/1.1')).toBeNull()
    expect(target('\x16\x03\x01\x02\x00\x01\x00')).toBeNull()
    expect(target(' /a HTTP/1.1')).toBeNull()
    // A doubled blank leaves no path to judge.
    expect(target('GET  HTTP/1.1')?.startsWith('/')).toBeFalsy()
  })

  it('regression: spaces around the target were part of it (GET /p  HTTP/1.1 judged as "/p ", which Disallow: /p$ does not match)', () => {
    // A run of spaces separates the parts, as nginx reads them (RFC 9112 §3): the target nginx served.
    expect(target('GET /p  HTTP/1.1')).toBe('/p')
    expect(target('GET  /p HTTP/1.1')).toBe('/p')
    expect(target('GET   /p   HTTP/1.1')).toBe('/p')
    expect(target('GET /p ')).toBe('/p')
    expect(target('GET  /a b  HTTP/1.1')).toBe('/a b')
    expect(target('GET   ')).toBeNull()
  })
})

describe('scanHostField', () => {
  function host(text: string): string | null {
    const b = enc.encode(text)
    const out = newUrlRecord()
    return scanHostField(b, 0, b.length, out) ? Buffer.from(b.subarray(out[UrlField.HostStart], out[UrlField.HostEnd])).toString() : null
  }
  it('takes a host, host:port, [v6]:port, or a URL', () => {
    expect(host('example.com')).toBe('example.com')
    expect(host('Example.com:8080')).toBe('Example.com')
    expect(host('[::1]:80')).toBe('[::1]')
    expect(host('https://user@a.test:1/x')).toBe('a.test')
    expect(host('')).toBeNull()
    expect(host(':80')).toBeNull()
    expect(host('[::1')).toBeNull()
    expect(host('-')).toBe('-')
  })
})

describe('regression: a line of columns that open a quote or bracket and never close it was read once per column (quadratic)', () => {
  /** findField as it was: every column's closing byte searched to the line's end (a CSV column's: runs of quotes, an odd one before D or the end closes). */
  function naive(bytes: Uint8Array, n: number, delimiter: number): [FieldKind, number, number] {
    const closing = (open: number): number => {
      if (delimiter !== WHITESPACE) {
        for (let p = open + 1; p < bytes.length; ) {
          if (bytes[p] !== 0x22) {
            p++
            continue
          }
          const run = p
          while (p < bytes.length && bytes[p] === 0x22) p++
          if ((p - run) % 2 === 1 && (p === bytes.length || bytes[p] === delimiter)) return p - 1
        }
        return -1
      }
      const close = bytes[open] === 0x22 ? 0x22 : 0x5d
      for (let p = open + 1; p < bytes.length; p++) {
        if (bytes[p] === 0x5c && close === 0x22) {
          p++
          continue
        }
        if (bytes[p] !== close) continue
        if (p + 1 === bytes.length) return p
        const next = bytes[p + 1]
        if (delimiter === WHITESPACE ? next === 0x20 || next === 0x09 : next === delimiter) return p
      }
      return -1
    }
    let p = 0
    const end = bytes.length
    for (let k = 1; ; k++) {
      if (delimiter === WHITESPACE) {
        while (p < end && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++
        if (p >= end) return [FieldKind.None, 0, 0]
      }
      const s = p
      const b = bytes[p]
      const close = p < end && (b === 0x22 || (b === 0x5b && delimiter === WHITESPACE)) ? closing(p) : -1
      if (close >= 0) p = close + 1
      else while (p < end && (delimiter === WHITESPACE ? bytes[p] !== 0x20 && bytes[p] !== 0x09 : bytes[p] !== delimiter)) p++
      if (k === n) return close >= 0 ? [FieldKind.Quoted, s + 1, close] : [FieldKind.Plain, s, p]
      if (delimiter !== WHITESPACE) {
        if (p >= end) return [FieldKind.None, 0, 0]
        p++
      }
    }
  }

  it('each column is found as before, whatever the quotes, brackets, backslashes and separators (seeded)', () => {
    const line = fc.array(fc.constantFrom('"', '[', ']', '\\', ' ', '\t', ',', 'a', '""', '\\"'), { maxLength: 24 }).map((parts) => enc.encode(parts.join('')))
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 14 }), fc.constantFrom(WHITESPACE, 0x2c, 0x09, 0x5c, 0x22), (bytes, n, delimiter) => {
        const out = new Int32Array(2)
        const kind = findField(bytes, 0, bytes.length, n, delimiter, out, 0)
        const [k, s, e] = naive(bytes, n, delimiter)
        expect(kind).toBe(k)
        if (kind !== FieldKind.None) expect([out[0], out[1]]).toEqual([s, e])
      }),
      { seed: 4141, numRuns: 20_000 },
    )
  })
})
