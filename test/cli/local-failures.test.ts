/**
 * Failures of this machine met by the command line as it writes (a file-size
 * limit, a full disk), each named after what went wrong: a local failure is
 * one coded line and a failing exit status, never a crash, a cut output
 * with exit 0, or a site's outcome. The limits come from `ulimit -f` (Node
 * ignores SIGXFSZ, so a write past the limit fails with EFBIG).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { join } from 'node:path'
import { CLI, ROOT } from './helpers.js'
import { withFetchServer, type FetchServer } from './fetch/fetch-server.js'
import type { tempDir } from './helpers.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
withFetchServer((s, t) => {
  server = s
  tmp = t
})

const BASH = existsSync('/bin/bash')

/** Runs the CLI with a file-size limit of `kib` KiB, stdout to `out` (a file) or a pipe (asynchronously: the test's server answers it). */
function limited(kib: number, args: readonly string[], out?: string): Promise<{ status: number | null; stderr: string }> {
  const redirect = out === undefined ? '' : ' > "$OUT"'
  const child = spawn('/bin/bash', ['-c', `ulimit -f ${kib} && exec "$@"${redirect}`, 'bash', process.execPath, CLI, ...args], {
    env: { ...process.env, OUT: out ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })))
}

describe.skipIf(!BASH)('local failures as the command line writes', () => {
  it('regression: stdout on a file that reached the size limit ended 0 with the output cut (Node drops a short write)', async () => {
    const robots = tmp.path('robots.txt')
    writeFileSync(robots, 'User-agent: *\nDisallow: /private\n')
    const urls = tmp.path('urls.txt')
    // About 40 KB of verdicts: one block of the writer, so one write that the limit cuts short.
    writeFileSync(urls, Array.from({ length: 1000 }, (_, i) => `https://a.test/p${i}`).join('\n') + '\n')
    const out = tmp.path('verdicts.txt')
    const r = await limited(8, ['filter', '--robots', robots, '--agent', 'bot', '--print', 'verdicts', urls], out)
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/^(.*\n)?robots-automaton: cannot write to stdout: EFBIG: file too large, write\n$/)
    expect(statSync(out).size).toBe(8192)
  })

  it('regression: a journal write that failed in a timer (a full disk) crashed fetch with a stack trace', async () => {
    const list = tmp.path('hosts.txt')
    writeFileSync(list, Array.from({ length: 300 }, (_, i) => `http://h${i}.full.test:${server.port}/`).join('\n') + '\n')
    const out = tmp.path('full.bundle')
    // The journal outgrows 16 KiB after some 60 origins; its records are written a turn of the event loop later.
    const r = await limited(16, ['fetch', list, '-o', out, '-q', '--resolve', `*:${server.port}:127.0.0.1`])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot write the journal '${out}.journal': EFBIG: file too large, write\n`)
    expect(existsSync(out)).toBe(false)
    expect(readFileSync(`${out}.journal`, 'utf8')).toContain('robots-automaton fetch journal')
  })

  it("regression: compare --batch with a body file that could not be written (a full disk) crashed with a stack trace", async () => {
    // Bodies past the 4 KiB limit from the third case on: written as the first answers come back.
    const cases = tmp.path('cases.jsonl')
    writeFileSync(cases, Array.from({ length: 8 }, (_, i) => JSON.stringify({ robots: `User-agent: *\nDisallow: /p${i}\n${'# pad\n'.repeat(i * 400)}`, agent: 'bot', url: `http://a.test/p${i}` })).join('\n') + '\n')
    const adapter = `${process.execPath} -e 'require("readline").createInterface({ input: process.stdin }).on("line", (l) => console.log(JSON.stringify({ id: JSON.parse(l).id, allowed: true })))'`
    const r = await limited(4, ['compare', '--cases', cases, '--batch', adapter, '--window', '1'])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toBe("robots-automaton: cannot write a temporary robots.txt file: EFBIG: file too large, write\n")
    expect(r.stderr).not.toMatch(/\n +at /)
  })
})

describe.skipIf(!BASH)('playground --out on a full disk', () => {
  it('regression: the page was written before its script, so a failure left an index.html that loads a missing playground.js', async () => {
    const out = tmp.path('site')
    // The script (over 50 KiB) does not fit; the page would.
    const r = await limited(50, ['playground', '--out', out])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/^robots-automaton: cannot write page file '[^']*playground\.js': EFBIG/)
    expect(existsSync(join(out, 'index.html'))).toBe(false)
  })
})

