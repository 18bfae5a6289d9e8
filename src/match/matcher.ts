/**
 * The per-crawler matcher returned by `robots.agent(token)`: verdicts for full
 * URLs or paths, explanations, and batch evaluation over byte buffers.
 */
import { latin1 } from '../parse/escape.js'
import { describeValue, RobotsInputError, RobotsRangeError } from '../errors.js'
import { objectBytes, TYPED_ARRAY_BYTES } from '../memory.js'
import { noMatchLine, type RuleSet } from '../rules/rule-set.js'
import { checkRoom, countLines, lineEnd, urlEnd } from './lines.js'

/** Which rule decided a URL. */
export interface RuleRef {
  /** Line number in the robots.txt (the reference's matching line). */
  line: number
  kind: 'allow' | 'disallow'
  /** The pattern as matched: escaped, and for an index.htm rule possibly its directory form. */
  pattern: string
}

/** Result of `explain`. `rule` is null when no rule matched (then the URL is allowed). */
export interface Explanation {
  allowed: boolean
  rule: RuleRef | null
}

/** What a matcher's engine reports about itself (see `AgentMatcher.stats`). */
export interface EngineStats {
  /** `'automaton'` (the lazy DFA) or `'plain'` (every rule against the path). */
  engine: 'automaton' | 'plain'
  /** NFA positions of the automaton (0 for the plain engine). */
  positions: number
  /** Byte classes of the automaton (0 for the plain engine). */
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

/** `AgentMatcher.stats()`: the engine's figures and the number of rules. */
export interface MatcherStats extends EngineStats {
  /** Rules of the crawler's RuleSet (an index.htm rule's directory form counts as one more). */
  rules: number
}

/** What a matcher engine provides: the deciding rule for one URL. */
export interface MatchEngine {
  /** Index of the deciding rule for the URL in `url[start, end)`, or -1 when no rule matches. */
  decideBytes(url: Uint8Array, start: number, end: number): number
  /** The same for a URL string (matched as its UTF-8 bytes). */
  decideString(url: string): number
  /**
   * Optional batch form: judges every line of `bytes` (the convention of
   * lines.ts), writing `allow[r]` (1 when no rule) into `out` and `lines[r]`
   * (`fallbackLine` when no rule) into `ruleLines`, and each line's end into
   * `lineEnds`; returns the number of lines. Throws a RobotsRangeError
   * (ERR_CAPACITY) when an array is full. Without it, `matchLines` cuts the
   * lines with lines.ts and calls `decideBytes` per line.
   */
  decideLines?(
    bytes: Uint8Array,
    out: Uint8Array,
    ruleLines: Int32Array | undefined,
    allow: Uint8Array,
    lines: Int32Array,
    fallbackLine: number,
    lineEnds?: Int32Array,
  ): number
  /** Bytes held by the engine. */
  memoryUsage(): number
  /** Figures for tuning and benchmarks. */
  stats(): EngineStats
}

/** Fields of an AgentMatcher and of a RuleSet object, for their memory cost. */
const MATCHER_FIELDS = 3
const RULE_SET_FIELDS = 10

/** A crawler's compiled matcher. Immutable in behaviour; safe to share. */
export class AgentMatcher {
  /** The crawler's rules (file order). */
  readonly rules: RuleSet
  private readonly engine: MatchEngine
  private readonly fallbackLine: number

  /** Matchers come from `Robots.agent()`/`agents()` and `RobotsStore` (private, so that the typings offer no constructor). */
  private constructor(rules: RuleSet, engine: MatchEngine) {
    this.rules = rules
    this.engine = engine
    this.fallbackLine = noMatchLine(rules)
  }

  /** @internal The matcher of `rules` judged by `engine` (made in one place: robots.ts `compileMatcher`). */
  static of(rules: RuleSet, engine: MatchEngine): AgentMatcher {
    return new AgentMatcher(rules, engine)
  }

  /**
   * True when the crawler may fetch `url`: a full URL or a path, as a string,
   * a `URL`, or bytes (taken as the URL's wire bytes, UTF-8). Any other type
   * is a RobotsInputError (ERR_INPUT).
   */
  isAllowed(url: string | URL | Uint8Array): boolean {
    const r = typeof url === 'string' ? this.engine.decideString(url) : this.decideOther(url)
    return r < 0 || this.rules.allow[r] === 1
  }

  /** The verdict and the rule that decided it, with the reference's matching line (`url` as for isAllowed). */
  explain(url: string | URL | Uint8Array): Explanation {
    const r = typeof url === 'string' ? this.engine.decideString(url) : this.decideOther(url)
    return this.explainRule(r)
  }

