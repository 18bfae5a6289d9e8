/**
 * Failures of this machine are never a site's outcome: with few descriptors
 * (`ulimit -n 256`) and `--concurrency 1000`, every healthy origin is `ok`
 * (the concurrency is lowered to what fits, with a note); descriptors taken
 * away mid-run (`prlimit` on the running process) make EMFILE, which is
 * retried, never written as `unreachable`; a run that cannot make progress
 * stops with a clear error and keeps its journal. Servers on 127.0.0.1 only.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { CLI, tempDir } from '../helpers.js'
import { withFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
const HAS_PRLIMIT = spawnSync('prlimit', ['--version']).status === 0

withFetchServer((s, t) => {
  server = s
  tmp = t
})

function input(name: string, n: number): string {
  const file = tmp.path(name)
  writeFileSync(file, Array.from({ length: n }, (_, i) => `http://h${i}.local-failure.test:${server.port}/`).join('\n') + '\n')
  return file
}

/** Runs the CLI through `sh -c` (for `ulimit`), calling `during(pid)` while it runs; exit code and stderr. */
function runShell(script: string, during?: (pid: number) => void | Promise<void>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    child.on('close', (code) => resolve({ code, stderr }))
    if (during !== undefined) void during(child.pid!)
  })
}

const cli = (args: string[]) => `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args.map((a) => `'${a}'`).join(' ')}`

/** Waits until `ready()` holds, polling (no time limit but the test's). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/**
 * Makes the server hold its answers while `hold` is true (each kept in
 * `held`, to be answered or never), and answer at once after.
 */
function holdAnswers(): { hold: boolean; held: (() => void)[] } {
  const answers = { hold: true, held: [] as (() => void)[] }
  server.handler = (host, _req, res) => {
    const answer = () => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(`User-agent: *\nDisallow: /${host}\n`)
    }
    if (answers.hold) answers.held.push(answer)
    else answer()
  }
  return answers
}

const outcomesOf = (path: string): Map<string, number> => {
  const store = RobotsStore.fromBytes(readFileSync(path))
  const out = new Map<string, number>()
  for (const key of store.keys()) {
    const o = store.fetchInfo(key)!.outcome
    out.set(o, (out.get(o) ?? 0) + 1)
  }
  return out
}

describe('local failures are recorded as the site’s fault: no longer', () => {
  it('with ulimit -n 256 and --concurrency 1000, 2,000 healthy origins are all ok', async () => {
    const out = tmp.path('ulimit.bundle')
    const r = await runShell(`ulimit -n 256 && ${cli(['fetch', input('ulimit.txt', 2000), '-o', out, '--concurrency', '1000', '--per-ip', '1000', '--resolve', `*:${server.port}:127.0.0.1`])}`)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/note: --concurrency 1,000 lowered to \d+: this process may have 256 files open/)
    expect(r.stderr).toMatch(/2,000 origins fetched in .*: 2,000 ok; wrote/)
    expect(outcomesOf(out)).toEqual(new Map([['ok', 2000]]))
  })

  it('regression: a run stopped (SIGSTOP, the machine asleep) past the deadline of its fetches in flight wrote them as the sites\' time-outs (unreachable); now they are fetched again, and ok (the time stopped is no wait without progress: the run goes on)', async () => {
    const N = 4
    const out = tmp.path('stopped.bundle')
    // Answers wait until released: the run has every fetch in flight when it is stopped.
    const answers = holdAnswers()
    const r = await runShell(cli(['fetch', input('stopped.txt', N), '-o', out, '--timeout', '0.5', '--give-up-after', '1', '--concurrency', String(N), '--per-ip', String(N), '--resolve', `*:${server.port}:127.0.0.1`]), async (pid) => {
      await until(() => answers.held.length >= N)
      process.kill(pid, 'SIGSTOP')
      // Stopped past the deadline of its fetches (0.5 s), and twice the time it gives up after (1 s).
      await new Promise((resolve) => setTimeout(resolve, 2000))
      process.kill(pid, 'SIGCONT')
      // The fetches again are answered at once; the ones held never are, so the run always has the time-outs it must not take for the sites'.
      answers.hold = false
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/retried after failures of this machine \(ESTALLED [\d,]+\)/)
    expect(outcomesOf(out)).toEqual(new Map([['ok', N]]))
  })

  it.skipIf(!HAS_PRLIMIT)('descriptors taken away mid-run: EMFILE is retried after a pause, and every origin ends ok', async () => {
    const N = 600
    const out = tmp.path('emfile.bundle')
    // Answers wait until released: the run holds many connections when its descriptors are cut.
    const answers = holdAnswers()
    const r = await runShell(cli(['fetch', input('emfile.txt', N), '-o', out, '--concurrency', '100', '--per-ip', '100', '--resolve', `*:${server.port}:127.0.0.1`]), async (pid) => {
      await until(() => answers.held.length >= 100)
      // Fewer descriptors allowed than the process has open without its sockets: no new socket until they are back.
      const open = readdirSync(`/proc/${pid}/fd`).length
      expect(spawnSync('prlimit', ['--pid', String(pid), `--nofile=${Math.max(3, open - answers.held.length - 2)}:4096`]).status).toBe(0)
      answers.hold = false
      for (const answer of answers.held.splice(0)) answer()
      // Failures of this machine for a while, then the descriptors back.
      await new Promise((resolve) => setTimeout(resolve, 300))
      spawnSync('prlimit', ['--pid', String(pid), '--nofile=4096:4096'])
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/retried after failures of this machine \(EMFILE [\d,]+/)
    expect(outcomesOf(out)).toEqual(new Map([['ok', N]]))
    expect(server.asked.size).toBe(N)
  })

  it.skipIf(!HAS_PRLIMIT)('a run that cannot make progress stops with a clear error (exit 1) and keeps its journal', async () => {
    const N = 300
    const out = tmp.path('stuck.bundle')
    let seen = 0
    let cut = false
    // Slow answers until the descriptors are cut: the run is surely mid-way then.
    server.handler = (host, _req, res) => {
      seen++
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`User-agent: *\nDisallow: /${host}\n`)
      }
      if (cut) answer()
      else setTimeout(answer, 50)
    }
    const r = await runShell(cli(['fetch', input('stuck.txt', N), '-o', out, '--concurrency', '4', '--per-ip', '4', '--give-up-after', '1', '--resolve', `*:${server.port}:127.0.0.1`]), async (pid) => {
      await until(() => seen >= 20)
      expect(spawnSync('prlimit', ['--pid', String(pid), '--nofile=12:4096']).status).toBe(0)
      cut = true
    })
    expect(r.code, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/cannot make progress: nothing fetched for \d+ s, only failures of this machine \(connect EMFILE/)
    expect(r.stderr).toMatch(/the journal '.*stuck\.bundle\.journal' keeps the [\d,]+ origins fetched: run the same command again/)
    expect(existsSync(out)).toBe(false)
    const records = readFileSync(`${out}.journal`, 'utf8').trimEnd().split('\n').slice(1)
    expect(records.length).toBeGreaterThanOrEqual(20)
    for (const line of records) expect(JSON.parse(line).outcome).toBe('ok')
  })
})
