/** String URLs are matched exactly as their UTF-8 bytes (TextEncoder's encoding), without making the bytes. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventType, EventWriter } from '../../../src/rules/compact-rules.js'
import { handForm } from '../../support/forms.js'
import { parseRobots } from '../../../src/index.js'
import { robotsOfForm } from '../../../src/robots/robots.js'

const enc = new TextEncoder()

describe('string URLs = their UTF-8 bytes', () => {
  const body = 'User-agent: *\nDisallow: /a*b$\nDisallow: /%C3%A4\nAllow: /*x\nDisallow: /é\nDisallow: /*?q=\n'
  // Each tier pinned, and the default (cold, then hot): the hot tier feeds a run of non-ASCII chars to its DFA as one step.
  it.each(['cold', 'hot', 'thrash-proof', undefined] as const)('non-ASCII, surrogate pairs and lone surrogates (seeded), tier %s', (tier) => {
    const m = parseRobots(body, { tier }).agent('x')
    const piece = fc.constantFrom('a', 'b', 'x', '/', '?q=', 'ä', 'é', '€', '😀', '\ud800', '\udc00', '%C3%A4', '#', '\u0000')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const url = '/' + parts.join('')
        const b = enc.encode(url)
        expect(m.isAllowed(url)).toBe(m.isAllowed(b))
        expect(m.explain(url)).toEqual(m.explain(b))
      }),
      { seed: 99, numRuns: 3000 },
    )
  })
  it('regression: a pattern with a raw non-ASCII byte (only possible from a foreign buffer) still compares bytes', () => {
    // Rules whose pattern holds the raw UTF-8 bytes of "ä" (escaping would have made it %C3%A4).
    const raw = enc.encode('/ä')
    const w = new EventWriter()
    w.add(EventType.UaGlobal, 1, 0)
    w.add(EventType.Disallow, 2, raw.length)
    const robots = robotsOfForm(handForm({ events: w, patterns: raw, lineCount: 2, bytesRead: 30 }))
    const matcher = robots.agent('x')
    expect(matcher.isAllowed('/ä')).toBe(false)
    expect(matcher.isAllowed(enc.encode('/ä'))).toBe(false)
    expect(matcher.isAllowed('/a')).toBe(true)
    expect(matcher.isAllowed('/é')).toBe(true)
  })
})