  /**
   * Judges `bytes[start, end)`: returns `line * 2 + (allowed ? 1 : 0)` (line 0
   * when no rule decided). Offsets outside the buffer are a RobotsRangeError
   * (ERR_RANGE).
   */
  matchRange(bytes: Uint8Array, start: number, end: number): number {
    if (!(bytes instanceof Uint8Array)) throw new RobotsInputError(`matchRange: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (!((start >>> 0) === start && (end >>> 0) === end && start <= end && end <= bytes.length)) {
      throw new RobotsRangeError('ERR_RANGE', `matchRange: [${describeValue(start)}, ${describeValue(end)}) is not a range of a ${bytes.length}-byte buffer`)
    }
    const r = this.engine.decideBytes(bytes, start, end)
    if (r < 0) return this.fallbackLine * 2 + 1
    return this.rules.lines[r] * 2 + this.rules.allow[r]
  }

  /**
   * Judges every line of `bytes`, by the convention of lines.ts: LF ends a
   * line, a CR right before the LF (or ending the input) is not part of the
   * URL, a last line without LF counts, an empty line is judged as `/`.
   * Writes 1 (allowed) or 0 (disallowed) per line into `out` and, when given,
   * the deciding rule's line into `ruleLines` and the index of the line's LF
   * (or `bytes.length` for a last line without one) into `lineEnds`. Returns
   * the filled part of `out`. An array too small for the lines is a
   * RobotsRangeError (ERR_CAPACITY); arguments of other types are a
   * RobotsInputError (ERR_INPUT).
   */
  matchLines(bytes: Uint8Array, out?: Uint8Array, ruleLines?: Int32Array, lineEnds?: Int32Array): Uint8Array {
    if (!(bytes instanceof Uint8Array)) throw new RobotsInputError(`matchLines: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (out !== undefined && !(out instanceof Uint8Array)) throw new RobotsInputError(`matchLines: out must be a Uint8Array, got ${describeValue(out)}`)
    if (ruleLines !== undefined && !(ruleLines instanceof Int32Array)) {
      throw new RobotsInputError(`matchLines: ruleLines must be an Int32Array, got ${describeValue(ruleLines)}`)
    }
    if (lineEnds !== undefined && !(lineEnds instanceof Int32Array)) {
      throw new RobotsInputError(`matchLines: lineEnds must be an Int32Array, got ${describeValue(lineEnds)}`)
    }
    out ??= new Uint8Array(countLines(bytes))
    const rules = this.rules
    const engine = this.engine
    if (engine.decideLines) {
      return out.subarray(0, engine.decideLines(bytes, out, ruleLines, rules.allow, rules.lines, this.fallbackLine, lineEnds))
    }
    const n = bytes.length
    let lines = 0
    for (let start = 0; start < n; lines++) {
      const lf = lineEnd(bytes, start)
      const r = engine.decideBytes(bytes, start, urlEnd(bytes, start, lf))
      checkRoom(out, lines, 'out')
      out[lines] = r < 0 ? 1 : rules.allow[r]
      if (ruleLines) {
        checkRoom(ruleLines, lines, 'ruleLines')
        ruleLines[lines] = r < 0 ? this.fallbackLine : rules.lines[r]
      }
      if (lineEnds) {
        checkRoom(lineEnds, lines, 'lineEnds')
        lineEnds[lines] = lf
      }
      start = lf + 1
    }
    return out.subarray(0, lines)
  }

  /** Bytes held by this matcher (rules and compiled states), by the model of src/memory.ts. */
  memoryUsage(): number {
    const s = this.rules
    const ruleBytes =
      s.patterns.byteLength + s.starts.byteLength + s.ends.byteLength + s.allow.byteLength + s.lines.byteLength + s.priority.byteLength
    // The matcher and RuleSet objects, and the six typed arrays of the RuleSet.
    return objectBytes(MATCHER_FIELDS) + objectBytes(RULE_SET_FIELDS) + 6 * TYPED_ARRAY_BYTES + ruleBytes + this.engine.memoryUsage()
  }

  /**
   * Figures about the matcher's engine, for tuning `matcherBudget` and for
   * benchmarks: rules, positions and byte classes, DFA states cached, flushes
   * (times the state cache reached its budget), and the cache's bytes now, at
   * most so far, and allowed.
   */
  stats(): MatcherStats {
    return { rules: this.rules.count, ...this.engine.stats() }
  }

  /** The deciding rule of a URL that is not a string: bytes, or a URL object. */
  private decideOther(url: unknown): number {
    if (url instanceof Uint8Array) return this.engine.decideBytes(url, 0, url.length)
    if (typeof URL === 'function' && url instanceof URL) return this.engine.decideString(url.href)
    throw new RobotsInputError(`a URL must be a string, a URL or a Uint8Array, got ${describeValue(url)}`)
  }

  private explainRule(r: number): Explanation {
    if (r < 0) {
      const line = this.fallbackLine
      if (!line) return { allowed: true, rule: null }
      const kind = this.rules.emptyAllowLine ? 'allow' : 'disallow'
      return { allowed: true, rule: { line, kind, pattern: '' } }
    }
    const s = this.rules
    return {
      allowed: s.allow[r] === 1,
      rule: {
        line: s.lines[r],
        kind: s.allow[r] ? 'allow' : 'disallow',
        pattern: latin1(s.patterns.subarray(s.starts[r], s.ends[r])),
      },
    }
  }
}
