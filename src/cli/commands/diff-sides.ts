/**
 * The two sides `diff` compares ({@link DiffSide}): one robots.txt for every
 * URL ({@link FileSide}), or per-host rules, a directory or a bundle
 * ({@link HostSide}). Each judges a located line from its scan and describes
 * the rule that decided it, read by the rule's index (nothing matched twice).
 */
import type { AgentMatcher, RuleRef } from '../../index.js'
import { UrlField } from '../../internals.js'
import { RuleDescriber, type RuleJson } from '../common/rule-text.js'
import type { LoadedRobots } from '../common/load-robots.js'
import { HostJudge } from '../hosts/host-judge.js'
import type { HostRules } from '../hosts/host-rules.js'
import type { HostTally } from '../hosts/host-tally.js'
import type { LineLocator } from '../filter/line-locator.js'

/** One side's verdict as JSON: the verdict, the deciding line, the rule, and (per host) the file that decided. */
export interface SideJson {
  allowed: boolean
  line: number
  rule: Omit<RuleJson, 'line'> | null
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
}

/** The deciding rule of `matcher`'s rule index `r` as a RuleRef (null: none). */
function ruleOf(matcher: AgentMatcher, r: number): RuleRef | null {
  return matcher.explainRule(r).rule
}

/** A verdict as JSON through a describer (the line of an implied rule is its own). */
function sideJson(code: number, describer: RuleDescriber, rule: RuleRef | null): SideJson {
  const json = describer.json(rule)
  if (json === null) return { allowed: (code & 1) === 1, line: code >>> 1, rule: null }
  const { line, ...rest } = json
  return { allowed: (code & 1) === 1, line, rule: rest }
}

/** One robots.txt for every URL (OLD or NEW given as a file, `-` or a URL). */
export class FileSide implements DiffSide {
  private readonly matcher: AgentMatcher
  private readonly describer: RuleDescriber
  private last = -1

  constructor(loaded: LoadedRobots, agent: readonly string[]) {
    this.matcher = loaded.robots.agents(agent)
    this.describer = new RuleDescriber(this.matcher.rules, loaded.fetched === 'unreachable')
  }

  judge(bytes: Uint8Array, locator: LineLocator): number {
    this.last = this.matcher.decideFrom(bytes, locator.url[UrlField.PathStart], locator.urlEnd)
    return this.matcher.codeOf(this.last)
  }

  text(): string {
    return this.describer.text(ruleOf(this.matcher, this.last))
  }

  json(code: number): SideJson {
    return sideJson(code, this.describer, ruleOf(this.matcher, this.last))
  }
}

/** Per-host rules (`--robots-dir`, `--bundle`): each URL by its host's robots.txt; a host without one allows all. */
export class HostSide implements DiffSide {
  private readonly judgeOfHost: HostJudge
  /** A describer per matcher met (its index.htm rules are found once). */
  private readonly describers = new WeakMap<AgentMatcher, RuleDescriber>()

  constructor(rules: HostRules, agent: readonly string[], cacheBytes: number, tally: HostTally) {
    this.judgeOfHost = new HostJudge(rules, { agent, missingAllowed: true, cacheBytes, onEntry: (e) => tally.entry(e), missing: tally.missing })
  }

  judge(bytes: Uint8Array, locator: LineLocator): number {
    return this.judgeOfHost.judge(bytes, locator)
  }

  private describe(): { describer: RuleDescriber; rule: RuleRef | null } | string {
    const d = this.judgeOfHost.decided()
    if (d.outcome === 'unreachable') return 'implied: Disallow: / (robots.txt unreachable)'
    if (d.outcome === 'unavailable') return 'no rule (robots.txt unavailable)'
    if (d.matcher === null) return d.source === null ? 'no robots.txt' : 'no rule (robots.txt unreadable)'
    let describer = this.describers.get(d.matcher)
    if (describer === undefined) {
      describer = new RuleDescriber(d.matcher.rules, false)
      this.describers.set(d.matcher, describer)
    }
    return { describer, rule: ruleOf(d.matcher, d.rule) }
  }

  text(): string {
    const found = this.describe()
    return typeof found === 'string' ? found : found.describer.text(found.rule)
  }

  json(code: number): SideJson {
    const d = this.judgeOfHost.decided()
    const found = this.describe()
    if (typeof found === 'string') {
      const rule = d.outcome === 'unreachable' ? { kind: 'disallow' as const, pattern: '/', implied: 'unreachable' as const } : null
      return { allowed: (code & 1) === 1, line: 0, rule, source: d.source }
    }
    return { ...sideJson(code, found.describer, found.rule), source: d.source }
  }
}
