/**
 * Property tests (fast-check, seeded): no input makes the core throw; product
 * tokens that are names of Object.prototype members behave like any other
 * name; and for random small rule sets and URLs every engine agrees with the
 * reference port (verdict and matching line).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapePattern, parseRobots, reportLines, Robots } from '../src/index.js'
import { referenceDecide, compactRulesOf } from '../src/internals.js'
import { matchPath, urlBytes } from '../src/url/url-path.js'
import { latin1Bytes } from './support/core-helpers.js'
import { ENGINES } from './support/engines.js'

const SEED = 20_240_917
const RUNS = 400

/** The path the reference matches for `url` (GetPathParamsQuery, ended at `#` or NUL by matchPath). */
function refPath(url: string | Uint8Array): Uint8Array {
  return matchPath(urlBytes(url))
}

/** Bytes built from robots.txt-ish fragments, so random input reaches deep into the parser. */
const FRAGMENTS = [
  'User-agent:', 'user-agent: *', 'User-agent: a', 'useragent:b', 'User agent: A', 'Allow:', 'Disallow:', 'disallow /x',
  'Dissallow:', 'Sitemap:', 'site-map: http://h/s', 'Crawl-delay:', 'Request-rate: 1/5m', 'Visit-time: 0100-0200',
  'Host: h.example', 'Noindex: /', ':', ' ', '\t', '\v', '\f', '\n', '\r', '\r\n', '\0', '#', '*', '$', '%', '%2f', '%C3',
  '/', '/a', 'index.html', '?', ';', '<html>', '\xef\xbb\xbf', '\xef\xbb', '\xff', '\xc3\xa4', '\xe2\x82', '1e9', '-1', '0.5',
]
const robotsish = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), { maxLength: 40 })
  .map((parts) => latin1Bytes(parts.join('')))

const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 400 }), robotsish)
/** Any UTF-16 string, lone surrogates included. */
const anyString = fc.string({ unit: 'binary', maxLength: 200 })
const anyToken = fc.oneof(
  fc.constantFrom('', '*', 'a', 'A', 'b', 'googlebot', '__proto__', 'constructor', 'MJ12bot', 'a b', '\u00e4', '\ud800'),
  fc.string({ unit: 'binary', maxLength: 8 }),
)
const anyUrl = fc.oneof(
  anyString,
  fc.constantFrom('', '/', '//', '?', '#', 'http://h', 'https://h/a?b#c', '//h/x', '/a\u0000b', '\ud800', '/\u00e4'),
)

/** Everything a user may call on a parsed body; must not throw, and must answer as the reference. */
function exercise(robots: Robots, token: string, url: string | Uint8Array): void {
  const m = robots.agent(token)
  const allowed = m.isAllowed(url)
  const ref = referenceDecide(compactRulesOf(robots), [token], refPath(url))
  expect(allowed).toBe(ref.allowed)
  const ex = m.explain(url)
  expect(ex.allowed).toBe(allowed)
  expect(ex.rule?.line ?? 0).toBe(ref.line)
  expect(robots.agents([token, 'other']).isAllowed(url)).toBe(referenceDecide(compactRulesOf(robots), [token, 'other'], refPath(url)).allowed)
  robots.crawlDelay(token)
  robots.requestRate(token)
  robots.visitTime(token)
  robots.host(token)
  void robots.diagnostics
  void robots.sitemaps
  const again = Robots.fromBytes(robots.toBytes())
  expect(again.agent(token).isAllowed(url)).toBe(allowed)
}

