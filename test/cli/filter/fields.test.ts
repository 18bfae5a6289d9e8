// Log columns: --field, --host-field, --delimiter.
import { describe, expect, it } from 'vitest'
import { findField, parseDelimiter, WHITESPACE } from '../../../src/cli/filter/fields.js'
import { hostOfField } from '../../../src/cli/filter/url-host.js'

const enc = new TextEncoder()

function field(line: string, n: number, delimiter = WHITESPACE): string | null {
  const b = enc.encode(line)
  const out = new Int32Array(2)
  return findField(b, 0, b.length, n, delimiter, out, 0) ? Buffer.from(b.subarray(out[0], out[1])).toString() : null
}

describe('findField', () => {
  const log = 'www.example.com:443 203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x?y=1 HTTP/1.1" 200 512 "-" "Mozilla/5.0"'
  it('whitespace runs separate columns, as awk splits them', () => {
    expect(field(log, 1)).toBe('www.example.com:443')
    expect(field(log, 8)).toBe('/private/x?y=1')
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

describe('hostOfField', () => {
  function host(text: string): string | null {
    const b = enc.encode(text)
    const out = new Int32Array(3)
    return hostOfField(b, 0, b.length, out) ? Buffer.from(b.subarray(out[0], out[1])).toString() : null
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
