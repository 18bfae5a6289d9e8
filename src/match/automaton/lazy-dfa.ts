/**
 * The lazy DFA of one crawler's rules (build time and run time): a state is a
 * set of live NFA positions plus the best rule matched so far, positions
 * that cannot beat it are dropped, and with none left the state is decided (a
 * terminal state). Encodings: state.ts; design: README.md in this folder;
 * the budget and flushes: {@link LazyDfa}.
 */
import { END_CLASS, type ByteClasses } from './byte-classes.js'
import { END, STAR, buildPositions, POSITION_VIEWS, type Positions } from './positions.js'
import type { RuleSet } from '../../rules/rule-set.js'
import { objectBytes, TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES, typedArrayBytes } from '../../memory.js'
import { describeValue, RobotsRangeError } from '../../errors.js'
import { endColumn, hasRow, rowOf, rowState, RowInfo, StateCode, terminalOf, type StateId } from './state.js'
import { SCRATCH_KEEP } from '../../memory.js'

/** Default per-matcher budget for compiled states, in bytes: 4 MiB (why: src/match/automaton/README.md). */
export const DEFAULT_MATCHER_BUDGET = 4 << 20

/** Smallest budget accepted. */
export const MIN_MATCHER_BUDGET = 4096

/** Fields of a LazyDfa object, for its own memory cost. */
const DFA_FIELDS = 31

/**
 * The position set under construction is collected in a list (duplicates
 * allowed; `prune` sorts and dedups it). One module-level list of
 * SCRATCH_KEEP positions serves every DFA (JavaScript runs one step at a
 * time); a set that may need more (each source position adds at most two)
 * gets a list of its own for that step, so nothing grown for a huge rule set
 * stays (src/memory.ts).
 */
const SHARED_LIST = new Int32Array(SCRATCH_KEEP)

/**
 * Thrashing, judged at each flush over the URLs judged since the previous
 * one: the cache filled its budget within fewer than THRASH_URLS URLs, or
 * state construction (positions visited) took more than THRASH_WORK_PER_URL
 * per URL. Either way the cache holds states that are not reused, and a
 * watched DFA asks its matcher for the thrash-proof tier (src/match/README.md
 * has the reasoning; bench/history/design.md, the figures).
 */
export const THRASH_URLS = 16
/** See {@link THRASH_URLS}. */
export const THRASH_WORK_PER_URL = 4096

/**
 * States a cache's arrays are first sized for (halved while they would take
 * more than a quarter of a small budget), and positions per state in the
 * pool: most matchers judge their URLs with fewer states (bench/history/design.md),
 * so their arrays are allocated once and never copied.
 */
const FIRST_ROWS = 16
/** See {@link FIRST_ROWS}. */
const FIRST_POSITIONS_PER_ROW = 8

/**
 * Per item (a byte, STAR, END): the step that last met it as a row's
 * literal position (`next` fills the cells of every class no position of
 * the row waits for at once). Shared: one step at a time.
 */
const STAMP = new Int32Array(END + 1)
let stampNow = 0
const STAMP_LAST = 0x7fffffff

/** No ints (before the first cache is made). */
const NO_INTS = new Int32Array(0)

/** FNV over a state's positions; not the keyed hash of src/url/ (a round per position): the sets come from one file's rules, and the cache holds at most a budget's worth. */
function hashState(positions: Int32Array, from: number, to: number, best: number): number {
  let h = (best + 0x9e3779b9) | 0
  for (let i = from; i < to; i++) h = Math.imul(h ^ positions[i], 0x01000193)
  return h
}

/**
 * The compiled, lazily built DFA. The RuleSet's rules are in rank order
 * (rules/rule-set.ts), so rule `a` beats rule `b` exactly when `a < b`.
 *
 * Budget: the state cache (rows, position sets, keys) is capped at `budget`
 * bytes. When a new state would pass it, the cache is flushed and rebuilt
 * from the state in hand, so memory stays bounded (budget plus one state)
 * and each byte still costs at most one state construction: time per URL
 * stays linear in its length whatever the rules.
 */
