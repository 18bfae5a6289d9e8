/**
 * Messages between `filter --jobs N`'s main thread (parallel.ts) and its
 * worker threads (worker.ts). Blocks and their output travel as
 * transferred ArrayBuffers: no copy either way.
 */
import type { EntryEvent } from '../hosts/host-rules.js'
import type { FilterStats } from './filter-stats.js'

/** Main → worker: judge a block. */
export interface BlockMessage {
  readonly type: 'block'
  readonly seq: number
  /** Whole lines (the last one may lack an LF when `terminateLast` says what to do with it). */
  readonly bytes: Uint8Array
  readonly terminateLast: boolean
  /** Output buffers of earlier results, written and handed back for reuse. */
  readonly spares: ArrayBuffer[]
  /** `--format jsonl`: the line number of the block's first line in its input, and the input's name when there are several. */
  readonly firstLine: number
  readonly input: string | undefined
}

/** Main → worker: no more blocks; answer with `DoneMessage`. */
export interface EndMessage {
  readonly type: 'end'
}

/** Worker → main: a block's output and counts. */
export interface ResultMessage {
  readonly type: 'result'
  readonly seq: number
  /** The output, in order: views on the worker's transferred output buffers (the main thread copies them out and hands the buffers back). */
  readonly chunks: Uint8Array[]
  /** The block's own buffer, handed back for the next blocks (absent when it was a copy too small to reuse). */
  readonly input: ArrayBuffer | undefined
  readonly stats: FilterStats
  /** Per-host judging: entries loaded for the first time in this worker. */
  readonly events: EntryEvent[]
  /** Per-host judging: reloads in this block; hosts without an entry seen first here. */
  readonly reloads: number
  readonly newHosts: Int32Array
  readonly overflowed: boolean
}

/** Worker → main: after `EndMessage`, the worker's distinct-host registers. */
export interface DoneMessage {
  readonly type: 'done'
  readonly registers: Uint8Array | undefined
  readonly overflowed: boolean
}

/** Worker → main: the worker failed. */
export interface ErrorMessage {
  readonly type: 'error'
  readonly message: string
}

export type ToWorker = BlockMessage | EndMessage
export type FromWorker = ResultMessage | DoneMessage | ErrorMessage
