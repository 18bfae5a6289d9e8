/**
 * What a crawler may fetch (`robots.access`, `CrawlerSet.access`): the
 * class (every path, some, none) against brute force, every path over a
 * small alphabet up to a length the witnesses never pass, judged by the
 * reference port; on hand-written rule sets (the edge cases docs/crawlers.md
 * names) and seeded random ones, every engine and tier. The example paths
 * must have the verdicts they stand for.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRobots, type Robots } from '../../src/index.js'
import { compactRulesOf, referenceDecide } from '../../src/internals.js'
import { ENGINES } from '../support/engines.js'

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

/** Every path `/` + up to `length` chars of `alphabet`. */
function* paths(alphabet: readonly string[], length: number): Generator<string> {
  let level = ['/']
  yield '/'
  for (let n = 0; n < length; n++) {
    const next: string[] = []
    for (const p of level) for (const c of alphabet) next.push(p + c)
    yield* next
    level = next
  }
}

/** The class by brute force: every path of the alphabet up to `length`, judged by the reference port. */
function bruteClass(robots: Robots, tokens: readonly string[], alphabet: readonly string[], length: number): string {
  const rules = compactRulesOf(robots)
  let allowed = false
  let disallowed = false
  for (const p of paths(alphabet, length)) {
    if (referenceDecide(rules, tokens, latin1(p)).allowed) allowed = true
    else disallowed = true
    if (allowed && disallowed) return 'some'
  }
  return allowed ? 'everything' : 'nothing'
}

