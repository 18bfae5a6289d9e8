// The CLI as a user runs it: help, version, exit codes, error messages, `check` and `lint`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ensureBuilt, ROOT, run, tempDir } from './helpers.js'
import { runInProcess } from './in-process.js'
import { startServer, reply, type TestServer } from '../fetch/server.js'

const ROBOTS = `User-agent: *
Disallow: /private
Allow: /private/ok

User-agent: Googlebot
Disallow: /nogoogle
`

const BAD_ROBOTS = `Disallow: /before-any-group
User-agent: bot
Disallow: nope
Crawl-delay: x
`

let tmp: ReturnType<typeof tempDir>
let robotsPath: string
let badPath: string

beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  robotsPath = tmp.path('robots.txt')
  badPath = tmp.path('bad.txt')
  writeFileSync(robotsPath, ROBOTS)
  writeFileSync(badPath, BAD_ROBOTS)
  mkdirSync(tmp.path('a-dir'))
})
afterAll(() => tmp.cleanup())

/** Asserts a failed run: exit code and exactly one stderr line matching `message`. */
function expectError(r: { status: number | null; stderr: string; stdout: Buffer }, status: number, message: string | RegExp): void {
  expect(r.status).toBe(status)
  const lines = r.stderr.trimEnd().split('\n')
  expect(lines, r.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^robots-automaton: /)
  if (typeof message === 'string') expect(lines[0]).toContain(message)
  else expect(lines[0]).toMatch(message)
  expect(r.stdout.length).toBe(0)
}

// Help and usage errors end before any input is read: they run in this process (in-process.ts), and the
// first test shows that dist/cli.js gives each kind the same status and bytes. The version is read from the
// package.json beside dist/, so --version runs dist/cli.js.
describe('help and version', () => {
  it('dist/cli.js answers as the in-process runs: help, usage errors of main, of a command and of compare', async () => {
    const samples = [['--help'], ['help', 'check'], ['audit', '-h'], ['frobnicate'], ['help', 'toString'], ['filter', '--robots', 'a', '--agent', 'G', '--jobs', '0'], ['check', 'r.txt', '/a', '--agent', 'G', '--jsn'], ['compare', '--cases', 'nope']]
    for (const args of samples) {
      const [child, here] = await Promise.all([run(args), runInProcess(args)])
      expect({ ...here, stdout: here.stdout.toString() }, args.join(' ')).toEqual({ ...child, stdout: child.stdout.toString() })
    }
  })

  it('--version and -V print the program and package version, on every command', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    for (const args of [[], ['check'], ['filter'], ['lint'], ['pack'], ['diff'], ['audit'], ['compare'], ['playground']]) {
      for (const flag of ['--version', '-V']) {
        const r = await run([...args, flag])
        expect(r.status, `${args} ${flag}`).toBe(0)
        expect(r.stdout.toString()).toBe(`robots-automaton ${version}\n`)
        expect(r.stderr).toBe('')
      }
    }
  })

  it('--help, -h and help print the commands', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = await runInProcess(args)
      expect(r.status).toBe(0)
      expect(r.stdout.toString()).toMatch(/^Usage: robots-automaton <command>/)
      expect(r.stdout.toString()).toContain('filter')
      expect(r.stderr).toBe('')
    }
  })

  // The help texts themselves (options, examples, width): commands/help.test.ts.
  it.each(['check', 'filter', 'lint', 'pack', 'diff', 'audit', 'compare', 'playground'])('%s --help, -h and help', async (cmd) => {
    const outputs = new Set<string>()
    for (const args of [[cmd, '--help'], [cmd, '-h'], ['help', cmd]]) {
      const r = await runInProcess(args)
      expect(r.status).toBe(0)
      expect(r.stderr).toBe('')
      expect(r.stdout.toString()).toMatch(new RegExp(`^Usage: robots-automaton ${cmd} `))
      expect(r.stdout.toString()).toMatch(/\nEXAMPLES\n/)
      outputs.add(r.stdout.toString())
    }
    expect(outputs.size).toBe(1)
  })

  it("regression: 'help toString' (a name the command table inherits) crashed with a stack trace; 'help NAME' of no command is a usage error, as 'NAME' is", async () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'chek']) {
      const r = await runInProcess(['help', name])
      expect(r.status, name).toBe(2)
      expect(r.stdout.length, name).toBe(0)
      const alone = await runInProcess([name])
      expect(r.stderr, name).toBe(alone.stderr)
      expect(r.stderr, name).toMatch(new RegExp(`^robots-automaton: unknown command '${name}'(; did you mean 'check'\\?)? \\(commands: check, [^\\n]*\\)\\n$`))
    }
  })

  it('no arguments: one prefixed usage line on stderr, exit 2', async () => {
    const r = await run([])
    expect(r.status).toBe(2)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toBe("robots-automaton: missing command (commands: check, fetch, filter, lint, pack, diff, audit, compare, playground; see 'robots-automaton --help')\n")
  })
})

