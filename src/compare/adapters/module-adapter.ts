/**
 * `--module ./adapter.mjs`: a JavaScript implementation judged in this
 * process, for timing JS libraries without process overhead. The module
 * exports `parse(bytes)` returning `{ isAllowed(url, agent), matchingLine?(url,
 * agent) }` (values or promises); each distinct body is parsed once, timed
 * apart. The details: docs/compare-reference.md, "--cmd and --module".
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { AdapterFailure, describeRequest, type Adapter, type AdapterTimings, type Answer, type OnAnswer, type Request } from './adapter.js'

/** What `parse` returns. */
interface Parsed {
  isAllowed(url: string, agent: string | string[]): unknown
  matchingLine?(url: string, agent: string | string[]): unknown
}

/** Options of the module adapter. */
export interface ModuleOptions {
  readonly path: string
  readonly multiAgent: boolean
  /** Longest wait for a promise the module returns (ms): past it the run stops. */
  readonly timeoutMs: number
}

/** Parsed bodies kept (least recently used dropped first). */
const KEPT = 256

/** The module adapter. */
export class ModuleAdapter implements Adapter {
  readonly kind = 'module'
  readonly description: string
  readonly multiAgent: boolean
  private parseFn: ((bytes: Uint8Array) => unknown) | undefined
  private readonly parsed = new Map<Uint8Array, { impl?: Parsed; error?: string }>()
  private readonly parseMs: number[] = []
  /** Parse times are recorded during judgeAll only (not for minimisation's candidates). */
  private recording = false
  private closed = false

  constructor(private readonly options: ModuleOptions) {
    this.description = `--module ${options.path}`
    this.multiAgent = options.multiAgent
  }

  /** A module that ends the process (`process.exit`) fails the run: never the exit status of a run that passed. */
  private readonly onExit = (code: number): void => {
    // 130 and 143: compare's own exit at a second interrupt.
    if (code === 130 || code === 143) return
    process.exitCode = 4
    process.stderr.write(`robots-automaton: --module: ${this.options.path} ended the process (exit status ${code}) during the run: no verdict, no report (exit 4)\n`)
  }

  async start(): Promise<void> {
    process.on('exit', this.onExit)
    let mod: Record<string, unknown>
    try {
      // Node's loader reads a device (/dev/zero) or a FIFO without end: only a regular file is imported.
      const st = statSync(this.options.path, { throwIfNoEntry: false })
      if (st && !st.isFile() && !st.isDirectory()) throw new Error('not a regular file')
      mod = (await import(pathToFileURL(resolve(this.options.path)).href)) as Record<string, unknown>
    } catch (err) {
      throw new AdapterFailure(`--module: cannot import '${this.options.path}': ${thrownText(err)}`)
    }
    let parse: unknown
    try {
      parse = typeof mod.parse === 'function' ? mod.parse : (mod.default as Record<string, unknown> | undefined)?.parse
    } catch (err) {
      throw new AdapterFailure(`--module: reading parse of '${this.options.path}' threw: ${thrownText(err)}`)
    }
    if (typeof parse !== 'function') throw new AdapterFailure(`--module: '${this.options.path}' exports no parse(bytes) function`)
    this.parseFn = parse as (bytes: Uint8Array) => unknown
  }

