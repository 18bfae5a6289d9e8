/**
 * `--batch 'COMMAND'`: one long-running process (started with `sh -c
 * COMMAND`) answering JSON requests, one per line, so that 100,000 cases take
 * seconds.
 *
 * Protocol (UTF-8, one JSON object per line, `\n` after each):
 *
 *     → {"id": 1, "robots_path": "/tmp/robots-compare-x/3f….txt", "agent": "Googlebot", "url": "https://example.com/a"}
 *     ← {"id": 1, "allowed": false, "line": 3}
 *
 * - `id`: an integer, unique per process; answers may come in any order and
 *   are matched by id (given back as a number, or as a string of its digits).
 * - The body: `robots_path` (default, `--batch-robots path`): a file holding
 *   its exact bytes, the same path for the same body (cache parses by path);
 *   or with `--batch-robots inline`, `robots` (a string: the body is its
 *   UTF-8) when the bytes are valid UTF-8, else `robots_base64`.
 * - `agent`: a product token; an array of tokens for a crawler answering to
 *   several (only with `--multi-agent`; otherwise such cases are skipped).
 * - `url`: the URL as given (judge it as the reference does: a full URL or a
 *   path).
 * - The answer: `allowed` (true/false), optional `line` (the deciding rule's
 *   line, 1-based, 0 or null for none; checked when given), or `error` (a
 *   message: the case counts as an error, the run goes on).
 *
 * Up to `--window` requests are in flight. A malformed answer (not JSON, an
 * unknown id, `allowed` not a boolean), the process exiting early, or no
 * answer within `--timeout` ms of a request stop the run with an error that
 * says which; nothing hangs.
 *
 * Timing: before the cases, one request on an empty robots.txt is sent alone;
 * the time to its answer is the start-up (process, runtime, libraries),
 * reported apart. Per-case time is the adapter's time per answer: answers
 * that arrive together (one read) share the time since the previous read or
 * since the earliest of their requests was sent, whichever is later. With a
 * window of 1 it is the round trip of each request.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { CliError, describeSystemError } from '../../internals.js'
import { agentField, robotsFields } from '../case.js'
import type { Adapter, AdapterTimings, Answer, OnAnswer, Request } from './adapter.js'
import { BodyFiles, DEFAULT_CAPACITY } from './body-files.js'

/** Options of the batch adapter. */
export interface BatchOptions {
  readonly command: string
  readonly robotsVia: 'path' | 'inline'
  readonly multiAgent: boolean
  /** Requests in flight at most. */
  readonly window: number
  /** Longest wait for an answer (ms). */
  readonly timeoutMs: number
}

interface Pending {
  readonly sentAt: number
  readonly settle: (answer: Answer, ms: number) => void
}

/** The batch adapter. */
export class BatchAdapter implements Adapter {
  readonly kind = 'batch'
  readonly description: string
  readonly multiAgent: boolean
  private child: ChildProcessWithoutNullStreams | undefined
  private readonly files: BodyFiles
  private readonly inline = new WeakMap<Uint8Array, string>()
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private answers = 0
  private lastAnswerAt = 0
  private startupMs: number | undefined
  private stderrTail = ''
  private partial = ''
  private failure: CliError | undefined
  private onFailure: ((err: CliError) => void) | undefined
  private closing = false
  private watchdog: NodeJS.Timeout | undefined
  private exited: Promise<void> = Promise.resolve()

  constructor(private readonly options: BatchOptions) {
    this.description = `--batch ${options.command}`
    this.multiAgent = options.multiAgent
    this.files = new BodyFiles(Math.max(DEFAULT_CAPACITY, 4 * options.window))
  }

