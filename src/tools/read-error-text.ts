/** The text of an error reading a file, shared by the command line's and compare's read errors. */
import { describeSystemError } from '../node.js'

/**
 * `cannot read WHAT 'NAME': why`; a missing `-` is said not to be stdin
 * here (where a file is named, `-` is a file's name).
 */
export function readErrorText(what: string, name: string, err: unknown): string {
  const missing = (err as { code?: unknown } | null)?.code === 'ENOENT'
  return `cannot read ${what} '${name}': ${describeSystemError(err)}${missing && name === '-' ? " ('-' is not stdin here: name a file)" : ''}`
}
