/**
 * `--batch 'COMMAND'`: one long-running process (`sh -c COMMAND`) answering
 * JSON requests, one per line, with up to `--window` in flight, matched by
 * id. The process leads a process group of its own, killed whole when the
 * run ends, stalls, breaks the protocol or is interrupted, and when the
 * adapter exits: nothing it started outlives it. The protocol, the stall
 * timeout and what is timed: docs/compare-reference.md, "--batch".
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { childProcess } from '../../tools/built-ins.js'
import { agentField, robotsFields } from '../case.js'
import { AdapterFailure, describeRequest, STDERR_KEPT, stderrLines, type Adapter, type AdapterTimings, type Answer, type OnAnswer, type Request } from './adapter.js'
import { BodyFiles, DEFAULT_CAPACITY } from './body-files.js'
import { killGroup, localSpawnFailure, trackGroup } from './process-group.js'
import { plural } from '../format.js'
import { describeSystemError, type CompareError } from '../compare-error.js'

/** How long a closing adapter may take to exit after its stdin closed (ms) before its group is killed. */
const EXIT_GRACE_MS = 2000
/** How long the pipes may stay open after the group was killed (a process that left the group may hold them; ms). */
const PIPE_GRACE_MS = 500

/** Characters of request lines gathered into one write at most. */
const CHUNK_CHARS = 1 << 20
/** Bytes of requests waiting in the adapter's stdin past which no more are sent until it drains (one request always goes). */
const QUEUED_MAX = 1 << 24

/** Options of the batch adapter. */
export interface BatchOptions {
  /** The command, run by `sh -c`. */
  readonly command: string
  /** A program and its arguments, run without a shell instead of `command` (the harness's own null adapter). */
  readonly argv?: readonly string[]
  /** How the body travels: a file's path (`robots_path`), or in the request (`robots` / `robots_base64`). */
  readonly robotsVia: 'path' | 'inline'
  readonly multiAgent: boolean
  /** Requests in flight at most. */
  readonly window: number
  /** Longest stall (ms): requests in flight and no answer at all for this long stops the run. */
  readonly timeoutMs: number
}

interface Pending {
  readonly request: Request
  readonly settle: (answer: Answer, ms: number) => void
  readonly sentAt: number
}

/** The batch adapter. */
export class BatchAdapter implements Adapter {
  readonly kind = 'batch'
  readonly description: string
  readonly multiAgent: boolean
  private child: ChildProcessWithoutNullStreams | undefined
  private readonly files: BodyFiles
  private readonly inline = new WeakMap<Uint8Array, string>()
  /** Requests in flight by id, oldest first. */
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private answers = 0
  private lastAnswerAt = 0
  /** When the adapter last showed progress: its last answer, or a request sent while none was in flight. */
  private progressAt = 0
  private startupMs: number | undefined
  private stderrTail = ''
  private partial = ''
  private failure: CompareError | undefined
  private onFailure: ((err: CompareError) => void) | undefined
  private closing = false
  private watchdog: NodeJS.Timeout | undefined
  /** Settles when the adapter's process exits (not waiting for its pipes). */
  private exited: Promise<void> = Promise.resolve()
  /** Settles when its pipes are closed. */
  private closedPipes: Promise<void> = Promise.resolve()

  constructor(readonly options: BatchOptions) {
    this.description = `--batch ${options.command}`
    this.multiAgent = options.multiAgent
    this.files = new BodyFiles(Math.max(DEFAULT_CAPACITY, 4 * options.window))
  }

