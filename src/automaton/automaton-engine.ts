/**
 * The hot path: a crawler's lazy DFA behind the MatchEngine interface.
 *
 * Per URL: find where the path starts (GetPathParamsQuery, by a scan), start
 * from the state after the path's `/`, then one table lookup and one
 * comparison per byte until a terminal state or the end. Strings are read by
 * `charCodeAt`; a non-ASCII code unit stands for its UTF-8 bytes, which all
 * fall in the "other" class (patterns are ASCII after escaping), so no bytes
 * are made. No allocation per URL.
 */
import type { MatchEngine } from '../agent-matcher.js'
import type { RuleSet } from '../rule-set.js'
import { pathStartBytes, pathStartString } from '../url-path.js'
import { LazyDfa } from './lazy-dfa.js'

const encoder = new TextEncoder()

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
    const T = dfa.T
    if (s < T) return s - 1
    if (ps >= 0) {
      const map = dfa.classes.map
      let table = dfa.table
      // The path's first byte is its '/' unless one was prepended.
      for (let i = (ps >> 1) + ((ps & 1) ^ 1); i < end; i++) {
        const c = map[url[i]]
        let t = table[s - T + c]
        if (t < T) {
          if (t >= 0) return t - 1
          t = dfa.next(s, c)
          table = dfa.table
          if (t < T) return t - 1
        }
        s = t
      }
    }
    return dfa.table[s - T + dfa.W - 1] - 1
  }

  decideString(url: string): number {
    const dfa = this.dfa
    if (dfa.nonAscii) {
      const bytes = encoder.encode(url)
      return this.decideBytes(bytes, 0, bytes.length)
    }
    const ps = pathStartString(url)
    let s = dfa.slash()
    const T = dfa.T
    if (s < T) return s - 1
    if (ps >= 0) {
      const map = dfa.classes.map
      let table = dfa.table
      const end = url.length
      for (let i = (ps >> 1) + ((ps & 1) ^ 1); i < end; i++) {
        const code = url.charCodeAt(i)
        if (code >= 0x80) return this.decideStringFrom(url, i, s)
        const c = map[code]
        let t = table[s - T + c]
        if (t < T) {
          if (t >= 0) return t - 1
          t = dfa.next(s, c)
          table = dfa.table
          if (t < T) return t - 1
        }
        s = t
      }
    }
    return dfa.table[s - T + dfa.W - 1] - 1
  }

  /** The rest of a string URL from index `i` in state `s`, with non-ASCII code units as their UTF-8 bytes (all in the "other" class). */
  private decideStringFrom(url: string, i: number, s: number): number {
    const dfa = this.dfa
    const T = dfa.T
    const map = dfa.classes.map
    const other = dfa.classes.other
    const end = url.length
    for (; i < end; i++) {
      let code = url.charCodeAt(i)
      let c: number
      let repeat = 1
      if (code < 0x80) {
        c = map[code]
      } else {
        // UTF-8 length of this code point; a valid surrogate pair is 4 bytes over 2 units.
        c = other
        if (code < 0x800) repeat = 2
        else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && (code = url.charCodeAt(i + 1)) >= 0xdc00 && code <= 0xdfff) {
          repeat = 4
          i++
        } else repeat = 3
      }
      while (repeat-- > 0) {
        let t = dfa.table[s - T + c]
        if (t < T) {
          if (t >= 0) return t - 1
          t = dfa.next(s, c)
          if (t < T) return t - 1
        }
        s = t
      }
    }
    return dfa.table[s - T + dfa.W - 1] - 1
  }

  memoryUsage(): number {
    return this.dfa.memoryUsage()
  }
}
