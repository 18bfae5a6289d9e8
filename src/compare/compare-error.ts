/**
 * `compare`'s errors: {@link CompareError}, a `RobotsError` with the codes
 * of this layer and an exit status (the command line prints its message and
 * exits with it), and the message of a file that could not be read
 * ({@link readError}). The adapters' failure (`AdapterFailure`,
 * ERR_ADAPTER) extends it.
 */
import { RobotsError } from '../index.js'
import { describeSystemError } from '../node.js'
import { readErrorText } from '../tools/read-error-text.js'

/** Codes of `compare`'s errors. */
export type CompareErrorCode =
  | 'ERR_USAGE' // options that do not go together, a case set that does not exist: exit 2
  | 'ERR_READ' // a case, corpus, matrix or report file could not be read: exit 1
  | 'ERR_WRITE' // a report could not be written: exit 1
  | 'ERR_ADAPTER' // the implementation under test could not be run or broke its protocol: exit 1

/** An error of `compare`: the command line reports its message and exits with `exitCode`. */
export class CompareError extends RobotsError<CompareErrorCode> {
  /** 1 a failure, 2 a usage error. */
  readonly exitCode: 1 | 2
  constructor(code: CompareErrorCode, message: string) {
    super(code, message)
    this.name = 'CompareError'
    this.exitCode = code === 'ERR_USAGE' ? 2 : 1
  }
}

/** Options of `compare` that are not right (exit 2). */
export function usageError(message: string): CompareError {
  return new CompareError('ERR_USAGE', message)
}

/** A `CompareError` (exit 1) for a file that could not be read. */
export function readError(what: string, name: string, err: unknown): CompareError {
  return new CompareError('ERR_READ', readErrorText(what, name, err))
}

export { describeSystemError }