describe('usage errors (exit 2, one line)', () => {
  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['--frob'], "unknown option '--frob'"],
    [['check', '--agent', 'G'], 'check: missing ROBOTS'],
    [['check', '-', '--agent', 'G'], "check: '-' reads the robots.txt from stdin, so the URLs must be arguments"],
    [['check', 'r.txt', '--agent', 'G', '-', '/a', '-'], "check: stdin ('-') is named more than once"],
    [['check', 'r.txt', '/a'], "check: option '--agent' is required"],
    [['check', 'r.txt', '/a', '--agent'], "check: option '--agent' needs a value"],
    [['check', 'r.txt', '/a', '--agent', 'a', '--json', '--json'], "check: option '--json' is given more than once"],
    [['check', 'r.txt', '/a', '--agent', 'G', '--jsn'], "check: unknown option '--jsn'; did you mean '--json'? (see 'robots-automaton check --help')"],
    [['check', 'r.txt', '/a', '--agent', 'G', '--fromat', 'jsonl'], "check: unknown option '--fromat'; did you mean '--format'?"],
    [['check', 'r.txt', '/a', '--agent', 'G', '--json', '--format', 'text'], "check: '--json' is '--format jsonl': it cannot go with '--format text'"],
    [['filter', '--robot', 'a', '--agent', 'G'], "filter: unknown option '--robot'; did you mean '--robots'?"],
    [['filter', '--robots', 'a', '--agent', 'G', '--log-format', 'combine'], "filter: option '--log-format' must be one of common, combined, vhost_combined (got 'combine'); did you mean 'combined'?"],
    [['filter', '--robots', 'a', '--agent', 'G', '--invalid', 'skip'], "filter: option '--invalid' must be one of keep, drop, fail (got 'skip')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--log-format', 'combined', '--field', '7'], "filter: '--log-format' sets the columns: give it without '--field' and '--host-field'"],
    [['filter', '--robots', 'a', '--agent', 'G', '--host', 'a b'], "filter: option '--host' must be a host, host:port or an origin such as https://example.com (got 'a b')"],
    [['fitler', '--robots', 'a'], "unknown command 'fitler'; did you mean 'filter'?"],
    [['chek'], "unknown command 'chek'; did you mean 'check'?"],
    [['check', 'r.txt', '/a', '--agent', 'G', '--json=yes'], "check: option '--json' takes no value"],
    [['lint'], 'lint: missing ROBOTS'],
    [['lint', '-', 'b', '-'], "lint: stdin ('-') is named more than once"],
    [['lint', 'ftp://example.com/robots.txt'], "lint: only http(s) URLs are supported (ROBOTS is 'ftp://example.com/robots.txt')"],
    [['lint', '--agent', 'x', 'a'], "lint: unknown option '--agent'"],
    [['filter', '--agent', 'G'], "filter: one of '--robots', '--robots-dir' or '--bundle' is required"],
    [['filter', '--robots', 'a', '--robots-dir', 'b', '--agent', 'G'], "filter: only one of '--robots', '--robots-dir' and '--bundle' may be given"],
    [['filter', '--robots-dir', 'a', '--bundle', 'b', '--agent', 'G'], "filter: only one of '--robots', '--robots-dir' and '--bundle' may be given"],
    [['filter', '--robots', 'a'], "filter: option '--agent' is required"],
    [['filter', '--robots', 'a', '--agent', 'G', '--print', 'all'], "filter: option '--print' must be one of allowed, disallowed, verdicts (got 'all')"],
    [['filter', '--robots-dir', 'd', '--agent', 'G', '--missing', 'maybe'], "filter: option '--missing' must be one of allow, disallow (got 'maybe')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--missing', 'allow'], "filter: '--missing' applies only with '--robots-dir' or '--bundle'"],
    [['filter', '--robots', 'a', '--agent', 'G', '--cache-mb', '4'], "filter: '--cache-mb' applies only with '--robots-dir' or '--bundle'"],
    [['filter', '--robots-dir', 'd', '--agent', 'G', '--cache-mb', '-1'], "filter: option '--cache-mb' needs a value"],
    [['filter', '--robots-dir', 'd', '--agent', 'G', '--cache-mb', 'lots'], "filter: option '--cache-mb' must be an integer from 0 to 1048576 (got 'lots')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--jobs', '0'], "filter: option '--jobs' must be an integer from 1 to 256 (got '0')"],
    [['filter', '--robots', 'a', '--agent', 'G', '-j', '2.5'], "filter: option '--jobs' must be an integer from 1 to 256 (got '2.5')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--format', 'xml'], "filter: option '--format' must be one of text, jsonl, lines (got 'xml')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--format', 'json'], "filter: option '--format' must be one of text, jsonl, lines (got 'json'); did you mean 'jsonl'?"],
    [['lint', '--format', 'txt', 'a'], "lint: option '--format' must be one of text, jsonl (got 'txt'); did you mean 'text'?"],
    [['filter', '--robots', 'a', '--agent', 'G', '--field', '0'], "filter: option '--field' must be an integer from 1 to 1048576 (got '0')"],
    [['filter', '--robots', 'a', '--agent', 'G', '--host-field', '1'], "filter: '--host-field' needs '--field' (the URL column)"],
    [['filter', '--robots', 'a', '--agent', 'G', '--delimiter', ','], "filter: '--delimiter' needs '--field'"],
    [['filter', '--robots', 'a', '--agent', 'G', '--field', '2', '--delimiter', '::'], "filter: option '--delimiter' must be one byte, or '\\t' for a tab (got '::')"],
    [['pack', '-o', 'x'], 'pack: missing the input'],
    [['pack', 'd'], "pack: option '--output' ('-o') is required"],
    [['pack', '-', 'a', '-', '-o', 'x'], "pack: stdin ('-') is named more than once"],
    [['fetch', 'u.txt'], "fetch: option '--output' ('-o') is required"],
    [['fetch', '-o', 'x', '--connect-to', 'a:1:b'], "fetch: option '--connect-to' takes HOST1:PORT1:HOST2:PORT2, any of them empty (got 'a:1:b')"],
    [['fetch', '-o', 'x', '--format', 'text'], "fetch: option '--format' must be one of bundle, jsonl (got 'text')"],
    [['fetch', '-o', 'x', '--scheme', 'ftp'], "fetch: option '--scheme' must be one of https, http (got 'ftp')"],
    [['diff', 'a', '--agent', 'G'], 'diff: needs OLD and NEW'],
    [['diff', '--bundle', 'a', '--agent', 'G'], "diff: per-host rules need two sources, OLD then NEW ('--robots-dir' or '--bundle', twice; got 1)"],
    [['diff', 'a', 'b'], "diff: option '--agent' is required"],
    [['diff', '-', '-', '--agent', 'G', 'u'], "diff: only one of OLD and NEW can be stdin ('-')"],
    [['diff', '-', 'b', '--agent', 'G'], "diff: a robots.txt read from stdin ('-') means the URLs must come from FILE arguments"],
    [['filter', '--robots', '-', '--agent', 'G'], "filter: '--robots -' reads the robots.txt from stdin, so the URLs must come from FILE arguments"],
    [['filter', '--robots', '-', '--agent', 'G', 'a', '-'], "filter: '--robots -' reads the robots.txt from stdin"],
    [['filter', '--robots', 'a', '--agent', 'G', '-', '-'], "filter: stdin ('-') is named more than once"],
    [['playground', 'x'], "playground: takes no arguments (got 'x')"],
    [['playground', '--port', '70000'], "playground: option '--port' must be an integer from 0 to 65535 (got '70000')"],
    [['playground', '--port', 'http'], "playground: option '--port' must be an integer from 0 to 65535 (got 'http')"],
    [['playground', '--out', 'd', '--port', '1'], "playground: '--out' writes the files and serves nothing: it takes no '--port'"],
  ])('%j exits 2 with its one-line usage error', async (args, message) => {
    expectError(await runInProcess(args), 2, message)
  })

  it('a robots.txt URL that names no site (bad URL) is a usage error saying why, not a fetch that failed', async () => {
    expectError(await run(['check', 'http://exa mple.com/', '--agent', 'G', '/a']), 2, `ROBOTS 'http://exa mple.com/' cannot be fetched: it names no site: the host "exa mple.com" is refused: it holds a space, which no host name may hold`)
  })
})

describe('runtime errors (exit 1, one line naming the file)', () => {
  it('a missing robots.txt', async () => {
    expectError(await run(['check', tmp.path('nope.txt'), '--agent', 'G', '/a']), 1, `cannot read robots.txt '${tmp.path('nope.txt')}': no such file or directory`)
    expectError(await run(['lint', tmp.path('nope.txt')]), 1, `cannot read robots.txt '${tmp.path('nope.txt')}': no such file or directory`)
    expectError(
      await run(['filter', '--robots', tmp.path('nope.txt'), '--agent', 'G'], { input: '/a\n' }),
      1,
      `cannot read robots.txt '${tmp.path('nope.txt')}': no such file or directory`,
    )
  })

  it('a directory given as robots.txt', async () => {
    expectError(await run(['check', tmp.path('a-dir'), '--agent', 'G', '/a']), 1, `cannot read robots.txt '${tmp.path('a-dir')}': is a directory`)
    // lint reads a directory's files; an empty one has none.
    expectError(await run(['lint', tmp.path('a-dir')]), 1, `no file to lint under '${tmp.path('a-dir')}'`)
  })
})

describe('check', () => {
  it('prints verdict, URL and deciding rule per URL', async () => {
    const r = await run(['check', robotsPath, '--agent', 'Bingbot', 'https://x.com/private/a', 'https://x.com/private/ok', '/pub', ''])
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe(
      'disallowed\thttps://x.com/private/a\tline 2: Disallow: /private\n' +
        'allowed\thttps://x.com/private/ok\tline 3: Allow: /private/ok\n' +
        'allowed\t/pub\tno matching rule\n' +
        'allowed\t\tno matching rule\n',
    )
    expect(r.stderr).toBe('robots-automaton: 4 URLs checked: 3 allowed, 1 disallowed\n')
  })

  it('uses the crawler’s own group', async () => {
    const r = await run(['check', robotsPath, '--agent', 'googlebot', '-q', '/nogoogle/x', '/private'])
    expect(r.stdout.toString()).toBe('disallowed\t/nogoogle/x\tline 6: Disallow: /nogoogle\nallowed\t/private\tno matching rule\n')
    expect(r.stderr).toBe('')
  })

  it('--json writes one object per URL', async () => {
    const r = await run(['check', robotsPath, '--agent', 'Bingbot', '--json', '--quiet', '/private/x', '/'])
    expect(r.status).toBe(0)
    const lines = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines).toEqual([
      { url: '/private/x', allowed: false, rule: { line: 2, kind: 'disallow', pattern: '/private' } },
      { url: '/', allowed: true, rule: null },
    ])
  })

  it('reads ROBOTS from stdin with -', async () => {
    const r = await run(['check', '-', '--agent', 'Bingbot', '-q', '/private'], { input: ROBOTS })
    expect(r.stdout.toString()).toBe('disallowed\t/private\tline 2: Disallow: /private\n')
  })

  it('warns about an agent that is not a product token', async () => {
    const r = await run(['check', robotsPath, '--agent', 'Googlebot/2.1', '/nogoogle'])
    expect(r.status).toBe(0)
    expect(r.stderr).toContain("warning: --agent 'Googlebot/2.1' is not a product token")
    expect(r.stdout.toString()).toBe('allowed\t/nogoogle\tno matching rule\n')
  })

  it("the empty --agent's warning does not claim only '*' groups apply: a User-agent value read as empty names it", async () => {
    const file = tmp.path('empty-name.txt')
    writeFileSync(file, 'User-agent: 123\nDisallow: /\n\nUser-agent: *\nAllow: /\n')
    const r = await run(['check', file, '--agent=', '/x'])
    expect(r.stdout.toString()).toBe('disallowed\t/x\tline 2: Disallow: /\n')
    expect(r.stderr).toContain("warning: --agent '' is not a product token ([A-Za-z_-]+): the empty token names the groups whose User-agent value reads as empty")
    expect(r.stderr).not.toContain('matches no User-agent line')
    const two = await run(['check', file, '--agent=', '--agent', 'a/b', '-q', '/x'])
    expect(two.stdout.toString()).toBe('disallowed\t/x\tline 2: Disallow: /\n')
  })

  it('-- lets a URL start with a dash', async () => {
    const r = await run(['check', robotsPath, '--agent', 'G', '-q', '--', '-x'])
    expect(r.stdout.toString()).toBe('allowed\t-x\tno matching rule\n')
  })

  it('--exit-code: 0 when every URL is allowed, 3 when any is disallowed, 1 still a failure', async () => {
    const allowed = await run(['check', robotsPath, '--agent', 'Bingbot', '-q', '--exit-code', '/pub', '/private/ok'])
    expect(allowed.status).toBe(0)
    expect(allowed.stdout.toString()).toBe('allowed\t/pub\tno matching rule\nallowed\t/private/ok\tline 3: Allow: /private/ok\n')
    const some = await run(['check', robotsPath, '--agent', 'Bingbot', '-q', '--exit-code', '/pub', '/private/x'])
    expect(some.status).toBe(3)
    expect(some.stdout.toString()).toContain('disallowed\t/private/x\tline 2')
    const without = await run(['check', robotsPath, '--agent', 'Bingbot', '-q', '/private/x'])
    expect(without.status).toBe(0)
    const failed = await run(['check', tmp.path('missing.txt'), '--agent', 'Bingbot', '--exit-code', '/x'])
    expect(failed.status).toBe(1)
  })
})

