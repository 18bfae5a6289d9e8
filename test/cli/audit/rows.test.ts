/**
 * `audit`'s rows (src/cli/audit/rows.ts) with an output that does not take
 * them as fast as they are made: the rows wait for it, and the records of
 * `audit OLD NEW` are made as each host's turn comes.
 */
import { describe, expect, it } from 'vitest'
import { BlockWriter, type ByteSink } from '../../../src/cli/common/block-writer.js'
import { writeChanges, writeRows } from '../../../src/cli/audit/rows.js'
import type { HostRecord, Snapshot } from '../../../src/cli/audit/snapshot.js'

/** A sink that is always full: it takes each block, then waits for `release()` to ask for more. */
class SlowSink implements ByteSink {
  bytes = 0
  private waiting: (() => void)[] = []
  write(chunk: Uint8Array, callback?: (err?: Error | null) => void): boolean {
    this.bytes += chunk.length
    queueMicrotask(() => callback?.())
    return false
  }
  once(_event: 'drain', listener: () => void): unknown {
    this.waiting.push(listener)
    return this
  }
  /** Lets the writer go on; false when it was not waiting. */
  release(): boolean {
    const w = this.waiting.shift()
    w?.()
    return w !== undefined
  }
}

/** A snapshot of `n` hosts, `outcome` each, that counts the records it makes. */
function snapshot(n: number, outcome: HostRecord['outcome'], made: { count: number }): Snapshot {
  const keys = Array.from({ length: n }, (_, i) => `h${String(i).padStart(6, '0')}.test`)
  return {
    name: 'snap',
    keys: () => keys,
    record: (key) => {
      made.count++
      return { key, outcome }
    },
  }
}

const crawlers = Array.from({ length: 10 }, (_, i) => ({ name: `Crawler${i}`, tokens: [`Crawler${i}`] }))
const tokens = crawlers.map((c) => c.tokens)
const BLOCK = 4096

/** Runs `write` against a sink that waits; returns how many bytes went out before the first wait, and in all. */
async function slowRun(write: (out: BlockWriter) => Promise<unknown>): Promise<{ first: number; total: number }> {
  const sink = new SlowSink()
  const out = new BlockWriter(sink, BLOCK)
  let done = false
  const run = write(out).then(async () => {
    await out.end()
    done = true
  })
  // Let it run as far as it goes without the sink asking for more.
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r))
  const first = sink.bytes
  while (!done) {
    sink.release()
    await new Promise((r) => setImmediate(r))
  }
  await run
  return { first, total: sink.bytes }
}

describe('audit rows', () => {
  it('regression: a stdout that reads slowly holds the rows back (audit of 1,000,000 hosts × 10 crawlers queued 1 GB of rows in memory before the first was taken)', async () => {
    const made = { count: 0 }
    const snap = snapshot(2000, 'unreachable', made)
    const r = await slowRun((out) => writeRows(snap, { crawlers, tokens, format: 'csv', out, see: () => {} }))
    // Every row in the end; before the sink asked for more, at most a block and one host's rows.
    expect(r.total).toBeGreaterThan(2000 * 10 * 20)
    expect(r.first).toBeLessThanOrEqual(2 * BLOCK)
  })

  it('regression: audit OLD NEW makes each host\'s records when its turn comes (two bundles of 1,000,000 hosts ran out of memory: every record, with its rules, was made first), and waits for its output', async () => {
    const made = { count: 0 }
    const old = snapshot(2000, 'unreachable', made)
    const now = snapshot(2000, 'no-file', made)
    const sink = new SlowSink()
    const out = new BlockWriter(sink, BLOCK)
    const run = writeChanges(old, now, { crawlers, tokens, format: 'csv', out, see: () => {} })
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r))
    // Stopped at the first full block: a few hosts' records made, not 2 × 2000.
    expect(made.count).toBeLessThan(200)
    expect(sink.bytes).toBeLessThanOrEqual(2 * BLOCK)
    let done = false
    void run.then(() => (done = true))
    while (!done) {
      sink.release()
      await new Promise((r) => setImmediate(r))
    }
    const tally = await run
    await out.end()
    expect(tally.hosts).toBe(2000)
    expect(made.count).toBe(4000)
    expect(sink.bytes).toBeGreaterThan(2000 * 10 * 40)
  })
})
