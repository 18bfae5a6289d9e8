/**
 * The head index of the cold tier ({@link HeadIndex}): a large rule set's
 * rules filed by their literal head (the pattern before its first `*`, or
 * the whole pattern), at most HEAD_DEPTH bytes of it, in a trie, so that a path tries only the rules
 * whose filed head is a prefix of it, in rank order, instead of every rule
 * of its second byte (./direct-engine.ts). The trie is a filter: each rule
 * it yields is still checked in full, so a head cut at HEAD_DEPTH bytes is
 * no harm to the answer. Build cost and memory are linear in the filed head
 * bytes; a path costs one trie step per byte up to HEAD_DEPTH.
 */
import { RuleField, SecondByte } from '../../rules/rule-set.js'
import { SCRATCH_KEEP, TYPED_ARRAY_BYTES, typedArrayBytes } from '../../memory.js'
import { isPlainPrefix } from './literal-prefixes.js'

/**
 * Bytes of a head the trie files (a longer head is filed at its first
 * HEAD_DEPTH bytes, and its rule checked in full). Heads share their first
 * bytes, so most sets hold a few nodes a rule; the cut bounds a cold
 * matcher's index at HEAD_DEPTH nodes a rule whatever the patterns.
 */
export const HEAD_DEPTH = 16

/**
 * The most head bytes a set's index files: a set whose heads would be more
 * at HEAD_DEPTH files them at the largest depth that keeps them within it
 * (at depth 2, the path's second byte, as SecondByte; at 0, every rule at
 * the root), so that its trie has at most one node more and a cold
 * matcher's head index stays under HEAD_INDEX_MAX_BYTES. Twice the rules
 * the cold tier tries at most (../tiers.ts, COLD_MAX_COST): every set it
 * takes is filed at least two bytes deep.
 */
export const HEAD_INDEX_MAX_HEAD_BYTES = 8192

/**
 * The cap on a head index's memory ({@link headIndexBytes}) beyond
 * {@link HEAD_INDEX_RULE_BYTES} a rule: per filed head byte and the root, 5
 * bytes (a node's first child, next sibling and byte) and per node 4 (its
 * list start), one more list start, the `/` node's table (256 bytes), and
 * six typed arrays.
 */
export const HEAD_INDEX_MAX_BYTES = 9 * (HEAD_INDEX_MAX_HEAD_BYTES + 1) + 4 + 256 + 6 * TYPED_ARRAY_BYTES

/** A head index's memory per rule of its set, at most: the rule's list entry. */
export const HEAD_INDEX_RULE_BYTES = 4

/**
 * The index: a trie over the filed heads, node 0 the root; node `v`'s
 * children are `first[v]`, then `next[first[v]]` and so on (0 ends a list:
 * the root is no one's child), each entered on its byte `edge[child]`,
 * except the `/` node's ASCII children, which are in `afterSlash`. The
 * rules of node `v` (their filed head ends there) are
 * `rules[ruleStart[v], ruleStart[v + 1])`, ascending (rank order). A node's
 * list stops at its first plain prefix rule whose whole pattern is filed
 * (it matches whenever the node is reached, so it beats the node's later
 * rules).
 *
 * Not ./literal-index.ts's trie: a matcher builds this one when it is
 * made, so it is filled in shared scratch arrays and copied out at its
 * size, and its lists are read in place (no layout by byte).
 */
export interface HeadIndex {
  /** Bytes of a head filed: HEAD_DEPTH, or less for a set of many rules (HEAD_INDEX_MAX_HEAD_BYTES). */
  readonly depth: number
  readonly first: Uint16Array
  readonly next: Uint16Array
  readonly edge: Uint8Array
  /** The node of the heads' leading `/` (-1: none), and its children by an ASCII byte (0: none; they are in no sibling list), where most paths fan out. */
  readonly slash: number
  readonly afterSlash: Uint16Array
  readonly ruleStart: Int32Array
  readonly rules: Uint16Array | Int32Array
}

/** `*` (a `const enum`: a number in the hot loops). */
const enum Byte {
  Star = 42,
  Slash = 47,
}

/**
 * The head index of a rule set's records (their patterns in `bytes`), the
 * rules the literal prefix index holds left out (`skipPlain`); rules that
 * match no path (SecondByte.Never) are in no list.
 */
