/**
 * The engine contract: what every matching engine (direct/, automaton/,
 * plain-engine.ts) provides, and the batch job they share. The bottom of
 * match/: engines and the matcher import it, it imports nothing of theirs.
 */
import type { PathStart } from '../url/url-path.js'

/** What a matcher's engine reports about itself (see `AgentMatcher.stats`). */
export interface EngineStats {
  /**
   * The engine judging URLs now: `'direct'` (the cold tier: rules in rank
   * order), `'automaton'` (the hot tier: the lazy DFA), `'thrash-proof'`
   * (literal index and candidate checks), or `'plain'` (every rule against
   * the path; for comparisons).
   */
  engine: 'direct' | 'automaton' | 'thrash-proof' | 'plain'
  /** NFA positions of the automaton (0 for the other engines). */
  positions: number
  /** Byte classes of the automaton (0 for the other engines). */
  classes: number
  /** DFA states cached now. */
  states: number
  /** Times the state cache reached its budget and was flushed. */
  flushes: number
  /** Bytes the state cache holds now: what `matcherBudget` bounds. */
  cacheBytes: number
  /** The most bytes the state cache has held. */
  peakCacheBytes: number
  /** The budget of the state cache (`matcherBudget`). */
  budget: number
  /** Bytes of the largest state built so far: the cache stays within `budget` plus one state. */
  largestStateBytes: number
}

/**
 * A batch of lines for {@link MatchEngine.decideLines}: the engine judges
 * lines of `bytes` from offset `start`, writing row `row` onwards, and
 * advances both (to the next line's offset, and to the next row).
 */
export interface LineJob {
  readonly bytes: Uint8Array
  readonly out: Uint8Array
  readonly ruleLines: Int32Array | undefined
  readonly lineEnds: Int32Array | undefined
  /** The RuleSet's records (verdict and line of a rule). */
  readonly records: Int32Array
  /** Line reported when no rule decided (see noMatchLine). */
  readonly fallbackLine: number
  /** Offset of the next line to judge. */
  start: number
  /** Index of the next row of `out`. */
  row: number
}

/** What a matcher engine provides: the deciding rule for one URL. */
export interface MatchEngine {
  /** Index of the deciding rule for the URL in `url[start, end)`, or -1 when no rule matches. */
  decideBytes(url: Uint8Array, start: number, end: number): number
  /**
   * The same for a URL ending at `end` whose path starts where `ps` says (as
   * the URL scan records it): the scan for the
   * path start is not done again.
   */
  decideFrom(url: Uint8Array, ps: PathStart, end: number): number
  /** The same for a URL string (matched as its UTF-8 bytes). */
  decideString(url: string): number
  /** `decideString` for a URL whose path starts where `ps` says (a PathStart in code units, from the URL scan). */
  decideStringFrom(url: string, ps: PathStart): number
  /**
   * Optional batch form: judges the lines of `job.bytes` from `job.start`
   * (the convention of lines.ts), writing each verdict (1 when no rule),
   * deciding line and line end, until the input ends or the engine has to
   * stop (its matcher is to change tier: the lazy DFA thrashing); advances
   * `job.start` and `job.row`. Throws a RobotsRangeError (ERR_CAPACITY) when
   * an array is full. Without it, `matchLines` cuts the lines with lines.ts
   * and calls `decideBytes` per line.
   */
  decideLines?(job: LineJob): void
  /**
   * Optional, for the engines a matcher starts in (the cold tier, the
   * indexed start): calls `then` once, right after the engine has judged
   * `urls` more URLs (lines of `matchLines` included), so that the tier
   * policy counts in the engines that switch and the hot tier counts
   * nothing (../tiers.ts).
   */
  countDown?(urls: number, then: () => void): void
  /** Bytes held by the engine. */
  memoryUsage(): number
  /** Figures for tuning and benchmarks. */
  stats(): EngineStats
}
