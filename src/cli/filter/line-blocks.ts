/**
 * Cuts a byte stream into blocks of whole lines ({@link lineBlocks}). Each
 * block ends right after an LF, except the last block of an input, which ends
 * where the input ends (its last line may have no LF). The partial line at
 * the end of a read is carried into the next block; a line longer than the
 * block grows the buffer (up to `MAX_LINE` bytes).
 */
import type { ByteReader } from './input.js'
import { CliError } from '../common/cli-error.js'

/** Default block size: 1 MiB. */
export const DEFAULT_BLOCK = 1 << 20

/** Longest line accepted: 256 MiB. */
export const MAX_LINE = 256 << 20

/**
 * The block size `filter`, `diff` and `pack` read with: `DEFAULT_BLOCK`, or
 * the environment's `ROBOTS_AUTOMATON_BLOCK_BYTES` (at least 16). A test and
 * tuning hook: tiny blocks put a block boundary between almost every pair of
 * lines and start `--jobs` workers on small inputs.
 */
export function blockSizeFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.ROBOTS_AUTOMATON_BLOCK_BYTES)
  return Number.isInteger(value) && value >= 16 ? Math.min(value, MAX_LINE) : DEFAULT_BLOCK
}

/** Default time after which a paused input's complete lines are yielded. */
export const DEFAULT_PAUSE_MS = 100

/** A block of lines. */
export interface LineBlock {
  readonly bytes: Buffer
  /** The last block of this input. */
  readonly last: boolean
  /** Yielded early (line-buffered, a pause, before an error): the consumer should flush its output. */
  readonly pause: boolean
  /**
   * Other blocks share this block's buffer (after a pause, further bytes are
   * read into the same buffer): a consumer that transfers the buffer
   * elsewhere (a worker thread) copies shared blocks first.
   */
  readonly shared: boolean
}

/** Options of `lineBlocks`. */
export interface LineBlockOptions {
  /** Yield after every read that completes a line. */
  readonly lineBuffered?: boolean
  /** Yield complete lines once the input has paused this long (0: never early). */
  readonly pauseMs?: number
  /** Where block buffers come from (default `Buffer.allocUnsafe`): a pool that reuses buffers the consumer is done with. */
  readonly allocate?: (size: number) => Buffer
}

const TIMEOUT = -1

/** The UTF-8 byte order mark, U+FEFF. */
const BOM = [0xef, 0xbb, 0xbf] as const

