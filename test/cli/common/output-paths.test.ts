/**
 * `-o` respects the path, for every command that writes an output file
 * (`fetch` as a bundle or JSON lines, `pack`, `compare`'s reports and
 * `--export`, `playground --out`): checked
 * before any work (its folder exists and is writable, it is not a
 * directory); a regular file, or a link to one, replaced atomically through
 * the link (the link stays, its target is replaced); a FIFO, a character
 * device or `-` written in place as a stream. The finding: `-o
 * current.bundle` where `current.bundle -> releases/7.bundle` left the
 * release untouched and the link gone; `-o /dev/stdout` replaced the device.
 * compare's reports (`--json`, `--html`, `--junit`, `--csv`,
 * `--write-baseline`) are written together by one run for each kind of
 * path that all of them accept at once (a file, a link, a device); each
 * report's test still checks its own path.
 */
import { spawn, spawnSync } from 'node:child_process'
import { createReadStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { CLI, ensureBuilt, ROOT, run, tempDir, type RunResult } from '../helpers.js'
import { startFetchServer, type FetchServer } from '../fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
let robotsDir = ''
let urls = ''
let adapter = ''

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  server = await startFetchServer()
  robotsDir = tmp.path('robots')
  mkdirSync(robotsDir)
  writeFileSync(join(robotsDir, 'a.test'), 'User-agent: *\nDisallow: /a\n')
  writeFileSync(join(robotsDir, 'b.test'), 'User-agent: *\nDisallow: /b\n')
  urls = tmp.path('urls.txt')
  writeFileSync(urls, `http://a.test:${server.port}/x\nhttp://b.test:${server.port}/y\n`)
  // compare's reports come from a run against an implementation: the built library itself, in process.
  adapter = tmp.path('adapter.mjs')
  writeFileSync(adapter, `import { parseRobots } from ${JSON.stringify(join(ROOT, 'dist/index.js'))}\nexport function parse(bytes) { const r = parseRobots(bytes); return { isAllowed: (u, a) => r.isAllowed(u, a) } }\n`)
})
afterAll(async () => {
  await server.close()
  tmp.cleanup()
})
beforeEach(() => server.reset())

/** The commands that write a file at `out`, and how to tell their output. */
const WRITERS = {
  'fetch (bundle)': (out: string) => ['fetch', urls, '-o', out, '-q', '--resolve', `*:${server.port}:127.0.0.1`],
  'fetch --format jsonl': (out: string) => ['fetch', urls, '-o', out, '-q', '--format', 'jsonl', '--resolve', `*:${server.port}:127.0.0.1`],
  pack: (out: string) => ['pack', robotsDir, '-o', out, '-q'],
  'compare --export': (out: string) => ['compare', '--cases', 'unit', '--export', out, '-q'],
  'compare --json': (out: string) => ['compare', '--cases', 'unit', '--module', adapter, '--json', out, '-q'],
  'compare --html': (out: string) => ['compare', '--cases', 'unit', '--module', adapter, '--html', out, '-q'],
  'compare --junit': (out: string) => ['compare', '--cases', 'unit', '--module', adapter, '--junit', out, '-q'],
  'compare --csv': (out: string) => ['compare', '--cases', 'unit', '--module', adapter, '--csv', out, '-q'],
  'compare --write-baseline': (out: string) => ['compare', '--cases', 'unit', '--module', adapter, '--write-baseline', out, '-q'],
} as const

/** compare's reports, which one run writes together, each at its own path. */
const REPORTS = ['compare --json', 'compare --html', 'compare --junit', 'compare --csv', 'compare --write-baseline']

/** The runs of compare's reports by step: the tests of one step share a run (each checks its own report). */
const reportRuns = new Map<string, Promise<RunResult>>()

/**
 * Runs the writer `name` to the path `prepare(name)` makes ready. compare's
 * reports are written by one run for every report's test of the same step:
 * the first of them prepares every report's path and starts the run, the
 * others wait for it.
 */
function write(name: string, step: string, prepare: (name: string) => string): Promise<RunResult> {
  if (!REPORTS.includes(name)) return run(WRITERS[name as keyof typeof WRITERS](prepare(name)))
  let shared = reportRuns.get(step)
  if (shared === undefined) {
    shared = run(['compare', '--cases', 'unit', '--module', adapter, ...REPORTS.flatMap((n) => [n.slice('compare '.length), prepare(n)]), '-q'])
    reportRuns.set(step, shared)
  }
  return shared
}

