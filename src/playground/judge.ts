/**
 * The tester page's answers, without the page: a robots.txt (or its
 * stand-in) judged for a crawler, URL by URL, with the deciding rule shown
 * as `check` and `diff` show it (the core's `ruleText`), in time slices so
 * that the page stays responsive with 10,000 URLs.
 */
import { parseRobots, ruleText, type AgentMatcher, type CrawlerSet, type Diagnostic, type Explanation, type Robots } from '../index.js'
import type { RobotsSide } from './page-state.js'

/** The stand-in of an unreachable robots.txt (RFC 9309 §2.3.1.4): disallow all, shown as an implied rule. */
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n'

/** One URL's answer. */
export interface Verdict {
  url: string
  allowed: boolean
  /** The line to highlight: the deciding rule's line in the file (an `index.html` rule's own line), 0 when none. */
  line: number
  /** The rule as `check` shows it: `line 2: Disallow: /x`, `implied: …`, or `no matching rule`. */
  rule: string
  /** The rule is implied (the directory form of an `index.html` rule, the stand-in of an unreachable file), not a line of the file. */
  implied: boolean
}

/**
 * One robots.txt of the page, parsed, with the crawler's matcher; with more
 * crawlers (`others`), their set: the first crawler and each other one,
 * judged together.
 */
export class JudgedSide {
  readonly robots: Robots
  private readonly matcher: AgentMatcher
  private readonly set: CrawlerSet | undefined
  private readonly unreachable: boolean

  /** `bytes`: the file as served, when the page judges an opened file's bytes rather than its text (opened-file.ts). */
  constructor(side: RobotsSide, tokens: readonly string[], others: readonly (readonly string[])[] = [], bytes?: Uint8Array) {
    this.unreachable = side.outcome === 'unreachable'
    this.robots = parseRobots(side.outcome === 'file' ? (bytes ?? side.text) : this.unreachable ? DISALLOW_ALL : '')
    this.matcher = this.robots.agents(tokens)
    if (others.length > 0) this.set = this.robots.crawlers([tokens, ...others])
  }

  /** Every crawler's verdict (the first crawler's, then the others'), from one set's check. */
  verdicts(url: string): Verdict[] {
    if (this.set === undefined) return [this.verdict(url)]
    const set = this.set
    return set.explain(url).map((e, k) => this.verdictOf(url, set.matcher(k), e))
  }

  /** The file's diagnostics, with the warnings of the crawler's tokens (`agent-not-product-token`, line 0); none for a stand-in. */
  diagnostics(side: RobotsSide): Diagnostic[] {
    return side.outcome === 'file' ? this.robots.diagnostics : []
  }

  verdict(url: string): Verdict {
    return this.verdictOf(url, this.matcher, this.matcher.explain(url))
  }

  private verdictOf(url: string, matcher: AgentMatcher, e: Explanation): Verdict {
    const t = ruleText(matcher, e.rule, this.unreachable)
    return {
      url,
      allowed: e.allowed,
      line: e.rule === null || t.implied === 'unreachable' ? 0 : e.rule.line,
      rule: t.text,
      implied: t.implied !== undefined,
    }
  }
}

/** One URL whose verdict changes between two versions, as `diff` reports it. */
export interface Change {
  url: string
  change: 'now-allowed' | 'now-disallowed'
  old: Verdict
  new: Verdict
}

/** Set by the caller to stop a run in its next pause (a newer input replaced it). */
export interface RunToken {
  cancelled: boolean
}

/** Longest a slice of work runs before the page gets the thread back (ms). */
export const SLICE_MS = 12
/** Most calls in one slice, whatever the clock says (a multiple of 64): 10,000 URLs take at least 10 slices. */
export const SLICE_ITEMS = 1024

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/** Most calls between two readings of the clock. */
const MAX_STRIDE = 64
/** Calls between two readings that took less than this (ms) are cheap: the clock is read half as often. */
const CHEAP_MS = 1

