// Where `npm run bench` writes its machine-readable results: an untracked,
// gitignored folder, so a run never rewrites a tracked file. The figures one
// stands by go to bench/RESULTS.md by hand, with their command and commit.
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ROOT } from './corpus.mjs'

/** Default output of bench/run-all.mjs (`--out FILE` overrides it). */
export const RESULTS_JSON = join(ROOT, 'bench/out/results.json')

/** Makes the folder of an output file. */
export function ensureDirFor(file) {
  mkdirSync(dirname(file), { recursive: true })
}
