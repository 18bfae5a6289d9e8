/**
 * `fetch`'s requests in flight: at most `concurrency` fetches at once
 * ({@link runFetches}), each origin's `/robots.txt` fetched once with the
 * library's access method, its result made into an entry (fetch-entry.ts)
 * and handed on in the order fetches complete. Memory in flight is bounded
 * by the concurrency (a body is parsed as it streams, up to the limit).
 */
import { fetchRobots } from '../../index.js'
import { applyFetch, previousFetch, type FetchedEntry } from './fetch-entry.js'
import type { FetchRun } from './fetch-record.js'

/** Default requests in flight (`fetch --concurrency`): sensible for a laptop. */
export const DEFAULT_CONCURRENCY = 32
/** Default deadline of one fetch, in seconds (`fetch --timeout`; the library's default). */
export const DEFAULT_TIMEOUT_S = 10

/** One origin to fetch: its bundle key and the origin whose `/robots.txt` is fetched. */
export interface FetchJob {
  readonly key: string
  readonly origin: string
}

/** Options of {@link runFetches}. */
export interface FetchPoolOptions {
  /** Fetches in flight at most. */
  readonly concurrency: number
  /** Deadline of each fetch, redirects and body included. */
  readonly timeoutMs: number
  readonly userAgent: string
  /** Aborting it stops the run: fetches in flight are dropped (nothing is handed on for them), no new one starts. */
  readonly signal: AbortSignal
  /** The entry held before for `key` (refreshes: its validators are sent, its rules kept on 304 or when unreachable). */
  readonly previous: (key: string) => FetchedEntry | undefined
  /** Takes each completed fetch: the job's index, the new entry and this run's fetch. */
  readonly done: (index: number, job: FetchJob, entry: FetchedEntry, run: FetchRun) => void | Promise<void>
  /** A job that could not be fetched at all (an origin the library refuses: a bug, or a hostile bundle's origin). */
  readonly failed: (job: FetchJob, err: unknown) => void
}

/** Fetches every job, `concurrency` at a time, until done or aborted. */
export async function runFetches(jobs: readonly FetchJob[], o: FetchPoolOptions): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (!o.signal.aborted) {
      const i = next++
      if (i >= jobs.length) return
      const job = jobs[i]
      const prev = o.previous(job.key)
      const started = performance.now()
      let result
      try {
        result = await fetchRobots(job.origin, { timeoutMs: o.timeoutMs, userAgent: o.userAgent, previous: previousFetch(prev), signal: o.signal })
      } catch (err) {
        if (o.signal.aborted) return
        o.failed(job, err)
        continue
      }
      const entry = applyFetch(prev, result, job.origin !== job.key ? job.origin : undefined)
      const run: FetchRun = { url: result.url, reason: result.reason, ms: performance.now() - started }
      await o.done(i, job, entry, result.error === undefined ? run : { ...run, error: result.error.message })
    }
  }
  await Promise.all(Array.from({ length: Math.min(o.concurrency, jobs.length) }, worker))
}
