/**
 * The hot path: a crawler's lazy DFA behind the MatchEngine interface
 * ({@link AutomatonEngine}): one table lookup and one comparison per path byte
 * until a terminal state or the end, and no allocation per URL.
 */
import type { EngineStats, LineJob, MatchEngine } from '../engine.js'
import type { RuleSet } from '../../rules/rule-set.js'
import { checkRoom, LineByte } from '../lines.js'
import { PATH_BYTE, PathByte, PathChar, pathStartBytes, PathStartCode, PathStartMemo, type PathStart } from '../../url/url-path.js'
import { LazyDfa } from './lazy-dfa.js'
import { StateCode, type StateId } from './state.js'
import { RuleField, RuleFlag } from '../../rules/rule-set.js'
import { SCRATCH_KEEP } from '../../memory.js'

const encoder = new TextEncoder()
/** Reused by decideEncoded; a longer URL gets a buffer of its own for the call (src/memory.ts). */
const scratch = new Uint8Array(SCRATCH_KEEP)

/** decideLines: no terminal state reached yet (rule indices are >= -1). */
const enum Scan {
  Undecided = -2,
}

/** For decideLines' path scan: PATH_BYTE's kinds, plus LineEnd for LF. */
const LINE_PATH_BYTE = PATH_BYTE.slice()
LINE_PATH_BYTE[LineByte.LF] = PathByte.LineEnd

/**
 * A MatchEngine running a LazyDfa. Per URL: find where the path starts
 * (GetPathParamsQuery, by a scan), start from the state after the path's
 * `/`, then one table lookup and one comparison per byte until a terminal
 * state or the end. A string URL is read by `charCodeAt`; a non-ASCII code
 * unit stands for its UTF-8 bytes, which all fall in the "other" class
 * (patterns are ASCII after escaping), so no bytes are made.
 */
export class AutomatonEngine implements MatchEngine {
  /** The lazy DFA (the matcher's `stats()` gives its figures). */
  readonly dfa: LazyDfa
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()

  /**
   * `onThrash`, when given, is called when the DFA's state cache thrashes
   * (lazy-dfa.ts): the matcher then moves to the thrash-proof tier. Without
   * it the engine never stops a batch early.
   */
  constructor(set: RuleSet, budget?: number, onThrash?: () => void) {
    this.dfa = new LazyDfa(set, budget, onThrash)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    return this.decideFrom(url, pathStartBytes(url, start, end), end)
  }

  decideFrom(url: Uint8Array, ps: PathStart, end: number): number {
    const dfa = this.dfa
    let s = dfa.slash()
    if (s < StateCode.FirstRow) return StateCode.RuleMirror - s
    if (ps !== PathStartCode.JustSlash) {
      const map = dfa.classes.map
      let table = dfa.table
      // From the byte after the path's '/': its own, or the one put in front (then from the path's first byte).
      const bit = ps & PathStartCode.SlashPrepended
      for (let i = (ps - bit) / PathStartCode.IndexScale + 1 - bit; i < end; i++) {
        const c = map[url[i]]
        let t = table[s + c] as StateId
        if (t < StateCode.FirstRow) {
          if (t !== StateCode.Unknown) return StateCode.RuleMirror - t
          t = dfa.next(s, c)
          table = dfa.table
          if (t < StateCode.FirstRow) return StateCode.RuleMirror - t
        }
        s = t
      }
    }
    return StateCode.RuleMirror - dfa.table[s + dfa.end]
  }

  decideString(url: string): number {
    // Patterns are ASCII after escaping; only a foreign buffer can hold a
    // non-ASCII pattern byte, and then the URL's real UTF-8 bytes are needed.
    if (this.dfa.nonAscii) return this.decideEncoded(url)
    return this.runFrom(url, this.memo.of(url))
  }

  decideStringFrom(url: string, ps: PathStart): number {
    if (this.dfa.nonAscii) return this.decideEncoded(url)
    return this.runFrom(url, ps)
  }

  /** The DFA over a string URL whose path starts where `ps` says (a PathStart). */
  private runFrom(url: string, ps: PathStart): number {
    const dfa = this.dfa
    const s = dfa.slash()
    if (s < StateCode.FirstRow) return StateCode.RuleMirror - s
    if (ps === PathStartCode.JustSlash) return StateCode.RuleMirror - dfa.table[s + dfa.end]
    const bit = ps & PathStartCode.SlashPrepended
    return this.runString(url, (ps - bit) / PathStartCode.IndexScale + 1 - bit, s)
  }

  /**
   * Runs the DFA over a string URL from index `i` in state `s`. A non-ASCII
   * code unit stands for its UTF-8 bytes, which all fall in the "other" class
   * (as TextEncoder encodes it), and takes one step for them all: past a
   * byte of that class only `*` positions and what follows them are live,
   * so another such byte leads to the same state.
   */
  private runString(url: string, i: number, s: StateId): number {
    const dfa = this.dfa
    const map = dfa.classes.map
    const other = dfa.classes.other
    const end = url.length
    let table = dfa.table
    while (i < end) {
      // Two ASCII chars a round while their transitions are built and lead to live states (the loads of a
      // round overlap); anything else takes one step below.
      while (i + 1 < end) {
        const a = url.charCodeAt(i)
        const b = url.charCodeAt(i + 1)
        if ((a | b) >= 0x80) break
        const t = table[s + map[a]] as StateId
        if (t < StateCode.FirstRow) break
        const u = table[t + map[b]] as StateId
        s = t
        i++
        if (u < StateCode.FirstRow) break
        s = u
        i++
      }
      if (i === end) break
      // COPY of decideFrom's step (one loop for bytes and one for chars; the data suites run both).
      const code = url.charCodeAt(i++)
      const c = code < 0x80 ? map[code] : other
      let t = table[s + c] as StateId
      if (t < StateCode.FirstRow) {
        if (t !== StateCode.Unknown) return StateCode.RuleMirror - t
        t = dfa.next(s, c)
        table = dfa.table
        if (t < StateCode.FirstRow) return StateCode.RuleMirror - t
      }
      s = t
    }
    return StateCode.RuleMirror - table[s + dfa.end]
  }

