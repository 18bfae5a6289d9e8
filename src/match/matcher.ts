/**
 * The per-crawler matcher returned by `robots.agent(token)`: verdicts for full
 * URLs or paths, explanations, and batch evaluation over byte buffers. It
 * also moves itself between the matching tiers (./tiers.ts, README.md):
 * cold (direct), hot (lazy DFA), thrash-proof.
 */
import { asBytes, checkOpened, describeValue, isIndex, OPENED, RobotsInputError, RobotsRangeError } from '../errors.js'
import { objectBytes, typedArrayBytes } from '../memory.js'
import { noMatchLine, RuleField, RuleFlag, type RuleSet } from '../rules/rule-set.js'
import { checkRoom, countLines, lineEnd, urlEnd } from './lines.js'
import type { EngineOptions } from './engine-options.js'
import type { EngineStats, LineJob, MatchEngine } from './engine.js'
import { firstTier, type TierState } from './tiers.js'
import { Tier, TIER_NAMES, type TierName } from './tier.js'
import { SCAN_END, scanOffsets, scanSource } from '../url/scan-access.js'
import type { UrlScan } from '../url/url-scan-record.js'
import type { PathStart } from '../url/url-path.js'
import { UrlField } from '../url/url-scan.js'

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

/** `AgentMatcher.stats()`: the engine's figures, the tier and the number of rules. */
export interface MatcherStats extends EngineStats {
  /** Rules of the crawler's RuleSet (an index.htm rule's directory form counts as one more). */
  rules: number
  /** The matcher's tier now: `'cold'`, `'hot'`, `'thrash-proof'`, or `'plain'` (engine: 'plain'). */
  tier: TierName
}

/** Fields of an AgentMatcher and of a RuleSet object, for their memory cost. */
const MATCHER_FIELDS = 5
const RULE_SET_FIELDS = 5

/** Makes a matcher (the constructor is private): {@link createMatcher}. */
let construct: (rules: RuleSet, options: EngineOptions) => AgentMatcher
/** The doors of {@link codeFrom} and {@link codeFromString}. */
let fromBytes: (m: AgentMatcher, url: Uint8Array, ps: PathStart, end: number) => number
let fromString: (m: AgentMatcher, url: string, ps: PathStart) => number

/** A crawler's compiled matcher. Immutable in behaviour; safe to share. */
export class AgentMatcher {
  /** The crawler's rules (rank order: see RuleSet). */
  readonly rules: RuleSet
  /** The engine of the current tier (the tier policy, tiers.ts, moves it: it sees the matcher as a TierState). */
  private engine: MatchEngine
  /** The current {@link Tier}. */
  private tier: Tier
  /** The options the engines are made with (read by the tier policy only: protected, so that the compiler does not call it unused). */
  protected readonly options: EngineOptions
  private readonly fallbackLine: number

  static {
    construct = (rules, options) => new AgentMatcher(OPENED, rules, options)
    fromBytes = (m, url, ps, end) => m.codeOf(m.engine.decideFrom(url, ps, end))
    fromString = (m, url, ps) => m.codeOf(m.engine.decideStringFrom(url, ps))
  }

  /** Matchers come from `Robots.agent()`/`agents()` and `RobotsStore` (private, so that the typings offer no constructor). */
  private constructor(key: typeof OPENED, rules: RuleSet, options: EngineOptions) {
    checkOpened(key, 'AgentMatcher')
    this.rules = rules
    this.options = options
    this.fallbackLine = noMatchLine(rules)
    this.engine = undefined as unknown as MatchEngine
    this.tier = Tier.Cold
    firstTier(this as unknown as TierState)
  }

