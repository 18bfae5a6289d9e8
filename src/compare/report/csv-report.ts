/**
 * `--csv FILE`: every case of the run, one row each, written as the run
 * goes into the output (put in place, or streamed to a FIFO, at the end;
 * a header row, then fields as every CSV of the tools writes them:
 * `csvField`). The columns: {@link CSV_COLUMNS}.
 */
import { agentField, type Case } from '../case.js'
import { fails, type Score, type Semantics } from '../outcome.js'
import type { CaseSink } from '../run.js'
import { gateOutcome, type CaseResult } from '../tally.js'
import { ReportFile } from '../output-files.js'
import { csvField } from '../../tools/csv-field.js'

/**
 * The columns: the case's id and content key, its standard and categories
 * (separated by spaces), agent (tokens separated by spaces), URL; the
 * reference's verdict and line, RFC 9309's; the implementation's verdict,
 * line and error (empty when it gave none); the outcome against the
 * reference and against the RFC (agree, verdict, line, error); whether the
 * verdict agrees and whether the line agrees with the reference (empty when
 * no line was given); the case's time in ms; and for a case that fails under
 * the run's semantics and score, the evidence: the adapter's raw answer, a
 * command's exit status (or signal), the first characters of its stdout and
 * stderr.
 */
export const CSV_COLUMNS = [
  'id', 'key', 'standard', 'categories', 'agent', 'url', 'expected_allowed', 'expected_line', 'rfc_allowed', 'rfc_line',
  'allowed', 'line', 'error', 'outcome', 'rfc_outcome', 'verdict_agrees', 'line_agrees', 'ms', 'raw', 'exit_status', 'stdout', 'stderr',
] as const

/** One case's row (without the line break); `failing`: its evidence is written. */
export function csvRow(c: Case, r: CaseResult, failing = false): string {
  const a = r.answer
  const agent = agentField(c.agents)
  const e = failing ? a.evidence : undefined
  const status = e?.signal ? e.signal : e?.status !== undefined && e.status !== null ? String(e.status) : ''
  const fields = [
    c.id,
    c.key,
    c.standard,
    c.categories.join(' '),
    Array.isArray(agent) ? agent.join(' ') : agent,
    c.url,
    String(c.expected.allowed),
    String(c.expected.line),
    String(c.rfc.allowed),
    String(c.rfc.line),
    a.error === undefined ? String(a.allowed) : '',
    a.line === undefined ? '' : String(a.line),
    a.error ?? '',
    r.outcome,
    r.rfcOutcome,
    a.error === undefined ? String(a.allowed === c.expected.allowed) : 'false',
    a.line === undefined ? '' : String((a.line === -1 ? 0 : a.line) === c.expected.line),
    r.ms.toFixed(4),
    e?.raw ?? '',
    status,
    e?.stdout ?? '',
    e?.stderr ?? '',
  ]
  return fields.map(csvField).join(',')
}

/** The CSV output of a run. */
export class CsvWriter implements CaseSink {
  private readonly out: ReportFile

  constructor(
    file: string,
    private readonly score: Score = 'lines',
    private readonly semantics: Semantics = 'reference',
  ) {
    this.out = new ReportFile(file)
    this.out.write(CSV_COLUMNS.join(',') + '\r\n')
  }

  add(c: Case, r: CaseResult): void {
    this.out.write(csvRow(c, r, fails(gateOutcome(r, this.semantics), this.score)) + '\r\n')
  }

  flush(): Promise<void> {
    return this.out.flush()
  }

  /** Writes the rest and closes the file. */
  close(): Promise<void> {
    return this.out.close()
  }
}
