/**
 * Process-level handling of stdout and stderr: a closed stdout (`| head`) ends
 * the run quietly with exit 0 (or the verdict status already found; 1, said,
 * while a verdict that comes only at the end is pending); any other write error (`> /dev/full`) is
 * reported as one line and exits 1. Writing to a closed stderr is ignored.
 * Every stderr line goes through {@link note}: prefixed `robots-automaton: `
 * (as GNU tools name themselves), after erasing the progress bar if any.
 */
import { fstatSync, statSync, writeSync } from 'node:fs'
import { PROGRAM } from './version.js'
import { exitProcess } from './interrupt.js'
import { printable } from '../../tools/printable.js'
import { CliError, describeSystemError, UsageError } from './cli-error.js'

let installed = false

/** The exit status a closed stdout ends the run with: 0, or a verdict the run has already found ({@link verdictFound}). */
let closedStatus = 0

/**
 * Records that the run has found what its exit status reports (`diff`'s
 * changed verdict, `check --exit-code`'s disallowed URL): a closed stdout
 * (`| head -1`), which ends the run quietly, then exits with `status`, not
 * 0, which would say that nothing was found.
 */
export function verdictFound(status: number): void {
  closedStatus = status
  closedNote = undefined
}

/** Said on stderr when stdout closes before the run has a verdict ({@link verdictPending}). */
let closedNote: string | undefined

/**
 * Records that the run gives its verdict only when it ends (`compare`, whose
 * reports stream to stdout as cases run): a stdout closed before then
 * (`--csv - | head`) exits 1 and says so, not 0, which would say that every
 * case agreed. {@link verdictFound} gives the verdict once it is known.
 */
export function verdictPending(): void {
  closedStatus = 1
  closedNote = 'stdout was closed before compare finished: no verdict is given (exit 1)'
}

/** Ends the process after a failed write to stdout (for a closed pipe 0, or the verdict found so far; else ERR_WRITE: 1 with a message). */
function stdoutFailed(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') {
    if (closedNote !== undefined) note(closedNote)
    exitProcess(closedStatus)
  }
  const failure = new CliError('ERR_WRITE', `cannot write to stdout: ${describeSystemError(err)}`)
  try {
    note(failure.message)
  } finally {
    exitProcess(failure.exitCode)
  }
}

/** Installs the stdout/stderr error handlers (once). */
export function guardStdio(): void {
  if (installed) return
  installed = true
  // A file or device as stdout: Node writes each chunk with one write(2) and drops what a short
  // count leaves (a file-size limit reached, a disk filling up), so the run would end 0 with its
  // output cut. Each chunk is written whole here: the write that cannot go on fails (EFBIG, ENOSPC).
  const out = process.stdout as unknown as { _write: (chunk: Uint8Array, encoding: string, done: (err?: unknown) => void) => void }
  if (out.constructor.name === 'SyncWriteStream') {
    out._write = (chunk, _, done) => {
      try {
        for (let n = 0; n < chunk.length; ) n += writeSync(1, chunk, n)
      } catch (err) {
        return done(err)
      }
      done()
    }
  }
  process.stdout.on('error', stdoutFailed)
  process.stderr.on('error', () => {})
}

/** Exits with `code` once stdout has taken everything written to it (or as `stdoutFailed` says if it failed). */
export function exitAfterStdout(code: number): void {
  const out = process.stdout
  const failed = out.errored as NodeJS.ErrnoException | null
  if (failed) stdoutFailed(failed)
  if (out.writableLength === 0) exitProcess(code)
  out.write('', (err) => {
    if (err) stdoutFailed(err)
    exitProcess(code)
  })
}

/** A line drawn in place on stderr (the progress bar), erased before any other stderr line. */
export interface StatusLine {
  /** Erases the line from the terminal (it may draw itself again later). */
  clear(): void
}

let status: StatusLine | undefined

/** Makes `line` the status line that `note` erases first (undefined: none). */
export function setStatusLine(line: StatusLine | undefined): void {
  status = line
}

/** What `note` writes for `message`: the program's prefix, the message with control characters escaped, a newline. */
export function stderrLine(message: string): string {
  return `${PROGRAM}: ${printable(message)}\n`
}

/**
 * Writes one line to stderr: every message of the CLI goes through here.
 * Control characters in it (from file names, hosts, URLs, robots.txt
 * content) are escaped (printable.ts), so input never drives the terminal; it
 * is prefixed `robots-automaton: `, so that a pipeline's log says which stage
 * spoke. A progress bar (progress.ts) registers itself as the status line:
 * `note` erases it before writing, and the bar draws itself again on its next
 * update, so a message never lands in the middle of it.
 */
export function note(message: string): void {
  status?.clear()
  process.stderr.write(stderrLine(message))
}

/**
 * Fails when stdin is a directory (`< dir`), which Node reads as empty: an
 * empty robots.txt or URL list would pass for the input. `what` names it in
 * the message (`robots.txt from 'stdin'`, `stdin`).
 */
export function refuseStdinDirectory(what: string): void {
  let directory = false
  try {
    directory = fstatSync(0).isDirectory()
  } catch {
    // A stdin that cannot be looked at fails when read.
  }
  if (directory) throw new CliError('ERR_READ', `cannot read ${what}: is a directory`)
}

/** What read stdin through a path to its pipe (`--crawlers @/dev/stdin`), for a later reader to name. */
let stdinReader: string | undefined

/** Records that `what` has read stdin, a pipe: another reader would find it empty. */
export function tookStdin(what: string): void {
  stdinReader ??= what
}

/**
 * A usage error when stdin, a pipe, was already read (`--crawlers
 * @/dev/stdin`) and `reader` (`the URL list`) reads it too (`name`, when
 * given, is a path to it: {@link isStdin}): it would find it empty, and the
 * run would judge nothing and end 0.
 */
export function refuseStdinTaken(reader: string, name?: string): void {
  if (stdinReader === undefined || (name !== undefined && !isStdin(name))) return
  throw new UsageError(`${stdinReader} reads stdin, so ${reader} cannot: name a file for one of them`)
}

/**
 * Whether `name` reads stdin: `-`, or a path to the pipe stdin is
 * (`/dev/stdin`, `/dev/fd/0`), which a second reader would find empty: it
 * counts as `-` where stdin may be read once.
 */
export function isStdin(name: string): boolean {
  try {
    const at = fstatSync(0)
    return name === '-' || ((at.isFIFO() || at.isSocket()) && statSync(name).ino === at.ino && statSync(name).dev === at.dev)
  } catch {
    return name === '-'
  }
}
