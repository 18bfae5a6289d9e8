/** Keeping dist/ in step with src/ for the tests that run the built package. */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { distState } from '../../scripts/dist-state.mjs'

/** The repository root. */
export const ROOT = resolve(__dirname, '../..')

/**
 * Builds dist/ when it is missing or older than its sources (any file of
 * src/, the build script, package.json or a tsconfig newer than the oldest
 * output). Returns why it built, or null when dist/ was up to date.
 */
export function buildIfStale(root: string = ROOT): string | null {
  const state = distState(root)
  if (state.fresh) return null
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' })
  return state.reason
}
