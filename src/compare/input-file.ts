/**
 * Reading `compare`'s input files whole (a URL list, a matrix, a body named
 * by a case) within a limit: a directory or a device is refused by name, a
 * file past the limit is an error rather than memory taken without end
 * (`/dev/zero`), and a FIFO is read like a file unless only regular files
 * make sense. Errors are `ERR_READ`.
 */
import { closeSync, constants, createReadStream, fstatSync, openSync, readSync, statSync } from 'node:fs'
import type { ReadStream } from 'node:fs'
import { CompareError, readError } from './compare-error.js'

/** What may be read besides a regular file. */
export interface InputFileOptions {
  /** Most bytes read; past it the file is refused. */
  readonly limit: number
  /** Refuse a FIFO too (a body file: a FIFO without a writer would hold the run). */
  readonly regularOnly?: boolean
}

/** Largest `--json` report or baseline read back (the longest string the engine holds is a little over 512 MiB). */
export const MAX_REPORT_BYTES = 500 << 20

/** A size in words: `64 MiB`. */
export function sizeWords(bytes: number): string {
  return bytes % (1 << 20) === 0 ? `${bytes / (1 << 20)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

/** The bytes of `path`; errors say `cannot read WHAT 'SHOWN': why` (`shown`: the name as the user gave it). */
export function readInputFile(path: string, what: string, options: InputFileOptions, shown = path): Buffer {
  const refuse = (why: string): never => {
    throw new CompareError('ERR_READ', `cannot read ${what} '${shown}': ${why}`)
  }
  let fd: number
  try {
    // A FIFO would block the open itself until a writer comes: look before opening.
    const st = statSync(path)
    if (st.isDirectory()) refuse('is a directory')
    if (st.isCharacterDevice() || st.isBlockDevice()) refuse('is a device, not a file')
    if (options.regularOnly && !st.isFile()) refuse('not a regular file')
    fd = openSync(path, 'r')
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError(what, shown, err)
  }
  try {
    if (!fstatSync(fd).isFile() && options.regularOnly) refuse('not a regular file')
    const chunks: Buffer[] = []
    let total = 0
    // Each read copied out of one buffer: a pipe gives 64 KiB a read, and a 1 MiB buffer kept per read would hold 16 times the file.
    const buffer = Buffer.allocUnsafe(1 << 20)
    for (;;) {
      const got = readSync(fd, buffer, 0, Math.min(buffer.length, options.limit + 1 - total), null)
      if (got === 0) break
      chunks.push(Buffer.from(buffer.subarray(0, got)))
      total += got
      if (total > options.limit) refuse(`larger than ${sizeWords(options.limit)}`)
    }
    return Buffer.concat(chunks, total)
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError(what, shown, err)
  } finally {
    closeSync(fd)
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** A file name's bytes as text, or undefined when they are not UTF-8 (Node would read them back with U+FFFD: no file is named so). */
export function fileName(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes)
  } catch {
    return undefined
  }
}

/** A name that is not UTF-8, shown: its bytes outside printable ASCII as `\xHH`. */
export function shownBytes(bytes: Buffer): string {
  let out = ''
  for (const b of bytes) out += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`
  return out
}

/** The opens of input FIFOs still waiting for a writer, each with the function that frees it. */
const waitingForWriters = new Set<() => void>()

/**
 * Inputs stop waiting for a FIFO's writer (the run was interrupted): each
 * open(2) still blocked on one, in a thread of the pool, returns and the
 * FIFO reads as ended. Such a thread would keep the process from ending,
 * even at a second signal.
 */
export function stopWaitingForWriters(): void {
  for (const free of [...waitingForWriters]) free()
}

/** Lets {@link stopWaitingForWriters} free `stream`'s open of `file` while it waits for a FIFO's writer. */
export function freeableOpen(file: string, stream: ReadStream): void {
  try {
    if (!statSync(file).isFIFO()) return
  } catch {
    return // the stream's open says why
  }
  const free = (): void => {
    waitingForWriters.delete(free)
    try {
      // A writer opened and closed at once: the blocked open returns, and the FIFO is at its end unless a real writer came.
      closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // No reader waiting (ENXIO): the open returned already.
    }
  }
  waitingForWriters.add(free)
  const opened = (): void => void waitingForWriters.delete(free)
  stream.once('open', opened)
  stream.once('error', opened)
}

/** Whether `path` is a FIFO (false when it cannot be looked at: the read says why). */
export function isFifo(path: string): boolean {
  try {
    return statSync(path).isFIFO()
  } catch {
    return false
  }
}

/**
 * {@link readInputFile}, except that a FIFO is opened and read off the main
 * thread: its open waits for a writer, and a signal must still be handled
 * then ({@link stopWaitingForWriters} frees the open, or the signal ends the
 * process). Any other file is read by {@link readInputFile} itself.
 */
export async function readInputFileFreeable(path: string, what: string, options: InputFileOptions, shown = path): Promise<Buffer> {
  if (options.regularOnly || !isFifo(path)) return readInputFile(path, what, options, shown)
  const stream = createReadStream(path, { highWaterMark: 1 << 16 })
  freeableOpen(path, stream)
  const chunks: Buffer[] = []
  let total = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk)
      total += chunk.length
      if (total > options.limit) throw new CompareError('ERR_READ', `cannot read ${what} '${shown}': larger than ${sizeWords(options.limit)}`)
    }
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError(what, shown, err)
  } finally {
    stream.destroy()
  }
  return Buffer.concat(chunks, total)
}
