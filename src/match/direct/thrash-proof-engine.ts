/**
 * The thrash-proof tier: for rule sets whose lazy DFA keeps building states
 * it never reuses (thousands of `/*abcd` rules: every URL byte reaches a new
 * state of thousands of positions), an engine whose cost per URL does not
 * depend on reuse: the literal index (./literal-index.ts) finds the rules
 * that can match, and only those are checked ({@link ThrashProofEngine}).
 * Also the indexed start of star-heavy sets (../tiers.ts).
 */
import type { EngineStats, MatchEngine } from '../engine.js'
import { RuleField, type RuleSet } from '../../rules/rule-set.js'
import { objectBytes, TYPED_ARRAY_BYTES } from '../../memory.js'
import { PATH, pathAt, pathOfBytes, pathOfStringAt, releasePath } from './path.js'
import { PathStartMemo, type PathStart } from '../../url/url-path.js'
import { ruleMatches } from './segments.js'
import { buildLiteralIndex, literalIndexBytes, NO_RULE, type LiteralIndex } from './literal-index.js'
import { NEVER, NO_AUTOMATON } from './direct-engine.js'

/** Fields of the engine object and of the index objects, for their memory cost. */
const ENGINE_FIELDS = 11
const INDEX_OBJECT_BYTES = objectBytes(4) + objectBytes(7) + objectBytes(9)
/** The path-start memo's object (its prefix: heldBytes). */
const MEMO_OBJECT_BYTES = objectBytes(3)

/**
 * The thrash-proof engine over a RuleSet in rank order. Per URL (the path
 * from ./path.ts):
 * 1. walk the head trie from the path's start (./literal-index.ts): the best
 *    Prefix rule on the walk, the best Exact rule where the path ends, and a
 *    stamp on every node passed (the heads that are prefixes of the path);
 * 2. unless a better rule already matched, run the segment automaton along
 *    the path, stamping each floating segment that occurs, once (so the
 *    dictionary links are followed once per segment and URL);
 * 3. the Keyed rules of the keys found, better than the best so far, whose
 *    head was passed and all of whose segments occur, are the candidates:
 *    checked in rank order with the segment matcher (./segments.ts) until
 *    one matches.
 *
 * Cost: O(path) for the walks, plus the candidates' checks. Each check is
 * at worst the reference's own algorithm for that rule, so the engine is
 * never slower than trying every rule (what robots-parser does, with an
 * array allocated per rule and URL); on hostile rule sets (many `*` rules)
 * the candidates are few (bench/worst-case.mjs). Memory: the index,
 * proportional to the rules' pattern bytes, and a stamp per node; no cache.
 */
export class ThrashProofEngine implements MatchEngine {
  private readonly bytes: Uint8Array
  private readonly records: Int32Array
  private readonly index: LiteralIndex
  /** Per head-trie node: the URL it was last passed on. */
  private readonly headStamp: Int32Array
  /** Per segment-automaton node: the URL its segment was last found on. */
  private readonly keyStamp: Int32Array
  /** Keys found on the current URL (nodes), and the candidates (rules). */
  private readonly found: Int32Array
  private readonly candidates: Int32Array
  private epoch = 0
  /** URLs left before `then` (the indexed start's countdown; see MatchEngine.countDown). */
  private left = NEVER
  private then: (() => void) | null = null
  /** Where string URLs' paths start, remembered per origin. */
  private readonly memo = new PathStartMemo()

  constructor(set: RuleSet) {
    this.bytes = set.bytes
    this.records = set.records
    this.index = buildLiteralIndex(set)
    this.headStamp = new Int32Array(this.index.head.nodes)
    this.keyStamp = new Int32Array(this.index.keys.nodes)
    this.found = new Int32Array(this.index.keys.nodes)
    this.candidates = new Int32Array(this.index.keys.rules.length)
  }

