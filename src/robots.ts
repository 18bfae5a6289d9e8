/**
 * `Robots`: one parsed robots.txt, kept compact (see rules/compact-rules.ts), with
 * a matcher per crawler compiled on first use and cached.
 */
import { AgentMatcher, type MatchEngine } from './match/matcher.js'
import { EventCursor, EventType, type CompactRules } from './rules/compact-rules.js'
import { DiagnosticList, type Diagnostic } from './rules/diagnostics.js'
import type { RequestRate, VisitTime } from './rules/extensions.js'
import { parseInto } from './parse/parser.js'
import { RobotsBuilder } from './rules/builder.js'
import { assignExtensionGroups, selectRules, type RuleSet } from './rules/rule-set.js'
import { createEngine, type EngineOptions } from './match/engine.js'
import { OBJECT_BYTES, TYPED_ARRAY_OVERHEAD } from './match/automaton/lazy-dfa.js'
import { asciiLower } from './parse/product-token.js'
import type { LineReader } from './parse/reader.js'
import { decodeRobots, encodeRobots } from './rules/serialise.js'

/** Options of `parseRobots` and `parseRobotsStream`. */
export interface ParseOptions extends EngineOptions {
  /** Parsing limit in bytes; default and minimum 512,000 (500 KiB, RFC 9309 §2.5). */
  limit?: number
}

/** The outcome of reading the body. */
export interface ReadInfo {
  truncated: boolean
  bytesRead: number
  lineCount: number
}

/** A parsed robots.txt. Ask `agent(token)` for a crawler's matcher. */
export class Robots {
  /** True when the body was longer than the limit (the rest was not read). */
  readonly truncated: boolean
  /** Bytes of the body read (at most the limit). */
  readonly bytesRead: number
  /** Physical lines parsed. */
  readonly lineCount: number
  /** Absolute sitemap URLs, in file order. */
  readonly sitemaps: readonly string[]
  /** @internal The compact rules. */
  readonly rules: CompactRules
  private readonly diagnosticList: DiagnosticList
  private readonly engineOptions: EngineOptions
  private matchers: Map<string, AgentMatcher> | undefined

  /** @internal Use `parseRobots`, `parseRobotsStream` or `Robots.fromBytes`. */
  constructor(rules: CompactRules, sitemaps: string[], diagnostics: DiagnosticList, info: ReadInfo, options: EngineOptions = DEFAULT_ENGINE) {
    this.rules = rules
    this.sitemaps = sitemaps
    this.diagnosticList = diagnostics
    this.truncated = info.truncated
    this.bytesRead = info.bytesRead
    this.lineCount = info.lineCount
    this.engineOptions = options
  }

  /** Every diagnostic, in line order of discovery. */
  get diagnostics(): Diagnostic[] {
    return this.diagnosticList.toArray()
  }

  /**
   * The matcher of the crawler whose product token is `token` (compared whole,
   * ASCII-case-insensitively, as the reference does). Cached per token.
   */
  agent(token: string): AgentMatcher {
    if (typeof token !== 'string') throw new TypeError('agent token must be a string')
    const lower = asciiLower(token)
    // Keys of several tokens start with NUL (see agents()); a single token that
    // does too gets the same canonical form, so the two kinds never collide.
    return this.cached(lower.charCodeAt(0) === 0 ? '\u0000' + JSON.stringify([lower]) : lower, [token])
  }

