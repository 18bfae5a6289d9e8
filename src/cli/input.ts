/**
 * Input files for `filter`: named files, `.gz` files (decompressed) and stdin.
 * All inputs are checked before any output is written, so a missing file or a
 * directory given as a file fails the run at once (exit 1) with its name.
 */
import { open, stat } from 'node:fs/promises'
import { fstatSync, read } from 'node:fs'
import { createGunzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import { CliError, describeSystemError, readError } from './errors.js'

/** One input of `filter`. */
export interface InputFile {
  /** As shown in messages: the path, or `<stdin>`. */
  readonly name: string
  /** The path, or `null` for stdin. */
  readonly path: string | null
  /** Decompress with gunzip (files whose name ends in `.gz`; stdin never). */
  readonly gzip: boolean
  /** Size in bytes as stored (compressed for `.gz`), when known. */
  readonly size: number | undefined
}

/** Pulls bytes into a caller's buffer; 0 means the end of the input. */
export interface ByteReader {
  readInto(target: Uint8Array, offset: number, length: number): Promise<number>
  close(): Promise<void>
}

/** Counts bytes taken from the inputs as stored (compressed bytes for `.gz`), for the progress bar. */
export interface ByteCounter {
  bytes: number
}

/** Checks every input (exists, is not a directory) and returns them with their sizes. `-` is stdin. */
export async function resolveInputs(names: readonly string[]): Promise<InputFile[]> {
  if (names.length === 0) names = ['-']
  const inputs: InputFile[] = []
  for (const name of names) {
    if (name === '-') {
      inputs.push({ name: '<stdin>', path: null, gzip: false, size: stdinSize() })
      continue
    }
    let info
    try {
      info = await stat(name)
    } catch (err) {
      throw readError('input file', name, err)
    }
    if (info.isDirectory()) throw new CliError('ERR_READ', `cannot read input file '${name}': is a directory`)
    inputs.push({ name, path: name, gzip: name.endsWith('.gz'), size: info.isFile() ? info.size : undefined })
  }
  return inputs
}

/** Size of stdin when it is a regular file (`< file`), otherwise undefined. */
function stdinSize(): number | undefined {
  try {
    const info = fstatSync(0)
    return info.isFile() ? info.size : undefined
  } catch {
    return undefined
  }
}

/** Opens an input for reading, counting stored bytes into `counter`. */
export async function openInput(input: InputFile, counter: ByteCounter): Promise<ByteReader> {
  if (input.path === null) {
    if (input.size !== undefined) return new FdReader(0, counter, async () => {})
    return new StreamReader(process.stdin, counter, input.name, true)
  }
  let handle
  try {
    handle = await open(input.path, 'r')
  } catch (err) {
    throw readError('input file', input.name, err)
  }
  if (!input.gzip) {
    const h = handle
    return new FdReader(h.fd, counter, () => h.close(), input.name)
  }
  const file = handle.createReadStream({ highWaterMark: 1 << 20 })
  const gunzip = createGunzip({ chunkSize: 1 << 18 })
  file.on('data', (chunk: string | Buffer) => {
    counter.bytes += chunk.length
  })
  file.on('error', (err) => gunzip.destroy(err))
  file.pipe(gunzip)
  return new StreamReader(gunzip, { bytes: 0 }, input.name, false, () => {
    file.destroy()
  })
}

/** Reads a file descriptor straight into the caller's buffer: no copy. */
class FdReader implements ByteReader {
  constructor(
    private readonly fd: number,
    private readonly counter: ByteCounter,
    private readonly onClose: () => Promise<void>,
    private readonly name = '<stdin>',
  ) {}

  readInto(target: Uint8Array, offset: number, length: number): Promise<number> {
    return new Promise((resolve, reject) => {
      read(this.fd, target, offset, length, null, (err, n) => {
        if (err) reject(readError('input file', this.name, err))
        else {
          this.counter.bytes += n
          resolve(n)
        }
      })
    })
  }

  close(): Promise<void> {
    return this.onClose()
  }
}

/** Copies chunks of a Node readable stream into the caller's buffer. */
class StreamReader implements ByteReader {
  private readonly iterator: AsyncIterator<Buffer>
  private chunk: Buffer | undefined
  private at = 0

  constructor(
    private readonly stream: Readable,
    private readonly counter: ByteCounter,
    private readonly name: string,
    private readonly isStdin: boolean,
    private readonly onClose: () => void = () => {},
  ) {
    this.iterator = stream[Symbol.asyncIterator]()
  }

  async readInto(target: Uint8Array, offset: number, length: number): Promise<number> {
    if (this.chunk === undefined) {
      let next: IteratorResult<Buffer>
      try {
        next = await this.iterator.next()
      } catch (err) {
        const what = this.isStdin ? 'stdin' : 'input file'
        throw new CliError('ERR_READ', `cannot read ${what}${this.isStdin ? '' : ` '${this.name}'`}: ${describeSystemError(err)}`)
      }
      if (next.done) return 0
      this.chunk = next.value
      this.at = 0
      this.counter.bytes += next.value.length
    }
    const chunk = this.chunk
    const n = Math.min(length, chunk.length - this.at)
    target.set(chunk.subarray(this.at, this.at + n), offset)
    this.at += n
    if (this.at === chunk.length) this.chunk = undefined
    return n
  }

  async close(): Promise<void> {
    this.onClose()
    if (!this.isStdin) this.stream.destroy()
  }
}
