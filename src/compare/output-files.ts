/**
 * `compare`'s output files (its reports, `--export`) as every tool writes
 * them: the Node entry's output paths (checked before any work, replaced
 * atomically through links, streamed to FIFOs and devices), their errors
 * as compare's (ERR_WRITE, exit 1).
 */
import { Writable } from 'node:stream'
import { checkOutput, OutputWriter, writeFileAtomic, type OutputTarget } from '../node.js'
import { CompareError } from './compare-error.js'

/** compare's error for an output that cannot be written. */
export const reportWriteError = (message: string): CompareError => new CompareError('ERR_WRITE', message)

/** Writes `text` to `file` whole (replaced atomically, or streamed to a FIFO). */
export function writeReport(file: string, text: string): Promise<void> {
  return writeFileAtomic(file, text, 'report', reportWriteError)
}

/**
 * `file` opened as an output stream, for writers that pipe: opened at once,
 * written as it comes, renamed into place (or closed) when the stream ends;
 * destroyed with an error, the target is left as it was.
 */
export function reportStream(file: string, what = 'report'): Writable {
  const target = checkOutput(file, what, reportWriteError)
  let writer: OutputWriter | undefined
  return new Writable({
    construct(callback) {
      OutputWriter.open(target).then((w) => {
        writer = w
        callback()
      }, callback)
    },
    write(chunk: Buffer, _encoding, callback) {
      writer!.write(chunk).then(() => callback(), callback)
    },
    final(callback) {
      writer!.commit().then(() => callback(), callback)
    },
    destroy(err, callback) {
      if (err !== null) writer?.abort()
      callback(err)
    },
  })
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

  /** Stops: a file is left as it was (a stream keeps what it was given). */
  abort(): void {
    this.chunks = []
    this.writer?.abort()
  }
}
