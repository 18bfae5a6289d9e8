// Attribution: which categories explain the disagreements when categories
// overlap. A category that only overlaps the cause stays out of the
// explanation; one on nearly every case comes in only for what nothing
// narrower explains; "only" counts what no other category of the
// explanation (at least half as precise) tags; the score decides what a disagreement is.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../cli/helpers.js'
import { attribute } from '../../src/compare/attribution.js'
import { CATEGORY_ORDER } from '../../src/compare/categories.js'
import type { Pattern } from '../../src/compare/tally.js'

/** A set of categories with its cases: agreed, verdict, line, errors. */
const p = (categories: string[], agreed: number, verdict: number, line = 0, errors = 0): Pattern => ({
  categories,
  counts: { cases: agreed + verdict + line + errors, agreed, verdict, line, errors, rfcAgreed: agreed, rfcVerdict: verdict, rfcLine: line },
})

describe('attribute', () => {
  it('under --semantics rfc, explains the disagreements with RFC 9309\'s answers', () => {
    // The reference sees verdict disagreements on percent-encoding; RFC 9309 agrees with the implementation there.
    const rfcAgrees: Pattern = { categories: ['percent-encoding', 'rfc-differs'], counts: { cases: 10, agreed: 0, verdict: 10, line: 0, errors: 0, rfcAgreed: 10, rfcVerdict: 0, rfcLine: 0 } }
    const both: Pattern = { categories: ['wildcard'], counts: { cases: 10, agreed: 5, verdict: 5, line: 0, errors: 0, rfcAgreed: 5, rfcVerdict: 5, rfcLine: 0 } }
    expect(attribute([rfcAgrees, both], 'lines', CATEGORY_ORDER).explanation.map((e) => e.id)).toEqual(['percent-encoding', 'wildcard'])
    expect(attribute([rfcAgrees, both], 'lines', CATEGORY_ORDER, true, 'rfc').explanation.map((e) => e.id)).toEqual(['wildcard'])
  })

  it('a first-rule-wins bug: precedence explains every disagreement, wildcard (scoring lower) none of its own', () => {
    const patterns = [
      p(['wildcard', 'precedence', 'ua-global-fallback'], 2, 8),
      p(['precedence', 'ua-global-fallback'], 40, 15),
      p(['wildcard', 'ua-global-fallback'], 30, 0),
      p(['ua-global-fallback'], 500, 0),
    ]
    const a = attribute(patterns, 'lines', CATEGORY_ORDER)
    expect(a.explanation).toEqual([{ id: 'precedence', failures: 23, cases: 65 }])
    expect(Object.fromEntries(a.only)).toEqual({ precedence: 23, wildcard: 0, 'ua-global-fallback': 0 })
    expect(a.uncategorised).toBe(0)
  })

  it('a category on nearly every case comes in only for the disagreements nothing narrower tags', () => {
    const patterns = [p(['end-anchor', 'ua-global-fallback'], 10, 10), p(['ua-global-fallback'], 900, 3), p(['ua-specific-hides-global'], 100, 0)]
    const a = attribute(patterns, 'lines', CATEGORY_ORDER)
    expect(a.explanation.map((e) => e.id)).toEqual(['end-anchor', 'ua-global-fallback'])
    expect(Object.fromEntries(a.only)).toEqual({ 'end-anchor': 10, 'ua-global-fallback': 3 })
  })

  it('drops a category the others make redundant, and counts disagreements with no category apart', () => {
    // comments is precise but all its disagreements are also precedence's.
    const patterns = [p(['precedence', 'comments'], 0, 2), p(['precedence'], 10, 20), p([], 5, 4)]
    const a = attribute(patterns, 'lines', CATEGORY_ORDER)
    expect(a.explanation.map((e) => e.id)).toEqual(['precedence'])
    expect(a.only.get('comments')).toBe(0)
    expect(a.uncategorised).toBe(4)
  })

  it('under --score verdicts a line difference is no disagreement', () => {
    const patterns = [p(['empty-rules'], 0, 0, 50), p(['ua-case'], 5, 5)]
    expect(attribute(patterns, 'lines', CATEGORY_ORDER).explanation.map((e) => e.id).sort()).toEqual(['empty-rules', 'ua-case'])
    const v = attribute(patterns, 'verdicts', CATEGORY_ORDER)
    expect(v.explanation).toEqual([{ id: 'ua-case', failures: 5, cases: 10 }])
    expect(v.only.has('empty-rules')).toBe(false)
  })

  it('nothing to explain when every case agrees', () => {
    const a = attribute([p(['wildcard'], 10, 0)], 'lines', CATEGORY_ORDER)
    expect(a.explanation).toEqual([])
    expect(a.only.size).toBe(0)
  })

  it('"only" as the report words it: a broad category of the explanation does not take a precise one\'s count (the note said any other category, and rfc-differs showed 154 where 1 was read)', async () => {
    // As Protego on the corpus: rfc-differs is precise, and each of its disagreements is also ua-global-fallback's, which is broad.
    const patterns = [p(['rfc-differs', 'ua-global-fallback'], 1, 15), p(['ua-global-fallback'], 3000, 20)]
    const a = attribute(patterns, 'lines', CATEGORY_ORDER)
    expect(a.explanation.map((e) => e.id)).toEqual(['rfc-differs', 'ua-global-fallback'])
    expect(a.only.get('rfc-differs')).toBe(15)
    // The terminal note and the HTML column title say so.
    ensureBuilt()
    const tmp = tempDir()
    try {
      const r = await run(['compare', '--cases', 'unit', '--module', 'examples/adapters/robots-parser-module.mjs', '--html', tmp.path('r.html'), '--minimise', '0'])
      expect(r.stdout.toString()).toContain('(only: the disagreements of a category that no other category of the explanation, at least half as precise, tags)')
      expect(readFileSync(tmp.path('r.html'), 'utf8')).toContain('title="disagreements no other category of the explanation, at least half as precise, tags">only</th>')
    } finally {
      tmp.cleanup()
    }
  })
})
