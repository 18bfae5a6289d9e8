/**
 * The tiers (src/match/tiers.ts): where a matcher starts, when it moves on,
 * and that answers stay the reference's across every switch point — cold →
 * hot in the middle of a `matchLines` buffer (at every line), hot →
 * thrash-proof in the middle of a URL list and of a buffer. The data suites
 * run every tier pinned (test/support/engines.ts); this file covers the
 * switching itself.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { parseRobots, type AgentMatcher, type ParseOptions } from '../../src/index.js'
import { referenceDecide, compactRulesOf } from '../../src/internals.js'
import { matchPath, urlBytes } from '../../src/url/url-path.js'
import { COLD_INDEX_MAX_BYTES, COLD_MAX_BYTES, COLD_MAX_COST, COLD_PREFIX_RULE_BYTES, COLD_SIGNATURE_RULE_BYTES, COLD_SIGNATURE_STAR_BYTES, COLD_STAR_WEIGHT, coldFits, coldThreshold, coldWork, DEFAULT_HOT_THRESHOLD, DEFAULT_INDEXED_HOT_THRESHOLD, HOT_WORK_URLS, INDEXED_START_STARS, MIN_HOT_THRESHOLD } from '../../src/match/tiers.js'
import { LITERAL_INDEX_MIN } from '../../src/match/direct/literal-prefixes.js'
import { HEAD_MIN_RULES } from '../../src/match/direct/direct-engine.js'
import { HEAD_DEPTH, HEAD_INDEX_MAX_HEAD_BYTES } from '../../src/match/direct/head-index.js'
import type { EngineOptions } from '../../src/match/engine-options.js'
import { PINNED_TIER_NAMES, type PinnedTierName } from '../../src/match/tier.js'
import { seededRandom } from '../support/core-helpers.js'

const enc = new TextEncoder()

const RULES = [
  'User-agent: *',
  'Disallow: /private',
  'Allow: /private/ok$',
  'Disallow: /*.pdf$',
  'Allow: /d/index.html',
  'Disallow: /d/',
  'Disallow: /*?sort=',
  'Allow: /*/public/*',
].join('\n')

const URLS = [
  '/private/x', '', '/private/ok', 'https://e.com/a.pdf', 'https://e.com/a.pdf?x', '/d/', '/d/index.html', '/d/x',
  '//h/private', '?q', '#frag', '/list?sort=a', '/x/public/y', '/private/public/z', 'http://e.com/ä/private', '/q;private',
]

/** The reference's verdict and line for a URL, packed as line * 2 + allowed. */
function reference(body: string, url: string): number {
  const ref = referenceDecide(compactRulesOf(parseRobots(body)), ['bot'], matchPath(urlBytes(url)))
  return ref.line * 2 + (ref.allowed ? 1 : 0)
}

/** matchLines' verdicts and lines for a buffer, packed per line as line * 2 + allowed. */
function linesOf(m: AgentMatcher, urls: readonly string[]): number[] {
  const bytes = enc.encode(urls.join('\n'))
  const lines = new Int32Array(urls.length)
  const ends = new Int32Array(urls.length)
  const out = m.matchLines(bytes, undefined, lines, ends)
  expect(out.length).toBe(urls.length)
  let at = -1
  urls.forEach((u, i) => {
    at += enc.encode(u).length + 1
    expect(ends[i]).toBe(Math.min(at, bytes.length))
  })
  return [...out].map((v, i) => lines[i] * 2 + v)
}

describe('the names a matcher can be pinned to', () => {
  it("EngineOptions.tier, written out for the typings, takes exactly tier.ts's pinned names", () => {
    // Checked by the type checker (tsconfig.test.json); the run checks the list the option is validated against.
    expectTypeOf<NonNullable<EngineOptions['tier']>>().toEqualTypeOf<PinnedTierName>()
    expect([...PINNED_TIER_NAMES]).toEqual(['cold', 'hot', 'thrash-proof'])
    for (const tier of PINNED_TIER_NAMES) expect(parseRobots('User-agent: *\nDisallow: /a', { tier }).agent('x').stats().tier).toBe(tier)
  })
})

