/**
 * Regressions of the command line's contracts (arguments, outputs, exit
 * statuses) found by a hostile, careless user: each test is named after
 * what went wrong, and runs the built CLI.
 */
import { spawn } from 'node:child_process'
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, ensureBuilt, run, tempDir } from './helpers.js'
import { readError as compareReadError } from '../../src/compare/compare-error.js'

let tmp: ReturnType<typeof tempDir>
const URLS = 'https://a.test/\nhttps://b.test/private\n'
const JSONL = '{"origin":"c.test","body":"User-agent: *\\nDisallow: /"}\n'
const MODULE = 'export function parse() { return { isAllowed() { return true } } }\n'

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp?.cleanup())

/** A fresh file `name` holding `text`; its path. */
function fresh(name: string, text: string): string {
  writeFileSync(tmp.path(name), text)
  return tmp.path(name)
}

/** Routes every name to a closed local port: nothing leaves the machine, and these runs are refused before any fetch anyway. */
const NOWHERE = ['--connect-to', '::127.0.0.1:1']

describe('an output that names an input of the run', () => {
  it('fetch urls.txt -o urls.txt replaced the URL list with a bundle (exit 0); it is a usage error, the list kept', async () => {
    const list = fresh('list.txt', URLS)
    const link = tmp.path('list-link')
    symlinkSync(list, link)
    const hard = tmp.path('list-hard')
    linkSync(list, hard)
    for (const out of [list, link, hard]) {
      const r = await run(['fetch', list, '-o', out, '-q', ...NOWHERE], { cwd: tmp.dir })
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toMatch(/^robots-automaton: fetch: option '--output' names the input file '[^']*list\.txt': it would be replaced by the output; name another file/m)
      expect(readFileSync(list, 'utf8')).toBe(URLS)
    }
    const j = await run(['fetch', list, '-o', tmp.path('out.bundle'), '--journal', list, '-q', ...NOWHERE])
    expect(j.status, j.stderr).toBe(2)
    expect(j.stderr).toContain(`option '--journal' names the input file`)
    expect(readFileSync(list, 'utf8')).toBe(URLS)
  })

  it('fetch --update B -o B still replaces B (the documented refresh in place)', async () => {
    const bundle = tmp.path('self.bundle')
    expect((await run(['pack', fresh('one.jsonl', JSONL), '-o', bundle, '-q'])).status).toBe(0)
    const r = await run(['fetch', '--update', bundle, '-o', bundle, '-q', ...NOWHERE])
    expect(r.status, r.stderr).toBe(0)
    expect(readFileSync(bundle).subarray(0, 4).toString('latin1')).toBe('RATB')
  })

  it('pack fetched.jsonl -o fetched.jsonl replaced the JSON lines with a bundle (exit 0); a bundle merged into itself still works', async () => {
    const jsonl = fresh('fetched.jsonl', JSONL)
    const r = await run(['pack', jsonl, '-o', jsonl])
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/option '--output' names the input file '[^']*fetched\.jsonl'/)
    expect(readFileSync(jsonl, 'utf8')).toBe(JSONL)

    const bundle = tmp.path('merged.bundle')
    expect((await run(['pack', jsonl, '-o', bundle, '-q'])).status).toBe(0)
    const other = fresh('other.jsonl', '{"origin":"d.test","body":"User-agent: *\\nAllow: /"}\n')
    const m = await run(['pack', bundle, other, '-o', bundle])
    expect(m.status, m.stderr).toBe(0)
    expect(m.stderr).toContain('2 hosts packed')
  })

  it('audit --fetch list --save list replaced the URL list with a bundle; it is a usage error', async () => {
    const list = fresh('audit-list.txt', URLS)
    const r = await run(['audit', '--fetch', list, '--crawlers', 'A', '--save', list, '-q', ...NOWHERE])
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr).toContain(`option '--save' names the input file`)
    expect(readFileSync(list, 'utf8')).toBe(URLS)
  })

  it('compare --module m.mjs --export m.mjs overwrote the implementation under test; --json c.jsonl over --cases c.jsonl too', async () => {
    const mod = fresh('adapter.mjs', MODULE)
    const r = await run(['compare', '--cases', 'unit', '--module', mod, '--export', mod, '-q'])
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/option '--export' names the '--module' file '[^']*adapter\.mjs'/)
    expect(readFileSync(mod, 'utf8')).toBe(MODULE)

    const cases = tmp.path('cases.jsonl')
    expect((await run(['compare', '--cases', 'unit', '--export', cases, '-q'])).status).toBe(0)
    const before = readFileSync(cases, 'utf8')
    const c = await run(['compare', '--cases', cases, '--module', mod, '--json', cases, '-q'])
    expect(c.status, c.stderr).toBe(2)
    expect(c.stderr).toContain(`option '--json' names the '--cases' file`)
    expect(readFileSync(cases, 'utf8')).toBe(before)
  })
})

