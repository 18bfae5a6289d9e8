/**
 * Output files no reader ever sees half written: the bytes go to a
 * temporary file beside the target, renamed into place once complete
 * ({@link writeFileAtomic} for a buffer, {@link AtomicLines} for lines
 * written as they come). `-` is stdout, written as it goes.
 */
import { once } from 'node:events'
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { CliError, describeSystemError } from './cli-error.js'

/** The temporary file beside `path`. */
function temporaryOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let n = 0; n < bytes.length; ) n += writeSync(fd, bytes, n, bytes.length - n)
}

/** Writes `bytes` to `path` through a temporary file renamed into place (or to stdout for `-`); `what` names the file in errors ('bundle'). */
export async function writeFileAtomic(path: string, bytes: Uint8Array, what: string): Promise<void> {
  if (path === '-') {
    await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (err) => (err ? reject(err) : resolve())))
    return
  }
  const temporary = temporaryOf(path)
  let fd = -1
  try {
    fd = openSync(temporary, 'w')
    writeAll(fd, bytes)
    closeSync(fd)
    fd = -1
    renameSync(temporary, path)
  } catch (err) {
    if (fd >= 0) closeSync(fd)
    rmSync(temporary, { force: true })
    throw new CliError('ERR_WRITE', `cannot write ${what} '${path}': ${describeSystemError(err)}`)
  }
}

/** Lines written as they come, into a temporary file that `commit()` renames into place (or to stdout for `-`). */
export class AtomicLines {
  private fd = -1
  private readonly temporary: string

  constructor(
    private readonly path: string,
    private readonly what: string,
  ) {
    this.temporary = temporaryOf(path)
    if (path === '-') return
    try {
      this.fd = openSync(this.temporary, 'w')
    } catch (err) {
      throw new CliError('ERR_WRITE', `cannot write ${what} '${path}': ${describeSystemError(err)}`)
    }
  }

  /** Writes one line (`text` without its newline). */
  async line(text: string): Promise<void> {
    const bytes = Buffer.from(`${text}\n`)
    if (this.fd < 0) {
      if (!process.stdout.write(bytes)) await once(process.stdout, 'drain')
      return
    }
    try {
      writeAll(this.fd, bytes)
    } catch (err) {
      this.abort()
      throw new CliError('ERR_WRITE', `cannot write ${this.what} '${this.path}': ${describeSystemError(err)}`)
    }
  }

  /** Closes the file and renames it into place. */
  commit(): void {
    if (this.fd < 0) return
    try {
      closeSync(this.fd)
      this.fd = -1
      renameSync(this.temporary, this.path)
    } catch (err) {
      this.abort()
      throw new CliError('ERR_WRITE', `cannot write ${this.what} '${this.path}': ${describeSystemError(err)}`)
    }
  }

  /** Closes and removes the temporary file (the target is left as it was). */
  abort(): void {
    if (this.fd >= 0) closeSync(this.fd)
    this.fd = -1
    if (this.path !== '-') rmSync(this.temporary, { force: true })
  }
}