/** The pattern characters of a body's rule lines, plus one no pattern holds. */
function alphabetOf(body: string): string[] {
  const chars = new Set<string>(['/'])
  for (const m of body.matchAll(/^\s*(?:allow|disallow)\s*:\s*([^#\r\n]*)/gim)) for (const c of m[1].trim()) if (c !== '*' && c !== '$') chars.add(c)
  chars.add('~')
  return [...chars]
}

/** Checks the class of `body` for FooBot on every engine against `expected`, and its examples against the reference. */
function checkClass(body: string, expected: string, tokens: readonly string[] = ['FooBot']): void {
  for (const e of ENGINES) {
    const robots = parseRobots(body, e.options)
    const a = robots.access(tokens.length === 1 ? tokens[0] : tokens)
    expect(a.access, `${e.name}: ${body}`).toBe(expected)
    const rules = compactRulesOf(robots)
    if (a.allowedPath !== null) expect(referenceDecide(rules, tokens, latin1(a.allowedPath)).allowed, `${e.name} allowed ${a.allowedPath}`).toBe(true)
    if (a.disallowedPath !== null) expect(referenceDecide(rules, tokens, latin1(a.disallowedPath)).allowed, `${e.name} disallowed ${a.disallowedPath}`).toBe(false)
    expect(a.allowedPath === null).toBe(expected === 'nothing')
    expect(a.disallowedPath === null).toBe(expected === 'everything')
  }
}

const G = 'User-agent: FooBot\n'

describe('access classes: the edge cases, read by hand', () => {
  const cases: [string, string, string][] = [
    ['no robots.txt rules at all', '', 'everything'],
    ['Disallow: /', `${G}Disallow: /`, 'nothing'],
    ['Disallow: / beside Allow: /$ (the root page stays allowed)', `${G}Disallow: /\nAllow: /$`, 'some'],
    ['an empty group naming the crawler (the * groups are then ignored)', `User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n`, 'everything'],
    ['an empty Disallow: closing the crawler\'s group before a * group', `User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /`, 'everything'],
    ['Disallow: empty', `${G}Disallow:`, 'everything'],
    ['Disallow: /*', `${G}Disallow: /*`, 'nothing'],
    ['Disallow: * (a pattern starting with *)', `${G}Disallow: *`, 'nothing'],
    ['Disallow: /*$', `${G}Disallow: /*$`, 'nothing'],
    ['Disallow: /$ alone (the root only)', `${G}Disallow: /$`, 'some'],
    ['an Allow more specific than Disallow: /', `${G}Disallow: /\nAllow: /p/`, 'some'],
    ['an Allow covered by a longer Disallow', `${G}Disallow: /\nAllow: /a\nDisallow: /a*`, 'nothing'],
    ['Allow: / against a longer Disallow: /*', `${G}Allow: /\nDisallow: /*`, 'nothing'],
    ['Allow: /* ties Disallow: /* (allow wins ties)', `${G}Disallow: /*\nAllow: /*`, 'everything'],
    ['Allow: * ties Disallow: / (allow wins ties)', `${G}Disallow: /\nAllow: *`, 'everything'],
    ['Allow: /* beats Disallow: /', `${G}Disallow: /\nAllow: /*`, 'everything'],
    ['Allow: /index.html also allows / (its directory, exactly)', `${G}Disallow: /\nAllow: /index.html`, 'some'],
    ['a pattern that starts with neither / nor * matches nothing', `${G}Disallow: private`, 'everything'],
    ['a pattern with * inside', `${G}Disallow: /*.php$`, 'some'],
    ['every path matched by two disallows, none by an allow', `${G}Disallow: /a\nDisallow: /`, 'nothing'],
    ['Allow: /$ and Allow: /*? beside Disallow: /', `${G}Disallow: /\nAllow: /$\nAllow: /*?`, 'some'],
    ['Disallow: /* beside Allow: /*$ (allow is longer, matches every path)', `${G}Disallow: /*\nAllow: /*$`, 'everything'],
    ['Disallow: /*a* with Allow: /*', `${G}Disallow: /*a*\nAllow: /*`, 'some'],
    ['Allow: */a (it matches /a from the path\'s first byte) against a longer Disallow: */*/a', `${G}Disallow: /\nAllow: */a\nDisallow: */*/a`, 'some'],
    ['Allow: *a$ against Disallow: /*a$ of the same paths', `${G}Disallow: /\nAllow: *a$\nDisallow: /*a$`, 'nothing'],
    ['the * group decides an unnamed crawler', `User-agent: *\nDisallow: /`, 'nothing'],
    ['a group of another crawler only', `User-agent: Other\nDisallow: /`, 'everything'],
  ]
  for (const [name, body, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      checkClass(body, expected)
      if (body !== '') expect(bruteClass(parseRobots(body), ['FooBot'], alphabetOf(body), 5)).toBe(expected)
    })
  }

  it('the group: named, global (the * groups) or none', () => {
    expect(parseRobots('User-agent: FooBot\nDisallow: /x').access('FooBot').group).toBe('named')
    expect(parseRobots('User-agent: FooBot\n').access('FooBot').group).toBe('named')
    expect(parseRobots('User-agent: *\nDisallow: /x').access('FooBot').group).toBe('global')
    expect(parseRobots('User-agent: *\n').access('FooBot').group).toBe('global')
    expect(parseRobots('User-agent: Other\nDisallow: /').access('FooBot').group).toBe('none')
    expect(parseRobots('').access('FooBot').group).toBe('none')
    expect(parseRobots('User-agent: Other\nDisallow: /').access(['FooBot', 'Other']).group).toBe('named')
  })

  it('a file cut at the parsing limit: the rules read decide (the line crossing the limit is dropped)', () => {
    const pad = `# ${'x'.repeat(1000)}\n`.repeat(520)
    const body = `User-agent: FooBot\nDisallow: /private\n${pad}Disallow: /\n`
    const robots = parseRobots(body)
    expect(robots.truncated).toBe(true)
    expect(robots.access('FooBot').access).toBe('some')
    expect(parseRobots(body, { limit: body.length }).access('FooBot').access).toBe('nothing')
  })

  it('the example paths are paths: each gets its verdict with an origin before it, also one that starts with // (docs/crawlers.md)', () => {
    for (const body of ['User-agent: *\nDisallow: //\n', 'User-agent: *\nDisallow: /\nAllow: //a\n', 'User-agent: *\nDisallow: /*//\n']) {
      const r = parseRobots(body)
      const a = r.access('bot')
      expect(a.access, body).toBe('some')
      expect(r.isAllowed(`https://example.com${a.allowedPath}`, 'bot'), body).toBe(true)
      expect(r.isAllowed(`https://example.com${a.disallowedPath}`, 'bot'), body).toBe(false)
    }
    // Alone, '//~' is a scheme-relative URL whose path is '/': why the page says to put an origin before it.
    expect(parseRobots('User-agent: *\nDisallow: //\n').access('bot').disallowedPath).toBe('//~')
    expect(parseRobots('User-agent: *\nDisallow: //\n').isAllowed('//~', 'bot')).toBe(true)
  })

  it('the class is the same whatever the tier the matcher is in, and does not change what the matcher answers', () => {
    const body = `${G}Disallow: /\nAllow: /a*b$\nDisallow: /a*bb\nAllow: /*.html`
    const robots = parseRobots(body, { hotThreshold: 2 })
    const m = robots.agent('FooBot')
    const before = ['/x', '/ab', '/abb', '/p.html'].map((u) => m.isAllowed(u))
    expect(robots.access('FooBot').access).toBe('some')
    expect(['/x', '/ab', '/abb', '/p.html'].map((u) => m.isAllowed(u))).toEqual(before)
  })
})

describe('access classes: seeded random rule sets against brute force', () => {
  // Patterns over {/, a, b, *, $}: every witness is at most 7 bytes, so paths of '/' and 6 more chars of
  // {/, a, b, ~} hold one of every verdict the rules give.
  const pattern = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$'), { minLength: 0, maxLength: 4 }).map((a) => a.join(''))
  const rule = fc.record({ allow: fc.boolean(), p: fc.oneof(pattern, pattern.map((p) => '/' + p), pattern.map((p) => '*' + p)) })
  it('every engine and tier = brute force, 250 seeded rule sets', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 5 }), fc.constantFrom('', 'Disallow: /\n', 'Disallow: *\n', 'Allow: /\n'), (rs, base) => {
        const body = G + base + rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.p}`).join('\n')
        const expected = bruteClass(parseRobots(body), ['FooBot'], ['/', 'a', 'b', '$', '~'], 6)
        checkClass(body, expected)
      }),
      { seed: 31_2026, numRuns: 250 },
    )
  })

  it('index.htm rules and longer patterns, the examples verified: 300 seeded rule sets', () => {
    const piece = fc.constantFrom('/', 'a', 'b', '*', '$', 'index.html', '/index.htm', '?')
    const p = fc.array(piece, { minLength: 1, maxLength: 5 }).map((a) => a.join(''))
    const r = fc.record({ allow: fc.boolean(), p: fc.oneof(p, p.map((x) => '/' + x)) })
    fc.assert(
      fc.property(fc.array(r, { minLength: 1, maxLength: 6 }), (rs) => {
        const body = G + rs.map((x) => `${x.allow ? 'Allow' : 'Disallow'}: ${x.p}`).join('\n')
        const robots = parseRobots(body)
        const a = robots.access('FooBot')
        const rules = compactRulesOf(robots)
        if (a.allowedPath !== null) expect(referenceDecide(rules, ['FooBot'], latin1(a.allowedPath)).allowed).toBe(true)
        if (a.disallowedPath !== null) expect(referenceDecide(rules, ['FooBot'], latin1(a.disallowedPath)).allowed).toBe(false)
        // Brute force over the pieces' characters finds no verdict the class rules out.
        const brute = bruteClass(robots, ['FooBot'], ['/', 'a', 'b', '?', 'i', '~'], 4)
        if (a.access === 'everything') expect(brute).toBe('everything')
        if (a.access === 'nothing') expect(brute).toBe('nothing')
      }),
      { seed: 20_261_129, numRuns: 300 },
    )
  })
})