describe('lint', () => {
  it('prints each diagnostic with its line, a summary, exit 1 on errors', async () => {
    const r = await run(['lint', badPath])
    expect(r.status).toBe(1)
    const out = r.stdout.toString().trimEnd().split('\n')
    expect(out.length).toBeGreaterThanOrEqual(3)
    expect(out[0]).toBe(`${badPath}:1: error: rule before any User-agent line; ignored [rule-outside-group]`)
    for (const line of out) expect(line).toMatch(new RegExp(`^${badPath.replace(/[.]/g, '\\.')}(:\\d+)?: (error|warning|info): .+ \\[[a-z0-9-]+\\]$`))
    expect(out.some((l) => l.startsWith(`${badPath}:3: error:`))).toBe(true)
    expect(r.stderr).toMatch(new RegExp(`^robots-automaton: ${badPath.replace(/[.]/g, '\\.')}: \\d+ errors?, \\d+ warnings?, \\d+ infos?; 4 lines, \\d+ bytes\\n$`))
  })

  it('exits 0 for a clean file', async () => {
    const r = await run(['lint', robotsPath])
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe('')
    expect(r.stderr).toMatch(/0 errors, 0 warnings, 0 infos/)
  })

  it('--json writes one report object', async () => {
    const r = await run(['lint', '--json', '-q', badPath])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe('')
    const report = JSON.parse(r.stdout.toString())
    expect(report.source).toBe(badPath)
    expect(report.errors).toBeGreaterThanOrEqual(2)
    expect(report.diagnostics[0]).toEqual({
      line: 1,
      code: 'rule-outside-group',
      severity: 'error',
      message: 'rule before any User-agent line; ignored',
    })
    expect(report).toMatchObject({ lines: 4, truncated: false, bytes: Buffer.byteLength(BAD_ROBOTS) })
  })

  it('reads stdin with -', async () => {
    const r = await run(['lint', '-'], { input: BAD_ROBOTS })
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toMatch(/^<stdin>:1: error: /)
  })

  it('reports a body over the parsing limit as truncated', async () => {
    const big = tmp.path('big.txt')
    writeFileSync(big, `User-agent: *\n${'Disallow: /abcdefghij\n'.repeat(30000)}`)
    const r = await run(['lint', '--json', big])
    const report = JSON.parse(r.stdout.toString())
    expect(report.truncated).toBe(true)
    expect(report.bytes).toBeLessThanOrEqual(512000)
    expect(r.stderr).toContain('(truncated at the parsing limit)')
  })
})

