/**
 * The order test files start in: the longest first, so that no long file
 * starts last and runs alone while the other worker idles.
 *
 * Vitest orders by each file's duration in its cache (node_modules/.vite),
 * and files it has not run yet by their size. A fresh clone (CI, `npm test`
 * after `npm ci`) has no cache, and size says little here: a short file that
 * drives Chromium or spawns the CLI hundreds of times outlasts a long one of
 * pure unit tests. So a file the cache does not know takes its weight from
 * SLOW below; the cache, when it knows the file, still decides.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Seconds each of the longest files takes alone on the 2-core machine (a run
 * of the whole suite). Only the order depends on these figures; a stale one
 * costs time, never a result.
 */
const SLOW: Record<string, number> = {
  'test/playground/playground-browser.test.ts': 46,
  'test/cli/commands/compare.test.ts': 31,
  'test/cli/commands/compare-matrix-options.test.ts': 26,
  'test/cli/commands/crawlers.test.ts': 23,
  'test/cli/fetch/fetch-journal.test.ts': 18,
  'test/cli/common/output-paths.test.ts': 17,
  'test/compare/adapters/peer-adapters.test.ts': 17,
  'test/crawlee/use-with-crawlee.test.ts': 17,
  'test/cli/commands/filter-scale.test.ts': 17,
  'test/cli/commands/help.test.ts': 15,
  'test/cli/cli-contracts.test.ts': 15,
  'test/cli/commands/compare-ci.test.ts': 14,
  'test/cli/commands/filter.test.ts': 13,
  'test/cli/fetch/fetch-address-policy.test.ts': 12,
  'test/docs.test.ts': 12,
  'test/differential.test.ts': 8,
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const weight = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId).split('\\').join('/')
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)
      // As vitest does, a file that failed last time goes first.
      if (cached) return cached.duration + (cached.failed ? 1e9 : 0)
      return (SLOW[file] ?? 0) * 1000
    }
    const weights = new Map(sorted.map((s) => [s, weight(s)]))
    // A stable sort: files of equal weight (unknown, 0) keep vitest's order (larger files first).
    return sorted.sort((a, b) => weights.get(b)! - weights.get(a)!)
  }
}
