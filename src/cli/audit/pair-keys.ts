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
 * Every key of either snapshot, sorted, with each side's record. A bare
 * host that one side lacks while holding origins of it is left out: those
 * origins are compared with it already.
 */
export function pairKeys(old: Snapshot, now: Snapshot): PairedRecords[] {
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
  const oldSet = new Set(oldKeys)
  const nowSet = new Set(nowKeys)
  const oldOriginHosts = originHosts(oldKeys)
  const nowOriginHosts = originHosts(nowKeys)
  const pairs: PairedRecords[] = []
  for (const key of [...new Set([...oldKeys, ...nowKeys])].sort()) {
    const bare = !key.includes('://')
    if (bare && ((!oldSet.has(key) && oldOriginHosts.has(key)) || (!nowSet.has(key) && nowOriginHosts.has(key)))) continue
    pairs.push({ key, old: lookup(old, key), now: lookup(now, key) })
  }
  return pairs
}
