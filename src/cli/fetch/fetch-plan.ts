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
import type { OriginList } from './origin-input.js'

/** The entries of the output, in order. */
export interface FetchPlan {
  /** Every key of the output, in order. */
  readonly keys: readonly string[]
  /** Per key: 1 when it is kept from the updated bundle without a fetch. */
  readonly kept: Uint8Array
  /** The indices (into `keys`) to fetch, in order. */
  readonly jobs: Int32Array
  /** The origin whose robots.txt is fetched for key `i`. */
  origin(i: number): string
}

/**
 * The plan of a run from the input's origins `list` and the bundle `old`
 * being updated (if any), at `now`; `olderThanMs`: `--refresh-older-than`.
 */
export function planFetch(list: OriginList, old: RobotsStore | undefined, scheme: string, now: number, olderThanMs: number): FetchPlan {
  const keys: string[] = []
  /** Origins that are not their key, by index. */
  const origins = new Map<number, string>()
  const keptList: number[] = []
  if (old !== undefined) {
    for (const key of old.keys()) {
      const info = old.fetchInfo(key)
      const i = keys.length
      keys.push(key)
      if (!isDue(info, now, olderThanMs)) {
        keptList.push(i)
        continue
      }
      // The origin fetched last time, else the input's, else the key's own (a bare host: over --scheme).
      const origin = info?.origin ?? list.origins.get(key) ?? (key.includes('://') ? key : `${scheme}://${key}`)
      if (origin !== key) origins.set(i, origin)
    }
  }
  for (const [key, origin] of list.origins) {
    if (old?.has(key)) continue
    if (origin !== key) origins.set(keys.length, origin)
    keys.push(key)
  }
  const kept = new Uint8Array(keys.length)
  for (const i of keptList) kept[i] = 1
  const jobs = new Int32Array(keys.length - keptList.length)
  for (let i = 0, j = 0; i < keys.length; i++) if (kept[i] === 0) jobs[j++] = i
  return { keys, kept, jobs, origin: (i) => origins.get(i) ?? keys[i]! }
}
