// The leaderboard's ranking: an implementation whose run failed is listed
// after those that ran through, unranked, its score of the cases done kept
// in its cells with ✗.
import { describe, expect, it } from 'vitest'
import type { Matrix, MatrixCell } from '../../../src/compare/matrix.js'
import { rankedRows, renderMatrixMarkdown } from '../../../src/compare/report/matrix-report.js'

function cell(cases: number, verdicts: number, failure?: string): MatrixCell {
  const scores = { lines: verdicts, verdicts }
  const counts = { cases, agreed: cases, verdict: 0, line: 0, errors: 0, rfcAgreed: cases, rfcVerdict: 0, rfcLine: 0 }
  return { set: 'unit', totals: { ...counts, agreement: verdicts, scores, rfcScores: scores, linesChecked: 0 }, ...(failure ? { failure } : {}) }
}

const matrix = (rows: [string, MatrixCell][]): Matrix => ({
  date: '2026-11-30T00:00:00.000Z',
  tool: 'robots-automaton 0.1.0',
  command: 'robots-automaton compare --matrix m.json',
  score: 'lines',
  semantics: 'reference',
  sets: ['unit'],
  setDetails: [{ cases: 'unit', options: '--seed 1', description: 'unit', count: 145, digest: '0', casesMs: 1 }],
  setDescriptions: ['unit'],
  rows: rows.map(([name, c]) => ({ name, adapter: `--batch ${name}`, version: '', cells: [c] })),
  failed: rows.some(([, c]) => c.failure !== undefined),
})

describe('leaderboard ranking', () => {
  it('an implementation that failed is unranked, after the ones that ran through (one that exited after 8 cases at 62.5 % was ranked first)', () => {
    const m = matrix([
      ['allow-all', cell(145, 53.1)],
      ['exits-early', cell(8, 62.5, '--batch: the adapter exited with status 0 after 8 answers')],
      ['better', cell(145, 90)],
    ])
    expect(rankedRows(m).map((r) => [r.row.name, r.score])).toEqual([['better', 90], ['allow-all', 53.1], ['exits-early', undefined]])
    expect(renderMatrixMarkdown(m)).toMatch(/^\| – \| exits-early \| – \|  \| 62\.5 ✗ \|/m)
  })
})
