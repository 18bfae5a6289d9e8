// `npm run prepack` (run by npm before `npm pack` and `npm publish`, never on
// install): builds dist/ when it is missing or older than src/, so a tarball
// packed from a checkout always holds a current dist/. A checkout whose dist/
// is current is left alone. Not `prepare`: npm runs that on installs from git
// and lists it as an install script when the tarball is installed.
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { distState } from './dist-state.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const state = distState(root)
if (!state.fresh) {
  console.error(`prepack: building dist/ (${state.reason})`)
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
}