describe.skipIf(!BASH)("compare's reports on a full disk", () => {
  const MODULE = join(ROOT, 'examples/adapters/robots-parser-module.mjs')

  it('regression: --json onto a full disk crashed compare with a stack trace (the copy of its cases failed unseen)', async () => {
    const r = await limited(1 << 20, ['compare', '--cases', 'unit', '--module', MODULE, '--json', '/dev/full', '-q'])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toBe("robots-automaton: cannot write report '/dev/full': no space left on device\n")
  })

  it('regression: a --csv report cut by a full disk mid-run was said to hold the cases done', async () => {
    const csv = tmp.path('cut.csv')
    const r = await limited(40, ['compare', '--cases', 'corpus', '--count', '1500', '--module', MODULE, '--csv', csv])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/\nrobots-automaton: cannot write report '[^']*cut\.csv': EFBIG: file too large, write\n$/)
    expect(r.stderr).not.toContain('holds the')
    expect(existsSync(csv)).toBe(false)
  })
})

describe('signals that nothing handles', () => {
  it('regression: compare ended by SIGHUP (a closed terminal) left its temporary folders behind', async () => {
    const folder = tmp.path('tmp-hup')
    mkdirSync(folder)
    // An adapter that answers nothing: the run waits with its case store and body files in TMPDIR.
    const child = spawn(process.execPath, [CLI, 'compare', '--cases', 'unit', '--batch', 'exec cat > /dev/null', '-q'], {
      stdio: ['ignore', 'ignore', 'ignore'],
      env: { ...process.env, TMPDIR: folder },
    })
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_, signal) => resolve(signal)))
    while (readdirSync(folder).length === 0) await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGHUP')
    expect(await closed).toBe('SIGHUP')
    expect(readdirSync(folder)).toEqual([])
  })
})

describe('SIGHUP (a closed terminal) handled as SIGTERM', () => {
  it('regression: compare on SIGHUP (a closed terminal) left an adapter that ignores stdin running', async () => {
    const folder = tmp.path('tmp-hup-adapter')
    mkdirSync(folder)
    const pidFile = tmp.path('adapter.pid')
    const json = tmp.path('hup.json')
    // An adapter that never reads stdin: a closed pipe does not end it.
    const child = spawn(process.execPath, [CLI, 'compare', '--cases', 'unit', '--batch', `echo $$ > '${pidFile}'; exec sleep 600`, '--json', json, '-q'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, TMPDIR: folder },
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const closed = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('close', (code, signal) => resolve(signal ?? code)))
    const until = async (what: string, ok: () => boolean): Promise<void> => {
      for (let waited = 0; !ok(); waited += 20) {
        if (waited > 60_000) throw new Error(`${what}: ${stderr}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    await until('the adapter did not start', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'))
    const pid = Number(readFileSync(pidFile, 'utf8'))
    onTestFinished(() => {
      try {
        process.kill(pid, 'SIGKILL') // left running by a build without the fix
      } catch {}
    })
    child.kill('SIGHUP')
    // Ended by the signal once the run wound down (a shell says 129): Node's exit path aborts when the terminal is gone.
    expect(await closed, stderr).toBe('SIGHUP')
    expect(stderr).toBe('robots-automaton: interrupted by SIGHUP\n')
    const gone = (): boolean => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z')
      } catch {
        return true
      }
    }
    await until('the adapter is still running', gone)
    expect(readdirSync(folder)).toEqual([])
    // The reports are written with the cases done, as on SIGTERM.
    expect(JSON.parse(readFileSync(json, 'utf8')).failure.message).toBe('interrupted by SIGHUP')
  })
})

describe('the temporary folder', () => {
  it('regression: a TMPDIR that does not exist was named by a system error alone (\'no such file or directory\'), neither the folder nor TMPDIR', async () => {
    const missing = tmp.path('no-such-tmp')
    const child = spawn(process.execPath, [CLI, 'compare', '--cases', 'unit', '--batch', 'exec cat > /dev/null', '-q'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, TMPDIR: missing },
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(status).toBe(1)
    expect(stderr).toContain(`cannot make a temporary folder in '${missing}' (TMPDIR): no such file or directory`)
  })
})
