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
import { skippedSuites } from './shared-data.js'

export default function setup(): void {
  const built = buildIfStale()
  if (built) console.log(`robots-automaton tests: rebuilt dist/ (${built})`)
  const skipped = skippedSuites()
  if (skipped.length) {
    const reasons = [...new Set(skipped.map((s) => s.reason))].join('; ')
    console.log(
      `robots-automaton tests: skipping ${skipped.length} suites that need ../shared, because ${reasons}: ${skipped.map((s) => s.name).join('; ')}. ` +
        'The vendored conformance vectors (test/data/) and the bundled corpus sample (corpus/) run through the same checks instead.',
    )
  }
}
