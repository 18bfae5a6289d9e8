/**
 * One data suite, every engine: the automaton, the plain engine (every rule
 * against the path) and the reference engine (a port of the reference's
 * RobotsMatcher replayed per URL) must agree on every verdict and every
 * matching line. Real data from the bundled sample always, and from
 * ../shared's paired.tsv when it is there.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRobots, type Robots } from '../src/index.js'
import { referenceDecide } from '../src/internals.js'
import { matchPath, urlBytes } from '../src/match/url-path.js'
import { describePaired } from './support/corpus-data.js'

const AGENTS = ['Googlebot', 'bingbot', 'FooBot', '*', 'MJ12bot', 'Googlebot-Image', '']

/** The path the reference matches (GetPathParamsQuery, ended at `#` or NUL by matchPath). */
function referencePath(url: string | Uint8Array): Uint8Array {
  return matchPath(urlBytes(url))
}

/** Checks one (robots, agent, url) on every engine; returns a description of the first disagreement. */
function disagreement(auto: Robots, plain: Robots, agent: string, url: string): string | null {
  const ref = referenceDecide(auto.rules, [agent], referencePath(url))
  const a = auto.agent(agent)
  const p = plain.agent(agent)
  const got = {
    auto: a.isAllowed(url),
    autoBytes: a.isAllowed(urlBytes(url)),
    plain: p.isAllowed(url),
    line: a.explain(url).rule?.line ?? 0,
    plainLine: p.explain(url).rule?.line ?? 0,
  }
  if (got.auto !== ref.allowed || got.autoBytes !== ref.allowed || got.plain !== ref.allowed || got.line !== ref.line || got.plainLine !== ref.line) {
    return JSON.stringify({ agent, url, ref: { allowed: ref.allowed, line: ref.line }, got })
  }
  return null
}

describePaired('differential: every URL against its host robots.txt', 'differential-paired', (source) => {
  it('covers the whole source', () => {
    expect(source.hosts().reduce((n, h) => n + h.urls.length, 0)).toBe(source.urlCount)
  })
  for (const agent of AGENTS) {
    it(`agent ${JSON.stringify(agent)}: automaton = plain = reference on every URL`, () => {
      const bad: string[] = []
      let checked = 0
      for (const h of source.hosts()) {
        const body = h.robots ?? new Uint8Array(0)
        const auto = parseRobots(body)
        const plain = parseRobots(body, { engine: 'plain' })
        for (const url of h.urls) {
          checked++
          const d = disagreement(auto, plain, agent, url)
          if (d && bad.length < 10) bad.push(d)
        }
      }
      expect(bad).toEqual([])
      expect(checked).toBe(source.urlCount)
    })
  }

  it('automaton = reference on URLs derived from every robots.txt file\'s own patterns', () => {
    const bad: string[] = []
    let checked = 0
    for (const h of source.hosts()) {
      if (!h.robots) continue
      const auto = parseRobots(h.robots)
      const plain = parseRobots(h.robots, { engine: 'plain' })
      const urls = new Set<string>()
      for (const agent of ['Googlebot', '*']) {
        const set = auto.rulesFor(agent)
        for (let r = 0; r < set.count && urls.size < 120; r++) {
          const pat = new TextDecoder().decode(set.pattern(r))
          const lit = pat.replace(/\$$/, '')
          urls.add(lit.replace(/\*/g, ''))
          urls.add(lit.replace(/\*/g, 'x/y'))
          urls.add(lit.replace(/\*/g, '') + 'tail')
          urls.add(lit.replace(/\*/g, '') + '?q=1')
          urls.add(lit.slice(0, Math.max(1, lit.length - 1)))
          urls.add('https://' + h.host + lit.replace(/\*/g, 'abc'))
        }
      }
      for (const url of urls) {
        for (const agent of ['Googlebot', 'bingbot']) {
          checked++
          const d = disagreement(auto, plain, agent, url)
          if (d && bad.length < 10) bad.push(`${h.robotsFile}: ${d}`)
        }
      }
    }
    expect(bad).toEqual([])
    expect(checked).toBeGreaterThan(source.id === 'full' ? 10_000 : 1_000)
  }, 300_000)
})

