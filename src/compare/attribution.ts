/**
 * Attribution: which categories explain a run's disagreements, when
 * categories overlap (a case is tagged with every feature it exercises). The
 * explanation is a set of categories that together tag every disagreement,
 * chosen for precision (disagreements per case); each category's "only"
 * count is how many of its disagreements no other category of the
 * explanation (at least half as precise) tags.
 */
import { fails, type Score, type Semantics } from './outcome.js'
import type { Pattern } from './tally.js'

/** One category in the explanation. */
export interface Explaining {
  readonly id: string
  /** The category's disagreements, all of them. */
  readonly failures: number
  /** Its cases. */
  readonly cases: number
}

/** A run's attribution. */
export interface Attribution {
  /** Categories that together tag every disagreement that has a category, in the order chosen. */
  readonly explanation: readonly Explaining[]
  /** Per category with disagreements: how many no other category of the explanation (at least half as precise) tags. */
  readonly only: ReadonlyMap<string, number>
  /** Disagreements of cases with no category (nothing can explain them). */
  readonly uncategorised: number
  /** False when the tally stopped counting new sets of categories (the counts are then a lower bound). */
  readonly complete: boolean
}

function failuresIn(p: Pattern, score: Score, semantics: Semantics): number {
  const c = p.counts
  const [verdict, line] = semantics === 'rfc' ? [c.rfcVerdict, c.rfcLine] : [c.verdict, c.line]
  return verdict + c.errors + (fails('line', score) ? line : 0)
}

/**
 * Explains the disagreements of `patterns` (each distinct set of categories
 * with its counts). Greedy weighted set cover, then pruning: each step adds
 * the category whose not yet covered cases are most often disagreements
 * (ties: more disagreements, then report order), until every disagreement
 * with a category is covered; then a category is dropped when the others
 * explain its disagreements about as precisely (see the pruning below). So a
 * category that only overlaps the cause (`wildcard` beside a broken
 * `precedence`) stays out, and one on nearly every case
 * (`ua-global-fallback`) comes in only for what nothing narrower explains.
 */
export function attribute(patterns: Iterable<Pattern>, score: Score, order: ReadonlyMap<string, number>, complete = true, semantics: Semantics = 'reference'): Attribution {
  const all = [...patterns]
  const failuresOf = (p: Pattern, s: Score): number => failuresIn(p, s, semantics)
  const failing = all.filter((p) => failuresOf(p, score) > 0)
  let uncategorised = 0
  const byCategory = new Map<string, { cases: number; failures: number; patterns: number[] }>()
  all.forEach((p, i) => {
    const f = failuresOf(p, score)
    if (f > 0 && p.categories.length === 0) uncategorised += f
    for (const id of p.categories) {
      let e = byCategory.get(id)
      if (!e) byCategory.set(id, (e = { cases: 0, failures: 0, patterns: [] }))
      e.cases += p.counts.cases
      e.failures += f
      e.patterns.push(i)
    }
  })
  const covered = new Uint8Array(all.length)
  const chosen: string[] = []
  let left = failing.filter((p) => p.categories.length > 0).reduce((n, p) => n + failuresOf(p, score), 0)
  const rank = (id: string): number => order.get(id) ?? Infinity
  while (left > 0) {
    let best: string | undefined
    let bestF = 0
    let bestRatio = -1
    for (const [id, e] of byCategory) {
      if (e.failures === 0 || chosen.includes(id)) continue
      let f = 0
      let cases = 0
      for (const i of e.patterns) {
        if (covered[i]) continue
        f += failuresOf(all[i], score)
        cases += all[i].counts.cases
      }
      if (f === 0) continue
      const ratio = f / cases
      if (ratio > bestRatio || (ratio === bestRatio && (f > bestF || (f === bestF && rank(id) < rank(best!))))) {
        best = id
        bestF = f
        bestRatio = ratio
      }
    }
    if (best === undefined) break
    chosen.push(best)
    for (const i of byCategory.get(best)!.patterns) {
      if (!covered[i]) left -= failuresOf(all[i], score)
      covered[i] = 1
    }
  }
  // Pruning: drop a category each of whose disagreements another chosen category tags that is at least
  // half as precise (disagreements per case), fewest disagreements first: a broad category on nearly
  // every case (ua-global-fallback) covers everything but explains little, so it does not make a
  // precise one redundant.
  const inCover = new Set(chosen)
  const precision = (id: string): number => byCategory.get(id)!.failures / byCategory.get(id)!.cases
  /** Whether another category of the explanation tags pattern `i` and is at least half as precise as `id`. */
  const explainedElsewhere = (id: string, i: number): boolean =>
    all[i].categories.some((c) => c !== id && inCover.has(c) && precision(c) >= precision(id) / 2)
  for (const id of [...chosen].sort((a, b) => byCategory.get(a)!.failures - byCategory.get(b)!.failures || rank(b) - rank(a))) {
    if (!byCategory.get(id)!.patterns.some((i) => failuresOf(all[i], score) > 0 && !explainedElsewhere(id, i))) inCover.delete(id)
  }
  const explanation = chosen.filter((id) => inCover.has(id)).map((id) => ({ id, failures: byCategory.get(id)!.failures, cases: byCategory.get(id)!.cases }))
  const only = new Map<string, number>()
  for (const [id, e] of byCategory) {
    if (e.failures === 0) continue
    let n = 0
    for (const i of e.patterns) if (!explainedElsewhere(id, i)) n += failuresOf(all[i], score)
    only.set(id, n)
  }
  return { explanation, only, uncategorised, complete }
}