export function buildHeadIndex(bytes: Uint8Array, rec: Int32Array, skipPlain: boolean): HeadIndex {
  const n = rec.length / RuleField.Width
  let depth = HEAD_DEPTH
  if (n * HEAD_DEPTH > HEAD_INDEX_MAX_HEAD_BYTES) {
    // Heads that may pass the cap: the filed rules by their head's length (at most HEAD_DEPTH), then the deepest depth within it.
    LENGTHS.fill(0)
    for (let at = 0; at < rec.length; at += RuleField.Width) {
      if (files(rec[at + RuleField.Flags], skipPlain)) LENGTHS[Math.min(rec[at + RuleField.End] - rec[at + RuleField.Start], HEAD_DEPTH)]++
    }
    let headBytes = filedBytes(depth)
    while (headBytes > HEAD_INDEX_MAX_HEAD_BYTES) headBytes = filedBytes(--depth)
  }
  // Built in the shared scratch arrays (a trie has at most headBytes + 1 nodes), then copied out at its size.
  const first = FIRST
  const next = NEXT
  const edge = EDGE
  const kids = AFTER_SLASH
  kids.fill(0)
  first[0] = 0
  let slash = -1
  // Per rule its node, or -1 (not filed, or after its node's decisive plain prefix rule).
  const nodeOf = n <= NODE_OF.length ? NODE_OF : new Int32Array(n)
  let nodes = 1
  for (let r = 0; r < n; r++) {
    const at = r * RuleField.Width
    const flags = rec[at + RuleField.Flags]
    nodeOf[r] = -1
    if (!files(flags, skipPlain)) continue
    const s = rec[at + RuleField.Start]
    const e = rec[at + RuleField.End]
    const limit = Math.min(e, s + depth)
    let node = 0
    let k = s
    for (; k < limit; k++) {
      const b = bytes[k]
      if (b === Byte.Star) break
      let c: number
      if (node === slash && b < 128) {
        // The `/` node's ASCII children are in its table only.
        c = kids[b]
        if (c === 0) {
          c = kids[b] = nodes++
          edge[c] = b
          first[c] = next[c] = 0
        }
      } else {
        c = first[node]
        while (c !== 0 && edge[c] !== b) c = next[c]
        if (c === 0) {
          c = nodes++
          edge[c] = b
          first[c] = 0
          next[c] = first[node]
          first[node] = c
          if (node === 0 && b === Byte.Slash) slash = c
        }
      }
      node = c
    }
    nodeOf[r] = node
    // A plain prefix rule filed whole closes its node's list: the count's sign bit marks it.
    if (isPlainPrefix(flags) && k === e) nodeOf[r] = -2 - node
  }
  const counts = RULE_START
  counts.fill(0, 0, nodes + 1)
  const closed = CLOSED
  closed.fill(0, 0, nodes)
  for (let r = 0; r < n; r++) {
    let node = nodeOf[r]
    if (node === -1) continue
    const decisive = node < -1
    if (decisive) node = -2 - node
    if (closed[node]) {
      nodeOf[r] = -1
      continue
    }
    nodeOf[r] = node
    counts[node + 1]++
    if (decisive) closed[node] = 1
  }
  for (let v = 0; v < nodes; v++) counts[v + 1] += counts[v]
  // The index's arrays are views of one buffer (one allocation): the Int32 arrays first, then the Uint16 ones, then the bytes.
  const listed = counts[nodes]
  const wide = n >= 0x10000
  const slashKids = slash < 0 ? 0 : 128
  const buf = new ArrayBuffer(4 * (nodes + 1) + (wide ? 4 : 2) * listed + 2 * (2 * nodes + slashKids) + nodes)
  const ruleStart = new Int32Array(buf, 0, nodes + 1)
  ruleStart.set(counts.subarray(0, nodes + 1))
  let off = 4 * (nodes + 1)
  const rules = wide ? new Int32Array(buf, off, listed) : new Uint16Array(buf, off, listed)
  off += rules.byteLength
  const firstOut = new Uint16Array(buf, off, nodes)
  firstOut.set(first.subarray(0, nodes))
  const nextOut = new Uint16Array(buf, (off += 2 * nodes), nodes)
  nextOut.set(next.subarray(0, nodes))
  const afterSlash = new Uint16Array(buf, (off += 2 * nodes), slashKids)
  if (slashKids) afterSlash.set(kids)
  const edgeOut = new Uint8Array(buf, off + 2 * slashKids, nodes)
  edgeOut.set(edge.subarray(0, nodes))
  // Filled from each node's end backwards, rules in reverse: each list ends ascending, and ruleStart is left as the starts.
  for (let v = 0; v < nodes; v++) ruleStart[v] = ruleStart[v + 1]
  for (let r = n - 1; r >= 0; r--) if (nodeOf[r] >= 0) rules[--ruleStart[nodeOf[r]]] = r
  return { depth, first: firstOut, next: nextOut, edge: edgeOut, slash, afterSlash, ruleStart, rules }
}

