// The spec-test reader: the protobuf text format on a fixture written for these
// tests (always) and on google/robotstxt-spec-test's 41 files (when ../shared has them).
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseTextFormat, specTestCases, specTestDirCases, TextFormatError } from '../../../src/compare/cases/spec-test.js'
import { Oracle } from '../../../src/compare/oracle.js'
import { describeShared, SHARED } from '../../support/shared-data.js'

const FIXTURE_DIR = resolve(__dirname, '../../data/spec-test')
const SPEC_TEST = resolve(SHARED, 'spec-test')

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))))

describe('spec-test reader: the committed fixture', () => {
  const cases = specTestDirCases(FIXTURE_DIR)

  it('reads every expectation, in file order, with its stated outcome and id', () => {
    expect(cases.map((c) => [c.id, c.agents, c.url, c.stated?.allowed])).toEqual([
      ['spec-test:fixture.textproto#1.1', ['FooBot'], 'http://example.com/private/x', false],
      ['spec-test:fixture.textproto#1.2', ['foobot'], 'http://example.com/private/ok\\n', true],
      ['spec-test:fixture.textproto#2.1', ['BarBot'], 'http://example.com/aA', false],
      ['spec-test:fixture.textproto#2.2', ['BarBot'], 'http://example.com/a', true],
      ['spec-test:fixture.textproto#3.1', ['x'], 'http://example.com/café', true],
      ['spec-test:fixture.textproto#3.2', ['x'], 'http://example.com/caf%C3%A9', false],
      ['spec-test:fixture.textproto#3.3', ['x'], "http://example.com/it's", false],
    ])
  })

  it('gives bodies as exact bytes: adjacent literals, escapes, a partial BOM, octal and raw UTF-8', () => {
    expect(cases[0].robots).toEqual(bytes('User-agent: FooBot\nDisallow: /private\t# a "comment"\nAllow: /private/ok\\n\n'))
    expect(cases[1].robots).toBe(cases[0].robots)
    expect(cases[2].robots).toEqual(bytes([0xef, 0xbb], 'User-agent: *\r\nDisallow: /aA\r\n'))
    expect(cases[4].robots).toEqual(bytes("User-agent: *\nDisallow: /caf", [0xc3, 0xa9], "\nDisallow: /it's\nAllow: /\t\n"))
  })

  it('keeps each case’s file (group), where its body is (source) and the additional_explanation', () => {
    expect(cases.map((c) => [c.group, c.source])).toEqual([
      ...Array(2).fill(['fixture.textproto', 'fixture.textproto:10']),
      ...Array(2).fill(['fixture.textproto', 'fixture.textproto:30']),
      ...Array(3).fill(['fixture.textproto', 'fixture.textproto:37']),
    ])
    expect(cases.map((c) => c.explanation)).toEqual(['A rule applies to the paths that start with its value.', ...Array(6).fill(undefined)])
  })

  it('reads one file as well as a folder: spec-test:FILE', () => {
    const one = specTestDirCases(resolve(FIXTURE_DIR, 'fixture.textproto'))
    expect(one.map((c) => c.id)).toEqual(cases.map((c) => c.id))
    expect(() => specTestDirCases(resolve(FIXTURE_DIR, 'none.textproto'))).toThrow(/cannot read spec-test folder .*none\.textproto/)
  })

  it('marks GOOGLE_SPECIFIC tests and expectations', () => {
    expect(cases.map((c) => c.extraCategories ?? [])).toEqual([[], ['google-specific'], [], [], ['google-specific'], ['google-specific'], ['google-specific']])
  })

  it('every stated outcome is the reference’s', () => {
    const oracle = new Oracle()
    for (const c of cases) expect(oracle.answer(c).expected.allowed, c.id).toBe(c.stated?.allowed)
    expect(oracle.statedMismatches).toEqual([])
  })
})

