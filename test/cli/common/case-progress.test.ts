// The progress bar of compare (drawn only on a terminal: compare.ts checks isTTY).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CaseProgress } from '../../../src/cli/common/case-progress.js'

describe('compare progress bar', () => {
  // The bar's clock (performance.now) is the test's: the 200 ms between redraws are counted on it, not on a
  // machine that may pause between two statements.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('redraws in place at most every 200 ms, always at the end, and erases itself', () => {
    const writes: string[] = []
    const bar = new CaseProgress({ write: (s: string) => (writes.push(s), true), columns: 120 }, 1000)
    bar.update(1, 0)
    bar.update(2, 0)
    expect(writes).toHaveLength(1)
    expect(writes[0]).toMatch(/^\r  0% \[-{20}\] 1 \/ 1,000 cases {2}0 disagreements {2}\d+ cases\/s\x1b\[K$/)
    vi.advanceTimersByTime(199)
    bar.update(3, 0)
    expect(writes).toHaveLength(1)
    vi.advanceTimersByTime(1)
    bar.update(4, 0)
    expect(writes).toHaveLength(2)
    expect(writes[1]).toMatch(/^\r  0% \[-{20}\] 4 \/ 1,000 cases {2}0 disagreements {2}20 cases\/s\x1b\[K$/)
    bar.update(1000, 7)
    expect(writes).toHaveLength(3)
    expect(writes[2]).toMatch(/^\r100% \[#{20}\] 1,000 \/ 1,000 cases {2}7 disagreements/)
    bar.clear()
    expect(writes[3]).toBe('\r\x1b[K')
    bar.clear()
    expect(writes).toHaveLength(4)
  })

  it('under NO_COLOR: no escape sequence, erased with spaces', () => {
    let out = ''
    const bar = new CaseProgress({ write: (s: string) => ((out += s), true), columns: 120 }, 10, false)
    bar.update(10, 0)
    const drawn = out.length - 1
    bar.clear()
    expect(out).not.toContain('\x1b')
    expect(out.endsWith(`\r${' '.repeat(drawn)}\r`)).toBe(true)
  })
})
