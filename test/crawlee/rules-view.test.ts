/**
 * The rules view Crawlee's RobotsTxtFile answers through (src/crawlee/rules-view.ts),
 * on its own: its argument checks.
 */
import { describe, expect, it } from 'vitest'
import { RulesView } from '../../src/crawlee/rules-view.js'
import { parseRobots, RobotsInputError } from '../../src/index.js'

describe('RulesView', () => {
  const robots = parseRobots('User-agent: MyBot\nDisallow: /m\n\nUser-agent: *\nDisallow: /s\n')
  const view = new RulesView('https://example.com', { current: () => robots })

  it('regression: a non-string user agent with a URL of another origin answered undefined (with one of the origin: ERR_INPUT): ERR_INPUT whatever the URL', () => {
    for (const url of ['https://other.example/m', 'https://example.com/m', '/m', 'not a url']) {
      for (const bad of [42, {}, Symbol('ua'), ['MyBot']]) {
        expect(() => view.isAllowed(url, bad), `${url} ${String(typeof bad)}`).toThrow(RobotsInputError)
      }
    }
    expect(view.isAllowed('https://other.example/m', 'MyBot')).toBeUndefined()
    expect(view.isAllowed('https://example.com/m', 'MyBot')).toBe(false)
    expect(view.isAllowed('https://example.com/m', null)).toBe(true)
    expect(view.isAllowed('https://example.com/s')).toBe(false)
  })
})
