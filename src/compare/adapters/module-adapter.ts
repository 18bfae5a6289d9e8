/**
 * `--module ./adapter.mjs`: a JavaScript implementation judged in this
 * process, for timing JS libraries without process overhead. The module
 * exports
 *
 *     export function parse(bytes) {                   // a Uint8Array: the body as served
 *       return {
 *         isAllowed(url, agent) { return true },       // boolean (or a promise of one)
 *         matchingLine(url, agent) { return 3 },       // optional: the deciding line, 0 or null for none
 *       }
 *     }
 *
 * `agent` is a string; an array of tokens only with `--multi-agent`
 * (otherwise multi-agent cases are skipped). Each distinct body is parsed
 * once (timed apart: the report gives parse times per body) and kept for the
 * following cases; per-case time is that of `isAllowed` plus `matchingLine`.
 * A throw, or a value of the wrong type, is an error answer for that case.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CliError } from '../../internals.js'
import type { Adapter, AdapterTimings, Answer, OnAnswer, Request } from './adapter.js'

/** What `parse` returns. */
interface Parsed {
  isAllowed(url: string, agent: string | string[]): unknown
  matchingLine?(url: string, agent: string | string[]): unknown
}

/** Options of the module adapter. */
export interface ModuleOptions {
  readonly path: string
  readonly multiAgent: boolean
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

  constructor(private readonly options: ModuleOptions) {
    this.description = `--module ${options.path}`
    this.multiAgent = options.multiAgent
  }

  async start(): Promise<void> {
    let mod: Record<string, unknown>
    try {
      mod = (await import(pathToFileURL(resolve(this.options.path)).href)) as Record<string, unknown>
    } catch (err) {
      throw new CliError('ERR_ADAPTER', `--module: cannot import '${this.options.path}': ${(err as Error)?.message ?? String(err)}`)
    }
    const parse = typeof mod.parse === 'function' ? mod.parse : (mod.default as Record<string, unknown> | undefined)?.parse
    if (typeof parse !== 'function') throw new CliError('ERR_ADAPTER', `--module: '${this.options.path}' exports no parse(bytes) function`)
    this.parseFn = parse as (bytes: Uint8Array) => unknown
  }

  async judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void> {
    this.recording = true
    try {
      for (let i = 0; i < requests.length; i++) {
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
    this.parsed.clear()
  }

  private async implFor(bytes: Uint8Array): Promise<{ impl?: Parsed; error?: string }> {
    let p = this.parsed.get(bytes)
    if (p !== undefined) {
      this.parsed.delete(bytes)
      this.parsed.set(bytes, p)
      return p
    }
    const t0 = performance.now()
    try {
      let impl = this.parseFn!(bytes)
      if (isThenable(impl)) impl = await impl
      if (typeof impl !== 'object' || impl === null || typeof (impl as Parsed).isAllowed !== 'function') {
        p = { error: 'parse() returned no object with an isAllowed method' }
      } else p = { impl: impl as Parsed }
    } catch (err) {
      p = { error: `parse() threw: ${(err as Error)?.message ?? String(err)}` }
    }
    if (this.recording) this.parseMs.push(performance.now() - t0)
    if (this.parsed.size >= KEPT) this.parsed.delete(this.parsed.keys().next().value!)
    this.parsed.set(bytes, p)
    return p
  }

  private async timed(request: Request): Promise<{ answer: Answer; ms: number }> {
    const p = await this.implFor(request.robots)
    if (!p.impl) return { answer: { error: p.error! }, ms: 0 }
    const agent = request.agents.length === 1 ? request.agents[0] : [...request.agents]
    const t0 = performance.now()
    try {
      let allowed = p.impl.isAllowed(request.url, agent)
      if (isThenable(allowed)) allowed = await allowed
      let line: unknown
      if (typeof p.impl.matchingLine === 'function') {
        line = p.impl.matchingLine(request.url, agent)
        if (isThenable(line)) line = await line
      }
      const ms = performance.now() - t0
      if (typeof allowed !== 'boolean') return { answer: { error: `isAllowed returned ${describe(allowed)}, not a boolean` }, ms }
      if (line === undefined || line === null) return { answer: { allowed }, ms }
      if (!Number.isInteger(line) || (line as number) < 0) return { answer: { error: `matchingLine returned ${describe(line)}, not a line number ≥ 0` }, ms }
      return { answer: { allowed, line: line as number }, ms }
    } catch (err) {
      return { answer: { error: `threw: ${(err as Error)?.message ?? String(err)}` }, ms: performance.now() - t0 }
    }
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as PromiseLike<unknown>).then === 'function'
}

function describe(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v) ?? String(v)
}