  /** A string URL as its UTF-8 bytes (encoded into a reused buffer): only for rules with non-ASCII pattern bytes. */
  private decideEncoded(url: string): number {
    let buf = scratch
    let { read, written } = encoder.encodeInto(url, buf)
    if (read! < url.length) {
      buf = new Uint8Array(url.length * 3 + 16)
      written = encoder.encodeInto(url, buf).written
    }
    return this.decideBytes(buf, 0, written!)
  }

  /**
   * Judges every line of `bytes` in one pass (see MatchEngine.decideLines).
   *
   * A fused copy, kept for speed: the line convention of ../lines.ts (LF ends
   * a line; a CR right before the LF, or ending the input, is not part of
   * the URL) and the path-start scan of ../url-path.ts (`pathStartBytes`,
   * stopping at the LF here) are written out again inside the loop, so that
   * the path scan, the DFA and the search for the line's end touch each byte
   * once, with no call per line (cutting the lines with lineEnd/urlEnd and
   * calling decideBytes per line costs more: bench/history/regressions.md).
   * One data suite
   * runs over this loop and the shared functions alike:
   * test/match/match-lines.test.ts (the plain engine takes the shared path)
   * and test/url/url-path.test.ts.
   */
  decideLines(job: LineJob): void {
    const dfa = this.dfa
    const { bytes, out, ruleLines, lineEnds, records, fallbackLine } = job
    const n = bytes.length
    let count = job.row
    let i = job.start
    // Set when the DFA starts thrashing (checked where states are built, off the fast path): stop after this line.
    let stop = false
    while (i < n && !stop) {
      // 1. Where the path starts: pathStartBytes(bytes, i, line end), stopping at the LF.
      let j = i + 1 < n && bytes[i] === PathChar.Slash && bytes[i + 1] === PathChar.Slash ? i + 2 : i
      let hash = false
      let k: number = PathByte.Other
      for (; j < n; j++) {
        k = LINE_PATH_BYTE[bytes[j]]
        if (k === PathByte.Other) continue
        if (k <= PathByte.QueryOrParams || k === PathByte.LineEnd) break
        if (k === PathByte.Hash) hash = true
        else if (bytes[j + 1] === PathChar.Slash && bytes[j + 2] === PathChar.Slash) {
          for (j += 3; j < n; j++) {
            k = LINE_PATH_BYTE[bytes[j]]
            if (k === PathByte.Other || k === PathByte.Colon) continue
            if (k <= PathByte.QueryOrParams || k === PathByte.LineEnd) break
            hash = true
          }
          break
        }
      }
      const ps = (j < n && k <= PathByte.QueryOrParams && !hash ? j * PathStartCode.IndexScale + (k - PathByte.Slash) : PathStartCode.JustSlash) as PathStart
      // 2. The DFA over the path, until decided or the URL ends (LF, or a CR before an LF or the end).
      let r: number
      const s0 = dfa.slash()
      if (s0 < StateCode.FirstRow) r = StateCode.RuleMirror - s0
      else {
        let s = s0
        r = Scan.Undecided
        if (ps !== PathStartCode.JustSlash) {
          const map = dfa.classes.map
          let table = dfa.table
          const bit = ps & PathStartCode.SlashPrepended
          for (j = (ps - bit) / PathStartCode.IndexScale + 1 - bit; j < n; j++) {
            const b = bytes[j]
            if (b === LineByte.LF || (b === LineByte.CR && (j + 1 === n || bytes[j + 1] === LineByte.LF))) break
            const c = map[b]
            let t = table[s + c] as StateId
            if (t < StateCode.FirstRow) {
              if (t === StateCode.Unknown) {
                t = dfa.next(s, c)
                table = dfa.table
                stop = dfa.thrashing
              }
              if (t < StateCode.FirstRow) {
                r = StateCode.RuleMirror - t
                break
              }
            }
            s = t
          }
        }
        if (r === Scan.Undecided) r = StateCode.RuleMirror - dfa.table[s + dfa.end]
      }
      // 3. The line's end: its LF, or the end of the input.
      while (j < n && bytes[j] !== LineByte.LF) j++
      checkRoom(out, count, 'out')
      const at = r * RuleField.Width
      out[count] = r < 0 ? 1 : records[at + RuleField.Flags] & RuleFlag.Allow
      if (ruleLines) {
        checkRoom(ruleLines, count, 'ruleLines')
        ruleLines[count] = r < 0 ? fallbackLine : records[at + RuleField.Line]
      }
      if (lineEnds) {
        checkRoom(lineEnds, count, 'lineEnds')
        lineEnds[count] = j
      }
      count++
      i = j + 1
    }
    job.start = i
    job.row = count
  }

  stats(): EngineStats {
    const dfa = this.dfa
    return {
      engine: 'automaton',
      positions: dfa.positionCount,
      classes: dfa.classes.count,
      states: dfa.stateCount,
      flushes: dfa.flushes,
      cacheBytes: dfa.cacheBytes(),
      peakCacheBytes: dfa.peakCacheBytes,
      budget: dfa.budget,
      largestStateBytes: dfa.largestState > 0 ? dfa.stateBytes(dfa.largestState) : 0,
    }
  }

  memoryUsage(): number {
    return this.dfa.memoryUsage() + this.memo.heldBytes()
  }
}
