/**
 * The oracle of `compare`: this library's answers, which are the reference's
 * (google/robotstxt), deciding line included. Turns the cases a set reads or
 * generates into cases with the expected answer and their categories, and
 * notes where a set's own stated answer differs from the reference's.
 */
import { nodeCrypto } from '../tools/built-ins.js'
import { parseRobots, type Explanation } from '../index.js'
import { analyseAgents, analyseBody, type BodyAnalysis } from './analysis.js'
import { caseKey, type Case, type CaseInput, type Expected } from './case.js'
import { categoriseCase, sortCategories, STANDARD_CATEGORIES, type Standard } from './categories.js'
import { rfcDecide, rfcRules } from './rfc-oracle.js'

/** A case whose set states an answer other than the reference's. */
export interface StatedMismatch {
  readonly id: string
  readonly stated: { readonly allowed: boolean; readonly line?: number }
  readonly expected: Expected
}

/** The expected answer from an explanation. */
export function expectedOf(e: Explanation): Expected {
  return { allowed: e.allowed, line: e.rule?.line ?? 0, rule: e.rule }
}

/** The reference's answer for one body, crawler and URL, without analysis (minimisation calls this for each candidate). */
export function decide(robots: Uint8Array, agents: readonly string[], url: string): Expected {
  const r = parseRobots(robots)
  return expectedOf((agents.length === 1 ? r.agent(agents[0]) : r.agents(agents)).explain(url))
}

/** RFC 9309's answer for one body, crawler and URL (rfc-oracle.ts), without the oracle's cache. */
export function decideRfc(robots: Uint8Array, agents: readonly string[], url: string): Expected {
  const body = analyseBody(robots)
  return rfcDecide(rfcRules(body, analyseAgents(body, agents)), url)
}

function sameAnswer(a: Expected, b: Expected): boolean {
  return a.allowed === b.allowed && a.line === b.line
}

/** Bodies whose analysis is kept (least recently used dropped first): a case set's cases of one body mostly come together. */
const KEPT_BODIES = 8
/** Stated mismatches kept (all are counted). */
const KEPT_MISMATCHES = 100

/** Answers cases; caches the analysis of the bodies used last, by content (memory: KEPT_BODIES analyses whatever the run). */
export class Oracle {
  /** A body's content key (SHA-1), per body array: hashed once while the array lives. */
  private readonly keys = new WeakMap<Uint8Array, string>()
  private readonly byContent = new Map<string, BodyAnalysis>()
  /** The first cases whose stated answer differs from the reference's. */
  readonly statedMismatches: StatedMismatch[] = []
  /** How many cases state an answer other than the reference's. */
  statedMismatchCount = 0

  /** Where the stated mismatches stand, for {@link Oracle.forgetSince}. */
  mark(): { readonly count: number; readonly kept: number } {
    return { count: this.statedMismatchCount, kept: this.statedMismatches.length }
  }

  /** Forgets the stated mismatches of the cases answered since `mark` (cases answered ahead of their block, which never came whole). */
  forgetSince(mark: { readonly count: number; readonly kept: number }): void {
    this.statedMismatchCount = mark.count
    this.statedMismatches.length = mark.kept
  }

  /** The analysis of a body. */
  body(bytes: Uint8Array): BodyAnalysis {
    let key = this.keys.get(bytes)
    if (key === undefined) this.keys.set(bytes, (key = nodeCrypto().createHash('sha1').update(bytes).digest('base64')))
    let a = this.byContent.get(key)
    if (a === undefined) {
      a = analyseBody(bytes)
      if (this.byContent.size >= KEPT_BODIES) this.byContent.delete(this.byContent.keys().next().value!)
    } else this.byContent.delete(key)
    this.byContent.set(key, a)
    return a
  }

  /**
   * The case with the reference's answer, RFC 9309's, its standard and its
   * categories. The standard: `rfc-differs` when the RFC's answer (verdict or
   * line) is another, else `google-specific` when the answer rests on
   * behaviour beyond the RFC (categoriseCase) or the set says so, else `rfc`;
   * the case carries the standard's category and not the other one.
   */
  answer(input: CaseInput): Case {
    const body = this.body(input.robots)
    const view = analyseAgents(body, input.agents)
    const expected = expectedOf(view.matcher.explain(input.url))
    const rfc = rfcDecide(rfcRules(body, view), input.url)
    const tagged = categoriseCase(body, view, input.url)
    const extra = input.extraCategories
    const standard: Standard = !sameAnswer(rfc, expected) ? 'rfc-differs' : tagged.beyond || extra?.includes('google-specific') ? 'google-specific' : 'rfc'
    const lineConvention = expected.rule !== null && expected.rule.pattern === ''
    // categoriseCase's categories are sorted and carry neither line-convention nor a standard, which come last in
    // report order: appended, they keep the order. A set's own categories are merged and sorted.
    let categories = tagged.categories
    if (lineConvention || standard !== 'rfc') categories = [...categories, ...(lineConvention ? ['line-convention'] : []), ...(standard !== 'rfc' ? [standard] : [])]
    if (extra?.length) {
      const tags = new Set([...categories, ...extra])
      for (const id of STANDARD_CATEGORIES) if (id !== standard) tags.delete(id)
      categories = sortCategories(tags)
    }
    const stated = input.stated
    if (stated && (stated.allowed !== expected.allowed || (stated.line !== undefined && stated.line !== expected.line))) {
      if (this.statedMismatchCount++ < KEPT_MISMATCHES) this.statedMismatches.push({ id: input.id, stated, expected })
    }
    return { ...input, expected, rfc, standard, categories, key: input.key ?? caseKey(input.robots, input.agents, input.url) }
  }
}
