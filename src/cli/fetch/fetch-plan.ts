/**
 * What a `fetch` run fetches and in which order its output lists the
 * entries: the updated bundle's keys first (those not due kept as they
 * are), then the input's new origins in the order first seen. The order
 * depends on the inputs alone, never on when fetches complete, so a run
 * resumed from its journal writes the output an uninterrupted run writes.
 * Memory: the keys, and a few bytes per origin.
 */
import type { RobotsStore } from '../../index.js'
import { isDue } from './fetch-entry.js'
import { KeySet } from './key-set.js'
import type { OriginList } from './origin-input.js'

/** The entries of the output, in order. */
export interface FetchPlan {
  /** Every key of the output, in order, each with the origin fetched for it (packed: key-set.ts). */
  readonly keys: KeySet
  /** Per key: 1 when it is kept from the updated bundle without a fetch. */
  readonly kept: Uint8Array
  /** The indices (into `keys`) to fetch, in order. */
  readonly jobs: Int32Array
}

/**
 * The plan of a run from the input's origins `list` and the bundle `old`
 * being updated (if any), at `now`; `olderThanMs`: `--refresh-older-than`.
 */
export function planFetch(list: OriginList, old: RobotsStore | undefined, scheme: string, now: number, olderThanMs: number): FetchPlan {
  // Without a bundle to update, the input's keys are the plan's, as they are.
  let keys = list.origins
  const keptList: number[] = []
  if (old !== undefined) {
    keys = new KeySet()
    for (const key of old.keys()) {
      const info = old.fetchInfo(key)
      if (!isDue(info, now, olderThanMs)) {
        keptList.push(keys.add(key))
        continue
      }
      // The origin fetched last time, else the input's, else the key's own (a bare host: over --scheme).
      keys.add(key, info?.origin ?? list.origins.get(key) ?? (key.includes('://') ? key : `${scheme}://${key}`))
    }
    for (const [key, origin] of list.origins) if (!old.has(key)) keys.add(key, origin)
  }
  const kept = new Uint8Array(keys.size)
  for (const i of keptList) kept[i] = 1
  const jobs = new Int32Array(keys.size - keptList.length)
  for (let i = 0, j = 0; i < keys.size; i++) if (kept[i] === 0) jobs[j++] = i
  return { keys, kept, jobs }
}
