/**
 * A file written in chunks as a run goes: text is buffered in memory and
 * appended to the file at each `flush()` (the run flushes after every block
 * of cases), so that what was written survives whatever ends the run later.
 */
import { appendFile, writeFile } from 'node:fs/promises'
import { CliError, describeSystemError } from '../../internals.js'

/** A file written in chunks (created, or emptied, by the first flush; no file handle is held between flushes). */
export class BufferedFile {
  private started = false
  private chunks: string[] = []
  private closed = false

  constructor(readonly file: string) {}

  /** Adds text (written at the next flush). */
  write(text: string): void {
    this.chunks.push(text)
  }

  /** Appends what was buffered to the file. */
  async flush(): Promise<void> {
    if (this.closed) return
    const text = this.chunks.join('')
    this.chunks = []
    try {
      if (!this.started) await writeFile(this.file, text)
      else if (text !== '') await appendFile(this.file, text)
      this.started = true
    } catch (err) {
      throw new CliError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
    }
  }

  /** Flushes and stops: later writes are dropped. */
  async close(): Promise<void> {
    await this.flush()
    this.closed = true
  }
}
