/**
 * What matchers hold: the module-level scratch buffers keep at most
 * SCRATCH_KEEP elements between calls (src/memory.ts), so nothing a huge
 * rule set or URL needed stays once it is dropped; and a matcher keeps the
 * pattern bytes it needs, not its Robots (the store makes transient ones).
 * Measured in a child process with --expose-gc
 * (test/support/scratch-probe.mjs) on the built package.
 */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')

describe('scratch buffers', () => {
  it('regression (issue 13: 66 MB stayed after a 12 MB file was compiled and dropped): after a 6 MB rule set and 3 MB URLs through every tier, less than 2 MB stays (27 MB before)', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', resolve(ROOT, 'test/support/scratch-probe.mjs'), resolve(ROOT, 'dist/index.js')], {
      encoding: 'utf8',
      timeout: 120_000,
    })
    const { before, during, after, robotsFreed, stillAnswers } = JSON.parse(out) as { before: number; during: number; after: number; robotsFreed: boolean; stillAnswers: boolean }
    // The probe did hold a lot (rules, DFA tables, indexes), so the measure can see it go.
    expect(during - before).toBeGreaterThan(20 * 2 ** 20)
    expect(after - before).toBeLessThan(2 * 2 ** 20)
    // And a matcher of every tier keeps answering after its Robots was collected (it holds the bytes it needs, not the Robots).
    expect(robotsFreed).toBe(true)
    expect(stillAnswers).toBe(true)
  })
})
