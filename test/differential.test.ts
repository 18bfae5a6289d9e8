/**
 * One data suite, every engine and tier (test/support/engines.ts): tiered
 * (the default), cold, hot, thrash-proof, switching (tiers changing inside
 * the URL lists) and plain must all give the reference engine's verdict and
 * matching line (a port of the reference's RobotsMatcher, replayed per URL),
 * for string URLs and their bytes. Real data from the bundled sample always,
 * and from ../shared's paired.tsv when it is there.
 *
 * The reference port is slow (every event replayed, every rule matched, per
 * URL), so each reference answer is computed once per case and shared by
 * every engine's check; and since the reference depends on the crawler's
 * tokens only through which user-agent names they equal, agents that equal
 * the same names of a file share its answers (the "name signature").
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRobots, type AgentMatcher, type Robots } from '../src/index.js'
import { referenceDecide, compactRulesOf } from '../src/internals.js'
import { asciiLower } from '../src/parse/product-token.js'
import { matchPath, urlBytes } from '../src/url/url-path.js'
import { describePaired, type PairedHost } from './support/corpus-data.js'
import { ENGINES, FAST_ENGINES, type EngineCase } from './support/engines.js'
import { checkSets, PAIRED_SETS, RANDOM_SETS } from './support/crawler-sets.js'

const AGENTS = ['Googlebot', 'bingbot', 'FooBot', '*', 'MJ12bot', 'Googlebot-Image', '']

/** The path the reference matches (GetPathParamsQuery, ended at `#` or NUL by matchPath). */
function referencePath(url: string | Uint8Array): Uint8Array {
  return matchPath(urlBytes(url))
}

/** A reference answer packed in one number: line * 2 + allowed. */
function referenceAnswer(robots: Robots, tokens: readonly string[], url: string): number {
  const ref = referenceDecide(compactRulesOf(robots), tokens, referencePath(url))
  return ref.line * 2 + (ref.allowed ? 1 : 0)
}

/** Which user-agent names of the file the tokens equal: the only way the tokens reach the reference's answer. */
function nameSignature(robots: Robots, tokens: readonly string[]): string {
  const lower = new Set(tokens.map(asciiLower))
  const hits: number[] = []
  compactRulesOf(robots).names.forEach((n, i) => {
    if (lower.has(n)) hits.push(i)
  })
  return hits.join(',')
}

/** Compares one engine's matcher with a packed reference answer; returns a description of a disagreement, or null. */
function check(engine: string, m: AgentMatcher, url: string, want: number): string | null {
  const allowed = (want & 1) === 1
  const line = want >> 1
  const ex = m.explain(url)
  const got = { isAllowed: m.isAllowed(url), bytes: m.isAllowed(urlBytes(url)), explainAllowed: ex.allowed, line: ex.rule?.line ?? 0 }
  if (got.isAllowed !== allowed || got.bytes !== allowed || got.explainAllowed !== allowed || got.line !== line) {
    return JSON.stringify({ engine, url, ref: { allowed, line }, got })
  }
  return null
}

/**
 * The reference answers of one host, cached by name signature: a host's
 * answers for an agent that equals the same names as an agent seen before
 * are not computed again.
 */
class HostAnswers {
  private readonly bySignature = new Map<string, Int32Array>()
  constructor(
    readonly host: PairedHost,
    readonly robots: Robots,
  ) {}
  for(agent: string | readonly string[]): Int32Array {
    const tokens = typeof agent === 'string' ? [agent] : agent
    const sig = nameSignature(this.robots, tokens)
    let answers = this.bySignature.get(sig)
    if (answers === undefined) {
      answers = Int32Array.from(this.host.urls, (u) => referenceAnswer(this.robots, tokens, u))
      this.bySignature.set(sig, answers)
    }
    return answers
  }
}

