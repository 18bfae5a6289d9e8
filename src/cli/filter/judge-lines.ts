/**
 * The per-block loop of `filter`: walks the lines of a block straight from the
 * byte buffer (no string per line; the core's line convention,
 * src/match/lines.ts), judges each, counts it, and hands it to the emitter.
 * One robots.txt and whole lines as URLs: one `matchLines` per block;
 * otherwise `matchRange` per line, by the line's host's matcher with
 * `--robots-dir`/`--bundle`, on its URL column with `--field` (fields.ts).
 */
import type { AgentMatcher } from '../../index.js'
import { lineEnd, urlEnd } from '../../internals.js'
import type { LineEmitter } from './emitter.js'
import type { Decided } from '../hosts/host-judge.js'
import type { FilterStats } from './filter-stats.js'
import { HostSource, LineFault, type LineLocator } from './line-locator.js'
import { UrlField } from '../../internals.js'
import { isUrlOrPath } from './url-host.js'

/** Judges URL lines: each returns `ruleLine * 2 + (allowed ? 1 : 0)`. */
export interface LineJudge {
  /** The URL `bytes[start, end)`, by its own host. */
  judge(bytes: Uint8Array, start: number, end: number): number
  /** The URL `bytes[start, end)` by the host `hostBytes[hostStart, hostEnd)` (a host column's, or `--host`). */
  judgeOnHost(bytes: Uint8Array, start: number, end: number, hostBytes: Uint8Array, hostStart: number, hostEnd: number): number
  /** Optional batch form: every line of `bytes` at once (see AgentMatcher.matchLines); returns the line count. */
  judgeLines?(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number
  /** What decided the line judged last, which `locator` located (for `--format jsonl`). */
  decided(locator: LineLocator): Decided
}

/** Per-block arrays for the batch form, grown to the largest block seen. */
let verdicts = new Uint8Array(0)
let ruleLines = new Int32Array(0)
let lineEnds = new Int32Array(0)

/**
 * Judges every line of `block`. `block` holds whole lines, except that on the
 * last block of an input its last line may lack an LF; such a line gets an LF
 * in the output when `terminateLast` (more input follows). `locator` picks
 * the URL (and host) out of each line (line-locator.ts).
 */
export function judgeBlock(
  block: Uint8Array,
  judge: LineJudge,
  emitter: LineEmitter,
  stats: FilterStats,
  terminateLast: boolean,
  locator: LineLocator,
  wholeLines: boolean,
): void {
  const n = block.length
  // lineEnd finds line ends with Buffer#indexOf (memchr) on a Buffer; everything else gets a plain
  // Uint8Array view, whose subarray() is much cheaper than a Buffer's.
  const search = Buffer.isBuffer(block) ? block : Buffer.from(block.buffer, block.byteOffset, n)
  const bytes = Buffer.isBuffer(block) ? new Uint8Array(block.buffer, block.byteOffset, n) : block
  let pos = 0
  let lines = 0
  let allowed = 0
  let invalid = 0
  if (judge.judgeLines && wholeLines && !emitter.jsonl) {
    // One pass over the block finds every line's end and verdict (one robots.txt).
    if (verdicts.length < n + 1) {
      verdicts = new Uint8Array(n + 1)
      ruleLines = new Int32Array(n + 1)
      lineEnds = new Int32Array(n + 1)
    }
    const count = judge.judgeLines(bytes, verdicts, ruleLines, lineEnds)
    for (let k = 0; k < count; k++) {
      const lf = lineEnds[k]
      const end = urlEnd(bytes, pos, lf)
      const code = ruleLines[k] * 2 + verdicts[k]
      allowed += verdicts[k]
      if (!isUrlOrPath(bytes, pos, end)) invalid++
      if (lf < n) emitter.line(bytes, pos, end, lf + 1, code)
      else emitter.lastLine(bytes, pos, end, n, code, terminateLast)
      pos = lf + 1
    }
    lines = count
    pos = n
  }
  const jsonl = emitter.jsonl
  while (pos < n) {
    const lf = lineEnd(search, pos)
    const end = urlEnd(bytes, pos, lf)
    const fault = locator.locate(bytes, pos, end)
    const us = locator.urlStart
    const ue = locator.urlEnd
    let code: number
    if (locator.hostSource === HostSource.Column || locator.hostSource === HostSource.Option) {
      const h = locator.host
      code = judge.judgeOnHost(bytes, us, ue, locator.hostBytes, h[UrlField.HostStart], h[UrlField.HostEnd])
    } else code = judge.judge(bytes, us, ue)
    lines++
    allowed += code & 1
    if (fault !== LineFault.None && fault !== LineFault.NoHost) invalid++
    if (jsonl) emitter.record(bytes, us, ue, code, judge.decided(locator))
    else if (lf < n) emitter.line(bytes, pos, end, lf + 1, code)
    else emitter.lastLine(bytes, pos, end, n, code, terminateLast)
    pos = lf + 1
  }
  emitter.endBlock(bytes)
  stats.lines += lines
  stats.allowed += allowed
  stats.disallowed += lines - allowed
  stats.invalid += invalid
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

  judge(bytes: Uint8Array, start: number, end: number): number {
    const code = this.matcher.matchRange(bytes, start, end)
    return this.implied ? code & 1 : code
  }

  judgeOnHost(bytes: Uint8Array, start: number, end: number): number {
    return this.judge(bytes, start, end)
  }

  judgeLines(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number {
    const n = this.matcher.matchLines(bytes, verdicts, ruleLines, lineEnds).length
    if (this.implied) ruleLines.fill(0, 0, n)
    return n
  }

  decided(locator: LineLocator): Decided {
    const host = locator.hostText()
    if (this.outcome !== undefined) return { matcher: null, source: this.source, host, outcome: this.outcome }
    return { matcher: this.matcher, source: this.source, host }
  }
}

/** The fetch outcomes whose rules are a stand-in: `unavailable` (allow all), `unreachable` (disallow all). */
export type FetchStandIn = 'unavailable' | 'unreachable'
