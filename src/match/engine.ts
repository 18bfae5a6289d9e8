/**
 * Chooses the engine behind a crawler's matcher.
 */
import type { MatchEngine } from './matcher.js'
import { AutomatonEngine } from './automaton/automaton-engine.js'
import { plainDecide } from './plain-engine.js'
import type { RuleSet } from '../rules/rule-set.js'
import { matchPath } from './path-bytes.js'

/** Options for compiled matchers. */
export interface EngineOptions {
  /** Memory budget per matcher in bytes (the automaton's state cache). */
  matcherBudget?: number
  /** `'automaton'` (default) or `'plain'` (every rule against the path; for tests and comparisons). */
  engine?: 'automaton' | 'plain'
}

const encoder = new TextEncoder()

/** The plain engine behind the MatchEngine interface. */
export function createPlainEngine(set: RuleSet): MatchEngine {
  return {
    decideBytes: (url, start, end) => plainDecide(set, cutAtNul(matchPath(url, start, end))),
    decideString: (url) => {
      const bytes = encoder.encode(url)
      return plainDecide(set, cutAtNul(matchPath(bytes)))
    },
    memoryUsage: () => 0,
  }
}

function cutAtNul(path: Uint8Array): Uint8Array {
  const nul = path.indexOf(0)
  return nul < 0 ? path : path.subarray(0, nul)
}

/** The engine for a RuleSet: the automaton unless `engine: 'plain'` is asked for. */
export function createEngine(set: RuleSet, options: EngineOptions = {}): MatchEngine {
  if (options.engine === 'plain') return createPlainEngine(set)
  return new AutomatonEngine(set, options.matcherBudget)
}
