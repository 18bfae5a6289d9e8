/**
 * `--crawlers` in `filter` and `diff`: each crawler's verdict of the lines
 * judged ({@link CrawlerCodes}), and how they combine into a line's one
 * verdict (`--require all|any`, and what `--print` picks).
 */

/**
 * The verdicts of a judge that judges several crawlers: `codes[at, at +
 * size)` holds each crawler's `ruleLine * 2 + (allowed ? 1 : 0)` for the
 * line in hand (a batch fills one row per line, and the loop moves `at`).
 */
export class CrawlerCodes {
  /** Rows of `size` codes; grown to the largest batch. */
  codes: Int32Array
  /** Where the row of the line in hand starts. */
  at = 0
  /** Per crawler, the lines it may fetch so far (the caller reads and resets it). */
  readonly allowed: Float64Array

  constructor(
    /** Number of crawlers. */
    readonly size: number,
    /** The line's combined bit: 1 when every crawler is allowed (`true`), or when one is (`false`). */
    readonly needAll: boolean,
  ) {
    this.codes = new Int32Array(Math.max(size, 1))
    this.allowed = new Float64Array(size)
  }

  /** Room for `rows` rows. */
  reserve(rows: number): Int32Array {
    if (this.codes.length < rows * this.size) this.codes = new Int32Array(rows * this.size * 2)
    return this.codes
  }

  /** The combined bit of the row at `at`. */
  combine(at: number): number {
    const c = this.codes
    let all = 1
    let any = 0
    for (let k = 0; k < this.size; k++) {
      const v = c[at + k] & 1
      all &= v
      any |= v
    }
    return this.needAll ? all : any
  }

  /** Counts the verdicts of the row in hand (a line judged). */
  count(): void {
    const c = this.codes
    const allowed = this.allowed
    for (let k = 0, at = this.at; k < this.size; k++) allowed[k] += c[at + k] & 1
  }

  /** Fills the row at `at` with one code for every crawler (no entry, an outcome). */
  fill(code: number): void {
    this.codes.fill(code, this.at, this.at + this.size)
  }
}

/**
 * Whether a line's combined bit asks for every crawler allowed (else for
 * one): the bit `--print` selects on (`allowed` prints bit 1, `disallowed`
 * bit 0). `--print allowed --require all`: every crawler may fetch it;
 * `--require any`: one may. `--print disallowed --require all`: no crawler
 * may (the bit is "one may", printed when 0); `--require any`: one may not.
 * For `verdicts` and JSON lines, `--require` alone says.
 */
export function needAllOf(print: 'allowed' | 'disallowed' | 'verdicts', require: 'all' | 'any'): boolean {
  return (print === 'disallowed') !== (require === 'all')
}
