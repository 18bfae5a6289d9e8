/** Types for scripts/dist-state.mjs (imported by the tests). */
export const DIST_OUTPUTS: string[]
export function distState(root: string): { fresh: boolean; reason: string }