describe('where a matcher starts', () => {
  it('cold by default, with no automaton: its memory is its rule records and a few objects', () => {
    const m = parseRobots(RULES).agent('bot')
    const st = m.stats()
    expect(st.tier).toBe('cold')
    expect(st.engine).toBe('direct')
    expect(st.positions).toBe(0)
    expect(m.memoryUsage()).toBeLessThan(600)
    // 7 rule lines, 8 rules (the index.htm rule's directory form counts): 16 bytes each in the record table.
    expect(st.rules).toBe(8)
  })

  it('hot at once with hotThreshold 0, and for large rule sets without `*` rules that are not plain prefixes', () => {
    expect(parseRobots(RULES, { hotThreshold: 0 }).agent('bot').stats().tier).toBe('hot')
    const many = ['User-agent: *', ...Array.from({ length: COLD_MAX_COST + 1 }, (_, i) => `Disallow: /p${i}$`)].join('\n')
    expect(parseRobots(many).agent('bot').stats().tier).toBe('hot')
  })

  it('cold for a large set of plain prefix rules (found by their hash), then hot after the threshold', () => {
    const body = ['User-agent: *', 'Disallow: /*.pdf$', ...Array.from({ length: COLD_MAX_COST + 1 }, (_, i) => `${i % 5 ? 'Disallow' : 'Allow'}: /p/${i % 977}/${i}`)].join('\n')
    const urls = ['/p/3/3', '/p/3/30', '/p/12/989x', '/p/12/989.pdf', '/p/', '/q', '/p/976/9767/a']
    const want = urls.map((u) => reference(body, u))
    const m = parseRobots(body, { hotThreshold: urls.length }).agent('bot')
    expect(m.stats().tier).toBe('cold')
    urls.forEach((u, i) => expect(m.matchRange(enc.encode(u), 0, u.length), u).toBe(want[i]))
    expect(m.stats().tier).toBe('hot')
    expect(linesOf(m, urls)).toEqual(want)
  })

  it(`star-heavy sets (${INDEXED_START_STARS} \`*\` rules or more): cold with their index at once, hot after DEFAULT_INDEXED_HOT_THRESHOLD URLs`, () => {
    // INDEXED_START_STARS `*` rules: star-heavy; one fewer: the cold tier's own threshold.
    const anyStars = (n: number): string => ['User-agent: *', 'Allow: /a', ...Array.from({ length: n }, (_, i) => `Disallow: /*q${i}z`)].join('\n')
    const heavy = anyStars(INDEXED_START_STARS)
    expect(coldFits(parseRobots(heavy).rulesFor('bot'))).toBe(true)
    const urls = Array.from({ length: 12 }, (_, i) => (i % 3 ? `/s${i}/x${i * 7}/q${i}z` : `/q${i}z?a=${i}`))
    const want = urls.map((u) => reference(heavy, u))
    const m = parseRobots(heavy).agent('bot')
    expect(m.stats().tier).toBe('cold')
    // Its head index and signatures are built when the matcher is made (as for a matcher pinned cold), not after INDEX_AFTER_URLS.
    expect(m.memoryUsage()).toBe(parseRobots(heavy, { tier: 'cold' }).agent('bot').memoryUsage())
    expect(m.memoryUsage()).toBeGreaterThan(parseRobots(anyStars(INDEXED_START_STARS - 1)).agent('bot').memoryUsage())
    for (let i = 0; i < DEFAULT_INDEXED_HOT_THRESHOLD - 1; i++) {
      const ex = m.explain(urls[i % urls.length])
      if (i < urls.length) expect((ex.rule?.line ?? 0) * 2 + (ex.allowed ? 1 : 0), urls[i]).toBe(want[i])
    }
    expect(m.stats().tier).toBe('cold')
    m.isAllowed(urls[0])
    expect(m.stats().tier).toBe('hot')
    expect(linesOf(m, urls)).toEqual(want)
    const light = parseRobots(anyStars(INDEXED_START_STARS - 1)).agent('bot')
    for (let i = 0; i < DEFAULT_HOT_THRESHOLD; i++) light.isAllowed(urls[i % urls.length])
    expect(light.stats().tier).toBe('hot')
    // `*` rules under a second byte count too: the DFA's price grows with them wherever they are.
    const spread = ['User-agent: *', ...Array.from({ length: INDEXED_START_STARS }, (_, i) => `Disallow: /${String.fromCharCode(97 + (i % 4))}*q${i}z`)].join('\n')
    expect(coldThreshold(parseRobots(spread).rulesFor('bot'))).toBeLessThan(DEFAULT_HOT_THRESHOLD)
    const s = parseRobots(spread).agent('bot')
    for (let i = 0; i < DEFAULT_INDEXED_HOT_THRESHOLD - 1; i++) s.isAllowed(urls[i % urls.length])
    expect(s.stats().tier).toBe('cold')
    s.isAllowed(urls[0])
    expect(s.stats().tier).toBe('hot')
  })

  it(`in the thrash-proof engine for star-heavy sets the cold tier does not take (${INDEXED_START_STARS} \`*\` rules or more in a set too costly to try directly), then hot after the threshold`, () => {
    const stars = ['User-agent: *', ...Array.from({ length: COLD_MAX_COST / 8 }, (_, i) => `Disallow: /*p${i}`)].join('\n')
    expect(parseRobots(stars).agent('bot').stats().tier).toBe('thrash-proof')
    // Too costly for the cold tier: 300 `*` rules under one second byte (300 × COLD_STAR_WEIGHT > COLD_MAX_COST).
    const oneByte = ['User-agent: *', ...Array.from({ length: 300 }, (_, i) => `Disallow: /s*x${i}`)].join('\n')
    expect(300 * COLD_STAR_WEIGHT).toBeGreaterThan(COLD_MAX_COST)
    expect(parseRobots(oneByte).agent('bot').stats().tier).toBe('thrash-proof')
    // The answers stay the reference's across the switch to the hot tier, strings and lines alike.
    const urls = Array.from({ length: 12 }, (_, i) => (i % 3 ? `/s${i}/x${i * 7}/q${i}z` : `/q${i}z?a=${i}`))
    const want = urls.map((u) => reference(oneByte, u))
    const m = parseRobots(oneByte, { hotThreshold: 5 }).agent('bot')
    const tiers = urls.map((u, i) => {
      const ex = m.explain(u)
      expect((ex.rule?.line ?? 0) * 2 + (ex.allowed ? 1 : 0), u).toBe(want[i])
      return m.stats().tier
    })
    expect(tiers).toEqual([...Array(4).fill('thrash-proof'), ...Array(8).fill('hot')])
    expect(linesOf(parseRobots(oneByte, { hotThreshold: 5 }).agent('bot'), urls)).toEqual(want)
    // By default an indexed start judges DEFAULT_INDEXED_HOT_THRESHOLD URLs (more than a cold matcher's DEFAULT_HOT_THRESHOLD) before the DFA.
    expect(DEFAULT_INDEXED_HOT_THRESHOLD).toBeGreaterThan(DEFAULT_HOT_THRESHOLD)
    const d = parseRobots(oneByte).agent('bot')
    for (let i = 0; i < DEFAULT_INDEXED_HOT_THRESHOLD - 1; i++) d.isAllowed(urls[i % urls.length])
    expect(d.stats().tier).toBe('thrash-proof')
    d.isAllowed(urls[0])
    expect(d.stats().tier).toBe('hot')
  })

  it('cold for a set whose `*` rules are spread over second bytes (the cost is the worst path\'s, not the sum)', () => {
    // 260 `*` rules, 10 per second byte: 260 × COLD_STAR_WEIGHT is over COLD_MAX_COST, but a path tries at most 10 of them.
    const spread = ['User-agent: *', ...Array.from({ length: 260 }, (_, i) => `Disallow: /${String.fromCharCode(97 + (i % 26))}*x${i}`)].join('\n')
    expect(260 * COLD_STAR_WEIGHT).toBeGreaterThan(COLD_MAX_COST)
    const m = parseRobots(spread).agent('bot')
    expect(m.stats().tier).toBe('cold')
    for (const u of ['/a/x0', '/b/x27', '/c/x2', '/zz/x25', '/q']) expect(m.matchRange(enc.encode(u), 0, u.length)).toBe(reference(spread, u))
  })

  it(`a cold matcher's memory is capped (COLD_MAX_BYTES, ${COLD_MAX_BYTES} bytes) and does not grow as it judges URLs`, () => {
    // The largest rule set the cold tier tries rule by rule: COLD_MAX_COST literal `$` rules (long ones: the patterns are not the matcher's).
    const rules = Array.from({ length: COLD_MAX_COST }, (_, i) => `${i % 3 ? 'Disallow' : 'Allow'}: /${String.fromCharCode(97 + (i % 26))}${'x'.repeat(40)}${i}$`)
    const m = parseRobots(['User-agent: *', ...rules].join('\n'), { hotThreshold: Infinity }).agent('bot')
    expect(m.stats().tier).toBe('cold')
    expect(m.stats().rules).toBe(COLD_MAX_COST)
    const size = m.memoryUsage()
    // The record table alone is 16 bytes a rule: the cap is near what the rules need, not slack.
    expect(size).toBeGreaterThan(16 * COLD_MAX_COST)
    expect(size).toBeLessThanOrEqual(COLD_MAX_BYTES)
    // Long paths too (past the shared scratch buffers' size): answers stay the reference's, nothing is kept.
    const body = ['User-agent: *', ...rules].join('\n')
    const rand = seededRandom(5)
    for (let i = 0; i < 6; i++) {
      const path = '/' + String.fromCharCode(97 + Math.floor(rand() * 26)) + 'x'.repeat(40 + Math.floor(rand() * 60_000)) + i
      expect(m.matchRange(enc.encode(path), 0, path.length)).toBe(reference(body, path))
    }
    for (let i = 0; i < 2000; i++) m.isAllowed('/' + String.fromCharCode(97 + (i % 26)) + 'x'.repeat(40) + i)
    expect(m.stats().tier).toBe('cold')
    expect(m.memoryUsage()).toBe(size)
  })

  it(`a cold matcher's head index and segment signatures hold at most COLD_INDEX_MAX_BYTES (${COLD_INDEX_MAX_BYTES}) and ${COLD_SIGNATURE_RULE_BYTES} a rule, ${COLD_SIGNATURE_STAR_BYTES} a \`*\` rule more, and nothing more as it judges URLs`, () => {
    // As many `*` rules as the index files heads for, each head HEAD_DEPTH bytes, none shared past the second byte.
    const n = HEAD_INDEX_MAX_HEAD_BYTES / HEAD_DEPTH
    const rules = Array.from({ length: n }, (_, i) => `Disallow: /${String.fromCharCode(97 + (i % 26))}${String(i).padStart(4, '0')}${'q'.repeat(HEAD_DEPTH - 6)}*z${i}`)
    const body = ['User-agent: *', ...rules].join('\n')
    const m = parseRobots(body, { hotThreshold: Infinity }).agent('bot')
    expect(m.stats().tier).toBe('cold')
    const size = m.memoryUsage()
    // The trie is there: most head bytes are nodes of their own (9 bytes each), and the signatures.
    expect(size).toBeGreaterThan(16 * n + 7 * HEAD_INDEX_MAX_HEAD_BYTES + COLD_SIGNATURE_STAR_BYTES * n)
    expect(size).toBeLessThanOrEqual(COLD_MAX_BYTES + COLD_INDEX_MAX_BYTES + (COLD_SIGNATURE_RULE_BYTES + COLD_SIGNATURE_STAR_BYTES) * n)
    for (let i = 0; i < 600; i++) {
      const path = '/' + String.fromCharCode(97 + (i % 26)) + String(i).padStart(4, '0') + 'q'.repeat(HEAD_DEPTH - 6) + (i % 3 ? 'z' + i : 'y')
      if (i % 60 === 0) expect(m.matchRange(enc.encode(path), 0, path.length), path).toBe(reference(body, path))
      else m.isAllowed(path)
    }
    expect(m.memoryUsage()).toBe(size)
  })

  it(`a cold matcher with a literal prefix index holds at most COLD_PREFIX_RULE_BYTES (${COLD_PREFIX_RULE_BYTES}) a plain rule more, and nothing more as it judges URLs`, () => {
    const n = 4 * LITERAL_INDEX_MIN
    // Every pattern of its own length: the most lengths the index can hold.
    const rules = Array.from({ length: n }, (_, i) => `Disallow: /${String.fromCharCode(97 + (i % 26))}${'y'.repeat(i)}`)
    const body = ['User-agent: *', ...rules].join('\n')
    const m = parseRobots(body, { hotThreshold: Infinity }).agent('bot')
    expect(m.stats().tier).toBe('cold')
    const size = m.memoryUsage()
    expect(size).toBeGreaterThan(16 * n)
    expect(size).toBeLessThanOrEqual(COLD_MAX_BYTES + COLD_PREFIX_RULE_BYTES * n)
    for (let i = 0; i < 300; i++) {
      const path = '/' + String.fromCharCode(97 + (i % 26)) + 'y'.repeat(i * 3) + (i % 2 ? 'z' : '')
      if (i % 50 === 0) expect(m.matchRange(enc.encode(path), 0, path.length), path.slice(0, 20)).toBe(reference(body, path))
      else m.isAllowed(path)
    }
    expect(m.memoryUsage()).toBe(size)
  })

  it('a matcher without rules stays cold whatever it judges (nothing to compile)', () => {
    const m = parseRobots('User-agent: *\nDisallow:\n', { hotThreshold: 1 }).agent('bot')
    for (let i = 0; i < 5; i++) expect(m.isAllowed('/x' + i)).toBe(true)
    expect(m.stats().tier).toBe('cold')
    expect(m.explain('/x').rule?.line).toBe(2)
  })

  it(`a set of fewer than HEAD_MIN_RULES (${HEAD_MIN_RULES}) rules waits up to DEFAULT_INDEXED_HOT_THRESHOLD (${DEFAULT_INDEXED_HOT_THRESHOLD}) URLs, answering as the reference across the switch`, () => {
    const lines = ['User-agent: *', 'Disallow: /private', 'Allow: /private/ok$', 'Disallow: /d/', 'Allow: /d/x/*', 'Disallow: /e', 'Disallow: /f/', 'Allow: /f/g', 'Disallow: /h?']
    const small = lines.slice(0, HEAD_MIN_RULES).join('\n')
    expect(parseRobots(small).rulesFor('bot').count).toBe(HEAD_MIN_RULES - 1)
    expect(coldThreshold(parseRobots(small).rulesFor('bot'))).toBe(DEFAULT_INDEXED_HOT_THRESHOLD)
    const want = URLS.map((u) => reference(small, u))
    const m = parseRobots(small).agent('bot')
    for (let i = 0; i < DEFAULT_INDEXED_HOT_THRESHOLD - URLS.length; i++) m.isAllowed('/a' + i)
    expect(m.stats().tier).toBe('cold')
    // The switch falls on the buffer's last line.
    expect(linesOf(m, URLS)).toEqual(want)
    expect(m.stats().tier).toBe('hot')
    expect(linesOf(m, URLS)).toEqual(want)
    // One rule more: the default threshold.
    expect(coldThreshold(parseRobots(lines.join('\n')).rulesFor('bot'))).toBe(DEFAULT_HOT_THRESHOLD)
    // A small set with a rule that searches along the path: sooner, by the same rent (HOT_WORK_URLS over the work).
    const searching = parseRobots(['User-agent: *', 'Disallow: /*.pdf$', 'Disallow: /a', 'Allow: /b'].join('\n')).rulesFor('bot')
    expect(coldThreshold(searching)).toBe(Math.round(HOT_WORK_URLS / coldWork(searching)))
    expect(coldThreshold(searching)).toBeGreaterThan(DEFAULT_HOT_THRESHOLD)
    expect(coldThreshold(searching)).toBeLessThan(DEFAULT_INDEXED_HOT_THRESHOLD)
  })

  it('pinned tiers never move; engine plain has no tiers', () => {
    for (const tier of ['cold', 'hot', 'thrash-proof'] as const) {
      const m = parseRobots(RULES, { tier, hotThreshold: 1, matcherBudget: 4096 }).agent('bot')
      for (let i = 0; i < 300; i++) m.isAllowed(`/x${i}/public/${i}`)
      expect(m.stats().tier).toBe(tier)
    }
    expect(parseRobots(RULES, { engine: 'plain' }).agent('bot').stats().tier).toBe('plain')
  })
})

