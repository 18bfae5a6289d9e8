/**
 * One `compare` session: a case set through one adapter, from start-up to
 * the written reports. The per-case outputs (CSV, JUnit, the JSON report's
 * cases) are fed as the run goes; the reports are written whatever ends the
 * run (a failure is recorded in them), and the exit status says what
 * happened ({@link EXIT}).
 */
import { AdapterFailure, type Adapter, type Answer } from './adapters/adapter.js'
import { measureCeiling } from './adapters/null-adapter.js'
import type { BatchAdapter } from './adapters/batch-adapter.js'
import { attribute } from './attribution.js'
import { BaselineCheck, BaselineWriter, type Baseline } from './baseline.js'
import type { Case } from './case.js'
import { CATEGORY_ORDER } from './categories.js'
import { count, plural } from './format.js'
import type { Oracle } from './oracle.js'
import type { Score, Semantics } from './outcome.js'
import { CsvWriter } from './report/csv-report.js'
import { writeHtmlReport } from './report/html-report.js'
import { JsonCases, writeJsonReport } from './report/json-report.js'
import { JunitWriter } from './report/junit-report.js'
import { buildReport, type Report } from './report/report-model.js'
import { minimiseAll, runSet, type CaseSink, type PrepareCounts, type ProgressSink, type RunResult } from './run.js'
import type { Minimised } from './minimise.js'
import { resultOf, Tally, type Kept } from './tally.js'

/** The exit statuses of `compare`. */
export const EXIT = {
  /** Every case agrees (or --min-agreement is reached); a matrix that ran through. */
  passed: 0,
  /** The harness could not run: a file it cannot read or write, no cases. */
  error: 1,
  usage: 2,
  /** The run completed and its agreement is below --min-agreement. */
  disagreement: 3,
  /** The implementation failed (could not start, exited, stalled, answered out of protocol): the reports hold the cases done. */
  adapterFailure: 4,
  /** Interrupted by SIGINT: the reports hold the cases done. */
  interrupted: 130,
  /** Stopped by SIGTERM: the reports hold the cases done. */
  terminated: 143,
  /** Stopped by SIGHUP (a closed terminal): the reports hold the cases done. */
  hungUp: 129,
} as const

/** Cases the harness's ceiling is measured on at most (the first block's, right after the adapter judged them). */
const CEILING_CASES = 20_000

/** Files a session writes. */
export interface SessionOutputs {
  readonly json?: string
  readonly html?: string
  readonly junit?: string
  readonly csv?: string
  /** --write-baseline: the run's disagreements, written when it completes. */
  readonly baseline?: string
}

/** A case set ready to run: its cases answered and filtered, in blocks, with what preparing them counted. */
export interface PreparedSet {
  /** The set's description, for the reports. */
  readonly set: string
  /** The set's short name (`unit`, `corpus`, …): the JUnit suite of cases without a file. */
  readonly name: string
  readonly blocks: AsyncIterable<Case[]>
  readonly counts: PrepareCounts
}

/** Adapter calls per minimisation above which a notice names the processes `--cmd` minimisation may start. */
const NOTICE_PROCESSES = 100

/** What a session is asked to do. */
export interface SessionOptions {
  readonly score: Score
  /** Whose answers gate the run (both are scored). */
  readonly semantics: Semantics
  readonly repeat: number
  /** Why multi-agent cases were skipped, for the report. */
  readonly multiAgent: boolean
  readonly minimise: number
  readonly minimiseCalls: number
  readonly minAgreement: number
  /** Known disagreements: they do not fail the run; new ones do. */
  readonly baseline?: Baseline
  readonly progress?: ProgressSink
  /** Notes on stderr (the minimisation notice). */
  readonly onNote?: (line: string) => void
  readonly outputs: SessionOutputs
  /** Aborting stops the run (exit `interrupted`); the reports are still written. */
  readonly signal?: AbortSignal
  /** The tool and version, for the reports. */
  readonly tool: string
  /** --batch: measure the harness's ceiling beside the adapter's rate. */
  readonly ceiling: boolean
}

