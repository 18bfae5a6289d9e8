/**
 * compare's case files and URL lists saved as UTF-16 or UTF-32: each line's
 * symptom was told ("not JSON (Expected property name…)", "not valid
 * UTF-8", "3 lines … are not a URL: \u0000h\u0000t…"); the file is now
 * refused naming its encoding and the conversion to make.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readJsonlCases } from '../../../src/compare/cases/jsonl-cases.js'
import { readUrlList } from '../../../src/compare/cases/corpus-files.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-wide-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const CASE = `${JSON.stringify({ robots: 'User-agent: *\nDisallow: /x\n', agent: 'bot', url: 'https://a.test/x' })}\n`

describe('regression: a UTF-16 case file or URL list was refused for a symptom of its lines', () => {
  it('a case file, with a byte order mark or without', async () => {
    const bom = join(dir, 'bom.jsonl')
    const bare = join(dir, 'bare.jsonl')
    writeFileSync(bom, Buffer.from(`\ufeff${CASE}`, 'utf16le'))
    writeFileSync(bare, Buffer.from(CASE, 'utf16le').swap16())
    await expect(readJsonlCases(bom)).rejects.toThrow(`${bom}:1: UTF-16LE text, but a case file is read as UTF-8: convert it (iconv -f UTF-16 -t UTF-8)`)
    await expect(readJsonlCases(bare)).rejects.toThrow(`${bare}:1: UTF-16BE text without a byte order mark, but a case file is read as UTF-8`)
    // UTF-8 (with its BOM) still reads.
    const utf8 = join(dir, 'utf8.jsonl')
    writeFileSync(utf8, `\ufeff${CASE}`)
    expect(await readJsonlCases(utf8)).toHaveLength(1)
  })

  it('a URL list', () => {
    const file = join(dir, 'urls.txt')
    writeFileSync(file, Buffer.from('\ufeffhttps://a.test/x\nhttps://a.test/y\n', 'utf16le'))
    expect(() => readUrlList(file)).toThrow(`--urls '${file}': UTF-16LE text, but a URL list is read as UTF-8: convert it (iconv -f UTF-16 -t UTF-8)`)
  })
})
