/**
 * Vitest global setup: runs once before any test file.
 *
 * - Rebuilds dist/ when it is missing or older than its sources (the CLI,
 *   package and bench tests run the built files), once, before the test
 *   files run in parallel.
 * - Without ../shared, prints one line naming the suites that are skipped
 *   and why, so that a short run is never mistaken for a full one.
 */
import { buildIfStale } from './build.js'
import { HAS_SHARED, SHARED_SUITES, SKIP_REASON } from './shared-data.js'

export default function setup(): void {
  const built = buildIfStale()
  if (built) console.log(`robots-automaton tests: rebuilt dist/ (${built})`)
  if (!HAS_SHARED) {
    const names = Object.values(SHARED_SUITES)
    console.log(
      `robots-automaton tests: skipping ${names.length} suites that need the full corpus, because ${SKIP_REASON}: ${names.join('; ')}. ` +
        'The vendored conformance vectors and the bundled corpus sample (corpus/) run through the same checks instead.',
    )
  }
}
