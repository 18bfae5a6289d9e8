/**
 * Chooses the engine behind a crawler's matcher, and checks the options that
 * choose it.
 */
import type { EngineStats, MatchEngine } from './matcher.js'
import { AutomatonEngine } from './automaton/automaton-engine.js'
import { checkMatcherBudget, DEFAULT_MATCHER_BUDGET } from './automaton/lazy-dfa.js'
import { plainDecide } from './plain-engine.js'
import type { RuleSet } from '../rules/rule-set.js'
import { matchPath } from './url-path.js'
import { describeValue, RobotsInputError } from '../errors.js'

/** Options for compiled matchers. */
export interface EngineOptions {
  /**
   * Memory budget per matcher in bytes (the automaton's state cache), at
   * least 4096; default 4 MiB. Anything else is a RobotsRangeError
   * (ERR_BUDGET), thrown where the option is given.
   */
  matcherBudget?: number
  /** @internal `'automaton'` (default) or `'plain'` (every rule against the path): test scaffolding, not in the published typings. */
  engine?: 'automaton' | 'plain'
}

/**
 * Checks engine options where they are given (not later, at `agent()`): a
 * budget out of range is a RobotsRangeError (ERR_BUDGET), an unknown engine
 * a RobotsInputError (ERR_INPUT).
 */
export function checkEngineOptions(options: EngineOptions): void {
  if (options.matcherBudget !== undefined) checkMatcherBudget(options.matcherBudget)
  const engine = options.engine
  if (engine !== undefined && engine !== 'automaton' && engine !== 'plain') {
    throw new RobotsInputError(`engine must be 'automaton' or 'plain', got ${describeValue(options.engine)}`)
  }
}

const encoder = new TextEncoder()

const PLAIN_STATS: EngineStats = Object.freeze({
  engine: 'plain',
  positions: 0,
  classes: 0,
  states: 0,
  flushes: 0,
  cacheBytes: 0,
  peakCacheBytes: 0,
  budget: 0,
  largestStateBytes: 0,
})

/** The plain engine behind the MatchEngine interface (matchPath ends the path at `#` or NUL, as for every engine). */
export function createPlainEngine(set: RuleSet): MatchEngine {
  return {
    decideBytes: (url, start, end) => plainDecide(set, matchPath(url, start, end)),
    decideString: (url) => plainDecide(set, matchPath(encoder.encode(url))),
    memoryUsage: () => 0,
    stats: () => ({ ...PLAIN_STATS }),
  }
}

/** The engine for a RuleSet: the automaton unless `engine: 'plain'` is asked for. */
export function createEngine(set: RuleSet, options: EngineOptions = {}): MatchEngine {
  if (options.engine === 'plain') return createPlainEngine(set)
  return new AutomatonEngine(set, options.matcherBudget ?? DEFAULT_MATCHER_BUDGET)
}
