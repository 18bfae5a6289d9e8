/**
 * A time option given in seconds is counted in whole milliseconds: a value
 * that would round to 0 ms (`--timeout 0.0001`) is a usage error naming the
 * least value, not a deadline of no time at all.
 */
import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../../src/cli/common/args.js'
import { FETCH_OPTIONS, giveUpMs, timeoutMs } from '../../../src/cli/commands/fetch.js'
import { UsageError } from '../../../src/cli/common/cli-error.js'
import { ensureBuilt, run } from '../helpers.js'

const args = (...argv: string[]) => parseArgs(argv, FETCH_OPTIONS)

describe('time options that round to 0 ms', () => {
  it.each([['timeout'], ['give-up-after']])('--%s refuses a value under 1 ms and takes 1 ms', (option) => {
    const read = (v: string) => (option === 'timeout' ? timeoutMs(args(`--${option}`, v)) : giveUpMs(args(`--${option}`, v), 10_000))
    for (const v of ['0.0001', '0.0004', '0', '0.000']) {
      expect(() => read(v), v).toThrow(UsageError)
      expect(() => read(v), v).toThrow(`option '--${option}' must be a number of seconds from 0.001 (1 ms)`)
    }
    expect(read('0.001')).toBe(1)
    expect(read('0.0005')).toBe(1)
    expect(read('2.5')).toBe(2500)
  })

  it('fetch and audit exit 2 on --timeout 0.0001', async () => {
    ensureBuilt()
    for (const argv of [['fetch', '-o', '/nonexistent-dir/x', '--timeout', '0.0001'], ['audit', '--fetch', '--crawlers', 'A', '--timeout', '0.0001']]) {
      const r = await run(argv)
      expect(r.status, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toContain("option '--timeout' must be a number of seconds from 0.001 (1 ms)")
    }
  })
})