describe('cold → hot', () => {
  it(`after hotThreshold URLs (default ${DEFAULT_HOT_THRESHOLD} for a set the cold tier judges cheaply), by isAllowed, explain and matchRange alike`, () => {
    // HEAD_MIN_RULES rules or more, so that DEFAULT_HOT_THRESHOLD applies.
    const literal = ['User-agent: *', 'Disallow: /private', 'Allow: /private/ok$', 'Disallow: /d/', 'Allow: /d/x/*', 'Disallow: /e', 'Disallow: /f/', 'Allow: /f/g', 'Disallow: /h?'].join('\n')
    expect(parseRobots(literal).rulesFor('bot').count).toBeGreaterThanOrEqual(HEAD_MIN_RULES)
    expect(coldThreshold(parseRobots(literal).rulesFor('bot'))).toBe(DEFAULT_HOT_THRESHOLD)
    const m = parseRobots(literal).agent('bot')
    const bytes = enc.encode('/private')
    for (let i = 0; i < DEFAULT_HOT_THRESHOLD - 1; i++) {
      if (i % 3 === 0) m.isAllowed('/a' + i)
      else if (i % 3 === 1) m.explain('/a' + i)
      else m.matchRange(bytes, 0, bytes.length)
    }
    expect(m.stats().tier).toBe('cold')
    expect(m.isAllowed('/private')).toBe(false)
    expect(m.stats().tier).toBe('hot')
    expect(m.stats().engine).toBe('automaton')
  })

  it(`sooner for a set whose cold checks cost more: ${HOT_WORK_URLS} URLs over the cold work per URL, at least ${MIN_HOT_THRESHOLD}`, () => {
    // RULES: three `*` rules that search along every path, and literal ones by second byte.
    const set = parseRobots(RULES).rulesFor('bot')
    const work = coldWork(set)
    expect(work).toBeGreaterThan(3 * COLD_STAR_WEIGHT)
    const threshold = coldThreshold(set)
    expect(threshold).toBe(Math.max(MIN_HOT_THRESHOLD, Math.round(HOT_WORK_URLS / work)))
    expect(threshold).toBeLessThan(DEFAULT_HOT_THRESHOLD)
    const m = parseRobots(RULES).agent('bot')
    for (let i = 0; i < threshold - 1; i++) m.isAllowed('/a' + i)
    expect(m.stats().tier).toBe('cold')
    expect(m.isAllowed('/x.pdf')).toBe(false)
    expect(m.stats().tier).toBe('hot')
    // A `*` that only ends a pattern is a prefix test, not a search: no cost beyond a literal rule's.
    expect(coldWork(parseRobots('User-agent: *\nDisallow: /a/*\nDisallow: /b**').rulesFor('bot'))).toBe(1)
    // A large set's plain prefix rules are found by their hash, not tried: they count for nothing, so such a set keeps the full threshold.
    const prefixes = ['User-agent: *', 'Disallow: /*.pdf', ...Array.from({ length: LITERAL_INDEX_MIN }, (_, i) => `Disallow: /p/${i}`)].join('\n')
    expect(coldWork(parseRobots(prefixes).rulesFor('bot'))).toBe(COLD_STAR_WEIGHT)
    expect(coldThreshold(parseRobots(prefixes).rulesFor('bot'))).toBe(DEFAULT_HOT_THRESHOLD)
    const fewer = ['User-agent: *', 'Disallow: /*.pdf', ...Array.from({ length: LITERAL_INDEX_MIN - 2 }, (_, i) => `Disallow: /p/${i}`)].join('\n')
    expect(coldWork(parseRobots(fewer).rulesFor('bot'))).toBe(COLD_STAR_WEIGHT + LITERAL_INDEX_MIN - 2)
    // Searching rules every path tries: sooner; with many more under one second byte too, the floor.
    const anyStars = Array.from({ length: INDEXED_START_STARS - 1 }, (_, i) => `Disallow: /*q${i}z`)
    expect(coldThreshold(parseRobots(['User-agent: *', ...anyStars].join('\n')).rulesFor('bot'))).toBeLessThan(DEFAULT_HOT_THRESHOLD)
    const many = ['User-agent: *', ...anyStars, ...Array.from({ length: 2 * INDEXED_START_STARS }, (_, i) => `Disallow: /a*q${i}z`)].join('\n')
    expect(coldFits(parseRobots(many).rulesFor('bot'))).toBe(true)
    expect(coldThreshold(parseRobots(many).rulesFor('bot'))).toBe(MIN_HOT_THRESHOLD)
    // An explicit hotThreshold wins.
    const fixed = parseRobots(RULES, { hotThreshold: 600 }).agent('bot')
    for (let i = 0; i < 599; i++) fixed.isAllowed('/a' + i)
    expect(fixed.stats().tier).toBe('cold')
  })

  it('a large set of plain prefix rules (found by their hash in the cold tier) is not sent hot sooner for their number', () => {
    // Regression: the cold work counted every plain prefix rule, so a file of thousands of them went hot after
    // MIN_HOT_THRESHOLD URLs and paid its large DFA's first states for a few dozen URLs.
    const prefixes = Array.from({ length: 4 * LITERAL_INDEX_MIN }, (_, i) => `Disallow: /${String.fromCharCode(97 + (i % 26))}${i}/`)
    const plain = parseRobots(['User-agent: *', ...prefixes].join('\n')).rulesFor('bot')
    expect(coldFits(plain)).toBe(true)
    expect(coldWork(plain)).toBe(0)
    expect(coldThreshold(plain)).toBe(DEFAULT_HOT_THRESHOLD)
    // Their second bytes still count among the groups: a searching rule's cost is spread over them all.
    const searching = parseRobots(['User-agent: *', ...prefixes, 'Disallow: /a*x'].join('\n')).rulesFor('bot')
    expect(coldWork(searching)).toBeCloseTo(COLD_STAR_WEIGHT / 26, 5)
    const m = parseRobots(['User-agent: *', ...prefixes].join('\n')).agent('bot')
    for (let i = 0; i < DEFAULT_HOT_THRESHOLD - 1; i++) m.isAllowed('/a' + i)
    expect(m.stats().tier).toBe('cold')
    expect(m.isAllowed('/b1/x')).toBe(false)
    expect(m.stats().tier).toBe('hot')
  })

  it('Infinity never goes hot', () => {
    const m = parseRobots(RULES, { hotThreshold: Infinity }).agent('bot')
    for (let i = 0; i < 2 * DEFAULT_HOT_THRESHOLD; i++) m.isAllowed('/a' + i)
    expect(m.stats().tier).toBe('cold')
  })

  it('in the middle of a matchLines buffer, at every line: verdicts, lines and line ends are the reference\'s', () => {
    const want = URLS.map((u) => reference(RULES, u))
    for (let threshold = 1; threshold <= URLS.length + 1; threshold++) {
      const m = parseRobots(RULES, { hotThreshold: threshold }).agent('bot')
      expect(linesOf(m, URLS), `threshold ${threshold}`).toEqual(want)
      expect(m.stats().tier).toBe(threshold <= URLS.length ? 'hot' : 'cold')
      // And the next buffer runs on the tier reached.
      expect(linesOf(m, URLS), `threshold ${threshold}, again`).toEqual(want)
    }
  })

  it('isAllowed before, matchLines across the threshold, isAllowed after: one count of URLs', () => {
    const m = parseRobots(RULES, { hotThreshold: 10 }).agent('bot')
    for (let i = 0; i < 4; i++) m.isAllowed('/a')
    expect(linesOf(m, URLS.slice(0, 5))).toEqual(URLS.slice(0, 5).map((u) => reference(RULES, u)))
    expect(m.stats().tier).toBe('cold')
    expect(m.isAllowed('/private/ok')).toBe(true)
    expect(m.stats().tier).toBe('hot')
  })
})

