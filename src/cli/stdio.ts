/**
 * Process-level handling of stdout and stderr: a closed stdout (`| head`) ends
 * the run quietly with exit 0; any other write error is reported and exits 1.
 * Writing to a closed stderr is ignored.
 */
import { PROGRAM } from './help.js'
import { describeSystemError } from './errors.js'

let installed = false

/** Installs the stdout/stderr error handlers (once). */
export function guardStdio(): void {
  if (installed) return
  installed = true
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0)
    try {
      process.stderr.write(`${PROGRAM}: cannot write to stdout: ${describeSystemError(err)}\n`)
    } finally {
      process.exit(1)
    }
  })
  process.stderr.on('error', () => {})
}

/** Writes one line to stderr. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`)
}
