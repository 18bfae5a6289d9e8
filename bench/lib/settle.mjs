// A settled heap for memory figures: gc(), a macrotask turn (so that
// FinalizationRegistry callbacks and weak cells are processed), gc() again.
// Needs node --expose-gc.

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Collects garbage twice around a macrotask turn. */
export async function settle() {
  globalThis.gc()
  await tick()
  globalThis.gc()
}
