/**
 * The thread a `--module` implementation runs in (built to
 * `dist/compare-module.js`): imports the module, parses each body once, and
 * answers the requests in the order sent, timing each call in this thread.
 * Before each request it writes the request's number to the shared progress
 * cell, so that the main thread can name a call that never returns.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import type { Answer } from './adapter.js'
import { keepBody, type Answered, type FromModule, type ModuleStart, type ToModule } from './module-protocol.js'

/** What `parse` returns. */
interface Parsed {
  isAllowed(url: string, agent: string | string[]): unknown
  matchingLine?(url: string, agent: string | string[]): unknown
}

/** A body the thread holds, and what parsing it gave (once asked). */
interface Body {
  readonly bytes: Uint8Array
  parsed?: { impl?: Parsed; error?: string }
}

/** A stall or a lost body: the run stops with this message. */
class Stop extends Error {}

if (parentPort === null) {
  process.stderr.write("robots-automaton: compare-module.js is the thread of 'robots-automaton compare --module', not a program\n")
  process.exit(2)
}
// The harness's own channel: what the module posts to parentPort is not taken for an answer.
const { path, timeoutMs, progress, port } = workerData as ModuleStart
const cell = new Int32Array(progress)
const bodies = new Map<number, Body>()
let parseFn: (bytes: Uint8Array) => unknown

const post = (m: FromModule): void => port.postMessage(m)

try {
  const mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>
  let parse: unknown
  try {
    parse = typeof mod.parse === 'function' ? mod.parse : (mod.default as Record<string, unknown> | undefined)?.parse
  } catch (err) {
    throw new Stop(`reading parse of '${path}' threw: ${thrownText(err)}`)
  }
  if (typeof parse !== 'function') throw new Stop(`'${path}' exports no parse(bytes) function`)
  parseFn = parse as (bytes: Uint8Array) => unknown
  post({ t: 'ready' })
} catch (err) {
  post({ t: 'stop', message: err instanceof Stop ? err.message : `cannot import '${path}': ${thrownText(err)}` })
}

// One batch at a time, in order: a batch's calls run before the next batch's.
let queue = Promise.resolve()
port.on('message', (m: ToModule) => {
  queue = queue.then(() => judgeBatch(m))
})

/** The request under way, for a stop's message. */
let seq = 0

async function judgeBatch(m: ToModule): Promise<void> {
  const out: Answered[] = []
  try {
    for (const r of m.requests) {
      Atomics.store(cell, 0, r.seq)
      seq = r.seq
      const body = keepBody<Body>(bodies, r.body, () => (r.bytes === undefined ? undefined : { bytes: r.bytes }))
      if (body === undefined) throw new Stop('a body was lost between the threads')
      let parseMs: number | undefined
      if (body.parsed === undefined) {
        const t0 = performance.now()
        body.parsed = await parseBody(body.bytes)
        parseMs = performance.now() - t0
      }
      const [answer, ms] = await timed(body.parsed, r.url, r.agent)
      out.push(parseMs === undefined ? [r.seq, answer, ms] : [r.seq, answer, ms, parseMs])
      // Sent in small groups: answers given before the module ends its thread are kept.
      if (out.length === 32) post({ t: 'answers', answers: out.splice(0) })
    }
    post({ t: 'answers', answers: out })
  } catch (err) {
    if (out.length > 0) post({ t: 'answers', answers: out })
    post({ t: 'stop', message: err instanceof Stop ? err.message : thrownText(err), seq })
  }
}

/** The value of a promise the module returned, or a stop naming the request when it does not settle within --timeout. */
function settle(value: PromiseLike<unknown>, call: string): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined
  const stall = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Stop(`the promise of ${call}() did not settle within ${timeoutMs} ms (--timeout)`)), timeoutMs)
  })
  return Promise.race([value, stall]).finally(() => clearTimeout(timer))
}

async function parseBody(bytes: Uint8Array): Promise<{ impl?: Parsed; error?: string }> {
  try {
    let impl = parseFn(bytes)
    if (isThenable(impl)) impl = await settle(impl, 'parse')
    if (typeof impl !== 'object' || impl === null || typeof (impl as Parsed).isAllowed !== 'function') return { error: 'parse() returned no object with an isAllowed method' }
    return { impl: impl as Parsed }
  } catch (err) {
    if (err instanceof Stop) throw err
    return { error: `parse() threw: ${thrownText(err)}` }
  }
}

async function timed(p: { impl?: Parsed; error?: string }, url: string, agent: string | string[]): Promise<[Answer, number]> {
  if (!p.impl) return [{ error: p.error! }, 0]
  const t0 = performance.now()
  try {
    let allowed = p.impl.isAllowed(url, agent)
    if (isThenable(allowed)) allowed = await settle(allowed, 'isAllowed')
    let line: unknown
    if (typeof p.impl.matchingLine === 'function') {
      line = p.impl.matchingLine(url, agent)
      if (isThenable(line)) line = await settle(line, 'matchingLine')
    }
    const ms = performance.now() - t0
    const evidence = { raw: `isAllowed: ${describe(allowed)}${typeof p.impl.matchingLine === 'function' ? `; matchingLine: ${describe(line)}` : ''}` }
    if (typeof allowed !== 'boolean') return [{ error: `isAllowed returned ${describe(allowed)}, not a boolean`, evidence }, ms]
    if (line === undefined || line === null) return [{ allowed, evidence }, ms]
    if (!Number.isSafeInteger(line) || (line as number) < -1) return [{ error: `matchingLine returned ${describe(line)}, not a line number ≥ 0 (or -1 for none)`, evidence }, ms]
    return [{ allowed, line: line as number, evidence }, ms]
  } catch (err) {
    if (err instanceof Stop) throw err
    return [{ error: `threw: ${thrownText(err)}`, evidence: { raw: `threw: ${thrownText(err, true)}`.slice(0, 4096) } }, performance.now() - t0]
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
