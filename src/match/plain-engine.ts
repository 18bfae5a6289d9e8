/**
 * The plain engine: every rule of a crawler's RuleSet against the path, the
 * longest match wins (ties to allow, then the earliest line). The automaton
 * gives the same answers faster; this one is kept for differential tests.
 */
import { patternMatches } from './reference-engine.js'
import type { RuleSet } from '../rules/rule-set.js'

/** Index of the deciding rule for `path`, or -1 when no rule matches. */
export function plainDecide(set: RuleSet, path: Uint8Array): number {
  let best = -1
  for (let r = 0; r < set.count; r++) {
    const p = set.priority[r]
    if (best >= 0) {
      const bp = set.priority[best]
      if (p < bp || (p === bp && (set.allow[r] <= set.allow[best]))) continue
    }
    if (patternMatches(path, set.patterns.subarray(set.starts[r], set.ends[r]))) best = r
  }
  return best
}
