/**
 * A worker thread of `filter --jobs N` (built to `dist/filter-worker.js`):
 * builds its judge from the `JudgeSpec` it is started with, then judges the
 * blocks it is sent with the same loop as the main thread (judgeBlock) and
 * sends back each block's output bytes and counts (worker-protocol.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BlockWriter, type ByteSink } from './block-writer.js'
import { LineEmitter } from './emitter.js'
import { HostJudge, type EntryEvent } from './host-judge.js'
import { createJudge, type JudgeSpec } from './judge-spec.js'
import { judgeBlock } from './judge-lines.js'
import { newStats } from './stats.js'
import type { FromWorker, ToWorker } from './worker-protocol.js'

const port = parentPort!
const spec = workerData as JudgeSpec
let events: EntryEvent[] = []
/** Output buffers the main thread has handed back: reused, so that no block costs fresh memory. */
const spares: ArrayBuffer[] = []

function allocate(size: number): Uint8Array {
  while (spares.length > 0) {
    const b = spares.pop()!
    if (b.byteLength >= size) return new Uint8Array(b, 0, size)
  }
  return new Uint8Array(size)
}

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer)
}

try {
  const judge = createJudge(spec, (e) => events.push(e), true)
  const hosts = judge instanceof HostJudge ? judge : undefined

  port.on('message', (message: ToWorker) => {
    try {
      if (message.type === 'end') {
        post({ type: 'done', registers: hosts?.missing.registers, overflowed: hosts !== undefined && !hosts.missing.exact })
        return
      }
      const chunks: Uint8Array[] = []
      // Blocks handed to the sink are sent away, never reused: the write callback is never called.
      const sink: ByteSink = {
        write(chunk) {
          chunks.push(chunk)
          return true
        },
        once() {},
      }
      spares.push(...message.spares)
      const bytes = message.bytes
      // The output goes away with the message, so runs are copied (zeroCopy off), into reused buffers.
      const writer = new BlockWriter(sink, Math.max(1 << 16, bytes.length + (bytes.length >>> 2)), { zeroCopy: false, allocate })
      const emitter = new LineEmitter(writer, spec.mode, spec.format)
      const stats = newStats()
      judgeBlock(bytes, judge, emitter, stats, message.terminateLast, spec.fields)
      writer.release()
      const fresh = hosts?.missing.takeNew()
      const transfer = new Set<ArrayBuffer>()
      for (const c of chunks) transfer.add(c.buffer as ArrayBuffer)
      if (fresh !== undefined) transfer.add(fresh.fingerprints.buffer as ArrayBuffer)
      post(
        {
          type: 'result',
          seq: message.seq,
          chunks,
          stats,
          events,
          noHost: hosts?.noHost ?? 0,
          reloads: hosts?.reloads ?? 0,
          newHosts: fresh?.fingerprints ?? new Int32Array(0),
          overflowed: fresh?.overflowed ?? false,
        },
        [...transfer],
      )
      events = []
      if (hosts !== undefined) {
        hosts.noHost = 0
        hosts.reloads = 0
      }
    } catch (err) {
      post({ type: 'error', message: err instanceof Error ? err.message : String(err) })
    }
  })
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) })
}
