/**
 * Where `filter`'s blocks are judged: in the main thread (`InlineRunner`,
 * `--jobs 1`, `--line-buffered`) or by worker threads (parallel.ts). Either
 * way the output is the same bytes in the same order.
 */
import type { BlockWriter } from '../common/block-writer.js'
import type { LineEmitter } from './emitter.js'
import { HostJudge } from '../hosts/host-judge.js'
import type { HostTally } from '../hosts/host-tally.js'
import { judgeBlock, type LineJudge } from './judge-lines.js'
import { LineLocator } from './line-locator.js'
import type { LineLayout } from './line-layout.js'
import type { LineBlock } from './line-blocks.js'
import type { FilterStats } from './filter-stats.js'

/** Judges blocks in input order and writes their output. */
export interface BlockRunner {
  /** Judges one block (or hands it to a worker); waits while the output or the workers are full. */
  submit(block: LineBlock, terminateLast: boolean): Promise<void>
  /** Waits until every block submitted is written, then hands the output to stdout (a pause in the input). */
  flush(): Promise<void>
  /** Waits until every block submitted is written and the counts are in; the runner is done. */
  finish(): Promise<void>
  /** Buffers for the line reader's blocks, when the runner recycles them (worker threads hand theirs back). */
  readonly allocate?: (size: number) => Buffer
}

/** Judges every block in the main thread. */
export class InlineRunner implements BlockRunner {
  constructor(
    /** The main thread's judge. */
    readonly judge: LineJudge,
    private readonly emitter: LineEmitter,
    private readonly writer: BlockWriter,
    private readonly stats: FilterStats,
    private readonly layout: LineLayout,
    private readonly tally: HostTally | undefined,
    /** The judge needs each line's host (per-host rules). */
    needHost: boolean,
  ) {
    this.locator = new LineLocator(layout, needHost)
  }

  /** The main thread's line locator. */
  readonly locator: LineLocator

  /** Judges `block` now (no waiting for the output). */
  judgeNow(block: LineBlock, terminateLast: boolean): void {
    judgeBlock(block.bytes, this.judge, this.emitter, this.stats, terminateLast, this.locator, this.layout.url === 0)
  }

  async submit(block: LineBlock, terminateLast: boolean): Promise<void> {
    this.judgeNow(block, terminateLast)
    if (block.pause) this.writer.flush()
    await this.writer.drain()
  }

  async flush(): Promise<void> {
    this.writer.flush()
    await this.writer.drain()
  }

  async finish(): Promise<void> {
    const judge = this.judge
    if (this.tally !== undefined && judge instanceof HostJudge) {
      this.tally.noHost += judge.noHost
      this.tally.reloads += judge.reloads
      judge.noHost = 0
      judge.reloads = 0
    }
  }
}
