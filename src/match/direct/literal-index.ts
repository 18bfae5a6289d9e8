/**
 * The literal index of the thrash-proof tier (build time): which rules can
 * match a path, found from the rules' literal pieces, so that only those
 * are checked (./thrash-proof-engine.ts).
 *
 * Each rule (pattern `head*seg1*…*segK`, `$` aside) is filed by its kind:
 *
 * - **Prefix**: no `*` and no `$`, or `*`s with nothing after them
 *   (`/a*`, `/a*$`): it matches exactly when its head is a prefix of the path.
 * - **Exact**: no `*`, anchored: it matches exactly when the path is its head.
 * - **Keyed**: a non-empty segment after a `*`. It can match only when its
 *   head is a prefix of the path and its *key* (its longest floating
 *   segment; the last of the longest) occurs in the path; then it is checked
 *   in full (./segments.ts).
 *
 * Two tries, as typed arrays:
 *
 * - the **head trie** over every rule's head, walked from the path's start:
 *   per node the best (lowest) Prefix and Exact rule ending there; a Keyed
 *   rule records its head's node (`headNode[r]`), which must be on the walk;
 * - an **Aho–Corasick automaton** over the keys, run along the whole path:
 *   per node its failure link, its dictionary link (the longest proper
 *   suffix that is a key), and the Keyed rules whose key ends there
 *   (ascending, so the best come first).
 *
 * Node layout, shared by both tries: node 0 is the root; node k's children
 * are `childByte/childNode[childStart[k], childStart[k + 1])`, sorted by
 * byte; the root also has a dense table `rootNext[byte]` (-1: none).
 */
import { RuleField, RuleFlag, type RuleSet } from '../../rules/rule-set.js'

const STAR = 42

/** No rule (above every rule index). */
export const NO_RULE = 0x7fffffff

/** A trie in the node layout above. */
export interface Trie {
  /** Number of nodes. */
  nodes: number
  childStart: Int32Array
  childByte: Uint8Array
  childNode: Int32Array
  /** Dense children of the root (-1: none). */
  rootNext: Int32Array
}

/** The head trie: per node the best Prefix and Exact rule ending there. */
export interface HeadTrie extends Trie {
  minPrefix: Int32Array
  minExact: Int32Array
}

/** The key automaton: failure and dictionary links, and the Keyed rules per node. */
export interface KeyAutomaton extends Trie {
  fail: Int32Array
  /** The nearest node on the failure chain (itself excluded) where a key ends, or 0 (the root: none). */
  dict: Int32Array
  /** Keyed rules of node k: `rules[ruleStart[k], ruleStart[k + 1])`, ascending (empty unless a key ends there). */
  ruleStart: Int32Array
  rules: Int32Array
}

/** The literal index of a RuleSet. */
export interface LiteralIndex {
  head: HeadTrie
  keys: KeyAutomaton
  /** Per rule: its head's node in the head trie (Keyed rules; -1 for the others). */
  headNode: Int32Array
  /** The best Keyed rule (NO_RULE: none): the key automaton can be skipped once a better rule matched. */
  minKeyed: number
}

/** A trie under construction: children in a map from `node * 256 + byte`. */
class TrieBuilder {
  readonly edges = new Map<number, number>()
  nodes = 1

  /** The node of `bytes[s, e)`, made if new. */
  insert(bytes: Uint8Array, s: number, e: number): number {
    let node = 0
    for (let k = s; k < e; k++) {
      const key = node * 256 + bytes[k]
      let next = this.edges.get(key)
      if (next === undefined) {
        next = this.nodes++
        this.edges.set(key, next)
      }
      node = next
    }
    return node
  }

  /**
   * The nodes renumbered breadth first (a node's depth never decreases
   * along the numbering, and the root's children come first), with the
   * children in the layout above. Returns the trie and the old → new map.
   */
  finish(): { trie: Trie; renumber: Int32Array } {
    const n = this.nodes
    // Children lists by old node id.
    const kids: number[][] = Array.from({ length: n }, () => [])
    for (const [key, child] of this.edges) kids[Math.floor(key / 256)].push((key % 256) * 2 ** 32 + child)
    const renumber = new Int32Array(n)
    const order = [0]
    for (let i = 0; i < order.length; i++) {
      const list = kids[order[i]].sort((a, b) => a - b)
      for (const e of list) order.push(e % 2 ** 32)
    }
    for (let i = 0; i < n; i++) renumber[order[i]] = i
    const childStart = new Int32Array(n + 1)
    const childByte = new Uint8Array(Math.max(0, n - 1))
    const childNode = new Int32Array(Math.max(0, n - 1))
    let at = 0
    for (let i = 0; i < n; i++) {
      childStart[i] = at
      for (const e of kids[order[i]]) {
        childByte[at] = Math.floor(e / 2 ** 32)
        childNode[at++] = renumber[e % 2 ** 32]
      }
    }
    childStart[n] = at
    const rootNext = new Int32Array(256).fill(-1)
    for (let k = childStart[0]; k < childStart[1]; k++) rootNext[childByte[k]] = childNode[k]
    return { trie: { nodes: n, childStart, childByte, childNode, rootNext }, renumber }
  }
}

