/** A `LineJudge` over one robots.txt for `--crawlers` (`filter --robots`): see {@link SetJudge}. */
import type { CrawlerSet } from '../../index.js'
import { countLines } from './block-lines.js'
import type { CrawlerCodes } from './crawler-codes.js'
import type { FetchStandIn } from './judge-lines.js'
import type { Decided, LineJudge } from './line-judge.js'
import type { LineLocator } from './line-locator.js'

/**
 * Judges lines for every crawler of a set on one robots.txt: a line's scan
 * once, every crawler from its path start (`set.matchScan`); whole blocks
 * through `set.matchLines`. `judge` returns the combined bit (crawler-codes.ts),
 * each crawler's code is in `crawlerCodes`.
 */
export class SetJudge implements LineJudge {
  private readonly implied: boolean
  constructor(
    private readonly set: CrawlerSet,
    readonly crawlerCodes: CrawlerCodes,
    private readonly source: string,
    private readonly outcome?: FetchStandIn,
  ) {
    this.implied = outcome === 'unreachable'
  }

  judge(_bytes: Uint8Array, locator: LineLocator): number {
    const cc = this.crawlerCodes
    cc.at = 0
    this.set.matchScan(locator.url, cc.codes)
    if (this.implied) for (let k = 0; k < cc.size; k++) cc.codes[k] &= 1
    return cc.combine(0)
  }

  judgeLines(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number {
    const cc = this.crawlerCodes
    const k = cc.size
    const rows = this.set.matchLines(bytes, cc.reserve(countLines(bytes)), lineEnds).length / Math.max(k, 1)
    const n = k === 0 ? this.countOnly(bytes, lineEnds) : rows
    for (let i = 0; i < n; i++) {
      if (this.implied) for (let c = 0; c < k; c++) cc.codes[i * k + c] &= 1
      verdicts[i] = cc.combine(i * k)
      ruleLines[i] = 0
    }
    return n
  }

  decided(bytes: Uint8Array, locator: LineLocator): Decided {
    const host = locator.hostText()
    if (this.outcome !== undefined) return { matcher: null, rule: null, source: this.source, host, outcome: this.outcome }
    // The deciding rules, for the record (the slower path: the verdicts came from matchScan).
    const ex = this.set.explain(locator.judgedUrl(bytes))
    return { matcher: null, rule: null, source: this.source, host, crawlers: ex.map((e, k) => ({ matcher: this.set.matcher(k), rule: e.rule })) }
  }

  /** Lines of `bytes` and their ends, for a set of no crawler (the line loop still needs them). */
  private countOnly(bytes: Uint8Array, lineEnds: Int32Array): number {
    let n = 0
    for (let pos = 0; pos < bytes.length; n++) {
      let lf = bytes.indexOf(10, pos)
      if (lf < 0) lf = bytes.length
      lineEnds[n] = lf
      pos = lf + 1
    }
    return n
  }
}
