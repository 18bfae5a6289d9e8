/**
 * The lazy DFA of one crawler's rules (build time and run time).
 *
 * A DFA state is a set of live NFA positions plus the best rule matched so
 * far. Rules are ordered by (priority, allow over disallow, earlier line);
 * a position whose rule cannot beat the best any more is dropped. With no
 * live position left the state is decided: it is one of the terminal states.
 *
 * State ids and the table (see README.md in this folder):
 * - Terminal ids are 0..T-1 with T = rules + 1: id 0 = "no rule matched",
 *   id 1 + r = "rule r decided". They have no row: the scan stops there.
 * - A non-terminal state is its row offset plus T: id = T + k * W, where
 *   W = classes + 1. Row k holds, per byte class, the next state id (or -1
 *   while not yet built), and in its last column the terminal id that
 *   decides a path ending in this state (where `$` rules resolve).
 * - `table` is one Int32Array; the hot loop is `s = table[s - T + class]`
 *   and one comparison `s < T` per byte.
 *
 * Budget: the state cache (rows, position sets, keys) is capped at
 * `budget` bytes. When a new state would pass it, the cache is flushed and
 * rebuilt from the state in hand, so memory stays bounded (budget plus one
 * state) and each byte still costs at most one state construction:
 * time per URL stays linear in its length whatever the rules.
 */
import { buildByteClasses, END_CLASS, type ByteClasses } from './byte-classes.js'
import { END, STAR, buildPositions, type Positions } from './positions.js'
import type { RuleSet } from '../rule-set.js'

/** Default per-matcher budget for compiled states, in bytes (see README.md for the measurement). */
export const DEFAULT_MATCHER_BUDGET = 1 << 20

/** Smallest budget accepted. */
export const MIN_MATCHER_BUDGET = 4096

/** Build-time state data, per row. */
interface StateData {
  positions: Int32Array
  best: number
  key: string
}

/** The compiled, lazily built DFA. */
export class LazyDfa {
  /** Number of terminal ids (rules + 1). */
  readonly T: number
  /** Row width: classes + 1 (the last column is the end verdict). */
  readonly W: number
  readonly classes: ByteClasses
  /** Transition table; see the file comment. */
  table: Int32Array
  /** Flushes so far. */
  flushes = 0
  readonly budget: number

  private readonly set: RuleSet
  private readonly pos: Positions
  private rows: StateData[] = []
  private ids = new Map<string, number>()
  private bytes = 0
  private slashState = -1
  private readonly startPositions: Int32Array
  private readonly stamp: Int32Array
  private epoch = 0
  private readonly scratch: Int32Array

  constructor(set: RuleSet, budget: number = DEFAULT_MATCHER_BUDGET) {
    if (!(budget >= MIN_MATCHER_BUDGET)) throw new RangeError(`matcher budget must be >= ${MIN_MATCHER_BUDGET} bytes, got ${budget}`)
    this.budget = budget
    this.set = set
    this.pos = buildPositions(set)
    this.classes = buildByteClasses(this.pos.literals)
    this.T = set.count + 1
    this.W = this.classes.count + 1
    this.table = new Int32Array(this.W * 4)
    this.stamp = new Int32Array(this.pos.count)
    this.scratch = new Int32Array(this.pos.count)
    this.startPositions = Int32Array.from(this.pos.base)
  }

  /** The NFA positions (for the README's figures and tests). */
  get positionCount(): number {
    return this.pos.count
  }

  /** True when a pattern byte is >= 0x80 (only from a foreign buffer): strings must then be matched as UTF-8 bytes. */
  get nonAscii(): boolean {
    return this.pos.nonAscii
  }

  /** Number of cached non-terminal states. */
  get stateCount(): number {
    return this.rows.length
  }

  /** Bytes held by the cache and the tables. */
  memoryUsage(): number {
    return this.bytes + this.table.byteLength + this.stamp.byteLength * 2 + this.pos.count * 6 + this.set.count * 5 + 512
  }

  /** The state after the path's leading `/` (every path starts with one). */
  slash(): number {
    if (this.slashState < 0) {
      const start = this.stateFor(this.closure(this.startPositions, -1))
      this.slashState = start < this.T ? start : this.next(start, this.classes.map[47])
    }
    return this.slashState
  }

  /** Terminal id of a path ending in non-terminal state `s`. */
  atEnd(s: number): number {
    return this.table[s - this.T + this.W - 1]
  }

