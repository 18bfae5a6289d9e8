/**
 * What a run keeps of its cases, in memory bounded whatever their number:
 * the counts overall, per category, per file of the set and per distinct set
 * of categories (for attribution), every case's time (8 bytes each, for the
 * percentiles), and a bounded store of disagreements grouped by kind (same
 * outcome and categories) for the report and minimisation.
 */
import type { Answer } from './adapters/adapter.js'
import type { Case } from './case.js'
import { fails, outcomeOf, type Outcome, type Score, type Semantics } from './outcome.js'

/** The result of one case. */
export interface CaseResult {
  readonly answer: Answer
  /** Time the adapter took (ms; what it measures depends on the adapter). */
  readonly ms: number
  /** Against the reference's answer. */
  readonly outcome: Outcome
  /** Against RFC 9309's answer. */
  readonly rfcOutcome: Outcome
}

/** A case's result: the answer against both standards. */
export function resultOf(c: Case, answer: Answer, ms: number): CaseResult {
  return { answer, ms, outcome: outcomeOf(c.expected, answer), rfcOutcome: outcomeOf(c.rfc, answer) }
}

/** Counts for the run or one category, against the reference (and `rfc…`, against RFC 9309; errors are the same). */
export interface Counts {
  cases: number
  agreed: number
  /** The verdict differs. */
  verdict: number
  /** Same verdict, another deciding line (only for answers that give one). */
  line: number
  /** The adapter gave no answer (error, wrong exit status, …). */
  errors: number
  rfcAgreed: number
  rfcVerdict: number
  rfcLine: number
}

/** The cases that carry exactly one set of categories, with their counts (attribution works on these). */
export interface Pattern {
  readonly categories: readonly string[]
  readonly counts: Counts
}

/** A disagreement kept for the report. */
export interface Kept {
  readonly c: Case
  readonly result: CaseResult
}

/** Disagreements kept per kind at most. */
export const KEPT_PER_KIND = 1000
/** Disagreements kept in all at most, beyond the first of each kind. */
export const KEPT_MAX = 5000
/** Kinds of disagreement kept at most. */
const KINDS_MAX = 10_000
/** Distinct sets of categories counted at most (past it, attribution is marked incomplete). */
export const PATTERNS_MAX = 100_000
/** Files of a set counted at most. */
const GROUPS_MAX = 10_000

/** Zero counts. */
export function counts(): Counts {
  return { cases: 0, agreed: 0, verdict: 0, line: 0, errors: 0, rfcAgreed: 0, rfcVerdict: 0, rfcLine: 0 }
}

function add(t: Counts, r: CaseResult): void {
  t.cases++
  const o = r.outcome
  if (o === 'agree') t.agreed++
  else if (o === 'verdict') t.verdict++
  else if (o === 'line') t.line++
  else t.errors++
  const q = r.rfcOutcome
  if (q === 'agree') t.rfcAgreed++
  else if (q === 'verdict') t.rfcVerdict++
  else if (q === 'line') t.rfcLine++
}

/** The outcome a run is gated on: against the reference's answer, or RFC 9309's. */
export function gateOutcome(r: Pick<CaseResult, 'outcome' | 'rfcOutcome'>, semantics: Semantics): Outcome {
  return semantics === 'rfc' ? r.rfcOutcome : r.outcome
}

/** The accumulated results of a run, scored by `score` (what counts as a disagreement) against `semantics`' answers. */
export class Tally {
  readonly total: Counts = counts()
  readonly byCategory = new Map<string, Counts>()
  /** Per file of the set (spec-test files), when its cases name one. */
  readonly byGroup = new Map<string, Counts>()
  /** Per standard the cases' answers follow (rfc, google-specific, rfc-differs). */
  readonly byStandard = new Map<string, Counts>()
  /** Per distinct set of categories (key: the ids joined with `,`). */
  readonly patterns = new Map<string, Pattern>()
  /** False once PATTERNS_MAX sets of categories were seen and later ones went uncounted. */
  patternsComplete = true
  /** Cases whose answer carried a deciding line. */
  linesChecked = 0
  /** Cases answered "allowed". */
  allowed = 0
  private times = new Float64Array(1024)
  private timeCount = 0
  private readonly kinds = new Map<string, Kept[]>()
  private kept = 0
  private failures = 0

  constructor(
    readonly score: Score = 'lines',
    readonly semantics: Semantics = 'reference',
  ) {}

  /** The outcome of a result under the run's semantics. */
  gate(result: CaseResult): Outcome {
    return gateOutcome(result, this.semantics)
  }

  /** Adds one case's result (and its time). */
  add(c: Case, result: CaseResult): void {
    const o = this.gate(result)
    this.addTime(result.ms)
    add(this.total, result)
    if (result.answer.line !== undefined) this.linesChecked++
    if (result.answer.allowed) this.allowed++
    for (const id of c.categories) {
      let row = this.byCategory.get(id)
      if (!row) this.byCategory.set(id, (row = counts()))
      add(row, result)
    }
    let standard = this.byStandard.get(c.standard)
    if (!standard) this.byStandard.set(c.standard, (standard = counts()))
    add(standard, result)
    if (c.group !== undefined) {
      let row = this.byGroup.get(c.group)
      if (!row && this.byGroup.size < GROUPS_MAX) this.byGroup.set(c.group, (row = counts()))
      if (row) add(row, result)
    }
    const key = c.categories.join(',')
    let p = this.patterns.get(key)
    if (p === undefined) {
      if (this.patterns.size < PATTERNS_MAX) this.patterns.set(key, (p = { categories: c.categories, counts: counts() }))
      else this.patternsComplete = false
    }
    if (p) add(p.counts, result)
    if (fails(o, this.score)) {
      this.failures++
      this.keep(c, result)
    }
  }

  /** Adds a time without a result (a repeat of a case already counted). */
  addTime(ms: number): void {
    if (this.timeCount === this.times.length) {
      const grown = new Float64Array(this.times.length * 2)
      grown.set(this.times)
      this.times = grown
    }
    this.times[this.timeCount++] = ms
  }

  /** Every time recorded (each case once per repeat, ms), sorted. */
  sortedTimes(): Float64Array {
    return this.times.slice(0, this.timeCount).sort()
  }

  /** Disagreements under the score: verdict and errors, and line differences when the score is `lines`. */
  get disagreements(): number {
    return this.failures
  }

  /**
   * The kept disagreements in report order: round-robin over kinds, so the
   * first ones listed (and minimised) cover every kind of failure.
   */
  order(): Kept[] {
    const lists = [...this.kinds.values()]
    const out: Kept[] = []
    for (let round = 0; ; round++) {
      let any = false
      for (const g of lists) {
        if (round < g.length) {
          out.push(g[round])
          any = true
        }
      }
      if (!any) return out
    }
  }

  private keep(c: Case, result: CaseResult): void {
    const key = `${this.gate(result)}:${c.categories.join(',')}`
    let g = this.kinds.get(key)
    if (g === undefined) {
      if (this.kinds.size >= KINDS_MAX) return
      this.kinds.set(key, (g = []))
    } else if (g.length >= KEPT_PER_KIND || this.kept >= KEPT_MAX) return
    g.push({ c, result })
    this.kept++
  }
}