/**
 * Calls `each(i)` for i in [0, count), giving the thread back after
 * {@link SLICE_MS} or {@link SLICE_ITEMS} calls, whichever comes first;
 * `progress(done)` after each slice. The clock is read after every call
 * at first, then half as often each time the calls since the last reading
 * proved cheap (at most every {@link MAX_STRIDE} calls), and after every
 * call again once they are not: slow calls (long URLs, many crawlers) end
 * their slice one call past its time. False when `token` was cancelled
 * before the end.
 */
export async function inSlices(count: number, each: (i: number) => void, token: RunToken, progress?: (done: number) => void): Promise<boolean> {
  let i = 0
  while (i < count) {
    let read = performance.now()
    const end = read + SLICE_MS
    const last = Math.min(count, i + SLICE_ITEMS)
    let stride = 1
    let next = i + stride
    for (;;) {
      each(i++)
      if (i >= last) break
      if (i < next) continue
      const now = performance.now()
      if (now >= end) break
      stride = now - read < CHEAP_MS ? Math.min(MAX_STRIDE, stride * 2) : 1
      read = now
      next = i + stride
    }
    progress?.(i)
    if (i < count) {
      await pause()
      if (token.cancelled) return false
    }
  }
  return true
}

/** Every URL's verdict, in slices; null when cancelled. */
export async function judgeAll(side: JudgedSide, urls: readonly string[], token: RunToken, progress?: (done: number) => void): Promise<Verdict[] | null> {
  const out: Verdict[] = new Array(urls.length)
  const done = await inSlices(urls.length, (i) => (out[i] = side.verdict(urls[i])), token, progress)
  return done ? out : null
}

/** The URLs whose verdict changes from `before` to `after` (in input order), in slices; null when cancelled. */
export async function diffAll(before: JudgedSide, after: JudgedSide, urls: readonly string[], token: RunToken, progress?: (done: number) => void): Promise<Change[] | null> {
  const out: Change[] = []
  const done = await inSlices(
    urls.length,
    (i) => {
      const a = before.verdict(urls[i])
      const b = after.verdict(urls[i])
      if (a.allowed !== b.allowed) out.push({ url: urls[i], change: b.allowed ? 'now-allowed' : 'now-disallowed', old: a, new: b })
    },
    token,
    progress,
  )
  return done ? out : null
}

/** One URL whose verdict changes for some crawler between two versions: each crawler's change (null: none) and verdicts. */
export interface CrawlersChange {
  url: string
  changes: ('now-allowed' | 'now-disallowed' | null)[]
  old: Verdict[]
  new: Verdict[]
}

/** Every URL's verdict for every crawler, in slices; null when cancelled. */
export async function judgeEach(side: JudgedSide, urls: readonly string[], token: RunToken, progress?: (done: number) => void): Promise<Verdict[][] | null> {
  const out: Verdict[][] = new Array(urls.length)
  const done = await inSlices(urls.length, (i) => (out[i] = side.verdicts(urls[i])), token, progress)
  return done ? out : null
}

/** The URLs whose verdict changes for some crawler from `before` to `after` (in input order), in slices; null when cancelled. */
export async function diffEach(before: JudgedSide, after: JudgedSide, urls: readonly string[], token: RunToken, progress?: (done: number) => void): Promise<CrawlersChange[] | null> {
  const out: CrawlersChange[] = []
  const done = await inSlices(
    urls.length,
    (i) => {
      const a = before.verdicts(urls[i])
      const b = after.verdicts(urls[i])
      const changes = a.map((v, k) => (v.allowed === b[k].allowed ? null : b[k].allowed ? ('now-allowed' as const) : ('now-disallowed' as const)))
      if (changes.some((c) => c !== null)) out.push({ url: urls[i], changes, old: a, new: b })
    },
    token,
    progress,
  )
  return done ? out : null
}
