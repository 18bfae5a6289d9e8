/**
 * `filter --jobs N`: blocks of lines are judged by N worker threads while the
 * main thread reads the input and writes the output.
 *
 * - Order: blocks are numbered as read; each worker sends back its block's
 *   output bytes, and the main thread writes them strictly in number order,
 *   so the output is byte for byte that of `--jobs 1`.
 * - Memory: at most `2 N` blocks are in flight (sent and not yet written);
 *   the reader waits for a free place, and every write waits while stdout
 *   is full (backpressure), so a slow consumer holds back the whole pipeline
 *   instead of letting output pile up.
 * - Start: an input that fits in one block is judged in the main thread; the
 *   workers are started at the first block that is not the last, which the
 *   main thread judges while they start.
 * - Blocks travel without a copy (their ArrayBuffers are transferred), so
 *   are the workers' output buffers; per-host rules are shared: the
 *   directory's index and a bundle's bytes live on SharedArrayBuffers. Each
 *   worker keeps its own cache of compiled matchers (`--cache-mb` is shared
 *   out between them).
 */
import { Worker } from 'node:worker_threads'
import type { BlockWriter } from './block-writer.js'
import { CliError } from './errors.js'
import type { HostTally } from './host-tally.js'
import type { JudgeSpec } from './judge-spec.js'
import type { LineBlock } from './line-blocks.js'
import type { BlockRunner, InlineRunner } from './runner.js'
import { addStats, type FilterStats } from './stats.js'
import type { FromWorker, ResultMessage, ToWorker } from './worker-protocol.js'

/** Blocks in flight per worker. */
const PER_WORKER = 2

/** Output buffers kept per worker for reuse. */
const MAX_SPARES = 4

/** Smallest buffer worth transferring rather than copying (Node's pooled small Buffers must never be). */
const TRANSFER_MIN = 1 << 16

interface Slot {
  readonly worker: Worker
  inflight: number
  /** Its output buffers, written out and waiting to be handed back. */
  spares: ArrayBuffer[]
  done?: (registers: Uint8Array | undefined, overflowed: boolean) => void
}

/** Judges blocks in worker threads (see the module comment). */
export class ParallelRunner implements BlockRunner {
  private slots: Slot[] = []
  private started = false
  private seq = 0
  /** The next block number to write. */
  private nextOut = 0
  private inflight = 0
  private readonly results = new Map<number, { result: ResultMessage; slot: Slot }>()
  private wake: (() => void) | undefined
  private failure: Error | undefined

  constructor(
    private readonly spec: JudgeSpec,
    private readonly jobs: number,
    private readonly inline: InlineRunner,
    private readonly writer: BlockWriter,
    private readonly stats: FilterStats,
    private readonly tally: HostTally | undefined,
    private readonly workerUrl: URL,
  ) {}

  async submit(block: LineBlock, terminateLast: boolean): Promise<void> {
    if (!this.started) {
      if (!block.last) this.start()
      // Judged here while the workers start (or the whole input, when it is one block per file).
      this.inline.judgeNow(block, terminateLast)
      this.seq++
      this.nextOut++
      if (block.pause) this.writer.flush()
      await this.writer.drain()
      return
    }
    for (;;) {
      await this.writeReady()
      if (this.inflight < this.jobs * PER_WORKER) break
      await this.next()
    }
    let slot = this.slots[0]
    for (const s of this.slots) if (s.inflight < slot.inflight) slot = s
    const bytes = this.movable(block)
    slot.inflight++
    this.inflight++
    const spares = slot.spares
    slot.spares = []
    const transfer = bytes.buffer.byteLength >= TRANSFER_MIN ? [bytes.buffer as ArrayBuffer, ...spares] : spares
    this.post(slot, { type: 'block', seq: this.seq++, bytes, terminateLast, spares }, transfer)
    await this.writeReady()
    if (block.pause) await this.flush()
  }

  async flush(): Promise<void> {
    for (;;) {
      await this.writeReady()
      if (this.inflight === 0) break
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

  private start(): void {
    this.started = true
    for (let i = 0; i < this.jobs; i++) {
      const worker = new Worker(this.workerUrl, { workerData: this.spec })
      const slot: Slot = { worker, inflight: 0, spares: [] }
      worker.on('message', (m: FromWorker) => this.receive(slot, m))
      worker.on('error', (err) => this.fail(new CliError('ERR_WORKER', `a worker thread failed: ${err.message}`)))
      worker.on('exit', (code) => {
        if (this.slots.includes(slot) && slot.done === undefined) this.fail(new CliError('ERR_WORKER', `a worker thread exited early (code ${code})`))
      })
      this.slots.push(slot)
    }
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
      slot.done?.(m.registers, m.overflowed)
      return
    }
    slot.inflight--
    this.results.set(m.seq, { result: m, slot })
    const tally = this.tally
    if (tally !== undefined) {
      for (const e of m.events) tally.entry(e)
      tally.noHost += m.noHost
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

  /** Writes the results that are next in order, waiting while stdout is full. */
  private async writeReady(): Promise<void> {
    for (let r = this.results.get(this.nextOut); r !== undefined; r = this.results.get(this.nextOut)) {
      this.results.delete(this.nextOut)
      this.nextOut++
      this.inflight--
      addStats(this.stats, r.result.stats)
      // Copied into the writer's own blocks, so the worker's buffers go back to it at once.
      for (const chunk of r.result.chunks) {
        this.writer.bytes(chunk, 0, chunk.length, false)
        const b = chunk.buffer as ArrayBuffer
        if (r.slot.spares.length < MAX_SPARES && !r.slot.spares.includes(b)) r.slot.spares.push(b)
      }
      await this.writer.drain()
    }
  }
}
