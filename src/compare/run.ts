/**
 * One run of `compare`, streamed in blocks of cases so that memory stays
 * bounded whatever the count: each case is answered by the oracle as it
 * comes; each block is tagged, filtered, exported, judged by the adapter
 * (`repeat` times, the first one counted), tallied and handed to the
 * per-case outputs. Whatever ends the
 * run early (the adapter failing, an abort, a case file that cannot be read)
 * leaves the cases done counted; the failure is part of the result.
 */
import { AdapterFailure, type Adapter } from './adapters/adapter.js'
import type { Case, CaseInput } from './case.js'
import type { JsonlWriter } from './cases/jsonl-cases.js'
import { keeps, type CategoryFilter } from './categories.js'
import { minimise, type Minimised } from './minimise.js'
import type { Oracle } from './oracle.js'
import { outcomeOf, type Score, type Semantics } from './outcome.js'
import { resultOf, Tally, type CaseResult, type Kept } from './tally.js'

/** Receives progress while the cases run. */
export interface ProgressSink {
  update(done: number, disagreements: number): void
  clear(): void
}

/** A per-case output (CSV, JUnit, the JSON report's cases), fed in run order. */
export interface CaseSink {
  /** One case's result; called synchronously as answers arrive. */
  add(c: Case, result: CaseResult): void
  /** Called after each block: writes what was buffered. */
  flush(): Promise<void>
}

/** Cases per block. */
export const BLOCK = 20_000

/** What preparing the cases is asked to do. */
export interface PrepareOptions {
  /** Whether cases with several tokens are kept (else skipped). */
  readonly multiAgent: boolean
  /** Keep only the cases the filter keeps (`--category`). */
  readonly categories?: CategoryFilter
  readonly exportTo?: JsonlWriter
}

/** What preparing the cases counted (filled in as the blocks are consumed). */
export interface PrepareCounts {
  /** Cases left out: several tokens and no --multi-agent. */
  skipped: number
  /** Cases read or generated (before skipping and filtering). */
  inputs: number
  /** Cases exported. */
  exported: number
}

/**
 * A set's cases answered by the oracle (both standards) as they come,
 * tagged, filtered and exported, in blocks of at most BLOCK as they are
 * consumed.
 */
export function prepareCases(source: Iterable<CaseInput> | AsyncIterable<CaseInput>, oracle: Oracle, options: PrepareOptions): { blocks: AsyncIterable<Case[]>; counts: PrepareCounts } {
  const counts: PrepareCounts = { skipped: 0, inputs: 0, exported: 0 }
  // Each case is answered as it comes, while the oracle still holds its body's analysis (a set's cases of one body
  // come together, and the oracle keeps only the last few bodies); the block counts, and is filtered and exported,
  // once whole. A source failing within a block leaves that block's cases unanswered, as if they never came.
  const finish = async (answered: Case[], skipped: number): Promise<Case[]> => {
    counts.skipped += skipped
    let cases = answered
    const only = options.categories
    if (only) cases = cases.filter((c) => keeps(only, c.categories))
    if (options.exportTo) {
      await options.exportTo.write(cases)
      counts.exported += cases.length
    }
    return cases
  }
  async function* blocks(): AsyncGenerator<Case[]> {
    let answered: Case[] = []
    let skipped = 0
    let taken = 0
    let mark = oracle.mark()
    let finishing = false
    try {
      for await (const input of source) {
        counts.inputs++
        if (!options.multiAgent && input.agents.length > 1) skipped++
        else answered.push(oracle.answer(input))
        if (++taken >= BLOCK) {
          const block = answered
          const left = skipped
          answered = []
          skipped = taken = 0
          finishing = true
          const cases = await finish(block, left)
          finishing = false
          yield cases
          mark = oracle.mark()
        }
      }
    } catch (e) {
      // Only the cases of a block that never came whole are forgotten.
      if (!finishing) oracle.forgetSince(mark)
      throw e
    }
    yield await finish(answered, skipped)
  }
  return { blocks: blocks(), counts }
}

/** What a run is asked to do. */
export interface RunOptions {
  /** The implementation under test; none: only export. */
  readonly adapter?: Adapter
  readonly progress?: ProgressSink
  /** What counts as a disagreement (default `lines`). */
  readonly score?: Score
  /** Whose answers gate the run (default the reference's); both are counted. */
  readonly semantics?: Semantics
  /** Times each block is judged (default 1): the first is counted, each is timed. */
  readonly repeat?: number
  /** Per-case outputs. */
  readonly sinks?: readonly CaseSink[]
  /** Called once with the first block of cases the adapter judged (the harness's ceiling is measured on them); its time is left out of the run's. */
  readonly onFirstBlock?: (cases: readonly Case[]) => Promise<void>
  /** Aborting ends the run as an adapter failure would, with this reason. */
  readonly signal?: AbortSignal
  /** The cases' counts from preparing them (skipped, inputs, exported), read when the run ends. */
  readonly counts?: PrepareCounts
}