/** Whether `bytes` are what the writer writes: a bundle of the two hosts, two JSON records, or the unit cases. */
function isOutput(name: string, bytes: Buffer): boolean {
  if (name.includes('jsonl')) return bytes.toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).length === 2
  const text = bytes.toString('utf8')
  if (name === 'compare --json') return (JSON.parse(text) as { tool?: unknown }).tool !== undefined
  if (name === 'compare --html') return /^<!doctype html>[\s\S]*<\/html>\s*$/i.test(text)
  if (name === 'compare --junit') return /^<\?xml[\s\S]*<testsuites[\s\S]*<\/testsuites>\s*$/.test(text)
  if (name === 'compare --csv') return text.startsWith('id,') && text.trimEnd().split('\n').length > 1
  if (name === 'compare --write-baseline') return text.startsWith('# compare baseline')
  if (name.includes('compare')) return bytes.toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { id?: unknown }).every((c) => typeof c.id === 'string')
  return RobotsStore.fromBytes(new Uint8Array(bytes)).size === 2
}

describe('-o destroys what the path points to: no longer', () => {
  for (const [name, argv] of Object.entries(WRITERS)) {
    describe(name, () => {
      it('a regular file is replaced whole; nothing is left beside it', async () => {
        const dirOf = (n: string): string => tmp.path(`${n.replace(/\W+/g, '-')}-file`)
        const r = await write(name, 'file', (n) => {
          mkdirSync(dirOf(n))
          writeFileSync(join(dirOf(n), 'out'), 'old contents')
          return join(dirOf(n), 'out')
        })
        const dir = dirOf(name)
        const out = join(dir, 'out')
        expect(r.status, r.stderr).toBe(0)
        expect(isOutput(name, readFileSync(out))).toBe(true)
        expect(readdirSync(dir)).toEqual(['out'])
      })

      it('through a symbolic link: the link stays, its target is replaced (also a dangling link and a chain)', async () => {
        const dirOf = (n: string): string => tmp.path(`${n.replace(/\W+/g, '-')}-link`)
        const dir = dirOf(name)
        const r = await write(name, 'link', (n) => {
          mkdirSync(join(dirOf(n), 'releases'), { recursive: true })
          writeFileSync(join(dirOf(n), 'releases/7'), 'release 7')
          symlinkSync('releases/7', join(dirOf(n), 'current'))
          return join(dirOf(n), 'current')
        })
        expect(r.status, r.stderr).toBe(0)
        expect(lstatSync(join(dir, 'current')).isSymbolicLink()).toBe(true)
        expect(readlinkSync(join(dir, 'current'))).toBe('releases/7')
        expect(isOutput(name, readFileSync(join(dir, 'releases/7')))).toBe(true)
        // A link to a file not there yet, through another link.
        const d = await write(name, 'dangling link', (n) => {
          symlinkSync('releases/8', join(dirOf(n), 'next'))
          symlinkSync('next', join(dirOf(n), 'alias'))
          return join(dirOf(n), 'alias')
        })
        expect(d.status, d.stderr).toBe(0)
        expect(lstatSync(join(dir, 'alias')).isSymbolicLink()).toBe(true)
        expect(lstatSync(join(dir, 'next')).isSymbolicLink()).toBe(true)
        expect(isOutput(name, readFileSync(join(dir, 'releases/8')))).toBe(true)
        expect(readdirSync(join(dir, 'releases')).sort()).toEqual(['7', '8'])
      })

      it('a FIFO is streamed to its reader, and stays a FIFO', async () => {
        const fifo = tmp.path(`${name.replace(/\W+/g, '-')}.fifo`)
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
        const read = new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = []
          createReadStream(fifo).on('data', (c) => chunks.push(c as Buffer)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
        })
        const r = await run(argv(fifo))
        expect(r.status, r.stderr).toBe(0)
        expect(isOutput(name, await read)).toBe(true)
        expect(statSync(fifo).isFIFO()).toBe(true)
      })

      it('a character device is written in place, not replaced', async () => {
        const r = await write(name, 'device', () => '/dev/null')
        expect(r.status, r.stderr).toBe(0)
        expect(statSync('/dev/null').isCharacterDevice()).toBe(true)
      })

      it("'-' is stdout", async () => {
        const r = await run(argv('-'))
        expect(r.status, r.stderr).toBe(0)
        expect(isOutput(name, r.stdout)).toBe(true)
      })

      it('checked before any work: a directory, a missing folder, a folder that is a file', async () => {
        const cases: [string, RegExp][] = [
          [tmp.dir, /is a directory/],
          [tmp.path('missing/out'), /its folder '.*missing': no such file or directory/],
          [join(urls, 'out'), /'.*urls\.txt' is not a folder/],
          // regression: a path ending in '/' that did not exist yet was written as a file of that name.
          [`${tmp.path('new-folder')}/`, /names a folder \(a file is needed\)/],
          [join(tmp.dir, '.'), /is a directory|names a folder/],
        ]
        for (const [out, message] of cases) {
          const r = await run(argv(out))
          expect(r.status, out).toBe(1)
          expect(r.stderr, out).toMatch(message)
        }
        expect(server.total).toBe(0)
      })
    })
  }

  it('a temporary file left by a process killed while writing is removed by the next write of the same path', async () => {
    const out = tmp.path('swept.bundle')
    // A pid that runs no more: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout
    const stale = tmp.path(`.swept.bundle.${gone}.tmp`)
    writeFileSync(stale, 'half a bundle')
    const r = await run(WRITERS.pack(out))
    expect(r.status, r.stderr).toBe(0)
    expect(existsSync(stale)).toBe(false)
  })

  it.skipIf(!existsSync('/proc/1/stat'))('regression: a temporary file whose process number was reused by a running process (a container\'s PID 1) was never removed; one whose process is still writing it is kept', async () => {
    const out = tmp.path('reused.bundle')
    // PID 1 runs, but started long after this file's last write: not its writer.
    const stale = tmp.path('.reused.bundle.1.tmp')
    writeFileSync(stale, 'half a bundle of a killed run')
    utimesSync(stale, new Date(1_000_000), new Date(1_000_000))
    // This test's process runs and started before the file was written: a writer at work.
    const live = tmp.path(`.reused.bundle.${process.pid}.tmp`)
    writeFileSync(live, 'a bundle being written')
    const r = await run(WRITERS.pack(out))
    expect(r.status, r.stderr).toBe(0)
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(live)).toBe(true)
  })

  it('regression: fetch --journal through a dangling link failed with EEXIST; now the link is kept and its target is the journal', async () => {
    const dir = tmp.path('journal-link')
    mkdirSync(join(dir, 'state'), { recursive: true })
    symlinkSync('state/run.journal', join(dir, 'journal'))
    const argv = ['fetch', urls, '-o', '-', '--format', 'jsonl', '--journal', join(dir, 'journal'), '-q', '--resolve', `*:${server.port}:127.0.0.1`]
    const r = await run(argv)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.toString().trimEnd().split('\n')).toHaveLength(2)
    // A run that completes removes its journal; the link stays.
    expect(lstatSync(join(dir, 'journal')).isSymbolicLink()).toBe(true)
    expect(readdirSync(join(dir, 'state'))).toEqual([])
  })

  it('regression: fetch --journal onto a FIFO, a device or stdout is refused before any request (a journal is read back)', async () => {
    const fifo = tmp.path('journal.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    for (const journal of [fifo, '/dev/null', '-']) {
      const r = await run(['fetch', urls, '-o', tmp.path('j.bundle'), '--journal', journal, '-q', '--resolve', `*:${server.port}:127.0.0.1`])
      expect(r.status, journal).toBe(1)
      expect(r.stderr.toString(), journal).toMatch(/cannot use the journal .*cannot be read back: name a regular file/)
    }
    expect(server.total).toBe(0)
    expect(statSync(fifo).isFIFO()).toBe(true)
  })

  it("regression: compare --json - mixed the terminal report into the JSON on stdout; now stdout holds the one output, the report goes to stderr", async () => {
    for (const [name, argv] of Object.entries(WRITERS).filter(([n]) => n.startsWith('compare --') && n !== 'compare --export')) {
      const r = await run(argv('-').filter((a) => a !== '-q'))
      expect(r.status, r.stderr).toBe(0)
      expect(isOutput(name, r.stdout), name).toBe(true)
      expect(r.stderr.toString(), name).toMatch(/Result: 100\.00% agreement/)
    }
    const both = await run(['compare', '--cases', 'unit', '--module', adapter, '--json', '-', '--csv', '-'])
    expect(both.status).toBe(2)
    expect(both.stderr.toString()).toMatch(/--json and --csv both name stdout/)
  })

  it('playground --out: each file of the page replaced through a link, the links kept', async () => {
    const dir = tmp.path('page')
    mkdirSync(join(dir, 'real'), { recursive: true })
    writeFileSync(join(dir, 'real/index.html'), 'old')
    symlinkSync('real/index.html', join(dir, 'index.html'))
    const r = await run(['playground', '--out', dir])
    expect(r.status, r.stderr).toBe(0)
    expect(lstatSync(join(dir, 'index.html')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'real/index.html'), 'utf8')).toMatch(/<html/i)
    expect(readFileSync(join(dir, 'playground.js'), 'utf8').length).toBeGreaterThan(1000)
  })

  it('a FIFO whose reader comes late: fetch does not block while it waits (the run completes once the reader opens it)', async () => {
    const fifo = tmp.path('late.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const child = spawn(process.execPath, [CLI, ...WRITERS['fetch (bundle)'](fifo)], { stdio: ['ignore', 'ignore', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // The fetches are made before the reader comes.
    while (server.total < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    const chunks: Buffer[] = []
    await new Promise<void>((resolve, reject) => createReadStream(fifo).on('data', (c) => chunks.push(c as Buffer)).on('end', () => resolve()).on('error', reject))
    expect(await exited).toBe(0)
    expect(isOutput('bundle', Buffer.concat(chunks))).toBe(true)
  })
})