  async start(): Promise<void> {
    const [program, args] = this.options.argv ? [this.options.argv[0], this.options.argv.slice(1)] : ['/bin/sh', ['-c', this.options.command]]
    const child = childProcess().spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    trackGroup(child)
    this.child = child
    this.exited = new Promise((resolve) => {
      child.once('exit', () => resolve())
      child.once('error', () => resolve())
    })
    this.closedPipes = new Promise((resolve) => {
      child.once('close', () => resolve())
      child.once('error', () => resolve())
    })
    // When the adapter exits, what it started goes with it (and lets go of the pipes, so that its last answers are read);
    // a process that left the group may hold them still: past a grace they are let go of, so the exit stops the run.
    child.once('exit', () => {
      killGroup(child)
      setTimeout(() => {
        child.stdout?.destroy()
        child.stderr?.destroy()
      }, PIPE_GRACE_MS).unref()
    })
    // No pipes when the spawn failed for want of descriptors: the error below says so.
    child.stdout?.setEncoding('utf8')
    child.stderr?.setEncoding('utf8')
    child.stdout?.on('data', (s: string) => this.received(s))
    child.stderr?.on('data', (s: string) => {
      this.stderrTail = (this.stderrTail + s).slice(-STDERR_KEPT)
    })
    child.stdin?.on('error', () => {}) // a closed pipe shows up as the exit below
    // An adapter that closes its stdout and runs on can answer nothing more: said at once, not as a stall --timeout later.
    child.stdout?.once('end', () => {
      setTimeout(() => {
        if (this.closing || child.exitCode !== null || child.signalCode !== null) return // its exit says more
        const oldest = this.pending.values().next()
        const waiting = oldest.done ? '' : `; the oldest unanswered: ${this.describe(oldest.value)}`
        this.fail(`the adapter closed its stdout after ${plural(this.answers, 'answer')} and runs on, with ${plural(this.pending.size, 'request')} unanswered${waiting}`)
        killGroup(child)
      }, PIPE_GRACE_MS).unref()
    })
    // This machine's limits (descriptors, processes) fail the run as the harness's, not as the implementation's.
    child.on('error', (err) => this.fail(`cannot start '${this.options.command}': ${describeSystemError(err)}`, localSpawnFailure(err, `'${this.options.command}'`)))
    child.on('close', (status, signal) => {
      if (this.closing) return
      const how = signal ? `was killed by ${signal}` : `exited with status ${status}`
      const oldest = this.pending.values().next()
      const waiting = oldest.done ? '' : `; the oldest unanswered: ${this.describe(oldest.value)}`
      // An answer cut short by the exit is shown, never read as one, nor dropped in silence.
      const cut = this.partial.trim() !== '' ? `, in the middle of an answer (its stdout ends with ${JSON.stringify(this.partial.slice(0, 120))}${this.partial.length > 120 ? '…' : ''} and no line end)` : ''
      this.fail(`the adapter ${how} after ${plural(this.answers, 'answer')}${cut}, with ${plural(this.pending.size, 'request')} unanswered${waiting}`)
    })
    this.watchdog = setInterval(() => this.checkStall(), Math.min(250, this.options.timeoutMs))
    this.watchdog.unref()
    const t0 = performance.now()
    await this.judge({ robots: new Uint8Array(0), agents: ['ExampleBot'], url: '/', source: '(empty: the start-up probe)' })
    this.startupMs = performance.now() - t0
    this.answers = 0
  }

  judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    if (requests.length === 0) return Promise.resolve()
    return new Promise((resolve, reject) => {
      let sent = 0
      let done = 0
      const window = this.options.window
      const stdin = this.child!.stdin
      let draining = false
      const pump = (): void => {
        if (this.failure) return
        let chunk = ''
        try {
          while (sent < requests.length && this.pending.size < window) {
            // Large bodies sent inline: no more than about QUEUED_MAX waits in the pipe; the rest follows as it drains.
            if (this.pending.size > 0 && (stdin?.writableLength ?? 0) + chunk.length > QUEUED_MAX) {
              if (!draining && stdin) {
                draining = true
                stdin.once('drain', () => {
                  draining = false
                  pump()
                })
              }
              break
            }
            const index = sent++
            chunk += this.register(requests[index], (answer, ms) => {
              onAnswer(index, answer, ms)
              // After the answers read with it: a bad line that came with the last answer fails the run still.
              if (++done === requests.length) queueMicrotask(() => (this.failure ? reject(this.failure) : resolve()))
              else if (this.pending.size <= window >> 1) pump()
            })
            // Written in pieces: a window of large bodies would make a string longer than a string can be.
            if (chunk.length >= CHUNK_CHARS) {
              stdin?.write(chunk)
              chunk = ''
            }
          }
        } catch (err) {
          // This machine's failure (a body file not written, called from an answer's handler): the run's error.
          return reject(err)
        }
        if (chunk) stdin?.write(chunk)
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
      this.child!.stdin?.write(this.register(request, (answer) => resolve(answer)))
    })
  }

  timings(): AdapterTimings {
    return { startupMs: this.startupMs, caseTime: 'adapter time per answer (answers read together share the time since the previous read)' }
  }

