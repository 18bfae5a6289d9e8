// `npm run prepare` (run by npm on `npm install` from git or a directory, and
// on `npm pack`): builds dist/ when it is missing or older than src/, so a
// package installed from git or packed from a checkout always has dist/.
// A checkout whose dist/ is current is left alone (fast `npm ci`).
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { distState } from './dist-state.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const state = distState(root)
if (!state.fresh) {
  console.error(`prepare: building dist/ (${state.reason})`)
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
}