/** What a session did. */
export interface SessionResult {
  /** The report (none for an export alone). */
  readonly report?: Report
  readonly run: RunResult
  readonly status: number
  /** Why the run stopped before its end, if it did. */
  readonly failure?: Error
  /** Outputs of an interrupted run that could not be written (a FIFO without a reader), each with its error's message. */
  readonly unwritten: readonly { output: keyof SessionOutputs; message: string }[]
}

/** The harness's ceiling on the first cases of a run: a null adapter's cases/s through the same protocol, answers counted as the run counts them. */
async function ceilingOf(adapter: BatchAdapter, cases: readonly Case[], score: Score, semantics: Semantics): Promise<{ cases: number; casesPerSecond: number }> {
  const b = adapter.options
  const sample = cases.slice(0, CEILING_CASES)
  const scratch = new Tally(score, semantics)
  const count = (i: number, answer: Answer, ms: number): void => scratch.add(sample[i], resultOf(sample[i], answer, ms))
  return { cases: sample.length, casesPerSecond: await measureCeiling(sample, b.window, b.robotsVia, b.timeoutMs, count) }
}

/** Runs `set` through `adapter` (or only exports it) and writes the outputs. */
export async function runSession(set: PreparedSet, oracle: Oracle, adapter: Adapter | undefined, options: SessionOptions): Promise<SessionResult> {
  const o = options.outputs
  const { score, semantics } = options
  const csv = o.csv !== undefined ? new CsvWriter(o.csv, score, semantics) : undefined
  const junit = o.junit !== undefined ? new JunitWriter(o.junit, score, set.name, semantics) : undefined
  const cases = o.json !== undefined ? new JsonCases(score, semantics) : undefined
  const check = options.baseline ? new BaselineCheck(options.baseline, score, semantics) : undefined
  const writeBaseline = o.baseline !== undefined && adapter ? new BaselineWriter(o.baseline, score, semantics, `compare baseline: ${set.set}; ${adapter.description}; semantics ${semantics}, score ${score}; ${new Date().toISOString()}; ${options.tool}`) : undefined
  const sinks: CaseSink[] = [csv, junit, cases, check, writeBaseline].filter((s): s is NonNullable<typeof s> => s !== undefined)
  let failure: Error | undefined
  let ceiling: { cases: number; casesPerSecond: number } | undefined
  let run: RunResult | undefined
  let report: Report | undefined
  const m0 = { minimiseMs: 0, reportMs: 0 }
  const unwritten: { output: keyof SessionOutputs; message: string }[] = []
  try {
    try {
      // An interrupt during start-up (a probe that never comes back) stops the run as well.
      await untilAborted(adapter?.start(), options.signal)
    } catch (err) {
      failure = err as Error
    }
    run = await runSet(failure ? noBlocks() : set.blocks, {
      adapter: failure ? undefined : adapter,
      progress: options.progress,
      score,
      semantics,
      repeat: options.repeat,
      sinks,
      onFirstBlock: adapter?.kind === 'batch' && options.ceiling ? async (cases) => void (ceiling = await ceilingOf(adapter as BatchAdapter, cases, score, semantics)) : undefined,
      signal: options.signal,
      counts: set.counts,
    })
    failure ??= run.failure
    if (adapter === undefined) {
      if (failure) throw failure
      return { run, status: EXIT.passed, unwritten }
    }
    // A baseline's known disagreements are listed after the new ones, and minimised only when no new one takes the place.
    const all = run.tally.order()
    const order = check ? [...all.filter((k) => !check.knows(k.c)), ...all.filter((k) => check.knows(k.c))] : all
    let minimised: Map<Kept, Minimised> = new Map()
    if (!failure) {
      const t0 = performance.now()
      const n = Math.min(options.minimise, order.length)
      if (adapter.kind === 'cmd' && n > 0 && n * options.minimiseCalls > NOTICE_PROCESSES) {
        options.onNote?.(
          `note: minimising ${count(n)} disagreement${n === 1 ? '' : 's'} through --cmd: up to ${count(n * options.minimiseCalls)} more processes ` +
            `(--minimise N disagreements, --minimise-calls N each; --minimise 0 skips it)`,
        )
      }
      try {
        minimised = await minimiseAll(order, adapter, options.minimise, options.minimiseCalls, options.signal, semantics)
      } catch (err) {
        failure = err as Error
      }
      m0.minimiseMs = performance.now() - t0
    }
    if (!failure && options.signal?.aborted) failure = new AdapterFailure(String(options.signal.reason))
    const r0 = performance.now()
    const tally = run.tally
    report = buildReport(
      {
        set: `${set.set}; ${plural(tally.total.cases, 'case')}`,
        adapter: adapter.description,
        tally,
        order,
        minimised,
        attribution: attribute(tally.patterns.values(), tally.score, CATEGORY_ORDER, tally.patternsComplete, semantics),
        skipped: run.skipped,
        skippedWhy: run.skipped ? `multi-agent cases (${adapter.kind === 'cmd' ? '--cmd passes one token' : 'add --multi-agent to send them'})` : undefined,
        statedMismatches: oracle.statedMismatches,
        statedMismatchCount: oracle.statedMismatchCount,
        adapterTimings: adapter.timings(),
        runWallMs: run.runWallMs,
        repeatWallMs: run.repeatWallMs,
        unstable: run.unstable,
        ceiling,
        harness: { casesMs: run.casesMs, runCpuMs: run.runCpuMs, minimiseMs: m0.minimiseMs, reportMs: 0 },
        minAgreement: options.minAgreement,
        ...(check ? { baseline: check.finish() } : {}),
        ...(failure ? { failure: { message: failure.message, ...(failure instanceof AdapterFailure && failure.stderr ? { stderr: failure.stderr } : {}) } } : {}),
      },
      options.tool,
    )
    report.timings.harness.reportMs = performance.now() - r0
  } finally {
    await adapter?.close()
    // Once the run is interrupted, an output that cannot be written (a FIFO without a reader) is said, and the others are still written.
    const attempt = async (output: keyof SessionOutputs, write: () => Promise<void> | undefined): Promise<void> => {
      try {
        await write()
      } catch (err) {
        if (!options.signal?.aborted) throw err
        unwritten.push({ output, message: (err as Error).message })
      }
    }
    try {
      await attempt('csv', () => csv?.close())
      await attempt('baseline', () => writeBaseline?.finish(report !== undefined && failure === undefined))
      if (report) {
        const r = report
        await attempt('junit', () => junit?.finish({ set: r.set, adapter: r.adapter, tool: r.tool, failure: r.failure }))
        if (o.json !== undefined) await attempt('json', () => writeJsonReport(r, o.json!, cases))
        if (o.html !== undefined) await attempt('html', () => writeHtmlReport(r, o.html!))
      }
    } finally {
      cases?.remove()
      junit?.discard()
    }
  }
  const reason = String(options.signal?.reason)
  const status = options.signal?.aborted
    ? reason.includes('SIGTERM')
      ? EXIT.terminated
      : reason.includes('SIGHUP')
        ? EXIT.hungUp
        : EXIT.interrupted
    : failure instanceof AdapterFailure
      ? EXIT.adapterFailure
      : failure
        ? EXIT.error
        : report.passed
          ? EXIT.passed
          : EXIT.disagreement
  return { report, run, status, unwritten, ...(failure ? { failure } : {}) }
}

async function* noBlocks(): AsyncGenerator<Case[]> {}

/** `work`, or an AdapterFailure naming the reason as soon as `signal` aborts. */
async function untilAborted(work: Promise<void> | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (work === undefined) return
  if (signal === undefined) return work
  work.catch(() => {})
  let stop = (): void => {}
  const abort = new Promise<never>((_, reject) => {
    const fire = (): void => reject(new AdapterFailure(String(signal.reason ?? 'the run was aborted')))
    if (signal.aborted) return fire()
    signal.addEventListener('abort', fire, { once: true })
    stop = () => signal.removeEventListener('abort', fire)
  })
  try {
    await Promise.race([work, abort])
  } finally {
    stop()
  }
}
