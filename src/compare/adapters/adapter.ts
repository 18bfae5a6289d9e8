/**
 * What every adapter of `compare` provides: the implementation under test,
 * run by a command per case (cmd.ts), one long-running process (batch.ts) or
 * an in-process module (module.ts).
 */

/** One question to the implementation. */
export interface Request {
  readonly robots: Uint8Array
  readonly agents: readonly string[]
  readonly url: string
}

/** The implementation's answer; `line` only when it reports one. */
export type Answer =
  | { readonly allowed: boolean; readonly line?: number; readonly error?: undefined }
  | { readonly error: string; readonly allowed?: undefined; readonly line?: undefined }

/** Called as each answer arrives: the request's index, the answer, and the time it took (ms; see each adapter). */
export type OnAnswer = (index: number, answer: Answer, ms: number) => void

/** Extra timings an adapter measured apart from the cases. */
export interface AdapterTimings {
  /** cmd: one process run alone on an empty robots.txt; batch: the first answer, to a request on an empty robots.txt (ms). */
  readonly startupMs?: number
  /** module: parse time per distinct body (ms). */
  readonly parseMs?: readonly number[]
  /** What the per-case time measures, in words, for the report. */
  readonly caseTime: string
}

/** An implementation under test. */
export interface Adapter {
  /** `cmd`, `batch` or `module`, and what runs, for the report. */
  readonly kind: 'cmd' | 'batch' | 'module'
  readonly description: string
  /** Whether requests may carry several agents (else multi-agent cases are skipped). */
  readonly multiAgent: boolean
  /** Prepares (starts a process, imports a module, measures start-up). */
  start(): Promise<void>
  /** Judges every request, calling `onAnswer` as answers come (in any order); resolves when all are answered. */
  judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void>
  /** Judges one request (minimisation). */
  judge(request: Request): Promise<Answer>
  timings(): AdapterTimings
  /** Stops processes and removes temporary files. */
  close(): Promise<void>
}
