import { CompareError } from '../compare-error.js'
/**
 * What every adapter of `compare` provides: the implementation under test,
 * run by a command per case (cmd-adapter.ts), one long-running process
 * (batch-adapter.ts) or an in-process module (module-adapter.ts); and the
 * error that stops a run when the implementation fails.
 */

/** One question to the implementation. */
export interface Request {
  readonly robots: Uint8Array
  readonly agents: readonly string[]
  readonly url: string
  /** The case's id, for messages (minimisation's candidates have none). */
  readonly id?: string
  /** Where the body comes from, for messages (see CaseInput.source). */
  readonly source?: string
}

/**
 * What the implementation gave, kept for a failing case: its raw answer (a
 * batch answer line, what a module returned) and, for a command, its exit
 * status or signal and the first EVIDENCE_CHARS characters of its stdout
 * and stderr.
 */
export interface Evidence {
  readonly raw?: string
  readonly status?: number | null
  readonly signal?: string | null
  readonly stdout?: string
  readonly stderr?: string
}

/** Characters of a command's stdout and of its stderr kept as evidence. */
export const EVIDENCE_CHARS = 4096

/** A text kept as evidence: its first EVIDENCE_CHARS characters, with a note of what was cut. */
export function evidenceText(text: string): string {
  return text.length <= EVIDENCE_CHARS ? text : `${text.slice(0, EVIDENCE_CHARS)}… (${text.length - EVIDENCE_CHARS} more characters)`
}

/** The implementation's answer; `line` only when it reports one; `evidence`, what it gave. */
export type Answer = (
  | { readonly allowed: boolean; readonly line?: number; readonly error?: undefined }
  | { readonly error: string; readonly allowed?: undefined; readonly line?: undefined }
) & { readonly evidence?: Evidence }

/** Called as each answer arrives: the request's index, the answer, and the time it took (ms; see each adapter). */
export type OnAnswer = (index: number, answer: Answer, ms: number) => void

/** Extra timings an adapter measured apart from the cases. */
export interface AdapterTimings {
  /** cmd: the median of a few processes run alone on an empty robots.txt; batch: the first answer, to a request on an empty robots.txt (ms). */
  readonly startupMs?: number
  /** cmd: true when the start-up was taken off each case's time. */
  readonly startupSubtracted?: boolean
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
  /**
   * Judges every request, calling `onAnswer` as answers come (in any order);
   * resolves when all are answered, rejects with an {@link AdapterFailure}
   * when the implementation fails (the answers given before stand).
   */
  judgeAll(requests: readonly Request[], onAnswer: OnAnswer): Promise<void>
  /** Judges one request (minimisation). */
  judge(request: Request): Promise<Answer>
  timings(): AdapterTimings
  /** Stops processes and removes temporary files; a judgeAll under way settles soon after. */
  close(): Promise<void>
}

/** The implementation failed: it could not start, exited, stalled or answered out of protocol. The run stops; its reports keep the cases done. */
export class AdapterFailure extends CompareError {
  /** The end of the implementation's stderr (at most STDERR_KEPT characters), when it has one. */
  readonly stderr: string

  constructor(message: string, stderr = '') {
    super('ERR_ADAPTER', message)
    this.name = 'AdapterFailure'
    this.stderr = stderr
  }
}

/** Characters of an adapter's stderr kept for the report. */
export const STDERR_KEPT = 64 * 1024

/** The last lines of a stderr for a one-line message: up to `lines` lines, `chars` characters, joined with ` | `. */
export function stderrLines(stderr: string, lines = 10, chars = 2000): string {
  const tail = stderr.trim().split('\n').slice(-lines).join(' | ')
  return tail.length > chars ? `…${tail.slice(-chars)}` : tail
}

/** A request as a message names it: its case, agent, URL and robots.txt source. */
export function describeRequest(r: Request): string {
  const url = r.url.length > 200 ? `${r.url.slice(0, 200)}…` : r.url
  const agent = r.agents.join(', ')
  return `${r.id !== undefined ? `case ${r.id} ` : 'a request '}(agent ${JSON.stringify(agent)}, URL ${JSON.stringify(url)}${r.source !== undefined ? `, robots.txt ${r.source}` : ''})`
}