export class LazyDfa {
  /** Row width: classes + 1 (the last column is the end verdict; see state.ts). */
  readonly W: number
  /** The end column's offset in a row (`endColumn(W)`), for the hot loops: `table[s + dfa.end]`. */
  readonly end: number
  readonly classes: ByteClasses
  /** Transition table; see state.ts. */
  table: Int32Array
  /** Flushes so far. */
  flushes = 0
  readonly budget: number
  /** The most bytes the state cache held before a flush (see peakCacheBytes). */
  private peakBeforeFlush = 0
  /** The most positions one state has held. */
  largestState = 0
  /** URLs started (calls of `slash()`), for the thrash test. */
  private urls = 0
  /** `urls` at the last flush. */
  private urlsAtFlush = 0
  /** Positions visited by `step` since the last flush. */
  private work = 0
  /** Called once when the cache thrashes (none: the DFA is not watched). */
  private readonly onThrash: (() => void) | undefined
  /** True once the cache thrashed (only for a watched DFA): its matcher moves to the thrash-proof tier. */
  thrashing = false
  /** The list the current set is collected in (SHARED_LIST, or one of its own for a large set). */
  private list: Int32Array = SHARED_LIST

  /** The NFA (positions.ts): item and rule per position, anchored per rule. */
  private readonly item: Int16Array
  private readonly rule: Int32Array
  private readonly anchored: Uint8Array
  private readonly positionTotal: number
  /** Bytes of the buffer the NFA tables and the byte classes view. */
  private readonly fixedBytes: number
  /** True when a pattern byte is >= 0x80 (only from a foreign buffer): strings are then matched as UTF-8 bytes. */
  readonly nonAscii: boolean
  /** Each rule's first position: the start state's positions. */
  private readonly startPositions: Int32Array
  /** Number of cached non-terminal states (rows). */
  private rowCount = 0
  /** Rows the arrays are sized for after a flush (a small cache's arrays are never grown: see FIRST_ROWS). */
  private readonly firstRows: number
  /** Per row, RowInfo.Width ints (see state.ts): best rule so far (-1: none), start and length of its positions in `pool`, its hash. */
  private rowInfo: Int32Array
  /** Live positions of every row, back to back. */
  private pool: Int32Array
  private poolLen = 0
  /** The states by their hash of (best, positions): an open-addressing table (linear probing, at most half full) of `row + 1` (0: empty). */
  private slots: Int32Array
  private slashState = StateCode.Unknown as StateId
  /** The position set being built (in `scratch`): its size and best rule. */
  private setSize = 0
  private setBest = -1

  constructor(set: RuleSet, budget: number = DEFAULT_MATCHER_BUDGET, onThrash?: () => void) {
    this.budget = checkMatcherBudget(budget)
    this.onThrash = onThrash
    const pos: Positions = buildPositions(set)
    this.item = pos.item
    this.rule = pos.rule
    this.anchored = pos.anchored
    this.positionTotal = pos.count
    this.nonAscii = pos.nonAscii
    this.startPositions = pos.base
    this.classes = pos.classes
    this.fixedBytes = pos.buffer.byteLength
    this.W = this.classes.count + 1
    this.end = endColumn(this.W)
    // Sized for FIRST_ROWS states (fewer when the budget is tiny), so that most caches never grow.
    let rows = FIRST_ROWS
    while (rows > 2 && rows * (this.W + RowInfo.Width + FIRST_POSITIONS_PER_ROW + 2) * 4 > this.budget / 4) rows >>= 1
    this.firstRows = rows
    this.table = this.rowInfo = this.pool = this.slots = NO_INTS
    this.emptyCache()
  }

  /**
   * Empty cache arrays for `firstRows` states. Arrays of their own, not
   * views of one buffer: the hot loops read the table slower through a
   * view of a shared buffer (bench/history/design.md).
   */
  private emptyCache(): void {
    const rows = this.firstRows
    this.table = new Int32Array(this.W * rows)
    this.rowInfo = new Int32Array(RowInfo.Width * rows)
    this.pool = new Int32Array(FIRST_POSITIONS_PER_ROW * rows)
    this.slots = new Int32Array(2 * rows)
  }

  /** The NFA positions (for the README's figures and tests). */
  get positionCount(): number {
    return this.positionTotal
  }

