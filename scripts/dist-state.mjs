// Is dist/ up to date with its sources? Used by `npm run prepack` (`npm pack`,
// `npm publish`) and by the tests (they run the built CLI and package),
// so that a dist/ older than src/ is rebuilt instead of being tested.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Files the build writes; the oldest of them dates the build. */
export const DIST_OUTPUTS = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/core.cjs',
  'dist/index.d.ts',
  'dist/index.d.cts',
  'dist/internals.js',
  'dist/internals.cjs',
  'dist/internals.d.ts',
  'dist/internals.d.cts',
  'dist/compat.js',
  'dist/compat.cjs',
  'dist/compat.d.ts',
  'dist/compat.d.cts',
  'dist/compat-api.d.cts',
  'dist/node.js',
  'dist/node.cjs',
  'dist/node.d.ts',
  'dist/node.d.cts',
  'dist/crawlee.js',
  'dist/crawlee.cjs',
  'dist/crawlee.d.ts',
  'dist/crawlee.d.cts',
  'dist/cli.js',
  'dist/cli-main.js',
  'dist/filter-worker.js',
  'dist/compare-module.js',
  'dist/playground/index.html',
  'dist/playground/playground.js',
  'dist/data/conformance/google-robots-test.json.gz',
  'dist/data/corpus-urls.txt.gz',
  'packages/robots-automaton-compat/index.js',
]

/** Inputs of the build besides src/. */
const BUILD_INPUTS = ['corpus/urls.txt', 'scripts/build.mjs', 'scripts/build-playground.mjs', 'scripts/dropin.mjs', 'package.json', 'tsconfig.json', 'tsconfig.node.json']

function newestUnder(dir, acc) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newestUnder(path, acc)
    else {
      const t = statSync(path).mtimeMs
      if (t > acc.time) {
        acc.time = t
        acc.path = path
      }
    }
  }
  return acc
}

/**
 * `{ fresh: true }` when every output exists and none is older than any
 * source; else `{ fresh: false, reason }` naming a missing output or the
 * newest source.
 */
export function distState(root) {
  let oldest = Infinity
  for (const out of DIST_OUTPUTS) {
    const path = join(root, out)
    if (!existsSync(path)) return { fresh: false, reason: `${out} is missing` }
    oldest = Math.min(oldest, statSync(path).mtimeMs)
  }
  const newest = newestUnder(join(root, 'src'), { time: -Infinity, path: '' })
  for (const input of BUILD_INPUTS) {
    const path = join(root, input)
    if (existsSync(path)) {
      const t = statSync(path).mtimeMs
      if (t > newest.time) {
        newest.time = t
        newest.path = path
      }
    }
  }
  if (newest.time > oldest) return { fresh: false, reason: `${newest.path.slice(root.length + 1)} is newer than dist/` }
  return { fresh: true, reason: 'dist/ is up to date' }
}
