/**
 * The per-block loop of `filter`: walks the lines of a block straight from the
 * byte buffer (no string per line), judges each, counts it, and hands it to the
 * emitter. Lines end at LF; a CR right before the LF is not part of the URL;
 * an empty line is judged as `/` would be (the reference's empty URL).
 */
import type { LineEmitter } from './emitter.js'
import type { FilterStats } from './stats.js'
import { isUrlOrPath } from './url-bytes.js'

/** Judges one URL, `bytes[start, end)`: returns `ruleLine * 2 + (allowed ? 1 : 0)`. */
export interface LineJudge {
  judge(bytes: Uint8Array, start: number, end: number): number
}

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
  let pos = 0
  let lines = 0
  let allowed = 0
  let invalid = 0
  while (pos < n) {
    const lf = block.indexOf(10, pos)
    if (lf < 0) {
      // A last line without LF: its bytes are all URL (a lone CR included).
      const code = judge.judge(block, pos, n)
      lines++
      allowed += code & 1
      if (!isUrlOrPath(block, pos, n)) invalid++
      emitter.lastLine(block, pos, n, code, terminateLast)
      pos = n
      break
    }
    const end = lf > pos && block[lf - 1] === 13 ? lf - 1 : lf
    const code = judge.judge(block, pos, end)
    lines++
    allowed += code & 1
    if (!isUrlOrPath(block, pos, end)) invalid++
    emitter.line(block, pos, end, lf + 1, code)
    pos = lf + 1
  }
  emitter.endBlock(block)
  stats.lines += lines
  stats.allowed += allowed
  stats.disallowed += lines - allowed
  stats.invalid += invalid
  stats.bytes += n
}

/** A `LineJudge` over one compiled matcher (`--robots`). */
export class MatcherJudge implements LineJudge {
  constructor(private readonly matcher: { matchRange(bytes: Uint8Array, start: number, end: number): number }) {}

  judge(bytes: Uint8Array, start: number, end: number): number {
    return this.matcher.matchRange(bytes, start, end)
  }
}
