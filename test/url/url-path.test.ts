/**
 * One data suite for where a URL's path starts and ends (src/url/url-path.ts)
 * over every copy of the scan: pathOf and matchPath (the shared functions),
 * and the automaton's three hot paths (strings: pathStartString; bytes:
 * pathStartBytes; matchLines: the fused loop), each made to reveal the exact
 * path it found by a `Disallow: <path>$` rule. The cases are the reference's
 * GetPathParamsQuery vectors plus edge cases of our own.
 */
import { freemem, totalmem } from 'node:os'
import { describe, expect, it } from 'vitest'
import { parseRobots, pathOf } from '../../src/index.js'
import { matchPath, pathStartString, PathStartMemo } from '../../src/url/url-path.js'
import { prng } from '../support/prng.mjs'
import { ENGINES } from '../support/engines.js'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** [url, GetPathParamsQuery(url)]: the path as the reference returns it (a NUL kept). */
const OWN_CASES: [string, string][] = [
  ['', '/'],
  ['/', '/'],
  ['//', '/'],
  ['///', '/'],
  ['//h', '/'],
  ['//h/', '/'],
  ['//h?q', '/?q'],
  ['?q', '/?q'],
  [';p', '/;p'],
  ['#f', '/'],
  ['#f/a', '/'],
  ['a#b/c', '/'],
  ['/a#b', '/a'],
  ['/a?b#c?d', '/a?b'],
  ['http://h', '/'],
  ['http://h/', '/'],
  ['http://h/a/b;c?d', '/a/b;c?d'],
  ['http://h?x', '/?x'],
  ['http://h;x/y', '/;x/y'],
  ['http://h#/x', '/'],
  ['http://user:pw@h:81/a', '/a'],
  ['http:', '/'],
  ['http:/', '/'],
  ['http:/a', '/a'],
  ['http://', '/'],
  ['http://x:y://z/w', '//z/w'], // only the first :// ends a scheme
  ['a:b/c', '/c'],
  ['a://b:c/d', '/d'],
  ['://x', '/'],
  ['://x/y', '/y'],
  ['h/a:/b', '/a:/b'],
  ['h#x://y/z', '/'],
  ['/a\u0000b', '/a\u0000b'],
  ['http://h/a\u0000b#c', '/a\u0000b'],
  ['/a*b$c', '/a*b$c'],
  ['https://example.com/%2F%3F?x=%20', '/%2F%3F?x=%20'],
]

interface PathVector {
  api: string
  url: string
  expected: string
}

/** The reference's GetPathParamsQuery vectors, from the project's vendored copy (test/data/conformance). */
const vectors: [string, string][] = (
  JSON.parse(readFileSync(resolve(__dirname, '../data/conformance/google-other-tests.json'), 'utf8')) as PathVector[]
)
  .filter((t) => t.api === 'GetPathParamsQuery')
  .map((t) => [t.url, t.expected])
const CASES = [...vectors, ...OWN_CASES]

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1')
const bytesOf = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'))

/** The path the rules see: GetPathParamsQuery, ended at NUL (the reference hands it on as a C string). */
const matched = (path: string): string => path.split('\u0000')[0]

describe('url-path: one data suite over every copy of the path scan', () => {
  it('has the reference vectors and its own cases', () => {
    expect(vectors.length).toBe(19)
    expect(CASES.length).toBe(vectors.length + OWN_CASES.length)
  })

  for (const [i, [url, path]] of CASES.entries()) {
    it(`the path of ${JSON.stringify(url)} is ${JSON.stringify(path)} in every copy of the scan (${i < vectors.length ? `reference vector ${i + 1}` : 'own case'})`, () => {
      expect(pathOf(url)).toBe(path)
      expect(latin1(matchPath(bytesOf(url)))).toBe(matched(path))
      // A rule that matches exactly the path found, and nothing longer or shorter.
      const exact = parseRobots(`User-agent: *\nDisallow: ${matched(path)}$\n`).agent('bot')
      const bytes = bytesOf(url)
      expect(exact.isAllowed(url), 'string').toBe(false)
      // The other direct engine's string path.
      const exactIndexed = parseRobots(`User-agent: *\nDisallow: ${matched(path)}$\n`, { tier: 'thrash-proof' }).agent('bot')
      expect(exactIndexed.isAllowed(url), 'string, thrash-proof').toBe(false)
      expect(exact.isAllowed(bytes), 'bytes').toBe(false)
      const lines = bytesOf(`/-w\n${url}\n/-w`)
      expect([...exact.matchLines(lines)], 'matchLines').toEqual([1, 0, 1])
      expect(exact.matchRange(lines, 4, 4 + url.length), 'matchRange').toBe(2 * 2 + 0)
      // And the path is not taken one byte short (a longer path would not match `$`).
      const longer = parseRobots(`User-agent: *\nDisallow: ${matched(path)}~$\n`).agent('bot')
      expect(longer.isAllowed(url)).toBe(true)
      expect(longer.isAllowed(bytes)).toBe(true)
      expect([...longer.matchLines(lines)]).toEqual([1, 1, 1])
    })
  }
})

