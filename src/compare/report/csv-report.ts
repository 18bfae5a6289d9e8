/**
 * `--csv FILE`: every case of the run, one row each, written as the run
 * goes into the output (put in place, or streamed to a FIFO, at the end;
 * RFC 4180: a header row, fields quoted when they hold a comma, quote
 * or line break). The columns: {@link CSV_COLUMNS}.
 */
import { agentField, type Case } from '../case.js'
import type { CaseSink } from '../run.js'
import type { CaseResult } from '../tally.js'
import { ReportFile } from '../output-files.js'

/**
 * The columns: the case's id, its categories (separated by spaces), agent
 * (tokens separated by spaces), URL; the reference's verdict and line; the
 * implementation's verdict, line and error (empty when it gave none); the
 * outcome (agree, verdict, line, error); whether the verdict agrees and
 * whether the line agrees (empty when no line was given); the case's time in
 * ms.
 */
export const CSV_COLUMNS = [
  'id', 'categories', 'agent', 'url', 'expected_allowed', 'expected_line', 'allowed', 'line', 'error', 'outcome', 'verdict_agrees', 'line_agrees', 'ms',
] as const

/** One CSV field. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

/** One case's row (without the line break). */
export function csvRow(c: Case, r: CaseResult): string {
  const a = r.answer
  const agent = agentField(c.agents)
  const fields = [
    c.id,
    c.categories.join(' '),
    Array.isArray(agent) ? agent.join(' ') : agent,
    c.url,
    String(c.expected.allowed),
    String(c.expected.line),
    a.error === undefined ? String(a.allowed) : '',
    a.line === undefined ? '' : String(a.line),
    a.error ?? '',
    r.outcome,
    a.error === undefined ? String(a.allowed === c.expected.allowed) : 'false',
    a.line === undefined ? '' : String(a.line === c.expected.line),
    r.ms.toFixed(4),
  ]
  return fields.map(csvField).join(',')
}

/** The CSV output of a run. */
export class CsvWriter implements CaseSink {
  private readonly out: ReportFile

  constructor(file: string) {
    this.out = new ReportFile(file)
    this.out.write(CSV_COLUMNS.join(',') + '\r\n')
  }

  add(c: Case, r: CaseResult): void {
    this.out.write(csvRow(c, r) + '\r\n')
  }

  flush(): Promise<void> {
    return this.out.flush()
  }

  /** Writes the rest and closes the file. */
  close(): Promise<void> {
    return this.out.close()
  }
}
