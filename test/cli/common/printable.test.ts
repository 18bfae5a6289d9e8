// Terminal escape injection (issue 13, item 10): what the CLI prints from input is escaped.
import { describe, expect, it } from 'vitest'
import { jsonLine, printable } from '../../../src/tools/printable.js'

describe('printable', () => {
  it('escapes C0, DEL, C1, line separators and bidirectional controls; keeps the rest', () => {
    expect(printable('a\x1b]0;pwned\x07b')).toBe('a\\x1b]0;pwned\\x07b')
    expect(printable('x\ry\nz\t')).toBe('x\\x0dy\\x0az\\x09')
    expect(printable('\x7f\x9b2J')).toBe('\\x7f\\x9b2J')
    expect(printable('abc\u202edcba\u2066')).toBe('abc\\u{202e}dcba\\u{2066}')
    expect(printable('bücher.de/ü/€/😀')).toBe('bücher.de/ü/€/😀')
  })
})

describe('jsonLine', () => {
  it('is JSON with the same value, and nothing a terminal acts on', () => {
    const value = { s: 'a\x1b[2J\x9b\u2028\u202eb', n: 1 }
    const line = jsonLine(value)
    expect(JSON.parse(line)).toEqual(value)
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
  })
})
