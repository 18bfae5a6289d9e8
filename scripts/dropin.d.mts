/** Types for scripts/dropin.mjs (imported by the tests). */
export const DROPIN_DIR: string
export const VERSIONED_DOCS: string[]
export function buildDropInIndex(root: string, outfile: string): Promise<void>
export function stageDropIn(root: string, outDir: string): Promise<{ name: string; version: string }>
