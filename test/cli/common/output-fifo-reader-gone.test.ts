/** An output (-o) that is a FIFO whose reader goes away before the run has written it all. */
import { spawn, execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

describe('an output FIFO whose reader quits early', () => {
  it('a FIFO given as -o whose reader quits early is said in plain words (naming the path), not as Node\'s raw "EPIPE: broken pipe, write"', async () => {
    const robots = tmp.path('robots')
    mkdirSync(robots)
    // Far more than a pipe holds, in bytes that do not compress away.
    let seed = 1
    const next = (): string => (seed = (seed * 48271) % 2147483647).toString(16)
    for (let i = 1; i <= 40; i++) {
      const lines = ['User-agent: *']
      for (let j = 0; j < 2000; j++) lines.push(`Disallow: /${next()}${next()}`)
      writeFileSync(`${robots}/h${i}.example`, lines.join('\n') + '\n')
    }
    const fifo = tmp.path('out.fifo')
    execFileSync('mkfifo', [fifo])
    const reader = spawn('head', ['-c', '10', fifo], { stdio: ['ignore', 'ignore', 'ignore'] })
    const r = await run(['pack', robots, '-o', fifo])
    await new Promise((resolve) => (reader.exitCode === null ? reader.on('close', resolve) : resolve(undefined)))
    expect(r.stderr).toBe(`robots-automaton: cannot write bundle '${fifo}': its reader went away before all of it was written\n`)
    expect(r.status).toBe(1)
  })
})
