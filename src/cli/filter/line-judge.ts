/**
 * The contract between `filter`'s line loop (judge-lines.ts) and what judges
 * a line: one robots.txt (MatcherJudge) or per-host rules (host-judge.ts),
 * and what a judged line's JSON record reads.
 */
import type { AgentMatcher, RuleRef } from '../../index.js'
import type { CrawlerCodes } from './crawler-codes.js'
import type { LineLocator } from './line-locator.js'

/** Judges located lines: each returns `ruleLine * 2 + (allowed ? 1 : 0)`. */
export interface LineJudge {
  /** The URL `locator` located last in `bytes` (its range, scan and host). */
  judge(bytes: Uint8Array, locator: LineLocator): number
  /** Optional batch form: every line of `bytes` at once (see AgentMatcher.matchLines); returns the line count. */
  judgeLines?(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number
  /** What decided the line judged last, which `locator` located in `bytes` (for `--format jsonl`). */
  decided(bytes: Uint8Array, locator: LineLocator): Decided
  /**
   * `--crawlers`: each crawler's verdict of the line judged last (`judge`
   * then returns the line's combined bit); a batch (`judgeLines`) leaves a
   * row per line, and the loop points `at` at each before the line is written.
   */
  readonly crawlerCodes?: CrawlerCodes
}

/** What decided the line judged last (for `--format jsonl`). */
export interface Decided {
  /** The matcher, or null when no robots.txt rules applied (no entry, unreadable, an outcome). */
  readonly matcher: AgentMatcher | null
  /** The matcher's deciding rule (null: none, or no matcher). */
  readonly rule: RuleRef | null
  /** The entry's name (`DIR/<host>`, `BUNDLE#<key>`), or null when the host has none. */
  readonly source: string | null
  /** The host, lowercased, or null when the line has none. */
  readonly host: string | null
  /** For an outcome entry: which. */
  readonly outcome?: 'unavailable' | 'unreachable'
  /** `--crawlers`, a robots.txt: each crawler's matcher and deciding rule. */
  readonly crawlers?: readonly { readonly matcher: AgentMatcher; readonly rule: RuleRef | null }[]
}
