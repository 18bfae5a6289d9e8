/**
 * Process-level handling of stdout and stderr: a closed stdout (`| head`) ends
 * the run quietly with exit 0; any other write error (`> /dev/full`) is
 * reported as one line and exits 1. Writing to a closed stderr is ignored.
 */
import { PROGRAM } from './help.js'
import { CliError, describeSystemError } from './errors.js'
import { printable } from './escape.js'

let installed = false

/** Ends the process after a failed write to stdout (exit 0 for a closed pipe, else ERR_WRITE: 1 with a message). */
function stdoutFailed(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0)
  const failure = new CliError('ERR_WRITE', `cannot write to stdout: ${describeSystemError(err)}`)
  try {
    note(`${PROGRAM}: ${failure.message}`)
  } finally {
    process.exit(failure.exitCode)
  }
}

/** Installs the stdout/stderr error handlers (once). */
export function guardStdio(): void {
  if (installed) return
  installed = true
  process.stdout.on('error', stdoutFailed)
  process.stderr.on('error', () => {})
}

/** Exits with `code` once stdout has taken everything written to it (or as `stdoutFailed` says if it failed). */
export function exitAfterStdout(code: number): void {
  const out = process.stdout
  const failed = out.errored as NodeJS.ErrnoException | null
  if (failed) stdoutFailed(failed)
  if (out.writableLength === 0) process.exit(code)
  out.write('', (err) => {
    if (err) stdoutFailed(err)
    process.exit(code)
  })
}

/**
 * Writes one line to stderr: every message of the CLI goes through here.
 * Control characters in it (from file names, hosts, URLs, robots.txt
 * content) are escaped (escape.ts), so input never drives the terminal.
 */
export function note(line: string): void {
  process.stderr.write(`${printable(line)}\n`)
}
