/**
 * The hot path: a crawler's lazy DFA behind the MatchEngine interface.
 *
 * Per URL: find where the path starts (GetPathParamsQuery, by a scan), start
 * from the state after the path's `/`, then one table lookup and one
 * comparison per byte until a terminal state or the end. A string URL is read
 * by `charCodeAt`; a non-ASCII code unit stands for its UTF-8 bytes, which all
 * fall in the "other" class (patterns are ASCII after escaping), so no bytes
 * are made. No allocation per URL.
 */
import type { MatchEngine } from '../matcher.js'
import type { RuleSet } from '../../rules/rule-set.js'
import { PATH_BYTE, pathStartBytes, pathStartString } from '../url-path.js'
import { LazyDfa, UNKNOWN } from './lazy-dfa.js'

const encoder = new TextEncoder()
/** Reused by decideString; grows to the longest URL seen (3 bytes per UTF-16 unit at most). */
let scratch = new Uint8Array(4096)

/** For the line scan: PATH_BYTE's codes, plus 5 for LF (the line ends). */
const LINE_PATH_BYTE = PATH_BYTE.slice()
LINE_PATH_BYTE[10] = 5

/** A MatchEngine running a LazyDfa. */
export class AutomatonEngine implements MatchEngine {
  readonly dfa: LazyDfa

  constructor(set: RuleSet, budget?: number) {
    this.dfa = new LazyDfa(set, budget)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    const dfa = this.dfa
    const ps = pathStartBytes(url, start, end)
    let s = dfa.slash()
    if (s < 0) return ~s - 1
    if (ps >= 0) {
      const map = dfa.classes.map
      let table = dfa.table
      // The path's first byte is its '/' unless one was prepended.
      for (let i = (ps >> 1) + ((ps & 1) ^ 1); i < end; i++) {
        const c = map[url[i]]
        let t = table[s + c]
        if (t < 0) {
          if (t !== UNKNOWN) return ~t - 1
          t = dfa.next(s, c)
          table = dfa.table
          if (t < 0) return ~t - 1
        }
        s = t
      }
    }
    return ~dfa.table[s + dfa.W - 1] - 1
  }

  decideString(url: string): number {
    const dfa = this.dfa
    // Patterns are ASCII after escaping; only a foreign buffer can hold a
    // non-ASCII pattern byte, and then the URL's real UTF-8 bytes are needed.
    if (dfa.nonAscii) return this.decideEncoded(url)
    const ps = pathStartString(url)
    const s = dfa.slash()
    if (s < 0) return ~s - 1
    if (ps < 0) return ~dfa.table[s + dfa.W - 1] - 1
    return this.decideStringFrom(url, (ps >> 1) + ((ps & 1) ^ 1), s)
  }