  async close(): Promise<void> {
    this.closing = true
    if (this.watchdog) clearInterval(this.watchdog)
    const child = this.child
    if (child) {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end()
        const timer = setTimeout(() => killGroup(child), this.failure ? 0 : EXIT_GRACE_MS)
        await this.exited
        clearTimeout(timer)
      }
      killGroup(child)
      const stuck = setTimeout(() => {
        child.stdout?.destroy()
        child.stderr?.destroy()
      }, PIPE_GRACE_MS)
      await Promise.race([this.closedPipes, new Promise<void>((r) => setTimeout(r, PIPE_GRACE_MS + 100).unref())])
      clearTimeout(stuck)
    }
    this.files.remove()
    this.fail('the run was stopped')
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
    const now = performance.now()
    if (this.pending.size === 0) this.progressAt = now
    this.pending.set(id, { request, settle, sentAt: now })
    return `{"id":${id},${body},"agent":${JSON.stringify(agentField(request.agents))},"url":${JSON.stringify(request.url)}}\n`
  }

  private received(text: string): void {
    if (this.failure) return
    let data = this.partial + text
    const settled: [Pending, Answer][] = []
    let nl: number
    let bad: string | undefined
    while ((nl = data.indexOf('\n')) >= 0) {
      const line = data.slice(0, nl)
      data = data.slice(nl + 1)
      if (line.trim() === '') continue
      const a = this.parseAnswer(line)
      // The answers read before a bad line still count.
      if (typeof a === 'string') {
        bad = a
        break
      }
      settled.push(a)
    }
    this.partial = data
    if (bad === undefined && this.partial.length > 1 << 20) bad = 'an answer line longer than 1 MiB'
    if (settled.length === 0) return void (bad !== undefined && this.fail(bad))
    const now = performance.now()
    let earliest = Infinity
    for (const [p] of settled) earliest = Math.min(earliest, p.sentAt)
    const ms = (now - Math.max(this.lastAnswerAt, earliest)) / settled.length
    this.lastAnswerAt = now
    this.progressAt = now
    for (const [p, answer] of settled) {
      p.settle(answer, ms)
      // The time the run spends on an answer is not the adapter's silence.
      this.progressAt = performance.now()
    }
    if (bad !== undefined) this.fail(bad)
  }

  /** Validates one answer line and takes its request out of flight; else what is wrong with it. */
  private parseAnswer(line: string): [Pending, Answer] | string {
    const shown = JSON.stringify(line.length > 120 ? line.slice(0, 120) + '…' : line)
    const n = this.answers + 1
    let o: unknown
    try {
      o = JSON.parse(line)
    } catch {
      return `answer ${n} is not JSON: ${shown}`
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return `answer ${n} is not a JSON object: ${shown}`
    const r = o as Record<string, unknown>
    // The id as sent (an integer), or as a string of its digits (adapters in typed languages may keep ids as strings).
    const id = typeof r.id === 'number' ? r.id : typeof r.id === 'string' && /^[0-9]{1,15}$/.test(r.id) ? Number(r.id) : NaN
    const pending = this.pending.get(id)
    if (pending === undefined) {
      return (
        `answer ${n} has an id that matches no request in flight: ${shown} (every answer gives back its request's id, ` +
        `a request the adapter could not read included: {"id": …, "error": "…"})`
      )
    }
    const bad = (what: string): string => `answer ${n} ${what}: ${shown}, to ${this.describe(pending)}`
    let answer: Answer
    // A copy: a slice of the chunk read would keep the whole chunk alive with a kept disagreement.
    const evidence = { raw: Buffer.from(line.length > 4096 ? `${line.slice(0, 4096)}…` : line, 'utf8').toString('utf8') }
    if (typeof r.error === 'string') answer = { error: r.error, evidence }
    else if (typeof r.allowed !== 'boolean') return bad('has no boolean "allowed" (nor an "error" string)')
    else if (r.line === undefined || r.line === null) answer = { allowed: r.allowed, evidence }
    // A safe integer: past 2^53 JSON's number is another one than the adapter wrote, which every report would show.
    else if (!Number.isSafeInteger(r.line) || (r.line as number) < -1) return bad('has a "line" that is not a whole number ≥ 0 (or -1 for none) or null')
    else answer = { allowed: r.allowed, line: r.line as number, evidence }
    this.pending.delete(id)
    this.answers++
    return [pending, answer]
  }

  /** A request in flight as messages name it. */
  private describe(p: Pending): string {
    return describeRequest(p.request)
  }

  /** Fails the run when requests are in flight and no answer at all came for --timeout ms. */
  private checkStall(): void {
    const oldest = this.pending.values().next()
    if (oldest.done || this.failure) return
    const quiet = performance.now() - this.progressAt
    if (quiet <= this.options.timeoutMs) return
    this.fail(
      `no answer at all for ${Math.round(quiet)} ms (--timeout ${this.options.timeoutMs}) after ${plural(this.answers, 'answer')}, ` +
        `${plural(this.pending.size, 'request')} in flight; the oldest: ${this.describe(oldest.value)}` +
        (this.partial ? `; its stdout ends with a line not ended by \\n: ${JSON.stringify(this.partial.slice(0, 120))}` : ''),
    )
    if (this.child) killGroup(this.child)
  }

  private fail(message: string, local?: CompareError): undefined {
    if (this.failure) return undefined
    const tail = stderrLines(this.stderrTail)
    this.failure = local ?? new AdapterFailure(`--batch: ${message}${tail ? `; its stderr ended with: ${tail}` : ''}`, this.stderrTail)
    if (this.watchdog) clearInterval(this.watchdog)
    this.onFailure?.(this.failure)
    return undefined
  }
}