  /**
   * True when the crawler may fetch `url`: a full URL or a path, as a string,
   * a `URL`, or bytes (taken as the URL's wire bytes, UTF-8). Any other type
   * is a RobotsInputError (ERR_INPUT).
   */
  isAllowed(url: string | URL | Uint8Array): boolean {
    // The tier's countdown, if any, is the engine's own (./tiers.ts): nothing to count here.
    const r = typeof url === 'string' ? this.engine.decideString(url) : this.decideOther(url)
    return r < 0 || (this.rules.records[r * RuleField.Width + RuleField.Flags] & RuleFlag.Allow) !== 0
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
    if (asBytes(bytes) === undefined) throw new RobotsInputError(`matchRange: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (!(isIndex(start) && isIndex(end) && start <= end && end <= bytes.length)) {
      throw new RobotsRangeError('ERR_RANGE', `matchRange: [${describeValue(start)}, ${describeValue(end)}) is not a range of a ${bytes.length}-byte buffer`)
    }
    const r = this.engine.decideBytes(bytes, start, end)
    return this.codeOf(r)
  }

  /**
   * Judges the URL `scan` scanned last (a UrlScan: the batch form of
   * {@link matchRange}), from the path start the scan found: nothing is
   * scanned twice. Returns `line * 2 + (allowed ? 1 : 0)`, as `matchRange`
   * does. Anything but a UrlScan that has scanned a URL is a
   * RobotsInputError (ERR_INPUT); a scan whose bytes have shrunk since
   * (a buffer transferred away) a RobotsRangeError (ERR_RANGE).
   */
  matchScan(scan: UrlScan): number {
    const rec = scanOffsets(scan)
    if (rec === undefined) throw new RobotsInputError(`matchScan takes a UrlScan, got ${describeValue(scan)}`)
    if (rec[UrlField.Start] < 0) throw new RobotsInputError('matchScan: the UrlScan has scanned no URL yet')
    const src = scanSource(scan)
    const end = rec[SCAN_END]
    const ps = rec[UrlField.PathStart] as PathStart
    if (typeof src === 'string') return this.codeOf(this.engine.decideStringFrom(src, ps))
    if (end > src.length) throw new RobotsRangeError('ERR_RANGE', `matchScan: the scanned URL ends at ${end}, past its ${src.length}-byte buffer`)
    return this.codeOf(this.engine.decideFrom(src, ps, end))
  }

  /** `line * 2 + (allowed ? 1 : 0)` of deciding rule `r` (-1: none), as `matchRange` returns it. */
  private codeOf(r: number): number {
    if (r < 0) return this.fallbackLine * 2 + 1
    const at = r * RuleField.Width
    return this.rules.records[at + RuleField.Line] * 2 + (this.rules.records[at + RuleField.Flags] & RuleFlag.Allow)
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
    if (asBytes(bytes) === undefined) throw new RobotsInputError(`matchLines: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
    if (out !== undefined && asBytes(out) === undefined) throw new RobotsInputError(`matchLines: out must be a Uint8Array, got ${describeValue(out)}`)
    if (ruleLines !== undefined && !(ruleLines instanceof Int32Array)) {
      throw new RobotsInputError(`matchLines: ruleLines must be an Int32Array, got ${describeValue(ruleLines)}`)
    }
    if (lineEnds !== undefined && !(lineEnds instanceof Int32Array)) {
      throw new RobotsInputError(`matchLines: lineEnds must be an Int32Array, got ${describeValue(lineEnds)}`)
    }
    out ??= new Uint8Array(countLines(bytes))
    const job: LineJob = { bytes, out, ruleLines, lineEnds, records: this.rules.records, fallbackLine: this.fallbackLine, start: 0, row: 0 }
    const n = bytes.length
    // A tier may change between two lines (cold → hot after the threshold,
    // hot → thrash-proof when the DFA thrashes): each engine judges its run
    // of lines, then the next one goes on from there.
    while (job.start < n) {
      const engine = this.engine
      if (engine.decideLines) engine.decideLines(job)
      else this.decideLinesEach(engine, job)
    }
    return out.subarray(0, job.row)
  }

  /** Bytes held by this matcher (rules and compiled states), by the model of src/memory.ts; the pattern bytes belong to the parsed rules. */
  memoryUsage(): number {
    const records = this.rules.records
    return objectBytes(MATCHER_FIELDS) + objectBytes(RULE_SET_FIELDS) + (records.length ? typedArrayBytes(records) : 0) + this.engine.memoryUsage()
  }

  /**
   * Figures about the matcher's tier and engine, for tuning `matcherBudget`
   * and for benchmarks: rules, the tier, positions and byte classes, DFA
   * states cached, flushes (times the state cache reached its budget), and
   * the cache's bytes now, at most so far, and allowed.
   */
  stats(): MatcherStats {
    return { rules: this.rules.count, tier: TIER_NAMES[this.tier], ...this.engine.stats() }
  }

  /**
   * The lines of a job one by one, with the shared line convention
   * (lines.ts), for engines without a batch form: until the input ends or
   * the matcher changes tier (the engine's countdown ran out).
   */
  private decideLinesEach(engine: MatchEngine, job: LineJob): void {
    const { bytes, out, ruleLines, lineEnds, records, fallbackLine } = job
    const n = bytes.length
    let start = job.start
    let row = job.row
    for (; start < n && this.engine === engine; row++) {
      const lf = lineEnd(bytes, start)
      const r = engine.decideBytes(bytes, start, urlEnd(bytes, start, lf))
      checkRoom(out, row, 'out')
      const at = r * RuleField.Width
      out[row] = r < 0 ? 1 : records[at + RuleField.Flags] & RuleFlag.Allow
      if (ruleLines) {
        checkRoom(ruleLines, row, 'ruleLines')
        ruleLines[row] = r < 0 ? fallbackLine : records[at + RuleField.Line]
      }
      if (lineEnds) {
        checkRoom(lineEnds, row, 'lineEnds')
        lineEnds[row] = lf
      }
      start = lf + 1
    }
    job.start = start
    job.row = row
  }

  /** The deciding rule of a URL that is not a string: bytes, or a URL object. */
  private decideOther(url: unknown): number {
    const bytes = asBytes(url)
    if (bytes !== undefined) return this.engine.decideBytes(bytes, 0, bytes.length)
    if (typeof URL === 'function' && url instanceof URL) return this.engine.decideString(url.href)
    throw new RobotsInputError(`a URL must be a string, a URL or a Uint8Array, got ${describeValue(url)}`)
  }

  /** The explanation of deciding rule `r` (-1: none), as `explain` gives it. */
  private explainRule(r: number): Explanation {
    if (r < 0) {
      const line = this.fallbackLine
      if (!line) return { allowed: true, rule: null }
      const kind = this.rules.emptyAllowLine ? 'allow' : 'disallow'
      return { allowed: true, rule: { line, kind, pattern: '' } }
    }
    const s = this.rules
    const allowed = s.allows(r)
    return { allowed, rule: { line: s.line(r), kind: allowed ? 'allow' : 'disallow', pattern: s.patternText(r) } }
  }
}

/**
 * `matchRange`'s code (`line * 2 + (allowed ? 1 : 0)`) of the URL ending at
 * `end` in `url` whose path starts where `ps` says (a PathStart of
 * url/url-path.ts): the door of the crawler sets (robots/crawler-set.ts),
 * which find a URL's path start once for all their matchers. Arguments are
 * taken as checked.
 */
export function codeFrom(m: AgentMatcher, url: Uint8Array, ps: PathStart, end: number): number {
  return fromBytes(m, url, ps, end)
}

/** {@link codeFrom} for a string URL (`ps` in code units). */
export function codeFromString(m: AgentMatcher, url: string, ps: PathStart): number {
  return fromString(m, url, ps)
}

/**
 * The matcher of a crawler's rules. `options` are taken as checked (see
 * checkEngineOptions) and are not copied: pass a shared object.
 */
export function createMatcher(set: RuleSet, options: EngineOptions): AgentMatcher {
  return construct(set, options)
}
