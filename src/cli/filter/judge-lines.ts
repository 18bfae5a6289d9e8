/**
 * The per-block loop of `filter`: walks the lines of a block straight from the
 * byte buffer (no string per line; the core's line convention,
 * src/match/lines.ts), locates each line's URL and host (line-locator.ts),
 * judges it, counts it, and hands it to the emitter. One robots.txt and whole
 * lines as URLs: one `matchLines` per block; otherwise one matcher step per
 * line from the URL scan's path start. A line without a URL is never judged:
 * `--invalid` says what becomes of it (line-faults.ts).
 */
import { lineEnd, urlEnd, type AgentMatcher } from '../../index.js'
import type { LineEmitter } from './emitter.js'
import type { Decided, LineJudge } from './line-judge.js'
import type { FilterStats } from './filter-stats.js'
import { faultSample, type InvalidPolicy } from './line-faults.js'
import { LineFault, type LineLocator } from './line-locator.js'

/** How a thread's loop treats lines (the same for every block). */
export interface LoopOptions {
  /** The layout reads whole lines as URLs (no columns): one robots.txt may judge a block at once. */
  readonly wholeLines: boolean
  /** What becomes of a line without a URL or host. */
  readonly invalid: InvalidPolicy
}

/** Where a block sits in its input, for `--format jsonl` (its records carry their line numbers). */
export interface BlockPlace {
  /** The line number of the block's first line in its input (from 1). */
  readonly firstLine: number
  /** The input's name when the run reads several, else undefined. */
  readonly input: string | undefined
}

/** Per-block arrays for the batch form, grown to the largest block seen. */
let verdicts = new Uint8Array(0)
let ruleLines = new Int32Array(0)
let lineEnds = new Int32Array(0)

/**
 * Counts a line without a URL or host (the block's first such line is kept
 * as a sample); false when the run must stop. A log line whose request is
 * `-` or empty is only counted: never the sample, never a reason to stop.
 */
function fault(stats: FilterStats, f: LineFault, index: number, bytes: Uint8Array, start: number, end: number, invalid: InvalidPolicy, locator: LineLocator): boolean {
  switch (f) {
    case LineFault.EmptyRequest:
      stats.emptyRequest++
      return true
    case LineFault.NoHost:
      stats.noHost++
      break
    case LineFault.BadHost:
      stats.badHost++
      break
    default:
      stats.noUrl++
  }
  if (stats.faultIndex < 0) {
    const sample = faultSample(f, '', 0, bytes, start, end, locator)
    stats.faultIndex = index
    stats.fault = f
    stats.faultText = sample.text
    stats.faultDetail = sample.detail ?? ''
    stats.faultFits = sample.fits ?? ''
    stats.faultEncoding = sample.encoding ?? ''
    stats.faultJson = sample.json ?? ''
  }
  if (invalid !== 'fail') return true
  stats.stopped = true
  return false
}

/**
 * Judges every line of `block`. `block` holds whole lines, except that on the
 * last block of an input its last line may lack an LF; such a line gets an LF
 * in the output when `terminateLast` (more input follows). `locator` picks
 * the URL (and host) out of each line. With `--invalid fail` the block's
 * output stops before its first line without a URL (`stats.stopped`).
 */
