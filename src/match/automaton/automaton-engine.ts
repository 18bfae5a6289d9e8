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
import type { EngineStats, MatchEngine } from '../matcher.js'
import type { RuleSet } from '../../rules/rule-set.js'
import { afterSlash, PATH_IS_SLASH, pathStartBytes, pathStartString } from '../url-path.js'
import { LazyDfa } from './lazy-dfa.js'
import { endColumn, hasRow, isUnknown, ruleOf } from './state.js'

const encoder = new TextEncoder()
/** Reused by decideString; grows to the longest URL seen (3 bytes per UTF-16 unit at most). */
let scratch = new Uint8Array(4096)

/** A MatchEngine running a LazyDfa. */
export class AutomatonEngine implements MatchEngine {
  /** @internal The lazy DFA (use the matcher's `stats()` for its figures). */
  readonly dfa: LazyDfa

  constructor(set: RuleSet, budget?: number) {
    this.dfa = new LazyDfa(set, budget)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    const dfa = this.dfa
    const ps = pathStartBytes(url, start, end)
    let s = dfa.slash()
    if (!hasRow(s)) return ruleOf(s)
    if (ps !== PATH_IS_SLASH) {
      const map = dfa.classes.map
      let table = dfa.table
      for (let i = afterSlash(ps); i < end; i++) {
        const c = map[url[i]]
        let t = table[s + c]
        if (!hasRow(t)) {
          if (!isUnknown(t)) return ruleOf(t)
          t = dfa.next(s, c)
          table = dfa.table
          if (!hasRow(t)) return ruleOf(t)
        }
        s = t
      }
    }
    return ruleOf(dfa.table[s + endColumn(dfa.W)])
  }

  decideString(url: string): number {
    const dfa = this.dfa
    // Patterns are ASCII after escaping; only a foreign buffer can hold a
    // non-ASCII pattern byte, and then the URL's real UTF-8 bytes are needed.
    if (dfa.nonAscii) return this.decideEncoded(url)
    const ps = pathStartString(url)
    const s = dfa.slash()
    if (!hasRow(s)) return ruleOf(s)
    if (ps === PATH_IS_SLASH) return ruleOf(dfa.table[s + endColumn(dfa.W)])
    return this.decideStringFrom(url, afterSlash(ps), s)
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
        if (!hasRow(t)) {
          if (!isUnknown(t)) return ruleOf(t)
          t = dfa.next(s, c)
          table = dfa.table
          if (!hasRow(t)) return ruleOf(t)
        }
        s = t
      } while (--repeat > 0)
    }
    return ruleOf(table[s + endColumn(dfa.W)])
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
    return this.dfa.memoryUsage()
  }
}
