/**
 * `Robots`: one parsed robots.txt, kept compact (see rules/compact-rules.ts), with
 * a matcher per crawler compiled on first use and cached.
 */
import { CompactRules, EventCursor, EventType, FormFlag, Header, formBytesRead, formLength, formLineCount } from '../rules/compact-rules.js'
import { agentDiagnostic, readDiagnostics, type Diagnostic, type DiagnosticTotals } from '../rules/diagnostics.js'
import { ExtensionKind, readExtension, type RequestRate, type VisitTime } from '../rules/extensions.js'
import { extensionEntries, readSitemaps } from '../rules/sections.js'
import { parseWith } from '../parse/parser.js'
import { RobotsBuilder } from '../rules/builder.js'
import { assignGroups, GroupSlot, ListClosers, selectRules, type RuleSet } from '../rules/rule-set.js'
import { checkEngineOptions, ENGINE_OPTION_NAMES, type EngineOptions } from '../match/engine-options.js'
import { createMatcher, type AgentMatcher } from '../match/matcher.js'
import { DEFAULT_MATCHER_BUDGET } from '../match/automaton/lazy-dfa.js'
import { keptSlab, keptSlot, objectBytes, slotBytes, viewBytes } from '../memory.js'
import { checkLimit, type LineReader } from '../parse/reader.js'
import { isValidProductToken } from '../parse/product-token.js'
import { decodeForm, encodeForm } from '../rules/serialise.js'
import { AgentCache, tokenSelection, tokensSelection } from './agent-cache.js'
import { crawlerList, makeCrawlerSet, type Crawler, type CrawlerAccess, type CrawlerSet } from './crawler-set.js'
import { checkOpened, describeValue, isStrings, OPENED, optionsArgument, RobotsInputError } from '../errors.js'

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
  const o = optionsArgument<ParseOptions>(options, what, PARSE_OPTION_NAMES)
  checkLimit(o.limit)
  checkEngineOptions(o)
  return o
}

/** The options of `parseRobots` and `parseRobotsStream`, each read once (the stream's `signal` too). */
const PARSE_OPTION_NAMES: readonly string[] = ['limit', ...ENGINE_OPTION_NAMES, 'signal']

/**
 * `value`, which is no Robots of this build, in words for an error message:
 * a Robots of the other module format's build (ESM and CommonJS are two
 * module graphs) is named so, with the way across.
 */
export function describeNotRobots(value: unknown): string {
  let other = false
  try {
    other = typeof value === 'object' && value !== null && typeof (value as { toBytes?: unknown }).toBytes === 'function'
  } catch {
    // A getter that throws: no Robots of any build.
  }
  return other ? 'a Robots of another build (ESM and CommonJS are two; use Robots.fromBytes(robots.toBytes()))' : describeValue(value)
}

/** The product tokens of a crawler: one string, or an array of strings (a RobotsInputError otherwise); none means `*` where `optional`. */
function tokenList(tokens: unknown, what: string, optional = false): readonly string[] {
  if (tokens === undefined && optional) return GLOBAL
  if (typeof tokens === 'string') return [tokens]
  if (isStrings(tokens)) return tokens
  throw new RobotsInputError(`${what} takes a product token or an array of them (strings), got ${describeValue(tokens)}`)
}

/** The tokens of a crawler that names no group: the `*` groups apply (what `crawlDelay()` without an argument asks about). */
const GLOBAL: readonly string[] = Object.freeze(['*'])

/** Most `agent-not-product-token` warnings one Robots keeps (one per distinct token; agent strings may come from untrusted input). */
export const MAX_AGENT_WARNINGS = 8

/**
 * The tokens that were not product tokens, per Robots (a side table, so that
 * no Robots pays a field for them): shown as `agent-not-product-token`
 * warnings at the end of `diagnostics`.
 */
const agentWarnings = new WeakMap<Robots, string[]>()

/**
 * Notes `token` when it is not a product token (`[A-Za-z_-]+`; `*` is the
 * global groups' name and fine): the reference compares a crawler's token
 * whole, so `MyBot/1.0` names no group and gets the `*` rules. The answer
 * stays the reference's; the warning tells the caller why.
 */
