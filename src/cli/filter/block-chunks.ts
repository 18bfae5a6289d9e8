/**
 * One block judged into a list of output chunks instead of a stream: the
 * unit of work of `filter --jobs N`, in a worker thread (whose chunks travel
 * back to the main thread) and in the main thread (when every worker is
 * busy). The caller writes the chunks in block order.
 */
import { BlockWriter, type ByteSink } from '../common/block-writer.js'
import { LineEmitter, type OutputFormat, type PrintMode } from './emitter.js'
import type { LineLayout } from './line-layout.js'
import type { LineLocator } from './line-locator.js'
import { judgeBlock, type BlockPlace, type LoopOptions } from './judge-lines.js'
import type { LineJudge } from './line-judge.js'
import type { RecordCrawlers } from './jsonl-record.js'
import { newStats, type FilterStats } from './filter-stats.js'

/** How the lines are written: `--print`, `--format` and the log columns. */
export interface OutputSpec {
  readonly mode: PrintMode
  readonly format: OutputFormat
  readonly layout: LineLayout
  readonly loop: LoopOptions
  /** `--crawlers`: their names (and `--require`), whose verdicts the judge's `crawlerCodes` hold. */
  readonly crawlers?: readonly { readonly name: string }[]
  readonly require?: 'all' | 'any'
}

/** The emitter's view of `--crawlers`: the names, the judge's codes, `--require` (undefined for one crawler). */
export function recordCrawlers(spec: OutputSpec, judge: LineJudge): RecordCrawlers | undefined {
  if (spec.crawlers === undefined || judge.crawlerCodes === undefined) return undefined
  return { names: spec.crawlers.map((c) => c.name), codes: judge.crawlerCodes, require: spec.require ?? 'all' }
}

/**
 * Judges `bytes` (whole lines; see judgeBlock for `terminateLast`) and
 * returns its output chunks, in order, and its counts. The chunks are new
 * buffers from `allocate` (runs of chosen lines copied: nothing views
 * `bytes`), so `bytes` may be reused at once.
 */
export function judgeToChunks(
  bytes: Uint8Array,
  judge: LineJudge,
  locator: LineLocator,
  spec: OutputSpec,
  terminateLast: boolean,
  allocate: (size: number) => Uint8Array,
  place?: BlockPlace,
): { chunks: Uint8Array[]; stats: FilterStats } {
  const chunks: Uint8Array[] = []
  // Blocks handed to the sink are the caller's: the write callback is never called, so none is reused here.
  const sink: ByteSink = {
    write(chunk) {
      chunks.push(chunk)
      return true
    },
    once() {},
  }
  const writer = new BlockWriter(sink, Math.max(1 << 16, bytes.length + (bytes.length >>> 2)), { zeroCopy: false, allocate })
  const stats = newStats()
  judgeBlock(bytes, judge, new LineEmitter(writer, spec.mode, spec.format, false, recordCrawlers(spec, judge)), stats, terminateLast, locator, spec.loop, place)
  writer.release()
  return { chunks, stats }
}

/** A pool of buffers at least `size` bytes long, for output chunks that have been written out. */
export class BufferPool {
  private readonly free: ArrayBuffer[] = []
  constructor(private readonly max: number) {}

  /** A view of `size` bytes on a pooled buffer, or a new one. */
  readonly allocate = (size: number): Uint8Array => {
    while (this.free.length > 0) {
      const b = this.free.pop()!
      if (b.byteLength >= size) return new Uint8Array(b, 0, size)
    }
    return new Uint8Array(size)
  }

  /** Gives buffers back (beyond `max` they are left to the garbage collector). */
  give(buffers: Iterable<ArrayBuffer>): void {
    for (const b of buffers) if (this.free.length < this.max && !this.free.includes(b)) this.free.push(b)
  }
}
