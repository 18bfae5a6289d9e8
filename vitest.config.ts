import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import LongestFirst from './test/support/sequencer.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Rebuilds a stale dist/ once, and says which suites are skipped without ../shared.
    globalSetup: ['test/support/global-setup.ts'],
    // Stall guards, not budgets: no test is timed, and on a shared 2-core machine a test that takes
    // seconds alone may take minutes. A test that needs longer says so, with its reason.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // A worker per core, at least two. Vitest's default (one less than the cores) is one worker on
    // two cores, and much of this suite waits on processes it starts (the CLI, Chromium, compare's
    // adapters), so a single worker leaves a core idle. The files share nothing on disk but dist/,
    // which the global setup builds before any of them starts.
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files start first (test/support/sequencer.ts), in a fresh clone too.
    sequence: { sequencer: LongestFirst },
  },
})