describePaired('differential: every URL against its host robots.txt', 'differential-paired', (source) => {
  let answers: HostAnswers[] | undefined
  const hostAnswers = (): HostAnswers[] => (answers ??= source.hosts().map((h) => new HostAnswers(h, parseRobots(h.robots ?? new Uint8Array(0)))))

  it('covers the whole source', () => {
    expect(source.hosts().reduce((n, h) => n + h.urls.length, 0)).toBe(source.urlCount)
  })
  for (const agent of AGENTS) {
    it(`agent ${JSON.stringify(agent)}: every engine and tier = reference on every URL`, () => {
      const bad: string[] = []
      let checked = 0
      for (const ha of hostAnswers()) {
        const want = ha.for(agent)
        const body = ha.host.robots ?? new Uint8Array(0)
        // The plain engine is as slow as the reference: it runs for the first agent of each name signature
        // (the others select the same RuleSet, which the fast engines check for every agent).
        const sig = nameSignature(ha.robots, [agent])
        const first = AGENTS.find((a) => nameSignature(ha.robots, [a]) === sig) === agent
        const engines = first ? ENGINES : FAST_ENGINES
        for (const e of engines) {
          const m = parseRobots(body, e.options).agent(agent)
          ha.host.urls.forEach((url, i) => {
            checked++
            const d = check(e.name, m, url, want[i])
            if (d && bad.length < 10) bad.push(`${ha.host.host}: ${d}`)
          })
        }
      }
      expect(bad).toEqual([])
      expect(checked).toBeGreaterThanOrEqual(source.urlCount * FAST_ENGINES.length)
    }, 300_000)
  }

  it('crawler sets of 1, 2 and 8 (shared tokens, a crawler named twice): every engine and tier, each crawler = reference on every URL', () => {
    const bad: string[] = []
    let checked = 0
    for (const ha of hostAnswers()) {
      const body = ha.host.robots ?? new Uint8Array(0)
      for (const e of ENGINES) {
        // The plain engine is as slow as the reference: the set of eight alone.
        const sets = e.name === 'plain' ? PAIRED_SETS.slice(2) : PAIRED_SETS
        for (const d of checkSets(body, e.options, sets, ha.host.urls, (tokens, i) => ha.for(tokens)[i], 10 - bad.length)) bad.push(`${ha.host.host} ${e.name}: ${d}`)
        checked += ha.host.urls.length * sets.length
      }
    }
    expect(bad).toEqual([])
    expect(checked).toBeGreaterThanOrEqual(source.urlCount * (3 * FAST_ENGINES.length + 1))
  }, 600_000)

  it('every engine and tier = reference on URLs derived from every robots.txt file\'s own patterns', () => {
    const bad: string[] = []
    let checked = 0
    for (const ha of hostAnswers()) {
      const h = ha.host
      if (!h.robots) continue
      const urls = new Set<string>()
      for (const agent of ['Googlebot', '*']) {
        const set = ha.robots.rulesFor(agent)
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
      const list = [...urls]
      const bySignature = new Map<string, number[]>()
      for (const agent of ['Googlebot', 'bingbot']) {
        // Shared by agents of one name signature, and so is the plain engine's run (see above).
        const sig = nameSignature(ha.robots, [agent])
        const seen = bySignature.get(sig)
        const want = seen ?? list.map((u) => referenceAnswer(ha.robots, [agent], u))
        bySignature.set(sig, want)
        for (const e of seen ? FAST_ENGINES : ENGINES) {
          const m = parseRobots(h.robots, e.options).agent(agent)
          list.forEach((url, i) => {
            checked++
            const d = check(e.name, m, url, want[i])
            if (d && bad.length < 10) bad.push(`${h.robotsFile}: ${d}`)
          })
        }
      }
    }
    expect(bad).toEqual([])
    expect(checked).toBeGreaterThan((source.id === 'full' ? 10_000 : 1_000) * ENGINES.length)
  }, 300_000)
})

/** Checks every URL of a case on every engine against the reference; throws with the body on a disagreement. */
function agreeOnAll(body: string, agent: string, urls: readonly string[], engines: readonly EngineCase[] = ENGINES): void {
  const robots = parseRobots(body)
  const want = urls.map((u) => referenceAnswer(robots, [agent], u))
  for (const e of engines) {
    const m = parseRobots(body, e.options).agent(agent)
    urls.forEach((u, i) => {
      const d = check(e.name, m, u, want[i])
      if (d) throw new Error(`${d}\n--- robots.txt ---\n${body}`)
    })
  }
}

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
  it('every engine and tier = reference (verdict and line), 3000 seeded cases', () => {
    fc.assert(
      fc.property(robots, fc.array(url, { minLength: 1, maxLength: 8 }), fc.constantFrom('FooBot', 'BarBot', 'Other', ''), (body, urls, agent) => {
        agreeOnAll(body, agent, urls)
      }),
      { seed: 20261121, numRuns: 3000 },
    )
  })

  it('crawler sets of 1, 2 and 8, every engine and tier: each crawler = reference (verdict and line), 1000 seeded cases', () => {
    fc.assert(
      fc.property(robots, fc.array(url, { minLength: 1, maxLength: 8 }), (body, urls) => {
        const r = parseRobots(body)
        const cache = new Map<string, number[]>()
        const want = (tokens: readonly string[], i: number): number => {
          const key = JSON.stringify(tokens)
          let answers = cache.get(key)
          if (answers === undefined) cache.set(key, (answers = urls.map((u) => referenceAnswer(r, tokens, u))))
          return answers[i]
        }
        for (const e of ENGINES) {
          const bad = checkSets(body, e.options, RANDOM_SETS, urls, want)
          if (bad.length > 0) throw new Error(`${e.name}: ${bad.join('\n')}\n--- robots.txt ---\n${body}`)
        }
      }),
      { seed: 20261129, numRuns: 1000 },
    )
  })

  it('regression (star dominance pruning): *-dense patterns over a two-letter alphabet, every engine and tier, 3000 seeded cases', () => {
    const pat = fc.array(fc.constantFrom('a', 'b', '*', '*', 'ab', '$'), { minLength: 1, maxLength: 9 }).map((a) => '/' + a.join(''))
    const rules = fc.array(fc.record({ allow: fc.boolean(), p: pat }), { minLength: 1, maxLength: 8 })
    const path = fc.array(fc.constantFrom('a', 'b', '$', '*'), { maxLength: 14 }).map((a) => '/' + a.join(''))
    fc.assert(
      fc.property(rules, fc.array(path, { minLength: 1, maxLength: 10 }), (rs, urls) => {
        const body = 'User-agent: *\n' + rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.p}`).join('\n')
        agreeOnAll(body, 'FooBot', urls)
      }),
      { seed: 424242, numRuns: 3000 },
    )
  })

  it('regression (signed past the path\'s end): sets of 9 rules and more with `*` rules, URLs whose fragment or NUL comes before a segment\'s chars, every engine and tier, 1000 seeded cases', () => {
    // The cold tier signs a string URL's chars to its end and searches a segment past the path's end, then
    // checks where the path ends: a segment, anchored or not, that occurs only after the `#` or NUL must not match.
    const seg = fc.constantFrom('a', 'b', '?', '=', 'ab', 'b=', '.x', 'a?b')
    const pat = fc
      .tuple(fc.constantFrom('/', '/a', '', '/b'), fc.array(seg, { minLength: 0, maxLength: 3 }), fc.constantFrom('', '', '$', '*'))
      .map(([head, segs, end]) => head + segs.map((x) => '*' + x).join('') + end)
    const rules = fc.array(fc.record({ allow: fc.boolean(), p: pat }), { minLength: 9, maxLength: 40 })
    const path = fc
      .array(fc.constantFrom('a', 'b', '/', '?', '=', '.x', '#', '\0', 'ab', 'é'), { maxLength: 16 })
      .map((a) => a.join(''))
    const url = fc.oneof(path.map((p) => '/' + p), path.map((p) => 'https://h.example/' + p))
    fc.assert(
      fc.property(rules, fc.array(url, { minLength: 1, maxLength: 12 }), (rs, urls) => {
        const body = 'User-agent: *\n' + rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.p}`).join('\n')
        agreeOnAll(body, 'FooBot', urls)
      }),
      { seed: 38383, numRuns: 1000 },
    )
  })

  it('*-dense rule sets large enough for the thrash-proof index to share keys and heads, every engine and tier, 300 seeded cases', () => {
    // Many rules over a small alphabet: keys (the longest floating segments) and heads repeat across rules,
    // segments occur everywhere, `$` ends some; the URLs are long enough for several occurrences.
    const seg = fc.array(fc.constantFrom('a', 'b', 'c', 'ab', 'ba'), { minLength: 1, maxLength: 3 }).map((a) => a.join(''))
    const pat = fc
      .tuple(fc.constantFrom('/', '/a', '/ab', '', '/b'), fc.array(seg, { minLength: 0, maxLength: 4 }), fc.constantFrom('', '', '$', '*'))
      .map(([head, segs, end]) => head + segs.map((s) => '*' + s).join('') + end)
    const rules = fc.array(fc.record({ allow: fc.boolean(), p: pat }), { minLength: 20, maxLength: 80 })
    const path = fc.array(fc.constantFrom('a', 'b', 'c', '/', 'ab'), { maxLength: 40 }).map((a) => '/' + a.join(''))
    fc.assert(
      fc.property(rules, fc.array(path, { minLength: 1, maxLength: 12 }), (rs, urls) => {
        const body = 'User-agent: *\n' + rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.p}`).join('\n')
        agreeOnAll(body, 'FooBot', urls)
      }),
      { seed: 909090, numRuns: 300 },
    )
  })
})
