/**
 * `Robots`: one parsed robots.txt, kept compact (see rules/compact-rules.ts), with
 * a matcher per crawler compiled on first use and cached.
 */
import { AgentMatcher, type MatchEngine } from './match/matcher.js'
import { EventCursor, EventType, type CompactRules, type ExtensionEntry } from './rules/compact-rules.js'
import { DiagnosticList, type Diagnostic } from './rules/diagnostics.js'
import type { RequestRate, VisitTime } from './rules/extensions.js'
import { parseWith } from './parse/parser.js'
import { RobotsBuilder } from './rules/builder.js'
import { assignGroups, GroupSlot, ListClosers, selectRules, type RuleSet } from './rules/rule-set.js'
import { checkEngineOptions, createEngine, type EngineOptions } from './match/engine.js'
import { arrayBytes, mapBytes, objectBytes, stringBytes, typedArrayBytes } from './memory.js'
import { asciiLower } from './parse/product-token.js'
import { checkLimit, type LineReader } from './parse/reader.js'
import { decodeRobots, encodeRobots } from './rules/serialise.js'
import { describeValue, optionsArgument, RobotsInputError } from './errors.js'

/** Options of `parseRobots` and `parseRobotsStream`. */
export interface ParseOptions extends EngineOptions {
  /** Parsing limit in bytes; default and minimum 512,000 (500 KiB, RFC 9309 §2.5). */
  limit?: number
}

/**
 * Checks the options of `parseRobots` and `parseRobotsStream` before any
 * byte is read: a limit out of range is a RobotsLimitError (ERR_LIMIT), a
 * matcher budget out of range a RobotsRangeError (ERR_BUDGET), an unknown
 * engine or an options argument that is not an object a RobotsInputError
 * (ERR_INPUT).
 */
export function checkParseOptions(options: unknown, what = 'parseRobots'): ParseOptions {
  const o = optionsArgument<ParseOptions>(options, what)
  checkLimit(o.limit)
  checkEngineOptions(o)
  return o
}

/** The product tokens of a crawler: one string, or an array of strings (a RobotsInputError otherwise). */
function tokenList(tokens: unknown, what: string): readonly string[] {
  if (typeof tokens === 'string') return [tokens]
  if (Array.isArray(tokens) && tokens.every((t) => typeof t === 'string')) return tokens
  throw new RobotsInputError(`${what} takes a product token or an array of them (strings), got ${describeValue(tokens)}`)
}

