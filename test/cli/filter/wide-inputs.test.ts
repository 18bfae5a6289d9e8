/**
 * URL lists, logs and crawler lists that are no UTF-8 text a line can be
 * read from: saved as UTF-16 (an editor's "Unicode", a PowerShell
 * redirection), or files joined with `cat` whose second one starts with a
 * byte order mark. Their lines were named as lines without a URL with the
 * hint "is this a log? try --log-format combined"; a UTF-16 crawler list
 * without a mark ran with crawlers named by NUL-laced tokens. Now the hint
 * names what the bytes are and how to convert them, and such a crawler
 * list is a usage error.
 */
import { writeFileSync } from 'node:fs'
import { deflateRawSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCrawlers } from '../../../src/cli/common/crawlers-option.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
const URLS = 'https://a.test/private\nhttps://a.test/public\n'
beforeAll(() => {
  ensureBuilt()
  writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /private\n')
  writeFileSync(tmp.path('u16.txt'), Buffer.from(`\ufeff${URLS}`, 'utf16le'))
  writeFileSync(tmp.path('joined.txt'), Buffer.concat([Buffer.from(URLS), Buffer.from(`\ufeff${URLS}`)]))
  writeFileSync(tmp.path('crawlers16.txt'), Buffer.from('googlebot\nbingbot\n', 'utf16le'))
  writeFileSync(tmp.path('crawlers16bom.txt'), Buffer.from('\ufeffgooglebot\nbingbot\n', 'utf16le').swap16())
})
afterAll(() => tmp.cleanup())

describe('regression: a UTF-16 URL list, or a line starting with a BOM, got the hint "is this a log?"', () => {
  it('a UTF-16 URL list: the hint names UTF-16 and the conversion', async () => {
    const r = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A', tmp.path('u16.txt')])
    expect(r.status).toBe(4)
    expect(r.stderr).toContain("line 1 of '" + tmp.path('u16.txt') + "' was not judged: it holds no URL (http:// or https://) or path (/…): \\xff\\xfeh\\x00t\\x00")
    expect(r.stderr).toContain('; the input looks like UTF-16 text, but lines are read as UTF-8: convert it (iconv -f UTF-16 -t UTF-8);')
    expect(r.stderr).not.toContain('is this a log?')
  })

  it('a line of joined files that starts with a BOM: the hint says so', async () => {
    const r = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A', '--print', 'verdicts', tmp.path('joined.txt')])
    expect(r.stdout.toString()).toBe(`disallowed\t2\thttps://a.test/private\nallowed\t0\thttps://a.test/public\ninvalid\t0\t\ufeffhttps://a.test/private\nallowed\t0\thttps://a.test/public\n`)
    expect(r.stderr).toContain(": \\u{feff}https://a.test/private; a byte order mark starts it (files joined with cat?): remove it (sed 's/^\\xEF\\xBB\\xBF//');")
  })
})

