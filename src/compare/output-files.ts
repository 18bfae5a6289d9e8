/**
 * `compare`'s output files (its reports, `--export`) as every tool writes
 * them: the Node entry's output paths (checked before any work, replaced
 * atomically through links, streamed to FIFOs and devices), their errors
 * as compare's (ERR_WRITE, exit 1).
 */
import { checkOutput, outputStream, OutputWriter, writeFileAtomic, type OutputTarget } from '../node.js'
import { CompareError } from './compare-error.js'
import type { Writable } from 'node:stream'

/** compare's error for an output that cannot be written. */
export const reportWriteError = (message: string): CompareError => new CompareError('ERR_WRITE', message)

/** Writes `text` to `file` whole (replaced atomically, or streamed to a FIFO). */
export function writeReport(file: string, text: string): Promise<void> {
  return writeFileAtomic(file, text, 'report', reportWriteError)
}

/** `file` opened as an output stream (renamed into place when it ends). */
export function reportStream(file: string, what = 'report'): Writable {
  return outputStream(checkOutput(file, what, reportWriteError))
}


/** Text written as a run goes (buffered between flushes) into an output file, renamed into place (or closed) by `close()`. */
export class ReportFile {
  private readonly target: OutputTarget
  private writer: OutputWriter | undefined
  private chunks: string[] = []

  constructor(file: string) {
    this.target = checkOutput(file, 'report', reportWriteError)
  }

  /** Adds text (written at the next flush). */
  write(text: string): void {
    this.chunks.push(text)
  }

  /** Writes what was added (the file is opened at the first flush). */
  async flush(): Promise<void> {
    this.writer ??= await OutputWriter.open(this.target)
    const text = this.chunks.join('')
    this.chunks = []
    if (text !== '') await this.writer.write(text)
  }

  /** Writes the rest and puts the file in place. */
  async close(): Promise<void> {
    await this.flush()
    await this.writer!.commit()
  }
}
