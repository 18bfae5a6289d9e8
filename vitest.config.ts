import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import LongestFirst from './test/support/sequencer.js'

const ALL = ['test/**/*.test.ts', 'src/**/*.test.ts']

/**
 * Test files that change their process for good, each run in a fresh worker:
 * the Crawlee suites set Crawlee's environment variables and load Crawlee,
 * whose configuration is global. Every other file leaves its process as it
 * found it (a patched global is put back in a `finally`; spawned processes
 * are its children, not its state), so the files share their workers and
 * the sources are imported once a worker, not once a file.
 */
export const ISOLATED = ['test/crawlee/**/*.test.ts']

/** What both projects share (and `npm run test:quick`'s files). */
export const common = {
  // Stall guards, not budgets: no test is timed, and on a shared 2-core machine a test that takes
  // seconds alone may take minutes. A test that needs longer says so, with its reason.
  testTimeout: 300_000,
  hookTimeout: 300_000,
  pool: 'forks' as const,
  // A stub a test forgets to undo does not reach the next file of its worker.
  unstubEnvs: true,
  unstubGlobals: true,
  restoreMocks: true,
}

export default defineConfig({
  test: {
    // Rebuilds a stale dist/ once, and says which suites are skipped without ../shared.
    globalSetup: ['test/support/global-setup.ts'],
    // A worker per core, at least two. Vitest's default (one less than the cores) is one worker on
    // two cores, and much of this suite waits on processes it starts (the CLI, Chromium, compare's
    // adapters), so a single worker leaves a core idle. The files share nothing on disk but dist/,
    // which the global setup builds before any of them starts.
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files start first (test/support/sequencer.ts), in a fresh clone too.
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { ...common, name: 'shared', include: ALL, exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
      { test: { ...common, name: 'isolated', include: ISOLATED } },
    ],
  },
})
