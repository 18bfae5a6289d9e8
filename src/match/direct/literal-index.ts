/**
 * The literal index of the thrash-proof tier (build time): which rules can
 * match a path, found from the rules' literal pieces, so that only those
 * are checked (./thrash-proof-engine.ts). Each rule is filed as Prefix, Exact
 * or Keyed ({@link LiteralIndex}); two tries as typed arrays (node layout:
 * {@link Trie}) find them: a head trie and an Aho–Corasick automaton.
 */
import { RuleField, RuleFlag, type RuleSet } from '../../rules/rule-set.js'
import { SCRATCH_KEEP, TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES } from '../../memory.js'

const STAR = 42

/** No rule (above every rule index). */
export const NO_RULE = 0x7fffffff

/**
 * A trie as typed arrays, the node layout shared by both tries: node 0 is
 * the root; node k's children are `childByte/childNode[childStart[k],
 * childStart[k + 1])`, sorted by byte; the root also has a dense table
 * `rootNext[byte]` (-1: none). Build memory is typed arrays proportional to
 * the pattern bytes (buildTrie).
 */
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

/** The segment automaton: failure and dictionary links, and the Keyed rules per node. */
export interface KeyAutomaton extends Trie {
  fail: Int32Array
  /** 1 where a floating segment ends. */
  segmentEnd: Uint8Array
  /** The nearest node on the failure chain (itself excluded) where a segment ends, or 0 (the root: none). */
  dict: Int32Array
  /** Keyed rules of node k: `rules[ruleStart[k], ruleStart[k + 1])`, ascending (empty unless a key ends there). */
  ruleStart: Int32Array
  rules: Int32Array
  /** Per rule, the nodes of its floating segments: `segNodes[segStart[r], segStart[r + 1])` (none unless Keyed). */
  segStart: Int32Array
  segNodes: Int32Array
}

/**
 * The literal index of a RuleSet. Each rule (pattern `head*seg1*…*segK`,
 * `$` aside) is filed by its kind:
 *
 * - **Prefix**: no `*` and no `$`, or `*`s with nothing after them
 *   (`/a*`, `/a*$`): it matches exactly when its head is a prefix of the path.
 * - **Exact**: no `*`, anchored: it matches exactly when the path is its head.
 * - **Keyed**: a non-empty segment after a `*`. It can match only when its
 *   head is a prefix of the path and each of its floating segments occurs
 *   in the path; then it is checked in full (./segments.ts), order and `$`
 *   included. One of its segments, its *key* (the longest; the last of the
 *   longest), lists the rule.
 *
 * Two tries:
 *
 * - the **head trie** over every rule's head, walked from the path's start:
 *   per node the best (lowest) Prefix and Exact rule ending there; a Keyed
 *   rule records its head's node (`headNode[r]`), which must be on the walk;
 * - an **Aho–Corasick automaton** over every floating segment, run along
 *   the whole path: per node its failure link, its dictionary link (the
 *   longest proper suffix where a segment ends), and the Keyed rules whose
 *   key ends there (ascending, so the best come first); per Keyed rule the
 *   nodes of its segments (`segNodes[segStart[r], segStart[r + 1])`).
 */
export interface LiteralIndex {
  head: HeadTrie
  keys: KeyAutomaton
  /** Per rule: its head's node in the head trie (Keyed rules; -1 for the others). */
  headNode: Int32Array
  /** The best Keyed rule (NO_RULE: none): the key automaton can be skipped once a better rule matched. */
  minKeyed: number
}

/**
 * The trie of the strings `bytes[starts[i], ends[i])`, built with typed
 * arrays only (no object or map entry per node, so a rule set read with a
 * raised limit builds in memory proportional to its bytes): each string is
 * inserted in turn (the root's children in a table, a node's others in a
 * sibling list), then every node's children are laid out in byte order (a
 * counting sort of the nodes by their byte). Returns the trie and each
 * string's node.
 */
