/**
 * The command line's errors: {@link CliError} (a code and an exit status),
 * {@link UsageError} (exit 2), and the message of a file that could not be
 * read ({@link readError}). They extend the core's tree (`RobotsError`) with
 * codes of this layer and never leave the command's process: `main.ts`
 * prints one line and exits with the status.
 */
import { RobotsError } from '../../index.js'
import { describeSystemError } from '../../node.js'
import { readErrorText } from '../../tools/read-error-text.js'

/** Codes of the command line's errors; ERR_FETCH, ERR_FORMAT and ERR_VERSION mean what they mean for the library. */
export type CliErrorCode =
  | 'ERR_USAGE' // bad arguments: exit 2
  | 'ERR_READ' // a file or stream could not be read: exit 1
  | 'ERR_WRITE' // stdout (other than a closed pipe) or an output file could not be written: exit 1
  | 'ERR_FETCH' // a robots.txt URL could not be fetched: exit 1
  | 'ERR_FORMAT' // a bundle (or pack input) that is not valid: exit 1
  | 'ERR_VERSION' // a bundle of a format version this build does not read: exit 1
  | 'ERR_WORKER' // a worker thread of filter --jobs failed: exit 1
  | 'ERR_LISTEN' // playground: its address could not be bound (a port in use): exit 1
  | 'ERR_NO_URL' // filter, diff, fetch: no line of the input held a URL, or --invalid fail met a line without one; check --exit-code: no URL checked: exit 4
  | 'ERR_LOCAL' // fetch, audit --fetch: nothing could be fetched for a while, only failures of this machine (descriptors, memory, ports), or origins left out by it: exit 1

/** An error the command line reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends RobotsError<CliErrorCode> {
  /** 1 a failure, 2 a usage error, 4 no line of the input held a URL (`filter`). */
  readonly exitCode: 1 | 2 | 4
  constructor(code: CliErrorCode, message: string, exitCode: 1 | 2 | 4 = 1) {
    super(code, message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** Bad command-line arguments (exit 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super('ERR_USAGE', message, 2)
    this.name = 'UsageError'
  }
}

/**
 * A `CliError` (exit 1) for a file that could not be read. A name that is
 * missing and holds U+FFFD most likely had bytes that are not UTF-8, which
 * Node replaces in the arguments it hands over: the file is there, under
 * another name, and the message says so. A missing `-` is said not to be
 * stdin here.
 */
export function readError(what: string, name: string, err: unknown): CliError {
  const lost = (err as { code?: unknown } | null)?.code === 'ENOENT' && name.includes('\uFFFD')
  const hint = lost ? ` (a name that is not valid UTF-8 cannot reach this program: Node reads its arguments as UTF-8, each bad byte as U+FFFD; rename the file or give it on stdin)` : ''
  return new CliError('ERR_READ', readErrorText(what, name, err) + hint)
}

export { describeSystemError }