function noteToken(robots: Robots, token: string): void {
  if (token === '*' || isValidProductToken(token)) return
  let seen = agentWarnings.get(robots)
  if (seen === undefined) agentWarnings.set(robots, (seen = []))
  if (seen.length < MAX_AGENT_WARNINGS && !seen.includes(token)) seen.push(token)
}

/** Fields of a Robots object, for its memory cost. */
const ROBOTS_FIELDS = 3

/** Most bytes of matchers one Robots keeps cached, in multiples of their `matcherBudget` (see agent-cache.ts). */
const AGENT_CACHE_BUDGETS = 4

/**
 * The matcher of a crawler answering to `tokens`, compiled from `rules`:
 * the one place where `Robots` and `RobotsStore` make matchers.
 */
export function compileMatcher(rules: CompactRules, tokens: readonly string[], options: EngineOptions): AgentMatcher {
  return createMatcher(selectRules(rules, tokens), options)
}

/** The two doors the core's other modules use (not part of the API): {@link robotsOfForm}, {@link rulesOf}. */
let makeRobots: (form: Uint8Array, options: EngineOptions, at?: number) => Robots
let formBytes: (robots: Robots) => Uint8Array
let formCost: (robots: Robots) => number

/**
 * A parsed robots.txt: a thin view over its compact form (one `Uint8Array`,
 * rules/compact-rules.ts), with the matchers of the crawlers asked for.
 * Ask `agent(token)` for a crawler's matcher. Sitemaps, diagnostics and
 * extension values are decoded from the form when asked for.
 */
export class Robots {
  /** The form, or (when `at` >= 0) the shared array of a slab the form was cut from (src/memory.ts keptSlot). */
  private readonly held: Uint8Array
  /** Where the form starts in `held`, or -1 when `held` is the form: a form in a slab costs no view of its own. */
  private readonly at: number
  /** The engine options until the first `agent()`, then the matchers by selection, which keep the options (bounded: see agent-cache.ts). */
  private state: EngineOptions | AgentCache

  /** Use `parseRobots`, `parseRobotsStream` or `Robots.fromBytes` (private, so that the typings offer no constructor). */
  private constructor(key: typeof OPENED, held: Uint8Array, options: EngineOptions, at = -1) {
    checkOpened(key, 'Robots')
    this.held = held
    this.at = at
    this.state = options
  }

  static {
    makeRobots = (form, options, at) => new Robots(OPENED, form, options, at)
    formBytes = (robots) => robots.form
    formCost = (robots) => (robots.at < 0 ? viewBytes(robots.held) : slotBytes(formLength(robots.held, robots.at), robots.held.byteLength))
  }

  /** The form's bytes (a view made on each read when the form is in a slab). */
  private get form(): Uint8Array {
    const at = this.at
    return at < 0 ? this.held : this.held.subarray(at, at + formLength(this.held, at))
  }

  /** The compact form: a view over its bytes, made on each read (a Robots holds the bytes alone). */
  private get rules(): CompactRules {
    return new CompactRules(this.form)
  }

  /** Where the form starts in `held` (its header read in place, without a view). */
  private get base(): number {
    return this.at < 0 ? 0 : this.at
  }

  /** True when the body was longer than the limit (the rest was not read). */
  get truncated(): boolean {
    return (this.held[this.base + Header.Flags] & FormFlag.Truncated) !== 0
  }

  /** Bytes of the body read (at most the limit). */
  get bytesRead(): number {
    return formBytesRead(this.held, this.base)
  }

  /** Physical lines parsed. */
  get lineCount(): number {
    return formLineCount(this.held, this.base)
  }

  /** Absolute sitemap URLs, in file order (a new array on each call). */
  get sitemaps(): readonly string[] {
    return readSitemaps(this.rules.bytes)
  }

  /**
   * How many diagnostics the file has, by severity: the real totals, past
   * the first 1,000 that `diagnostics` lists too (counted while parsing). For
   * a Robots made by `fromBytes` from a file with more than 1,000, only what
   * the form kept is counted.
   */
  get diagnosticTotals(): DiagnosticTotals {
    const capped = cappedTotals.get(this)
    if (capped !== undefined) return { ...capped, warning: capped.warning + (agentWarnings.get(this)?.length ?? 0) }
    const t: DiagnosticTotals = { error: 0, warning: 0, info: 0 }
    for (const d of this.diagnostics) if (d.code !== 'too-many-diagnostics') t[d.severity]++
    return t
  }