  /** Number of cached non-terminal states. */
  get stateCount(): number {
    return this.rowCount
  }

  /** The most bytes the state cache has held (see cacheBytes). */
  get peakCacheBytes(): number {
    return Math.max(this.peakBeforeFlush, this.cacheBytes())
  }

  /** Bytes held by the state cache (table, positions, index): what the budget bounds. */
  cacheBytes(): number {
    return this.table.byteLength + this.pool.byteLength + this.rowInfo.byteLength + this.slots.byteLength
  }

  /**
   * Bytes one state with `n` live positions adds to the cache: its row, its
   * row info, its positions and its index entry. The cache never holds more
   * than the budget plus one such state.
   */
  stateBytes(n: number): number {
    return this.W * 4 + RowInfo.Width * 4 + n * 4 + 2 * 4
  }

  /** Bytes held: the state cache plus the fixed NFA tables and object overheads. */
  memoryUsage(): number {
    // The NFA tables and the classes: one buffer and its views; the cache: 4 typed arrays (table, rowInfo, pool,
    // slots); the DFA object and the classes object (4 fields).
    const fixed = this.fixedBytes + TYPED_ARRAY_BYTES + POSITION_VIEWS * TYPED_VIEW_BYTES + typedArrayBytes(this.classes.map)
    return this.cacheBytes() + fixed + 4 * TYPED_ARRAY_BYTES + objectBytes(DFA_FIELDS) + objectBytes(4)
  }

  /** The state after the path's leading `/` (every path starts with one). */
  slash(): StateId {
    this.urls++
    if (this.slashState === StateCode.Unknown) {
      const start = this.closure(this.startPositions)
      this.slashState = hasRow(start) ? this.next(start, this.classes.map[47]) : start
    }
    return this.slashState
  }

  /**
   * Builds (or finds) the transition of non-terminal state `s` on class `c`,
   * stores it in the table and returns it. May flush the cache: state ids
   * from before the call are then void, except the returned one.
   */
  next(s: StateId, c: number): StateId {
    if (c === END_CLASS) {
      const target = this.table[s + this.end] as StateId
      this.table[s + c] = target
      return target
    }
    const flushes = this.flushes
    const byte = this.classes.representative[c]
    const target = this.step(rowOf(s, this.W), byte)
    // step() may have flushed: the row of `s` is gone then; only cache when it still exists.
    if (this.flushes !== flushes) return target
    const table = this.table
    if (STAMP[byte] === stampNow) table[s + c] = target
    else {
      // No live position of the row waits for this byte: every class no position waits for leads to the
      // same state (the row's stars, advanced), so their cells are filled at once.
      const rep = this.classes.representative
      for (let x = END_CLASS + 1, end = this.end; x < end; x++) if (STAMP[rep[x]] !== stampNow) table[s + x] = target
    }
    return target
  }

  /** The state reached from row `k` on `byte`; marks (STAMP) the bytes the row's literal positions wait for. */
  private step(k: number, byte: number): StateId {
    const item = this.item
    const info = this.rowInfo
    const row = k * RowInfo.Width
    this.beginSet(info[row + RowInfo.Best], 2 * info[row + RowInfo.PoolLength])
    const ps = this.pool
    this.work += info[row + RowInfo.PoolLength]
    if (stampNow === STAMP_LAST) {
      // Never reuse a stamp an entry may still hold.
      STAMP.fill(0)
      stampNow = 0
    }
    const stamp = ++stampNow
    for (let i = info[row + RowInfo.PoolStart], end = i + info[row + RowInfo.PoolLength]; i < end; i++) {
      const p = ps[i]
      const it = item[p]
      if (it === STAR) this.addClosure(p)
      else {
        STAMP[it] = stamp
        if (it === byte) this.addClosure(p + 1)
      }
    }
    return this.endSet()
  }

  /** The state of the given positions (and their closures), with no rule matched yet. */
  private closure(starts: Int32Array): StateId {
    this.work += starts.length
    this.beginSet(-1, 2 * starts.length)
    for (let i = 0; i < starts.length; i++) this.addClosure(starts[i])
    return this.endSet()
  }

