/**
 * Input of `filter` and `diff`: named files and stdin, gzip-compressed or
 * not. All inputs are checked before any output is written, so a missing file
 * or a directory given as a file fails the run at once (exit 1) with its name
 * ({@link resolveInputs}); how each is read: {@link openInput}.
 */
import { open, stat } from 'node:fs/promises'
import { createReadStream, fstatSync, read, statSync } from 'node:fs'
import { Readable } from 'node:stream'
import { CliError, describeSystemError, readError } from '../common/cli-error.js'
import { printable } from '../../tools/printable.js'
import { refuseStdinDirectory, refuseStdinTaken } from '../common/stdio.js'
import { gunzipMembers } from './gunzip.js'

/** One input. */
export interface InputFile {
  /** As shown in messages: the path, or `<stdin>`. */
  readonly name: string
  /** The path, or `null` for stdin. */
  readonly path: string | null
  /** Size in bytes as stored (compressed for gzip), when known: a regular file. */
  readonly size: number | undefined
}

/** Pulls bytes into a caller's buffer; 0 means the end of the input. */
export interface ByteReader {
  readInto(target: Uint8Array, offset: number, length: number): Promise<number>
  close(): Promise<void>
  /** Whether a read would return without waiting for the source (always true for files; absent: always). */
  ready?(): boolean
}

/** Counts bytes taken from the inputs as stored (compressed bytes for gzip), for the progress bar. */
export interface ByteCounter {
  bytes: number
}

/** The first two bytes of every gzip member. */
const GZIP_MAGIC_0 = 0x1f
const GZIP_MAGIC_1 = 0x8b

/** A byte of a magic: the one byte, or (a pair) any byte from the first to the second. */
type MagicByte = number | readonly [number, number]

/**
 * The first bytes of compressed data that is not gzip, and the command that
 * decompresses it: such an input is refused, never read as lines of text (no
 * line of text starts so: bzip2's is its level, then a block's or the end's
 * magic; zlib's second byte is one of its levels that no text has after an
 * `x`).
 */
const OTHER_COMPRESSION: readonly { readonly magic: readonly MagicByte[]; readonly name: string; readonly tool: string }[] = [
  { magic: [0x28, 0xb5, 0x2f, 0xfd], name: 'zstd', tool: 'zstd -dc' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], name: 'xz', tool: 'xz -dc' },
  { magic: [0x42, 0x5a, 0x68, [0x31, 0x39], 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], name: 'bzip2', tool: 'bzip2 -dc' },
  { magic: [0x42, 0x5a, 0x68, [0x31, 0x39], 0x17, 0x72, 0x45, 0x38, 0x50, 0x90], name: 'bzip2', tool: 'bzip2 -dc' },
  { magic: [0x78, [0x01, 0x01]], name: 'zlib', tool: 'pigz -dcz' },
  { magic: [0x78, [0x9c, 0x9c]], name: 'zlib', tool: 'pigz -dcz' },
  { magic: [0x78, [0xda, 0xda]], name: 'zlib', tool: 'pigz -dcz' },
]

/** The longest magic of {@link OTHER_COMPRESSION}. */
const MAGIC_MAX = 10

/** Whether `head` starts with `magic`, or (`partly`) is a shorter start of it. */
function startsAs(head: Uint8Array, magic: readonly MagicByte[], partly: boolean): boolean {
  if (head.length < magic.length && !partly) return false
  for (let i = 0; i < magic.length && i < head.length; i++) {
    const m = magic[i]
    if (typeof m === 'number' ? head[i] !== m : head[i] < m[0] || head[i] > m[1]) return false
  }
  return true
}

/** Checks every input (exists, is not a directory) and returns them with their sizes. `-` is stdin. */
export async function resolveInputs(names: readonly string[]): Promise<InputFile[]> {
  if (names.length === 0) names = ['-']
  const inputs: InputFile[] = []
  for (const name of names) {
    if (name === '-') {
      refuseStdinTaken('the URL list')
      refuseStdinDirectory('stdin')
      inputs.push({ name: '<stdin>', path: null, size: stdinSize() })
      continue
    }
    let info
    try {
      info = await stat(name)
    } catch (err) {
      throw readError('input file', name, err)
    }
    if (info.isDirectory()) throw new CliError('ERR_READ', `cannot read input file '${name}': is a directory`)
    inputs.push({ name, path: name, size: info.isFile() ? info.size : undefined })
  }
  return inputs
}

