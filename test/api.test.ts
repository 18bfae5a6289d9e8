/**
 * The public API beyond the conformance vectors: helpers, multi-agent
 * semantics, URL forms, explanations, serialisation and its error handling,
 * sitemaps.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  escapePattern,
  FORMAT_VERSION,
  isValidProductToken,
  parseRobots,
  pathOf,
  Robots,
  RobotsError,
  RobotsFormatError,
} from '../src/index.js'
import { referenceDecide, compactRulesOf } from '../src/internals.js'
import { matchPath } from '../src/url/url-path.js'
import { itShared, SHARED } from './support/shared-data.js'

const enc = new TextEncoder()

describe('api: helpers', () => {
  it('pathOf: scheme, authority, fragment, missing path, params and query', () => {
    const cases: [string, string][] = [
      ['https://a.com/b?c#d', '/b?c'],
      ['http://a.com', '/'],
      ['http://a.com/', '/'],
      ['http://a.com?x=1', '/?x=1'],
      ['http://a.com;p', '/;p'],
      ['http://a.com#frag/x', '/'],
      ['http://a.com/x#frag?y', '/x'],
      ['a.com/b', '/b'],
      ['a.com', '/'],
      ['//a/b/c', '/b/c'],
      ['//a', '/'],
      ['/b/c', '/b/c'],
      ['?q', '/?q'],
      [';p', '/;p'],
      ['', '/'],
      ['#x', '/'],
      ['/p#', '/p'],
      ['http://a.com/b://c', '/b://c'],
      ['/x?u=http://y/z', '/x?u=http://y/z'],
      ['ftp://user:pw@h:21/f', '/f'],
      ['http://a.com/ä?ü', '/ä?ü'],
    ]
    for (const [url, path] of cases) expect(pathOf(url), url).toBe(path)
  })

  it('pathOf agrees with the byte path the matchers use', () => {
    for (const url of ['https://a.com/b?c#d', '//a/b/c', '?q', 'http://a.com;p', 'x://y', 'http://a.com/ä']) {
      expect(Buffer.from(matchPath(enc.encode(url))).toString('utf8'), url).toBe(pathOf(url))
    }
  })

  it('escapePattern: non-ASCII percent-encoded, existing escapes uppercased, the rest kept', () => {
    expect(escapePattern('/ä%2f')).toBe('/%C3%A4%2F')
    expect(escapePattern('/%aa%Bb%cC')).toBe('/%AA%BB%CC')
    expect(escapePattern('/%zz%a%')).toBe('/%zz%a%')
    expect(escapePattern('/%2')).toBe('/%2')
    expect(escapePattern('/a b*$')).toBe('/a b*$')
    expect(escapePattern('/\u{1f600}')).toBe('/%F0%9F%98%80')
    expect(escapePattern('/%e2%82%ac€')).toBe('/%E2%82%AC%E2%82%AC')
    expect(escapePattern('')).toBe('')
    const plain = '/already/%C3%A4/escaped'
    expect(escapePattern(plain)).toBe(plain)
  })

  it('isValidProductToken: only [A-Za-z_-], non-empty', () => {
    for (const t of ['Googlebot', 'a', 'A-b_c', '__proto__', '-', '_']) expect(isValidProductToken(t), t).toBe(true)
    for (const t of ['', 'Googlebot/2.1', 'MJ12bot', 'ä', ' a', 'a ', '*', 'a.b', 'Foo Bot']) expect(isValidProductToken(t), t).toBe(false)
  })
})

describe('api: agents([...]) — a crawler answering to several tokens', () => {
  const body = [
    'User-agent: *',
    'Disallow: /star',
    '',
    'User-agent: foo',
    'Disallow: /foo',
    'Disallow: /shared/a/b',
    '',
    'User-agent: bar',
    'Disallow: /bar',
    'Allow: /bar/ok',
    'Allow: /shared/a',
    '',
  ].join('\n')
  const robots = parseRobots(body)

  it('the groups of both tokens are merged and `*` is ignored', () => {
    const m = robots.agents(['foo', 'bar'])
    expect(m.isAllowed('/foo')).toBe(false)
    expect(m.isAllowed('/bar')).toBe(false)
    expect(m.isAllowed('/bar/ok')).toBe(true)
    expect(m.isAllowed('/star')).toBe(true)
    // Longest match across both groups: foo's /shared/a/b beats bar's /shared/a.
    expect(m.isAllowed('/shared/a/b')).toBe(false)
    expect(m.explain('/shared/a/b').rule).toEqual({ line: 6, kind: 'disallow', pattern: '/shared/a/b' })
    expect(m.isAllowed('/shared/a/c')).toBe(true)
    expect(m.explain('/shared/a/c').rule?.line).toBe(11)
  })

  it('`*` is ignored when either token is named', () => {
    const m = robots.agents(['nobody', 'foo'])
    expect(m.isAllowed('/star')).toBe(true)
    expect(m.isAllowed('/foo')).toBe(false)
    expect(m.isAllowed('/bar')).toBe(true)
    const none = robots.agents(['x', 'y'])
    expect(none.isAllowed('/star')).toBe(false)
    expect(none.isAllowed('/foo')).toBe(true)
  })

  it('matches the reference for each URL', () => {
    for (const tokens of [['foo', 'bar'], ['FOO', 'nobody'], ['x', 'y'], ['bar', 'bar']]) {
      for (const url of ['/star', '/foo', '/bar', '/bar/ok', '/shared/a', '/shared/a/b', '/other']) {
        const ref = referenceDecide(compactRulesOf(robots), tokens, matchPath(enc.encode(url)))
        const m = robots.agents(tokens)
        expect(m.isAllowed(url), `${tokens} ${url}`).toBe(ref.allowed)
        expect(m.explain(url).rule?.line ?? 0).toBe(ref.line)
      }
    }
  })

  it('caching: token order and case do not matter; one token is agent()', () => {
    expect(robots.agents(['foo', 'bar'])).toBe(robots.agents(['BAR', 'Foo']))
    expect(robots.agents(['foo'])).toBe(robots.agent('foo'))
    expect(robots.agent('Foo')).toBe(robots.agent('foo'))
  })

  it('regression: a token starting with NUL shared the cache key of a multi-token matcher', () => {
    const r = parseRobots('User-agent: a\nUser-agent: b\nDisallow: /x\n')
    expect(r.agents(['a', 'b']).isAllowed('/x')).toBe(false)
    // This token names no group (and there is no `*` group): everything is allowed.
    const odd = r.agent('\u0000["a","b"]')
    expect(odd).not.toBe(r.agents(['a', 'b']))
    expect(odd.isAllowed('/x')).toBe(true)
    expect(r.agent('\u0000["a","b"]')).toBe(odd)
    // The other order of first use gives the same answers.
    const r2 = parseRobots('User-agent: a\nUser-agent: b\nDisallow: /x\n')
    expect(r2.agent('\u0000["a","b"]').isAllowed('/x')).toBe(true)
    expect(r2.agents(['a', 'b']).isAllowed('/x')).toBe(false)
  })

  it('the cache key of a token set cannot collide: sets a joined string would merge stay apart', () => {
    const r = parseRobots('User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: c\nDisallow: /c\n')
    // Pairs of different sets that naive keys (joined with ':' or ',', or length-free) would confuse.
    const pairs: [string[], string[]][] = [
      [['a:b', 'c'], ['a', 'b:c']],
      [['a,b', 'c'], ['a', 'b,c']],
      [['1:a', 'b'], ['a', 'b']],
      [['ab', 'c'], ['a', 'bc']],
      [['', 'a'], ['b', '\u0000']],
      [['a', 'b'], ['a', 'b', 'c']],
    ]
    for (const [x, y] of pairs) expect(r.agents(x), `${JSON.stringify(x)} vs ${JSON.stringify(y)}`).not.toBe(r.agents(y))
    // Sets that select the same groups share one matcher: tokens that name no group add nothing.
    expect(r.agents(['', 'a'])).toBe(r.agents(['a', '\u0000']))
    expect(r.agents(['', 'a'])).toBe(r.agent('a'))
    // Equal sets share one matcher whatever the order, case and repeats; a set of one is agent().
    expect(r.agents(['a', 'B', 'a', 'b'])).toBe(r.agents(['b', 'A']))
    expect(r.agents(['A', 'a'])).toBe(r.agent('a'))
    // And every token set answers as its own rules say.
    expect(r.agents(['a', 'b']).isAllowed('/a')).toBe(false)
    expect(r.agents(['a', 'b']).isAllowed('/b')).toBe(false)
    expect(r.agents(['a', 'b']).isAllowed('/c')).toBe(true)
    expect(r.agents(['a:b', 'c']).isAllowed('/c')).toBe(false)
    expect(r.agents(['a:b', 'c']).isAllowed('/a')).toBe(true)
  })

  it('bad arguments are TypeErrors', () => {
    expect(() => robots.agents('foo' as unknown as string[])).toThrow(TypeError)
    expect(() => robots.agents([1 as unknown as string])).toThrow(TypeError)
    expect(() => robots.agent(undefined as unknown as string)).toThrow(TypeError)
    expect(() => parseRobots(42 as unknown as string)).toThrow(TypeError)
  })
})

describe('api: URL forms', () => {
  const robots = parseRobots(
    'User-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*?q=\nDisallow: /frag$\nDisallow: /%c3%a4\nDisallow: /ü\n',
  )
  const m = robots.agent('bot')

  it('full URLs, paths and //host/path give the same verdict for the same path', () => {
    for (const [url, allowed] of [
      ['https://example.com/private/x', false],
      ['http://example.com:8080/private', false],
      ['/private', false],
      ['//example.com/private', false],
      ['example.com/private', false],
      ['https://example.com/private/open/x', true],
      ['/public', true],
      ['//private', true], // "private" is the host here: the path is "/"
      ['https://example.com', true],
      ['', true],
    ] as const) {
      expect(m.isAllowed(url), url).toBe(allowed)
      expect(m.isAllowed(enc.encode(url)), `${url} (bytes)`).toBe(allowed)
    }
  })

  it('a query-only URL is matched as /?query', () => {
    expect(m.isAllowed('?q=1')).toBe(false)
    expect(m.isAllowed('https://example.com?q=1')).toBe(false)
    expect(m.isAllowed('/x?q=1')).toBe(false)
    expect(m.isAllowed('/x?r=1')).toBe(true)
    expect(m.explain('?q=1').rule).toEqual({ line: 4, kind: 'disallow', pattern: '/*?q=' })
  })

  it('the fragment is dropped before matching', () => {
    expect(m.isAllowed('/frag#section')).toBe(false)
    expect(m.isAllowed('https://e.com/frag#x?q=1')).toBe(false)
    expect(m.isAllowed('/fragment')).toBe(true)
    expect(m.isAllowed('https://e.com/#/private')).toBe(true)
    expect(m.isAllowed('https://e.com/ok#?q=1')).toBe(true)
  })

  it('non-ASCII URL strings are matched as their UTF-8 bytes, as given (not percent-encoded)', () => {
    // `Disallow: /ü` is stored as /%C3%BC; the raw URL /ü does not match it.
    expect(m.isAllowed('/ü')).toBe(true)
    expect(m.isAllowed(enc.encode('/ü'))).toBe(true)
    expect(m.isAllowed('/%C3%BC')).toBe(false)
    // `Disallow: /%c3%a4` is uppercased; the URL is not.
    expect(m.isAllowed('/%C3%A4')).toBe(false)
    expect(m.isAllowed('/%c3%a4')).toBe(true)
    expect(m.isAllowed('/ä')).toBe(true)
    for (const url of ['/ü', '/ä/x', 'https://ä.example/%C3%BC', '/\u{1f600}', '/x?ü=1#ä']) {
      expect(m.isAllowed(url), url).toBe(m.isAllowed(enc.encode(url)))
      expect(m.explain(url), url).toEqual(m.explain(enc.encode(url)))
    }
  })

  it('a rule with a raw UTF-8 pattern matches the percent-encoded URL', () => {
    const r = parseRobots('User-agent: *\nDisallow: /\nAllow: /foo/bar/ツ\n').agent('bot')
    expect(r.isAllowed('http://foo.bar/foo/bar/%E3%83%84')).toBe(true)
    expect(r.isAllowed('http://foo.bar/foo/bar/ツ')).toBe(false)
  })

  it('a NUL in the URL ends the path', () => {
    expect(m.isAllowed('/pub\u0000/private')).toBe(true)
    expect(m.isAllowed('/private\u0000x')).toBe(false)
  })
})

describe('api: explain', () => {
  it('an index.html allow also allows its directory exactly, reported on its own line', () => {
    const m = parseRobots('User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n').agent('bot')
    expect(m.explain('/d/')).toEqual({ allowed: true, rule: { line: 3, kind: 'allow', pattern: '/d/$' } })
    expect(m.explain('/d/index.html')).toEqual({ allowed: true, rule: { line: 3, kind: 'allow', pattern: '/d/index.html' } })
    expect(m.explain('/d/x')).toEqual({ allowed: false, rule: { line: 2, kind: 'disallow', pattern: '/d/' } })
    expect(m.isAllowed('/d/?x')).toBe(false)
    expect(m.isAllowed('/d/index.htm')).toBe(false)
    const htm = parseRobots('User-agent: *\nDisallow: /\nAllow: /a/b/index.htm\n').agent('bot')
    expect(htm.isAllowed('/a/b/')).toBe(true)
    expect(htm.isAllowed('/a/b/index.htm')).toBe(true)
    expect(htm.isAllowed('/a/')).toBe(false)
    expect(htm.explain('/a/b/').rule?.line).toBe(3)
  })

  it('an empty Disallow: is no rule, but the reference reports its line (allowed)', () => {
    const robots = parseRobots('User-agent: *\nDisallow:\n')
    const ex = robots.agent('bot').explain('/anything')
    expect(ex.allowed).toBe(true)
    expect(ex.rule?.line).toBe(2)
    expect(ex.rule?.pattern).toBe('')
    expect(referenceDecide(compactRulesOf(robots), ['bot'], enc.encode('/anything'))).toMatchObject({ allowed: true, line: 2 })
  })

  it('an empty Allow: ties an empty Disallow: and is reported', () => {
    const robots = parseRobots('User-agent: *\nDisallow:\nAllow:\n')
    expect(robots.agent('bot').explain('/x')).toEqual({ allowed: true, rule: { line: 3, kind: 'allow', pattern: '' } })
    expect(referenceDecide(compactRulesOf(robots), ['bot'], enc.encode('/x')).line).toBe(3)
  })

  it('no rule and no group: rule null', () => {
    expect(parseRobots('').agent('bot').explain('/x')).toEqual({ allowed: true, rule: null })
    expect(parseRobots('User-agent: other\nDisallow: /\n').agent('bot').explain('/x')).toEqual({ allowed: true, rule: null })
  })

  it('the longest pattern wins, ties go to allow; lines follow the reference', () => {
    const m = parseRobots('User-agent: *\nAllow: /\nDisallow: /*\nDisallow: /ab\nAllow: /ab\nAllow: /a$\n').agent('b')
    expect(m.explain('/x')).toEqual({ allowed: false, rule: { line: 3, kind: 'disallow', pattern: '/*' } })
    expect(m.explain('/ab')).toEqual({ allowed: true, rule: { line: 5, kind: 'allow', pattern: '/ab' } })
    expect(m.explain('/a')).toEqual({ allowed: true, rule: { line: 6, kind: 'allow', pattern: '/a$' } })
  })
})

describe('api: matchLines', () => {
  const m = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /$\n').agent('bot')

  it('one verdict per LF-separated line; CR before LF dropped; last line without LF counts; empty line is /', () => {
    const text = '/private/x\r\n/private/ok\n\n/public\nhttps://h/private'
    const lines = new Int32Array(5)
    const out = m.matchLines(enc.encode(text), undefined, lines)
    expect([...out]).toEqual([0, 1, 0, 1, 0])
    expect([...lines]).toEqual([2, 3, 4, 0, 2])
    expect([...m.matchLines(enc.encode('/a\n'))]).toEqual([1])
    expect([...m.matchLines(new Uint8Array(0))]).toEqual([])
  })

  it('reuses a caller buffer and returns the filled part; too small is a RangeError', () => {
    const out = new Uint8Array(10).fill(7)
    const got = m.matchLines(enc.encode('/private\n/x\n'), out)
    expect(got.length).toBe(2)
    expect(got.buffer).toBe(out.buffer)
    expect([...out.subarray(0, 3)]).toEqual([0, 1, 7])
    expect(() => m.matchLines(enc.encode('/a\n/b\n/c'), new Uint8Array(2))).toThrow(RangeError)
    expect(() => m.matchLines(enc.encode('/a\n/b'), new Uint8Array(2), new Int32Array(1))).toThrow(RangeError)
  })
})

describe('api: serialisation', () => {
  const BODY = [
    '\ufeffUser-agent: *',
    'Disallow: /private',
    'Allow: /private/open',
    'Crawl-delay: 3',
    'User-agent: a',
    'Disallow: /ä',
    'Allow: /d/index.html',
    'Disallow:',
    'Sitemap: https://example.com/s1.xml',
    'Sitemap: /relative',
    'Host: example.com',
    'Visit-time: 0100-0200',
    'Request-rate: 1/5s',
    'Bogus: x',
    'User-agent: MJ12bot',
    'Disallow: /mj',
  ].join('\r\n')
  const URLS = ['/', '/private', '/private/open', '/%C3%A4', '/d/', '/d/index.html', '/mj', 'https://x/private?q#f', '']
  const TOKENS = ['a', 'MJ', 'mj12bot', 'other', '', 'A']

  function sameAnswers(a: Robots, b: Robots): void {
    expect(b.truncated).toBe(a.truncated)
    expect(b.bytesRead).toBe(a.bytesRead)
    expect(b.lineCount).toBe(a.lineCount)
    expect(b.sitemaps).toEqual(a.sitemaps)
    for (const t of TOKENS) {
      expect(b.crawlDelay(t)).toEqual(a.crawlDelay(t))
      expect(b.requestRate(t)).toEqual(a.requestRate(t))
      expect(b.visitTime(t)).toEqual(a.visitTime(t))
      expect(b.host(t)).toEqual(a.host(t))
      for (const u of URLS) {
        expect(b.agent(t).isAllowed(u), `${t} ${u}`).toBe(a.agent(t).isAllowed(u))
        expect(b.agent(t).explain(u)).toEqual(a.agent(t).explain(u))
      }
    }
    // After the same calls on both: the file's diagnostics, then the warnings of the tokens asked about (mj12bot, '').
    expect(b.diagnostics).toEqual(a.diagnostics)
    expect(Buffer.compare(b.toBytes(), a.toBytes())).toBe(0)
  }

  it('Robots.fromBytes(robots.toBytes()) answers identically', () => {
    const robots = parseRobots(BODY)
    sameAnswers(robots, Robots.fromBytes(robots.toBytes()))
    sameAnswers(robots, Robots.fromBytes(robots.toBytes(), { engine: 'plain' }))
    // From a view into a larger, unaligned buffer too.
    const bytes = robots.toBytes()
    const big = new Uint8Array(bytes.length + 7)
    big.set(bytes, 3)
    sameAnswers(robots, Robots.fromBytes(big.subarray(3, 3 + bytes.length)))
  })

  it('a truncated robots.txt keeps truncated / bytesRead through serialisation', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a\n' + '#'.repeat(600_000))
    const loaded = Robots.fromBytes(robots.toBytes())
    expect(loaded.truncated).toBe(true)
    expect(loaded.bytesRead).toBe(512_000)
    expect(loaded.agent('x').isAllowed('/a')).toBe(false)
  })

  itShared('api-corpus', () => {
    const dir = resolve(SHARED, 'corpus/robots')
    for (const f of ['protego/en.wikipedia.org', 'protego/www.mavcsoport.hu', 'anubhavp28-usage-stats/gamespot.com', 'protego/www.myvue.com']) {
      const robots = parseRobots(new Uint8Array(readFileSync(resolve(dir, f))))
      const loaded = Robots.fromBytes(robots.toBytes())
      for (const t of ['Googlebot', 'bingbot', 'other']) {
        for (const u of ['/', '/wiki/Special:Search', '/w/index.php?title=x', '/api/', '/trap/', '/index.html']) {
          expect(loaded.agent(t).explain(u), `${f} ${t} ${u}`).toEqual(robots.agent(t).explain(u))
        }
      }
    }
  })

  function formatError(bytes: Uint8Array): RobotsFormatError {
    try {
      Robots.fromBytes(bytes)
    } catch (e) {
      return e as RobotsFormatError
    }
    throw new Error('fromBytes accepted a corrupt buffer')
  }

  const good = parseRobots(BODY).toBytes()

  it('wrong magic → ERR_FORMAT', () => {
    const bad = good.slice()
    bad[0] ^= 0xff
    const e = formatError(bad)
    expect(e).toBeInstanceOf(RobotsFormatError)
    expect(e).toBeInstanceOf(RobotsError)
    expect(e.code).toBe('ERR_FORMAT')
    expect(formatError(enc.encode('User-agent: *\nDisallow: /')).code).toBe('ERR_FORMAT')
    expect(formatError(new Uint8Array(0)).code).toBe('ERR_FORMAT')
  })

  it('a future version → ERR_VERSION', () => {
    const bad = good.slice()
    new DataView(bad.buffer).setUint16(4, FORMAT_VERSION + 1, true)
    const e = formatError(bad)
    expect(e).toBeInstanceOf(RobotsFormatError)
    expect(e.code).toBe('ERR_VERSION')
    expect(e.message).toContain(String(FORMAT_VERSION + 1))
  })

  it('a truncated or padded buffer → ERR_FORMAT', () => {
    for (const n of [0, 4, 35, 36, good.length - 1]) expect(formatError(good.subarray(0, n)).code, `length ${n}`).toBe('ERR_FORMAT')
    const padded = new Uint8Array(good.length + 4)
    padded.set(good)
    expect(formatError(padded).code).toBe('ERR_FORMAT')
  })

  it('regression: a flipped byte anywhere (header included) is rejected, never loaded as different data', () => {
    // Flipping a header byte (flags, bytesRead, lineCount, the low bits of the
    // pattern length) used to load silently: the checksum only covered the body.
    for (let i = 0; i < good.length; i++) {
      for (const mask of [0x01, 0x80]) {
        const bad = good.slice()
        bad[i] ^= mask
        const e = formatError(bad)
        expect(e, `byte ${i} ^ ${mask}`).toBeInstanceOf(RobotsFormatError)
        expect(['ERR_FORMAT', 'ERR_VERSION']).toContain(e.code)
        // A version this build does not read; a flip to version 2 (read too) fails the checksum.
        const version = bad[4] | (bad[5] << 8)
        if ((i === 4 || i === 5) && version !== 2) expect(e.code).toBe('ERR_VERSION')
      }
    }
  })

  it('a non-Uint8Array is a TypeError', () => {
    expect(() => Robots.fromBytes('RATX' as unknown as Uint8Array)).toThrow(TypeError)
  })
})

describe('api: sitemaps', () => {
  it('absolute sitemaps in file order, wherever they appear; others ignored', () => {
    const robots = parseRobots(
      [
        'Sitemap: https://a.example/first.xml',
        'User-agent: *',
        'Sitemap: http://a.example/second.xml',
        'Disallow: /x',
        'sitemap:https://b.example/third.xml # comment',
        'Sitemap: /relative.xml',
        'User-agent: b',
        'site-map: https://a.example/fourth.xml',
        'Sitemap: https://a.example/first.xml',
      ].join('\n'),
    )
    expect(robots.sitemaps).toEqual([
      'https://a.example/first.xml',
      'http://a.example/second.xml',
      'https://b.example/third.xml',
      'https://a.example/fourth.xml',
      'https://a.example/first.xml',
    ])
    // A sitemap line does not close the user-agent list (reference): b's group is still open.
    expect(robots.agent('x').isAllowed('/x')).toBe(false)
  })

  it('sitemap URLs keep non-ASCII characters as written', () => {
    expect(parseRobots('Sitemap: https://a.example/kärta.xml').sitemaps).toEqual(['https://a.example/kärta.xml'])
  })
})