/** Resolves to `promise`'s value, or to TIMEOUT after `ms`. */
function within(promise: Promise<number>, ms: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Yields blocks of whole lines from `reader`. Blocks are large (half to all
 * of `blockSize`) while input flows. Sooner:
 * - `lineBuffered`: after every read that completes a line, so each line is
 *   judged as soon as it arrives (`tail -f log | filter --line-buffered`);
 * - on a pause: when the source has nothing waiting and the oldest bytes not
 *   yet yielded arrived `pauseMs` ago or more, the complete lines are
 *   yielded with `pause` set, so the consumer flushes its output (a slow
 *   input is never held back for long);
 * - before a read error is thrown, the complete lines read so far are
 *   yielded, so nothing that was read is lost.
 *
 * A UTF-8 BOM that starts the input is skipped: it is not part of the
 * first line (a URL list saved by a Windows editor would otherwise have a
 * first line that is no URL).
 *
 * The bytes of a block are never written again, so a consumer may hand parts
 * of it to an output stream without copying. A block is the only one in its
 * buffer unless `shared` is set. While the consumer works on a block, the
 * read for the next one is already under way.
 */
export async function* lineBlocks(
  reader: ByteReader,
  name: string,
  blockSize = DEFAULT_BLOCK,
  maxLine = MAX_LINE,
  options: LineBlockOptions = {},
): AsyncGenerator<LineBlock> {
  const lineBuffered = options.lineBuffered ?? false
  const pauseMs = options.pauseMs ?? DEFAULT_PAUSE_MS
  const allocate = options.allocate ?? Buffer.allocUnsafe
  let buf = allocate(blockSize)
  /** First byte not yet yielded. */
  let start = 0
  /** Bytes at the start of `buf` that belong to no block (a BOM): a block starting after them is still the buffer's only one. */
  let base = 0
  /** Whether the input's first bytes are known not to be a UTF-8 BOM, or it was skipped. */
  let bomDecided = false
  let filled = 0
  /**
   * The last LF in `buf[start, filled)`, or -1: kept up to date from each
   * read's new bytes only, so that a long line is never searched again
   * (reading stays linear in the input whatever the line length).
   */
  let lastLf = -1
  /** When the oldest byte not yet yielded arrived. */
  let since = 0
  let pending: Promise<number> | undefined
  for (;;) {
    let eof = false
    while (filled < buf.length) {
      pending ??= reader.readInto(buf, filled, buf.length - filled)
      let n: number
      try {
        if (pauseMs > 0 && filled > start && !(reader.ready?.() ?? true)) {
          const left = since + pauseMs - performance.now()
          n = left > 0 ? await within(pending, left) : TIMEOUT
          if (n === TIMEOUT) {
            const lf = lastLf
            if (lf >= start) {
              // The input paused: hand over the complete lines; the read goes on into the same buffer.
              yield { bytes: buf.subarray(start, lf + 1), last: false, pause: true, shared: true }
              start = lf + 1
              since = performance.now()
              continue
            }
            n = await pending
          }
        } else n = await pending
      } catch (err) {
        pending = undefined
        // Lines read before the failure are not lost: the consumer judges and writes them first.
        const lf = lastLf
        if (lf >= start) yield { bytes: buf.subarray(start, lf + 1), last: false, pause: true, shared: true }
        throw err
      }
      pending = undefined
      if (n === 0) {
        eof = true
        break
      }
      if (filled === start) since = performance.now()
      // Only the new bytes are searched for the last LF.
      const found = buf.subarray(filled, filled + n).lastIndexOf(10)
      if (found >= 0) lastLf = filled + found
      filled += n
      if (!bomDecided) {
        // A UTF-8 BOM at the input's very start is an encoding mark, no part of its first line.
        let prefix = true
        for (let i = 0; i < 3 && i < filled; i++) if (buf[i] !== BOM[i]) prefix = false
        if (!prefix) bomDecided = true
        else if (filled >= 3) {
          bomDecided = true
          start = base = 3
        }
      }
      if (lineBuffered ? found >= 0 : filled >= buf.length >>> 1) break
    }
    if (eof) {
      if (filled > start) yield { bytes: buf.subarray(start, filled), last: true, pause: false, shared: start > base }
      return
    }
    if (lastLf < start) {
      if (filled === buf.length) {
        const length = filled - start
        if (length >= maxLine) {
          throw new CliError('ERR_READ', `cannot read input file '${name}': a line is longer than ${formatSize(maxLine)}`)
        }
        const grown = allocate(Math.min(Math.max(buf.length, length) * 2, maxLine))
        buf.copy(grown, 0, start, filled)
        buf = grown
        start = base = 0
        filled = length
        lastLf = -1
      }
      continue
    }
    const block = buf.subarray(start, lastLf + 1)
    const shared = start > base
    const rest = filled - (lastLf + 1)
    const next = allocate(rest < blockSize >>> 1 ? blockSize : buf.length)
    buf.copy(next, 0, lastLf + 1, filled)
    buf = next
    start = base = 0
    filled = rest
    lastLf = -1
    since = performance.now()
    pending = reader.readInto(buf, filled, buf.length - filled)
    // Observed above; this only keeps an early exit of the consumer from leaving a rejection unhandled.
    pending.catch(() => {})
    yield { bytes: block, last: false, pause: lineBuffered, shared }
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1 << 20 && bytes % (1 << 20) === 0 ? `${bytes >>> 20} MiB` : `${bytes} bytes`
}