  decideBytes(url: Uint8Array, start: number, end: number): number {
    pathOfBytes(url, start, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideFrom(url: Uint8Array, ps: PathStart, end: number): number {
    pathAt(url, ps, end)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideStringFrom(url: string, ps: PathStart): number {
    pathOfStringAt(url, ps)
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  decideString(url: string): number {
    pathOfStringAt(url, this.memo.of(url))
    const r = this.decidePath(PATH.bytes, PATH.from, PATH.to)
    releasePath()
    if (--this.left === 0) this.then!()
    return r
  }

  countDown(urls: number, then: () => void): void {
    this.left = urls
    this.then = then
  }

  /** The deciding rule for the path `p[from, to)`, or -1. */
  decidePath(p: Uint8Array, from: number, to: number): number {
    if (++this.epoch > 0x3fffffff) {
      this.headStamp.fill(0)
      this.keyStamp.fill(0)
      this.epoch = 1
    }
    const epoch = this.epoch
    const { head, keys, headNode, minKeyed } = this.index
    // 1. The head trie, from the path's start.
    let best = NO_RULE
    const headStamp = this.headStamp
    for (let node = 0, i = from; ; i++) {
      headStamp[node] = epoch
      if (head.minPrefix[node] < best) best = head.minPrefix[node]
      if (i === to) {
        if (head.minExact[node] < best) best = head.minExact[node]
        break
      }
      const b = p[i]
      let next = -1
      if (node === 0) next = head.rootNext[b]
      else {
        for (let k = head.childStart[node], end = head.childStart[node + 1]; k < end; k++) {
          if (head.childByte[k] === b) {
            next = head.childNode[k]
            break
          }
        }
      }
      if (next < 0) break
      node = next
    }
    if (minKeyed >= best) return best === NO_RULE ? -1 : best
    // 2. The keys that occur in the path.
    const keyStamp = this.keyStamp
    const found = this.found
    const { childStart, childByte, childNode, rootNext, fail, dict, ruleStart, segmentEnd, segStart, segNodes } = keys
    let nFound = 0
    for (let node = 0, i = from; i < to; i++) {
      const b = p[i]
      if (node === 0) {
        // At the root, a byte that starts no key leaves it there, and no segment ends at the root.
        node = rootNext[b]
        if (node < 0) {
          node = 0
          continue
        }
      } else for (;;) {
        let next = -1
        if (node === 0) next = rootNext[b]
        else {
          for (let k = childStart[node], end = childStart[node + 1]; k < end; k++) {
            const c = childByte[k]
            if (c === b) {
              next = childNode[k]
              break
            }
            if (c > b) break
          }
        }
        if (next >= 0) {
          node = next
          break
        }
        if (node === 0) break
        node = fail[node]
      }
      // The segments ending here: the node itself, then its dictionary links (each once per URL).
      for (let v = segmentEnd[node] ? node : dict[node]; v !== 0 && keyStamp[v] !== epoch; v = dict[v]) {
        keyStamp[v] = epoch
        if (ruleStart[v + 1] > ruleStart[v]) found[nFound++] = v
      }
    }
    // 3. Candidates: rules of the found keys, better than the best so far, whose head was passed and all of whose segments occur.
    const rules = keys.rules
    const candidates = this.candidates
    let n = 0
    for (let f = 0; f < nFound; f++) {
      const v = found[f]
      next: for (let k = ruleStart[v], end = ruleStart[v + 1]; k < end; k++) {
        const r = rules[k]
        if (r >= best) break
        if (headStamp[headNode[r]] !== epoch) continue
        for (let g = segStart[r], gEnd = segStart[r + 1]; g < gEnd; g++) if (keyStamp[segNodes[g]] !== epoch) continue next
        candidates[n++] = r
      }
    }
    if (n > 1) candidates.subarray(0, n).sort()
    const bytes = this.bytes
    const rec = this.records
    for (let c = 0; c < n; c++) {
      const r = candidates[c]
      if (ruleMatches(bytes, rec, r * RuleField.Width, p, from, to)) {
        best = r
        break
      }
    }
    return best === NO_RULE ? -1 : best
  }

  stats(): EngineStats {
    return { ...NO_AUTOMATON, engine: 'thrash-proof' }
  }

  memoryUsage(): number {
    const own = this.headStamp.byteLength + this.keyStamp.byteLength + this.found.byteLength + this.candidates.byteLength
    return objectBytes(ENGINE_FIELDS) + INDEX_OBJECT_BYTES + 4 * TYPED_ARRAY_BYTES + literalIndexBytes(this.index) + own + MEMO_OBJECT_BYTES + this.memo.heldBytes()
  }
}
