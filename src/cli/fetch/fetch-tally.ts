/**
 * What a `fetch` run counts: entries by the outcome of their fetch, the
 * reasons of the unreachable ones, the entries kept as they were; and the
 * summary line on stderr ({@link FetchTally.summary}).
 */
import type { FetchReason } from '../../index.js'
import { count, plural, rate } from '../common/numbers.js'
import type { FetchedEntry } from './fetch-entry.js'

/** Counts of a run. */
export class FetchTally {
  /** Fetches completed, by outcome. */
  readonly outcomes = { ok: 0, 'not-modified': 0, unavailable: 0, unreachable: 0, refused: 0 }
  /** Unreachable fetches by reason. */
  readonly unreachableReasons = new Map<FetchReason, number>()
  /** Unreachable fetches whose origin kept rules from an earlier fetch (RFC 9309 §2.4). */
  staleKept = 0
  /** Entries of the bundle updated that had not expired: kept without a fetch. */
  kept = 0
  /** Origins the library refused to fetch (reported one by one). */
  failed = 0

  /** Fetches completed. */
  get fetched(): number {
    const o = this.outcomes
    return o.ok + o['not-modified'] + o.unavailable + o.unreachable
  }

  /** Counts one completed fetch. */
  add(entry: FetchedEntry, reason: FetchReason): void {
    const outcome = entry.info!.outcome
    this.outcomes[outcome]++
    if (outcome === 'unreachable') {
      this.unreachableReasons.set(reason, (this.unreachableReasons.get(reason) ?? 0) + 1)
      if (entry.rules !== 'unreachable') this.staleKept++
    }
  }

  /** `7 ok, 2 not modified, 1 unavailable, 3 unreachable (server-error 2, timeout 1; 1 kept its earlier rules)`: the outcomes that occurred. */
  outcomeText(): string {
    const o = this.outcomes
    const parts: string[] = []
    if (o.ok) parts.push(`${count(o.ok)} ok`)
    if (o['not-modified']) parts.push(`${count(o['not-modified'])} not modified`)
    if (o.unavailable) parts.push(`${count(o.unavailable)} unavailable`)
    if (o.unreachable) {
      const reasons = [...this.unreachableReasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${count(n)}`)
      const stale = this.staleKept > 0 ? `; ${count(this.staleKept)} kept ${this.staleKept === 1 ? 'its' : 'their'} earlier rules` : ''
      parts.push(`${count(o.unreachable)} unreachable (${reasons.join(', ')}${stale})`)
    }
    return parts.join(', ')
  }

  /** The run's summary: fetches by outcome, rate, entries kept, and what was written. */
  summary(seconds: number, written: string, interrupted: { of: number } | undefined): string {
    const n = this.fetched
    const head = interrupted
      ? `interrupted: ${count(n)} of ${plural(interrupted.of, 'origin')} fetched in ${seconds.toFixed(1)} s`
      : `${plural(n, 'origin')} fetched in ${seconds.toFixed(1)} s`
    let line = `${head}${n > 0 ? ` (${rate(n / Math.max(seconds, 1e-3))}/s): ${this.outcomeText()}` : ''}`
    if (this.kept > 0) line += `; ${count(this.kept)} kept (not expired)`
    if (this.failed > 0) line += `; ${plural(this.failed, 'origin')} not fetched (refused)`
    return `${line}; ${written}`
  }
}