  /** Starts collecting a position set of at most `bound` entries (in the shared list, or one of its own). */
  private beginSet(best: number, bound: number): void {
    this.list = bound <= SHARED_LIST.length ? SHARED_LIST : new Int32Array(bound)
    this.setSize = 0
    this.setBest = best
  }

  /**
   * Adds position `p` with its closure: past a `*` the next position too; an
   * unanchored rule's end is a match (it may become the best rule), an
   * anchored rule's end stays live until the input ends. (Runs of `*` are one
   * item, so at most two entries are added.)
   */
  private addClosure(p: number): void {
    const list = this.list
    for (;;) {
      const it = this.item[p]
      if (it === END) {
        const r = this.rule[p]
        if (this.anchored[r]) list[this.setSize++] = p
        else if (this.setBest < 0 || r < this.setBest) this.setBest = r
        return
      }
      list[this.setSize++] = p
      if (it !== STAR) return
      p++
    }
  }

  /** Prunes the collected set and returns the id of its state. */
  private endSet(): StateId {
    const best = this.setBest
    const n = this.prune(this.list, this.setSize, best)
    const id = this.stateFor(n, best)
    this.list = SHARED_LIST // a list of its own goes with the step
    return id
  }

  /** Drops positions whose rule cannot beat `best` and duplicates; sorts the rest in place. Returns their count. */
  private prune(list: Int32Array, n: number, best: number): number {
    const rule = this.rule
    const item = this.item
    let m = 0
    let sorted = true
    for (let i = 0; i < n; i++) {
      const p = list[i]
      if (best < 0 || rule[p] < best) {
        if (m > 0 && list[m - 1] > p) sorted = false
        list[m++] = p
      }
    }
    // Closures are usually emitted in ascending order already; sort only when not (a few by insertion, no view made).
    if (!sorted) {
      if (m > 32) list.subarray(0, m).sort()
      else {
        for (let i = 1; i < m; i++) {
          const p = list[i]
          let j = i - 1
          while (j >= 0 && list[j] > p) {
            list[j + 1] = list[j]
            j--
          }
          list[j + 1] = p
        }
      }
    }
    // Star dominance: a live '*' position of a rule makes the rule's earlier
    // positions redundant (from them, any match must pass the star, which is
    // live already and loops), so keep only the star and what lies past it.
    // Walking down from the top, kept positions are packed at the top end.
    let w = m
    let current = -1
    let starSeen = false
    for (let i = m - 1; i >= 0; i--) {
      const p = list[i]
      if (w < m && list[w] === p) continue // a duplicate of the position just kept
      const r = rule[p]
      if (r !== current) {
        current = r
        starSeen = false
      }
      if (starSeen) continue
      if (item[p] === STAR) starSeen = true
      list[--w] = p
    }
    if (w > 0) list.copyWithin(0, w, m)
    return m - w
  }

  /** The id of the state with the first `n` scratch positions and best rule; builds it if new. */
  private stateFor(n: number, best: number): StateId {
    if (n === 0) return terminalOf(best)
    const list = this.list
    const h = hashState(list, 0, n, best)
    let slots = this.slots
    let mask = slots.length - 1
    for (let slot = h & mask, e = slots[slot]; e !== 0; slot = (slot + 1) & mask, e = slots[slot]) {
      if (this.rowInfo[(e - 1) * RowInfo.Width + RowInfo.Hash] === h && this.sameRow(e - 1, n, best)) return rowState(e - 1, this.W)
    }
    // Budget: what the cache will hold once this state is in (arrays grow by doubling).
    if (this.rowCount > 0 && this.cacheBytes() + this.growthFor(n) > this.budget) this.flush()
    const k = this.rowCount++
    if ((k + 1) * this.W > this.table.length) this.table = grow(this.table, Math.max(this.table.length * 2, (k + 1) * this.W))
    if ((k + 1) * RowInfo.Width > this.rowInfo.length) this.rowInfo = grow(this.rowInfo, this.rowInfo.length * 2)
    if (this.poolLen + n > this.pool.length) this.pool = grow(this.pool, Math.max(this.pool.length * 2, this.poolLen + n))
    if (2 * (k + 1) > this.slots.length) this.slots = this.rehash(this.slots.length * 2)
    const pool = this.pool
    const at = this.poolLen
    for (let i = 0; i < n; i++) pool[at + i] = list[i]
    const row = k * RowInfo.Width
    const info = this.rowInfo
    info[row + RowInfo.Best] = best
    info[row + RowInfo.PoolStart] = at
    info[row + RowInfo.PoolLength] = n
    info[row + RowInfo.Hash] = h
    this.poolLen = at + n
    slots = this.slots
    mask = slots.length - 1
    let slot = h & mask
    while (slots[slot] !== 0) slot = (slot + 1) & mask
    slots[slot] = k + 1
    const s = rowState(k, this.W)
    this.table.fill(StateCode.Unknown, s, s + this.W)
    // End verdict: the best of the state and of the anchored rules whose end is live here.
    let endBest = best
    for (let i = 0; i < n; i++) {
      const p = list[i]
      if (this.item[p] === END) {
        const r = this.rule[p]
        if (endBest < 0 || r < endBest) endBest = r
      }
    }
    this.table[s + this.end] = terminalOf(endBest)
    if (n > this.largestState) this.largestState = n
    return s
  }

