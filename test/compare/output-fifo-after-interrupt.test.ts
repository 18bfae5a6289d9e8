// compare's reports to a FIFO once a signal has stopped the run: the open
// blocked waiting for a reader is given up, and a later open of the same FIFO
// neither takes the reader held to free that open for a reader of the report
// (its writes went nowhere, or its open waited for ever once that reader
// closed) nor waits; a FIFO with a real reader still gets its report.
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { stopWaitingForReaders, waitForReaders, writeReport } from '../../src/compare/output-files.js'
import { tempDir } from '../cli/helpers.js'

const tmp = tempDir()
afterEach(() => waitForReaders())
afterAll(() => tmp.cleanup())

const fifo = (name: string): string => {
  const path = tmp.path(name)
  expect(spawnSync('mkfifo', [path]).status).toBe(0)
  return path
}

/** `p`'s error message, or 'stalled' when it neither settles nor fails within `ms`. */
async function outcome(p: Promise<unknown>, ms = 10_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const stalled = new Promise<string>((ok) => (timer = setTimeout(() => ok('stalled'), ms)))
  const r = await Promise.race([p.then(() => 'written', (e: Error) => e.message), stalled])
  clearTimeout(timer)
  return r
}

/** Until `pid` waits in open(2) for a FIFO's writer (Linux's wait_for_partner), or 3 s where that cannot be read: no probe that would end its reading. */
async function waitingForWriter(pid: number): Promise<void> {
  for (const end = Date.now() + 3000; Date.now() < end; await new Promise((ok) => setTimeout(ok, 20))) {
    try {
      if (readFileSync(`/proc/${pid}/wchan`, 'utf8') === 'wait_for_partner') return
    } catch {
      // No /proc: wait out the time.
    }
  }
}

describe('reports to a FIFO after an interrupt', () => {
  it('regression: compare --csv to a FIFO with no reader stalled after SIGINT (CI): the next open took the reader held to free the first for a real one', async () => {
    const f = fifo('csv.fifo')
    const first = writeReport(f, 'header\r\n')
    await new Promise((ok) => setTimeout(ok, 100))
    stopWaitingForReaders('interrupted by SIGINT')
    const said = `report '${f}' not written: the FIFO has no reader, and the run was interrupted by SIGINT`
    let again: Promise<void> | undefined
    // The run writes the file again as soon as the first open is given up (its close flushes what is left).
    const firstOutcome = await outcome(first.catch((e: Error) => {
      again = writeReport(f, 'x'.repeat(200_000))
      throw e
    }))
    expect(firstOutcome).toBe(said)
    expect(await outcome(again!)).toBe(said)
    expect(await outcome(writeReport(f, 'y'))).toBe(said)
  })

  it("a FIFO read by cat after the interrupt gets its report whole: the writer that checks for a reader stays open until the report's is", async () => {
    const f = fifo('read.fifo')
    stopWaitingForReaders('interrupted by SIGTERM')
    const cat = spawn('cat', [f], { stdio: ['ignore', 'pipe', 'ignore'] })
    let got = ''
    cat.stdout.setEncoding('utf8').on('data', (d: string) => (got += d))
    const closed = new Promise((ok) => cat.on('close', ok))
    await waitingForWriter(cat.pid!)
    const text = 'row\r\n'.repeat(30_000)
    expect(await outcome(writeReport(f, text))).toBe('written')
    await closed
    expect(got).toBe(text)
  })
})
