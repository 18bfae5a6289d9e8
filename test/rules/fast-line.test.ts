/**
 * The builder's fast path for rule, user-agent, sitemap, comment, blank and
 * keyless lines (RobotsBuilder.fastLines) against the general path: a body parsed
 * whole (the fast path takes every line it can) must give the same form,
 * byte for byte, as the same body read without the fast path (the reader
 * and parseLine only), fed one byte at a time (no line but a blank one is
 * ever whole in a chunk) and in chunks split at random.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRobots, parseRobotsStream } from '../../src/index.js'
import { MAX_LINE_BYTES } from '../../src/parse/reader.js'
import { parseWith } from '../../src/parse/parser.js'
import { RobotsBuilder } from '../../src/rules/builder.js'
import { robotsFrom } from '../../src/robots/robots.js'
import { asyncChunks, fixedChunks, randomOffsets, splitAt } from '../support/core-helpers.js'
import { prng } from '../support/prng.mjs'
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { SAMPLE, sampleFiles } from '../support/corpus-data.js'
import { itShared, SHARED } from '../support/shared-data.js'

const enc = new TextEncoder()

/** Pieces that sit on the fast path's boundaries. */
const KEYS = [
  'Disallow:', 'disallow:', 'DISALLOW:', 'Allow:', 'allow:', 'Disallow :', ' Disallow:', 'Disallow', 'Dissallow:', 'Allowance:',
  'User-agent:', 'user-AGENT:', 'User-agents:', 'User agent:', 'User\ragent:', 'Useragent:', 'User-agent :', '\tUser-agent:',
  'Sitemap:', 'sitemap:', 'Site-map:', 'Sitemaps:', '#', ' #', '\t# ', ' ', '\t', '<html>', '',
  '<div class="a">', '  <p>', 'foo bar', 'foo bar baz', 'foo\tbar ', ' one', 'a$b c%d e', 'x y #z', 'Disallow /p',
  'Crawl-delay:', 'host:', 'Request-rate:', 'Visit-time:', 'Noindex:', 'Clean-param :', 'a%b:', ':',
  'X-Robots-Tag:', 'foo :', '<meta content="text/html; charset:', '\tcrawl-delay:', 'Visit-times:', 'hosts:',
  'a b c:', 'a  b\t c', 'a b\t', 'a b c d # x\t$', '<a href="x" title="y">', 'one\ttwo:', 'w1 w2 w3\u0001', 'w1 w2 é',
]
const VALUE = [
  '/a', '/', '*', '/*.pdf$', '$', '/a$b', ' ', '\t', '  ', '#', '# c', '%', '%2f', '%2F', 'é', '\u0000', '\u000b', '\u000c', '\u007f', '!', '"', 'x',
  '/p?q=1&r', '\u0001', 'Googlebot', 'Googlebot/2.1', '* x', 'https://example.com/s.xml', 'http://ex-1.org/a?b#c', ':', 'bot:1', '<',
  '5', '1/10', '%35', '1%2e5', '0600-0845', 'a.example%2Fx', '%zz',
  '/a b', '/&~', '/%7e%7E', '%a', '/a%', '# x\ty', '/x\t#$', 'a:b c', '\u0080',
]
const END = ['\n', '\r\n', '\r', '', '\n\n', '\r\r\n', '\n\r']

function body(rand: () => number, lines: number): Uint8Array {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]
  let text = rand() < 0.3 ? '' : 'User-agent: *\n'
  for (let i = 0; i < lines; i++) {
    let value = ''
    const parts = Math.floor(rand() * 5)
    for (let k = 0; k < parts; k++) value += pick(VALUE)
    text += pick(KEYS) + (rand() < 0.7 ? ' ' : '') + value + pick(END)
  }
  return enc.encode(text)
}

/** The form of a body read without the fast path at all (the reader and parseLine only). */
function general(bytes: Uint8Array): Uint8Array {
  return generalRobots(bytes).toBytes()
}

function generalRobots(bytes: Uint8Array) {
  const builder = new RobotsBuilder()
  return robotsFrom(builder, parseWith(bytes, builder, undefined, null), {})
}