describe('two outputs that are one file', () => {
  it('compare --json r --csv r kept only the report written last (exit 3); it is a usage error before the run', async () => {
    const mod = fresh('adapter2.mjs', MODULE)
    const report = tmp.path('r.json')
    for (const [a, b] of [['--json', '--csv'], ['--json', '--write-baseline'], ['--html', '--junit']]) {
      const r = await run(['compare', '--cases', 'unit', '--module', mod, a, report, b, report, '-q'])
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toContain(`options '${a}' and '${b}' name the same file`)
      expect(existsSync(report)).toBe(false)
    }
    // Devices are streams, not files: two outputs to /dev/null are fine.
    const n = await run(['compare', '--cases', 'unit', '--module', mod, '--json', '/dev/null', '--csv', '/dev/null', '-q'])
    expect(n.stderr).not.toContain('name the same file')
  })

  it('compare --baseline F --write-baseline F still updates the baseline in place', async () => {
    const mod = fresh('adapter3.mjs', MODULE)
    const baseline = tmp.path('baseline.txt')
    expect((await run(['compare', '--cases', 'unit', '--module', mod, '--write-baseline', baseline, '-q'])).status).toBe(3)
    const r = await run(['compare', '--cases', 'unit', '--module', mod, '--baseline', baseline, '--write-baseline', baseline, '-q'])
    expect(r.status, r.stderr).toBe(0)
  })
})

