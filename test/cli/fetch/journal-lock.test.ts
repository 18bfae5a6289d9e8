/**
 * One run at a time uses a journal: the second run of the same output, while
 * the first runs, is refused before it fetches or writes anything; a lock
 * left by a run that no longer runs is taken over; the lock goes when the
 * journal is closed or removed. Names are routed to a server on 127.0.0.1.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { CliError } from '../../../src/cli/common/cli-error.js'
import { Journal } from '../../../src/cli/fetch/journal.js'
import { CLI, run, type tempDir } from '../helpers.js'
import { bodyOf, withFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>

withFetchServer((s, t) => {
  server = s
  tmp = t
})

const lockOf = (journal: string) => `${journal}.lock`

/** The error `f` throws. */
function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (err) {
    return err
  }
  return undefined
}

describe('the journal lock', () => {
  it('regression: two runs could take up one journal at once, each appending where the other had moved its records and reading back the other\'s; now the second is refused (ERR_WRITE) while the first holds it', () => {
    const path = tmp.path('twice.journal')
    const first = Journal.open(path, { run: 1 })
    expect(existsSync(lockOf(path))).toBe(true)
    const err = thrown(() => Journal.open(path, { run: 1 }))
    expect(err).toBeInstanceOf(CliError)
    expect((err as CliError).code).toBe('ERR_WRITE')
    expect((err as CliError).message).toContain(`cannot use the journal '${path}': this process uses it`)
    // The refused open leaves the first run's lock as it was.
    expect(existsSync(lockOf(path))).toBe(true)
    first.begin()
    first.close()
    expect(existsSync(lockOf(path))).toBe(false)
    // Let go: taken up again, then removed with its lock.
    const again = Journal.open(path, { run: 1 })
    expect(again.resumed).toBe(true)
    again.remove()
    expect([existsSync(path), existsSync(lockOf(path))]).toEqual([false, false])
  })

  it('a lock left by a process that no longer runs, or cut short as it was written, is taken over', () => {
    const ended = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
    const pid = Number(ended.stdout.trim())
    expect(Number.isSafeInteger(pid) && pid > 0).toBe(true)
    for (const text of [`${JSON.stringify({ pid, host: hostname() })}\n`, '{"pid":', '']) {
      const path = tmp.path('left.journal')
      writeFileSync(lockOf(path), text)
      const journal = Journal.open(path, null)
      expect(readFileSync(lockOf(path), 'utf8')).toContain(`"pid":${process.pid}`)
      journal.close()
      expect(existsSync(lockOf(path))).toBe(false)
    }
  })

  it('a lock of a process that runs is never taken over, and never removed by the run it refuses', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
    try {
      const path = tmp.path('held.journal')
      const text = `${JSON.stringify({ pid: sleeper.pid, host: hostname() })}\n`
      writeFileSync(lockOf(path), text)
      const err = thrown(() => Journal.open(path, null))
      expect((err as CliError).message).toContain(`the run of process ${sleeper.pid} uses it`)
      expect(readFileSync(lockOf(path), 'utf8')).toBe(text)
    } finally {
      sleeper.kill('SIGKILL')
    }
  })

  it('fetch: a second run of the same output while the first runs exits 1 naming the journal, fetching nothing; the first ends as it would alone, its lock gone', async () => {
    const held: Array<() => void> = []
    server.handler = (host: string, _req: unknown, res: ServerResponse) => {
      held.push(() => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(bodyOf(host))
      })
    }
    const list = tmp.path('two.txt')
    writeFileSync(list, Array.from({ length: 4 }, (_, i) => `http://h${i}.lock.test:${server.port}/a`).join('\n') + '\n')
    const out = tmp.path('two.jsonl')
    const argv = ['fetch', list, '-o', out, '-q', '--format', 'jsonl', '--resolve', `*:${server.port}:127.0.0.1`]
    const first = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] })
    let firstErr = ''
    first.stderr.on('data', (c: Buffer) => (firstErr += c))
    const firstEnd = new Promise<number | null>((resolve) => first.on('close', (code) => resolve(code)))
    try {
      // The first run is fetching: its requests are held.
      while (server.total < 4) await new Promise((r) => setTimeout(r, 10))
      const second = await run(argv)
      expect(second.status).toBe(1)
      expect(second.stderr).toContain(`cannot use the journal '${out}.journal': the run of process ${first.pid} uses it`)
      expect(server.total).toBe(4)
    } finally {
      for (const answer of held) answer()
      server.handler = (host, _req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(bodyOf(host))
      }
    }
    expect(await firstEnd, firstErr).toBe(0)
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(4)
    expect([existsSync(`${out}.journal`), existsSync(`${out}.journal.lock`)]).toEqual([false, false])
  })
})