  /** A table of `size` slots (a power of two) holding every row, by the hashes in rowInfo. */
  private rehash(size: number): Int32Array {
    const slots = new Int32Array(size)
    const mask = size - 1
    const info = this.rowInfo
    for (let k = 0; k < this.rowCount - 1; k++) {
      let slot = info[k * RowInfo.Width + RowInfo.Hash] & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = k + 1
    }
    return slots
  }

  private sameRow(k: number, n: number, best: number): boolean {
    const row = k * RowInfo.Width
    if (this.rowInfo[row + RowInfo.Best] !== best || this.rowInfo[row + RowInfo.PoolLength] !== n) return false
    const pool = this.pool
    const at = this.rowInfo[row + RowInfo.PoolStart]
    const list = this.list
    for (let i = 0; i < n; i++) if (pool[at + i] !== list[i]) return false
    return true
  }

  /** Bytes the arrays grow by when a state with `n` positions is added. */
  private growthFor(n: number): number {
    const k = this.rowCount
    let extra = 0
    if ((k + 1) * this.W > this.table.length) extra += Math.max(this.table.length, (k + 1) * this.W - this.table.length) * 4
    if ((k + 1) * RowInfo.Width > this.rowInfo.length) extra += this.rowInfo.byteLength
    if (this.poolLen + n > this.pool.length) extra += Math.max(this.pool.length, this.poolLen + n - this.pool.length) * 4
    if (2 * (k + 1) > this.slots.length) extra += this.slots.byteLength
    return extra
  }

  /** Drops every cached state and gives the memory back (the caller rebuilds from the state in hand). */
  private flush(): void {
    // The cache only grows between flushes: its peak is reached right before one, or now.
    this.peakBeforeFlush = Math.max(this.peakBeforeFlush, this.cacheBytes())
    this.flushes++
    // Thrashing: few URLs, or much construction per URL, since the last flush (states that are not reused).
    const urls = this.urls - this.urlsAtFlush
    if (this.onThrash !== undefined && !this.thrashing && (urls < THRASH_URLS || this.work > THRASH_WORK_PER_URL * urls)) {
      this.thrashing = true
      this.onThrash()
    }
    this.urlsAtFlush = this.urls
    this.work = 0
    this.rowCount = 0
    this.poolLen = 0
    this.slashState = StateCode.Unknown as StateId
    this.emptyCache()
  }
}

/** Checks a matcher budget: a number of bytes, at least MIN_MATCHER_BUDGET; a RobotsRangeError (ERR_BUDGET) otherwise. */
export function checkMatcherBudget(budget: unknown): number {
  if (typeof budget !== 'number' || !(budget >= MIN_MATCHER_BUDGET)) {
    throw new RobotsRangeError('ERR_BUDGET', `matcherBudget must be a number >= ${MIN_MATCHER_BUDGET} bytes, got ${describeValue(budget)}`)
  }
  return budget
}

function grow(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size)
  b.set(a)
  return b
}
