// A matrix's version and availability commands: what they left behind does not hold the run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { firstLine } from '../../src/compare/matrix.js'

const dir = mkdtempSync(join(tmpdir(), 'compare-probe-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('version and availability commands', () => {
  it('end when their shell exits, even when a process that left the group holds the output (regression: --matrix waited for it, for ever with sleep infinity)', async () => {
    const pids = join(dir, 'escaped.pid')
    const command = `setsid sh -c 'echo $$ > ${pids}; exec sleep 300' & while [ ! -s ${pids} ]; do sleep 0.05; done; echo 2.0`
    try {
      expect(await firstLine(command)).toEqual({ ok: true, line: '2.0' })
    } finally {
      process.kill(Number(readFileSync(pids, 'utf8')), 'SIGKILL')
    }
  }, 20_000)
})