  /**
   * Every diagnostic, in line order of discovery (a new array on each call);
   * then, at line 0, an `agent-not-product-token` warning for each crawler
   * token asked about that is not a product token (`agent('MyBot/1.0')`:
   * the answers stay the reference's, which gives such a token the `*`
   * rules; at most 8 tokens, `MAX_AGENT_WARNINGS`; not kept by `toBytes`).
   */
  get diagnostics(): Diagnostic[] {
    const out = readDiagnostics(this.rules.bytes)
    const tokens = agentWarnings.get(this)
    if (tokens !== undefined) for (const t of tokens) out.push(agentDiagnostic(t))
    return out
  }

  /**
   * The matcher of the crawler whose product token is `token` (compared whole,
   * ASCII-case-insensitively, as the reference does). Tokens that select the
   * same groups share one matcher; the cache is bounded (agent-cache.ts), so
   * agent strings from untrusted input cannot grow it.
   */
  agent(token: string): AgentMatcher {
    const c = this.state
    if (c instanceof AgentCache && c.lastToken === token && c.lastMatcher !== undefined) return c.lastMatcher
    if (typeof token !== 'string') throw new RobotsInputError(`agent() takes a product token (a string), got ${describeValue(token)}`)
    noteToken(this, token)
    const cache = this.cache()
    const m = cache.get(tokenSelection(this.rules, token), () => this.compile([token]))
    cache.lastToken = token
    cache.lastMatcher = m
    return m
  }

  /**
   * The matcher of a crawler answering to several tokens (the reference's
   * multi-agent semantics). Tokens compare as `agent()` compares one;
   * matchers are shared by selection as for `agent()`: `['B', 'a', 'b']` and
   * `['A', 'b']` share one, and so does a set whose only known token is `t`
   * with `agent(t)`.
   */
  agents(tokens: readonly string[]): AgentMatcher {
    if (!isStrings(tokens)) {
      throw new RobotsInputError(`agents() takes an array of product tokens (strings), got ${describeValue(tokens)}`)
    }
    if (tokens.length === 1) return this.agent(tokens[0])
    for (const t of tokens) noteToken(this, t)
    const cache = this.cache()
    return cache.get(tokensSelection(this.rules, tokens), () => this.compile(tokens))
  }

  /**
   * Several crawlers judged together ({@link CrawlerSet}): each crawler a
   * product token, or an array of tokens (one crawler answering to each, as
   * `agents()`). Each answers exactly as `agent()`/`agents()` would alone;
   * crawlers that select the same groups share one matcher (from this
   * Robots' cache). Build the set once per file and keep it: its checks
   * find a URL's path start once for every crawler. Anything but an array
   * of such crawlers is a RobotsInputError (ERR_INPUT).
   */
  crawlers(crawlers: readonly Crawler[]): CrawlerSet {
    const list = crawlerList(crawlers, 'crawlers()')
    for (const tokens of list) for (const t of tokens) noteToken(this, t)
    return makeCrawlerSet(this.rules, list, (tokens) => (tokens.length === 1 ? this.agent(tokens[0]) : this.agents(tokens)))
  }

  /**
   * What a crawler (a product token, or an array of them) may fetch of the
   * site: every path, some or none, by a group naming it or by `*`, with an
   * example path of each verdict (`crawlers([crawler]).access()[0]`;
   * docs/crawlers.md defines the classes).
   */
  access(crawler: Crawler): CrawlerAccess {
    return this.crawlers([crawler]).access()[0]
  }

  /**
   * Shortcut for `agent(token).isAllowed(url)` (an array of tokens:
   * `agents(tokens).isAllowed(url)`): the matcher is cached as `agent()`
   * caches it, so a loop over URLs costs what the matcher's own loop costs
   * plus a string comparison. The token is required: the reference always
   * judges for a crawler (`'*'` asks for the `*` groups).
   */
  isAllowed(url: string | URL | Uint8Array, token: string | readonly string[]): boolean {
    if (typeof token === 'string') return this.agent(token).isAllowed(url)
    if (!Array.isArray(token)) throw new RobotsInputError(`isAllowed(url, agent) takes the crawler's product token (or an array of them), got ${describeValue(token)}`)
    return this.agents(token).isAllowed(url)
  }

