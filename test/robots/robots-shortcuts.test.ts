/**
 * What a crawler developer reaches for first on `Robots`: `isAllowed(url,
 * agent)` without holding a matcher, `crawlDelay()` (and the other extension
 * getters) without a token meaning `*`, and a warning in the diagnostics
 * when the token asked about is not a product token (`agent('MyBot/1.0')`),
 * whose answers stay the reference's.
 */
import { describe, expect, it } from 'vitest'
import { DIAGNOSTICS, parseRobots, Robots, RobotsInputError } from '../../src/index.js'
import { referenceDecide } from '../../src/internals.js'
import { MAX_AGENT_WARNINGS } from '../../src/robots/robots.js'

const BODY = [
  'User-agent: *', // 1
  'Disallow: /private', // 2
  'Crawl-delay: 2', // 3
  'Request-rate: 1/5s', // 4
  'Visit-time: 0600-0845', // 5
  'Host: www.example.com', // 6
  '', // 7
  'User-agent: MyBot', // 8
  'Disallow: /nomybot', // 9
  'Crawl-delay: 7', // 10
].join('\n')

const enc = new TextEncoder()

describe('Robots.isAllowed(url, agent)', () => {
  const robots = parseRobots(BODY)

  it('answers as agent(token).isAllowed(url), for one token or several', () => {
    for (const url of ['/private/x', '/nomybot', '/public', 'https://example.com/private', new URL('https://e.com/nomybot'), enc.encode('/private')]) {
      for (const token of ['MyBot', 'Googlebot', '*', 'MyBot/1.0', '']) {
        expect(robots.isAllowed(url, token), `${String(url)} ${token}`).toBe(robots.agent(token).isAllowed(url))
      }
      expect(robots.isAllowed(url, ['Googlebot', 'MyBot'])).toBe(robots.agents(['Googlebot', 'MyBot']).isAllowed(url))
    }
    expect(robots.isAllowed('/nomybot', 'MyBot')).toBe(false)
    expect(robots.isAllowed('/private', 'MyBot')).toBe(true)
    expect(robots.isAllowed('/private', 'Googlebot')).toBe(false)
  })

  it("equals the reference engine's verdict", () => {
    const rules = (robots as unknown as { rules: Parameters<typeof referenceDecide>[0] }).rules
    for (const path of ['/private', '/nomybot', '/x'])
      for (const token of ['MyBot', 'other']) expect(robots.isAllowed(path, token)).toBe(referenceDecide(rules, [token], enc.encode(path)).allowed)
  })

  it('the agent is required: none, or not a string, is a RobotsInputError (ERR_INPUT)', () => {
    const call = robots.isAllowed.bind(robots) as (url: unknown, agent?: unknown) => boolean
    expect(() => call('/x')).toThrow(RobotsInputError)
    expect(() => call('/x', 42)).toThrow(/isAllowed\(url, agent\) takes the crawler's product token/)
    expect(() => call('/x', [42])).toThrow(/agents\(\) takes an array of product tokens/)
    expect(() => call('/x', undefined)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
  })
})

describe('crawlDelay(), requestRate(), visitTime(), host() without a token mean *', () => {
  const robots = parseRobots(BODY)

  it("as robots-parser's getCrawlDelay(): the * groups' value", () => {
    expect(robots.crawlDelay()).toBe(2)
    expect(robots.crawlDelay()).toBe(robots.crawlDelay('*'))
    expect(robots.crawlDelay('MyBot')).toBe(7)
    expect(robots.requestRate()).toEqual(robots.requestRate('*'))
    expect(robots.requestRate()).toEqual({ requests: 1, seconds: 5 })
    expect(robots.visitTime()).toEqual(robots.visitTime('*'))
    expect(robots.visitTime()).toBeDefined()
    expect(robots.host()).toBe('www.example.com')
  })

  it('an explicit undefined means * too; another type is still a RobotsInputError', () => {
    expect(robots.crawlDelay(undefined)).toBe(2)
    expect(() => robots.crawlDelay(5 as unknown as string)).toThrow(RobotsInputError)
    expect(() => robots.crawlDelay(null as unknown as string)).toThrow(RobotsInputError)
  })
})

describe('agent-not-product-token: a warning in the diagnostics', () => {
  const warnings = (r: Robots): string[] => r.diagnostics.filter((d) => d.code === 'agent-not-product-token').map((d) => d.message)

  it("agent('MyBot/1.0') gets the * rules, as in the reference, and a warning that says why and names the token to use", () => {
    const robots = parseRobots(BODY)
    expect(warnings(robots)).toEqual([])
    const m = robots.agent('MyBot/1.0')
    expect(m.isAllowed('/nomybot')).toBe(true)
    expect(m.isAllowed('/private')).toBe(false)
    const d = robots.diagnostics.at(-1)!
    expect(d).toEqual({
      line: 0,
      code: 'agent-not-product-token',
      severity: 'warning',
      message: `${DIAGNOSTICS['agent-not-product-token'][1]}: "MyBot/1.0" (its product token: "MyBot")`,
    })
    expect(robots.diagnosticTotals.warning).toBe(1)
  })

  it('product tokens and * warn nothing; every other token asked about warns once, by whichever method asked', () => {
    const robots = parseRobots(BODY)
    robots.agent('MyBot')
    robots.agent('Googlebot-Image')
    robots.agent('*')
    robots.crawlDelay()
    robots.isAllowed('/x', 'my_bot')
    expect(warnings(robots)).toEqual([])
    robots.agent('MyBot/1.0')
    robots.agent('MyBot/1.0')
    robots.isAllowed('/x', 'Mozilla/5.0 (compatible; MyBot/1.0)')
    robots.agents(['MyBot', 'MJ12bot'])
    robots.crawlDelay('Foo Bar')
    robots.agent('')
    robots.agent('123')
    expect(warnings(robots).map((m) => m.slice(DIAGNOSTICS['agent-not-product-token'][1].length + 2))).toEqual([
      '"MyBot/1.0" (its product token: "MyBot")',
      '"Mozilla/5.0 (compatible; MyBot/1.0)" (its product token: "Mozilla")',
      '"MJ12bot" (its product token: "MJ")',
      '"Foo Bar" (its product token: "Foo")',
      '""',
      '"123"',
    ])
  })

  it("the empty token's warning does not claim only the * groups apply: a User-agent value read as empty names it", () => {
    const robots = parseRobots('User-agent: 123\nDisallow: /\n\nUser-agent: *\nAllow: /\n')
    expect(robots.agent('').explain('/x')).toEqual({ allowed: false, rule: { line: 2, kind: 'disallow', pattern: '/' } })
    expect(robots.access('')).toMatchObject({ access: 'nothing', group: 'named' })
    const [w] = warnings(robots)
    expect(w).toContain('(for "": first the groups whose name reads as empty)')
    expect(w.endsWith(': ""')).toBe(true)
  })

  it('bounded: at most MAX_AGENT_WARNINGS tokens, each quoted to 100 characters', () => {
    const robots = parseRobots(BODY)
    for (let i = 0; i < 1000; i++) robots.agent(`bot${i}`)
    robots.agent(`x/${'y'.repeat(10_000)}`)
    const w = warnings(robots)
    expect(w).toHaveLength(MAX_AGENT_WARNINGS)
    const long = parseRobots('')
    long.agent(`x/${'y'.repeat(10_000)}`)
    expect(warnings(long)[0].length).toBeLessThan(DIAGNOSTICS['agent-not-product-token'][1].length + 140)
  })

  it("about the calls, not the file: toBytes does not keep them; the file's own diagnostics come first", () => {
    const robots = parseRobots('Disallow: /x\nUser-agent: *\n')
    robots.agent('a.b')
    expect(robots.diagnostics.map((d) => d.code)).toEqual(['rule-outside-group', 'agent-not-product-token'])
    expect(Robots.fromBytes(robots.toBytes()).diagnostics.map((d) => d.code)).toEqual(['rule-outside-group'])
  })

  it('counted by diagnosticTotals also past the cap of 1,000 diagnostics', () => {
    const robots = parseRobots('junkline\n'.repeat(2000))
    const before = robots.diagnosticTotals.warning
    robots.agent('v1.0')
    expect(robots.diagnosticTotals.warning).toBe(before + 1)
  })
})
