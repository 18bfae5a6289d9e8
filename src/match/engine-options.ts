/**
 * The options that shape a crawler's matcher, and their checks.
 */
import { checkMatcherBudget } from './automaton/lazy-dfa.js'
import { describeValue, RobotsInputError, RobotsRangeError } from '../errors.js'
import { PINNED_TIER_NAMES, pinnedTier } from './tier.js'

/** Options for compiled matchers (every matching option; parse options and the store pass them on). */
export interface EngineOptions {
  /**
   * Memory budget per matcher in bytes (the lazy DFA's state cache), at
   * least 4096; default 4 MiB. Anything else is a RobotsRangeError
   * (ERR_BUDGET), thrown where the option is given.
   */
  matcherBudget?: number
  /**
   * The tier threshold: URLs a matcher judges with its direct engine (the
   * cold tier, no automaton) before it builds its lazy DFA (the hot tier).
   * By default it adapts to the rules: 512 for a set the direct engine
   * judges cheaply, fewer (at least 32) the more it has to search per URL
   * (why: src/match/README.md); 0 builds the DFA at once, `Infinity` never
   * does. Star-heavy rule sets judge those URLs with the
   * thrash-proof engine's literal index instead (2048 of them by default); large sets without `*`
   * rules go hot at once whatever the threshold. A number that is
   * not a whole number ≥ 0 (or Infinity) is a RobotsRangeError (ERR_RANGE).
   */
  hotThreshold?: number
  /**
   * For tests and comparisons: `'automaton'` (default: the tiers) or
   * `'plain'` (every rule tried against every path, no automaton; slow).
   * The answers are the same. Anything else is a RobotsInputError (ERR_INPUT).
   */
  engine?: 'automaton' | 'plain'
  /**
   * For tests and benchmarks: pins every matcher to one tier, `'cold'` (the
   * direct engine), `'hot'` (the lazy DFA, never switching to the
   * thrash-proof engine) or `'thrash-proof'` (its literal index). The
   * answers are the same in every tier; only speed and memory differ.
   * Anything else, or a tier with `engine: 'plain'`, is a RobotsInputError
   * (ERR_INPUT). The names are written out so that the typings show them;
   * they are tier.ts's PinnedTierName (a type test holds the two equal).
   */
  tier?: 'cold' | 'hot' | 'thrash-proof'
}

/** The names of `EngineOptions`, for the entries that read each option once. */
export const ENGINE_OPTION_NAMES: readonly string[] = ['matcherBudget', 'hotThreshold', 'engine', 'tier']

/**
 * Checks engine options where they are given (not later, at `agent()`): a
 * budget out of range is a RobotsRangeError (ERR_BUDGET), a threshold out of
 * range a RobotsRangeError (ERR_RANGE), an unknown engine or tier a
 * RobotsInputError (ERR_INPUT).
 */
export function checkEngineOptions(options: EngineOptions): void {
  if (options.matcherBudget !== undefined) checkMatcherBudget(options.matcherBudget)
  const t = options.hotThreshold
  if (t !== undefined && !(typeof t === 'number' && t >= 0 && (Number.isSafeInteger(t) || t === Infinity))) {
    throw new RobotsRangeError('ERR_RANGE', `hotThreshold must be a whole number >= 0 or Infinity, got ${describeValue(t)}`)
  }
  const engine = options.engine
  if (engine !== undefined && engine !== 'automaton' && engine !== 'plain') {
    throw new RobotsInputError(`engine must be 'automaton' or 'plain', got ${describeValue(options.engine)}`)
  }
  if (options.tier !== undefined) {
    if (pinnedTier(options.tier) === -1) {
      throw new RobotsInputError(`tier must be ${PINNED_TIER_NAMES.map((t) => `'${t}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}, got ${describeValue(options.tier)}`)
    }
    if (engine === 'plain') throw new RobotsInputError(`tier ${describeValue(options.tier)} is a tier of the automaton engine, not of engine 'plain'`)
  }
}
