/**
 * Counting distinct hosts (the summary of `filter`: "hosts without a
 * robots.txt") in bounded memory, whatever the input's size: exactly up to a
 * limit, then a HyperLogLog estimate ({@link DistinctCounter}). Worker threads
 * count their own names and hand the new fingerprints (and at the end their
 * registers) to the main thread, which merges them.
 */
import type { UrlScan } from '../../index.js'

/** Default most names counted exactly: 1,048,576 (a table of 16 MiB at most). */
export const DEFAULT_EXACT_LIMIT = 1 << 20

/** log2 of the HyperLogLog registers. */
const HLL_BITS = 14
const HLL_SIZE = 1 << HLL_BITS

/**
 * Distinct names, exactly up to a limit, estimated past it.
 *
 * - Exact up to `exactLimit` distinct names: each name is kept as a 64-bit
 *   fingerprint (two independent keyed 32-bit hashes of its ASCII-lowercased
 *   bytes: src/url/keyed-hash.ts) in an open-addressing table, `Int32Array` pairs, linear probing,
 *   grown by doubling at half full. Two names share a fingerprint with a
 *   probability of about n² / 2⁶⁵ (3 × 10⁻⁶ for ten million names).
 * - Past the limit the table stops growing and the count becomes a
 *   HyperLogLog estimate (2¹⁴ one-byte registers, fed with every name from
 *   the start; standard error about 0.8 %), shown as "about N".
 */
export class DistinctCounter {
  private table = new Int32Array(2 * 64)
  private used = 0
  private overflowed = false
  /** HyperLogLog registers. */
  readonly registers = new Uint8Array(HLL_SIZE)
  /** Fingerprints added since the last `takeNew()` (pairs), when `trackNew`. */
  private fresh: number[] = []

  constructor(
    private readonly exactLimit: number = DEFAULT_EXACT_LIMIT,
    private readonly trackNew = false,
  ) {}

  /** Adds the host `scan` holds (its keyed fingerprint: ASCII case ignored); true when it was not counted before. */
  add(scan: UrlScan): boolean {
    return this.addFingerprint(scan.hostHash, scan.hostHash2)
  }

  /** Adds a name by its fingerprint; true when new (false also once past the exact limit). */
  addFingerprint(a: number, b: number): boolean {
    if (this.overflowed) {
      this.observe(a, b)
      return false
    }
    // (0, 0) marks an empty slot: that one fingerprint is counted as (0, 1), a collision nobody will meet.
    const observed = b
    if ((a | b) === 0) b = 1
    const table = this.table
    const mask = (table.length >>> 1) - 1
    let s = (a ^ Math.imul(b, 0x9e3779b1)) & mask
    for (;;) {
      const x = table[s * 2]
      const y = table[s * 2 + 1]
      if (x === 0 && y === 0) break
      if (x === a && y === b) return false
      s = (s + 1) & mask
    }
    table[s * 2] = a
    table[s * 2 + 1] = b
    // The registers see every name once: a name seen again would not change them.
    this.observe(a, observed)
    this.used++
    if (this.trackNew) this.fresh.push(a, b)
    if (this.used >= this.exactLimit) this.overflowed = true
    else if (this.used * 2 > mask + 1) this.grow()
    return true
  }

  /** The new fingerprints since the last call (pairs), and whether counting went past the exact limit. */
  takeNew(): { fingerprints: Int32Array; overflowed: boolean } {
    const fingerprints = Int32Array.from(this.fresh)
    this.fresh = []
    return { fingerprints, overflowed: this.overflowed }
  }

  /** Merges another counter's results: its fingerprints (pairs) and, at the end, its registers and overflow. */
  merge(fingerprints: Int32Array, overflowed: boolean, registers?: Uint8Array): void {
    for (let i = 0; i + 1 < fingerprints.length; i += 2) this.addFingerprint(fingerprints[i], fingerprints[i + 1])
    if (overflowed) this.overflowed = true
    if (registers !== undefined) {
      for (let i = 0; i < HLL_SIZE; i++) if (registers[i] > this.registers[i]) this.registers[i] = registers[i]
    }
  }

  /** Whether `count` is exact. */
  get exact(): boolean {
    return !this.overflowed
  }

  /** Distinct names: exact, or the estimate once past the limit. */
  get count(): number {
    return this.overflowed ? Math.max(this.used, Math.round(this.estimate())) : this.used
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.table.byteLength + this.registers.byteLength
  }

  private observe(a: number, b: number): void {
    const j = a >>> (32 - HLL_BITS)
    // Rank: position of the first 1 bit of the second hash (1 .. 33).
    const rank = Math.clz32(b) + 1
    if (rank > this.registers[j]) this.registers[j] = rank
  }

  private estimate(): number {
    let sum = 0
    let zeros = 0
    for (let j = 0; j < HLL_SIZE; j++) {
      sum += 2 ** -this.registers[j]
      if (this.registers[j] === 0) zeros++
    }
    const alpha = 0.7213 / (1 + 1.079 / HLL_SIZE)
    const raw = (alpha * HLL_SIZE * HLL_SIZE) / sum
    if (raw <= 2.5 * HLL_SIZE && zeros > 0) return HLL_SIZE * Math.log(HLL_SIZE / zeros)
    return raw
  }

  private grow(): void {
    const old = this.table
    this.table = new Int32Array(old.length * 2)
    const mask = (this.table.length >>> 1) - 1
    for (let s = 0; s < old.length; s += 2) {
      const a = old[s]
      const b = old[s + 1]
      if (a === 0 && b === 0) continue
      let t = (a ^ Math.imul(b, 0x9e3779b1)) & mask
      while (this.table[t * 2] !== 0 || this.table[t * 2 + 1] !== 0) t = (t + 1) & mask
      this.table[t * 2] = a
      this.table[t * 2 + 1] = b
    }
  }
}
