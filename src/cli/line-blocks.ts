/**
 * Cuts a byte stream into blocks of whole lines. Each block ends right after
 * an LF, except the last block of an input, which ends where the input ends
 * (its last line may have no LF). The partial line at the end of a read is
 * carried into the next block; a line longer than the block grows the buffer
 * (up to `MAX_LINE` bytes).
 *
 * Every block lives in a buffer of its own that is never written again, so a
 * consumer may hand parts of it to an output stream without copying. While
 * the consumer works on a block, the read for the next one is already under
 * way.
 */
import { CliError } from './errors.js'
import type { ByteReader } from './input.js'

/** Default block size: 1 MiB. */
export const DEFAULT_BLOCK = 1 << 20

/** Longest line accepted: 256 MiB. */
export const MAX_LINE = 256 << 20

/** A block of lines. */
export interface LineBlock {
  readonly bytes: Buffer
  /** The last block of this input. */
  readonly last: boolean
}

/** Yields blocks of whole lines from `reader` (see the module comment). */
export async function* lineBlocks(
  reader: ByteReader,
  name: string,
  blockSize = DEFAULT_BLOCK,
  maxLine = MAX_LINE,
): AsyncGenerator<LineBlock> {
  let buf = Buffer.allocUnsafe(blockSize)
  let filled = 0
  let prefetch: Promise<number> | undefined
  for (;;) {
    let eof = false
    while (filled < buf.length) {
      const n = await (prefetch ?? reader.readInto(buf, filled, buf.length - filled))
      prefetch = undefined
      if (n === 0) {
        eof = true
        break
      }
      filled += n
      if (filled >= buf.length >>> 1) break
    }
    if (eof) {
      if (filled > 0) yield { bytes: buf.subarray(0, filled), last: true }
      return
    }
    const lastLf = filled === 0 ? -1 : buf.lastIndexOf(10, filled - 1)
    if (lastLf < 0) {
      if (filled === buf.length) {
        if (buf.length >= maxLine) {
          throw new CliError('ERR_READ', `cannot read input file '${name}': a line is longer than ${formatSize(maxLine)}`)
        }
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLine))
        buf.copy(grown, 0, 0, filled)
        buf = grown
      }
      continue
    }
    const block = buf.subarray(0, lastLf + 1)
    const rest = filled - (lastLf + 1)
    const next = Buffer.allocUnsafe(rest < blockSize >>> 1 ? blockSize : buf.length)
    buf.copy(next, 0, lastLf + 1, filled)
    buf = next
    filled = rest
    prefetch = reader.readInto(buf, filled, buf.length - filled)
    // Observed below; this only keeps an early exit of the consumer from leaving a rejection unhandled.
    prefetch.catch(() => {})
    yield { bytes: block, last: false }
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1 << 20 && bytes % (1 << 20) === 0 ? `${bytes >>> 20} MiB` : `${bytes} bytes`
}
