/**
 * One run of `compare`, streamed in blocks of cases so that memory stays
 * bounded whatever the count: each block is answered by the oracle, tagged,
 * filtered, exported, judged by the adapter and tallied; then the chosen
 * disagreements are minimised. Measures the harness's own time apart from
 * the adapter's.
 */
import type { Adapter } from './adapters/adapter.js'
import type { Case, CaseInput } from './case.js'
import type { JsonlWriter } from './cases/jsonl-cases.js'
import { minimise, outcomeOf, type Minimised } from './minimise.js'
import type { Oracle } from './oracle.js'
import { Tally, type Kept } from './tally.js'

/** Receives progress while the cases run. */
export interface ProgressSink {
  update(done: number, disagreements: number): void
  clear(): void
}

/** Cases per block. */
export const BLOCK = 20_000

/** What a run is asked to do. */
export interface RunOptions {
  /** The implementation under test; none: only export. */
  readonly adapter?: Adapter
  /** Whether cases with several tokens are kept (else skipped). */
  readonly multiAgent: boolean
  /** Keep only the cases tagged with one of these. */
  readonly categories?: readonly string[]
  readonly exportTo?: JsonlWriter
  readonly progress?: ProgressSink
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
  /** Wall time spent waiting on the adapter (ms). */
  readonly runWallMs: number
  /** CPU time of this process while the adapter ran (ms): the harness, plus the implementation itself for --module. */
  readonly runCpuMs: number
}

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** Runs a case set through the oracle, the export and the adapter, block by block. */
export async function runSet(source: Iterable<CaseInput> | AsyncIterable<CaseInput>, oracle: Oracle, options: RunOptions): Promise<RunResult> {
  const tally = new Tally()
  let skipped = 0
  let inputs = 0
  let exported = 0
  let runWallMs = 0
  let runCpuMs = 0
  const t0 = performance.now()
  const block = async (batch: CaseInput[]): Promise<void> => {
    let cases: Case[] = []
    for (const input of batch) {
      if (!options.multiAgent && input.agents.length > 1) skipped++
      else cases.push(oracle.answer(input))
    }
    const only = options.categories
    if (only) cases = cases.filter((c) => c.categories.some((id) => only.includes(id)))
    if (options.exportTo) {
      await options.exportTo.write(cases)
      exported += cases.length
    }
    const adapter = options.adapter
    if (adapter && cases.length > 0) {
      const w0 = performance.now()
      const c0 = cpuMs()
      let answered = 0
      await adapter.judgeAll(cases, (index, answer, ms) => {
        tally.add(cases[index], { answer, ms, outcome: outcomeOf(cases[index].expected, answer) })
        options.progress?.update(inputs - batch.length + ++answered, tally.disagreements)
      })
      runCpuMs += cpuMs() - c0
      runWallMs += performance.now() - w0
    }
    options.progress?.update(inputs, tally.disagreements)
  }
  try {
    let batch: CaseInput[] = []
    for await (const input of source) {
      batch.push(input)
      inputs++
      if (batch.length >= BLOCK) {
        await block(batch)
        batch = []
      }
    }
    await block(batch)
  } finally {
    options.progress?.clear()
  }
  return { tally, skipped, inputs, exported, casesMs: performance.now() - t0 - runWallMs, runWallMs, runCpuMs }
}

/** Minimises the first `cap` kept disagreements, at most `calls` adapter calls each. */
export async function minimiseAll(kept: readonly Kept[], adapter: Adapter, cap: number, calls: number): Promise<Map<Kept, Minimised>> {
  const out = new Map<Kept, Minimised>()
  for (const k of kept.slice(0, cap)) {
    const m = await minimise(k.c, k.result.outcome, (r) => adapter.judge(r), calls)
    if (m) out.set(k, m)
  }
  return out
}