// A buffer past 1 GiB: a path-start index times two passes 2^31 there.
const BIG = 2 ** 30 + 64
const roomForBig = totalmem() >= 8 * 2 ** 30 && freemem() >= 3 * 2 ** 30

describe('url-path: offsets past 2^30', () => {
  ;(roomForBig ? it : it.skip)('regression: a URL past the first GiB of a buffer is matched from its own path (the encoding used shifts)', () => {
    const m = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').agent('bot')
    const big = new Uint8Array(BIG)
    const at = BIG - 40
    for (const [url, verdict] of [['https://h/private/x', 2 * 2 + 0], ['https://h/private/ok', 3 * 2 + 1], ['?q', 1], ['//h/private', 2 * 2 + 0]] as const) {
      const bytes = bytesOf(url)
      big.fill(0, at)
      big.set(bytes, at)
      expect(m.matchRange(big, at, at + bytes.length), url).toBe(verdict)
      expect(m.isAllowed(big.subarray(at, at + bytes.length)), url).toBe((verdict & 1) === 1)
      expect(latin1(matchPath(big, at, at + bytes.length)), url).toBe(pathOf(url).split('\u0000')[0])
    }
  })
})

describe('url-path: consecutive string URLs of one site and its neighbours (the direct engines)', () => {
  it('consecutive URLs that share, extend or break the previous origin get their own path (a guard for any origin memo)', () => {
    const body = 'User-agent: *\nDisallow: /a$\nDisallow: /?q$\nDisallow: /$\nDisallow: //y$\n'
    const seq = [
      'https://h/a', 'https://h/a', 'https://h?q', 'https://h#x/a', 'https://h', 'https://h/', 'https://hx/a', 'https://h//y',
      'https://h/a', 'https:/h/a', 'http://h/a', 'https://h:80/a', 'https://h/a#/b', 'https://h/a\u0000b', '//h/a', 'https://h/a',
      'x://h/a', 'https://h;/a', 'https://h/\u00e9', 'https://h/a', 'h/a', 'https://h/a', 'https://h//',
    ]
    for (const tier of ['cold', 'hot', 'thrash-proof'] as const) {
      const m = parseRobots(body, { tier }).agent('bot')
      for (const url of seq) {
        const want = parseRobots(body, { engine: 'plain' }).agent('bot').explain(bytesOf(Buffer.from(url, 'utf8').toString('latin1')))
        expect(m.explain(url), `${tier}: ${url}`).toEqual(want)
      }
    }
  })
})

