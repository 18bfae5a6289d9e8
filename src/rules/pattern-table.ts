/**
 * Which rule patterns the compact form writes once. Files often repeat a
 * block of rules for several user-agent groups: a rule whose pattern equals
 * the pattern of the rule at the same place in the previous block (the
 * rules after the previous run of user-agent lines) becomes a repeat event
 * pointing back to it (rules/compact-rules.ts), when that takes fewer
 * bytes. The builder asks for every rule; `checkForm` (rules/serialise.ts)
 * asks again for a form's rules, so that a form holds exactly the repeats a
 * parse makes. One comparison per rule: no hashing, and linear whatever
 * the patterns.
 */
import { grownInt32, sameBytes } from './byte-buffer.js'
import { MIN_REPEAT, varintSize } from './compact-rules.js'

/** Rules a block's list keeps room for between uses; a larger one is dropped. */
const KEEP_RULES = 4096

/** The patterns (start, length) of the previous block of rules and of the current one. */
export class RuleBlocks {
  private previous = new Int32Array(64)
  private current = new Int32Array(64)
  private previousCount = 0
  private currentCount = 0
  /** A user-agent line came since the last rule: the next rule starts a block. */
  private pending = false

  /** Forgets every block. */
  reset(): void {
    if (this.previous.length > 2 * KEEP_RULES) this.previous = new Int32Array(64)
    if (this.current.length > 2 * KEEP_RULES) this.current = new Int32Array(64)
    this.previousCount = this.currentCount = 0
    this.pending = false
  }

  /** A user-agent line: the next rule starts a new block. */
  userAgent(): void {
    this.pending = true
  }

  /**
   * For the rule whose `n`-byte pattern is at `b[from]`, to be written at
   * `at` (past every pattern written so far): the start of the equal pattern
   * at its place in the previous block when it is to be repeated, else -1
   * (it is to be written). Notes the rule in the current block.
   */
  repeatOf(b: Uint8Array, from: number, n: number, at: number): number {
    if (this.pending) {
      const t = this.previous
      this.previous = this.current
      this.current = t
      this.previousCount = this.currentCount
      this.currentCount = 0
      this.pending = false
    }
    const k = this.currentCount
    let e = -1
    if (k < this.previousCount && n >= MIN_REPEAT && this.previous[2 * k + 1] === n) {
      const s = this.previous[2 * k]
      if (varintSize(at - s) < n && sameBytes(b, s, from, n)) e = s
    }
    if (2 * k + 2 > this.current.length) this.current = grownInt32(this.current)
    this.current[2 * k] = e >= 0 ? e : at
    this.current[2 * k + 1] = n
    this.currentCount = k + 1
    return e
  }
}