  /** The rules that apply to a crawler, in rank order (see RuleSet), as the matchers see them. */
  rulesFor(tokens: string | readonly string[]): RuleSet {
    return selectRules(this.rules, tokenList(tokens, 'rulesFor()'))
  }

  /**
   * Crawl-delay in seconds for the crawler, from the groups that apply to it
   * (its own groups, else `*`). Several values: the largest. Undefined if none.
   * Without tokens, the `*` groups' value (robots-parser's `getCrawlDelay()`).
   * An extension line belongs to the user-agent lines right above it (see
   * `ListClosers.AnyDirective` in rules/rule-set.ts); the same holds for
   * requestRate, visitTime and host, which also take no tokens to mean `*`.
   */
  crawlDelay(tokens?: string | readonly string[]): number | undefined {
    const values = this.extensionValues(tokens, ExtensionKind.CrawlDelay, 'crawlDelay()') as number[]
    if (!values.length) return undefined
    // A loop, not Math.max(...values): a file read with a raised limit may hold
    // more values than a call can take arguments.
    let max = values[0]
    for (const v of values) if (v > max) max = v
    return max
  }

  /** Request-rate for the crawler; several values: the slowest (fewest requests per second). */
  requestRate(tokens?: string | readonly string[]): RequestRate | undefined {
    const values = this.extensionValues(tokens, ExtensionKind.RequestRate, 'requestRate()') as RequestRate[]
    let best: RequestRate | undefined
    for (const v of values) if (!best || v.requests / v.seconds < best.requests / best.seconds) best = v
    return best
  }

  /** Visit-time window (UTC) for the crawler; several values: the first. */
  visitTime(tokens?: string | readonly string[]): VisitTime | undefined {
    return this.extensionValues(tokens, ExtensionKind.VisitTime, 'visitTime()')[0] as VisitTime | undefined
  }

  /** Preferred host for the crawler; several values: the first. */
  host(tokens?: string | readonly string[]): string | undefined {
    return this.extensionValues(tokens, ExtensionKind.Host, 'host()')[0] as string | undefined
  }

  /**
   * The parsed rules as bytes, for storage: a copy of the compact form with
   * its checksum (format version 4; rules/compact-rules.ts and
   * rules/serialise.ts). `Robots.fromBytes` loads them back without
   * re-parsing.
   */
  toBytes(): Uint8Array {
    return encodeForm(this.rules.bytes)
  }

  /**
   * Loads what `toBytes` wrote, after checking all of it (rules/serialise.ts);
   * the buffer is copied, not kept. A foreign or corrupt buffer is a
   * RobotsFormatError (ERR_FORMAT, or ERR_VERSION for a format version this
   * build does not read, such as version 1; versions 2 and 3 are read and
   * kept as they are, so their `toBytes` gives them back); options as for `parseRobots`
   * (the limit aside).
   */
  static fromBytes(bytes: Uint8Array, options: EngineOptions = {}): Robots {
    const o = optionsArgument<EngineOptions>(options, 'Robots.fromBytes', ENGINE_OPTION_NAMES)
    checkEngineOptions(o)
    return new Robots(OPENED, decodeForm(bytes), engineOptionsOf(o))
  }

  /**
   * Bytes held: this object, its compact form and every cached matcher, by
   * the model of src/memory.ts. Grows as matchers compile.
   */
  memoryUsage(): number {
    const s = this.state
    return rulesMemoryUsage(this) + (s instanceof AgentCache ? s.memoryUsage() : 0)
  }

  /** The matcher cache, made on first use. */
  private cache(): AgentCache {
    const s = this.state
    if (s instanceof AgentCache) return s
    const c = new AgentCache(AGENT_CACHE_BUDGETS * (s.matcherBudget ?? DEFAULT_MATCHER_BUDGET), s)
    this.state = c
    return c
  }

  private compile(tokens: readonly string[]): AgentMatcher {
    const s = this.state
    return compileMatcher(this.rules, tokens, s instanceof AgentCache ? s.options : s)
  }

