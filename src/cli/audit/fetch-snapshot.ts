/**
 * `audit --fetch`: the hosts and URLs of a list ({@link readFetchList}),
 * their robots.txt fetched on the fly into a store ({@link fetchSnapshot}),
 * through `fetch`'s own machinery (its origin list, scheduler and entries:
 * cli/fetch/), so that a host audited answers as `fetch` then
 * `audit BUNDLE` would. The one seam between `audit` and the fetching:
 * nothing else here knows how requests are made.
 */
import { RobotsStore, type RobotsFetchResult } from '../../index.js'
import type { NodeTransport } from '../../node.js'
import { applyFetch, putEntry } from '../fetch/fetch-entry.js'
import { runFetches } from '../fetch/fetch-pool.js'
import { entryOfRecord, fetchRecord } from '../fetch/fetch-record.js'
import { readBackWarnings, type Journal } from '../fetch/journal.js'
import { checkRecord } from '../fetch/fetch-output.js'
import { OriginList, readOrigins } from '../fetch/origin-input.js'
import type { InputFile } from '../filter/input.js'
import type { LineLayout } from '../filter/line-layout.js'
import { StoreSnapshot } from './snapshot.js'

/** How `audit --fetch` fetches (`fetch`'s options of the same names). */
export interface FetchSnapshotOptions {
  /** Origins in hand at most (already fitted to the descriptor limit). */
  readonly concurrency: number
  /** The Node transport of the network options (`--per-ip`, routes, DNS). */
  readonly transport: NodeTransport
  readonly timeoutMs: number
  /** How long only failures of this machine may go on before the run stops (`--give-up-after`). */
  readonly stallMs: number
  readonly userAgent: string
  /** `--allow-private`: fetch names whose addresses are private (otherwise refused, and said). */
  readonly allowPrivate: boolean
  readonly signal: AbortSignal
  /** Called as fetches complete (done, of). */
  readonly progress?: (done: number, of: number) => void
  /** Each failure of this machine (the origin is fetched again later): its code. */
  readonly local?: (code: string) => void
  /**
   * The run's journal (fetch/journal.ts), if it keeps one: the origins a
   * journal taken up holds are not fetched again, and each one fetched is
   * appended to it as `fetch` appends it.
   */
  readonly journal?: Journal
  /** Said when the journal taken up ends in a record cut short or holds damaged ones (skipped: fetched again). */
  readonly warn?: (line: string) => void
}

/** What was fetched: the snapshot, and the store behind it (for `--save`). */
export interface FetchedSnapshot {
  readonly snapshot: StoreSnapshot
  readonly store: RobotsStore
  /** Origins taken from the journal of an earlier run, not fetched again. */
  readonly resumed: number
  /** Origins of the list not fetched: the run was stopped first. */
  readonly missing: number
  /** Origins this machine could not fetch (no route, refused here), by code: left out of this run only. */
  readonly leftOut: ReadonlyMap<string, number>
}

/**
 * Reads the hosts and URLs of `inputs` (by `layout`, as `fetch` reads them:
 * one entry per origin of a URL, per host of a host column; without a
 * layout, a host or a URL a line) into an origin list over `scheme`.
 */
export async function readFetchList(inputs: readonly InputFile[], layout: LineLayout | undefined, scheme: 'http' | 'https'): Promise<OriginList> {
  const list = new OriginList(scheme)
  await readOrigins(inputs, layout, list)
  return list
}

/**
 * Fetches the robots.txt of every origin of `list` with `fetch`'s scheduler
 * (fetch/fetch-pool.ts) and makes each result an entry as `fetch` does
 * (fetch/fetch-entry.ts). A failure of this machine is retried, never
 * recorded: the run stops with `NoProgressError` when only such failures go
 * on. An origin the library will not fetch at all is kept with its reason,
 * as not the site's outcome (one this machine could not fetch is counted
 * in `leftOut` too); an address refused by the policy is the
 * entry's `refused` fetch outcome, as in `fetch`'s bundles.
 */
export async function fetchSnapshot(list: OriginList, o: FetchSnapshotOptions): Promise<FetchedSnapshot> {
  const keys = list.origins
  const store = new RobotsStore()
  const resumed = o.journal?.resumed === true ? readJournal(o.journal, list, store, o.warn) : 0
  const jobs = Int32Array.from({ length: keys.size }, (_, i) => i).filter((i) => !store.has(keys.key(i)))
  if (jobs.length > 0) o.journal?.begin()
  const failures = new Map<string, string>()
  const leftOut = new Map<string, number>()
  let done = 0
  await runFetches(jobs, (i) => keys.origin(i), {
    concurrency: o.concurrency,
    transport: o.transport,
    signal: o.signal,
    stallMs: o.stallMs,
    options: () => ({ timeoutMs: o.timeoutMs, userAgent: o.userAgent, privateAddresses: o.allowPrivate ? 'allow' : 'refuse' }),
    done: (i, result: RobotsFetchResult, ms) => {
      const key = keys.key(i)
      const origin = keys.origin(i)
      const entry = applyFetch(undefined, result, origin !== key ? origin : undefined)
      putEntry(store, key, entry)
      o.journal?.append(fetchRecord(key, entry, { url: result.url, reason: result.reason, ms, ...(result.error !== undefined ? { error: result.error.message } : {}) }))
      o.progress?.(++done, jobs.length)
    },
    failed: (i, err, code) => {
      failures.set(keys.key(i), err instanceof Error ? err.message : String(err))
      if (code !== undefined) leftOut.set(code, (leftOut.get(code) ?? 0) + 1)
      o.progress?.(++done, jobs.length)
    },
    local: (code) => o.local?.(code),
  })
  const missing = keys.size - store.size - failures.size
  return { snapshot: new StoreSnapshot('the fetched list', store, failures), store, resumed, missing, leftOut }
}

/**
 * Puts the records of a journal taken up into `store`, for the origins of
 * `list`; how many. A record that is not one fetch wrote (a disk that
 * failed) is skipped, its host fetched again; one of an origin the list
 * lacks is left out; of an origin recorded twice, the last record is taken
 * up: each said in a warning.
 */
function readJournal(journal: Journal, list: OriginList, store: RobotsStore, warn: ((line: string) => void) | undefined): number {
  let taken = 0
  const found = journal.readBack((text) => {
    const record = checkRecord(text)
    if (record.problem !== undefined) return { kind: 'damaged', why: record.problem }
    const key = record.origin
    if (!list.origins.has(key)) return { kind: 'foreign', why: key }
    const again = store.has(key)
    putEntry(store, key, entryOfRecord(record.record, fail))
    if (again) return { kind: 'repeated', why: key }
    taken++
    return undefined
  })
  if (warn !== undefined) for (const line of readBackWarnings(journal, found)) warn(line)
  return taken
}

/** Never called: a record checkRecord passed reads. */
function fail(why: string): never {
  throw new Error(why)
}

