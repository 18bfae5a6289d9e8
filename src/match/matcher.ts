/**
 * The per-crawler matcher returned by `robots.agent(token)`: verdicts for full
 * URLs or paths, explanations, and batch evaluation over byte buffers.
 */
import { latin1 } from '../parse/escape.js'
import { OBJECT_BYTES, TYPED_ARRAY_OVERHEAD } from './automaton/lazy-dfa.js'
import { noMatchLine, type RuleSet } from '../rules/rule-set.js'

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

/** What a matcher engine provides: the deciding rule for one URL. */
export interface MatchEngine {
  /** Index of the deciding rule for the URL in `url[start, end)`, or -1 when no rule matches. */
  decideBytes(url: Uint8Array, start: number, end: number): number
  /** The same for a URL string (matched as its UTF-8 bytes). */
  decideString(url: string): number
  /**
   * Optional batch form: judges every LF-separated line of `bytes` (a CR
   * before the LF excluded), writing `allow[r]` (1 when no rule) into `out`
   * and `lines[r]` (`fallbackLine` when no rule) into `ruleLines`; returns the
   * number of lines. Throws a RangeError when `out` or `ruleLines` is full.
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
}

/** A crawler's compiled matcher. Immutable in behaviour; safe to share. */
export class AgentMatcher {
  /** The crawler's rules (file order). */
  readonly rules: RuleSet
  private readonly engine: MatchEngine
  private readonly fallbackLine: number

  /** @internal */
  constructor(rules: RuleSet, engine: MatchEngine) {
    this.rules = rules
    this.engine = engine
    this.fallbackLine = noMatchLine(rules)
  }

  /** True when the crawler may fetch `url` (a full URL or a path; bytes are taken as UTF-8 / wire bytes). */
  isAllowed(url: string | Uint8Array): boolean {
    const r = typeof url === 'string' ? this.engine.decideString(url) : this.engine.decideBytes(url, 0, url.length)
    return r < 0 || this.rules.allow[r] === 1
  }

  /** The verdict and the rule that decided it, with the reference's matching line. */
  explain(url: string | Uint8Array): Explanation {
    const r = typeof url === 'string' ? this.engine.decideString(url) : this.engine.decideBytes(url, 0, url.length)
    return this.explainRule(r)
  }

  /** Judges `bytes[start, end)`: returns `line * 2 + (allowed ? 1 : 0)` (line 0 when no rule decided). */
  matchRange(bytes: Uint8Array, start: number, end: number): number {
    const r = this.engine.decideBytes(bytes, start, end)
    if (r < 0) return this.fallbackLine * 2 + 1
    return this.rules.lines[r] * 2 + this.rules.allow[r]
  }

  /**
   * Judges every line of `bytes` (LF-separated; a CR before the LF is not part
   * of the URL; a last line without LF counts; an empty line is judged as `/`).
   * Writes 1 (allowed) or 0 (disallowed) per line into `out` and, when given,
   * the deciding rule's line into `ruleLines` and the index of the line's LF
   * (or `bytes.length` for a last line without one) into `lineEnds`. Returns
   * the filled part of `out`. Throws a RangeError when an array is too small.
   */
  matchLines(bytes: Uint8Array, out?: Uint8Array, ruleLines?: Int32Array, lineEnds?: Int32Array): Uint8Array {
    const n = bytes.length
    let lines = 0
    if (out === undefined) {
      let count = 0
      for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++
      if (n > 0 && bytes[n - 1] !== 10) count++
      out = new Uint8Array(count)
    }
    const rules = this.rules
    const engine = this.engine
    if (engine.decideLines) {
      return out.subarray(0, engine.decideLines(bytes, out, ruleLines, rules.allow, rules.lines, this.fallbackLine, lineEnds))
    }
    let start = 0
    while (start < n) {
      let nl = bytes.indexOf(10, start)
      if (nl < 0) nl = n
      let end = nl
      if (end > start && bytes[end - 1] === 13) end--
      if (lines >= out.length) throw new RangeError(`matchLines: out has room for ${out.length} lines, the input has more`)
      const r = engine.decideBytes(bytes, start, end)
      out[lines] = r < 0 ? 1 : rules.allow[r]
      if (ruleLines) {
        if (lines >= ruleLines.length) throw new RangeError(`matchLines: ruleLines has room for ${ruleLines.length} lines, the input has more`)
        ruleLines[lines] = r < 0 ? this.fallbackLine : rules.lines[r]
      }
      if (lineEnds) {
        if (lines >= lineEnds.length) throw new RangeError(`matchLines: lineEnds has room for ${lineEnds.length} lines, the input has more`)
        lineEnds[lines] = nl
      }
      lines++
      start = nl + 1
    }
    return out.subarray(0, lines)
  }

  /** Bytes held by this matcher (rules and compiled states). */
  memoryUsage(): number {
    const s = this.rules
    const ruleBytes =
      s.patterns.byteLength + s.starts.byteLength + s.ends.byteLength + s.allow.byteLength + s.lines.byteLength + s.priority.byteLength
    // The matcher and RuleSet objects, and the six typed arrays of the RuleSet.
    return 2 * OBJECT_BYTES + 6 * TYPED_ARRAY_OVERHEAD + ruleBytes + this.engine.memoryUsage()
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