  private extensionValues(tokens: string | readonly string[] | undefined, kind: ExtensionKind, what: string): unknown[] {
    const list = tokenList(tokens, what, true)
    for (const t of list) noteToken(this, t)
    const { slots, specific } = assignGroups(this.rules, list, ListClosers.AnyDirective)
    const want = specific ? GroupSlot.Specific : GroupSlot.Global
    const out: unknown[] = []
    // Extension events and entries are in the same order: walk both.
    const entries = extensionEntries(this.rules.bytes)
    let e = 0
    for (const c = new EventCursor(this.rules); c.next(); ) {
      if (c.type !== EventType.Extension) continue
      const entry = entries[e++]
      if (slots[c.index] === want && entry.kind === kind) out.push(readExtension(kind, entry.text).value)
    }
    return out
  }
}

/** Bytes of a Robots without its matchers: the object and its form (src/memory.ts; a view of a store's arena is counted without the bytes, which are the arena's). */
export function rulesMemoryUsage(robots: Robots): number {
  return objectBytes(ROBOTS_FIELDS) + formCost(robots)
}

/**
 * The real diagnostic totals of the Robots whose files had more diagnostics
 * than their form keeps (rare: junk files). A side table, so that no Robots
 * pays a field for it.
 */
const cappedTotals = new WeakMap<Robots, DiagnosticTotals>()

/**
 * An empty body's builder, reader and Robots, kept for their shapes alone.
 * V8 forgets the shape of a class's objects once none of them is left, and
 * drops the code it optimised for that shape: a program that parses files
 * one at a time has no builder alive between two parses, so without these
 * every full garbage collection would cost the parser its optimised code,
 * and compiling it again costs time, and memory while it is done.
 */
let shapeKeepers: readonly object[] | null = null

function keepShapes(): void {
  const builder = new RobotsBuilder()
  const reader = parseWith(new Uint8Array(0), builder, undefined, builder)
  const form = new Uint8Array(builder.complete(reader))
  builder.writeTo(form, 0)
  shapeKeepers = [builder, reader, makeRobots(form, DEFAULT_ENGINE)]
}

/** Builds a Robots from a finished builder and reader. */
export function robotsFrom(builder: RobotsBuilder, reader: LineReader, options: ParseOptions): Robots {
  const engine = engineOptionsOf(options)
  const size = builder.complete(reader)
  const at = keptSlot(size)
  let robots: Robots
  if (at < 0) {
    const form = new Uint8Array(size)
    builder.writeTo(form, 0)
    robots = makeRobots(form, engine)
  } else {
    const slab = keptSlab()
    builder.writeTo(slab, at)
    robots = makeRobots(slab, engine, at)
  }
  if (builder.cappedTotals !== undefined) cappedTotals.set(robots, builder.cappedTotals)
  // Once the builder gave its scratch back, for the keepers' builder to take.
  if (shapeKeepers === null) keepShapes()
  return robots
}

const DEFAULT_ENGINE: EngineOptions = Object.freeze({})

/** The engine options of parse options (one shared object for the usual case: none). */
export function engineOptionsOf(options: ParseOptions): EngineOptions {
  const { matcherBudget, hotThreshold, engine, tier } = options
  if (matcherBudget === undefined && hotThreshold === undefined && engine === undefined && tier === undefined) return DEFAULT_ENGINE
  return Object.freeze({ matcherBudget, hotThreshold, engine, tier })
}

/**
 * Parses a robots.txt body (a string, taken as UTF-8, or the bytes as
 * served). Never throws on content. Bad options throw before anything is
 * read (a limit out of range is a RobotsLimitError, ERR_LIMIT; a matcher
 * budget out of range a RobotsRangeError, ERR_BUDGET; options that are not
 * an object a RobotsInputError, ERR_INPUT); input of another type is a
 * RobotsInputError (ERR_INPUT).
 */
export function parseRobots(input: string | Uint8Array, options?: ParseOptions): Robots {
  // No options (the usual call): the shared empty ones, nothing to check.
  const o: ParseOptions = options === undefined ? DEFAULT_ENGINE : checkParseOptions(options)
  const builder = new RobotsBuilder()
  const reader = parseWith(input, builder, o.limit, builder)
  return robotsFrom(builder, reader, o)
}

/** A Robots over `form`, which must be a well-formed form (built by rules/builder.ts, or checked by rules/serialise.ts). */
export function robotsOfForm(form: Uint8Array, options: EngineOptions = DEFAULT_ENGINE): Robots {
  return makeRobots(form, options)
}

/** The compact form of `robots` (a view over its bytes, made on each call). */
export function rulesOf(robots: Robots): CompactRules {
  return new CompactRules(formBytes(robots))
}
