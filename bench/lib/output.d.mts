/** Types for bench/lib/output.mjs (imported by the tests). */
export const RESULTS_JSON: string
export function ensureDirFor(file: string): void
