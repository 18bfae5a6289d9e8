/**
 * How an answer relates to the reference's (the outcome of a case), and the
 * two scores of a run: `lines` (the verdict, and the deciding line when the
 * implementation gives one) and `verdicts` (the verdict alone).
 */
import type { Answer } from './adapters/adapter.js'
import type { Expected } from './case.js'

/** How an answer relates to the reference's. */
export type Outcome = 'agree' | 'verdict' | 'line' | 'error'

/** What counts as agreement: `lines` (a line differing is a disagreement) or `verdicts` (it is not). */
export type Score = 'lines' | 'verdicts'

/** The scores, the default first. */
export const SCORES: readonly Score[] = ['lines', 'verdicts']

/** Whose answers a run is gated on: the reference's (google/robotstxt) or RFC 9309's (rfc-oracle.ts). Both are always scored. */
export type Semantics = 'reference' | 'rfc'

/** The semantics, the default first. */
export const SEMANTICS: readonly Semantics[] = ['reference', 'rfc']

/**
 * Compares an answer with the expected one: a line is checked only when the
 * answer has one; -1 is read as 0 (no deciding rule), a known convention.
 */
export function outcomeOf(expected: Expected, answer: Answer): Outcome {
  if (answer.error !== undefined) return 'error'
  if (answer.allowed !== expected.allowed) return 'verdict'
  if (answer.line !== undefined && (answer.line === -1 ? 0 : answer.line) !== expected.line) return 'line'
  return 'agree'
}

/** Whether an outcome is a disagreement under a score. */
export function fails(outcome: Outcome, score: Score): boolean {
  return outcome === 'verdict' || outcome === 'error' || (outcome === 'line' && score === 'lines')
}
