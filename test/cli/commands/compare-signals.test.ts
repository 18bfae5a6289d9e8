// compare stopped by a signal, or ended with adapters that leave processes
// behind: it ends promptly, every process it started is gone, and what it
// could not write is said. Each run is one CLI process (plus its adapter):
// bounds are stall time-outs, generous for a busy machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ensureBuilt, ROOT, tempDir } from '../helpers.js'
import { waitGone } from '../../support/processes.js'

const NODE = process.execPath
const MODULE = resolve(ROOT, 'test/compare/fixtures/first-rule-wins.mjs')
/** How long a run may stall before the test gives up on it (far above what any step needs). */
const STALL_MS = 60_000

const tmp = tempDir()
beforeAll(() => ensureBuilt())
afterAll(() => tmp.cleanup())

/** Starts `compare ARGS`, gathering stderr; `ended` settles with the exit status (or the signal's name) once it exits. */
function start(args: readonly string[]): { child: ChildProcess; stderr: () => string; ended: Promise<number | string | null> } {
  const child = spawn(NODE, [CLI, 'compare', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ROBOTS_AUTOMATON_PROGRESS: '0' } })
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const ended = new Promise<number | string | null>((ok) => child.on('close', (code, signal) => ok(code ?? signal)))
  return { child, stderr: () => err, ended }
}

/** `ended`, or 'stalled' (the process then killed) when it takes longer than STALL_MS. */
async function within<T>(child: ChildProcess, ended: Promise<T>): Promise<T | 'stalled'> {
  let timer: NodeJS.Timeout | undefined
  const stalled = new Promise<'stalled'>((ok) => (timer = setTimeout(() => ok('stalled'), STALL_MS)))
  const r = await Promise.race([ended, stalled])
  clearTimeout(timer)
  if (r === 'stalled') child.kill('SIGKILL')
  return r
}

async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + STALL_MS; !done() && Date.now() < end; ) await new Promise((ok) => setTimeout(ok, 50))
}

const fifo = (name: string): string => {
  const path = tmp.path(name)
  expect(spawnSync('mkfifo', [path]).status).toBe(0)
  return path
}

describe('compare and signals', () => {
  it('regression: compare --json to a FIFO with no reader hung for ever and the first SIGTERM did not end it; now the signal ends it (143), the report said not written', async () => {
    const json = fifo('json.fifo')
    const html = fifo('html.fifo')
    // The CSV file is put in place as the run ends: the reports to the FIFOs come next.
    const csv = tmp.path('done.csv')
    const r = start(['--cases', 'unit', '--module', MODULE, '--minimise', '0', '--csv', csv, '--json', json, '--html', html, '-q'])
    await until(() => existsSync(csv))
    expect(existsSync(csv)).toBe(true)
    await new Promise((ok) => setTimeout(ok, 300))
    r.child.kill('SIGTERM')
    expect(await within(r.child, r.ended), r.stderr()).toBe(143)
    expect(r.stderr()).toContain(`report '${json}' not written: the FIFO has no reader, and the run was interrupted by SIGTERM`)
    expect(r.stderr()).toContain(`report '${html}' not written: the FIFO has no reader, and the run was interrupted by SIGTERM`)
    expect(statSync(json).isFIFO()).toBe(true)
  })

  it('regression: compare --csv to a FIFO with no reader: the run waits for one, and SIGINT ends it (130)', async () => {
    const csv = fifo('csv.fifo')
    const marker = tmp.path('csv-marker')
    // Answers every case allowed; the marker says the run is under way (the signal is then compare's to handle).
    const adapter = `${NODE} -e "require('readline').createInterface({input: process.stdin}).on('line', (l) => { require('fs').writeFileSync(${JSON.stringify(marker).replace(/"/g, "'")}, 'x'); console.log(JSON.stringify({id: JSON.parse(l).id, allowed: true})) })"`
    const r = start(['--cases', 'unit', '--batch', adapter, '--minimise', '0', '--csv', csv])
    await until(() => existsSync(marker))
    expect(existsSync(marker)).toBe(true)
    await new Promise((ok) => setTimeout(ok, 300))
    r.child.kill('SIGINT')
    expect(await within(r.child, r.ended), r.stderr()).toBe(130)
    expect(r.stderr()).toContain(`report '${csv}' not written: the FIFO has no reader, and the run was interrupted by SIGINT`)
  })

  it('regression: a --module adapter blocked in execSync was not stopped at --timeout (compare never ended); now it is, and what it started is gone', async () => {
    const pidFile = tmp.path('exec.pid')
    const module = tmp.path('exec-sync.mjs')
    writeFileSync(
      module,
      `import { execSync } from 'node:child_process'\nexport function parse() { return { isAllowed() { execSync(${JSON.stringify(`sh -c 'sleep 300 & echo $! > ${pidFile}; sleep 300'`)}); return true } } }\n`,
    )
    const r = start(['--cases', 'unit', '--count', '1', '--module', module, '--timeout', '1000', '--minimise', '0', '-q'])
    expect(await within(r.child, r.ended), r.stderr()).toBe(4)
    expect(r.stderr()).toMatch(/did not return within 1000 ms \(--timeout\)/)
    expect(await waitGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true)
  })

  it('regression: a case file that is a FIFO is read from its writer (the check before the run opened and closed it, its writer was gone and compare waited for ever)', async () => {
    const cases = fifo('cases-fifo.jsonl')
    const r = start(['--cases', cases, '--batch', `${NODE} examples/adapters/allow-all-batch.mjs`, '--minimise', '0', '-q'])
    const line = JSON.stringify({ id: 'a', robots: 'User-agent: *\nAllow: /\n', agent: 'FooBot', url: '/x' })
    const writer = spawn('sh', ['-c', `sleep 0.5; printf '%s\\n' '${line}' > '${cases}'`], { stdio: 'ignore' })
    expect(await within(r.child, r.ended), r.stderr()).toBe(0)
    writer.kill()
  })

  it('regression: a case file that is a FIFO no writer opens: SIGTERM ends compare (143); its open(2) held the process and no signal ended it', async () => {
    const cases = fifo('no-writer.jsonl')
    const json = tmp.path('no-writer.json')
    const r = start(['--cases', cases, '--batch', `${NODE} examples/adapters/allow-all-batch.mjs`, '--minimise', '0', '--json', json, '-q'])
    await new Promise((ok) => setTimeout(ok, 1500))
    r.child.kill('SIGTERM')
    expect(await within(r.child, r.ended), r.stderr()).toBe(143)
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ complete: false, failure: { message: 'interrupted by SIGTERM' } })
  })

  it('regression: a --urls, --baseline, --matrix or --diff file that is a FIFO no writer opens: SIGTERM ends compare (143); its open(2) held the main thread and no signal ended it', async () => {
    const runs = [
      ['--cases', 'corpus', '--robots-dir', 'corpus/robots', '--urls', fifo('urls.fifo'), '--module', MODULE, '-q'],
      ['--cases', 'unit', '--module', MODULE, '--baseline', fifo('baseline.fifo'), '-q'],
      ['--matrix', fifo('matrix.fifo'), '-q'],
      ['--diff', fifo('diff.fifo'), fifo('diff-b.fifo')],
    ].map((args) => ({ args, run: start(args) }))
    await new Promise((ok) => setTimeout(ok, 1500))
    for (const { run } of runs) run.child.kill('SIGTERM')
    for (const { args, run } of runs) {
      // Before the run starts, the signal ends the process itself (a shell sees 143).
      expect(await within(run.child, run.ended), `${args.join(' ')}: ${run.stderr()}`).toBe('SIGTERM')
    }
  })
})
