/**
 * The command line's outputs: the Node entry's output paths
 * (`robots-automaton/node`: checked before any work, replaced through
 * links, streamed to FIFOs and devices), their errors as the CLI's
 * (ERR_WRITE, exit 1).
 */
import { checkOutput as check, writeOutput, type OutputTarget } from '../../node.js'
import { CliError } from './cli-error.js'

export { OutputWriter, writeOutput, type OutputTarget } from '../../node.js'

/** The CLI's error for an output that cannot be written. */
export const writeError = (message: string): CliError => new CliError('ERR_WRITE', message)

/** Checks an output path before any work (a CliError, ERR_WRITE, says what is wrong). */
export function checkOutput(path: string, what: string): OutputTarget {
  return check(path, what, writeError)
}

/** Writes `bytes` to `path` as an output, checked now. */
export async function writeFileAtomic(path: string, bytes: Uint8Array | string, what: string): Promise<void> {
  await writeOutput(checkOutput(path, what), bytes)
}