describe('differential: seeded random rule sets and URLs', () => {
  const alphabet = ['/', 'a', 'b', 'c', '*', '$', '%2f', '%2F', '%a', 'ä', '?', '=', '.', 'index.html', '/index.htm', 'x']
  const piece = fc.constantFrom(...alphabet)
  const pattern = fc.array(piece, { minLength: 0, maxLength: 8 }).map((a) => a.join(''))
  const rule = fc.record({
    kind: fc.constantFrom('Allow', 'Disallow', 'allow', 'Disalow'),
    pattern: fc.oneof(pattern, pattern.map((p) => '/' + p), pattern.map((p) => '/shared/prefix/' + p)),
  })
  const group = fc.record({
    agents: fc.array(fc.constantFrom('*', 'FooBot', 'foobot', 'BarBot', 'Foo', '* extra', ''), { minLength: 1, maxLength: 2 }),
    rules: fc.array(rule, { maxLength: 6 }),
    ext: fc.constantFrom('', 'Crawl-delay: 5', 'Sitemap: https://e.com/s.xml', 'Noindex: /x'),
  })
  const robots = fc.array(group, { maxLength: 4 }).map((groups) =>
    groups
      .map((g) => [...g.agents.map((a) => `User-agent: ${a}`), g.ext, ...g.rules.map((r) => `${r.kind}: ${r.pattern}`)].join('\n'))
      .join('\n'),
  )
  const url = fc.oneof(
    fc.array(fc.constantFrom('/', 'a', 'b', 'c', '%2f', '%2F', 'ä', '?', '=', '.', 'index.html', '$', '*', '#', 'x', 'shared', 'prefix'), { maxLength: 10 }).map((a) => a.join('')),
    fc.array(fc.constantFrom('/', 'a', 'b', 'c', '%2f', 'ä', '?', 'x', 'index.html'), { maxLength: 10 }).map((a) => 'http://example.com/' + a.join('')),
    fc.string({ maxLength: 20 }),
  )
  it('automaton = plain = reference (verdict and line), 3000 seeded cases', () => {
    fc.assert(
      fc.property(robots, fc.array(url, { minLength: 1, maxLength: 8 }), fc.constantFrom('FooBot', 'BarBot', 'Other', ''), (body, urls, agent) => {
        const auto = parseRobots(body)
        const plain = parseRobots(body, { engine: 'plain' })
        for (const u of urls) {
          const d = disagreement(auto, plain, agent, u)
          if (d) throw new Error(`${d}\n--- robots.txt ---\n${body}`)
        }
      }),
      { seed: 20261121, numRuns: 3000 },
    )
  })

  it('regression (star dominance pruning): *-dense patterns over a two-letter alphabet, 3000 seeded cases', () => {
    const pat = fc.array(fc.constantFrom('a', 'b', '*', '*', 'ab', '$'), { minLength: 1, maxLength: 9 }).map((a) => '/' + a.join(''))
    const rules = fc.array(fc.record({ allow: fc.boolean(), p: pat }), { minLength: 1, maxLength: 8 })
    const path = fc.array(fc.constantFrom('a', 'b', '$', '*'), { maxLength: 14 }).map((a) => '/' + a.join(''))
    fc.assert(
      fc.property(rules, fc.array(path, { minLength: 1, maxLength: 10 }), (rs, urls) => {
        const body = 'User-agent: *\n' + rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.p}`).join('\n')
        const auto = parseRobots(body)
        const plain = parseRobots(body, { engine: 'plain' })
        for (const u of urls) {
          const d = disagreement(auto, plain, 'FooBot', u)
          if (d) throw new Error(`${d}\n--- robots.txt ---\n${body}`)
        }
      }),
      { seed: 424242, numRuns: 3000 },
    )
  })
})
