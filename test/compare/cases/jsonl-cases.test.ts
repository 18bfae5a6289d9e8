// JSONL case files: every field checked, and any body (bytes that are not UTF-8
// included) round-trips through --export and --cases FILE.jsonl.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { caseLine, parseCaseLine, readJsonlCases, writeJsonlCases } from '../../../src/compare/cases/jsonl-cases.js'
import { Oracle } from '../../../src/compare/oracle.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-jsonl-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const line = (o: unknown) => parseCaseLine(JSON.stringify(o), 'f.jsonl:1', 1, dir)

describe('JSONL cases', () => {
  it('reads the body from robots, robots_base64 or robots_path; agent as a string or an array', () => {
    writeFileSync(join(dir, 'r.txt'), Buffer.from([0x55, 0x3a, 0xff, 0x0a]))
    expect(line({ robots: 'é', agent: 'a', url: '/' })).toEqual({ id: 'line 1', robots: new Uint8Array([0xc3, 0xa9]), agents: ['a'], url: '/', source: 'f.jsonl:1' })
    expect(line({ robots_base64: '/wA=', agent: ['a', 'b'], url: '' }).robots).toEqual(new Uint8Array([0xff, 0]))
    expect(line({ robots_path: 'r.txt', agent: ['a', 'b'], url: '/' })).toMatchObject({ robots: new Uint8Array([0x55, 0x3a, 0xff, 0x0a]), agents: ['a', 'b'], source: join(dir, 'r.txt') })
    expect(line({ id: 'x', robots: '', agent: 'a', url: '/', allowed: false, line: 2, categories: ['mine'] })).toEqual({
      id: 'x', robots: new Uint8Array(0), agents: ['a'], url: '/', source: 'f.jsonl:1', stated: { allowed: false, line: 2 }, extraCategories: ['mine'],
    })
  })

  it.each([
    ['{', /f\.jsonl:1: not JSON/],
    ['[]', /a case must be a JSON object/],
    ['{"robots":"","agent":"a","url":"/","x":1}', /unknown field 'x'/],
    ['{"agent":"a","url":"/"}', /exactly one of robots, robots_base64, robots_path/],
    ['{"robots":"","robots_base64":"","agent":"a","url":"/"}', /exactly one of/],
    ['{"robots_base64":"!!","agent":"a","url":"/"}', /'robots_base64' must be base64/],
    ['{"robots_path":"missing.txt","agent":"a","url":"/"}', /cannot read robots_path 'missing.txt': no such file/],
    ['{"robots":"","agent":[],"url":"/"}', /'agent' must be a string or a non-empty array/],
    ['{"robots":"","agent":"a","url":1}', /'url' must be a string/],
    ['{"robots":"","agent":"a","url":"/","allowed":"yes"}', /'allowed' must be true or false/],
    ['{"robots":"","agent":"a","url":"/","allowed":true,"line":-1}', /'line' must be a whole number/],
    ['{"robots":"","agent":"a","url":"/","line":1}', /'line' needs 'allowed'/],
    ['{"robots":"","agent":"a","url":"/","categories":[""]}', /'categories' must be an array of non-empty strings/],
    // A lone surrogate has no UTF-8 form: an adapter in another language could not read the request.
    ['{"robots":"","agent":"a","url":"/\\ud83d"}', /'url' holds a lone surrogate/],
    ['{"robots":"","agent":["a","\\udc00b"],"url":"/"}', /'agent' holds a lone surrogate/],
    ['{"robots":"x\\ud83d","agent":"a","url":"/"}', /'robots' holds a lone surrogate: .* robots_base64/],
    ['{"id":"\\ud83d","robots":"","agent":"a","url":"/"}', /'id' must be a non-empty string \(without lone surrogates\)/],
  ])('%s is an error naming the file and line', (text, message) => {
    expect(() => parseCaseLine(text, 'f.jsonl:1', 1, dir)).toThrow(message)
  })

  it('export then import gives the same cases, byte for byte', async () => {
    const oracle = new Oracle()
    const inputs = [
      { id: 'utf8', robots: new Uint8Array(Buffer.from('User-agent: *\nDisallow: /é$\n')), agents: ['Bot'], url: 'https://a.com/é' },
      { id: 'bom+latin1', robots: new Uint8Array([0xef, 0xbb, ...Buffer.from('User-agent: *\nDisallow: /\xe9\n', 'latin1')]), agents: ['a', 'b'], url: '/%E9' },
      { id: 'empty', robots: new Uint8Array(0), agents: [''], url: '' },
    ]
    const cases = inputs.map((c) => oracle.answer(c))
    const file = join(dir, 'out.jsonl')
    await writeJsonlCases(cases, file)
    const text = readFileSync(file, 'utf8')
    expect(text.split('\n')).toHaveLength(4)
    expect(JSON.parse(text.split('\n')[1])).toMatchObject({ id: 'bom+latin1', robots_base64: Buffer.from(inputs[1].robots).toString('base64'), agent: ['a', 'b'] })
    // RFC 9309 percent-encodes the URL's é before comparing (the reference does not): another answer.
    expect(JSON.parse(text.split('\n')[0])).toMatchObject({
      robots: 'User-agent: *\nDisallow: /é$\n', allowed: true, line: 0, standard: 'rfc-differs', rfc: { allowed: false, line: 2 },
      categories: ['end-anchor', 'percent-encoding', 'non-ascii', 'ua-global-fallback', 'rfc-differs'],
    })
    const back = await readJsonlCases(file)
    expect(back.map((c) => [c.id, Buffer.from(c.robots).toString('hex'), c.agents, c.url])).toEqual(
      inputs.map((c) => [c.id, Buffer.from(c.robots).toString('hex'), c.agents, c.url]),
    )
    const again = back.map((c) => oracle.answer(c))
    expect(again.map(caseLine)).toEqual(cases.map(caseLine))
    expect(oracle.statedMismatches).toEqual([])
  })

  it('regression: a line that is not valid UTF-8 is refused, naming the line (its bytes were read as U+FFFD: another body than the one written)', async () => {
    const file = join(dir, 'latin1.jsonl')
    const good = Buffer.from('\ufeff{"id":"a","robots":"User-agent: *\\nDisallow: /caf\u00e9\\n","agent":"x","url":"/caf%C3%A9"}\r\n')
    const bad = Buffer.concat([Buffer.from('{"id":"b","robots":"User-agent: *\\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\\n","agent":"x","url":"/caf%E9"}\n')])
    writeFileSync(file, Buffer.concat([good, bad]))
    await expect(readJsonlCases(file)).rejects.toThrow(/latin1\.jsonl:2: the line is not valid UTF-8/)
    // Valid UTF-8 (a BOM, CRLF, non-ASCII text) reads as before.
    writeFileSync(file, good)
    const [c] = await readJsonlCases(file)
    expect(Buffer.from(c.robots).toString('utf8')).toBe('User-agent: *\nDisallow: /caf\u00e9\n')
    expect(c.url).toBe('/caf%C3%A9')
  })

  it('a repeated id and an unreadable file are errors', async () => {
    const file = join(dir, 'dup.jsonl')
    writeFileSync(file, '{"id":"a","robots":"","agent":"x","url":"/"}\n\n{"id":"a","robots":"","agent":"x","url":"/"}\n')
    await expect(readJsonlCases(file)).rejects.toThrow(/dup\.jsonl:3: id 'a' was already used/)
    await expect(readJsonlCases(join(dir, 'none.jsonl'))).rejects.toThrow(/cannot read case file .*none\.jsonl.*: no such file/)
  })
})
