/**
 * A worker thread of `filter --jobs N` (built to `dist/filter-worker.js`):
 * builds its judge from the `JudgeSpec` it is started with, then judges the
 * blocks it is sent with the same loop as the main thread (judgeBlock) and
 * sends back each block's output bytes and counts (worker-protocol.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BufferPool, judgeToChunks } from './block-chunks.js'
import { HostJudge } from './host-judge.js'
import type { EntryEvent } from '../hosts/host-rules.js'
import { createJudge, type JudgeSpec } from './judge-spec.js'
import { LineLocator } from './line-locator.js'
import { UrlScan } from '../../index.js'
import type { FromWorker, ToWorker } from './worker-protocol.js'
import { note } from '../common/stdio.js'

if (parentPort === null) {
  note("filter-worker.js is a worker thread of 'robots-automaton filter --jobs N', not a program")
  process.exit(2)
}
const port = parentPort
const spec = workerData as JudgeSpec
let events: EntryEvent[] = []
/** Output buffers the main thread has handed back: reused, so that no block costs fresh memory. */
const spares = new BufferPool(8)

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer)
}

try {
  // Before anything is hashed: the directory's index was built with the main thread's key.
  UrlScan.useHashKey(spec.hashKey)
  const judge = createJudge(spec, (e) => events.push(e), true)
  const locator = new LineLocator(spec.layout, spec.rules.kind === 'hosts')
  const hosts = judge instanceof HostJudge ? judge : undefined

  port.on('message', (message: ToWorker) => {
    try {
      if (message.type === 'end') {
        post({ type: 'done', registers: hosts?.missing.registers, overflowed: hosts !== undefined && !hosts.missing.exact })
        return
      }
      spares.give(message.spares)
      const bytes = message.bytes
      const { chunks, stats } = judgeToChunks(bytes, judge, locator, spec, message.terminateLast, spares.allocate, { firstLine: message.firstLine, input: message.input })
      const fresh = hosts?.missing.takeNew()
      const transfer = new Set<ArrayBuffer>()
      for (const c of chunks) transfer.add(c.buffer as ArrayBuffer)
      // The block's buffer goes back to the main thread's reader (the output never views it: runs are copied).
      const input = bytes.byteOffset === 0 && bytes.buffer.byteLength >= 1 << 16 && !transfer.has(bytes.buffer as ArrayBuffer) ? (bytes.buffer as ArrayBuffer) : undefined
      if (input !== undefined) transfer.add(input)
      if (fresh !== undefined) transfer.add(fresh.fingerprints.buffer as ArrayBuffer)
      post(
        {
          type: 'result',
          seq: message.seq,
          chunks,
          input,
          stats,
          events,
          reloads: hosts?.reloads ?? 0,
          newHosts: fresh?.fingerprints ?? new Int32Array(0),
          overflowed: fresh?.overflowed ?? false,
        },
        [...transfer],
      )
      events = []
      if (hosts !== undefined) hosts.reloads = 0
    } catch (err) {
      post({ type: 'error', message: err instanceof Error ? err.message : String(err) })
    }
  })
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) })
}