  /** The matcher of a crawler answering to several tokens (the reference's multi-agent semantics). */
  agents(tokens: readonly string[]): AgentMatcher {
    if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) {
      throw new TypeError('agents() takes an array of strings')
    }
    if (tokens.length === 1) return this.agent(tokens[0])
    return this.cached('\u0000' + JSON.stringify([...new Set(tokens.map(asciiLower))].sort()), tokens)
  }

  /** The rules that apply to a crawler (file order), as the matchers see them. */
  rulesFor(tokens: string | readonly string[]): RuleSet {
    return selectRules(this.rules, typeof tokens === 'string' ? [tokens] : tokens)
  }

  /**
   * Crawl-delay in seconds for the crawler, from the groups that apply to it
   * (its own groups, else `*`). Several values: the largest. Undefined if none.
   * An extension line belongs to the user-agent lines right above it (see
   * `assignExtensionGroups` in rules/rule-set.ts); the same holds for requestRate,
   * visitTime and host.
   */
  crawlDelay(tokens: string | readonly string[]): number | undefined {
    const values = this.extensionValues(tokens, 0) as number[]
    if (!values.length) return undefined
    // A loop, not Math.max(...values): a file read with a raised limit may hold
    // more values than a call can take arguments.
    let max = values[0]
    for (const v of values) if (v > max) max = v
    return max
  }

  /** Request-rate for the crawler; several values: the slowest (fewest requests per second). */
  requestRate(tokens: string | readonly string[]): RequestRate | undefined {
    const values = this.extensionValues(tokens, 1) as RequestRate[]
    let best: RequestRate | undefined
    for (const v of values) if (!best || v.requests / v.seconds < best.requests / best.seconds) best = v
    return best
  }

  /** Visit-time window (UTC) for the crawler; several values: the first. */
  visitTime(tokens: string | readonly string[]): VisitTime | undefined {
    return this.extensionValues(tokens, 2)[0] as VisitTime | undefined
  }

  /** Preferred host for the crawler; several values: the first. */
  host(tokens: string | readonly string[]): string | undefined {
    return this.extensionValues(tokens, 3)[0] as string | undefined
  }

  /**
   * The parsed rules as bytes (see rules/serialise.ts for the versioned format),
   * for storage; `Robots.fromBytes` loads them back without re-parsing.
   */
  toBytes(): Uint8Array {
    return encodeRobots({
      rules: this.rules,
      sitemaps: this.sitemaps,
      diagnostics: this.diagnosticList,
      truncated: this.truncated,
      bytesRead: this.bytesRead,
      lineCount: this.lineCount,
    })
  }

  /** Loads what `toBytes` wrote; throws a RobotsFormatError (code ERR_FORMAT or ERR_VERSION) for a foreign or corrupt buffer. */
  static fromBytes(bytes: Uint8Array, options: EngineOptions = {}): Robots {
    const p = decodeRobots(bytes)
    return new Robots(p.rules, [...p.sitemaps], p.diagnostics, p, options)
  }

  /** Bytes held: the compact rules, sitemaps, diagnostics and every compiled matcher. */
  memoryUsage(): number {
    const r = this.rules
    // The Robots and rules objects, three arrays, two typed arrays; strings at 24 bytes plus one per char.
    let bytes = 5 * OBJECT_BYTES + 2 * TYPED_ARRAY_OVERHEAD + r.patterns.byteLength + r.events.byteLength
    bytes += this.diagnosticList.memoryUsage()
    for (const name of r.names) bytes += 32 + name.length
    for (const s of this.sitemaps) bytes += 32 + s.length
    bytes += r.extensions.length * 2 * OBJECT_BYTES
    if (this.matchers) {
      bytes += 200
      for (const [key, m] of this.matchers) bytes += 40 + 24 + key.length + m.memoryUsage()
    }
    return bytes
  }

  private cached(key: string, tokens: readonly string[]): AgentMatcher {
    const map = (this.matchers ??= new Map())
    let m = map.get(key)
    if (!m) {
      const set = selectRules(this.rules, tokens)
      const engine: MatchEngine = createEngine(set, this.engineOptions)
      m = new AgentMatcher(set, engine)
      map.set(key, m)
    }
    return m
  }

  private extensionValues(tokens: string | readonly string[], kind: number): unknown[] {
    const list = typeof tokens === 'string' ? [tokens] : tokens
    const { slots, specific } = assignExtensionGroups(this.rules, list)
    const want = specific ? 2 : 1
    const out: unknown[] = []
    for (const c = new EventCursor(this.rules); c.next(); ) {
      if (slots[c.index] !== want || c.type !== EventType.Extension) continue
      const ext = this.rules.extensions[c.a]
      if (ext.kind === kind) out.push(ext.value)
    }
    return out
  }
}

/** Builds a Robots from a finished builder and reader. */
export function robotsFrom(builder: RobotsBuilder, reader: LineReader, options: ParseOptions): Robots {
  if (reader.truncated) builder.diagnostics.add('truncated', reader.lineCount + 1, `read ${reader.bytesRead} bytes`, true)
  return new Robots(builder.finish(), builder.sitemapList(), builder.diagnostics, {
    truncated: reader.truncated,
    bytesRead: reader.bytesRead,
    lineCount: reader.lineCount,
  }, engineOptionsOf(options))
}

const DEFAULT_ENGINE: EngineOptions = Object.freeze({})

/** The engine options of parse options (one shared object for the usual case: none). */
function engineOptionsOf(options: ParseOptions): EngineOptions {
  if (options.matcherBudget === undefined && options.engine === undefined) return DEFAULT_ENGINE
  return { matcherBudget: options.matcherBudget, engine: options.engine }
}

/**
 * Parses a robots.txt body (a string, taken as UTF-8, or the bytes as
 * served). Never throws on content; throws a RangeError for a limit below
 * 500 KiB and a TypeError for other input types.
 */
export function parseRobots(input: string | Uint8Array, options: ParseOptions = {}): Robots {
  const builder = new RobotsBuilder()
  const reader = parseInto(input, builder, options.limit)
  return robotsFrom(builder, reader, options)
}
