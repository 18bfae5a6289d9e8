/**
 * `filter --jobs N`: N threads judge blocks of lines — the main thread and
 * N - 1 worker threads — while the main thread also reads the input and
 * writes the output, byte for byte as `--jobs 1` would. Scheduling, order,
 * memory and start: {@link ParallelRunner}.
 */
import type { Worker } from 'node:worker_threads'
import { workerThreads } from '../../tools/built-ins.js'
import { BufferPool, judgeToChunks } from './block-chunks.js'
import type { BlockWriter } from '../common/block-writer.js'
import type { HostTally } from '../hosts/host-tally.js'
import type { JudgeSpec } from './judge-spec.js'
import type { LineBlock } from './line-blocks.js'
import type { BlockRunner, BlockSource, InlineRunner } from './runner.js'
import type { FilterStats, FilterTotals } from './filter-stats.js'
import type { FromWorker, ToWorker } from './worker-protocol.js'
import { CliError } from '../common/cli-error.js'

/**
 * The default of `filter --jobs`: one thread on a machine with two CPUs or
 * fewer, where worker threads were measured not to pay (slower on URL
 * lists, no faster on logs: bench/history/url-scan.md); with more CPUs,
 * one thread per CPU, at most four.
 */
export function defaultJobs(cpus: number): number {
  return cpus <= 2 ? 1 : Math.min(cpus, 4)
}

/** Blocks in hand per worker. */
const PER_WORKER = 2

/** Output buffers kept per worker (and for the main thread) for reuse. */
const MAX_SPARES = 4

/** Block buffers kept for the line reader. */
const MAX_POOL = 8

/** Smallest buffer worth transferring rather than copying (Node's pooled small Buffers must never be). */
const TRANSFER_MIN = 1 << 16

interface Slot {
  readonly worker: Worker
  /** Blocks sent and not yet answered. */
  inflight: number
  /** Its output buffers, written out and waiting to be handed back. */
  spares: ArrayBuffer[]
  /** Set by `finish`: called with the worker's last counts (or none, when it died first). */
  done?: (registers: Uint8Array | undefined, overflowed: boolean) => void
  /** Whether the worker answered `end`. */
  finished: boolean
}

/** A judged block waiting for its turn to be written. */
interface Judged {
  readonly chunks: Uint8Array[]
  readonly stats: FilterStats
  /** The worker that judged it (its buffers go back to it), or undefined for the main thread. */
  readonly slot: Slot | undefined
  /** Its input's name (the totals number lines per input). */
  readonly input: string
}

/**
 * Judges blocks in worker threads and the main thread.
 *
 * - Scheduling: each block goes to the worker with the fewest blocks in
 *   hand, if it has fewer than two; when every worker has two, the main
 *   thread judges the block itself. So the main thread takes the share its
 *   reading and writing leave it, and no core waits for another.
 * - Order: blocks are numbered as read; their output (chunks, from a worker
 *   or from the main thread: block-chunks.ts) is written strictly in number
 *   order, so the output is byte for byte that of `--jobs 1`.
 * - Memory: at most `2 N` blocks are between reading and writing; the
 *   reader waits for room, and every write waits while stdout is full
 *   (backpressure), so a slow consumer holds back the whole pipeline
 *   instead of letting output pile up. Block, output and fingerprint buffers
 *   travel without a copy (transferred ArrayBuffers) and come back for
 *   reuse.
 * - Start: the first block is judged in the main thread (an input whose
 *   files each fit in one block starts no worker); a worker is started only
 *   for a block no started worker has room for, so a short input starts few.
 * - Per-host rules are shared, not copied: the directory's index and a
 *   bundle's bytes live on SharedArrayBuffers. Each thread keeps its own
 *   cache of compiled matchers (`--cache-mb` is shared out between them).
 */
export class ParallelRunner implements BlockRunner {
  private slots: Slot[] = []
  private started = false
  /** The number of the next block read. */
  private seq = 0
  /** The number of the next block to write. */
  private nextOut = 0
  private readonly results = new Map<number, Judged>()
  /** The input of each block sent to a worker, until its result is in. */
  private readonly inputs = new Map<number, string>()
  private wake: (() => void) | undefined
  private failure: Error | undefined
  /** Output buffers of blocks the main thread judged. */
  private readonly localSpares = new BufferPool(MAX_SPARES)
  /** Block buffers the workers handed back, for the line reader. */
  private readonly pool: Buffer[] = []
  readonly allocate = (size: number): Buffer => {
    for (let i = this.pool.length - 1; i >= 0; i--) {
      if (this.pool[i].length >= size) return this.pool.splice(i, 1)[0].subarray(0, size)
    }
    return Buffer.allocUnsafe(size)
  }

  /** `jobs` judging threads in all: the main thread and `jobs - 1` workers. */
  constructor(
    private readonly spec: JudgeSpec,
    private readonly jobs: number,
    private readonly inline: InlineRunner,
    private readonly writer: BlockWriter,
    private readonly totals: FilterTotals,
    private readonly tally: HostTally | undefined,
    private readonly workerUrl: URL,
  ) {}

