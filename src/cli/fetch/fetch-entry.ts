/**
 * One origin's entry as `fetch` keeps it ({@link FetchedEntry}: its rules and
 * what is known of its fetch), what a fetch result makes of the entry held
 * before ({@link applyFetch}: RFC 9309 §2.3.1.4 and §2.4), and the entry's
 * way in and out of a `RobotsStore`.
 */
import type { PreviousFetch, Robots, RobotsFetchResult, RobotsStore, StoreFetchInfo } from '../../index.js'

/** An entry's rules: a robots.txt, or a stand-in (allow all, disallow all). */
export type EntryRules = Robots | 'unavailable' | 'unreachable'

/** One origin's entry. */
export interface FetchedEntry {
  readonly rules: EntryRules
  /** Absent for entries made without a fetch (`pack` of files). */
  readonly info?: StoreFetchInfo
}

/** How long an origin may stay unreachable before its kept rules give way to allow-all (RFC 9309 §2.3.1.4: "for example, 30 days"; as `RobotsCache`'s `maxStaleMs`). */
export const MAX_STALE_MS = 30 * 86_400_000

/** The rules a fetch result stands for (its outcome, not its `robots` object: the stand-ins are shared instances). */
function rulesOf(r: RobotsFetchResult): EntryRules {
  if (r.outcome === 'unavailable') return 'unavailable'
  if (r.outcome === 'unreachable' || r.outcome === 'refused') return 'unreachable'
  return r.robots
}

/** The `previous` of a refresh: the held robots.txt and its validators; undefined for a stand-in (nothing to revalidate). */
export function previousFetch(entry: FetchedEntry | undefined): PreviousFetch | undefined {
  if (entry === undefined || typeof entry.rules === 'string') return undefined
  const p: PreviousFetch = { robots: entry.rules }
  const { etag, lastModified } = entry.info ?? {}
  if (etag !== undefined || lastModified !== undefined) p.validators = { ...(etag !== undefined && { etag }), ...(lastModified !== undefined && { lastModified }) }
  // A bundle keeps no header fields: a 304 without freshness of its own keeps the lifetime the response gave (RFC 9111 §4.3.4), not 24 h.
  const info = entry.info
  if (/^(ok|not-modified)$/.test(info?.outcome!)) p.headers = { 'cache-control': `max-age=${Math.round((info!.expiresAt - info!.fetchedAt) / 1000)}` }
  return p
}

/**
 * The entry after fetch result `r`, given the entry held before (if any):
 * - ok, unavailable: the result's rules;
 * - not-modified: the held rules (the result's `robots` is them), with the
 *   new expiry and validators;
 * - unreachable: the held rules stay (RFC 9309 §2.4: a crawler may keep
 *   using its cached copy) until the origin has been unreachable for more
 *   than `maxStaleMs` since a fetch last reached it; then allow-all, as
 *   §2.3.1.4 permits; without a held copy, disallow-all. The held
 *   validators stay, so the next refresh is still conditional.
 * - refused (the address policy: this machine's decision, not the site's):
 *   the held rules stay, whatever their age; without any, disallow-all
 *   (the `unreachable` stand-in, with the outcome `refused` in its fetch
 *   info). Never allow-all.
 *
 * `origin`: the origin fetched when it is not the entry's key (a bare-host
 * key), kept in the fetch info for later refreshes.
 */
export function applyFetch(prev: FetchedEntry | undefined, r: RobotsFetchResult, origin?: string, maxStaleMs = MAX_STALE_MS): FetchedEntry {
  const info: StoreFetchInfo = { outcome: r.outcome, fetchedAt: r.fetchedAt, expiresAt: r.expiresAt, reachableAt: r.fetchedAt }
  if (r.status !== undefined && r.status >= 100 && r.status <= 999) info.status = r.status
  if (origin !== undefined) info.origin = origin
  if (r.outcome !== 'unreachable' && r.outcome !== 'refused') {
    if (r.validators?.etag !== undefined) info.etag = r.validators.etag
    if (r.validators?.lastModified !== undefined) info.lastModified = r.validators.lastModified
    return { rules: rulesOf(r), info }
  }
  info.reachableAt = prev?.info?.reachableAt ?? r.fetchedAt
  if (prev?.info?.etag !== undefined) info.etag = prev.info.etag
  if (prev?.info?.lastModified !== undefined) info.lastModified = prev.info.lastModified
  let rules: EntryRules = 'unreachable'
  if (r.outcome === 'refused') rules = prev?.rules ?? 'unreachable'
  else if (r.fetchedAt - info.reachableAt > maxStaleMs) rules = 'unavailable'
  else if (prev !== undefined && prev.rules !== 'unreachable') rules = prev.rules
  if (typeof rules === 'string') {
    // Stand-ins have no representation to revalidate.
    delete info.etag
    delete info.lastModified
  }
  return { rules, info }
}

/** `key`'s entry in `store`, or undefined. */
export function entryIn(store: RobotsStore, key: string): FetchedEntry | undefined {
  const source = store.source(key)
  if (source === 'none') return undefined
  const info = store.fetchInfo(key)
  const rules: EntryRules = source === 'robots' ? store.get(key)! : source
  return info === undefined ? { rules } : { rules, info }
}

/** Stores `entry` under `key` (a robots.txt's form is shared, not copied). */
export function putEntry(store: RobotsStore, key: string, entry: FetchedEntry): void {
  if (typeof entry.rules === 'string') store.setOutcome(key, entry.rules, entry.info)
  else store.setRobots(key, entry.rules, entry.info)
}

/**
 * Whether an entry of fetch info `info` must be fetched at `now`: it has
 * none (not made by a fetch), it has expired, its address was refused
 * (asked again: the policy or the routes may differ now), or it was fetched
 * more than `olderThanMs` ago (`--refresh-older-than`).
 */
export function isDue(info: StoreFetchInfo | undefined, now: number, olderThanMs = Infinity): boolean {
  return info === undefined || info.expiresAt <= now || info.outcome === 'refused' || now - info.fetchedAt > olderThanMs
}
