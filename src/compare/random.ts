/** The seeded generator of `compare` (mulberry32): the same seed gives the same cases on every machine. */

/** A seeded source of random numbers and choices. */
export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]
  }

  /** One key of `weights`, with probability proportional to its weight (weights ≥ 0, some > 0). */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    let total = 0
    for (const k in weights) total += weights[k]
    let x = this.next() * total
    let last: K | undefined
    for (const k in weights) {
      if (weights[k] <= 0) continue
      last = k
      x -= weights[k]
      if (x < 0) return k
    }
    return last as K
  }

  /** `k` distinct indices of [0, n), in increasing order. */
  sample(n: number, k: number): number[] {
    const all = Array.from({ length: n }, (_, i) => i)
    if (k >= n) return all
    for (let i = 0; i < k; i++) {
      const j = i + this.int(n - i)
      const t = all[i]
      all[i] = all[j]
      all[j] = t
    }
    return all.slice(0, k).sort((a, b) => a - b)
  }
}
