/**
 * `npm run test:quick`: the library's core suites (parsing, rules, matching,
 * the store, streams, fetching, the conformance vectors, errors, limits, the
 * public API), in well under a minute. The suites that need ../shared are
 * left out (the bundled corpus sample runs through the same checks), and so
 * are the CLI, compare, build, package and documentation suites: `npm test`
 * (vitest.config.ts) runs everything, as CI does.
 */
import { defineConfig } from 'vitest/config'
import base, { common } from './vitest.config'

// Read by test/support/shared-data.ts, in the global setup and in every test process (they inherit it).
process.env.ROBOTS_AUTOMATON_QUICK_TESTS = '1'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    ...common,
    // One set of files, none of them Crawlee's: they share their workers (vitest.config.ts).
    projects: undefined,
    isolate: false,
    include: [
      'test/parse/**/*.test.ts',
      'test/rules/**/*.test.ts',
      'test/match/**/*.test.ts',
      'test/store/**/*.test.ts',
      'test/robots/**/*.test.ts',
      'test/fetch/**/*.test.ts',
      'test/conformance.test.ts',
      'test/errors.test.ts',
      'test/limits.test.ts',
      'test/public-api.test.ts',
      'test/api.test.ts',
      'test/internals.test.ts',
      'test/byte-lru.test.ts',
      'test/property.test.ts',
      'test/differential.test.ts',
      'test/corpus.test.ts',
      'test/corpus-sample.test.ts',
      'test/compat.test.ts',
    ],
  },
})