describe('property: nothing throws', () => {
  it('arbitrary bytes: parseRobots, reportLines, agent().isAllowed, explain', () => {
    fc.assert(
      fc.property(anyBytes, anyToken, fc.oneof(anyUrl, fc.uint8Array({ maxLength: 60 })), (body, token, url) => {
        const robots = parseRobots(body)
        const report = reportLines(body)
        expect(report.lines).toHaveLength(report.lastLineSeen)
        expect(robots.lineCount).toBe(report.lastLineSeen)
        exercise(robots, token, url)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('arbitrary strings with lone surrogates: body, token and URL', () => {
    fc.assert(
      fc.property(anyString, anyToken, anyUrl, (body, token, url) => {
        const robots = parseRobots(body)
        reportLines(body)
        exercise(robots, token, url)
        // A string body is its UTF-8 bytes (lone surrogates as U+FFFD).
        const same = parseRobots(new TextEncoder().encode(body))
        expect(Buffer.compare(same.toBytes(), robots.toBytes())).toBe(0)
      }),
      { seed: SEED + 1, numRuns: RUNS },
    )
  })
})

describe('property: Object.prototype names are ordinary product tokens', () => {
  const SPECIAL = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', '__defineGetter__', 'isPrototypeOf']
  const body = (name: string) =>
    `User-agent: ${name}\nDisallow: /x\nAllow: /x/ok\nCrawl-delay: 7\nRequest-rate: 3/1m\nVisit-time: 0100-0230\nHost: www.example.com\n\nUser-agent: *\nDisallow: /\n`

  for (const name of SPECIAL) {
    it(`'${name}' answers like 'foobar'`, () => {
      const special = parseRobots(body(name))
      const plain = parseRobots(body('foobar'))
      fc.assert(
        fc.property(fc.constantFrom('/', '/x', '/x/ok', '/x/ok/deeper', '/y', '/xy', '/x/no'), (url) => {
          expect(special.agent(name).isAllowed(url)).toBe(plain.agent('foobar').isAllowed(url))
          expect(special.agent(name).explain(url)).toEqual(plain.agent('foobar').explain(url))
        }),
        { seed: SEED + 2, numRuns: 30 },
      )
      expect(special.agent(name).isAllowed('/y')).toBe(true) // its own group, not `*`
      expect(special.agent(name).isAllowed('/x')).toBe(false)
      expect(special.crawlDelay(name)).toBe(7)
      expect(special.requestRate(name)).toEqual({ requests: 3, seconds: 60 })
      expect(special.visitTime(name)).toEqual({ from: '01:00', to: '02:30' })
      expect(special.host(name)).toBe('www.example.com')
      // A crawler with another name gets `*`.
      expect(special.agent('other').isAllowed('/y')).toBe(false)
      expect(special.crawlDelay('other')).toBeUndefined()
      // And the special name on a body that does not mention it gets `*` too.
      expect(plain.agent(name).isAllowed('/y')).toBe(false)
      expect(plain.crawlDelay(name)).toBeUndefined()
      // Upper case spelling names the same group.
      expect(special.agent(name.toUpperCase()).isAllowed('/y')).toBe(true)
    })
  }

  it("crawlDelay('__proto__') and friends on a body without groups are undefined, not inherited values", () => {
    const robots = parseRobots('Sitemap: https://a.example/s.xml\n')
    for (const name of SPECIAL) {
      expect(robots.crawlDelay(name)).toBeUndefined()
      expect(robots.requestRate(name)).toBeUndefined()
      expect(robots.visitTime(name)).toBeUndefined()
      expect(robots.host(name)).toBeUndefined()
      expect(robots.agent(name).isAllowed('/anything')).toBe(true)
    }
  })

  it("agent('constructor') twice returns the same cached matcher (also case-insensitively)", () => {
    const robots = parseRobots(body('constructor'))
    const a = robots.agent('constructor')
    expect(robots.agent('constructor')).toBe(a)
    expect(robots.agent('CONSTRUCTOR')).toBe(a)
    expect(robots.agent('__proto__')).toBe(robots.agent('__proto__'))
    expect(robots.agent('__proto__')).not.toBe(a)
    expect(a.isAllowed('/x')).toBe(false)
  })

  it("'' names the groups whose user-agent value extracts to empty (`User-agent: 123`, empty value)", () => {
    const text = 'User-agent: 123\nDisallow: /a\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /b\n'
    const robots = parseRobots(text)
    const m = robots.agent('')
    expect(m.isAllowed('/a')).toBe(false)
    expect(m.isAllowed('/b')).toBe(true)
    expect(robots.crawlDelay('')).toBe(3)
    expect(robots.agent('x').isAllowed('/a')).toBe(true)
    expect(robots.agent('x').isAllowed('/b')).toBe(false)
    for (const url of ['/a', '/b', '/c']) {
      for (const t of ['', 'x']) {
        expect(robots.agent(t).isAllowed(url)).toBe(referenceDecide(compactRulesOf(robots), [t], refPath(url)).allowed)
      }
    }
    const empty = parseRobots('User-agent:\nDisallow: /e\nUser-agent: *\nDisallow: /\n')
    expect(empty.agent('').isAllowed('/f')).toBe(true)
    expect(empty.agent('').isAllowed('/e')).toBe(false)
    // No such group: '' falls back to `*` like any other name.
    expect(parseRobots('User-agent: *\nDisallow: /z\n').agent('').isAllowed('/z')).toBe(false)
  })
})

// ---- differential: every engine against the reference port ----

const UA_VALUES = ['*', 'a', 'A', 'b', 'a/1.0', '* x', '*x', '', '12', 'ab2', 'c d', '__proto__']
const PATTERN_PIECES = ['/', 'a', 'b', '*', '$', '%', '%2f', '%2F', 'ä', '?', ';', 'index.htm', 'index.html', 'x', '.', '#c']
const URL_PIECES = ['/', 'a', 'b', '$', '%', '%2f', '%2F', '%C3%A4', 'ä', '?', ';', '=', 'index.htm', 'index.html', 'x', '.', '#', '\u0000', '*', '\ud800', '\udc00', '\u{1f600}', '\u0080', '\r']

const pattern = fc
  .tuple(fc.constantFrom('/', '/', '/', '/', '*', ''), fc.array(fc.constantFrom(...PATTERN_PIECES), { maxLength: 5 }))
  .map(([first, p]) => first + p.join(''))
const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...UA_VALUES).map((v) => `User-agent: ${v}`) },
  { weight: 4, arbitrary: pattern.map((p) => `Disallow: ${p}`) },
  { weight: 4, arbitrary: pattern.map((p) => `Allow: ${p}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '# c', 'Crawl-delay: 2', 'Sitemap: http://s/x', 'Disallow /q', 'Dissallow: /t', 'foo', 'Useragent: b'),
  },
)
/** Lines starting with a user-agent; sometimes a rule repeated with the other kind (a priority tie). */
const ruleLines = fc
  .tuple(fc.constantFrom(...UA_VALUES), fc.array(line, { maxLength: 14 }), fc.nat(20), fc.nat(20))
  .map(([ua, ls, from, to]) => {
    const out = [`User-agent: ${ua}`, ...ls]
    const src = out[1 + (from % Math.max(1, ls.length))]
    if (src && /^(Allow|Disallow): /.test(src)) {
      const twin = src.startsWith('Allow') ? src.replace('Allow', 'Disallow') : src.replace('Disallow', 'Allow')
      out.splice(1 + (to % out.length), 0, twin)
    }
    return out
  })
const eol = fc.constantFrom('\n', '\r\n', '\r')
const url = fc.oneof(
  fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 8 }).map((p) => p.join('')),
  fc
    .tuple(fc.constantFrom('http://h', 'https://h.example:8080', '//h', ''), fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 6 }))
    .map(([pre, p]) => pre + p.join('')),
  fc.string({ unit: 'binary', maxLength: 12 }).map((t) => '/' + t),
)
const pieces = (max: number) => fc.array(fc.constantFrom(...URL_PIECES), { maxLength: max }).map((p) => p.join(''))

/** A body plus URLs, half of them made from the body's own patterns so that rules match (and tie) often. */
const scenario = fc.tuple(ruleLines, eol).chain(([lines, nl]) => {
  const text = lines.join(nl)
  const patterns = lines.filter((l) => /^(Allow|Disallow): /.test(l)).map((l) => l.slice(l.indexOf(':') + 2))
  const derived = patterns.length
    ? fc
        .tuple(fc.constantFrom(...patterns), pieces(3), pieces(3), fc.boolean(), fc.boolean(), fc.nat(12))
        .map(([p, fill, suffix, escaped, keepSuffix, cut]) => {
          let u = (escaped ? escapePattern(p) : p).replace(/\*/g, fill)
          if (u.endsWith('$')) u = u.slice(0, -1)
          else if (keepSuffix) u += suffix
          else u = u.slice(0, Math.max(0, u.length - cut))
          return u
        })
    : url
  return fc.record({ text: fc.constant(text), urls: fc.array(fc.oneof(url, derived, derived), { minLength: 1, maxLength: 8 }) })
})
const token = fc.constantFrom('a', 'A', 'b', 'c', 'x', '', '*', '__proto__')

describe('property: engines agree with the reference port', () => {
  for (const { name: engine, options } of ENGINES) {
    it(`${engine}: isAllowed and explain().rule?.line match referenceDecide`, () => {
      fc.assert(
        fc.property(scenario, token, ({ text, urls }, t) => {
          const robots = parseRobots(text, options)
          const m = robots.agent(t)
          for (const u of urls) {
            const ref = referenceDecide(compactRulesOf(robots), [t], refPath(u))
            expect(m.isAllowed(u), `${JSON.stringify(text)} ${t} ${JSON.stringify(u)}`).toBe(ref.allowed)
            const bytes = new TextEncoder().encode(u)
            expect(m.isAllowed(bytes)).toBe(ref.allowed)
            const ex = m.explain(u)
            expect(ex.allowed).toBe(ref.allowed)
            expect(ex.rule?.line ?? 0, `line for ${JSON.stringify(u)} in ${JSON.stringify(text)}`).toBe(ref.line)
            expect(m.explain(bytes).rule?.line ?? 0).toBe(ref.line)
            if (ex.rule && ref.kind) expect(ex.rule.kind).toBe(ref.kind)
          }
        }),
        { seed: SEED + 10, numRuns: 500 },
      )
    })

    it(`${engine}: agents([t1, t2]) matches referenceDecide with both tokens`, () => {
      fc.assert(
        fc.property(scenario, token, token, ({ text, urls }, t1, t2) => {
          const robots = parseRobots(text, options)
          const m = robots.agents([t1, t2])
          for (const u of urls) {
            const ref = referenceDecide(compactRulesOf(robots), [t1, t2], refPath(u))
            expect(m.isAllowed(u)).toBe(ref.allowed)
            expect(m.explain(u).rule?.line ?? 0).toBe(ref.line)
          }
        }),
        { seed: SEED + 11, numRuns: 300 },
      )
    })

    it(`${engine}: a crawler set of 1, 2 or 8 (shared tokens, a crawler twice) matches referenceDecide per crawler`, () => {
      fc.assert(
        fc.property(scenario, fc.array(fc.oneof(token, fc.array(token, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 8 }), ({ text, urls }, crawlers) => {
          const robots = parseRobots(text, options)
          const set = robots.crawlers(crawlers)
          const out = new Int32Array(crawlers.length)
          for (const u of urls) {
            set.match(u, out)
            crawlers.forEach((c, k) => {
              const ref = referenceDecide(compactRulesOf(robots), typeof c === 'string' ? [c] : c, refPath(u))
              expect(out[k], `${JSON.stringify(text)} ${JSON.stringify(c)} ${JSON.stringify(u)}`).toBe(ref.line * 2 + (ref.allowed ? 1 : 0))
            })
          }
        }),
        { seed: SEED + 14, numRuns: 300 },
      )
    })

    it(`${engine}: matchLines gives isAllowed's verdict and explain's line for each line`, () => {
      fc.assert(
        fc.property(scenario, token, fc.boolean(), ({ text, urls }, t, crlf) => {
          const robots = parseRobots(text, options)
          const m = robots.agent(t)
          const list = urls.map((u) => u.replace(/[\r\n]/g, ''))
          const joined = new TextEncoder().encode(list.map((u) => u + (crlf ? '\r\n' : '\n')).join(''))
          const lines = new Int32Array(list.length)
          const out = m.matchLines(joined, undefined, lines)
          expect(out).toHaveLength(list.length)
          list.forEach((u, i) => {
            // An empty line is judged as `/`, which is what the empty URL means too.
            expect(out[i], JSON.stringify(u)).toBe(m.isAllowed(u) ? 1 : 0)
            expect(lines[i]).toBe(m.explain(u).rule?.line ?? 0)
          })
        }),
        { seed: SEED + 12, numRuns: 300 },
      )
    })
  }

  it('the automaton and the plain engine agree on serialised-and-loaded rules too', () => {
    fc.assert(
      fc.property(scenario, token, ({ text, urls }, t) => {
        const robots = parseRobots(text)
        const loaded = Robots.fromBytes(robots.toBytes(), { engine: 'plain' })
        for (const u of urls) {
          expect(loaded.agent(t).isAllowed(u)).toBe(robots.agent(t).isAllowed(u))
          expect(loaded.agent(t).explain(u)).toEqual(robots.agent(t).explain(u))
        }
      }),
      { seed: SEED + 13, numRuns: 300 },
    )
  })
})
