/**
 * Errors of the command line. Every error the CLI reports is one of these: a
 * stable `code`, the process exit code, and a one-line message that names the
 * file or option at fault. They stay inside the process (main.ts prints them);
 * errors of the library (src/errors.ts) that reach main.ts are printed with
 * their own code.
 */

/** Stable codes of CLI errors. */
export type CliErrorCode =
  | 'ERR_USAGE' // bad arguments: exit 2
  | 'ERR_READ' // a file or stream could not be read: exit 1
  | 'ERR_WRITE' // stdout (other than a closed pipe) or an output file could not be written: exit 1
  | 'ERR_FETCH' // a robots.txt URL could not be fetched: exit 1
  | 'ERR_ADAPTER' // compare: the implementation under test could not be run or broke its protocol: exit 1
  | 'ERR_FORMAT' // a bundle (or pack input) that is not valid: exit 1
  | 'ERR_VERSION' // a bundle of a format version this build does not read: exit 1
  | 'ERR_WORKER' // a worker thread of filter --jobs failed: exit 1

/** An error the CLI reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends Error {
  readonly code: CliErrorCode
  readonly exitCode: 1 | 2
  constructor(code: CliErrorCode, message: string, exitCode: 1 | 2 = 1) {
    super(message)
    this.name = 'CliError'
    this.code = code
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

/** Plain words for the system errors a user meets when naming files. */
const SYSTEM_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
  ENOSPC: 'no space left on device',
  Z_DATA_ERROR: 'not valid gzip data',
  Z_BUF_ERROR: 'gzip data is cut short',
}

/** A short description of a Node system error, e.g. "no such file or directory". */
export function describeSystemError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown }
  if (typeof e?.code === 'string' && SYSTEM_WORDS[e.code] !== undefined) return SYSTEM_WORDS[e.code]
  const message = typeof e?.message === 'string' ? e.message : String(err)
  return message.split('\n')[0]
}

/** A `CliError` (exit 1) for a file that could not be read. */
export function readError(what: string, name: string, err: unknown): CliError {
  return new CliError('ERR_READ', `cannot read ${what} '${name}': ${describeSystemError(err)}`)
}
