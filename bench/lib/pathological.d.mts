/** Types for the generators the tests import (bench/lib/pathological.mjs). */
export function prng(seed: number): () => number
