/**
 * The tier policy: which engine judges a matcher's URLs, and when it
 * changes (README.md in this folder has the design and the measurements).
 *
 * - **Cold** (direct/direct-engine.ts): rules in rank order, no automaton.
 *   A matcher starts here when its rules are cheap to try directly
 *   ({@link coldFits}); it costs its RuleSet's record table and nothing else.
 * - **Hot** (automaton/): the lazy DFA, built once the matcher has judged
 *   `hotThreshold` URLs (by `isAllowed`, `explain`, `matchRange` or lines of
 *   `matchLines`, also in the middle of a buffer), or at once when the
 *   rules are not cheap to try directly.
 * - **Thrash-proof** (direct/thrash-proof-engine.ts): when the DFA's state
 *   cache keeps flushing with little reuse (automaton/lazy-dfa.ts says
 *   when), the matcher drops the DFA and switches to an engine whose cost
 *   per URL does not depend on reuse: a literal index finds the rules that
 *   can match, and only those are checked.
 *
 * The order is one way: cold → hot → thrash-proof. `EngineOptions.tier`
 * pins a matcher to one tier (tests and benchmarks).
 */
import type { EngineOptions } from './engine.js'
import type { MatchEngine } from './matcher.js'
import { RuleField, RuleFlag, type RuleSet } from '../rules/rule-set.js'
import { AutomatonEngine } from './automaton/automaton-engine.js'
import { DEFAULT_MATCHER_BUDGET } from './automaton/lazy-dfa.js'
import { DirectEngine } from './direct/direct-engine.js'
import { ThrashProofEngine } from './direct/thrash-proof-engine.js'
import { createPlainEngine } from './plain-engine.js'

/** The tiers (a `const enum`: numbers in the bundle). */
export const enum Tier {
  Cold = 0,
  Hot = 1,
  ThrashProof = 2,
  /** `engine: 'plain'`: no tiers. */
  Plain = 3,
}

/** The name of each {@link Tier}, as `stats().tier` reports it. */
export const TIER_NAMES = ['cold', 'hot', 'thrash-proof', 'plain'] as const

/** A tier's name. */
export type TierName = (typeof TIER_NAMES)[number]

/**
 * URLs a matcher judges in the cold tier before its lazy DFA is built
 * (`EngineOptions.hotThreshold`). Measured with bench/tier-threshold.mjs
 * (README.md in this folder): on the corpus the DFA's one-time cost pays
 * back after a median of about 600 URLs per host (p25 about 400); of the
 * thresholds tried, 256 keeps the corpus's total within 1.2× of the best
 * threshold whether each host judges its URLs once or 64 times.
 */
export const DEFAULT_HOT_THRESHOLD = 256

/**
 * The cold tier takes a rule set whose cost per URL is bounded: `rules +
 * COLD_STAR_WEIGHT × *-rules ≤ COLD_MAX_COST` (a `*` rule is a search along
 * the path, about 16 times a literal rule's quick test). That keeps a cold
 * URL under about 8 µs, 2 ms for the threshold's 256 URLs, about the DFA's
 * one-time cost on such sets; larger sets go hot at once (README.md).
 */
export const COLD_MAX_COST = 4096
/** See {@link COLD_MAX_COST}. */
export const COLD_STAR_WEIGHT = 16

/**
 * The cap on a cold matcher's memory (`memoryUsage()`), in bytes: it holds
 * at most COLD_MAX_COST rules (16 bytes each in the RuleSet's record
 * table), their second-byte index (2 bytes a rule plus 258 entries, in a
 * Uint16Array), and a few objects, and it builds nothing as it judges URLs
 * (its scratch buffers are shared and bounded: memory.ts). 80 KiB; a rule
 * set that would need more goes hot at once, where `matcherBudget` bounds
 * the states.
 */
export const COLD_MAX_BYTES = 80 * 1024

/** A countdown that never runs out (2^52 URLs). */
const NEVER = 2 ** 52

/** What the policy reads and sets on a matcher. */
export interface TierState {
  readonly rules: RuleSet
  readonly options: EngineOptions
  engine: MatchEngine
  tier: Tier
  countdown: number
}

/** True when a rule set is cheap to try directly (see {@link COLD_MAX_COST}). */
export function coldFits(set: RuleSet): boolean {
  const rec = set.records
  let cost = set.count
  if (cost > COLD_MAX_COST) return false
  for (let at = RuleField.Flags; at < rec.length; at += RuleField.Width) if (rec[at] & RuleFlag.Star) cost += COLD_STAR_WEIGHT - 1
  return cost <= COLD_MAX_COST
}

/** Sets up a new matcher's first tier. */
export function firstTier(m: TierState): void {
  const o = m.options
  m.countdown = NEVER
  if (o.engine === 'plain') {
    m.engine = createPlainEngine(m.rules)
    m.tier = Tier.Plain
  } else if (o.tier === 'hot') {
    m.engine = new AutomatonEngine(m.rules, o.matcherBudget ?? DEFAULT_MATCHER_BUDGET)
    m.tier = Tier.Hot
  } else if (o.tier === 'thrash-proof') {
    m.engine = new ThrashProofEngine(m.rules)
    m.tier = Tier.ThrashProof
  } else {
    const threshold = o.hotThreshold ?? DEFAULT_HOT_THRESHOLD
    // No rules: nothing to compile, ever.
    if (o.tier === 'cold' || m.rules.count === 0 || (threshold > 0 && coldFits(m.rules))) {
      m.engine = new DirectEngine(m.rules)
      m.tier = Tier.Cold
      if (o.tier !== 'cold' && m.rules.count > 0) m.countdown = threshold
    } else {
      goHot(m)
    }
  }
}

/** Called when a matcher's countdown has run out: moves it on to its next tier. */
export function nextTier(m: TierState): void {
  m.countdown = NEVER
  if (m.tier === Tier.Cold) goHot(m)
  else if (m.tier === Tier.Hot && (m.engine as AutomatonEngine).dfa.thrashing) {
    m.engine = new ThrashProofEngine(m.rules)
    m.tier = Tier.ThrashProof
  }
}

/** The hot tier, watched for thrashing: the DFA runs the matcher's countdown out when it thrashes. */
function goHot(m: TierState): void {
  m.engine = new AutomatonEngine(m.rules, m.options.matcherBudget ?? DEFAULT_MATCHER_BUDGET, () => {
    m.countdown = 0
  })
  m.tier = Tier.Hot
}