/** What a run measured. */
export interface RunResult {
  readonly tally: Tally
  /** Cases left out: several tokens and no --multi-agent. */
  readonly skipped: number
  /** Cases read or generated (before skipping and filtering). */
  readonly inputs: number
  /** Cases exported. */
  readonly exported: number
  /** Wall time of reading or generating the cases, the oracle, tagging and export (ms). */
  readonly casesMs: number
  /** Wall time spent waiting on the adapter, first pass (ms). */
  readonly runWallMs: number
  /** Wall time of each pass over the cases (ms; one per repeat, the first is runWallMs). */
  readonly repeatWallMs: readonly number[]
  /** CPU time of this process while the adapter ran (ms): the harness, plus the implementation itself for --module. */
  readonly runCpuMs: number
  /** Cases whose answer changed between repeats. */
  readonly unstable: number
  /** Why the run stopped before its end, when it did: the adapter failed (an AdapterFailure), the run was aborted (one too), or reading the cases failed. */
  readonly failure?: Error
}

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** A promise that rejects when `signal` aborts (never when there is none), and `stop()` to remove its listener. */
function aborted(signal: AbortSignal | undefined): { promise: Promise<never>; stop: () => void } {
  let stop = (): void => {}
  const promise = new Promise<never>((_, reject) => {
    if (signal === undefined) return
    const fire = (): void => reject(new AdapterFailure(String(signal.reason ?? 'the run was aborted')))
    if (signal.aborted) return fire()
    signal.addEventListener('abort', fire, { once: true })
    stop = () => signal.removeEventListener('abort', fire)
  })
  promise.catch(() => {})
  return { promise, stop: () => stop() }
}

/** Runs prepared cases through the adapter, block by block; an adapter failure ends it, counted so far. */
export async function runSet(blocks: AsyncIterable<Case[]>, options: RunOptions): Promise<RunResult> {
  const tally = new Tally(options.score ?? 'lines', options.semantics ?? 'reference')
  const repeat = Math.max(1, options.repeat ?? 1)
  const sinks = options.sinks ?? []
  let firstBlock = options.onFirstBlock
  let hookMs = 0
  const repeatWallMs = new Array<number>(repeat).fill(0)
  const abort = aborted(options.signal)
  let runCpuMs = 0
  let unstable = 0
  let done = 0
  let failure: Error | undefined
  const t0 = performance.now()
  const block = async (cases: Case[]): Promise<void> => {
    const adapter = options.adapter
    if (adapter && cases.length > 0) {
      const first = new Array<CaseResult | undefined>(cases.length)
      const before = done
      for (let r = 0; r < repeat; r++) {
        const w0 = performance.now()
        const c0 = cpuMs()
        let answered = 0
        const judged = adapter.judgeAll(cases, (index, answer, ms) => {
          if (failure) return // answers after the run stopped are not counted
          const c = cases[index]
          if (r === 0) {
            const result = resultOf(c, answer, ms)
            first[index] = result
            tally.add(c, result)
            for (const s of sinks) s.add(c, result)
            options.progress?.update(before + ++answered, tally.disagreements)
          } else {
            tally.addTime(ms)
            const was = first[index]
            if (was && outcomeOf(c.expected, answer) !== was.outcome) unstable++
          }
        })
        judged.catch(() => {}) // after an abort, its rejection is not awaited
        try {
          await Promise.race([judged, abort.promise])
        } catch (err) {
          failure ??= err as Error
          throw err
        } finally {
          runCpuMs += cpuMs() - c0
          repeatWallMs[r] += performance.now() - w0
        }
      }
    }
    done += cases.length
    for (const s of sinks) await s.flush()
    if (firstBlock && adapter && cases.length > 0) {
      const h0 = performance.now()
      await firstBlock(cases)
      firstBlock = undefined
      hookMs = performance.now() - h0
    }
    options.progress?.update(done, tally.disagreements)
  }
  try {
    for await (const cases of blocks) await block(cases)
  } catch (err) {
    // Whatever stopped the run, the cases done stay counted and their outputs written.
    failure ??= err instanceof Error ? err : new Error(String(err))
    for (const s of sinks) {
      // A sink that cannot be written (the failure itself, or a FIFO without a reader after an interrupt) fails again when it is closed.
      await s.flush().catch(() => {})
    }
  } finally {
    abort.stop()
    options.progress?.clear()
  }
  const runWallMs = repeatWallMs[0]
  const waited = repeatWallMs.reduce((a, b) => a + b, 0)
  const c = options.counts
  return {
    tally,
    skipped: c?.skipped ?? 0,
    inputs: c?.inputs ?? done,
    exported: c?.exported ?? 0,
    casesMs: performance.now() - t0 - waited - hookMs,
    runWallMs,
    repeatWallMs,
    runCpuMs,
    unstable,
    ...(failure ? { failure } : {}),
  }
}

/** Minimises the first `cap` kept disagreements, at most `calls` adapter calls each (none once `signal` aborts), against the answers of `semantics`. */
export async function minimiseAll(kept: readonly Kept[], adapter: Adapter, cap: number, calls: number, signal?: AbortSignal, semantics: Semantics = 'reference'): Promise<Map<Kept, Minimised>> {
  const out = new Map<Kept, Minimised>()
  for (const k of kept.slice(0, cap)) {
    if (signal?.aborted) break
    const outcome = semantics === 'rfc' ? k.result.rfcOutcome : k.result.outcome
    const m = await minimise(k.c, outcome, (r) => adapter.judge(r), calls, k.result.answer, semantics)
    if (m) out.set(k, m)
  }
  return out
}
