/**
 * The per-block loop of `filter`: walks the lines of a block straight from the
 * byte buffer (no string per line), judges each, counts it, and hands it to the
 * emitter. Lines are cut by the core's line convention (src/match/lines.ts:
 * LF ends a line, a CR right before the LF or ending the input is not part
 * of the URL, an empty line is judged as `/`).
 *
 * With one robots.txt the block goes through `matchLines` once, which also
 * reports where each line ends; with `--robots-dir` each line is judged by its
 * host's matcher through `matchRange`. Both cut lines with the same functions.
 */
import { lineEnd, urlEnd } from '../match/lines.js'
import type { LineEmitter } from './emitter.js'
import type { FilterStats } from './stats.js'
import { isUrlOrPath } from './url-host.js'

/** Judges one URL, `bytes[start, end)`: returns `ruleLine * 2 + (allowed ? 1 : 0)`. */
export interface LineJudge {
  judge(bytes: Uint8Array, start: number, end: number): number
  /** Optional batch form: every line of `bytes` at once (see AgentMatcher.matchLines); returns the line count. */
  judgeLines?(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number
}

/** Per-block arrays for the batch form, grown to the largest block seen. */
let verdicts = new Uint8Array(0)
let ruleLines = new Int32Array(0)
let lineEnds = new Int32Array(0)

/**
 * Judges every line of `block`. `block` holds whole lines, except that on the
 * last block of an input its last line may lack an LF; such a line gets an LF
 * in the output when `terminateLast` (more input follows).
 */
export function judgeBlock(
  block: Buffer,
  judge: LineJudge,
  emitter: LineEmitter,
  stats: FilterStats,
  terminateLast: boolean,
): void {
  const n = block.length
  // Buffer#indexOf finds line ends fastest; everything else gets a plain Uint8Array view,
  // whose subarray() is much cheaper than a Buffer's.
  const bytes = new Uint8Array(block.buffer, block.byteOffset, n)
  let pos = 0
  let lines = 0
  let allowed = 0
  let invalid = 0
  if (judge.judgeLines) {
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
  while (pos < n) {
    // On the Buffer, lineEnd finds the LF with Buffer#indexOf (memchr).
    const lf = lineEnd(block, pos)
    const end = urlEnd(bytes, pos, lf)
    const code = judge.judge(bytes, pos, end)
    lines++
    allowed += code & 1
    if (!isUrlOrPath(bytes, pos, end)) invalid++
    if (lf < n) emitter.line(bytes, pos, end, lf + 1, code)
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
  constructor(
    private readonly matcher: {
      matchRange(bytes: Uint8Array, start: number, end: number): number
      matchLines(bytes: Uint8Array, out?: Uint8Array, ruleLines?: Int32Array, lineEnds?: Int32Array): Uint8Array
    },
  ) {}

  judge(bytes: Uint8Array, start: number, end: number): number {
    return this.matcher.matchRange(bytes, start, end)
  }

  judgeLines(bytes: Uint8Array, verdicts: Uint8Array, ruleLines: Int32Array, lineEnds: Int32Array): number {
    return this.matcher.matchLines(bytes, verdicts, ruleLines, lineEnds).length
  }
}