  async judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    this.recording = true
    try {
      for (let i = 0; i < requests.length; i++) {
        if (this.closed) throw new AdapterFailure('--module: the run was stopped')
        const t = await this.timed(requests[i])
        onAnswer(i, t.answer, t.ms)
        if ((i & 1023) === 1023) await new Promise((r) => setImmediate(r))
      }
    } finally {
      this.recording = false
    }
  }

  async judge(request: Request): Promise<Answer> {
    return (await this.timed(request)).answer
  }

  timings(): AdapterTimings {
    return { parseMs: this.parseMs, caseTime: 'isAllowed (and matchingLine) per case, in process; parse timed apart per body' }
  }

  async close(): Promise<void> {
    process.removeListener('exit', this.onExit)
    this.closed = true
    this.parsed.clear()
  }

  /** The value of a promise the module returned, or a failure naming the request when it does not settle within --timeout. */
  private settle(value: PromiseLike<unknown>, what: string, request: Request): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined
    const stall = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AdapterFailure(`--module: ${what} did not settle within ${this.options.timeoutMs} ms (--timeout) for ${describeRequest(request)}`)), this.options.timeoutMs)
    })
    return Promise.race([value, stall]).finally(() => clearTimeout(timer))
  }

  private async implFor(request: Request): Promise<{ impl?: Parsed; error?: string }> {
    const bytes = request.robots
    let p = this.parsed.get(bytes)
    if (p !== undefined) {
      this.parsed.delete(bytes)
      this.parsed.set(bytes, p)
      return p
    }
    const t0 = performance.now()
    try {
      let impl = this.parseFn!(bytes)
      if (isThenable(impl)) impl = await this.settle(impl, 'the promise of parse()', request)
      if (typeof impl !== 'object' || impl === null || typeof (impl as Parsed).isAllowed !== 'function') {
        p = { error: 'parse() returned no object with an isAllowed method' }
      } else p = { impl: impl as Parsed }
    } catch (err) {
      if (err instanceof AdapterFailure) throw err
      p = { error: `parse() threw: ${thrownText(err)}` }
    }
    if (this.recording) this.parseMs.push(performance.now() - t0)
    if (this.parsed.size >= KEPT) this.parsed.delete(this.parsed.keys().next().value!)
    this.parsed.set(bytes, p)
    return p
  }

  private async timed(request: Request): Promise<{ answer: Answer; ms: number }> {
    const p = await this.implFor(request)
    if (!p.impl) return { answer: { error: p.error! }, ms: 0 }
    const agent = request.agents.length === 1 ? request.agents[0] : [...request.agents]
    const t0 = performance.now()
    try {
      let allowed = p.impl.isAllowed(request.url, agent)
      if (isThenable(allowed)) allowed = await this.settle(allowed, 'the promise of isAllowed()', request)
      let line: unknown
      if (typeof p.impl.matchingLine === 'function') {
        line = p.impl.matchingLine(request.url, agent)
        if (isThenable(line)) line = await this.settle(line, 'the promise of matchingLine()', request)
      }
      const ms = performance.now() - t0
      const evidence = { raw: `isAllowed: ${describe(allowed)}${typeof p.impl.matchingLine === 'function' ? `; matchingLine: ${describe(line)}` : ''}` }
      if (typeof allowed !== 'boolean') return { answer: { error: `isAllowed returned ${describe(allowed)}, not a boolean`, evidence }, ms }
      if (line === undefined || line === null) return { answer: { allowed, evidence }, ms }
      if (!Number.isInteger(line) || (line as number) < -1) return { answer: { error: `matchingLine returned ${describe(line)}, not a line number ≥ 0 (or -1 for none)`, evidence }, ms }
      return { answer: { allowed, line: line as number, evidence }, ms }
    } catch (err) {
      if (err instanceof AdapterFailure) throw err
      return { answer: { error: `threw: ${thrownText(err)}`, evidence: { raw: `threw: ${thrownText(err, true)}`.slice(0, 4096) } }, ms: performance.now() - t0 }
    }
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as PromiseLike<unknown>).then === 'function'
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined'
  // JSON writes NaN and the infinities as null, and cannot write a bigint.
  if (typeof v === 'number' || typeof v === 'bigint') return typeof v === 'bigint' ? `${v}n` : String(v)
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return safeString(v)
  }
}

/** `String(v)`, or a word for a value that has no string form (a null-prototype object, a throwing toString). */
function safeString(v: unknown): string {
  try {
    return String(v)
  } catch {
    return `a value without a string form (${v === null ? 'null' : typeof v})`
  }
}

/** What a thrown value says (its message, or its stack), whatever was thrown: reading it never throws. */
function thrownText(err: unknown, stack = false): string {
  try {
    const e = err as Error | null | undefined
    const text = stack ? (e?.stack ?? e?.message) : e?.message
    if (typeof text === 'string') return text
  } catch {
    // a getter that throws: said as the value itself below
  }
  return safeString(err)
}
