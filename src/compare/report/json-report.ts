/** `--json FILE`: the report object (report-model.ts) as JSON. */
import { writeFile } from 'node:fs/promises'
import { CliError, describeSystemError } from '../../internals.js'
import type { Report } from './report-model.js'

/** The report as JSON text. */
export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n'
}

/** Writes the report to `file`. */
export async function writeJsonReport(report: Report, file: string): Promise<void> {
  try {
    await writeFile(file, renderJson(report))
  } catch (err) {
    throw new CliError('ERR_WRITE', `cannot write '${file}': ${describeSystemError(err)}`)
  }
}
