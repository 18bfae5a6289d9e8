/**
 * Where `filter`'s blocks are judged: in the main thread (`InlineRunner`,
 * `--jobs 1`, `--line-buffered`) or by worker threads (parallel.ts). Either
 * way the output is the same bytes in the same order, and the counts are
 * added in input order (FilterTotals).
 */
import type { BlockWriter } from '../common/block-writer.js'
import type { LineEmitter } from './emitter.js'
import { HostJudge } from './host-judge.js'
import type { HostTally } from '../hosts/host-tally.js'
import { judgeBlock, type BlockPlace, type LoopOptions } from './judge-lines.js'
import type { LineJudge } from './line-judge.js'
import { LineLocator } from './line-locator.js'
import type { LineLayout } from './line-layout.js'
import type { LineBlock } from './line-blocks.js'
import { newStats, type FilterTotals } from './filter-stats.js'

/** Where a block comes from: its input (for the totals) and, for `--format jsonl`, where it sits in it. */
export interface BlockSource {
  /** The input's name, as messages show it. */
  readonly input: string
  /** The block's place for JSON records (its first line's number; the input's name when there are several). */
  readonly place: BlockPlace
}

/** Judges blocks in input order and writes their output. */
export interface BlockRunner {
  /** Judges one block (or hands it to a worker); waits while the output or the workers are full. */
  submit(block: LineBlock, terminateLast: boolean, source: BlockSource): Promise<void>
  /** Waits until every block submitted is written, then hands the output to stdout (a pause in the input). */
  flush(): Promise<void>
  /** Waits until every block submitted is written and the counts are in; the runner is done. */
  finish(): Promise<void>
  /** Buffers for the line reader's blocks, when the runner recycles them (worker threads hand theirs back). */
  readonly allocate?: (size: number) => Buffer
}

/** Judges every block in the main thread. */
export class InlineRunner implements BlockRunner {
  /** The main thread's line locator. */
  readonly locator: LineLocator

  constructor(
    /** The main thread's judge. */
    readonly judge: LineJudge,
    private readonly emitter: LineEmitter,
    private readonly writer: BlockWriter,
    private readonly totals: FilterTotals,
    layout: LineLayout,
    private readonly tally: HostTally | undefined,
    /** The judge needs each line's host (per-host rules). */
    needHost: boolean,
    /** How lines are treated: whole lines or columns, and `--invalid`. */
    readonly loop: LoopOptions,
  ) {
    this.locator = new LineLocator(layout, needHost)
  }

  /** Judges `block` now (no waiting for the output), unless `--invalid fail` has stopped the run. */
  judgeNow(block: LineBlock, terminateLast: boolean, source: BlockSource): void {
    if (this.totals.stats.stopped) return
    const stats = newStats()
    judgeBlock(block.bytes, this.judge, this.emitter, stats, terminateLast, this.locator, this.loop, source.place)
    this.totals.add(stats, source.input)
  }

  async submit(block: LineBlock, terminateLast: boolean, source: BlockSource): Promise<void> {
    this.judgeNow(block, terminateLast, source)
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
      this.tally.reloads += judge.reloads
      judge.reloads = 0
    }
  }
}