describe('ROBOTS as an http(s) URL', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  it('fetches /robots.txt of the origin', async () => {
    server.handler = reply(200, ROBOTS)
    server.reset()
    const r = await run(['check', `${server.origin}/some/page`, '--agent', 'Bingbot', '/private/x'])
    expect(r.status).toBe(0)
    expect(server.requests).toEqual(['/robots.txt'])
    expect(r.stdout.toString()).toBe('disallowed\t/private/x\tline 2: Disallow: /private\n')
    expect(r.stderr).toContain(`${server.origin}/robots.txt: ok: HTTP 200`)
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    expect(server.headers[0]['user-agent']).toBe(`robots-automaton/${version}`)
  })

  it('4xx: unavailable, everything allowed', async () => {
    server.handler = reply(404, 'nope')
    const r = await run(['check', server.origin, '--agent', 'Bingbot', '/private/x'])
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toBe('allowed\t/private/x\tno matching rule\n')
    expect(r.stderr).toContain('unavailable, allow all: HTTP 404')
  })

  it('5xx: unreachable, everything disallowed (with --stand-in)', async () => {
    server.handler = reply(503, 'busy')
    const r = await run(['filter', '--robots', server.origin, '--stand-in', '--agent', 'Bingbot', '--print', 'verdicts'], { input: '/a\n/b\n' })
    expect(r.status).toBe(0)
    expect(r.stdout.toString()).toMatch(/^disallowed\t\d+\t\/a\ndisallowed\t\d+\t\/b\n$/)
    expect(r.stderr).toContain('unreachable, disallow all: HTTP 503')
  })

  it('lint on a URL', async () => {
    server.handler = reply(200, BAD_ROBOTS)
    const r = await run(['lint', `${server.origin}/`])
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toContain(`${server.origin}/robots.txt:1: error:`)
  })
})