export function judgeBlock(
  block: Uint8Array,
  judge: LineJudge,
  emitter: LineEmitter,
  stats: FilterStats,
  terminateLast: boolean,
  locator: LineLocator,
  options: LoopOptions,
  place?: BlockPlace,
): void {
  const n = block.length
  // lineEnd finds line ends with Buffer#indexOf (memchr) on a Buffer; everything else gets a plain
  // Uint8Array view, whose subarray() is much cheaper than a Buffer's.
  const search = Buffer.isBuffer(block) ? block : Buffer.from(block.buffer, block.byteOffset, n)
  const bytes = Buffer.isBuffer(block) ? new Uint8Array(block.buffer, block.byteOffset, n) : block
  const invalid = options.invalid
  let pos = 0
  let lines = 0
  let allowed = 0
  let judged = 0
  if (judge.judgeLines && options.wholeLines && !emitter.jsonl) {
    // One pass over the block finds every line's end and verdict (one robots.txt); lines without a URL are set apart after.
    if (verdicts.length < n + 1) {
      verdicts = new Uint8Array(n + 1)
      ruleLines = new Int32Array(n + 1)
      lineEnds = new Int32Array(n + 1)
    }
    const count = judge.judgeLines(bytes, verdicts, ruleLines, lineEnds)
    lines = count
    const cc = judge.crawlerCodes
    for (let k = 0; k < count; k++) {
      const lf = lineEnds[k]
      const end = urlEnd(bytes, pos, lf)
      const f = locator.locate(bytes, pos, end)
      let code: number
      // --crawlers: the batch left a row per line; the emitter reads the row in hand.
      if (cc !== undefined) cc.at = k * cc.size
      if (f === LineFault.None) {
        code = ruleLines[k] * 2 + verdicts[k]
        allowed += verdicts[k]
        judged++
        if (cc !== undefined) cc.count()
      } else {
        if (!fault(stats, f, k, bytes, pos, end, invalid, locator)) {
          lines = k + 1
          break
        }
        code = -f
      }
      if (code >= 0 || invalid === 'keep') {
        if (lf < n) emitter.line(bytes, pos, end, lf + 1, code)
        else emitter.lastLine(bytes, pos, end, n, code, terminateLast)
      }
      pos = lf + 1
    }
    pos = n
  }
  const jsonl = emitter.jsonl
  const firstLine = place?.firstLine ?? 1
  const crawlerCodes = judge.crawlerCodes
  while (pos < n) {
    const lf = lineEnd(search, pos)
    const end = urlEnd(bytes, pos, lf)
    const f = locator.locate(bytes, pos, end)
    let code: number
    if (f === LineFault.None) {
      code = judge.judge(bytes, locator)
      allowed += code & 1
      judged++
      if (crawlerCodes !== undefined) crawlerCodes.count()
    } else {
      if (!fault(stats, f, lines, bytes, pos, end, invalid, locator)) {
        lines++
        break
      }
      code = -f
    }
    if (code >= 0 || invalid === 'keep') {
      if (jsonl) {
        const url = locator.shownUrl(bytes)
        emitter.record(url, 0, url.length, code, code >= 0 ? judge.decided(bytes, locator) : null, firstLine + lines, place?.input, locator)
      } else if (lf < n) emitter.line(bytes, pos, end, lf + 1, code)
      else emitter.lastLine(bytes, pos, end, n, code, terminateLast)
    }
    lines++
    pos = lf + 1
  }
  emitter.endBlock(bytes)
  const cc = judge.crawlerCodes
  if (cc !== undefined) {
    if (stats.crawlerAllowed.length < cc.size) stats.crawlerAllowed = new Array<number>(cc.size).fill(0)
    for (let k = 0; k < cc.size; k++) stats.crawlerAllowed[k] += cc.allowed[k]
    cc.allowed.fill(0)
  }
  stats.lines += lines
  stats.allowed += allowed
  stats.disallowed += judged - allowed
  stats.bytes += n
}

/** A `LineJudge` over one compiled matcher (`--robots`): whole blocks through `matchLines`. */
export class MatcherJudge implements LineJudge {
  /** An unreachable fetch: its `Disallow: /` is implied, not a line of a file, so lines report line 0. */
  private readonly implied: boolean
  constructor(
    private readonly matcher: AgentMatcher,
    /** The robots.txt's name, for `--format jsonl`'s `source`. */
    private readonly source: string,
    /** For a fetched URL, when its rules are a stand-in rather than a file. */
    private readonly outcome?: FetchStandIn,
  ) {
    this.implied = outcome === 'unreachable'
  }

  judge(_bytes: Uint8Array, locator: LineLocator): number {
    // From the locator's scan of the line's URL (its bytes): no second pass.
    const code = this.matcher.matchScan(locator.url)
    return this.implied ? code & 1 : code
  }

  judgeLines(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number {
    const n = this.matcher.matchLines(bytes, verdicts, ruleLines, lineEnds).length
    if (this.implied) ruleLines.fill(0, 0, n)
    return n
  }

  decided(bytes: Uint8Array, locator: LineLocator): Decided {
    const host = locator.hostText()
    if (this.outcome !== undefined) return { matcher: null, rule: null, source: this.source, host, outcome: this.outcome }
    // The deciding rule, for the record (the slower path: the verdict came from matchScan).
    const rule = this.matcher.explain(locator.judgedUrl(bytes)).rule
    return { matcher: this.matcher, rule, source: this.source, host }
  }
}

/** The fetch outcomes whose rules are a stand-in: `unavailable` (allow all), `unreachable` (disallow all). */
export type FetchStandIn = 'unavailable' | 'unreachable'
