/**
 * `--module ./adapter.mjs`: a JavaScript implementation judged in a thread
 * of this process (module-thread.ts), for timing JS libraries without process
 * overhead. The module exports `parse(bytes)` returning `{ isAllowed(url,
 * agent), matchingLine?(url, agent) }` (values or promises); each distinct
 * body is parsed once, timed apart. The details: docs/compare-reference.md,
 * "--cmd and --module".
 */
import { statSync } from 'node:fs'
import type { MessagePort, Worker } from 'node:worker_threads'
import { workerThreads } from '../../tools/built-ins.js'
import { AdapterFailure, describeRequest, type Adapter, type AdapterTimings, type Answer, type OnAnswer, type Request } from './adapter.js'
import { killOwnChildren } from './process-group.js'
import { keepBody, type FromModule, type ModuleRequest } from './module-protocol.js'

/** Options of the module adapter. */
export interface ModuleOptions {
  readonly path: string
  readonly multiAgent: boolean
  /** Longest wait for a call, or a promise, of the module (ms): past it the run stops. */
  readonly timeoutMs: number
  /** The thread's script (dist/compare-module.js). */
  readonly thread: URL
}

/** Requests sent to the thread at a time; at most two batches are on their way. */
const BATCH = 256
/** What a call past --timeout is given more before the thread is stopped (its own time-out names a promise first). */
const GRACE_MS = 1000

/** The module adapter. */
export class ModuleAdapter implements Adapter {
  readonly kind = 'module'
  readonly description: string
  readonly multiAgent: boolean
  private worker: Worker | undefined
  /** The harness's end of the channel to the thread (the thread's parentPort is the module's to use). */
  private port: MessagePort | undefined
  private progress = new Int32Array(new SharedArrayBuffer(4))
  /** Numbers of the bodies sent, and which of them the thread holds (keepBody's steps, as the thread takes them). */
  private readonly ids = new WeakMap<Uint8Array, number>()
  private readonly held = new Map<number, true>()
  private nextBody = 1
  private seq = 0
  private readonly parseMs: number[] = []
  /** What the thread said or did, for the run under way (ready, answers, a stop). */
  private listener: ((m: FromModule) => void) | undefined
  private failure: AdapterFailure | undefined
  /** One run at a time. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: ModuleOptions) {
    this.description = `--module ${options.path}`
    this.multiAgent = options.multiAgent
  }

  async start(): Promise<void> {
    // Node's loader reads a device (/dev/zero) or a FIFO without end: only a regular file is imported.
    const st = statSync(this.options.path, { throwIfNoEntry: false })
    if (st && !st.isFile() && !st.isDirectory()) throw new AdapterFailure(`--module: cannot import '${this.options.path}': not a regular file`)
    // Its own thread: a call that never returns can be stopped, and what the module prints, or its process.exit, stays apart from compare's.
    // A channel of its own: a module that posts to its thread's parentPort (a library written for workers) does not speak for the harness.
    const { port1, port2 } = new (workerThreads().MessageChannel)()
    const workerData = { path: this.options.path, timeoutMs: this.options.timeoutMs, progress: this.progress.buffer, port: port2 }
    const worker = new (workerThreads().Worker)(this.options.thread, { workerData, transferList: [port2], stdout: true })
    this.worker = worker
    this.port = port1
    worker.stdout.pipe(process.stderr, { end: false })
    port1.on('message', (m: FromModule) => this.listener?.(m))
    worker.on('error', (err) => this.fail(`--module: ${this.options.path} threw outside a call: ${err.message}`))
    // Node ends a thread whose module's top-level await never settles with status 13.
    worker.on('exit', (code) => this.fail(`--module: ${this.options.path} ended its thread (exit status ${code}${code === 13 ? ': its top-level await never settled' : ''}) during the run`))
    await this.run(undefined)
  }

  judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    return this.run({ requests, onAnswer, recording: true })
  }

  async judge(request: Request): Promise<Answer> {
    let answer: Answer | undefined
    await this.run({ requests: [request], onAnswer: (_i, a) => (answer = a), recording: false })
    return answer!
  }

  timings(): AdapterTimings {
    return { parseMs: this.parseMs, caseTime: 'isAllowed (and matchingLine) per case, in the module\'s thread; parse timed apart per body' }
  }

  async close(): Promise<void> {
    this.fail('--module: the run was stopped')
    await this.worker?.terminate()
    this.port?.close()
  }

  /** Stops the run under way (and every later one) with `message`. */
  private fail(message: string): void {
    if (this.failure !== undefined) return
    this.failure = new AdapterFailure(message)
    this.listener?.({ t: 'stop', message })
    // A thread blocked waiting for a process it started (execSync) stops only once that process is gone.
    if (this.worker !== undefined) killOwnChildren()
    void this.worker?.terminate()
  }

