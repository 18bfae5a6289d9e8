/**
 * The two sides `diff` compares ({@link DiffSide}): one robots.txt for every
 * URL ({@link FileSide}), or per-host rules, a directory or a bundle
 * ({@link HostSide}). Each judges a located line from its scan and, for a
 * line whose verdict changed, describes the rule that decided it.
 */
import { ruleText, type AgentMatcher, type CrawlerSet, type RuleRef } from '../../index.js'
import type { CacheBytes } from '../common/heap-room.js'
import { ruleJson } from '../common/rule-text.js'
import type { LoadedRobots } from '../common/load-robots.js'
import { CrawlerCodes } from '../filter/crawler-codes.js'
import { HostJudge } from '../filter/host-judge.js'
import type { HostCrawlers, HostRules } from '../hosts/host-rules.js'
import type { HostTally } from '../hosts/host-tally.js'
import type { LineLocator } from '../filter/line-locator.js'

/** One side's verdict as JSON: the verdict, the deciding line, the rule, and (per host) the file that decided. */
export interface SideJson {
  allowed: boolean
  line: number
  rule: { kind: 'allow' | 'disallow'; pattern: string; implied?: 'unreachable' | 'index.html'; from?: string } | null
  source?: string | null
}

/** A side of `diff`: judges the line a locator located, then describes what decided it. */
export interface DiffSide {
  /** `ruleLine * 2 + (allowed ? 1 : 0)` of the URL `locator` located last in `bytes`. */
  judge(bytes: Uint8Array, locator: LineLocator): number
  /** The rule that decided the line judged last, as `check` shows rules. */
  text(): string
  /** The same as JSON (`code`: what `judge` returned). */
  json(code: number): SideJson
  /** `--crawlers`: each crawler's code of the URL `locator` located last, into `out`. */
  judgeEach(bytes: Uint8Array, locator: LineLocator, out: Int32Array): void
  /** `--crawlers`: crawler `k`'s deciding rule of the line judged last, as words, and as JSON. */
  textOf(k: number): string
  jsonOf(k: number, code: number): SideJson
}

/** A verdict as JSON (the line of an implied rule is its own). */
function sideJson(code: number, matcher: AgentMatcher, rule: RuleRef | null, unreachable: boolean): SideJson {
  const json = ruleJson(matcher, rule, unreachable)
  if (json === null) return { allowed: (code & 1) === 1, line: code >>> 1, rule: null }
  const { line, ...rest } = json
  return { allowed: (code & 1) === 1, line, rule: rest }
}

/** One robots.txt for every URL (OLD or NEW given as a file, `-` or a URL). */
export class FileSide implements DiffSide {
  private readonly matcher: AgentMatcher
  private readonly set: CrawlerSet | undefined
  private readonly unreachable: boolean
  /** The line judged last: its bytes and locator (read again only to describe a changed line). */
  private bytes: Uint8Array = new Uint8Array(0)
  private locator: LineLocator | undefined
  /** `--crawlers`: the explanations of the line judged last, once asked. */
  private explained: ReturnType<CrawlerSet['explain']> | undefined

  constructor(loaded: LoadedRobots, who: HostCrawlers) {
    this.set = 'crawlers' in who ? loaded.robots.crawlers(who.crawlers) : undefined
    this.matcher = 'agent' in who ? loaded.robots.agents(who.agent) : this.set!.matcher(0)
    this.unreachable = loaded.fetched === 'unreachable'
  }

  judge(bytes: Uint8Array, locator: LineLocator): number {
    this.bytes = bytes
    this.locator = locator
    return this.matcher.matchScan(locator.url)
  }

  judgeEach(bytes: Uint8Array, locator: LineLocator, out: Int32Array): void {
    this.bytes = bytes
    this.locator = locator
    this.explained = undefined
    this.set!.matchScan(locator.url, out)
  }

  private explainedOf(k: number): RuleRef | null {
    const l = this.locator!
    this.explained ??= this.set!.explain(l.judgedUrl(this.bytes))
    return this.explained[k].rule
  }

