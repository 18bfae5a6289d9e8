/**
 * One run of `compare`: every case through the adapter, each answer compared
 * with the reference's, then the chosen disagreements minimised. Measures the
 * harness's own CPU time apart from the adapter's.
 */
import type { Adapter, Answer } from './adapters/adapter.js'
import type { Case } from './case.js'
import { minimise, outcomeOf, type Minimised, type Outcome } from './minimise.js'

/** The result of one case. */
export interface CaseResult {
  readonly answer: Answer
  /** Time the adapter took (ms; what it measures depends on the adapter). */
  readonly ms: number
  readonly outcome: Outcome
}

/** Receives progress while the cases run. */
export interface ProgressSink {
  update(done: number, disagreements: number): void
  clear(): void
}

/** What `runCases` measured. */
export interface RunResult {
  readonly results: CaseResult[]
  /** Wall time of the run (ms). */
  readonly wallMs: number
  /** CPU time of this process during the run (ms): the harness, plus the implementation itself for --module. */
  readonly cpuMs: number
}

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** Runs every case through the adapter. */
export async function runCases(cases: readonly Case[], adapter: Adapter, progress?: ProgressSink): Promise<RunResult> {
  const results = new Array<CaseResult>(cases.length)
  let done = 0
  let disagreements = 0
  const wall0 = performance.now()
  const cpu0 = cpuMs()
  try {
    await adapter.judgeAll(cases, (index, answer, ms) => {
      const outcome = outcomeOf(cases[index].expected, answer)
      results[index] = { answer, ms, outcome }
      done++
      if (outcome !== 'agree') disagreements++
      progress?.update(done, disagreements)
    })
  } finally {
    progress?.clear()
  }
  return { results, wallMs: performance.now() - wall0, cpuMs: cpuMs() - cpu0 }
}

/**
 * The disagreements in report order: round-robin over groups of cases that
 * disagree in the same way with the same categories, so that the first ones
 * listed (and minimised) cover every kind of failure.
 */
export function disagreementOrder(cases: readonly Case[], results: readonly CaseResult[]): number[] {
  const groups = new Map<string, number[]>()
  for (let i = 0; i < cases.length; i++) {
    const o = results[i].outcome
    if (o === 'agree') continue
    const key = `${o}:${cases[i].categories.join(',')}`
    let g = groups.get(key)
    if (!g) groups.set(key, (g = []))
    g.push(i)
  }
  const order: number[] = []
  const lists = [...groups.values()]
  for (let round = 0; order.length < results.length; round++) {
    let any = false
    for (const g of lists) {
      if (round < g.length) {
        order.push(g[round])
        any = true
      }
    }
    if (!any) break
  }
  return order
}

/** Minimises the first `cap` disagreements of `order`, at most `calls` adapter calls each. */
export async function minimiseAll(
  cases: readonly Case[],
  results: readonly CaseResult[],
  order: readonly number[],
  adapter: Adapter,
  cap: number,
  calls: number,
): Promise<Map<number, Minimised>> {
  const out = new Map<number, Minimised>()
  for (const index of order.slice(0, cap)) {
    const m = await minimise(cases[index], results[index].outcome, (r) => adapter.judge(r), calls)
    if (m) out.set(index, m)
  }
  return out
}