/**
 * Refuses an input that is stdout's own file (`filter … urls.txt >> urls.txt`,
 * or `< urls.txt >> urls.txt`): its lines would be read back as they are
 * written, and the run would never end. Checked before anything is written,
 * as `cat` checks it.
 */
export function refuseOutputAsInput(inputs: readonly InputFile[]): void {
  let out
  try {
    out = fstatSync(1)
  } catch {
    return
  }
  if (!out.isFile()) return
  for (const input of inputs) {
    let info
    try {
      info = input.path === null ? fstatSync(0) : statSync(input.path)
    } catch {
      continue // opening it names the file in its error
    }
    if (info.isFile() && info.dev === out.dev && info.ino === out.ino) {
      throw new CliError('ERR_READ', `cannot read input file '${printable(input.name)}': it is also the output (stdout), so its lines would be read again as they are written; nothing was written`)
    }
  }
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

/**
 * Opens an input for reading (gzip decoded), counting stored bytes into
 * `counter`.
 *
 * - gzip is recognised by its magic bytes (1f 8b), not by a `.gz` name, in
 *   files and on stdin alike; concatenated gzip members are read one after
 *   the other (as `zcat` does). A file that starts like gzip but is not
 *   valid gzip fails with its name, and so does one that starts as zstd,
 *   xz, bzip2 or zlib data does (never read as lines of text).
 * - A regular file (also stdin redirected from one, `< file`) is read
 *   straight into the caller's buffer; anything else (a pipe, a FIFO, a
 *   terminal) as a stream, whose `ready()` tells whether bytes are waiting,
 *   so that the line reader can yield what it has when the input pauses
 *   (line-blocks.ts).
 */
export async function openInput(input: InputFile, counter: ByteCounter): Promise<ByteReader> {
  let raw: ByteReader
  if (input.path === null) {
    raw = input.size !== undefined ? new FdReader(0, counter, async () => {}, input.name) : new StreamReader(process.stdin, counter, input.name, true)
  } else if (input.size !== undefined) {
    let handle
    try {
      handle = await open(input.path, 'r')
    } catch (err) {
      throw readError('input file', input.name, err)
    }
    const h = handle
    raw = new FdReader(h.fd, counter, () => h.close(), input.name)
  } else {
    // A FIFO or a device: a stream, so that a pause can be seen.
    raw = new StreamReader(createReadStream(input.path, { highWaterMark: 1 << 16 }), counter, input.name, false)
  }
  return sniffGzip(raw, input.name, input.path === null)
}

/**
 * Reads the first bytes of `raw`: when they are gzip's magic, returns a reader
 * of the decompressed stream (whose own first bytes are read so too); when
 * they are another compressed format's (zstd, xz, bzip2, zlib), or gzip's
 * again inside gzip (`inside`), throws ERR_READ naming it; otherwise a reader
 * that hands out the bytes read so far, then the rest of `raw`.
 */
async function sniffGzip(raw: ByteReader, name: string, stdin: boolean, inside = false): Promise<ByteReader> {
  const head = new Uint8Array(1 << 16)
  let n = 0
  try {
    // Two bytes decide gzip; a first byte that starts no magic decides alone (a slow source is not waited for).
    while (n < MAGIC_MAX) {
      const got = await raw.readInto(head, n, head.length - n)
      if (got === 0) break
      n += got
      const read = head.subarray(0, n)
      if (!(n < 2 && read[0] === GZIP_MAGIC_0) && !OTHER_COMPRESSION.some((c) => n < c.magic.length && startsAs(read, c.magic, true))) break
    }
  } catch (err) {
    await raw.close()
    throw err
  }
  const gzip = n >= 2 && head[0] === GZIP_MAGIC_0 && head[1] === GZIP_MAGIC_1
  const other = inside && gzip ? { name: 'gzip', tool: 'gzip -dc' } : OTHER_COMPRESSION.find((c) => startsAs(head.subarray(0, n), c.magic, false))
  if (other !== undefined) {
    await raw.close()
    const what = stdin ? 'stdin' : `input file '${printable(name)}'`
    const where = inside ? `${other.name} data inside gzip, and it is decompressed once` : `${other.name} data, and only gzip is decompressed`
    throw new CliError('ERR_READ', `cannot read ${what}: it is ${where}: decompress it first (${inside ? `gzip -dc | ${other.tool}` : other.tool})`)
  }
  const peeked = new PeekedReader(head.subarray(0, n), raw)
  if (!gzip) return peeked
  // Member by member, so that what a good member holds is all read before an error about what follows it.
  const decoded = Readable.from(gunzipMembers(chunksOf(peeked)), { objectMode: false })
  const reader = new StreamReader(decoded, { bytes: 0 }, name, false, () => {
    decoded.destroy()
    void raw.close()
  })
  return sniffGzip(reader, name, stdin, true)
}

/** The chunks of a reader, each in a buffer of its own (for a stream). */
async function* chunksOf(reader: ByteReader): AsyncGenerator<Buffer> {
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 18)
    const n = await reader.readInto(chunk, 0, chunk.length)
    if (n === 0) return
    yield chunk.subarray(0, n)
  }
}

