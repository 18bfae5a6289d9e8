/**
 * A command stopped by SIGINT, SIGTERM or SIGHUP while it writes an output
 * file: the file is left as it was or written whole, nothing is left beside
 * it, and stderr says what was not written. The signal comes from inside
 * the process (a preloaded hook sends it once the temporary output file is
 * written to, at the first write or the first two), so every run stops at
 * the same point of its work, however slow the machine.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RobotsStore } from '../../src/index.js'
import { CLI, type tempDir } from './helpers.js'
import { withFetchServer, type FetchServer } from './fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
withFetchServer((s, t) => {
  server = s
  tmp = t
})

/** Sends HOOK_SIG to the process after its first write to a temporary output file (`.NAME.PID.tmp`). */
const HOOK = `
const fsp = require('fs/promises')
const { syncBuiltinESMExports } = require('module')
const open = fsp.open
let fired = 0
fsp.open = async function (path, ...rest) {
  const h = await open.call(this, path, ...rest)
  if (typeof path === 'string' && /\\/\\.[^/]*\\.\\d+\\.tmp$/.test(path)) {
    const write = h.write
    h.write = async function (...a) {
      const r = await write.apply(this, a)
      // HOOK_TIMES signals, one a write (default one).
      if (fired++ < Number(process.env.HOOK_TIMES || 1)) process.kill(process.pid, process.env.HOOK_SIG)
      return r
    }
  }
  return h
}
syncBuiltinESMExports()
`

/** Runs the CLI with the hook sending `signal`; how it ended. */
function stopped(args: readonly string[], signal: NodeJS.Signals, times = 1): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const hook = tmp.path('hook.cjs')
  writeFileSync(hook, HOOK)
  const child = spawn(process.execPath, ['--require', hook, CLI, ...args], { env: { ...process.env, HOOK_SIG: signal, HOOK_TIMES: String(times) }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  return new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig, stderr })))
}

const temporaries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'))

describe('an output written when a signal stops the run', () => {
  it('regression: pack stopped by SIGTERM while writing left its temporary file beside the bundle and said nothing; now it is removed, the bundle there is left as it was and named as not written', async () => {
    const dir = tmp.path('pack')
    mkdirSync(join(dir, 'robots'), { recursive: true })
    writeFileSync(join(dir, 'robots', 'a.test'), 'User-agent: *\nDisallow: /a\n')
    const out = join(dir, 'out.bundle')
    writeFileSync(out, 'the bundle of yesterday')
    const r = await stopped(['pack', join(dir, 'robots'), '-o', out], 'SIGTERM')
    // Ended by the signal itself, as a shell expects (143).
    expect(r.signal, r.stderr).toBe('SIGTERM')
    expect(readFileSync(out, 'utf8')).toBe('the bundle of yesterday')
    expect(temporaries(dir)).toEqual([])
    expect(r.stderr).toContain(`robots-automaton: interrupted by SIGTERM: bundle '${out}' not written (left as it was)`)
  })

  it('regression: fetch interrupted (SIGINT) while writing its output died without it and left the temporary file; now the output is written whole, the journal kept, exit 130', async () => {
    const dir = tmp.path('fetch')
    mkdirSync(dir)
    const urls = join(dir, 'urls.txt')
    writeFileSync(urls, ['a', 'b', 'c'].map((h) => `http://${h}.stop.test:${server.port}/x`).join('\n') + '\n')
    const out = join(dir, 'out.bundle')
    const r = await stopped(['fetch', urls, '-o', out, '--resolve', `*:${server.port}:127.0.0.1`], 'SIGINT')
    expect(r.code, r.stderr).toBe(130)
    expect(RobotsStore.fromBytes(readFileSync(out)).size).toBe(3)
    expect(temporaries(dir)).toEqual([])
    expect(readdirSync(dir)).toContain('out.bundle.journal')
    expect(r.stderr).toContain('wrote')
    expect(server.total).toBe(3)
  })

  it('regression: fetch stopped at once by a second signal while writing its output said nothing; now it names the output not written and the journal kept, and leaves nothing beside the output', async () => {
    const dir = tmp.path('fetch-twice')
    mkdirSync(dir)
    const urls = join(dir, 'urls.txt')
    writeFileSync(urls, ['a', 'b'].map((h) => `http://${h}.twice.test:${server.port}/x`).join('\n') + '\n')
    const out = join(dir, 'out.bundle')
    writeFileSync(out, 'the bundle of yesterday')
    const r = await stopped(['fetch', urls, '-o', out, '--resolve', `*:${server.port}:127.0.0.1`], 'SIGTERM', 2)
    // Ended by the signal itself, as a shell expects (143), never waiting for a thread of Node's.
    expect(r.signal, r.stderr).toBe('SIGTERM')
    expect(readFileSync(out, 'utf8')).toBe('the bundle of yesterday')
    expect(temporaries(dir)).toEqual([])
    expect(r.stderr).toContain(`robots-automaton: stopped at once by a second SIGTERM: '${out}' not written (left as it was); the journal '${out}.journal' keeps what was fetched`)
  })
})
