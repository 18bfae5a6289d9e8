// mulberry32: a small seeded PRNG returning floats in [0, 1). The one home of
// the generator the tests (test/support/core-helpers.ts) and the benchmarks'
// generators (bench/lib/pathological.mjs) share. Plain JavaScript with no
// imports, so that Node runs it from bench/ without a TypeScript step.

/** A seeded generator: each call returns the next float in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
