// The one progress bar, counting items (compare's cases, fetch's origins) rather than bytes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ProgressBar, renderProgress, type ProgressUnit } from '../../../src/cli/common/progress.js'

const CASES: ProgressUnit = { measure: 'items', items: 'cases' }

describe('progress bar over items', () => {
  // The bar's clock (performance.now) is the test's: the 200 ms between redraws are counted on it, not on a
  // machine that may pause between two statements.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('redraws in place at most every 200 ms, always on reaching the total, and erases itself', () => {
    const writes: string[] = []
    const bar = new ProgressBar({ write: (s: string) => (writes.push(s), true), columns: 120 }, 1000, true, CASES)
    bar.update(1, 1, '0 disagreements')
    bar.update(2, 2, '0 disagreements')
    expect(writes).toHaveLength(1)
    expect(writes[0]).toMatch(/^\r  0% \[-{20}\] 1 \/ 1,000 cases {2}0 disagreements {2}\d+ cases\/s\x1b\[K$/)
    vi.advanceTimersByTime(199)
    bar.update(3, 3, '0 disagreements')
    expect(writes).toHaveLength(1)
    vi.advanceTimersByTime(1)
    bar.update(4, 4, '0 disagreements')
    expect(writes).toHaveLength(2)
    expect(writes[1]).toMatch(/^\r  0% \[-{20}\] 4 \/ 1,000 cases {2}0 disagreements {2}20 cases\/s\x1b\[K$/)
    bar.update(1000, 1000, '7 disagreements')
    expect(writes).toHaveLength(3)
    expect(writes[2]).toMatch(/^\r100% \[#{20}\] 1,000 \/ 1,000 cases {2}7 disagreements/)
    bar.clear()
    expect(writes[3]).toBe('\r\x1b[K')
    bar.clear()
    expect(writes).toHaveLength(4)
    bar.done()
  })

  it('under NO_COLOR: no escape sequence, erased with spaces', () => {
    let out = ''
    const bar = new ProgressBar({ write: (s: string) => ((out += s), true), columns: 120 }, 10, false, CASES)
    bar.update(10, 10, '0 disagreements')
    const drawn = out.length - 1
    bar.clear()
    expect(out).not.toContain('\x1b')
    expect(out.endsWith(`\r${' '.repeat(drawn)}\r`)).toBe(true)
    bar.done()
  })

  it('without a total: the count, the note and the rate; the note outlives the rate on a narrow terminal', () => {
    const frame = { done: 420, total: undefined, items: 420, note: '3 failures', seconds: 2, columns: 120, unit: { measure: 'items', items: 'origins' } as const }
    expect(renderProgress(frame)).toBe('420 origins  3 failures  210 origins/s')
    expect(renderProgress({ ...frame, columns: 30 })).toBe('420 origins  3 failures')
    expect(renderProgress({ ...frame, total: 1000, seconds: 2 })).toBe(' 42% [########------------] 420 / 1,000 origins  3 failures  210 origins/s  ETA 0:03')
  })
})