/** The child of `node` on `byte` in `t`, or -1. */
export function childOf(t: Trie, node: number, byte: number): number {
  if (node === 0) return t.rootNext[byte]
  const end = t.childStart[node + 1]
  for (let k = t.childStart[node]; k < end; k++) {
    const b = t.childByte[k]
    if (b === byte) return t.childNode[k]
    if (b > byte) break
  }
  return -1
}

/** Rule kinds while building. */
const enum Kind {
  Prefix = 0,
  Exact = 1,
  Keyed = 2,
}

/** Builds the literal index of a RuleSet (rules in rank order). */
export function buildLiteralIndex(set: RuleSet): LiteralIndex {
  const bytes = set.bytes
  const rec = set.records
  const count = set.count
  const heads = new TrieBuilder()
  const keys = new TrieBuilder()
  const kind = new Uint8Array(count)
  const headOld = new Int32Array(count)
  const keyOld = new Int32Array(count).fill(-1)
  let minKeyed = NO_RULE
  for (let r = 0; r < count; r++) {
    const at = r * RuleField.Width
    const s = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    const flags = rec[at + RuleField.Flags]
    let h = s
    while (h < e && bytes[h] !== STAR) h++
    headOld[r] = heads.insert(bytes, s, h)
    // The key: the longest segment after a star (the last of equal ones).
    let keyStart = -1
    let keyLength = 0
    for (let k = h; k < e; ) {
      while (k < e && bytes[k] === STAR) k++
      const segStart = k
      while (k < e && bytes[k] !== STAR) k++
      if (k > segStart && k - segStart >= keyLength) {
        keyStart = segStart
        keyLength = k - segStart
      }
    }
    if (keyStart >= 0) {
      kind[r] = Kind.Keyed
      keyOld[r] = keys.insert(bytes, keyStart, keyStart + keyLength)
      if (r < minKeyed) minKeyed = r
    } else {
      kind[r] = h === e && (flags & RuleFlag.Anchored) !== 0 ? Kind.Exact : Kind.Prefix
    }
  }

  const builtHeads = heads.finish()
  const headTrie = builtHeads.trie as HeadTrie
  headTrie.minPrefix = new Int32Array(headTrie.nodes).fill(NO_RULE)
  headTrie.minExact = new Int32Array(headTrie.nodes).fill(NO_RULE)
  const headNode = new Int32Array(count).fill(-1)
  for (let r = count - 1; r >= 0; r--) {
    const node = builtHeads.renumber[headOld[r]]
    if (kind[r] === Kind.Prefix) headTrie.minPrefix[node] = r
    else if (kind[r] === Kind.Exact) headTrie.minExact[node] = r
    else headNode[r] = node
  }

  const builtKeys = keys.finish()
  const ac = builtKeys.trie as KeyAutomaton
  // Keyed rules per node, ascending.
  const perNode = new Int32Array(ac.nodes + 1)
  for (let r = 0; r < count; r++) if (keyOld[r] >= 0) perNode[builtKeys.renumber[keyOld[r]] + 1]++
  for (let k = 0; k < ac.nodes; k++) perNode[k + 1] += perNode[k]
  ac.ruleStart = perNode.slice()
  ac.rules = new Int32Array(perNode[ac.nodes])
  for (let r = 0; r < count; r++) if (keyOld[r] >= 0) ac.rules[perNode[builtKeys.renumber[keyOld[r]]]++] = r
  // Failure and dictionary links, breadth first (nodes are numbered so).
  ac.fail = new Int32Array(ac.nodes)
  ac.dict = new Int32Array(ac.nodes)
  for (let u = 0; u < ac.nodes; u++) {
    for (let k = ac.childStart[u]; k < ac.childStart[u + 1]; k++) {
      const v = ac.childNode[k]
      const b = ac.childByte[k]
      let f = 0
      if (u !== 0) {
        let x = ac.fail[u]
        for (;;) {
          const c = childOf(ac, x, b)
          if (c >= 0) {
            f = c
            break
          }
          if (x === 0) break
          x = ac.fail[x]
        }
      }
      ac.fail[v] = f
      ac.dict[v] = ac.ruleStart[f + 1] > ac.ruleStart[f] ? f : ac.dict[f]
    }
  }
  return { head: headTrie, keys: ac, headNode, minKeyed }
}

/** Bytes of a trie's arrays. */
function trieBytes(t: Trie): number {
  return t.childStart.byteLength + t.childByte.byteLength + t.childNode.byteLength + t.rootNext.byteLength
}

/** Bytes of a literal index's arrays (their data; the caller adds object costs). */
export function literalIndexBytes(x: LiteralIndex): number {
  return (
    trieBytes(x.head) + x.head.minPrefix.byteLength + x.head.minExact.byteLength +
    trieBytes(x.keys) + x.keys.fail.byteLength + x.keys.dict.byteLength + x.keys.ruleStart.byteLength + x.keys.rules.byteLength +
    x.headNode.byteLength
  )
}

/** Typed arrays in a literal index (for their fixed costs). */
export const LITERAL_INDEX_ARRAYS = 15