  /**
   * Runs the DFA over a string URL from index `i` in state `s`. A non-ASCII
   * code unit stands for its UTF-8 bytes, which all fall in the "other" class
   * (as TextEncoder encodes it: a valid surrogate pair is 4 bytes, a lone
   * surrogate is U+FFFD, 3 bytes).
   */
  private decideStringFrom(url: string, i: number, s: number): number {
    const dfa = this.dfa
    const map = dfa.classes.map
    const other = dfa.classes.other
    const end = url.length
    let table = dfa.table
    for (; i < end; i++) {
      let code = url.charCodeAt(i)
      let c: number
      let repeat = 1
      if (code < 0x80) {
        c = map[code]
      } else {
        c = other
        if (code < 0x800) repeat = 2
        else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && (code = url.charCodeAt(i + 1)) >= 0xdc00 && code <= 0xdfff) {
          repeat = 4
          i++
        } else repeat = 3
      }
      do {
        let t = table[s + c]
        if (t < 0) {
          if (t !== UNKNOWN) return ~t - 1
          t = dfa.next(s, c)
          table = dfa.table
          if (t < 0) return ~t - 1
        }
        s = t
      } while (--repeat > 0)
    }
    return ~table[s + dfa.W - 1] - 1
  }

  /** A string URL as its UTF-8 bytes (encoded into a reused buffer): only for rules with non-ASCII pattern bytes. */
  private decideEncoded(url: string): number {
    let buf = scratch
    let { read, written } = encoder.encodeInto(url, buf)
    if (read! < url.length) {
      buf = scratch = new Uint8Array(url.length * 3 + 16)
      written = encoder.encodeInto(url, buf).written
    }
    return this.decideBytes(buf, 0, written!)
  }

  /**
   * Judges every LF-separated line of `bytes` in one pass (see
   * MatchEngine.decideLines): the path-start scan, the DFA and the search for
   * the line's end touch each byte once, and no per-line call is made.
   */
  decideLines(
    bytes: Uint8Array,
    out: Uint8Array,
    ruleLines: Int32Array | undefined,
    allow: Uint8Array,
    lines: Int32Array,
    fallbackLine: number,
    lineEnds?: Int32Array,
  ): number {
    const dfa = this.dfa
    const n = bytes.length
    let count = 0
    let i = 0
    while (i < n) {
      // 1. Where the path starts (GetPathParamsQuery), stopping at the line's end.
      const lineStart = i
      let search = i
      if (i + 1 < n && bytes[i] === 47 && bytes[i + 1] === 47) search = i + 2
      let hash = false
      let path = -1 // index of the path's first byte; -1: the path is "/"
      let slash = 1 // 1 when the path starts with its own '/'
      let j = search
      let k = 0
      for (; j < n; j++) {
        k = LINE_PATH_BYTE[bytes[j]]
        if (k === 0) continue
        if (k <= 2 || k === 5) break
        if (k === 3) hash = true
        else if (bytes[j + 1] === 47 && bytes[j + 2] === 47) {
          j += 3
          for (; j < n; j++) {
            k = LINE_PATH_BYTE[bytes[j]]
            if (k === 0 || k === 4) continue
            if (k <= 2 || k === 5) break
            hash = true
          }
          break
        }
      }
      if (j < n && k <= 2 && !hash) {
        path = j
        slash = k === 1 ? 1 : 0
      }
      // 2. The DFA over the path, until decided or the line ends.
      let r: number
      let s = dfa.slash()
      if (s < 0) r = ~s - 1
      else {
        r = -2
        if (path >= 0) {
          const map = dfa.classes.map
          let table = dfa.table
          for (j = path + slash; j < n; j++) {
            const b = bytes[j]
            if (b === 10 || (b === 13 && (j + 1 === n || bytes[j + 1] === 10))) break
            const c = map[b]
            let t = table[s + c]
            if (t < 0) {
              if (t === UNKNOWN) {
                t = dfa.next(s, c)
                table = dfa.table
              }
              if (t < 0) {
                r = ~t - 1
                break
              }
            }
            s = t
          }
        }
        if (r === -2) r = ~dfa.table[s + dfa.W - 1] - 1
      }
      // 3. The line's end.
      if (j < lineStart) j = lineStart
      while (j < n && bytes[j] !== 10) j++
      if (count >= out.length) throw new RangeError(`matchLines: out has room for ${out.length} lines, the input has more`)
      out[count] = r < 0 ? 1 : allow[r]
      if (ruleLines) {
        if (count >= ruleLines.length) throw new RangeError(`matchLines: ruleLines has room for ${ruleLines.length} lines, the input has more`)
        ruleLines[count] = r < 0 ? fallbackLine : lines[r]
      }
      if (lineEnds) {
        if (count >= lineEnds.length) throw new RangeError(`matchLines: lineEnds has room for ${lineEnds.length} lines, the input has more`)
        lineEnds[count] = j
      }
      count++
      i = j + 1
    }
    return count
  }

  memoryUsage(): number {
    return this.dfa.memoryUsage()
  }
}