async function streamed(bytes: Uint8Array, chunks: Uint8Array[]): Promise<Uint8Array> {
  const r = await parseRobotsStream(asyncChunks(chunks))
  expect(r.bytesRead).toBe(bytes.length)
  return r.toBytes()
}

describe('fast path = general path (RobotsBuilder.fastLines)', () => {
  it('random bodies of boundary pieces: whole = byte by byte = random chunks (seeded)', async () => {
    const rand = prng(77)
    for (let round = 0; round < 400; round++) {
      const bytes = body(rand, 1 + Math.floor(rand() * 12))
      const parsed = parseRobots(bytes)
      const whole = parsed.toBytes()
      expect(Buffer.from(general(bytes)).equals(whole), JSON.stringify(new TextDecoder().decode(bytes))).toBe(true)
      // The diagnostics too (keyless and unknown-key lines are recorded by the fast path).
      expect(parsed.diagnostics, JSON.stringify(new TextDecoder().decode(bytes))).toEqual(generalRobots(bytes).diagnostics)
      expect(Buffer.from(await streamed(bytes, fixedChunks(bytes, 1))).equals(whole), new TextDecoder().decode(bytes)).toBe(true)
      expect(Buffer.from(await streamed(bytes, splitAt(bytes, randomOffsets(bytes.length, 3, rand)))).equals(whole)).toBe(true)
    }
  })

  it('a key that is no extension: its value (%, NUL, controls, DEL, non-ASCII, invalid UTF-8, #) is not read, on both paths and every split', async () => {
    const VALUES = ['50%', 'a%zz', '\u0000x', 'a\u0001b', '\u000b', '\u007f', '\u00e9t\u00e9', '# \u00e9', 'x # \u0001', '%\u0000%', '$', ' \t ']
    const RAW = [[0xc3], [0xff, 0xfe], [0xe2, 0x82], [0x80]]
    const cases: Uint8Array[] = []
    for (const key of ['Foo:', 'X-Robots-Tag :', 'Noindex:', 'clean-param:', '<p class="a:', 'Crawl-delay:', 'Host:']) {
      for (const v of VALUES) cases.push(enc.encode(`${key} ${v}`))
      for (const raw of RAW) cases.push(new Uint8Array([...enc.encode(`${key} a`), ...raw, ...enc.encode('b')]))
    }
    for (const [n, line] of cases.entries()) {
      for (const [head, end] of [['', '\n'], ['User-agent: *\n', '\r\n'], ['User-agent: *\n', '\r'], ['User-agent: *\n', '']] as const) {
        const bytes = new Uint8Array([...enc.encode(head), ...line, ...enc.encode(end + 'Disallow: /x' + end)])
        const what = `case ${n} ${JSON.stringify(head)} ${JSON.stringify(end)}`
        const parsed = parseRobots(bytes)
        const whole = parsed.toBytes()
        expect(Buffer.from(general(bytes)).equals(whole), what).toBe(true)
        expect(parsed.diagnostics, what).toEqual(generalRobots(bytes).diagnostics)
        expect(Buffer.from(await streamed(bytes, fixedChunks(bytes, 1))).equals(whole), what).toBe(true)
        for (let at = 1; at < bytes.length; at++) expect(Buffer.from(await streamed(bytes, splitAt(bytes, [at]))).equals(whole), `${what} split ${at}`).toBe(true)
      }
    }
  })

  it('keyless lines of text with bytes >= 0x80 (valid and invalid UTF-8, in one, two or more words, before a colon or a comment): both paths, at every split', async () => {
    const RAW = [[0xc3, 0xa9], [0xc3], [0xff, 0xfe], [0xe2, 0x82], [0x80], [0xf0, 0x9f, 0x98, 0x80], [0xed, 0xa0, 0x80]]
    const SHAPES = ['%', 'a%', '%b', '% b', 'a %', '%  %', 'a b %', '% b c', 'a % c d', '%:x', 'a%: x', 'a b%:', '% # c', 'a % #%', '\t% b', 'crawl-delay %', 'disallow% /x', '% b\u0001']
    for (const raw of RAW) {
      for (const shape of SHAPES) {
        const parts = shape.split('%')
        const line = parts.flatMap((p, k) => (k === 0 ? [...enc.encode(p)] : [...raw, ...enc.encode(p)]))
        for (const [head, end] of [['', '\n'], ['User-agent: *\n', '\r\n'], ['User-agent: *\n', '\r'], ['', '']] as const) {
          const bytes = new Uint8Array([...raw, ...enc.encode(end), ...enc.encode(head), ...line, ...enc.encode(end + 'Disallow: /x' + end)])
          const what = `${JSON.stringify(raw)} ${JSON.stringify(shape)} ${JSON.stringify(end)}`
          const parsed = parseRobots(bytes)
          const whole = parsed.toBytes()
          expect(Buffer.from(general(bytes)).equals(whole), what).toBe(true)
          expect(parsed.diagnostics, what).toEqual(generalRobots(bytes).diagnostics)
          for (let at = 1; at < bytes.length; at++) expect(Buffer.from(await streamed(bytes, splitAt(bytes, [at]))).equals(whole), `${what} split ${at}`).toBe(true)
        }
      }
    }
  })

  it('a rule with % escapes (hex digits uppercased, anything else kept) and two-word lines: the same form on both paths, at every split', async () => {
    const lines = [
      'Disallow: /a%', 'Disallow: /a%4', 'Disallow: /a%4f', 'Allow: /%4F%', 'Disallow: /%e9%E9%g1', 'Disallow: %%41', 'Disallow: /%aB%Cd #%ef',
      'Disallow: /x%2f ', 'Disallow: /x%2\t', 'Allow: %', 'Disallow: /p%20q$',
      'foo bar', '<li role="none">', '  word\tword  ', 'one two # c', 'noindex /x', 'crawl-delay 5', 'Disallow /x', 'useragent x', 'a b c',
    ]
    for (const line of lines) {
      for (const end of ['\n', '\r\n', '\r', '']) {
        const bytes = enc.encode(`User-agent: *\n${line}${end}Allow: /z${end}`)
        const what = JSON.stringify(line + end)
        const parsed = parseRobots(bytes)
        const whole = parsed.toBytes()
        expect(Buffer.from(general(bytes)).equals(whole), what).toBe(true)
        expect(parsed.diagnostics, what).toEqual(generalRobots(bytes).diagnostics)
        for (let at = 1; at < bytes.length; at++) expect(Buffer.from(await streamed(bytes, splitAt(bytes, [at]))).equals(whole), `${what} split ${at}`).toBe(true)
      }
    }
  })

  it('a byte of every kind at each place of the four-byte words the fast path reads: the same form on both paths, whole and streamed', async () => {
    // The rule, prose and key loops test four bytes at once while none needs a look of its own: put each
    // kind of byte at each offset from the line start (0-3 mod 4), at the start, middle and end of long values.
    // Two in one word as well: the word that stops a run of words is read a byte at a time.
    const SPECIAL = [' ', '\t', '#', '$', '%', '%41', '%4a', '%ab', '%4g', ':', '!', '"', '&', '~', '\u007f', '\u0000', '\u0001', '\u000b', 'é', '\r', '\n', ' #', '$ ', '\t\u0001', 'é#', ' \r', '%4\t']
    const RAW = [[0xff], [0xc3], [0x80, 0x80]]
    const LINES = ['Disallow: /', 'Allow: /', 'disallow:/', '<p class="a b c', 'w1 w2 w3 ', 'User-agent: ', 'Sitemap: https://e.example/', 'X-Foo: ', ' # ']
    for (const head of LINES) {
      for (let pad = 0; pad < 8; pad++) {
        for (const special of [...SPECIAL.map((t) => [...enc.encode(t)]), ...RAW]) {
          const line = [...enc.encode(head + 'abcdefgh'.slice(0, pad)), ...special, ...enc.encode('ijklmnopqrstuvwx')]
          const bytes = new Uint8Array([...enc.encode('User-agent: *\n'), ...line, ...enc.encode('\nAllow: /z\n')])
          const what = `${JSON.stringify(head)} pad ${pad} ${JSON.stringify(special)}`
          const parsed = parseRobots(bytes)
          const whole = parsed.toBytes()
          expect(Buffer.from(general(bytes)).equals(whole), what).toBe(true)
          expect(parsed.diagnostics, what).toEqual(generalRobots(bytes).diagnostics)
          expect(Buffer.from(await streamed(bytes, fixedChunks(bytes, 1))).equals(whole), what).toBe(true)
        }
      }
    }
  })

  it('lines of MAX_LINE_BYTES and one more, with and without a comment', async () => {
    for (const extra of [-1, 0, 1, 2]) {
      for (const [key, tail] of [['Disallow: ', ''], ['Disallow: ', '#c'], ['Foo: ', ''], ['Foo: ', '%\u00e9'], ['<p a=b ', ''], ['# ', '']]) {
        const value = '/' + 'a'.repeat(MAX_LINE_BYTES - key.length - 1 - enc.encode(tail).length + extra)
        const bytes = enc.encode(`User-agent: *\n${key}${value}${tail}\nAllow: /b\n`)
        const whole = parseRobots(bytes).toBytes()
        expect(Buffer.from(general(bytes)).equals(whole), `general, extra ${extra} key ${key} tail ${tail}`).toBe(true)
        expect(Buffer.from(await streamed(bytes, fixedChunks(bytes, 1))).equals(whole), `extra ${extra} tail ${tail}`).toBe(true)
      }
    }
  })

  it('an unknown key quoted at most 64 bytes (63, 64, 65 and more), on both paths', () => {
    for (const n of [1, 63, 64, 65, 200]) {
      const bytes = enc.encode(`User-agent: *\n${'k'.repeat(n)}: v\n${'q'.repeat(n)} : w # c\n`)
      const parsed = parseRobots(bytes)
      expect(Buffer.from(general(bytes)).equals(parsed.toBytes()), `n ${n}`).toBe(true)
      const quoted = parsed.diagnostics.filter((d) => d.code === 'unknown-directive').map((d) => d.message)
      expect(quoted).toEqual([`unknown directive; ignored: "${'k'.repeat(Math.min(n, 64))}"`, `unknown directive; ignored: "${'q'.repeat(Math.min(n, 64))}"`])
    }
  })

  it('a rule line cut by the parsing limit', async () => {
    const head = 'User-agent: *\n' + '#'.repeat(512_000 - 30) + '\n'
    for (let k = 0; k < 20; k++) {
      const bytes = enc.encode(head + 'x'.repeat(k) + '\nDisallow: /secret/path\nAllow: /x\n')
      const whole = parseRobots(bytes).toBytes()
      const r = await parseRobotsStream(asyncChunks(fixedChunks(bytes, 4096)))
      expect(Buffer.from(r.toBytes()).equals(whole), `k ${k}`).toBe(true)
    }
  })

  it('fast-check: any printable-ASCII, tab and comment value under either key (seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('Disallow:', 'Allow:', 'disallow:', 'User-agent:', 'Sitemap:', '#', ' ', '', '<a ', 'w w '), fc.string({ maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 6 }),
        async (lines) => {
          const bytes = enc.encode('User-agent: a\n' + lines.map(([k, v, e]) => k + v + e).join(''))
          const whole = parseRobots(bytes).toBytes()
          expect(Buffer.from(general(bytes)).equals(whole)).toBe(true)
          expect(Buffer.from(await streamed(bytes, fixedChunks(bytes, 1))).equals(whole)).toBe(true)
        },
      ),
      { seed: 12, numRuns: 500 },
    )
  })

  /** Real files, whole: the same form and the same diagnostics with and without the fast path. */
  function sameAsGeneral(files: string[], root: string): number {
    let checked = 0
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(resolve(root, file)))
      const parsed = parseRobots(bytes)
      const plain = generalRobots(bytes)
      expect(Buffer.from(plain.toBytes()).equals(parsed.toBytes()), file).toBe(true)
      expect(parsed.diagnostics, file).toEqual(plain.diagnostics)
      checked++
    }
    return checked
  }

  it('the bundled sample corpus: the same form and diagnostics as the general path', () => {
    expect(sameAsGeneral(sampleFiles(), SAMPLE)).toBeGreaterThan(30)
  })

  itShared('fast-line-corpus', () => {
    const dir = resolve(SHARED, 'corpus/robots')
    const files = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => readdirSync(resolve(dir, e.name)).map((f) => `${e.name}/${f}`))
    expect(sameAsGeneral(files, dir)).toBe(6817)
  })
})