describe('url-path: the per-origin memo of string path starts (PathStartMemo)', () => {
  it('gives the plain scan\'s answer on sequences that share, extend and break a remembered prefix', () => {
    // Pieces chosen so that consecutive URLs often start with the previous
    // one's scheme://authority/ and differ right after it (the cases the
    // memo's conditions are about: a ':' before the path, '//' after it, a
    // '#', '?' or ';' at or before the path, no scheme, a leading '//').
    const heads = ['https://h', 'https://h:', 'https://h:/', 'http://h', 'h', 'h:', 'a:', '//h', '/', '', '#', 'https://h#', 'x://y:', 'https://hh']
    const joins = ['/', '?', ';', '#', ':', '//', '://', ':/', '/:', '']
    const tails = ['', 'a', '/b', '//c', '://d/e', '?q', ';p', '#f', 'a:b', '\u00e9/x', 'x#y/z']
    const rnd = prng(21)
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]
    const memo = new PathStartMemo()
    let previous = 'https://h/'
    for (let k = 0; k < 20000; k++) {
      // Half the time, build on the previous URL's start (what the memo keeps).
      const url = rnd() < 0.5 ? previous.slice(0, Math.floor(rnd() * (previous.length + 1))) + pick(joins) + pick(tails) : pick(heads) + pick(joins) + pick(tails)
      expect(memo.of(url), JSON.stringify(url)).toBe(pathStartString(url))
      previous = url
    }
  })

  it('a remembered prefix that occurs later in the URL, not at its start, is a miss (after hits and after misses)', () => {
    const memo = new PathStartMemo()
    const seq = [
      'https://a.example/x', 'https://a.example/y', // hits: the next test is a search of the whole URL
      'https://bbb.example/https://a.example/z', // the prefix at 20, not at 0 (and the path starts elsewhere)
      'https://a.example/w', // a miss: the test from 0
      'http://https://a.example/v', 'https://a.example/https://a.example/u', 'xhttps://a.example/t', 'https://a.example/s',
    ]
    for (const url of seq) expect(memo.of(url), url).toBe(pathStartString(url))
  })

  it('regression: a prefix ending in ":/" is not kept (the next URL may continue it as "://")', () => {
    const memo = new PathStartMemo()
    expect(memo.of('a:/b')).toBe(pathStartString('a:/b'))
    expect(memo.of('a://b/c')).toBe(pathStartString('a://b/c'))
    expect(memo.of('/x')).toBe(pathStartString('/x'))
    expect(memo.of('//h/x')).toBe(pathStartString('//h/x'))
  })

  it('regression: URLs of many origins through one matcher copied a prefix per URL (one matcher got slower than before the memo)', () => {
    const memo = new PathStartMemo()
    const held: number[] = []
    // Every URL a new origin of another length: after two misses in a row, a prefix is kept once in 64 misses.
    for (let k = 0; k < 130; k++) {
      const url = `https://${'h'.repeat(1 + (k % 50))}${k}.example/p`
      expect(memo.of(url)).toBe(pathStartString(url))
      held.push(memo.heldBytes())
    }
    let changes = 0
    for (let k = 1; k < held.length; k++) if (held[k] !== held[k - 1]) changes++
    expect(changes).toBeGreaterThanOrEqual(2)
    expect(changes).toBeLessThanOrEqual(4)
    // A run of one origin is remembered again within 64 of its URLs.
    const site = 'https://a-site-with-a-long-name.example/'
    const alone = new PathStartMemo()
    alone.of(site + 'x')
    for (let k = 0; k < 64; k++) expect(memo.of(site + k)).toBe(pathStartString(site + k))
    expect(memo.heldBytes()).toBe(alone.heldBytes())
  })

  it('every engine judges a string URL as its bytes while origins share, extend, break and alternate (the memo in each tier)', () => {
    const body = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nDisallow: /x*y\nDisallow: /?q\nAllow: /;p\nDisallow: /%41\n'
    const heads = ['https://h', 'https://h:8', 'http://h', 'https://hh', 'HTTPS://H', 'h', '//h', '', 'x://y:', 'https://u@h']
    const joins = ['/', '?', ';', '#', ':', '//', '/a', '/a/b', '/x']
    const tails = ['', 'y', '.pdf', '/b.pdf', 'q', 'p', '#f', 'A', '%41', '\u00e9', 'x#y/z']
    const enc = new TextEncoder()
    for (const engine of ENGINES) {
      const m = parseRobots(body, engine.options).agent('bot')
      const plain = parseRobots(body, { engine: 'plain' }).agent('bot')
      const rnd = prng(5)
      const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]
      let previous = 'https://h/'
      for (let k = 0; k < 3000; k++) {
        const url = rnd() < 0.5 ? previous.slice(0, Math.floor(rnd() * (previous.length + 1))) + pick(joins) + pick(tails) : pick(heads) + pick(joins) + pick(tails)
        const want = plain.explain(enc.encode(url))
        expect(m.explain(url), `${engine.name}: ${JSON.stringify(url)}`).toEqual(want)
        expect(m.isAllowed(url), `${engine.name}: ${JSON.stringify(url)}`).toBe(want.allowed)
        previous = url
      }
    }
  })

  it('counts the prefix it keeps, not the URL it came from', () => {
    const memo = new PathStartMemo()
    memo.of('https://example.com/' + 'x'.repeat(1000))
    expect(memo.heldBytes()).toBeGreaterThan(0)
    expect(memo.heldBytes()).toBeLessThan(200)
  })
})
