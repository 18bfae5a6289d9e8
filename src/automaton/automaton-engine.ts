/**
 * The hot path: a crawler's lazy DFA behind the MatchEngine interface.
 *
 * Per URL: find where the path starts (GetPathParamsQuery, by a scan), start
 * from the state after the path's `/`, then one table lookup and one
 * comparison per byte until a terminal state or the end. A string URL is
 * first encoded as UTF-8 into a reused buffer (`TextEncoder.encodeInto`:
 * native, and faster than `charCodeAt` per character). No allocation per URL.
 */
import type { MatchEngine } from '../agent-matcher.js'
import type { RuleSet } from '../rule-set.js'
import { pathStartBytes } from '../url-path.js'
import { LazyDfa } from './lazy-dfa.js'

const encoder = new TextEncoder()
/** Reused by decideString; grows to the longest URL seen (3 bytes per UTF-16 unit at most). */
let scratch = new Uint8Array(4096)

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
    // Encoding into a reused buffer (native, fast) and scanning bytes beats
    // charCodeAt per character; the bytes are what the reference matches.
    let buf = scratch
    let { read, written } = encoder.encodeInto(url, buf)
    if (read! < url.length) {
      buf = scratch = new Uint8Array(url.length * 3 + 16)
      written = encoder.encodeInto(url, buf).written
    }
    return this.decideBytes(buf, 0, written!)
  }

  memoryUsage(): number {
    return this.dfa.memoryUsage()
  }
}