function buildTrie(bytes: Uint8Array, starts: Int32Array, ends: Int32Array): { trie: Trie; nodeOf: Int32Array } {
  const n = starts.length
  let total = 0
  for (let i = 0; i < n; i++) total += ends[i] - starts[i]
  // Built in shared scratch arrays (a trie has at most total + 1 nodes; a larger one gets its own: memory.ts).
  const own = total >= SCRATCH_KEEP
  const parent = own ? new Int32Array(total + 1) : PARENT
  const first = own ? new Int32Array(total + 1) : FIRST
  const next = own ? new Int32Array(total + 1) : NEXT
  const edge = own ? new Uint8Array(total + 1) : EDGE
  const root = ROOT.fill(-1)
  const nodeOf = n <= NODE_OF.length ? NODE_OF : new Int32Array(n)
  let nodes = 1
  for (let i = 0; i < n; i++) {
    let node = 0
    for (let k = starts[i], e = ends[i]; k < e; k++) {
      const b = bytes[k]
      let c = node === 0 ? root[b] : first[node]
      if (node !== 0) while (c !== 0 && edge[c] !== b) c = next[c]
      if (c <= 0) {
        c = nodes++
        edge[c] = b
        parent[c] = node
        first[c] = 0
        if (node === 0) root[b] = c
        else {
          next[c] = first[node]
          first[node] = c
        }
      }
      node = c
    }
    nodeOf[i] = node
  }
  // The trie's arrays are views of one buffer (one allocation): its Int32 arrays, then the child bytes.
  const buf = new ArrayBuffer(4 * (nodes + 1 + nodes - 1 + 256 + n) + nodes - 1)
  const childStart = new Int32Array(buf, 0, nodes + 1)
  const childNode = new Int32Array(buf, 4 * (nodes + 1), nodes - 1)
  const rootNext = new Int32Array(buf, 4 * (2 * nodes), 256)
  rootNext.set(root)
  const nodeOut = new Int32Array(buf, 4 * (2 * nodes + 256), n)
  nodeOut.set(nodeOf.subarray(0, n))
  const childByte = new Uint8Array(buf, 4 * (2 * nodes + 256 + n), nodes - 1)
  // Children in CSR form: counted per parent, then filled in byte order (nodes bucketed by their byte).
  const byByte = BY_BYTE.fill(0)
  for (let v = 1; v < nodes; v++) {
    childStart[parent[v] + 1]++
    byByte[edge[v] + 1]++
  }
  for (let v = 0; v < nodes; v++) childStart[v + 1] += childStart[v]
  for (let b = 0; b < 256; b++) byByte[b + 1] += byByte[b]
  const order = first // spent: reused for the nodes in byte order
  for (let v = 1; v < nodes; v++) order[byByte[edge[v]]++] = v
  const fill = next // spent: reused for each parent's next free child slot
  fill.set(childStart.subarray(0, nodes))
  for (let j = 0; j < nodes - 1; j++) {
    const v = order[j]
    const at = fill[parent[v]]++
    childByte[at] = edge[v]
    childNode[at] = v
  }
  return { trie: { nodes, childStart, childByte, childNode, rootNext }, nodeOf: nodeOut }
}

