/**
 * `compare --diff`'s text: agreement rates of the two runs and of the
 * categories whose agreement changed.
 */
import { describe, expect, it } from 'vitest'
import { renderRunDiff, type RunDiff } from '../../../src/compare/report/run-diff.js'

const run = (file: string, cases: number, agreed: number) => ({ file, set: 'unit', adapter: 'peer', date: '2026-11-30', cases, agreed })

describe('renderRunDiff', () => {
  it('regression: a category only one run has (no cases in the other) was shown as 100 % there; it has no rate', () => {
    const d: RunDiff = {
      score: 'lines',
      semantics: 'reference',
      a: run('a.json', 0, 0),
      b: run('b.json', 4, 3),
      same: 0,
      counts: { fixed: 0, broken: 0, changed: 0, 'only-a': 0, 'only-b': 4 },
      changed: [],
      categories: [
        { id: 'new-category', a: { cases: 0, agreed: 0 }, b: { cases: 4, agreed: 3 } },
        { id: 'gone-category', a: { cases: 2, agreed: 1 }, b: { cases: 0, agreed: 0 } },
      ],
    }
    const text = renderRunDiff(d, 0)
    expect(text).toContain('A – of 0 cases, B 75')
    expect(text).toMatch(/new-category +– → +75\.00%/)
    expect(text).toMatch(/gone-category +50\.00% → +– /)
    expect(text).not.toContain('100')
  })
})
