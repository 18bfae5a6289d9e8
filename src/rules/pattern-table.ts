/**
 * Which rule patterns the compact form writes once: a pattern equal to an
 * earlier written one becomes a repeat event pointing back to it
 * (rules/compact-rules.ts), when that takes fewer bytes. The builder asks
 * this table for every pattern; `checkForm` (rules/serialise.ts) asks it
 * again for a form's patterns, so that a form holds exactly the repeats a
 * parse makes. Its answers depend only on the patterns seen, in order: an
 * equal pattern is always found (the probes go on to an empty slot), and the
 * hash is keyed (src/url/keyed-hash.ts), so a file cannot be made to collide.
 */
import { MIN_REPEAT, varintSize } from './compact-rules.js'
import { exactHash } from '../url/keyed-hash.js'

/** Slots of a fresh table (a power of two); it doubles past half full. */
const FIRST_SIZE = 64

/** Capacity a table keeps between uses (slots); a larger one is dropped. */
const KEEP_SLOTS = 4096

/** An open-addressing table of the written patterns: starts + 1 (0 = empty) and lengths at the same slot. */
export class PatternTable {
  private starts = new Int32Array(FIRST_SIZE)
  private lengths = new Int32Array(FIRST_SIZE)
  /** Slots in use: a power of two, at most the arrays' length. */
  private size = FIRST_SIZE
  private count = 0

  /** Empties the table. */
  reset(): void {
    if (this.starts.length > KEEP_SLOTS) {
      this.starts = new Int32Array(FIRST_SIZE)
      this.lengths = new Int32Array(FIRST_SIZE)
    } else if (this.count > 0) this.starts.fill(0, 0, this.size)
    this.size = FIRST_SIZE
    this.count = 0
  }

  /**
   * For the `n`-byte pattern whose bytes are at `b[from]`, to be written at
   * `at` (past every pattern written so far): the start of the earlier
   * written pattern it repeats, or -1 when it is to be written (it is then
   * noted as written at `at`).
   */
  repeatOf(b: Uint8Array, from: number, n: number, at: number): number {
    if (n < MIN_REPEAT) return -1
    const starts = this.starts
    const mask = this.size - 1
    for (let slot = exactHash(b, from, from + n) & mask; ; slot = (slot + 1) & mask) {
      const e = starts[slot] - 1
      if (e < 0) {
        starts[slot] = at + 1
        this.lengths[slot] = n
        if (++this.count * 2 > this.size) this.grow(b)
        return -1
      }
      if (this.lengths[slot] === n && sameBytes(b, e, from, n)) return varintSize(at - e) < n ? e : -1
    }
  }

  private grow(b: Uint8Array): void {
    const size = this.size * 2
    const old = this.starts.slice(0, this.size)
    const oldLengths = this.lengths.slice(0, this.size)
    if (this.starts.length < size) {
      this.starts = new Int32Array(size)
      this.lengths = new Int32Array(size)
    } else this.starts.fill(0, 0, size)
    const mask = size - 1
    for (let i = 0; i < old.length; i++) {
      if (old[i] === 0) continue
      let slot = exactHash(b, old[i] - 1, old[i] - 1 + oldLengths[i]) & mask
      while (this.starts[slot] !== 0) slot = (slot + 1) & mask
      this.starts[slot] = old[i]
      this.lengths[slot] = oldLengths[i]
    }
    this.size = size
  }
}

function sameBytes(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false
  return true
}