describe('numbers and names', () => {
  it("compare --min-agreement ' ' passed as 0 and '0x10' as 16; only decimal percentages are taken", async () => {
    const mod = fresh('adapter4.mjs', MODULE)
    for (const v of [' ', '0x10', '1e1', '+5', '.5']) {
      const r = await run(['compare', '--cases', 'unit', '--module', mod, `--min-agreement=${v}`, '-q'])
      expect(r.status, `${JSON.stringify(v)}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain(`option '--min-agreement' must be a percentage from 0 to 100 (got '${v}')`)
    }
    expect((await run(['compare', '--cases', 'unit', '--module', mod, '--min-agreement', '99.99', '-q'])).status).toBe(3)
  })

  it("compare --show 99999999999999999 was refused as not 'a whole number from 0'; the message says the top", async () => {
    const r = await run(['compare', '--cases', 'unit', '--module', fresh('adapter5.mjs', MODULE), '--show', '99999999999999999', '-q'])
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr).toContain("option '--show' must be a whole number from 0 to 9,007,199,254,740,991 (got '99999999999999999')")
  })

  it("-j4 and -ox.bundle (short options joined to a value, as GNU tools take them) were only 'unknown option'; the message shows them apart", async () => {
    const cases: [string[], string][] = [
      [['filter', '--robots', tmp.path('robots.txt'), '--agent', 'A', '-j4'], "filter: unknown option '-j4'; short options go one by one, a value apart: did you mean '-j 4'?"],
      [['pack', tmp.path('robots.txt'), '-ox.bundle'], "pack: unknown option '-ox.bundle'; short options go one by one, a value apart: did you mean '-o x.bundle'?"],
      [['filter', '-qh'], "filter: unknown option '-qh'; short options go one by one, a value apart: did you mean '-q -h'?"],
      // No hint that names an option the command lacks.
      [['filter', '-qx'], "filter: unknown option '-qx' (see"],
    ]
    for (const [args, message] of cases) {
      const r = await run(args)
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr).toContain(`robots-automaton: ${message}`)
    }
  })

  it("playground --out - made a folder named '-' (stdout elsewhere); it is a usage error", async () => {
    const r = await run(['playground', '--out', '-'], { cwd: tmp.dir })
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr).toContain(`'--out' takes a directory for the page's two files: stdout ('-') cannot hold them`)
    expect(existsSync(tmp.path('-'))).toBe(false)
  })

  it('playground --out /proc/x spun for ever at full CPU (Node\'s recursive mkdir retries an ENOENT under a folder that exists); it fails at once', async () => {
    // The test's own time-out is the bound: before the fix the run never ended.
    const r = await run(['playground', '--out', '/proc/robots-automaton-no-such/page'])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/^robots-automaton: cannot write the page into \/proc\/robots-automaton-no-such\/page: no such file or directory$/m)
    // Missing parents are still made.
    const r2 = await run(['playground', '--out', tmp.path('site/a/b')])
    expect(r2.status, r2.stderr).toBe(0)
    expect(existsSync(tmp.path('site/a/b/index.html'))).toBe(true)
  }, 20_000)

  it('check judged a URL argument holding bytes that are not UTF-8 as U+FFFD\'s bytes, in silence; it warns, and stdin judges the bytes', async () => {
    const robots = tmp.path('robots.txt')
    // As a shell passes $'/\xff': Node reads the argument as UTF-8, the byte as U+FFFD.
    const r = await run(['check', robots, '--agent', 'A', '/\uFFFD'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toContain("robots-automaton: warning: URL '/\uFFFD' holds U+FFFD")
    const s = await run(['check', robots, '--agent', 'A', '--json'], { input: Buffer.from([0x2f, 0xff, 0x0a]) })
    expect(s.stderr).not.toContain('warning')
    expect(JSON.parse(s.stdout.toString('utf8')).url_base64).toBe('L/8=')
  })

  it('a file whose name is not UTF-8 was reported as missing ("no such file or directory") without why', async () => {
    // Node hands the program its arguments as UTF-8, a bad byte as U+FFFD: the file cannot be named.
    const name = Buffer.concat([Buffer.from(tmp.path('bad')), Buffer.from([0xff]), Buffer.from('.txt')])
    writeFileSync(name, URLS)
    const shown = name.toString('utf8')
    for (const args of [['filter', '--robots', tmp.path('robots.txt'), '--agent', 'A', shown], ['lint', shown]]) {
      const r = await run(args)
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toContain('no such file or directory (a name that is not valid UTF-8 cannot reach this program')
    }
  })

  it('lint DIR skipped a file under DIR whose name is not UTF-8 as missing, blaming the arguments; it lints it (and what is under such a folder)', async () => {
    const dir = tmp.path('lint-names')
    const bad = Buffer.concat([Buffer.from(`${dir}/sub`), Buffer.from([0xfe])])
    mkdirSync(bad, { recursive: true })
    writeFileSync(Buffer.concat([bad, Buffer.from('/caf'), Buffer.from([0xe9])]), 'Disalow: /x\n')
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/a`), Buffer.from([0xff])]), 'User-agent: *\nDisalow: /y\n')
    const r = await run(['lint', dir])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stdout.toString()).toBe(
      // The bytes that are not UTF-8 shown as \xHH (input-text.ts), each one apart.
      `${dir}/a\\xff:2: warning: key is a misspelling the reference accepts [typo]\n` +
        `${dir}/sub\\xfe/caf\\xe9:1: error: rule before any User-agent line; ignored [rule-outside-group]\n` +
        `${dir}/sub\\xfe/caf\\xe9:1: warning: key is a misspelling the reference accepts [typo]\n`,
    )
    expect(r.stderr).toMatch(/2 files linted: 1 error, 2 warnings, 0 infos; 3 lines, 38 bytes\n$/)
  })

  it.skipIf(process.platform === 'win32')('stdin named twice through /dev/stdin (diff - /dev/stdin) read the pipe once: NEW was judged as an empty robots.txt, a silent now-allowed; it is refused as stdin named twice', async () => {
    const robots = 'User-agent: *\nDisallow: /private\n'
    const d = await run(['diff', '-', '/dev/stdin', '--agent', 'A', fresh('stdin-twice.txt', URLS)], { input: robots })
    expect([d.status, d.stdout.toString(), d.stderr]).toEqual([2, '', "robots-automaton: diff: only one of OLD and NEW can be stdin ('-') (see 'robots-automaton diff --help')\n"])
    const f = await run(['filter', '--robots', '/dev/stdin', '--agent', 'A'], { input: robots })
    expect([f.status, f.stderr]).toEqual([2, "robots-automaton: filter: '--robots -' reads the robots.txt from stdin, so the URLs must come from FILE arguments (see 'robots-automaton filter --help')\n"])
  })

  it("'-' where it is no stdin (filter --bundle -, check --crawlers @-, compare --matrix -) was only 'no such file or directory'; it says '-' is not stdin here", async () => {
    for (const args of [['filter', '--bundle', '-', '--agent', 'A'], ['check', tmp.path('robots.txt'), '--crawlers', '@-', '/x']]) {
      const r = await run(args, { input: URLS })
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/^robots-automaton: cannot read (bundle|crawler list) '-': no such file or directory \('-' is not stdin here: name a file\)\n$/)
    }
    expect(compareReadError('matrix file', '-', Object.assign(new Error('x'), { code: 'ENOENT' })).message).toBe("cannot read matrix file '-': no such file or directory ('-' is not stdin here: name a file)")
  })
})

/** Runs the CLI with `input` on stdin and closes its stdout after the first chunk, as `| head -1` does; its exit status and stderr. */
function runClosingEarly(args: readonly string[], input: string): Promise<{ status: number | null; stderr: string; chunks: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    let chunks = 0
    let stderr = ''
    child.stdout.on('data', () => {
      if (chunks++ === 0) child.stdout.destroy()
    })
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stderr, chunks }))
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

describe('a stdout closed early (| head -1)', () => {
  // Far more output than a pipe holds: the run meets the closed pipe long before its end.
  const paths = Array.from({ length: 100_000 }, (_, i) => `/p1${i}`).join('\n') + '\n'

  it('diff exited 0 ("no verdict changes") after printing a changed verdict; it exits 3, quietly', async () => {
    const old = fresh('old.txt', 'User-agent: *\nAllow: /\n')
    const now = fresh('new.txt', 'User-agent: *\nDisallow: /p1\n')
    for (const extra of [[], ['--format', 'jsonl'], ['--crawlers', 'A,B']]) {
      const args = extra[0] === '--crawlers' ? ['diff', old, now, ...extra, '-q'] : ['diff', old, now, '--agent', 'A', ...extra, '-q']
      const r = await runClosingEarly(args, paths)
      expect(r.status, `${extra.join(' ')}: ${r.stderr}`).toBe(3)
      expect(r.stderr).toBe('')
    }
    // Nothing changed: a closed stdout still ends the run with 0.
    expect((await runClosingEarly(['diff', old, old, '--agent', 'A', '-q'], paths)).status).toBe(0)
  })

  it('audit OLD NEW exited 0 ("no class changed") after printing changed classes; it exits 3', async () => {
    const hosts = Array.from({ length: 3000 }, (_, i) => `h${i}.test`)
    const bundles = ['Allow: /', 'Disallow: /'].map((rule, i) => {
      const jsonl = fresh(`audit-${i}.jsonl`, hosts.map((h) => JSON.stringify({ origin: h, body: `User-agent: *\n${rule}\n` })).join('\n') + '\n')
      const bundle = tmp.path(`audit-${i}.bundle`)
      return { jsonl, bundle }
    })
    for (const b of bundles) expect((await run(['pack', b.jsonl, '-o', b.bundle, '-q'])).status).toBe(0)
    const r = await runClosingEarly(['audit', '--bundle', bundles[0].bundle, '--bundle', bundles[1].bundle, '--crawlers', 'A,B', '-q'], '')
    expect(r.status, r.stderr).toBe(3)
    expect(r.stderr).toBe('')
  })

  it('check --exit-code exited 0 ("every URL allowed") after printing a disallowed URL; it exits 3', async () => {
    const robots = fresh('disallow-p1.txt', 'User-agent: *\nDisallow: /p1\n')
    expect((await runClosingEarly(['check', robots, '--agent', 'A', '--exit-code', '-q'], paths)).status).toBe(3)
    expect((await runClosingEarly(['check', robots, '--crawlers', 'A,B', '--exit-code', '-q'], paths)).status).toBe(3)
    // Without --exit-code the status is no verdict: 0.
    expect((await runClosingEarly(['check', robots, '--agent', 'A', '-q'], paths)).status).toBe(0)
  })
})

describe('a stdout closed early while compare streams a report to it', () => {
  it("regression: 'compare --csv - | head' exited 0 (every case agrees) though cases disagreed; a run cut short has no verdict: exit 1, said on stderr", async () => {
    const allowAll = `${process.execPath} examples/adapters/allow-all-batch.mjs`
    // Far more rows than a pipe holds. The full run disagrees (exit 3): allow-all is wrong wherever the reference disallows.
    const cases = ['--cases', 'corpus', '--count', '2000']
    const whole = await run(['compare', ...cases, '--batch', allowAll, '--csv', tmp.path('whole.csv'), '-q'])
    expect(whole.status, whole.stderr).toBe(3)
    // More than a pipe or a socket pair holds (the spawned CLI's stdout is a socket pair: at most about 208 KiB buffered).
    expect(readFileSync(tmp.path('whole.csv')).length).toBeGreaterThan(400 * 1024)
    for (const report of ['--csv', '--export']) {
      const r = await runClosingEarly(['compare', ...cases, '--batch', allowAll, report, '-', '-q'], '')
      expect(r.chunks, report).toBeGreaterThan(0)
      expect(r.status, `${report}: ${r.stderr}`).toBe(1)
      expect(r.stderr, report).toBe('robots-automaton: stdout was closed before compare finished: no verdict is given (exit 1)\n')
    }
  })
})

/** Waits (in steps, at most `tries`) until `ready()` holds; false if it never did. */
async function until(ready: () => boolean, tries = 400): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (ready()) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return ready()
}

/** Whether the process `pid` is gone (reaped, or never there). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

describe('compare interrupted twice', () => {
  for (const [signal, status] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`a second ${signal} killed compare by the signal: the implementation's process group (out of a terminal's reach) ran on, and the temporary folders stayed`, async () => {
      const tmpdir = tmp.path(`tmp-${signal}`)
      mkdirSync(tmpdir)
      const pidFile = tmp.path(`adapter-${signal}.pid`)
      const eofFile = tmp.path(`adapter-${signal}.eof`)
      // The adapter answers nothing; once compare closes its stdin (the first signal), it says so and lingers, as a stuck one does.
      const adapterCommand = `echo $$ > '${pidFile}'; cat > /dev/null; : > '${eofFile}'; exec sleep 60`
      const child = spawn(process.execPath, [CLI, 'compare', '--cases', 'unit', '--batch', adapterCommand, '-q'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, TMPDIR: tmpdir },
      })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n') && readdirSync(tmpdir).length > 0)).toBe(true)
      const adapter = Number(readFileSync(pidFile, 'utf8'))
      child.kill(signal)
      // The run winds down and waits a grace period for the adapter to exit: the second signal comes then.
      expect(await until(() => existsSync(eofFile))).toBe(true)
      child.kill(signal)
      const code = await closed
      const adapterGone = await until(() => gone(adapter), 100)
      if (!adapterGone) process.kill(adapter, 'SIGKILL')
      expect(code, stderr).toBe(status)
      expect(adapterGone).toBe(true)
      expect(readdirSync(tmpdir)).toEqual([])
    }, 30_000)
  }
})
