/**
 * `audit --fetch`: the hosts and URLs of a list, their robots.txt fetched
 * on the fly into a store ({@link fetchSnapshot}), through `fetch`'s own
 * machinery (its origin list, request pool and entries: cli/fetch/), so
 * that a host audited answers as `fetch` then `audit BUNDLE` would. The
 * one seam between `audit` and the fetching: nothing else here knows how
 * requests are made.
 */
import { setMaxListeners } from 'node:events'
import { RobotsStore, UrlScan } from '../../index.js'
import { ConnectRules } from '../fetch/connect-rules.js'
import { installFetchAgent } from '../fetch/connector.js'
import { putEntry } from '../fetch/fetch-entry.js'
import { runFetches, type FetchJob } from '../fetch/fetch-pool.js'
import { OriginList, readOrigins } from '../fetch/origin-input.js'
import type { InputFile } from '../filter/input.js'
import { forEachInputLine } from '../filter/input-lines.js'
import { plausibleHost } from '../filter/fields.js'
import { WHOLE_LINES, type LineLayout } from '../filter/line-layout.js'
import { HostSource, LineFault, LineLocator } from '../filter/line-locator.js'
import { StoreSnapshot } from './snapshot.js'

/** How `audit --fetch` fetches (`fetch`'s options of the same names). */
export interface FetchSnapshotOptions {
  readonly concurrency: number
  readonly timeoutMs: number
  readonly userAgent: string
  readonly connect: ConnectRules
  readonly scheme: 'http' | 'https'
  /** Called as fetches complete (done, of). */
  readonly progress?: (done: number, of: number) => void
}

/** What was fetched: the snapshot, the store behind it (for `--save`), and the input's lines without a host. */
export interface FetchedSnapshot {
  readonly snapshot: StoreSnapshot
  readonly store: RobotsStore
  readonly list: OriginList
}

/**
 * Reads the hosts and URLs of `inputs` (by `layout`, as `fetch` reads
 * them: one entry per origin of a URL, per host of a host column) and
 * fetches each one's robots.txt with the access method. An origin that
 * could not be fetched at all (a failure on this side) is recorded as such,
 * never as the site's outcome.
 */
export async function fetchSnapshot(inputs: readonly InputFile[], layout: LineLayout | undefined, o: FetchSnapshotOptions): Promise<FetchedSnapshot> {
  const list = new OriginList(o.scheme)
  if (layout === undefined) await readHostList(inputs, list)
  else await readOrigins(inputs, layout, list)
  const jobs: FetchJob[] = [...list.origins].map(([key, origin]) => ({ key, origin }))
  const store = new RobotsStore()
  const failures = new Map<string, string>()
  const agent = await installFetchAgent(o.connect, o.timeoutMs)
  const controller = new AbortController()
  setMaxListeners(o.concurrency + 16, controller.signal)
  let done = 0
  try {
    await runFetches(jobs, {
      concurrency: o.concurrency,
      timeoutMs: o.timeoutMs,
      userAgent: o.userAgent,
      signal: controller.signal,
      previous: () => undefined,
      done: (_index, job, entry) => {
        putEntry(store, job.key, entry)
        o.progress?.(++done, jobs.length)
      },
      failed: (job, err) => {
        failures.set(job.key, err instanceof Error ? err.message : String(err))
        o.progress?.(++done, jobs.length)
      },
    })
  } finally {
    void agent.close().catch(() => {})
  }
  return { snapshot: new StoreSnapshot('the fetched list', store, failures), store, list }
}

/** Blank bytes around a line's host. */
const isBlank = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d

/**
 * A list of hosts and URLs, one a line: a URL gives its origin (as `fetch`
 * reads a URL list), anything else is read as a host (`host`, `host:port`,
 * `[v6]:port`), fetched over the list's scheme, as a host column is.
 */
async function readHostList(inputs: readonly InputFile[], list: OriginList): Promise<void> {
  const locator = new LineLocator(WHOLE_LINES, true)
  const scan = new UrlScan()
  await forEachInputLine(
    inputs,
    locator,
    (bytes, start, end, fault, line, input) => {
      list.lines++
      if (fault === LineFault.None) {
        if (!locator.sameHost) list.add(locator.hostBytes, locator.host, locator.hostSource)
        return
      }
      let s = start
      let e = end
      while (s < e && isBlank(bytes[s])) s++
      while (e > s && isBlank(bytes[e - 1])) e--
      if (s < e && scan.scanHost(bytes, s, e) && scan.schemeEnd < 0 && plausibleHost(bytes, scan.hostStart, scan.hostEnd)) list.add(bytes, scan, HostSource.Column)
      else list.fault(fault, input.name, line, bytes, start, end)
    },
    async () => {},
  )
}
