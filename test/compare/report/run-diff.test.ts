/**
 * `compare --diff`'s text: agreement rates of the two runs and of the
 * categories whose agreement changed.
 */
import { describe, expect, it } from 'vitest'
import { diffRuns, renderRunDiff, type RunDiff } from '../../../src/compare/report/run-diff.js'

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

  it('says which run stopped before its end (regression: a B whose adapter exited after 8 of 145 cases read as a run of 8 cases, exit 0)', () => {
    const c = (id: string) => ({ id, key: id, outcome: 'agree', categories: [], answer: { allowed: true }, expected: { allowed: true, line: 0 } })
    const report = (cases: unknown[], more: object) => ({ set: 'unit', adapter: 'peer', date: '2026-12-01', cases, ...more }) as unknown as Parameters<typeof diffRuns>[0]
    const a = report([c('x'), c('y')], { complete: true })
    const b = report([c('x')], { complete: false, failure: { message: '--batch: the adapter exited with status 0\nafter 1 answer' } })
    const d = diffRuns(a, b, 'lines', ['a.json', 'b.json'])
    expect(d.b.stopped).toBe('--batch: the adapter exited with status 0\nafter 1 answer')
    expect(d.a.stopped).toBeUndefined()
    const lines = renderRunDiff(d, 0).split('\n')
    expect(lines.slice(0, 3)).toEqual([
      'A: a.json: peer; unit (2026-12-01)',
      'B: b.json: peer; unit (2026-12-01)',
      '  ✗ the run stopped before its end, its cases those done: --batch: the adapter exited with status 0\\x0Aafter 1 answer',
    ])
  })
})