describe('regression: pack of UTF-16 JSON lines said "not JSON (Unexpected token…)"', () => {
  it('names UTF-16 and the conversion', async () => {
    const file = tmp.path('p16.jsonl')
    writeFileSync(file, Buffer.from(`${JSON.stringify({ origin: 'https://a.test', body: 'User-agent: *\nDisallow: /\n' })}\n`, 'utf16le'))
    const r = await run(['pack', file, '-o', tmp.path('p.bundle')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read '${file}' line 1: UTF-16LE text without a byte order mark, but JSON is read as UTF-8: convert it (iconv -f UTF-16 -t UTF-8)\n`)
  })
})

describe('regression: a UTF-16 crawler list without a byte order mark ran with NUL-laced crawlers', () => {
  it('is a usage error naming the encoding, with a byte order mark or without', () => {
    expect(() => parseCrawlers([`@${tmp.path('crawlers16.txt')}`])).toThrow(
      `--crawlers @${tmp.path('crawlers16.txt')}: UTF-16LE text without a byte order mark, but a crawler list is read as UTF-8: convert it (iconv -f UTF-16 -t UTF-8)`,
    )
    expect(() => parseCrawlers([`@${tmp.path('crawlers16bom.txt')}`])).toThrow(`: UTF-16BE text, but a crawler list is read as UTF-8`)
  })
})

describe('regression: JSON lines (a JSON access log, filter\'s own --format jsonl) got the hint "is this a log? try --log-format combined"', () => {
  it('the hint says it is a JSON object and how jq takes its URL out', async () => {
    const input = '{"url":"https://a.test/private","allowed":false}\n'
    const r = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A'], { input })
    expect(r.status).toBe(4)
    expect(r.stderr).toContain(`: ${input.trim()}; it is a JSON object: take its URL out first (jq -r '.url'); lines without a URL are written out unjudged (--invalid keep)`)
    const log = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A', '--log-format', 'combined', '-q'], { input: '{"time":"x","request":"GET /private HTTP/1.1","status":200}\n' })
    expect(log.stderr).toContain(`it is a JSON object: take its URL out first (jq -r '.request | split(" ")[1]')`)
    const none = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', 'A', '-q'], { input: '{"a":1}\n' })
    expect(none.stderr).toContain(`it is a JSON object: take its URL out first (jq -r '.FIELD')`)
  })
})

describe('regression: raw deflate (or other binary data) given as a .gz got the hint "is this a log?"', () => {
  it('the hint says its bytes are no text; a line of Latin-1 text is no binary data', async () => {
    const { faultSample, faultNote } = await import('../../../src/cli/filter/line-faults.js')
    const { LineLocator, LineFault } = await import('../../../src/cli/filter/line-locator.js')
    const { WHOLE_LINES } = await import('../../../src/cli/filter/line-layout.js')
    const locator = new LineLocator(WHOLE_LINES, false)
    const note = (bytes: Uint8Array) => faultNote(faultSample(LineFault.NotUrl, 'in.gz', 1, bytes, 0, bytes.length, locator), WHOLE_LINES, '')
    const deflated = deflateRawSync('https://a.test/private\n')
    expect(note(deflated)).toContain('; its bytes are no text: binary data, or compressed in a format whose start says nothing (raw deflate?): decompress it first;')
    expect(note(Buffer.from('caf\xe9 \x01', 'latin1'))).toContain('its bytes are no text')
    expect(note(Buffer.from('caf\xe9', 'latin1'))).toContain('is this a log?')
  })
})

describe('regression: a blank line of a URL list was quoted as "it is empty: ;" with the hint "is this a log? try --log-format combined"', () => {
  it('says the line is blank, with no quote and no hint, whatever option lays the lines out', async () => {
    const { faultSample, faultNote, noUrlMessage } = await import('../../../src/cli/filter/line-faults.js')
    const { LineLocator, LineFault } = await import('../../../src/cli/filter/line-locator.js')
    const { WHOLE_LINES } = await import('../../../src/cli/filter/line-layout.js')
    const locator = new LineLocator(WHOLE_LINES, false)
    for (const text of ['', '  \t']) {
      const bytes = Buffer.from(text)
      const sample = faultSample(LineFault.Empty, 'urls.txt', 2, bytes, 0, bytes.length, locator)
      expect(faultNote(sample, WHOLE_LINES, 'such lines are not compared')).toBe("warning: line 2 of 'urls.txt' was not judged: it is blank; such lines are not compared")
      expect(noUrlMessage(2, false, sample, WHOLE_LINES, false)).toBe("no line of the input held a URL (2 lines read): line 2 of 'urls.txt' was not judged: it is blank")
    }
    // A line with text but an empty URL column keeps its quote and its hint.
    const csv = Buffer.from('a,,b')
    expect(faultNote(faultSample(LineFault.Empty, 'log.csv', 1, csv, 0, csv.length, locator), { ...WHOLE_LINES, url: 2 }, '')).toContain(': a,,b; check --field and --delimiter')
  })
})