/** The hostile family of issue 13: `Disallow: /*abcd`, 4 letters of 16, and URLs over the same letters. */
function hostile(rules: number, seed: number): string {
  const rnd = seededRandom(seed)
  const letters = 'abcdefghijklmnop'
  const lines = ['User-agent: *']
  for (let i = 0; i < rules; i++) {
    let w = ''
    for (let k = 0; k < 4; k++) w += letters[Math.floor(rnd() * 16)]
    lines.push(`${i % 11 === 0 ? 'Allow' : 'Disallow'}: /*${w}${i % 7 === 0 ? '$' : ''}`)
  }
  return lines.join('\n')
}

function hostileUrls(n: number, length: number, seed: number): string[] {
  const rnd = seededRandom(seed)
  const letters = 'abcdefghijklmnop'
  return Array.from({ length: n }, () => {
    let u = 'https://example.com/'
    while (u.length < length) u += letters[Math.floor(rnd() * 16)]
    return u
  })
}

describe('hot → thrash-proof', () => {
  // 240 `*` rules (star-heavy, cold for the threshold's URLs), a cache small enough to thrash.
  const body = hostile(240, 7)
  const urls = hostileUrls(40, 118, 8)
  const want = urls.map((u) => reference(body, u))
  const options: ParseOptions = { hotThreshold: 3, matcherBudget: 4096 }

  it('in the middle of a URL list: the thrashing DFA is dropped, answers stay the reference\'s', () => {
    const m = parseRobots(body, options).agent('bot')
    const bytesMatcher = parseRobots(body, options).agent('bot')
    const tiers: string[] = []
    urls.forEach((u, i) => {
      const ex = m.explain(u)
      expect((ex.rule?.line ?? 0) * 2 + (ex.allowed ? 1 : 0), u).toBe(want[i])
      expect(bytesMatcher.isAllowed(enc.encode(u))).toBe(ex.allowed)
      tiers.push(m.stats().tier)
    })
    expect(bytesMatcher.stats().tier).toBe('thrash-proof')
    // Cold for the threshold's URLs, hot for a few, then thrash-proof for the rest.
    expect(tiers.slice(0, 2)).toEqual(['cold', 'cold'])
    const firstHot = tiers.indexOf('hot')
    expect(firstHot).toBe(2)
    const backToTp = tiers.indexOf('thrash-proof', firstHot)
    expect(backToTp).toBeGreaterThan(firstHot)
    expect(backToTp).toBeLessThan(10)
    expect(tiers.slice(backToTp).every((t) => t === 'thrash-proof')).toBe(true)
    expect(m.stats().positions).toBe(0) // the DFA is gone
  })

  it('in the middle of a matchLines buffer (the DFA\'s fused loop stops after the line where it thrashed)', () => {
    const m = parseRobots(body, { ...options, hotThreshold: 0 }).agent('bot')
    expect(m.stats().tier).toBe('hot')
    expect(linesOf(m, urls)).toEqual(want)
    expect(m.stats().tier).toBe('thrash-proof')
  })

  it('a pinned hot tier keeps its DFA (flushing within its budget) and the same answers', () => {
    const m = parseRobots(body, { ...options, tier: 'hot' }).agent('bot')
    expect(linesOf(m, urls)).toEqual(want)
    const st = m.stats()
    expect(st.tier).toBe('hot')
    expect(st.flushes).toBeGreaterThan(0)
  })

  it('regression (issue 13: 30,000 `/*abcd` rules, 510 KB, made the DFA slower than robots-parser): the matcher moves to the thrash-proof tier within its first URLs', () => {
    const big = hostile(30_000, 13)
    expect(big.length).toBeGreaterThan(480_000)
    const robots = parseRobots(big)
    expect(robots.truncated).toBe(false)
    const m = robots.agent('Googlebot')
    // 30,000 `*` rules: too costly for the cold tier; an indexed start (the DFA comes after the threshold, and thrashes).
    expect(m.stats().tier).toBe('thrash-proof')
    const sample = hostileUrls(12, 118, 14)
    const wantBig = sample.map((u) => {
      const ref = referenceDecide(compactRulesOf(robots), ['Googlebot'], matchPath(urlBytes(u)))
      return ref.line * 2 + (ref.allowed ? 1 : 0)
    })
    const tiers = sample.map((u, i) => {
      const ex = m.explain(u)
      expect((ex.rule?.line ?? 0) * 2 + (ex.allowed ? 1 : 0), u).toBe(wantBig[i])
      return m.stats().tier
    })
    // The default 4 MiB budget fills within the first URL (states of ~30,000 positions each): one flush, then the switch.
    expect(tiers.indexOf('thrash-proof')).toBeGreaterThanOrEqual(0)
    expect(tiers.indexOf('thrash-proof')).toBeLessThanOrEqual(2)
  })
})

describe('options', () => {
  it('hotThreshold: a whole number >= 0 or Infinity, else ERR_RANGE; tier: cold, hot or thrash-proof, else ERR_INPUT', () => {
    for (const bad of [-1, 0.5, Number.NaN, '3', null, -Infinity, 2 ** 53]) {
      expect(() => parseRobots(RULES, { hotThreshold: bad as number }), String(bad)).toThrow(expect.objectContaining({ code: 'ERR_RANGE' }))
    }
    for (const ok of [0, 1, 1000, Infinity]) expect(() => parseRobots(RULES, { hotThreshold: ok })).not.toThrow()
    for (const bad of ['warm', '', 1, null]) {
      expect(() => parseRobots(RULES, { tier: bad as 'cold' }), String(bad)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    }
    expect(() => parseRobots(RULES, { tier: 'hot', engine: 'plain' })).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })
})
