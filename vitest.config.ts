import { defineConfig } from 'vitest/config'

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
  },
})
