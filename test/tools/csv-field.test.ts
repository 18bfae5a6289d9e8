/**
 * The one CSV field of the tools (audit's rows, compare --csv): no cell a
 * spreadsheet runs as a formula, every value had back by undoing the escapes.
 */
import { describe, expect, it } from 'vitest'
import { csvField } from '../../src/tools/csv-field.js'

function unescape(s: string): string {
  const unquoted = s.startsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s
  return unquoted.replace(/\\(\\|x([0-9a-f]{2})|u\{([0-9a-f]+)\})/g, (_, e: string, x?: string, u?: string) => (e === '\\' ? '\\' : String.fromCodePoint(parseInt((x ?? u)!, 16))))
}

describe('csv formula cells', () => {
  it('a first = + - @ of a value that is not a number is written \\xHH; numbers, and the rest, as they are', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\\x3dHYPERLINK(""http://x"",""y"")"')
    expect(csvField('+1+2')).toBe('\\x2b1+2')
    expect(csvField('-x')).toBe('\\x2dx')
    expect(csvField('@SUM(A1)')).toBe('\\x40SUM(A1)')
    expect(csvField('\t=1')).toBe('\\x09=1')
    expect(csvField('\r=1')).toBe('\\x0d=1')
    for (const n of ['-1', '+1', '-0.5', '1e5', '-2E-3', '0.3384', '200']) expect(csvField(n)).toBe(n)
    expect(csvField(-1)).toBe('-1')
    expect(csvField('a=b,c')).toBe('"a=b,c"')
  })

  it('every value comes back whole: lone surrogates, NUL, line breaks, a literal \\x3d', () => {
    for (const v of ['=1', '\\x3d1', '-', '@', 'a\u0000b\ud800c\r\nd', '"q",', '\u202e=x', '==']) {
      const f = csvField(v)
      expect(f).not.toMatch(/^"?[=+@]|^"?-(?![\d.])|[\r\n\u0000]/)
      expect(unescape(f), v).toBe(v)
    }
  })
})