/** Hands out bytes already read, then the rest of another reader. */
export class PeekedReader implements ByteReader {
  private at = 0
  constructor(
    private readonly head: Uint8Array,
    private readonly rest: ByteReader,
  ) {}

  readInto(target: Uint8Array, offset: number, length: number): Promise<number> {
    if (this.at < this.head.length) {
      const n = Math.min(length, this.head.length - this.at)
      target.set(this.head.subarray(this.at, this.at + n), offset)
      this.at += n
      return Promise.resolve(n)
    }
    return this.rest.readInto(target, offset, length)
  }

  ready(): boolean {
    return this.at < this.head.length || (this.rest.ready?.() ?? true)
  }

  close(): Promise<void> {
    return this.rest.close()
  }
}

/** Reads a file descriptor straight into the caller's buffer: no copy. */
class FdReader implements ByteReader {
  /** The file's size when opened: a file found shorter at its end was cut while it was read. */
  private readonly startSize: number

  constructor(
    private readonly fd: number,
    private readonly counter: ByteCounter,
    private readonly onClose: () => Promise<void>,
    private readonly name: string,
  ) {
    this.startSize = fstatSync(fd).size
  }

  readInto(target: Uint8Array, offset: number, length: number): Promise<number> {
    return new Promise((resolve, reject) => {
      read(this.fd, target, offset, length, null, (err, n) => {
        if (err) reject(readError('input file', this.name, err))
        else if (n === 0 && length > 0) this.atEnd(resolve, reject)
        else {
          this.counter.bytes += n
          resolve(n)
        }
      })
    })
  }

  /**
   * The end of the file: an error when the file is now shorter than when it
   * was opened (truncated by another program, a log rotated with
   * copytruncate), since the lines past the cut were never read.
   */
  private atEnd(resolve: (n: number) => void, reject: (err: unknown) => void): void {
    let size
    try {
      size = fstatSync(this.fd).size
    } catch (err) {
      reject(readError('input file', this.name, err))
      return
    }
    if (size >= this.startSize) {
      resolve(0)
      return
    }
    const what = this.fd === 0 ? 'stdin' : `input file '${printable(this.name)}'`
    reject(new CliError('ERR_READ', `cannot read ${what}: it was cut short while it was read (${this.startSize} bytes when opened, ${size} at the end: truncated by another program?); the lines past the cut were not read`))
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
        if (err instanceof CliError) throw err
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

  ready(): boolean {
    return this.chunk !== undefined || this.stream.readableLength > 0 || this.stream.readableEnded
  }

  async close(): Promise<void> {
    this.onClose()
    if (!this.isStdin) this.stream.destroy()
  }
}
