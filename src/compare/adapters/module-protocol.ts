/** The messages between `compare` and the thread its `--module` runs in (module-thread.ts). */
import type { MessagePort } from 'node:worker_threads'
import type { Answer } from './adapter.js'

/**
 * What the thread is started with: `progress` holds the number of the
 * request under way; `port`, the channel of these messages (not the
 * thread's parentPort, which the module under test may post to itself).
 */
export interface ModuleStart {
  readonly path: string
  readonly timeoutMs: number
  readonly progress: SharedArrayBuffer
  readonly port: MessagePort
}

/** A request: its body by number, with the bytes when the thread does not hold them. */
export interface ModuleRequest {
  readonly seq: number
  readonly body: number
  readonly bytes?: Uint8Array
  readonly url: string
  readonly agent: string | string[]
}

/** A batch of requests, judged in order. */
export interface ToModule {
  readonly requests: readonly ModuleRequest[]
}

/** An answer: the request's number, the answer, the time of its calls and, when its body was parsed for it, the parse's (ms). */
export type Answered = [number, Answer, number, number?]

/** Ready; a batch's answers; or a stop (the run ends), with the request under way. */
export type FromModule = { t: 'ready' } | { t: 'answers'; answers: Answered[] } | { t: 'stop'; message: string; seq?: number }

/** Bodies the thread keeps (bytes and parse), least recently used dropped first. */
const KEPT = 256

/**
 * The body `id` of `kept`, made the most recently used; or `make()`'s,
 * added, dropping the least recently used past KEPT. Both threads take these
 * steps in the same order, so the main thread knows which bodies the
 * module's thread holds.
 */
export function keepBody<T>(kept: Map<number, T>, id: number, make: () => T | undefined): T | undefined {
  let v = kept.get(id)
  if (v !== undefined) kept.delete(id)
  else if ((v = make()) === undefined) return undefined
  kept.set(id, v)
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!)
  return v
}