/** buildTrie's scratch (see memory.ts, SCRATCH_KEEP): per node its parent, first child, next sibling and byte; the root's children; each string's node; the nodes per byte. */
const PARENT = new Int32Array(SCRATCH_KEEP)
const FIRST = new Int32Array(SCRATCH_KEEP)
const NEXT = new Int32Array(SCRATCH_KEEP)
const EDGE = new Uint8Array(SCRATCH_KEEP)
const ROOT = new Int32Array(256)
const NODE_OF = new Int32Array(SCRATCH_KEEP)
const BY_BYTE = new Int32Array(257)

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
  const kind = new Uint8Array(count)
  const headStart = new Int32Array(count)
  const headEnd = new Int32Array(count)
  // Every floating segment of the Keyed rules, rule by rule, and which of them is each rule's key.
  const segStart = new Int32Array(count + 1)
  const segFrom: number[] = []
  const segTo: number[] = []
  const keyOf = new Int32Array(count).fill(-1)
  let minKeyed = NO_RULE
  let keyed = 0
  for (let r = 0; r < count; r++) {
    const at = r * RuleField.Width
    const s = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    const flags = rec[at + RuleField.Flags]
    let h = s
    while (h < e && bytes[h] !== STAR) h++
    headStart[r] = s
    headEnd[r] = h
    segStart[r] = segFrom.length
    let keyLength = 0
    for (let k = h; k < e; ) {
      while (k < e && bytes[k] === STAR) k++
      const from = k
      while (k < e && bytes[k] !== STAR) k++
      if (k > from) {
        if (k - from >= keyLength) {
          keyOf[r] = segFrom.length
          keyLength = k - from
        }
        segFrom.push(from)
        segTo.push(k)
      }
    }
    if (keyOf[r] >= 0) {
      kind[r] = Kind.Keyed
      keyed++
      if (r < minKeyed) minKeyed = r
    } else {
      kind[r] = h === e && (flags & RuleFlag.Anchored) !== 0 ? Kind.Exact : Kind.Prefix
    }
  }
  segStart[count] = segFrom.length

  const heads = buildTrie(bytes, headStart, headEnd)
  const headTrie = heads.trie as HeadTrie
  const segs = buildTrie(bytes, Int32Array.from(segFrom), Int32Array.from(segTo))
  const ac = segs.trie as KeyAutomaton
  // The index's other arrays are views of one buffer (one allocation): its Int32 arrays, then the segment ends' bytes.
  const hn = headTrie.nodes
  const an = ac.nodes
  const buf = new ArrayBuffer(4 * (2 * hn + count + 3 * an + 1 + keyed) + an)
  let off = 0
  const int32s = (n: number): Int32Array => new Int32Array(buf, (off += 4 * n) - 4 * n, n)
  headTrie.minPrefix = int32s(hn).fill(NO_RULE)
  headTrie.minExact = int32s(hn).fill(NO_RULE)
  const headNode = int32s(count).fill(-1)
  const perNode = int32s(an + 1)
  ac.rules = int32s(keyed)
  ac.fail = int32s(an)
  ac.dict = int32s(an)
  ac.segmentEnd = new Uint8Array(buf, off, an)
  for (let r = count - 1; r >= 0; r--) {
    const node = heads.nodeOf[r]
    if (kind[r] === Kind.Prefix) headTrie.minPrefix[node] = r
    else if (kind[r] === Kind.Exact) headTrie.minExact[node] = r
    else headNode[r] = node
  }

  ac.segStart = segStart
  ac.segNodes = segs.nodeOf
  for (let i = 0; i < segs.nodeOf.length; i++) ac.segmentEnd[segs.nodeOf[i]] = 1
  // Keyed rules per key node, ascending.
  for (let r = 0; r < count; r++) if (keyOf[r] >= 0) perNode[segs.nodeOf[keyOf[r]] + 1]++
  for (let v = 0; v < ac.nodes; v++) perNode[v + 1] += perNode[v]
  ac.ruleStart = perNode
  // Filled from each node's end backwards, rules in reverse: each list ends ascending, and perNode is left as the starts.
  for (let v = 0; v < ac.nodes; v++) perNode[v] = perNode[v + 1]
  for (let r = count - 1; r >= 0; r--) if (keyOf[r] >= 0) ac.rules[--perNode[segs.nodeOf[keyOf[r]]]] = r
  // Failure and dictionary links, breadth first (a node's failure target is shallower).
  const queue = new Int32Array(ac.nodes)
  let tail = 1
  for (let head = 0; head < tail; head++) {
    const u = queue[head]
    for (let k = ac.childStart[u]; k < ac.childStart[u + 1]; k++) {
      const v = ac.childNode[k]
      const b = ac.childByte[k]
      queue[tail++] = v
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
      ac.dict[v] = ac.segmentEnd[f] ? f : ac.dict[f]
    }
  }
  return { head: headTrie, keys: ac, headNode, minKeyed }
}

/**
 * Bytes held by a literal index's arrays, by the model of src/memory.ts:
 * three buffers (each trie's, and the one of the other arrays) with the
 * views the index keeps of them, and the segment starts' own array. A
 * trie's buffer also holds its strings' nodes, which the head trie does not
 * keep a view of. The caller adds the index objects.
 */
export function literalIndexBytes(x: LiteralIndex): number {
  const buffers = x.head.childStart.buffer.byteLength + x.keys.childStart.buffer.byteLength + x.head.minPrefix.buffer.byteLength
  return 3 * TYPED_ARRAY_BYTES + INDEX_VIEWS * TYPED_VIEW_BYTES + buffers + TYPED_ARRAY_BYTES + x.keys.segStart.byteLength
}

/** Views a literal index keeps: four of the head trie's buffer, five of the key trie's, eight of the other arrays' buffer. */
const INDEX_VIEWS = 17
