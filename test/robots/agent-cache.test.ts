/**
 * The matchers of one Robots (src/agent-cache.ts): shared by selection and
 * bounded (issue 13, item 5: "the per-agent matcher cache has no bound").
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { AGENT_CACHE_ENTRIES } from '../../src/robots/agent-cache.js'

describe('agent cache', () => {
  it('regression: the per-agent matcher cache had no bound (200,000 distinct tokens share the * matcher)', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /g\n')
    const first = robots.agent('bot0')
    expect(first.isAllowed('/private')).toBe(false)
    const base = robots.memoryUsage()
    for (let i = 1; i < 200_000; i++) {
      const m = robots.agent('bot' + i)
      if (i % 20_000 === 0) {
        expect(m).toBe(first)
        expect(m.isAllowed('/private')).toBe(false)
      }
    }
    // One matcher for all of them: the memory did not grow with the tokens.
    expect(robots.memoryUsage()).toBe(base)
    expect(robots.agent('GOOGLEBOT')).toBe(robots.agent('googlebot'))
    expect(robots.agent('googlebot')).not.toBe(first)
  })

  it('tokens that select different groups: at most AGENT_CACHE_ENTRIES matchers are kept', () => {
    const groups = Array.from({ length: 50 }, (_, i) => `User-agent: bot${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}\nDisallow: /${i}\n`)
    const robots = parseRobots(groups.join('\n'))
    const name = (i: number) => `bot${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`
    const sizes: number[] = []
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 50; i++) {
        const m = robots.agent(name(i))
        expect(m.isAllowed(`/${i}`)).toBe(false)
        expect(m.isAllowed(`/${(i + 1) % 50}x`)).toBe(true)
      }
      sizes.push(robots.memoryUsage())
    }
    // Bounded: the same size after every round, and no more than the cap of matchers.
    expect(new Set(sizes).size).toBe(1)
    const one = parseRobots(groups.join('\n'))
    one.agent(name(0)).isAllowed('/0')
    const perMatcher = one.memoryUsage() - parseRobots(groups.join('\n')).memoryUsage()
    expect(sizes[0]).toBeLessThanOrEqual(parseRobots(groups.join('\n')).memoryUsage() + (AGENT_CACHE_ENTRIES + 1) * perMatcher)
  })

  it('multi-agent sets share by selection too, and answer by their rules', () => {
    const robots = parseRobots('User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n')
    expect(robots.agents(['a', 'zzz'])).toBe(robots.agent('a'))
    expect(robots.agents(['x', 'y'])).toBe(robots.agent('q'))
    const ab = robots.agents(['a', 'b'])
    expect(ab).toBe(robots.agents(['B', 'A', 'c']))
    expect([ab.isAllowed('/a'), ab.isAllowed('/b'), ab.isAllowed('/c')]).toEqual([false, false, true])
  })
})
