/**
 * `--json FILE`: the report object (report-model.ts) as JSON, with every
 * case of the run in `cases` (spooled to a temporary file as the run goes,
 * one object per line, and copied into the report when it is written).
 */
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { join } from 'node:path'
import type { Case } from '../case.js'
import { fails, type Score, type Semantics } from '../outcome.js'
import type { CaseSink } from '../run.js'
import { gateOutcome, type CaseResult } from '../tally.js'
import { BufferedFile } from './buffered-file.js'
import { reportStream, writeReport } from '../output-files.js'
import { reportedCase, type Report } from './report-model.js'
import { CompareError, describeSystemError } from '../compare-error.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'
import { jsonLine } from '../../tools/printable.js'

/** The report as JSON text (without `cases`). */
export function renderJson(report: Report): string {
  return jsonLine(report, 2) + '\n'
}

/** Every case of a run, spooled for the JSON report (a failing case with its evidence). */
export class JsonCases implements CaseSink {
  private readonly dir = makeTempFolder('robots-compare-json-')
  readonly spool = new BufferedFile(join(this.dir, 'cases.jsonl'))
  private first = true

  constructor(
    private readonly score: Score = 'lines',
    private readonly semantics: Semantics = 'reference',
  ) {}

  add(c: Case, r: CaseResult): void {
    const failing = fails(gateOutcome(r, this.semantics), this.score)
    this.spool.write(`${this.first ? '' : ',\n'}    ${jsonLine(reportedCase(c, r, failing))}`)
    this.first = false
  }

  flush(): Promise<void> {
    return this.spool.flush()
  }

  /** Deletes the spool. */
  remove(): void {
    removeTempFolder(this.dir)
  }
}

/** Writes the report to `file`, with the spooled cases as `cases` when given. */
export async function writeJsonReport(report: Report, file: string, cases?: JsonCases): Promise<void> {
  try {
    const text = renderJson(report)
    if (cases === undefined) return await writeReport(file, text)
    await cases.spool.close()
    const head = text.slice(0, text.lastIndexOf('}')).trimEnd()
    // One pipeline: a write error of the file (a full disk) fails it, never waits for ever nor goes unseen.
    await pipeline(async function* () {
      yield `${head},\n  "cases": [\n`
      yield* createReadStream(cases.spool.file)
      yield '\n  ]\n}\n'
    }, reportStream(file))
  } catch (err) {
    throw err instanceof CompareError ? err : new CompareError('ERR_WRITE', `cannot write '${file}': ${describeSystemError(err)}`)
  }
}
