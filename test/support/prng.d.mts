/** mulberry32: a seeded generator; each call returns the next float in [0, 1). */
export function prng(seed: number): () => number