  /** Sends the requests in batches and hands each answer on, in order; or waits for the thread to be ready. */
  private run(job: { requests: readonly Request[]; onAnswer: OnAnswer; recording: boolean } | undefined): Promise<void> {
    const next = this.queue.then(
      () =>
        new Promise<void>((resolve, reject) => {
          if (this.failure !== undefined) return reject(this.failure)
          const requests = job?.requests ?? []
          const base = this.seq
          let sent = 0
          let answered = 0
          const send = (): void => {
            const batch: ModuleRequest[] = []
            for (; sent < requests.length && batch.length < BATCH; sent++) batch.push(this.message(requests[sent], base + sent))
            if (batch.length > 0) this.port!.postMessage({ requests: batch })
          }
          let seen = -1
          let since = performance.now()
          const watch = setInterval(() => {
            const now = performance.now()
            const at = Atomics.load(this.progress, 0)
            if (at !== seen) [seen, since] = [at, now]
            else if (now - since > this.options.timeoutMs + GRACE_MS) {
              const r = requests[at - base]
              const what = job === undefined ? `importing '${this.options.path}'` : `a call${r === undefined ? '' : ` for ${describeRequest(r)}`}`
              this.fail(`--module: ${what} did not return within ${this.options.timeoutMs} ms (--timeout)`)
            }
          }, Math.min(1000, this.options.timeoutMs))
          const done = (err?: AdapterFailure): void => {
            clearInterval(watch)
            this.listener = undefined
            if (err === undefined) resolve()
            else reject(err)
          }
          this.listener = (m) => {
            if (m.t === 'stop') {
              const r = m.seq === undefined ? undefined : requests[m.seq - base]
              if (this.failure === undefined) this.fail(`--module: ${m.message}${r === undefined ? '' : ` for ${describeRequest(r)}`}`)
              return done(this.failure)
            }
            if (m.t === 'ready') return done()
            for (const [s, answer, ms, parseMs] of m.answers) {
              if (parseMs !== undefined && job!.recording) this.parseMs.push(parseMs)
              job!.onAnswer(s - base, answer, ms)
              answered++
            }
            if (answered === requests.length) return done()
            if (sent - answered <= BATCH) send()
          }
          if (job !== undefined) {
            this.seq += requests.length
            send()
            send()
            if (requests.length === 0) done()
          }
        }),
    )
    this.queue = next.catch(() => {})
    return next
  }

  /** A request as the thread gets it: the body's bytes only when the thread does not hold them. */
  private message(r: Request, seq: number): ModuleRequest {
    let id = this.ids.get(r.robots)
    if (id === undefined) this.ids.set(r.robots, (id = this.nextBody++))
    const held = this.held.has(id)
    keepBody(this.held, id, () => true)
    const agent = r.agents.length === 1 ? r.agents[0] : [...r.agents]
    return { seq, body: id, bytes: held ? undefined : r.robots, url: r.url, agent }
  }
}