/** buildHeadIndex's scratch: a trie's first children, next siblings and bytes, the `/` node's table, the closed nodes, each rule's node, and the nodes' list starts (see memory.ts, SCRATCH_KEEP). */
const FIRST = new Uint16Array(HEAD_INDEX_MAX_HEAD_BYTES + 1)
const NEXT = new Uint16Array(HEAD_INDEX_MAX_HEAD_BYTES + 1)
const EDGE = new Uint8Array(HEAD_INDEX_MAX_HEAD_BYTES + 1)
const AFTER_SLASH = new Uint16Array(128)
const CLOSED = new Uint8Array(HEAD_INDEX_MAX_HEAD_BYTES + 1)
const NODE_OF = new Int32Array(SCRATCH_KEEP)
const RULE_START = new Int32Array(HEAD_INDEX_MAX_HEAD_BYTES + 2)

/** The filed rules of the set being indexed by the length of their pattern, HEAD_DEPTH and longer at HEAD_DEPTH (reused). */
const LENGTHS = new Int32Array(HEAD_DEPTH + 1)

/** The head bytes the set being indexed files at `depth` (from {@link LENGTHS}: a pattern's length bounds its head's). */
function filedBytes(depth: number): number {
  let total = 0
  for (let len = 0; len <= HEAD_DEPTH; len++) total += LENGTHS[len] * Math.min(len, depth)
  return total
}

/** True for a rule the head index files. */
function files(flags: number, skipPlain: boolean): boolean {
  return flags >>> SecondByte.Shift !== SecondByte.Never && !(skipPlain && isPlainPrefix(flags))
}

/**
 * The nodes with rules that a path passes, root first, into `out` (at least
 * HEAD_DEPTH + 1 long); returns their number. The path is `p[from, to)`.
 */
export function headNodesOfBytes(index: HeadIndex, p: Uint8Array, from: number, to: number, out: Int32Array): number {
  const { first, next, edge, slash, afterSlash, ruleStart: start } = index
  let k = 0
  if (start[1] > 0) out[k++] = 0
  const end = Math.min(to, from + index.depth)
  for (let i = from, node = 0; i < end; i++) {
    const b = p[i]
    let c: number
    if (node === slash && b < 128) c = afterSlash[b]
    else for (c = first[node]; c !== 0 && edge[c] !== b; ) c = next[c]
    if (c === 0) break
    node = c
    if (start[node] < start[node + 1]) out[k++] = node
  }
  return k
}

/**
 * {@link headNodesOfBytes} for the path of a string URL starting at
 * `url[from]`, judged on its chars (./direct-engine.ts, decideChars: the
 * filed bytes are ASCII and neither `#` nor NUL, so the walk stops where the
 * path ends or a char is not ASCII). COPY of headNodesOfBytes with
 * `charCodeAt` for the byte: the data suites judge every URL both ways in
 * the pinned cold tier (test/support/engines.ts).
 */
export function headNodesOfChars(index: HeadIndex, url: string, from: number, out: Int32Array): number {
  const { first, next, edge, slash, afterSlash, ruleStart: start } = index
  let k = 0
  if (start[1] > 0) out[k++] = 0
  const end = Math.min(url.length, from + index.depth)
  for (let i = from, node = 0; i < end; i++) {
    const b = url.charCodeAt(i)
    let c: number
    if (node === slash && b < 128) c = afterSlash[b]
    else for (c = first[node]; c !== 0 && edge[c] !== b; ) c = next[c]
    if (c === 0) break
    node = c
    if (start[node] < start[node + 1]) out[k++] = node
  }
  return k
}

/** Bytes of a head index's arrays (their data and typed-array costs; the caller adds the object). */
export function headIndexBytes(index: HeadIndex): number {
  return (
    typedArrayBytes(index.first) + typedArrayBytes(index.next) + typedArrayBytes(index.edge) + typedArrayBytes(index.afterSlash) +
    typedArrayBytes(index.ruleStart) + typedArrayBytes(index.rules)
  )
}
