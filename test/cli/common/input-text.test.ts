/**
 * Bytes of input shown in outputs and messages: a byte order mark that
 * starts a line (files joined with `cat`) is kept, not dropped as a
 * decoder drops it; a byte that is not UTF-8 is `\xHH` in text outputs,
 * not U+FFFD (which every such byte alike would become).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inputText, printableBytes } from '../../../src/tools/input-text.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

/** Undoes printableValue's escapes, to bytes (`\xHH` a byte, `\u{…}` a character's UTF-8). */
function unescapeBytes(s: string): Buffer {
  const parts: Buffer[] = []
  let last = 0
  for (const m of s.matchAll(/\\(\\|x([0-9a-f]{2})|u\{([0-9a-f]+)\})/g)) {
    parts.push(Buffer.from(s.slice(last, m.index), 'utf8'))
    if (m[1] === '\\') parts.push(Buffer.from('\\'))
    else if (m[2] !== undefined) parts.push(Buffer.from([parseInt(m[2], 16)]))
    else parts.push(Buffer.from(String.fromCodePoint(parseInt(m[3]!, 16)), 'utf8'))
    last = m.index! + m[0].length
  }
  parts.push(Buffer.from(s.slice(last), 'utf8'))
  return Buffer.concat(parts)
}

const tmp = tempDir()
const BOM = '\xef\xbb\xbf'
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1')
beforeAll(() => {
  ensureBuilt()
  writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /private\nDisallow: /caf\n')
  writeFileSync(tmp.path('r2.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp.cleanup())

describe('inputText and printableBytes', () => {
  it('keep a leading BOM, and printableBytes loses no byte', () => {
    expect(inputText(latin1(`${BOM}/a`))).toBe('\ufeff/a')
    const cases = [`${BOM}/a`, '/caf\xe9', '/\xc3\xa9\xc3', '\xed\xa0\x80/surrogate', '\xf4\x90\x80\x80', '\\xe9 \xe9', '/\x00\x1b[2J', '\xe0\x80\xaf', '/\xf0\x9f\x98\x80']
    for (const c of cases) {
      const shown = printableBytes(latin1(c))
      expect(shown).not.toMatch(/[\u0000-\u001f\ufffd\ufeff]/)
      expect(unescapeBytes(shown).toString('latin1')).toBe(c)
    }
    expect(printableBytes(latin1('/caf\xe9'))).toBe('/caf\\xe9')
    expect(printableBytes(latin1('/caf\xe9\\'), false)).toBe('/caf\\xe9\\')
  })
})

describe('a line that starts with a BOM, or holds bytes that are not UTF-8', () => {
  // Two files joined: the second one's BOM starts line 3.
  const urls = latin1(`https://a.com/caf\xe9\nhttps://a.com/\\xe9\n${BOM}https://a.com/private\n`)

  it("check's lines keep each byte: \\xHH for one that is not UTF-8, the BOM as \\u{feff}", async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A', '-q'], { input: urls })
    expect(r.stdout.toString()).toBe(
      'disallowed\thttps://a.com/caf\\xe9\tline 3: Disallow: /caf\n' +
        'allowed\thttps://a.com/\\\\xe9\tno matching rule\n' +
        // The reference reads the path /private of this line.
        'disallowed\t\\u{feff}https://a.com/private\tline 2: Disallow: /private\n',
    )
  })

  it("check's JSON keeps the BOM in url", async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A', '-q', '--json'], { input: urls })
    const records = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; url_base64?: string })
    expect(Buffer.from(records[0].url_base64!, 'base64').toString('latin1')).toBe('https://a.com/caf\xe9')
    expect(records[2].url).toBe('\ufeffhttps://a.com/private')
  })

  it("filter's JSON keeps the BOM of a line it does not judge, and its warning shows it", async () => {
    const r = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A', '--format', 'jsonl'], { input: urls })
    const records = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; reason?: string })
    expect(records[2]).toMatchObject({ url: '\ufeffhttps://a.com/private', reason: 'not-url' })
    expect(r.stderr).toContain('line 3 of \'<stdin>\' was not judged')
    expect(r.stderr).toContain(': \\u{feff}https://a.com/private;')
  })

  it("diff's lines keep each byte", async () => {
    const r = await run(['diff', tmp.path('r2.txt'), tmp.path('r.txt'), '--agent', 'A', '-q'], { input: urls })
    expect(r.stdout.toString()).toBe('now-disallowed\thttps://a.com/caf\\xe9\tno matching rule\tline 3: Disallow: /caf\n')
  })
})

describe('regression: lint of a directory showed a file name that is not UTF-8 with U+FFFD, in JSON too', () => {
  it('text lines and the summary show its bytes (\\xHH); JSON adds source_base64', async () => {
    const dir = tmp.path('lint')
    mkdirSync(dir)
    const name = Buffer.concat([Buffer.from(`${dir}/n`), Buffer.from([0xe9]), Buffer.from('.txt')])
    writeFileSync(name, 'User-agent: *\nDisallow: private\n')
    const text = await run(['lint', dir])
    expect(text.stdout.toString()).toBe(`${dir}/n\\xe9.txt:2: error: pattern does not start with "/" or "*": it can never match a path: "private" [pattern-start]\n`)
    expect(text.stderr).toContain(`robots-automaton: ${dir}/n\\xe9.txt: 1 error,`)
    const json = await run(['lint', dir, '--json', '-q'])
    const report = JSON.parse(json.stdout.toString()) as { source: string; source_base64: string }
    expect(Buffer.from(report.source_base64, 'base64').equals(name)).toBe(true)
  })
})
