/**
 * Every engine and tier the data suites run against (conformance vectors,
 * differential corpus, seeded random and `*`-dense sets, the line
 * convention): each is a set of parse options.
 *
 * - `tiered`: the default (cold, or the indexed start for star-heavy sets, then hot after the threshold, then
 *   thrash-proof if the DFA thrashes);
 * - `cold`, `hot`, `thrash-proof`: one tier, pinned (`tier`);
 * - `switching`: the tiers with a threshold of 2 URLs and the smallest DFA
 *   budget, so that matchers change tier inside the suites' own URL lists
 *   (cold or indexed → hot after two URLs; hot → thrash-proof where the tiny cache thrashes);
 * - `plain`: every rule against the path (engine: 'plain').
 */
import type { ParseOptions } from '../../src/index.js'
import { MIN_MATCHER_BUDGET } from '../../src/match/automaton/lazy-dfa.js'

/** One engine configuration of the data suites. */
export interface EngineCase {
  name: string
  options: ParseOptions
}

export const ENGINES: readonly EngineCase[] = [
  { name: 'tiered', options: {} },
  { name: 'cold', options: { tier: 'cold' } },
  { name: 'hot', options: { tier: 'hot' } },
  { name: 'thrash-proof', options: { tier: 'thrash-proof' } },
  { name: 'switching', options: { hotThreshold: 2, matcherBudget: MIN_MATCHER_BUDGET } },
  { name: 'plain', options: { engine: 'plain' } },
]

/** The engines without `plain`, which is as slow as the reference port (for suites that run many URLs). */
export const FAST_ENGINES: readonly EngineCase[] = ENGINES.filter((e) => e.name !== 'plain')
