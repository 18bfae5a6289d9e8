/**
 * The caches of compiled rules fit the heap a thread may have
 * (src/cli/common/heap-room.ts): `filter --bundle` and `diff --bundle` of a
 * million hosts under `node --max-old-space-size=128` ended in V8's
 * out-of-memory crash (exit 134), their default caches (256 MiB) larger
 * than the heap; the budget is now lowered to fit, with a warning.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_HEAP_SHARE, cacheBudget, heapLimit } from '../../../src/cli/common/heap-room.js'
import { HostTally } from '../../../src/cli/hosts/host-tally.js'
import type { HostRules } from '../../../src/cli/hosts/host-rules.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const MiB = 2 ** 20

describe('cache budgets fitted to the heap', () => {
  it('a budget within the heap is each thread\'s share, unchanged and without a warning', () => {
    expect(cacheBudget(256 * MiB, 4, '--cache-mb 256', 4096 * MiB)).toEqual({ perThread: 64 * MiB })
    expect(cacheBudget(0, 1, '--cache-mb 0', 1 * MiB)).toEqual({ perThread: 0 })
  })

  it('regression: a budget past the heap is lowered to its share of each thread\'s heap (the default cache was larger than a 128 MB heap: an out-of-memory crash)', () => {
    const one = cacheBudget(256 * MiB, 1, 'the default --cache-mb 256', 176 * MiB)
    expect(one.perThread).toBe(Math.floor(176 * MiB * CACHE_HEAP_SHARE))
    expect(one.warning).toBe(
      'warning: the default --cache-mb 256 lowered to 88 MiB: the heap limit of this Node is 176 MiB, and a larger cache of compiled rules would end in an out-of-memory crash (node --max-old-space-size=MB gives more)',
    )
    // Each thread has a heap of its own: the cap is per thread.
    const four = cacheBudget(1024 * MiB, 4, '--cache-mb 1024', 176 * MiB)
    expect(four.perThread).toBe(88 * MiB)
    expect(four.warning).toContain('lowered to 352 MiB (88 MiB for each of 4 threads)')
    expect(heapLimit()).toBeGreaterThan(0)
  })

  it('regression: with the cache lowered to the heap, the summary of reloads still said to raise --cache-mb, which the heap would cut again; it says to give node more heap', () => {
    const rules = { size: 1, descriptor: () => ({ kind: 'dir', dir: 'd' }) } as unknown as HostRules
    const summary = (heapBound: boolean | undefined): string => {
      const tally = new HostTally(rules, { missing: 'allow', heapBound })
      tally.reloads = 3
      return tally.summary()
    }
    expect(summary(true)).toMatch(/; 3 robots\.txt loaded again after eviction \(give node more heap: --max-old-space-size\)$/)
    expect(summary(undefined)).toMatch(/; 3 robots\.txt loaded again after eviction \(raise --cache-mb\)$/)
  })

  describe('on the command line, under a small heap', () => {
    let tmp: ReturnType<typeof tempDir>
    beforeAll(() => {
      ensureBuilt()
      tmp = tempDir()
      for (const side of ['old', 'new']) {
        mkdirSync(tmp.path(side))
        writeFileSync(join(tmp.path(side), 'a.test'), side === 'old' ? 'User-agent: *\nDisallow: /a\n' : 'User-agent: *\nDisallow: /b\n')
      }
      writeFileSync(tmp.path('urls.txt'), 'http://a.test/a\nhttp://a.test/b\n')
    })
    afterAll(() => tmp.cleanup())

    it('regression: filter and diff lower their caches to the heap, say so, and judge as before', async () => {
      const env = { ...process.env, NODE_OPTIONS: '--max-old-space-size=64', ROBOTS_AUTOMATON_PROGRESS: '0' }
      const [filter, diff] = await Promise.all([
        run(['filter', '--robots-dir', tmp.path('old'), '--agent', 'bot', '--jobs', '1', tmp.path('urls.txt')], { env }),
        run(['diff', '--robots-dir', tmp.path('old'), '--robots-dir', tmp.path('new'), '--agent', 'bot', tmp.path('urls.txt')], { env }),
      ])
      expect(filter.status).toBe(0)
      expect(filter.stdout.toString()).toBe('http://a.test/b\n')
      expect(filter.stderr).toMatch(/warning: the default --cache-mb 256 lowered to \d+ MiB: the heap limit of this Node is \d+ MiB/)
      expect(diff.status).toBe(3)
      expect(diff.stderr).toMatch(/warning: the cache of compiled rules \(256 MiB\) lowered to \d+ MiB: the heap limit of this Node is \d+ MiB/)
    })
  })
})
