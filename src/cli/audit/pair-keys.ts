/**
 * The keys two snapshots are compared by. A host may be keyed by its origin
 * on one side (`https://example.com`: a bundle written by `fetch`) and as a
 * bare host on the other (`example.com`: a directory, a packed one): each
 * side answers a key as the store looks a URL up, its origin's entry, else
 * its bare host's, so the host is compared with itself, not listed twice as
 * absent.
 */
import type { HostRecord, Snapshot } from './snapshot.js'

/** The bare host of an origin key (`https://example.com:8443` → `example.com`), or undefined for a bare key. */
function hostOfOrigin(key: string): string | undefined {
  if (!key.includes('://')) return undefined
  try {
    return new URL(key).hostname
  } catch {
    return undefined
  }
}

/** One key of a comparison and each side's record for it. */
export interface PairedRecords {
  readonly key: string
  readonly old: HostRecord
  readonly now: HostRecord
}

/** `snapshot`'s record of `key`, an origin taking its bare host's entry when it has none of its own. */
function lookup(snapshot: Snapshot, key: string): HostRecord {
  const record = snapshot.record(key)
  if (record.outcome !== 'absent') return record
  const host = hostOfOrigin(key)
  if (host === undefined) return record
  const bare = snapshot.record(host)
  return bare.outcome === 'absent' ? record : { ...bare, key }
}

/**
 * Every key of either snapshot, sorted, with each side's record, made as
 * the caller comes to it (a record holds its host's rules: only the pair in
 * hand is in memory). A bare host that one side lacks while holding origins
 * of it is left out: those origins are compared with it already.
 */
export function* pairKeys(old: Snapshot, now: Snapshot): Generator<PairedRecords> {
  const oldKeys = old.keys()
  const nowKeys = now.keys()
  const originHosts = (keys: readonly string[]): Set<string> => {
    const hosts = new Set<string>()
    for (const key of keys) {
      const host = hostOfOrigin(key)
      if (host !== undefined) hosts.add(host)
    }
    return hosts
  }
  const oldOriginHosts = originHosts(oldKeys)
  const nowOriginHosts = originHosts(nowKeys)
  // Both lists are sorted: one merge walks them, each key once.
  for (let i = 0, j = 0; i < oldKeys.length || j < nowKeys.length; ) {
    const a = oldKeys[i]
    const b = nowKeys[j]
    const key = j >= nowKeys.length || (i < oldKeys.length && a < b) ? a : b
    const inOld = a === key
    const inNow = b === key
    if (inOld) i++
    if (inNow) j++
    const bare = !key.includes('://')
    if (bare && ((!inOld && oldOriginHosts.has(key)) || (!inNow && nowOriginHosts.has(key)))) continue
    yield { key, old: lookup(old, key), now: lookup(now, key) }
  }
}
