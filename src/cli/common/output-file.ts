/**
 * The command line's outputs: the Node entry's output paths
 * (`robots-automaton/node`: checked before any work, replaced through
 * links, streamed to FIFOs and devices), their errors as the CLI's
 * (ERR_WRITE, exit 1); and which of them a run stopped by a signal did not
 * write.
 */
import { checkOutput as check, writeOutput as write, type OutputTarget } from '../../node.js'
import { CliError } from './cli-error.js'

export { OutputWriter, type OutputTarget } from '../../node.js'

/** The CLI's error for an output that cannot be written. */
export const writeError = (message: string): CliError => new CliError('ERR_WRITE', message)

/** Checks an output path before any work (a CliError, ERR_WRITE, says what is wrong). */
export function checkOutput(path: string, what: string): OutputTarget {
  return check(path, what, writeError)
}

/** Outputs a run writes once its work is done ({@link willWrite}), not written yet. */
const unwritten = new Set<OutputTarget>()

/** Records that the run writes `target` with {@link writeOutput} at its end: a signal that ends the run before then names it as not written. */
export function willWrite(target: OutputTarget): OutputTarget {
  unwritten.add(target)
  return target
}

/** The outputs of {@link willWrite} not written yet, as a note names them (`bundle 'x.bundle'`). */
export function unwrittenOutputs(): string[] {
  return [...unwritten].map((t) => `${t.what} '${t.path}'`)
}

/** Writes `bytes` to the output `target` (checked before) in one go. */
export async function writeOutput(target: OutputTarget, bytes: Uint8Array | string): Promise<void> {
  await write(target, bytes)
  unwritten.delete(target)
}

/** Writes `bytes` to `path` as an output, checked now. */
export async function writeFileAtomic(path: string, bytes: Uint8Array | string, what: string): Promise<void> {
  await writeOutput(checkOutput(path, what), bytes)
}
