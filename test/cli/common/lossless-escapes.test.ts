/**
 * Text and CSV outputs that escape control characters as `\xHH` escape the
 * backslash too (`\\`), so a value holding the four characters `\x09` reads
 * apart from one holding a tab, and a reader can undo the escapes.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printableValue } from '../../../src/tools/printable.js'
import { csvField } from '../../../src/tools/csv-field.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

/** Undoes printableValue's escapes. */
function unescape(s: string): string {
  return s.replace(/\\(\\|x([0-9a-f]{2})|u\{([0-9a-f]+)\})/g, (_, e: string, x?: string, u?: string) =>
    e === '\\' ? '\\' : String.fromCodePoint(parseInt((x ?? u)!, 16)),
  )
}

const tmp = tempDir()
beforeAll(() => {
  ensureBuilt()
  writeFileSync(tmp.path('a.txt'), 'User-agent: *\nDisallow: /p\\x09\n')
  writeFileSync(tmp.path('b.txt'), 'User-agent: *\nDisallow: /q\n')
})
afterAll(() => tmp.cleanup())

describe('a backslash in escaped output is itself escaped', () => {
  it('printableValue is lossless', () => {
    for (const s of ['/p\\x09b', '/p\tb', 'a\\\\x1b\x1b\\', 'c:\\dir\\u{202e}\u202e']) expect(unescape(printableValue(s))).toBe(s)
    expect(printableValue('/p\\x09b')).not.toBe(printableValue('/p\tb'))
  })

  it("audit's CSV fields tell a literal \\x09 from a tab", () => {
    expect(csvField('/p\\x09b')).toBe('/p\\\\x09b')
    expect(csvField('/p\tb')).toBe('/p\\x09b')
  })

  it("check's lines tell a literal \\x09 from a tab, in the URL and the rule", async () => {
    const r = await run(['check', tmp.path('a.txt'), '--agent', 'A', '/p\\x09b', '/p\tb'])
    expect(r.stdout.toString()).toBe('disallowed\t/p\\\\x09b\tline 2: Disallow: /p\\\\x09\nallowed\t/p\\x09b\tno matching rule\n')
  })

  it("diff's lines tell a literal \\x09 from a tab", async () => {
    const r = await run(['diff', tmp.path('a.txt'), tmp.path('b.txt'), '--agent', 'A'], { input: '/p\\x09b\n' })
    expect(r.stdout.toString()).toBe('now-allowed\t/p\\\\x09b\tline 2: Disallow: /p\\\\x09\tno matching rule\n')
  })

  it("lint's text lines escape the backslash of a quoted value", async () => {
    writeFileSync(tmp.path('l.txt'), 'User-agent: a\\x09b c\nDisallow: /\n')
    const r = await run(['lint', tmp.path('l.txt')])
    const lines = r.stdout.toString().split('\n').filter((l) => l.includes('a\\'))
    expect(lines.length).toBeGreaterThan(0)
    for (const l of lines) expect(l).toContain('a\\\\x09b')
  })
})