/** Fields of a Robots object and of its CompactRules, for their memory cost. */
const ROBOTS_FIELDS = 10
const COMPACT_RULES_FIELDS = 5

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
  /** Matchers of one token, by the token lowercased. */
  private matchers: Map<string, AgentMatcher> | undefined
  /** Matchers of several tokens, by {@link tokenSetKey} (a map of its own: no key can collide with a token). */
  private multiMatchers: Map<string, AgentMatcher> | undefined
  /** Bytes of everything but the matchers (immutable, measured once). */
  private fixedBytes = -1

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
    if (typeof token !== 'string') throw new RobotsInputError(`agent() takes a product token (a string), got ${describeValue(token)}`)
    const key = asciiLower(token)
    const map = (this.matchers ??= new Map())
    let m = map.get(key)
    if (m === undefined) {
      m = this.compile([token])
      map.set(key, m)
    }
    return m
  }

  /**
   * The matcher of a crawler answering to several tokens (the reference's
   * multi-agent semantics). Cached per set of tokens, compared as `agent()`
   * compares one: `['B', 'a', 'b']` and `['A', 'b']` share a matcher, and a
   * set of one token is `agent()`'s matcher.
   */
  agents(tokens: readonly string[]): AgentMatcher {
    if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string')) {
      throw new RobotsInputError(`agents() takes an array of product tokens (strings), got ${describeValue(tokens)}`)
    }
    if (tokens.length === 1) return this.agent(tokens[0])
    const lower = [...new Set(tokens.map(asciiLower))].sort()
    if (lower.length === 1) return this.agent(lower[0])
    const key = tokenSetKey(lower)
    const map = (this.multiMatchers ??= new Map())
    let m = map.get(key)
    if (m === undefined) {
      m = this.compile(lower)
      map.set(key, m)
    }
    return m
  }

  /** The rules that apply to a crawler (file order), as the matchers see them. */
  rulesFor(tokens: string | readonly string[]): RuleSet {
    return selectRules(this.rules, tokenList(tokens, 'rulesFor()'))
  }

  /**
   * Crawl-delay in seconds for the crawler, from the groups that apply to it
   * (its own groups, else `*`). Several values: the largest. Undefined if none.
   * An extension line belongs to the user-agent lines right above it (see
   * `ListClosers.AnyDirective` in rules/rule-set.ts); the same holds for
   * requestRate, visitTime and host.
   */
  crawlDelay(tokens: string | readonly string[]): number | undefined {
    const values = this.extensionValues(tokens, 0, 'crawlDelay()') as number[]
    if (!values.length) return undefined
    // A loop, not Math.max(...values): a file read with a raised limit may hold
    // more values than a call can take arguments.
    let max = values[0]
    for (const v of values) if (v > max) max = v
    return max
  }

  /** Request-rate for the crawler; several values: the slowest (fewest requests per second). */
  requestRate(tokens: string | readonly string[]): RequestRate | undefined {
    const values = this.extensionValues(tokens, 1, 'requestRate()') as RequestRate[]
    let best: RequestRate | undefined
    for (const v of values) if (!best || v.requests / v.seconds < best.requests / best.seconds) best = v
    return best
  }

  /** Visit-time window (UTC) for the crawler; several values: the first. */
  visitTime(tokens: string | readonly string[]): VisitTime | undefined {
    return this.extensionValues(tokens, 2, 'visitTime()')[0] as VisitTime | undefined
  }

  /** Preferred host for the crawler; several values: the first. */
  host(tokens: string | readonly string[]): string | undefined {
    return this.extensionValues(tokens, 3, 'host()')[0] as string | undefined
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

  /**
   * Loads what `toBytes` wrote. A foreign or corrupt buffer is a
   * RobotsFormatError (ERR_FORMAT, or ERR_VERSION for a format version this
   * build does not read); options as for `parseRobots` (the limit aside).
   */
  static fromBytes(bytes: Uint8Array, options: EngineOptions = {}): Robots {
    const o = optionsArgument<EngineOptions>(options, 'Robots.fromBytes')
    checkEngineOptions(o)
    const p = decodeRobots(bytes)
    return new Robots(p.rules, [...p.sitemaps], p.diagnostics, p, engineOptionsOf(o))
  }

  /**
   * Bytes held: the compact rules, sitemaps, diagnostics and every compiled
   * matcher, by the model of src/memory.ts. Grows as matchers compile.
   */
  memoryUsage(): number {
    if (this.fixedBytes < 0) this.fixedBytes = this.measureFixed()
    return this.fixedBytes + matchersBytes(this.matchers) + matchersBytes(this.multiMatchers)
  }

  /** Bytes of the parts that never change: this object, the compact rules, sitemaps and diagnostics. */
  private measureFixed(): number {
    const r = this.rules
    let bytes = objectBytes(ROBOTS_FIELDS) + objectBytes(COMPACT_RULES_FIELDS)
    // Empty parts are shared by every Robots (see RobotsBuilder.finish): not counted.
    if (r.patterns.byteLength) bytes += typedArrayBytes(r.patterns)
    if (r.events.byteLength) bytes += typedArrayBytes(r.events)
    bytes += stringsBytes(r.names) + stringsBytes(this.sitemaps)
    if (r.extensions.length) {
      bytes += arrayBytes(r.extensions.length)
      for (const e of r.extensions) bytes += extensionBytes(e)
    }
    return bytes + this.diagnosticList.memoryUsage()
  }

  private compile(tokens: readonly string[]): AgentMatcher {
    const set = selectRules(this.rules, tokens)
    const engine: MatchEngine = createEngine(set, this.engineOptions)
    return new AgentMatcher(set, engine)
  }

  private extensionValues(tokens: string | readonly string[], kind: number, what: string): unknown[] {
    const list = tokenList(tokens, what)
    const { slots, specific } = assignGroups(this.rules, list, ListClosers.AnyDirective)
    const want = specific ? GroupSlot.Specific : GroupSlot.Global
    const out: unknown[] = []
    for (const c = new EventCursor(this.rules); c.next(); ) {
      if (slots[c.index] !== want || c.type !== EventType.Extension) continue
      const ext = this.rules.extensions[c.a]
      if (ext.kind === kind) out.push(ext.value)
    }
    return out
  }
}

/**
 * The cache key of a set of several tokens: each token (lowercased, sorted,
 * distinct) as its length, `:`, and itself. Length prefixes make the
 * encoding a prefix code, so two different sets never share a key, whatever
 * characters the tokens hold (NUL, `:`, digits included).
 */
function tokenSetKey(sortedLower: readonly string[]): string {
  let key = ''
  for (const t of sortedLower) key += `${t.length}:${t}`
  return key
}

/** A shared-nothing list of strings: the array and each string (a shared empty list: nothing). */
function stringsBytes(list: readonly string[]): number {
  if (list.length === 0) return 0
  let bytes = arrayBytes(list.length)
  for (const s of list) bytes += stringBytes(s)
  return bytes
}

/** An extension entry `{ kind, value }` and its value. */
function extensionBytes(e: ExtensionEntry): number {
  const v = e.value
  let bytes = objectBytes(2)
  if (typeof v === 'string') bytes += stringBytes(v)
  else if (typeof v === 'number') bytes += objectBytes(1) // a heap number (small integers cost nothing; counted alike)
  else if ('requests' in v) bytes += objectBytes(2)
  else bytes += objectBytes(2) + stringBytes(v.from) + stringBytes(v.to)
  return bytes
}

/** A map of matchers: the map, its keys and the matchers. */
function matchersBytes(map: Map<string, AgentMatcher> | undefined): number {
  if (map === undefined) return 0
  let bytes = mapBytes(map.size)
  for (const [key, m] of map) bytes += stringBytes(key) + m.memoryUsage()
  return bytes
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
 * served). Never throws on content. Bad options throw before anything is
 * read (see {@link checkParseOptions}); input of another type is a
 * RobotsInputError (ERR_INPUT).
 */
export function parseRobots(input: string | Uint8Array, options: ParseOptions = {}): Robots {
  const o = checkParseOptions(options)
  const builder = new RobotsBuilder()
  const reader = parseWith(input, builder, o.limit)
  return robotsFrom(builder, reader, o)
}
