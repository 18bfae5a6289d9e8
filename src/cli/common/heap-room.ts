/**
 * What the JavaScript heap leaves for a thread's cache of compiled rules
 * (`filter --cache-mb`, `diff` per host). Compiled matchers are JavaScript
 * objects as much as typed arrays, and a heap that fills ends the process in
 * V8's out-of-memory crash, not in an eviction: a cache larger than the
 * heap a thread may have (`node --max-old-space-size`, the same for every
 * thread) is lowered to fit, and said so.
 */
import { v8 } from '../../tools/built-ins.js'

/** The share of a thread's heap limit its cache may take: the rest holds its lines and the work in hand. */
export const CACHE_HEAP_SHARE = 0.5

/** Bytes of compiled rules a thread keeps (a branded number: a budget, not any count of bytes). */
export type CacheBytes = number & { readonly __cacheBytes: unique symbol }

/** The budget of each judging thread, and the warning to print when it was lowered to fit the heap. */
export interface CacheBudget {
  readonly perThread: CacheBytes
  readonly warning?: string
}

/** The heap limit of a thread of this process, in bytes (V8's `heap_size_limit`). */
export function heapLimit(): number {
  return v8().getHeapStatistics().heap_size_limit
}

/**
 * The budget of each of `threads` judging threads for `totalBytes` of
 * compiled rules in all (`what` names it in the warning: `--cache-mb 256`):
 * its share, lowered to {@link CACHE_HEAP_SHARE} of `limit` (a thread's heap
 * limit) when it is more.
 */
export function cacheBudget(totalBytes: number, threads: number, what: string, limit: number = heapLimit()): CacheBudget {
  const share = Math.floor(totalBytes / threads)
  const room = Math.floor(limit * CACHE_HEAP_SHARE)
  if (share <= room) return { perThread: share as CacheBytes }
  return {
    perThread: room as CacheBytes,
    warning: `warning: ${what} lowered to ${mib(room * threads)}${threads > 1 ? ` (${mib(room)} for each of ${threads} threads)` : ''}: the heap limit of this Node is ${mib(limit)}${threads > 1 ? ' a thread' : ''}, and a larger cache of compiled rules would end in an out-of-memory crash (node --max-old-space-size=MB gives more)`,
  }
}

/** Bytes in MiB, as `--cache-mb` counts them. */
function mib(bytes: number): string {
  return `${Math.floor(bytes / 2 ** 20)} MiB`
}