  async start(): Promise<void> {
    const child = spawn('/bin/sh', ['-c', this.options.command], { stdio: ['pipe', 'pipe', 'pipe'] })
    this.child = child
    this.exited = new Promise((resolve) => child.once('close', () => resolve()))
    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (s: string) => this.received(s))
    child.stderr.on('data', (s: string) => {
      this.stderrTail = (this.stderrTail + s).slice(-2048)
    })
    child.stdin.on('error', () => {}) // a closed pipe shows up as the exit below
    child.on('error', (err) => this.fail(`cannot start '${this.options.command}': ${describeSystemError(err)}`))
    child.on('close', (status, signal) => {
      if (this.closing && this.pending.size === 0) return
      const how = signal ? `was killed by ${signal}` : `exited with status ${status}`
      this.fail(`the adapter ${how} after ${this.answers} answers, with ${this.pending.size} requests unanswered`)
    })
    this.watchdog = setInterval(() => this.checkTimeout(), Math.min(250, this.options.timeoutMs))
    this.watchdog.unref()
    const t0 = performance.now()
    await this.judge({ robots: new Uint8Array(0), agents: ['ExampleBot'], url: '/' })
    this.startupMs = performance.now() - t0
  }

  judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    if (requests.length === 0) return Promise.resolve()
    return new Promise((resolve, reject) => {
      let sent = 0
      let done = 0
      const window = this.options.window
      const pump = (): void => {
        if (this.failure) return
        let chunk = ''
        while (sent < requests.length && this.pending.size < window) {
          const index = sent++
          chunk += this.register(requests[index], (answer, ms) => {
            onAnswer(index, answer, ms)
            if (++done === requests.length) resolve()
            else if (this.pending.size <= window >> 1) pump()
          })
        }
        if (chunk) this.child!.stdin.write(chunk)
      }
      this.onFailure = reject
      if (this.failure) reject(this.failure)
      else pump()
    })
  }

  judge(request: Request): Promise<Answer> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure)
      this.onFailure = reject
      this.child!.stdin.write(this.register(request, (answer) => resolve(answer)))
    })
  }

  timings(): AdapterTimings {
    return { startupMs: this.startupMs, caseTime: 'adapter time per answer (answers read together share the time since the previous read)' }
  }

  async close(): Promise<void> {
    this.closing = true
    if (this.watchdog) clearInterval(this.watchdog)
    const child = this.child
    if (child && child.exitCode === null && child.signalCode === null) {
      child.stdin.end()
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
      await this.exited
      clearTimeout(timer)
    }
    this.files.remove()
  }

  /** Records a request and returns its line. */
  private register(request: Request, settle: (answer: Answer, ms: number) => void): string {
    const id = this.nextId++
    let body: string
    if (this.options.robotsVia === 'path') body = `"robots_path":${JSON.stringify(this.files.path(request.robots))}`
    else {
      let b = this.inline.get(request.robots)
      if (b === undefined) {
        b = JSON.stringify(robotsFields(request.robots)).slice(1, -1)
        this.inline.set(request.robots, b)
      }
      body = b
    }
    this.pending.set(id, { sentAt: performance.now(), settle })
    return `{"id":${id},${body},"agent":${JSON.stringify(agentField(request.agents))},"url":${JSON.stringify(request.url)}}\n`
  }

  private received(text: string): void {
    let data = this.partial + text
    const settled: [Pending, Answer][] = []
    let nl: number
    while ((nl = data.indexOf('\n')) >= 0) {
      const line = data.slice(0, nl)
      data = data.slice(nl + 1)
      if (line.trim() === '') continue
      const a = this.parseAnswer(line)
      if (a === undefined) return
      settled.push(a)
    }
    this.partial = data
    if (this.partial.length > 1 << 20) return this.fail('an answer line longer than 1 MiB')
    if (settled.length === 0) return
    const now = performance.now()
    let from = this.lastAnswerAt
    let earliest = Infinity
    for (const [p] of settled) earliest = Math.min(earliest, p.sentAt)
    from = Math.max(from, earliest)
    const ms = (now - from) / settled.length
    this.lastAnswerAt = now
    for (const [p, answer] of settled) p.settle(answer, ms)
  }

  /** Validates one answer line and takes its request out of flight; undefined after a failure. */
  private parseAnswer(line: string): [Pending, Answer] | undefined {
    const shown = JSON.stringify(line.length > 120 ? line.slice(0, 120) + '…' : line)
    const n = this.answers + 1
    let o: unknown
    try {
      o = JSON.parse(line)
    } catch {
      return this.fail(`answer ${n} is not JSON: ${shown}`)
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return this.fail(`answer ${n} is not a JSON object: ${shown}`)
    const r = o as Record<string, unknown>
    // The id as sent (an integer), or as a string of its digits (adapters in typed languages may keep ids as strings).
    const id = typeof r.id === 'number' ? r.id : typeof r.id === 'string' && /^[0-9]{1,15}$/.test(r.id) ? Number(r.id) : NaN
    const pending = this.pending.get(id)
    if (pending === undefined) return this.fail(`answer ${n} has an id that matches no request in flight: ${shown}`)
    let answer: Answer
    if (typeof r.error === 'string') answer = { error: r.error }
    else if (typeof r.allowed !== 'boolean') return this.fail(`answer ${n} has no boolean "allowed" (nor an "error" string): ${shown}`)
    else if (r.line === undefined || r.line === null) answer = { allowed: r.allowed }
    else if (!Number.isInteger(r.line) || (r.line as number) < 0) return this.fail(`answer ${n}: "line" must be a whole number ≥ 0 or null: ${shown}`)
    else answer = { allowed: r.allowed, line: r.line as number }
    this.pending.delete(id)
    this.answers++
    return [pending, answer]
  }

  private checkTimeout(): void {
    const oldest = this.pending.entries().next()
    if (oldest.done) return
    const [id, p] = oldest.value
    if (performance.now() - p.sentAt > this.options.timeoutMs) {
      this.fail(`no answer to request ${id} within ${this.options.timeoutMs} ms (--timeout)`)
      this.child?.kill('SIGKILL')
    }
  }

  private fail(message: string): undefined {
    if (this.failure) return undefined
    const stderr = this.stderrTail.trim().split('\n').slice(-3).join(' | ')
    this.failure = new CliError('ERR_ADAPTER', `--batch: ${message}${stderr ? `; its stderr ended with: ${stderr.slice(-400)}` : ''}`)
    if (this.watchdog) clearInterval(this.watchdog)
    this.onFailure?.(this.failure)
    return undefined
  }
}