  async submit(block: LineBlock, terminateLast: boolean, source: BlockSource): Promise<void> {
    if (this.totals.stats.stopped) return
    if (!this.started) {
      if (!block.last) this.started = true
      // Judged here, straight to the output (the whole input, when each file is one block).
      this.inline.judgeNow(block, terminateLast, source)
      this.seq++
      this.nextOut++
      if (block.pause) this.writer.flush()
      await this.writer.drain()
      return
    }
    for (;;) {
      await this.writeReady()
      if (this.seq - this.nextOut < this.jobs * PER_WORKER) break
      await this.next()
    }
    let slot: Slot | undefined
    for (const s of this.slots) if (s.inflight < PER_WORKER && (slot === undefined || s.inflight < slot.inflight)) slot = s
    if (slot === undefined && this.slots.length < this.jobs - 1) slot = this.startWorker()
    const seq = this.seq++
    if (slot !== undefined) {
      const bytes = this.movable(block)
      slot.inflight++
      const spares = slot.spares
      slot.spares = []
      const transfer = bytes.buffer.byteLength >= TRANSFER_MIN ? [bytes.buffer as ArrayBuffer, ...spares] : spares
      this.post(slot, { type: 'block', seq, bytes, terminateLast, spares, firstLine: source.place.firstLine, input: source.place.input }, transfer)
      this.inputs.set(seq, source.input)
    } else {
      // Every worker has its hands full: the main thread judges this block.
      const { chunks, stats } = judgeToChunks(block.bytes, this.inline.judge, this.inline.locator, this.spec, terminateLast, this.localSpares.allocate, source.place)
      this.results.set(seq, { chunks, stats, slot: undefined, input: source.input })
    }
    await this.writeReady()
    if (block.pause) await this.flush()
  }

  async flush(): Promise<void> {
    for (;;) {
      await this.writeReady()
      if (this.nextOut === this.seq) break
      await this.next()
    }
    this.writer.flush()
    await this.writer.drain()
  }

  async finish(): Promise<void> {
    await this.flush()
    await this.inline.finish()
    await Promise.all(
      this.slots.map(
        (slot) =>
          new Promise<void>((resolve) => {
            slot.done = (registers, overflowed) => {
              this.tally?.missing.merge(new Int32Array(0), overflowed, registers)
              resolve()
            }
            this.post(slot, { type: 'end' })
          }),
      ),
    )
    this.check()
    await Promise.all(this.slots.map((s) => s.worker.terminate()))
    this.slots = []
  }

  /** The block's bytes, in a buffer of their own that may be transferred (a copy when the buffer is shared or small). */
  private movable(block: LineBlock): Uint8Array {
    const b = block.bytes
    const whole = b.byteOffset === 0 && b.buffer.byteLength >= TRANSFER_MIN
    if (!block.shared && whole) return new Uint8Array(b.buffer, 0, b.length)
    return new Uint8Array(b)
  }

  /** Starts one more worker thread. */
  private startWorker(): Slot {
    const worker = new (workerThreads().Worker)(this.workerUrl, { workerData: this.spec })
    const slot: Slot = { worker, inflight: 0, spares: [], finished: false }
    worker.on('message', (m: FromWorker) => this.receive(slot, m))
    worker.on('error', (err) => this.fail(new CliError('ERR_WORKER', `a worker thread failed: ${err.message}`)))
    worker.on('exit', (code) => {
      if (slot.finished) return
      this.fail(new CliError('ERR_WORKER', `a worker thread exited early (code ${code})`))
      // finish() may be waiting for this worker's last counts: it will not send them.
      slot.done?.(undefined, true)
    })
    this.slots.push(slot)
    return slot
  }

  private post(slot: Slot, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    slot.worker.postMessage(message, transfer)
  }

  private receive(slot: Slot, m: FromWorker): void {
    if (m.type === 'error') {
      this.fail(new CliError('ERR_WORKER', `a worker thread failed: ${m.message}`))
      return
    }
    if (m.type === 'done') {
      slot.finished = true
      slot.done?.(m.registers, m.overflowed)
      return
    }
    slot.inflight--
    const input = this.inputs.get(m.seq) ?? ''
    this.inputs.delete(m.seq)
    this.results.set(m.seq, { chunks: m.chunks, stats: m.stats, slot, input })
    if (m.input !== undefined && this.pool.length < MAX_POOL) this.pool.push(Buffer.from(m.input))
    const tally = this.tally
    if (tally !== undefined) {
      for (const e of m.events) tally.entry(e)
      tally.reloads += m.reloads
      tally.missing.merge(m.newHosts, m.overflowed)
    }
    this.signal()
  }

  private fail(err: Error): void {
    this.failure ??= err
    this.signal()
  }

  private signal(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure
  }

  /** Waits for the next message from any worker. */
  private next(): Promise<void> {
    this.check()
    return new Promise<void>((resolve) => {
      this.wake = resolve
    }).then(() => this.check())
  }

  /** Writes the results that are next in order, waiting while stdout is full; hands their buffers back. */
  private async writeReady(): Promise<void> {
    for (let r = this.results.get(this.nextOut); r !== undefined; r = this.results.get(this.nextOut)) {
      this.results.delete(this.nextOut)
      this.nextOut++
      // After `--invalid fail` stopped the run, later blocks are neither counted nor written.
      const stopped = this.totals.stats.stopped
      if (!stopped) this.totals.add(r.stats, r.input)
      // Copied into the writer's own blocks, so the buffers go back at once.
      if (!stopped) for (const chunk of r.chunks) this.writer.bytes(chunk, 0, chunk.length, false)
      const buffers = new Set(r.chunks.map((c) => c.buffer as ArrayBuffer))
      if (r.slot === undefined) this.localSpares.give(buffers)
      else for (const b of buffers) if (r.slot.spares.length < MAX_SPARES) r.slot.spares.push(b)
      await this.writer.drain()
    }
  }
}
