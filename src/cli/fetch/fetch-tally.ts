/**
 * What a `fetch` run counts: entries by the outcome of their fetch, the
 * reasons of the unreachable and refused ones, the entries kept as they
 * were, those taken from the journal of a run before, the failures of this
 * machine retried; and the summary line on stderr ({@link FetchTally.summary}).
 */
import type { FetchReason, RobotsFetchResult } from '../../index.js'
import { count, plural, rate } from '../common/numbers.js'
import { bodyProblem } from '../common/body-problems.js'
import type { FetchedEntry } from './fetch-entry.js'
import { CliError } from '../common/cli-error.js'

/** Counts of a run. */
export class FetchTally {
  /** Fetches completed, by outcome. */
  readonly outcomes = { ok: 0, 'not-modified': 0, unavailable: 0, unreachable: 0, refused: 0 }
  /** Unreachable fetches by reason. */
  readonly unreachableReasons = new Map<FetchReason, number>()
  /** Refused origins by the class of their address. */
  readonly refusedClasses = new Map<string, number>()
  /** Failures of this machine (retried), by code. */
  readonly localCodes = new Map<string, number>()
  /** Unreachable fetches whose origin kept rules from an earlier fetch (RFC 9309 §2.4). */
  staleKept = 0
  /** 304 answers to requests that carried no validators (the rules held kept). */
  unexpected304 = 0
  /** Entries of the bundle updated that were not due: kept without a fetch. */
  kept = 0
  /** Origins fetched by a run before this one, taken from the journal. */
  resumed = 0
  /** Origins not fetched (reported one by one): the library refused them, or this machine failed them on every try. */
  failed = 0
  /** Origins this machine failed on every try (left out of this run only), by code. */
  readonly leftOut = new Map<string, number>()
  /** ok bodies that are no robots.txt (HTML, binary, UTF-16, past the parsing limit). */
  odd = 0

  /** Fetches completed. */
  get fetched(): number {
    const o = this.outcomes
    return o.ok + o['not-modified'] + o.unavailable + o.unreachable + o.refused
  }

  /** Counts one completed fetch: the entry it made and its result. */
  add(entry: FetchedEntry, result: Pick<RobotsFetchResult, 'reason' | 'error'>): void {
    const outcome = entry.info!.outcome
    this.outcomes[outcome]++
    if (outcome === 'ok' && typeof entry.rules !== 'string' && bodyProblem(entry.rules)) this.odd++
    if (result.reason === 'unexpected-not-modified') this.unexpected304++
    if (outcome === 'unreachable') {
      this.unreachableReasons.set(result.reason, (this.unreachableReasons.get(result.reason) ?? 0) + 1)
      if (entry.rules !== 'unreachable') this.staleKept++
    }
    if (outcome === 'refused') {
      const cls = result.error?.code ?? 'address'
      this.refusedClasses.set(cls, (this.refusedClasses.get(cls) ?? 0) + 1)
    }
  }

  /** Counts a failure of this machine (its origin is fetched again). */
  local(code: string): void {
    this.localCodes.set(code, (this.localCodes.get(code) ?? 0) + 1)
  }

  /** Counts an origin left out by this machine (its last failure's code). */
  leave(code: string): void {
    this.leftOut.set(code, (this.leftOut.get(code) ?? 0) + 1)
  }

  /** What the progress bar shows beside the count: the unreachable and refused ones so far. */
  progressText(): string | undefined {
    const parts: string[] = []
    if (this.outcomes.unreachable > 0) parts.push(`${count(this.outcomes.unreachable)} unreachable`)
    if (this.outcomes.refused > 0) parts.push(`${count(this.outcomes.refused)} refused`)
    return parts.length > 0 ? parts.join(', ') : undefined
  }

  /** `7 ok, 2 not modified, 1 unavailable, 3 unreachable (server-error 2, dns-error 1; 1 kept its earlier rules), 2 refused (loopback 2)`: the outcomes that occurred. */
  outcomeText(): string {
    const o = this.outcomes
    const parts: string[] = []
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${count(n)}`).join(', ')
    if (o.ok) parts.push(`${count(o.ok)} ok`)
    if (o['not-modified']) parts.push(`${count(o['not-modified'])} not modified${this.unexpected304 > 0 ? ` (${count(this.unexpected304)} answered 304 without being asked: rules kept)` : ''}`)
    if (o.unavailable) parts.push(`${count(o.unavailable)} unavailable`)
    if (o.unreachable) {
      const stale = this.staleKept > 0 ? `; ${count(this.staleKept)} kept ${this.staleKept === 1 ? 'its' : 'their'} earlier rules` : ''
      parts.push(`${count(o.unreachable)} unreachable (${sorted(this.unreachableReasons)}${stale})`)
    }
    if (o.refused) parts.push(`${count(o.refused)} refused by the address policy (${sorted(this.refusedClasses)}; --allow-private, --resolve or --connect-to to fetch them)`)
    return parts.join(', ')
  }

  /** The run's summary: fetches by outcome, rate, entries kept and resumed, local failures retried, and what was written. */
  summary(seconds: number, written: string, interrupted: { of: number } | undefined): string {
    const n = this.fetched
    const head = interrupted
      ? `interrupted: ${count(n + this.resumed)} of ${plural(interrupted.of, 'origin')} fetched in ${seconds.toFixed(1)} s`
      : `${plural(n, 'origin')} fetched in ${seconds.toFixed(1)} s`
    let line = `${head}${n > 0 ? ` (${rate(n / Math.max(seconds, 1e-3))}/s): ${this.outcomeText()}` : ''}`
    if (this.resumed > 0) line += `; ${count(this.resumed)} from the journal of an earlier run`
    if (this.kept > 0) line += `; ${count(this.kept)} kept (not expired)`
    if (this.localCodes.size > 0) {
      let total = 0
      for (const v of this.localCodes.values()) total += v
      line += `; ${count(total)} ${total === 1 ? 'fetch' : 'fetches'} retried after failures of this machine (${[...this.localCodes].map(([c, k]) => `${c} ${count(k)}`).join(', ')})`
    }
    if (this.odd > 0) line += `; ${count(this.odd)} ok no robots.txt`
    if (this.failed > 0) line += `; ${plural(this.failed, 'origin')} not fetched`
    return `${line}; ${written}`
  }
}

/**
 * The error of a run that wrote its output without origins this machine
 * could not fetch (`codes`: how many, by code; `fate`: `left out of
 * OUTPUT`): one line saying how many, why, and that the same command run
 * again fetches them (`kept`: what keeps the rest meanwhile, e.g. the
 * journal). Exit 1: the output is not whole.
 */
export function leftOutError(codes: ReadonlyMap<string, number>, what: 'origin' | 'host', fate: string, kept: string, command: string): CliError {
  let n = 0
  for (const v of codes.values()) n += v
  const them = n === 1 ? 'it' : 'them'
  const why = [...codes].sort((a, b) => b[1] - a[1]).map(([c, k]) => `${c} ${count(k)}`).join(', ')
  return new CliError('ERR_LOCAL', `${plural(n, what)} ${fate}: this machine could not fetch ${them} (${why}); ${kept}: run the same command again to fetch ${them}: ${command}`)
}
