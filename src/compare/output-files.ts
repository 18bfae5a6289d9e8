/**
 * `compare`'s output files (its reports, `--export`) as every tool writes
 * them: the Node entry's output paths (checked before any work, replaced
 * atomically through links, streamed to FIFOs and devices), their errors
 * as compare's (ERR_WRITE, exit 1).
 */
import { closeSync, constants, openSync, statSync } from 'node:fs'
import { Writable } from 'node:stream'
import { checkOutput, OutputWriter, type OutputTarget } from '../node.js'
import { CompareError } from './compare-error.js'

/** compare's error for an output that cannot be written. */
export const reportWriteError = (message: string): CompareError => new CompareError('ERR_WRITE', message)

/** Why outputs no longer wait for a FIFO's reader (the run was interrupted), once {@link stopWaitingForReaders} was called. */
let stopped: string | undefined
/** FIFO opens waiting for a reader, each with the function that gives it up. */
const waiting = new Set<(why: string) => void>()
/** FIFOs held open for reading here to free a blocked open: such a reader is no reader of the report. */
const freeing = new Map<string, number>()
/** How long an open after the interrupt may wait for the reader seen a moment before (one that goes away is not waited for). */
const OPEN_AFTER_STOP_MS = 2000

/**
 * Outputs stop waiting for a FIFO's reader (`why`: the signal that stopped
 * the run): those waiting give up, and later ones are written only when a
 * reader is there already. Each given up is an ERR_WRITE naming it.
 */
export function stopWaitingForReaders(why: string): void {
  stopped = why
  for (const giveUp of [...waiting]) giveUp(why)
}

/** Outputs wait for a FIFO's reader again (a new run). */
export function waitForReaders(): void {
  stopped = undefined
}

const isFifo = (file: string): boolean => {
  try {
    return statSync(file).isFIFO()
  } catch {
    return false
  }
}

/**
 * A writer of the FIFO `file` opened without waiting, when it has a reader
 * other than one held here (without one, a non-blocking open for writing
 * fails with ENXIO). Held until the report's own writer is open, so that
 * the reader never sees every writer gone (its end of file) in between.
 */
function readerHold(file: string): number | undefined {
  if (freeing.has(file)) return undefined
  try {
    return openSync(file, constants.O_WRONLY | constants.O_NONBLOCK)
  } catch {
    return undefined
  }
}

const noReader = (target: OutputTarget, why: string): CompareError =>
  reportWriteError(`${target.what} '${target.path}' not written: the FIFO has no reader, and the run was ${why}`)

/** Holds `file` open for reading until `opening` settles, so that an open(2) blocked on it returns; what it opened is dropped. */
function freeBlockedOpen(file: string, opening: Promise<OutputWriter>): void {
  let fd: number | undefined
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    // Gone: the open fails by itself.
  }
  if (fd === undefined) return
  freeing.set(file, (freeing.get(file) ?? 0) + 1)
  void opening
    .then((w) => w.abort(), () => {})
    .finally(() => {
      closeSync(fd)
      const left = freeing.get(file)! - 1
      if (left === 0) freeing.delete(file)
      else freeing.set(file, left)
    })
}

/**
 * Opens `target` as {@link OutputWriter.open} does, except that waiting for
 * a FIFO's reader stops at {@link stopWaitingForReaders}: the thread of
 * the pool blocked in open(2) is freed by opening the FIFO for reading
 * here (the writer then opened is dropped), so that nothing keeps the
 * process from ending. After that, a FIFO is opened only when it has a
 * reader, and given up if the reader goes before the open completes.
 */
async function openOutput(target: OutputTarget): Promise<OutputWriter> {
  if (target.kind !== 'stream' || !isFifo(target.file)) return OutputWriter.open(target)
  const hold = stopped !== undefined ? readerHold(target.file) : undefined
  if (stopped !== undefined && hold === undefined) throw noReader(target, stopped)
  const opening = OutputWriter.open(target)
  let gaveUp = false
  let giveUp!: (why: string) => void
  const givenUp = new Promise<never>((_, reject) => {
    giveUp = (why) => {
      gaveUp = true
      reject(noReader(target, why))
    }
  })
  waiting.add(giveUp)
  const late = stopped
  const timer = late !== undefined ? setTimeout(() => giveUp(late), OPEN_AFTER_STOP_MS) : undefined
  try {
    return await Promise.race([opening, givenUp])
  } catch (err) {
    if (!gaveUp) throw err
    freeBlockedOpen(target.file, opening)
    throw err
  } finally {
    clearTimeout(timer)
    waiting.delete(giveUp)
    if (hold !== undefined) closeSync(hold)
  }
}

/** Writes `text` to `file` whole (replaced atomically, or streamed to a FIFO). */
export async function writeReport(file: string, text: string): Promise<void> {
  const w = await openOutput(checkOutput(file, 'report', reportWriteError))
  await w.write(text)
  await w.commit()
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
      openOutput(target).then((w) => {
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
    this.writer ??= await openOutput(this.target)
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
