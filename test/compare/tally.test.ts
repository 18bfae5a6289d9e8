// The run's tally: complete counts, every time kept, and a bounded store of
// disagreements that still holds the first of every kind.
import { describe, expect, it } from 'vitest'
import type { Case } from '../../src/compare/case.js'
import { KEPT_MAX, KEPT_PER_KIND, Tally } from '../../src/compare/tally.js'
import type { CaseResult } from '../../src/compare/tally.js'

const c = (id: string, categories: string[]): Case => ({
  id, robots: new Uint8Array(0), agents: ['a'], url: '/', expected: { allowed: true, line: 0, rule: null }, rfc: { allowed: true, line: 0, rule: null },
  standard: 'rfc', categories, key: id.padStart(16, '0'),
})
const agree: CaseResult = { answer: { allowed: true }, ms: 1, outcome: 'agree', rfcOutcome: 'agree' }
const verdict: CaseResult = { answer: { allowed: false }, ms: 2, outcome: 'verdict', rfcOutcome: 'verdict' }
const line: CaseResult = { answer: { allowed: true, line: 3 }, ms: 3, outcome: 'line', rfcOutcome: 'agree' }
const zero = { rfcAgreed: 0, rfcVerdict: 0, rfcLine: 0 }

describe('Tally', () => {
  it('counts overall and per category, and keeps every time', () => {
    const t = new Tally()
    t.add(c('1', ['a', 'b']), agree)
    t.add(c('2', ['a']), verdict)
    t.add(c('3', []), line)
    t.add(c('4', ['b']), { answer: { error: 'x' }, ms: 0.5, outcome: 'error', rfcOutcome: 'error' })
    expect(t.total).toEqual({ cases: 4, agreed: 1, verdict: 1, line: 1, errors: 1, rfcAgreed: 2, rfcVerdict: 1, rfcLine: 0 })
    expect(Object.fromEntries(t.byCategory)).toEqual({
      a: { cases: 2, agreed: 1, verdict: 1, line: 0, errors: 0, ...zero, rfcAgreed: 1, rfcVerdict: 1 },
      b: { cases: 2, agreed: 1, verdict: 0, line: 0, errors: 1, ...zero, rfcAgreed: 1 },
    })
    expect(t.byStandard.get('rfc')).toEqual(t.total)
    expect(t.linesChecked).toBe(1)
    expect([...t.sortedTimes()]).toEqual([0.5, 1, 2, 3])
    expect(t.disagreements).toBe(3)
    expect(t.order().map((k) => k.c.id)).toEqual(['2', '3', '4'])
  })

  it('gates on RFC 9309\'s outcomes under --semantics rfc, counting both', () => {
    const t = new Tally('lines', 'rfc')
    t.add(c('1', ['a']), line)
    t.add(c('2', ['a']), verdict)
    expect(t.disagreements).toBe(1)
    expect(t.order().map((k) => k.c.id)).toEqual(['2'])
    expect(t.total).toMatchObject({ agreed: 0, line: 1, verdict: 1, rfcAgreed: 1, rfcVerdict: 1 })
  })

  it('keeps a bounded number of disagreements, round-robin over kinds, the first of each kind always', () => {
    const t = new Tally()
    for (let i = 0; i < 3 * KEPT_MAX; i++) t.add(c(`x${i}`, [`k${i % 3}`]), verdict)
    t.add(c('late', ['new-kind']), line)
    for (let i = 0; i < 5000; i++) t.add(c(`ok${i}`, ['k0']), agree)
    expect(t.total.cases).toBe(3 * KEPT_MAX + 5001)
    expect(t.disagreements).toBe(3 * KEPT_MAX + 1)
    const order = t.order()
    expect(order.length).toBe(3 * KEPT_PER_KIND + 1)
    expect(order.slice(0, 4).map((k) => k.c.id)).toEqual(['x0', 'x1', 'x2', 'late'])
    expect(t.sortedTimes()).toHaveLength(3 * KEPT_MAX + 5001)
  })
})