describe('spec-test reader: the text format', () => {
  const parse = (text: string) => parseTextFormat(Buffer.from(text), 'x.textproto')

  it('reads scalars, enums, numbers, nested messages and lists', () => {
    const m = parse('a: 1 b: -2.5e3 c: FOO d { e: "x" } d < e: \'y\' >; f: [1, 2] g: [] h: "\\u00e9\\U0001F600\\x41\\101\\?"')
    expect(m.get('a')).toEqual([{ kind: 'number', text: '1', line: 1 }])
    expect(m.get('b')?.[0]).toMatchObject({ kind: 'number', text: '-2.5e3' })
    expect(m.get('c')?.[0]).toMatchObject({ kind: 'ident', text: 'FOO' })
    expect(m.get('d')?.map((v) => v.kind === 'message' && v.fields.get('e')?.[0])).toMatchObject([{ kind: 'string' }, { kind: 'string' }])
    expect(m.get('f')?.map((v) => v.kind === 'number' && v.text)).toEqual(['1', '2'])
    expect(m.get('g')).toEqual([])
    const h = m.get('h')?.[0]
    expect(h?.kind === 'string' && Buffer.from(h.bytes).toString('utf8')).toBe('é😀AA?')
  })

  it.each([
    ['a: "unterminated', /x\.textproto:1:4: unterminated string/],
    ['a: "line\nbreak"', /x\.textproto:1:4: unterminated string/],
    ['a: "\\q"', /x\.textproto:1:5: unknown escape \\q/],
    ['a: "\\400"', /octal escape above \\377/],
    ['a: "\\xZ"', /\\x needs a hex digit/],
    ['a {\n b: 1', /x\.textproto:2:6: expected '}' before the end of the file/],
    ['a "x"', /expected ':' after 'a'/],
    ['a: [1, 2', /expected '\]' or ','/],
    ['[ext]: 1', /extension and Any fields/],
    ['a: }', /expected a value/],
  ])('%j is an error with its position', (text, message) => {
    expect(() => parse(text)).toThrow(TextFormatError)
    expect(() => parse(text)).toThrow(message)
  })

  it('checks the spec-test fields', () => {
    const one = (expectation: string) => () =>
      specTestCases(Buffer.from(`tests { robotstxt: "" test_expectations { ${expectation} } }`), 'y.textproto')
    expect(one('testurl: "/" useragent: "a"')).toThrow(/y\.textproto:1: test expectation without 'expected_outcome'/)
    expect(one('testurl: "/" useragent: "a" expected_outcome: MAYBE')).toThrow(/expected_outcome must be ALLOWED or DISALLOWED/)
    expect(one('useragent: "a" expected_outcome: ALLOWED')).toThrow(/without 'testurl'/)
    expect(one('testurl: "/\\xff" useragent: "a" expected_outcome: ALLOWED')).toThrow(/'testurl' is not valid UTF-8/)
    expect(one('testurl: "/" testurl: "/" useragent: "a" expected_outcome: ALLOWED')).toThrow(/'testurl' given twice/)
    expect(() => specTestDirCases(resolve(FIXTURE_DIR, '../conformance'))).toThrow(/no \.textproto file under/)
  })
})

describeShared('spec-test-reader', (available) => {
  const cases = available ? specTestDirCases(SPEC_TEST) : []

  it('reads all 400 expectations of the 41 files', () => {
    expect(cases).toHaveLength(400)
    expect(new Set(cases.map((c) => c.id.split('#')[0])).size).toBe(41)
    expect(cases.filter((c) => c.id.startsWith('spec-test:CTC/correctness/'))).toHaveLength(146)
    expect(cases.filter((c) => c.id.startsWith('spec-test:CTC/stress/'))).toHaveLength(254)
    expect(new Set(cases.map((c) => c.id)).size).toBe(400)
  })

  it('reads the three bodies that are not UTF-8 byte for byte', () => {
    const notUtf8 = [...new Set(cases.map((c) => c.robots))].filter((b) => !Buffer.from(b).equals(Buffer.from(Buffer.from(b).toString('utf8'), 'utf8')))
    const rest = 'User-Agent: foo\nDisallow: /AnyValue\n'
    expect(notUtf8.map((b) => Buffer.from(b).toString('hex'))).toEqual(
      [bytes([0xef, 0xbb], rest), bytes([0xef], rest), bytes([0xef, 0x11, 0xbf], rest)].map((b) => Buffer.from(b).toString('hex')),
    )
  })

  it('every stated outcome is the reference’s', () => {
    const oracle = new Oracle()
    for (const c of cases) oracle.answer(c)
    expect(oracle.statedMismatches).toEqual([])
  })
})
