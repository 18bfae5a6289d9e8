/**
 * The plain engine: every rule of a crawler's RuleSet against the path, the
 * longest match wins (ties to allow, then the earliest line). The other
 * engines give the same answers faster; this one is kept for differential
 * tests. It takes the rules in file order and compares priorities itself,
 * so it also checks the RuleSet's rank order.
 */
import { patternRangeMatches } from './reference-engine.js'
import { RuleField, RuleFlag, type RuleSet } from '../rules/rule-set.js'
import type { EngineStats, MatchEngine } from './engine.js'
import { matchPath, matchPathAt } from '../url/url-path.js'
import { objectBytes } from '../memory.js'
import { NO_AUTOMATON } from './direct/direct-engine.js'

/** Index of the deciding rule for `path`, or -1 when no rule matches (`order`: the rules in file order). */
export function plainDecide(set: RuleSet, path: Uint8Array, order: readonly number[] = set.fileOrder()): number {
  const rec = set.records
  let best = -1
  for (const r of order) {
    const at = r * RuleField.Width
    const flags = rec[at + RuleField.Flags]
    if (best >= 0) {
      const p = set.priority(r)
      const bp = set.priority(best)
      const allow = flags & RuleFlag.Allow
      const bestAllow = rec[best * RuleField.Width + RuleField.Flags] & RuleFlag.Allow
      // Keep the best unless this rule is longer, or as long and an allow over a disallow.
      if (p < bp || (p === bp && allow <= bestAllow)) continue
    }
    if (patternRangeMatches(path, set.bytes, rec[at + RuleField.Start], rec[at + RuleField.End], (flags & RuleFlag.Anchored) !== 0)) best = r
  }
  return best
}

const encoder = new TextEncoder()

/** The plain engine behind the MatchEngine interface (matchPath ends the path at `#` or NUL, as for every engine). */
export function createPlainEngine(set: RuleSet): MatchEngine {
  const order = set.fileOrder()
  return {
    decideBytes: (url, start, end) => plainDecide(set, matchPath(url, start, end), order),
    decideFrom: (url, ps, end) => plainDecide(set, matchPathAt(url, ps, end), order),
    decideString: (url) => plainDecide(set, matchPath(encoder.encode(url)), order),
    decideStringFrom: (url) => plainDecide(set, matchPath(encoder.encode(url)), order),
    memoryUsage: () => objectBytes(4) + 8 * order.length,
    stats: (): EngineStats => ({ ...NO_AUTOMATON, engine: 'plain' }),
  }
}