  /**
   * Builds (or finds) the transition of non-terminal state `s` on class `c`,
   * stores it in the table and returns it. May flush the cache: state ids
   * from before the call are then void, except the returned one.
   */
  next(s: number, c: number): number {
    const k = (s - this.T) / this.W
    const data = this.rows[k]
    let target: number
    if (c === END_CLASS) {
      target = this.table[s - this.T + this.W - 1]
    } else {
      target = this.step(data, this.classes.representative[c])
    }
    // step() may have flushed: the row of `s` is gone then; only cache when it still exists.
    if (this.rows[k] === data) this.table[s - this.T + c] = target
    return target
  }

  private step(data: StateData, byte: number): number {
    const item = this.pos.item
    const out = this.scratch
    const stamp = this.stamp
    const e = ++this.epoch
    let n = 0
    let best = data.best
    const add = (p: number): void => {
      // closure of p: p itself, and past a star; a prefix rule's end is a match.
      for (;;) {
        if (stamp[p] === e) return
        stamp[p] = e
        const it = item[p]
        if (it === END) {
          const r = this.pos.rule[p]
          if (this.pos.anchored[r]) out[n++] = p
          else if (best < 0 || this.beats(r, best)) best = r
          return
        }
        out[n++] = p
        if (it !== STAR) return
        p++
      }
    }
    const ps = data.positions
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]
      const it = item[p]
      if (it === STAR) add(p)
      else if (it === byte) add(p + 1)
    }
    return this.stateFor(this.prune(out.subarray(0, n), best))
  }

  private closure(starts: Int32Array, best0: number): { positions: Int32Array; best: number } {
    const item = this.pos.item
    const out = this.scratch
    const stamp = this.stamp
    const e = ++this.epoch
    let n = 0
    let best = best0
    for (let i = 0; i < starts.length; i++) {
      let p = starts[i]
      for (;;) {
        if (stamp[p] === e) break
        stamp[p] = e
        const it = item[p]
        if (it === END) {
          const r = this.pos.rule[p]
          if (this.pos.anchored[r]) out[n++] = p
          else if (best < 0 || this.beats(r, best)) best = r
          break
        }
        out[n++] = p
        if (it !== STAR) break
        p++
      }
    }
    return this.prune(out.subarray(0, n), best)
  }

  /** Does rule a beat rule b: higher priority, then allow over disallow, then the earlier line. */
  private beats(a: number, b: number): boolean {
    const pa = this.set.priority[a]
    const pb = this.set.priority[b]
    if (pa !== pb) return pa > pb
    const aa = this.set.allow[a]
    const ab = this.set.allow[b]
    if (aa !== ab) return aa > ab
    return a < b
  }

  private prune(list: Int32Array, best: number): { positions: Int32Array; best: number } {
    let n = 0
    const out = new Int32Array(list.length)
    for (let i = 0; i < list.length; i++) {
      const p = list[i]
      if (best < 0 || this.beats(this.pos.rule[p], best)) out[n++] = p
    }
    const positions = out.subarray(0, n).sort()
    return { positions: positions.slice(), best }
  }

  /** The id of the state with these positions and best rule; builds it if new. */
  private stateFor(st: { positions: Int32Array; best: number }): number {
    if (st.positions.length === 0) return st.best + 1
    const key = st.best + ':' + st.positions.join(',')
    const known = this.ids.get(key)
    if (known !== undefined) return known
    const cost = this.W * 4 + st.positions.byteLength + key.length * 2 + 120
    if (this.bytes + cost > this.budget && this.rows.length > 0) this.flush()
    const k = this.rows.length
    const id = this.T + k * this.W
    if ((k + 1) * this.W > this.table.length) {
      const grown = new Int32Array(Math.max(this.table.length * 2, (k + 1) * this.W))
      grown.set(this.table)
      this.table = grown
    }
    this.table.fill(-1, k * this.W, (k + 1) * this.W)
    this.rows.push({ positions: st.positions, best: st.best, key })
    this.ids.set(key, id)
    this.bytes += cost
    // End verdict: the best of the state and of the anchored rules whose end is live here.
    let endBest = st.best
    for (let i = 0; i < st.positions.length; i++) {
      const p = st.positions[i]
      if (this.pos.item[p] === END) {
        const r = this.pos.rule[p]
        if (endBest < 0 || this.beats(r, endBest)) endBest = r
      }
    }
    this.table[k * this.W + this.W - 1] = endBest + 1
    return id
  }

  private flush(): void {
    this.flushes++
    this.rows = []
    this.ids = new Map()
    this.bytes = 0
    this.slashState = -1
    if (this.table.length > this.W * 64) this.table = new Int32Array(this.W * 4)
  }
}
