/** The varint event stream: what the writer adds, the cursor reads back. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EventCursor, EventType, EventWriter, formLayout } from '../../src/rules/compact-rules.js'
import { parseRobots } from '../../src/index.js'
import { handRules } from '../support/forms.js'
import { compactRulesOf } from '../../src/internals.js'

describe('event stream', () => {
  it('round-trips any events (types, line gaps up to 2^40, lengths and indices up to 2^40)', () => {
    const event = fc.record({
      type: fc.constantFrom(0, 1, 2, 3, 4),
      gap: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 ** 40 })),
      value: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2 ** 40 })),
    })
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const w = new EventWriter()
        let line = 0
        for (const e of events) w.add(e.type, (line += e.gap), e.value)
        const rules = handRules({ events: w })
        const c = new EventCursor(rules)
        let at = 0
        line = 0
        let patternEnd = formLayout(rules.bytes).patternsStart // the patterns start after the form's header
        for (const e of events) {
          expect(c.next()).toBe(true)
          line += e.gap
          expect([c.type, c.line, c.index]).toEqual([e.type, line, at++])
          if (e.type === EventType.Allow || e.type === EventType.Disallow) {
            expect([c.a, c.b]).toEqual([patternEnd, patternEnd + e.value])
            patternEnd += e.value
          } else if (e.type !== EventType.UaGlobal) expect(c.a).toBe(e.value)
        }
        expect(c.next()).toBe(false)
      }),
      { seed: 5, numRuns: 500 },
    )
  })

  it('a truncated stream is an error, not a wrong event', () => {
    const w = new EventWriter()
    w.add(EventType.UaName, 300, 200)
    w.out.length--
    expect(() => new EventCursor(handRules({ events: w })).next()).toThrow(expect.objectContaining({ name: 'RobotsFormatError', code: 'ERR_FORMAT' }))
  })

  it('a parsed file keeps a few bytes per directive', () => {
    const body = 'User-agent: *\n' + Array.from({ length: 1000 }, (_, i) => `Disallow: /p${i}/`).join('\n')
    const robots = parseRobots(body)
    expect(compactRulesOf(robots).eventCount).toBe(1001)
    expect(compactRulesOf(robots).events.length).toBeLessThan(1001 * 3)
  })
})