  textOf(k: number): string {
    return ruleText(this.set!.matcher(k), this.explainedOf(k), this.unreachable).text
  }

  jsonOf(k: number, code: number): SideJson {
    return sideJson(code, this.set!.matcher(k), this.explainedOf(k), this.unreachable)
  }

  /** The deciding rule of the line judged last (the slower path: explained again). */
  private rule(): RuleRef | null {
    const l = this.locator
    return l === undefined ? null : this.matcher.explain(l.judgedUrl(this.bytes)).rule
  }

  text(): string {
    return ruleText(this.matcher, this.rule(), this.unreachable).text
  }

  json(code: number): SideJson {
    return sideJson(code, this.matcher, this.rule(), this.unreachable)
  }
}

/** Per-host rules (`--robots-dir`, `--bundle`): each URL by its host's robots.txt; a host without one allows all. */
export class HostSide implements DiffSide {
  private readonly judgeOfHost: HostJudge
  private bytes: Uint8Array = new Uint8Array(0)
  private locator: LineLocator | undefined
  /** `--crawlers`: what decided the line judged last, once asked. */
  private decidedEach: ReturnType<HostJudge['decided']> | undefined

  constructor(rules: HostRules, who: HostCrawlers, cacheBytes: CacheBytes, tally: HostTally) {
    const crawlerCodes = 'crawlers' in who ? new CrawlerCodes(who.crawlers.length, true) : undefined
    this.judgeOfHost = new HostJudge(rules, { who, crawlerCodes, missingAllowed: true, cacheBytes, onEntry: (e) => tally.entry(e), missing: tally.missing })
  }

  judge(bytes: Uint8Array, locator: LineLocator): number {
    this.bytes = bytes
    this.locator = locator
    return this.judgeOfHost.judge(bytes, locator)
  }

  judgeEach(bytes: Uint8Array, locator: LineLocator, out: Int32Array): void {
    this.bytes = bytes
    this.locator = locator
    this.decidedEach = undefined
    this.judgeOfHost.judge(bytes, locator)
    const cc = this.judgeOfHost.crawlerCodes!
    out.set(cc.codes.subarray(0, cc.size))
  }

  textOf(k: number): string {
    const d = (this.decidedEach ??= this.decided())
    const each = d.crawlers?.[k]
    return this.describe(d) ?? ruleText(each!.matcher, each!.rule).text
  }

  jsonOf(k: number, code: number): SideJson {
    const d = (this.decidedEach ??= this.decided())
    if (this.describe(d) !== undefined) {
      const rule = d.outcome === 'unreachable' ? { kind: 'disallow' as const, pattern: '/', implied: 'unreachable' as const } : null
      return { allowed: (code & 1) === 1, line: 0, rule, source: d.source }
    }
    const each = d.crawlers![k]
    return { ...sideJson(code, each.matcher, each.rule, false), source: d.source }
  }

  private decided(): ReturnType<HostJudge['decided']> {
    return this.judgeOfHost.decided(this.bytes, this.locator!)
  }

  /** What decided the line, as words when no rule of a file did. */
  private describe(d: ReturnType<HostJudge['decided']>): string | undefined {
    if (d.outcome === 'unreachable') return 'implied: Disallow: / (robots.txt unreachable)'
    if (d.outcome === 'unavailable') return 'no rule (robots.txt unavailable)'
    if (d.matcher === null && d.crawlers === undefined) return d.source === null ? 'no robots.txt' : 'no rule (robots.txt unreadable)'
    return undefined
  }

  text(): string {
    const d = this.decided()
    return this.describe(d) ?? ruleText(d.matcher!, d.rule).text
  }

  json(code: number): SideJson {
    const d = this.decided()
    if (this.describe(d) !== undefined) {
      const rule = d.outcome === 'unreachable' ? { kind: 'disallow' as const, pattern: '/', implied: 'unreachable' as const } : null
      return { allowed: (code & 1) === 1, line: 0, rule, source: d.source }
    }
    return { ...sideJson(code, d.matcher!, d.rule, false), source: d.source }
  }
}
