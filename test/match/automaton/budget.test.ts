/**
 * Budgets on pathological input: whatever the rules, the lazy DFA's memory
 * stays under its budget (plus one state) and its answers stay the
 * reference's. The DFA is pinned (`tier: 'hot'`) where its cache is
 * measured: left to the tiers, a thrashing cache hands the matcher to the
 * thrash-proof engine (test/match/tiers.test.ts). Timings belong to
 * bench/worst-case.mjs, not here.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { referenceDecide, compactRulesOf } from '../../../src/internals.js'
import { MIN_MATCHER_BUDGET } from '../../../src/match/automaton/lazy-dfa.js'
import { matchPath } from '../../../src/url/url-path.js'

function starHeavy(count: number): string {
  const lines = ['User-agent: *']
  const letters = 'abcdefghij'
  for (let i = 0; i < count; i++) {
    const parts = []
    for (let k = 0; k < 3 + (i % 6); k++) parts.push(letters[(i * 7 + k * 3) % letters.length])
    lines.push(`${i % 3 ? 'Disallow' : 'Allow'}: /*${parts.join('*')}${i % 5 === 0 ? '$' : ''}`)
  }
  return lines.join('\n')
}

function randomUrl(seed: number, length: number): string {
  let x = seed
  let s = '/'
  const alphabet = 'abcdefghij/?=.'
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    s += alphabet[x % alphabet.length]
  }
  return s
}

/** The pinned DFA and the default tiers both give the reference's answers. */
function agreesWithReference(body: string, urls: string[], budget?: number): void {
  for (const tier of ['hot', undefined] as const) {
    const robots = parseRobots(body, { ...(budget ? { matcherBudget: budget } : {}), tier })
    const m = robots.agent('Googlebot')
    for (const url of urls) {
      const ref = referenceDecide(compactRulesOf(robots), ['Googlebot'], matchPath(new TextEncoder().encode(url)))
      expect(m.isAllowed(url), url.slice(0, 80)).toBe(ref.allowed)
      expect(m.explain(url).rule?.line ?? 0).toBe(ref.line)
    }
  }
}

describe('matcher budget', () => {
  it('rejects a budget below the minimum with a RangeError (ERR_BUDGET) where it is given', () => {
    expect(() => parseRobots('User-agent: *\nDisallow: /a', { matcherBudget: 10 }).agent('x')).toThrow(RangeError)
    expect(() => parseRobots('User-agent: *\nDisallow: /a', { matcherBudget: 10 })).toThrow(expect.objectContaining({ code: 'ERR_BUDGET' }))
    expect(() => parseRobots('User-agent: *\nDisallow: /a', { matcherBudget: MIN_MATCHER_BUDGET }).agent('x')).not.toThrow()
  })

  it('thousands of *-heavy rules: memory stays within the budget, answers stay the reference\'s', () => {
    const body = starHeavy(3000)
    const budget = 256 * 1024
    const robots = parseRobots(body, { matcherBudget: budget, tier: 'hot' })
    const m = robots.agent('Googlebot')
    const urls = Array.from({ length: 60 }, (_, i) => randomUrl(i + 1, 40 + i * 3))
    for (const url of urls) {
      m.isAllowed(url)
      // The promise (lazy-dfa.ts, README): the state cache never holds more than the budget plus one state.
      const st = m.stats()
      expect(st.cacheBytes).toBeLessThanOrEqual(budget + st.largestStateBytes)
    }
    const st = m.stats()
    expect(st.flushes).toBeGreaterThan(0)
    expect(st.budget).toBe(budget)
    expect(st.peakCacheBytes).toBeLessThanOrEqual(budget + st.largestStateBytes)
    // The bound is tight enough to mean something: one state is a small part of the budget here.
    expect(st.largestStateBytes).toBeGreaterThan(0)
    expect(st.largestStateBytes).toBeLessThan(budget / 4)
    expect(st.peakCacheBytes).toBeGreaterThan(budget / 2)
    agreesWithReference(body, urls.slice(0, 25), budget)
  })

  it('the smallest budget still answers correctly (flush on nearly every state), within budget plus one state', () => {
    const body = starHeavy(200)
    const urls = Array.from({ length: 40 }, (_, i) => randomUrl(i + 7, 60))
    agreesWithReference(body, urls, MIN_MATCHER_BUDGET)
    const m = parseRobots(body, { matcherBudget: MIN_MATCHER_BUDGET, tier: 'hot' }).agent('Googlebot')
    for (const url of urls) m.isAllowed(url)
    const st = m.stats()
    expect(st.flushes).toBeGreaterThan(urls.length)
    expect(st.peakCacheBytes).toBeLessThanOrEqual(MIN_MATCHER_BUDGET + st.largestStateBytes)
  })

  it('20,000 distinct rules compile lazily and answer like the reference', () => {
    const lines = ['User-agent: *']
    for (let i = 0; i < 20_000; i++) lines.push(`Disallow: /dir${i}/page`)
    lines.push('Allow: /dir1/')
    const body = lines.join('\n')
    const urls = ['/dir1/page', '/dir19999/page', '/dir19999/pag', '/dir20000/page', '/dir1/x', '/other']
    agreesWithReference(body, urls)
    const m = parseRobots(body, { tier: 'hot' }).agent('x')
    for (const u of urls) m.isAllowed(u)
    expect(m.stats().states).toBeLessThan(200)
  })

  it('long shared prefixes and a 16 KiB rule', () => {
    const prefix = '/a'.repeat(500)
    const lines = ['User-agent: *']
    for (let i = 0; i < 300; i++) lines.push(`Disallow: ${prefix}/${i}`)
    lines.push(`Allow: /${'x'.repeat(16 * 1024)}`)
    lines.push(`Disallow: /${'x'.repeat(8 * 1024)}`)
    const body = lines.join('\n')
    agreesWithReference(body, [prefix + '/1', prefix + '/299', prefix + '/300', prefix, '/' + 'x'.repeat(16 * 1024 + 5), '/' + 'x'.repeat(9000)])
  })

  it('URLs of 8 KiB and 64 KiB against *-heavy rules', () => {
    const body = starHeavy(100)
    agreesWithReference(body, [randomUrl(3, 8 * 1024), randomUrl(4, 64 * 1024), 'http://h/' + randomUrl(5, 8192)])
  })

  it('memoryUsage() grows with compiled states and is reported by the Robots', () => {
    const robots = parseRobots(starHeavy(50), { tier: 'hot' })
    const before = robots.memoryUsage()
    const m = robots.agent('Googlebot')
    const fresh = m.memoryUsage()
    for (let i = 0; i < 50; i++) m.isAllowed(randomUrl(i, 50))
    expect(m.memoryUsage()).toBeGreaterThan(fresh)
    expect(robots.memoryUsage()).toBeGreaterThan(before)
  })
})
