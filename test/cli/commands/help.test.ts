/**
 * Every command's --help, man-page style: printed on stdout with exit 0,
 * lines of at most 80 columns, every option of the command's parser named
 * and no other, and at the end an EXAMPLES section of two or three examples,
 * each a `# comment` and a command line of that command.
 *
 * Each example is then checked twice:
 * - through the command's argument parser (parseArgs with the command's
 *   exported option spec): every example, without a usage error;
 * - through the built CLI, run as written by `sh -c` in a folder of fixtures
 *   named as the examples name their files (robots.txt, urls.txt, robots/,
 *   access.log, other_vhosts_access.log, ... made from corpus/), with `robots-automaton` on PATH as a
 *   shim for `node dist/cli.js`: every example except those whose ROBOTS is
 *   an http(s) URL, which would reach the network, so stay parser-only;
 *   `playground` serving the page runs until it prints its address, the page
 *   is fetched from it, and SIGTERM must stop it with exit 0.
 *   `fetch` examples run too: the shim adds `--connect-to ::127.0.0.1:PORT`,
 *   so every connection goes to a server the test starts (corpus/robots by
 *   Host header, 404 otherwise; https gets no TLS there, so is unreachable).
 */
import { spawn } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_HELP } from '../../../src/cli/commands/audit-help.js'
import { AUDIT_OPTIONS } from '../../../src/cli/commands/audit.js'
import { CHECK_HELP } from '../../../src/cli/commands/check-help.js'
import { CHECK_OPTIONS } from '../../../src/cli/commands/check.js'
import { COMPARE_HELP } from '../../../src/cli/commands/compare-help.js'
import { COMPARE_OPTIONS } from '../../../src/cli/commands/compare.js'
import { DIFF_HELP } from '../../../src/cli/commands/diff-help.js'
import { DIFF_OPTIONS } from '../../../src/cli/commands/diff.js'
import { FETCH_HELP } from '../../../src/cli/commands/fetch-help.js'
import { FETCH_OPTIONS } from '../../../src/cli/commands/fetch.js'
import { FILTER_HELP } from '../../../src/cli/commands/filter-help.js'
import { FILTER_OPTIONS } from '../../../src/cli/commands/filter.js'
import { LINT_HELP } from '../../../src/cli/commands/lint-help.js'
import { LINT_OPTIONS } from '../../../src/cli/commands/lint.js'
import { PACK_HELP } from '../../../src/cli/commands/pack-help.js'
import { PACK_OPTIONS } from '../../../src/cli/commands/pack.js'
import { PLAYGROUND_HELP } from '../../../src/cli/commands/playground-help.js'
import { PLAYGROUND_OPTIONS } from '../../../src/cli/commands/playground.js'
import { parseArgs, type OptionSpec, type ParsedArgs } from '../../../src/cli/common/args.js'
import { MAIN_HELP } from '../../../src/cli/main-help.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { startServer, type TestServer } from '../../fetch/server.js'

const PROGRAM = 'robots-automaton'
// fetch last: its examples write robots.bundle, which the others read.
const COMMANDS = ['check', 'filter', 'lint', 'pack', 'diff', 'audit', 'compare', 'playground', 'fetch'] as const
type Command = (typeof COMMANDS)[number]

const HELP: Record<Command, string> = {
  audit: AUDIT_HELP,
  check: CHECK_HELP,
  fetch: FETCH_HELP,
  filter: FILTER_HELP,
  lint: LINT_HELP,
  pack: PACK_HELP,
  diff: DIFF_HELP,
  compare: COMPARE_HELP,
  playground: PLAYGROUND_HELP,
}
const SPEC: Record<Command, readonly OptionSpec[]> = {
  audit: AUDIT_OPTIONS,
  check: CHECK_OPTIONS,
  fetch: FETCH_OPTIONS,
  filter: FILTER_OPTIONS,
  lint: LINT_OPTIONS,
  pack: PACK_OPTIONS,
  diff: DIFF_OPTIONS,
  compare: COMPARE_OPTIONS,
  playground: PLAYGROUND_OPTIONS,
}

/** Exit statuses an example may end with when it runs well (3: a verdict; 1 from lint: errors found in the corpus). */
const OK_STATUS: Record<Command, readonly number[]> = { audit: [0, 3], check: [0, 3], fetch: [0], filter: [0], lint: [0, 1], pack: [0], diff: [0, 3], compare: [0], playground: [0] }

/** One example of a help: its comment and its command line (continuation lines joined). */
interface Example {
  readonly comment: string
  readonly line: string
}

/** The EXAMPLES section, which must be the help's last: `# comment` lines, each followed by a command (lines ending in `\` continue). */
function examplesOf(help: string): Example[] {
  const lines = help.trimEnd().split('\n')
  const at = lines.indexOf('EXAMPLES')
  if (at < 0) throw new Error('no EXAMPLES section')
  const out: { comment: string; line: string }[] = []
  let continued = false
  for (const raw of lines.slice(at + 1)) {
    if (raw.trim() === '') {
      if (continued) throw new Error('a continued line ends the section')
      continue
    }
    if (!raw.startsWith('  ')) throw new Error(`a section after EXAMPLES: '${raw}'`)
    const text = raw.trim()
    if (!continued && text.startsWith('# ')) {
      out.push({ comment: text.slice(2), line: '' })
      continue
    }
    const last = out.at(-1)
    if (last === undefined) throw new Error(`an example without a comment: '${raw}'`)
    if (last.line !== '' && !continued) throw new Error(`an example of two commands, or two comments missing: '${raw}'`)
    continued = text.endsWith('\\')
    last.line += (last.line === '' ? '' : ' ') + (continued ? text.slice(0, -1).trimEnd() : text)
  }
  return out
}

/** Shell words of a command line: quotes ('…', "…") and backslashes as sh reads them; `|`, `<`, `>` stay words of their own. */
function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === ' ') {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1)
      if (end < 0) throw new Error(`unbalanced quote in '${line}'`)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '\\') {
      word = (word ?? '') + line[++i]
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

/** The arguments an example passes to its command: the words after `robots-automaton COMMAND`, up to a redirection or pipe. */
function argumentsOf(line: string): { command: string; args: string[] } {
  const words = shellWords(line)
  expect(words[0], line).toBe(PROGRAM)
  const end = words.findIndex((w, i) => i > 1 && ['|', '<', '>', '>>', '&&', ';'].includes(w))
  return { command: words[1], args: words.slice(2, end < 0 ? undefined : end) }
}

/** The robots.txt sources an example would fetch: its ROBOTS arguments that are http(s) URLs. */
function fetched(command: Command, parsed: ParsedArgs): string[] {
  const p = parsed.positionals
  // fetch reaches only the test's server (the shim's --connect-to).
  const robots = { check: p.slice(0, 1), diff: p.slice(0, 2), lint: p, filter: [parsed.options.get('robots')], fetch: [], audit: [], pack: [], compare: [], playground: [] }[command]
  return robots.filter((s): s is string => typeof s === 'string' && /^https?:/i.test(s))
}

/**
 * The options a help names: every `--name` and every `-x` (a dash, one
 * letter), except inside a quoted command line of another command or
 * template (`'filter --bundle'`, `'tail -f'`,
 * `--cmd '... check ... --agent=...'`).
 */
function namedOptions(help: string): { long: Set<string>; short: Set<string> } {
  const text = help.replace(/'(?:\.\/\S+|node|sh|tail|robots-automaton|check|filter|lint|pack|diff|audit|fetch|compare|playground)\b[^'\n]*'/g, "''")
  return {
    long: new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1])),
    short: new Set([...text.matchAll(/(?<![\w-])-([a-zA-Z])(?![\w-])/g)].map((m) => m[1])),
  }
}

describe('--help of each command', () => {
  it.each(COMMANDS)('%s --help: exit 0, the help on stdout, nothing on stderr', async (command) => {
    ensureBuilt()
    const r = await run([command, '--help'])
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout.toString()).toBe(HELP[command])
    expect(HELP[command]).toMatch(new RegExp(`^Usage: ${PROGRAM} ${command} `))
  })

  it.each([...COMMANDS, 'main'] as const)('%s: lines of at most 80 columns, no tab, one trailing newline', (command) => {
    const help = command === 'main' ? MAIN_HELP : HELP[command]
    for (const line of help.split('\n')) {
      expect(line.length, line).toBeLessThanOrEqual(80)
      expect(line).not.toMatch(/\t|\s$/)
    }
    expect(help).toMatch(/[^\n]\n$/)
  })

  it.each(COMMANDS)('%s: names every option its parser accepts, and no other', (command) => {
    const spec = SPEC[command]
    const { long, short } = namedOptions(HELP[command])
    expect([...long].sort()).toEqual(spec.map((s) => s.name).sort())
    expect([...short].sort()).toEqual(spec.flatMap((s) => (s.short === undefined ? [] : [s.short])).sort())
    // A short option is listed with its long name.
    for (const s of spec) if (s.short !== undefined) expect(HELP[command]).toContain(`  -${s.short}, --${s.name} `)
  })

  it.each(COMMANDS)('%s: ends with EXAMPLES, 2 or 3 of them, each a comment and a command line of that command', (command) => {
    const examples = examplesOf(HELP[command])
    expect(examples.length).toBeGreaterThanOrEqual(2)
    expect(examples.length).toBeLessThanOrEqual(3)
    for (const e of examples) {
      expect(e.comment).not.toBe('')
      expect(e.line).not.toBe('')
      expect(argumentsOf(e.line).command, e.line).toBe(command)
    }
  })
})

const EXAMPLES = COMMANDS.flatMap((command) =>
  examplesOf(HELP[command]).map((e, i) => {
    const { args } = argumentsOf(e.line)
    let parsed: ParsedArgs | undefined
    try {
      parsed = parseArgs(args, SPEC[command])
    } catch {
      // Reported by the parser test below.
    }
    const urls = parsed === undefined ? [] : fetched(command, parsed)
    const how = urls.length > 0 ? `parser only: it would fetch ${urls.join(', ')}` : 'run on the fixtures'
    return { command, n: i + 1, line: e.line, args, urls, how }
  }),
)

describe('each example parses', () => {
  it.each(EXAMPLES)('$command example $n: the arguments of $line', ({ command, args }) => {
    expect(() => parseArgs(args, SPEC[command])).not.toThrow()
  })
})

describe('each example runs on the corpus (those that fetch a robots.txt stay parser-only)', () => {
  let tmp: ReturnType<typeof tempDir>
  let fixtures: string
  let path: string
  let server: TestServer

  beforeAll(async () => {
    ensureBuilt()
    server = await startServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      let body: Buffer | undefined
      try {
        if (/^[a-z0-9.-]+$/.test(host) && req.url === '/robots.txt') body = readFileSync(join(ROOT, 'corpus/robots', host))
      } catch {
        body = undefined
      }
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' })
      res.end(body)
    })
    tmp = tempDir()
    fixtures = tmp.path('examples')
    const bin = tmp.path('bin')
    mkdirSync(fixtures)
    mkdirSync(bin)
    const executable = (file: string, text: string): void => {
      writeFileSync(file, text)
      chmodSync(file, 0o755)
    }
    const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`
    // fetch connects only to the test's server.
    executable(
      join(bin, PROGRAM),
      `#!/bin/sh\nif [ "$1" = fetch ]; then shift; exec ${q(process.execPath)} ${q(CLI)} fetch --connect-to ${q(`::127.0.0.1:${server.port}`)} "$@"; fi\n` +
        `case " $* " in *" --fetch "*) if [ "$1" = audit ]; then shift; exec ${q(process.execPath)} ${q(CLI)} audit --connect-to ${q(`::127.0.0.1:${server.port}`)} "$@"; fi;; esac\n` +
        `exec ${q(process.execPath)} ${q(CLI)} "$@"\n`,
    )
    path = `${bin}:${process.env.PATH ?? ''}`

    const corpus = join(ROOT, 'corpus')
    const robots = readFileSync(join(corpus, 'robots/www.abebooks.com'), 'utf8')
    const urls = readFileSync(join(corpus, 'urls.txt'))
    const fixture = (name: string, data: string | Uint8Array): void => writeFileSync(join(fixtures, name), data)
    fixture('robots.txt', robots)
    // An edit: Googlebot loses everything its group does not allow.
    fixture('robots.txt.new', robots.replace(/^User-agent: Googlebot\n/m, 'User-agent: Googlebot\nDisallow: /\n'))
    fixture('urls.txt', urls)
    fixture('urls.txt.gz', gzipSync(urls))
    symlinkSync(join(corpus, 'robots'), join(fixtures, 'robots'))
    // vhost_combined (Debian's other_vhosts_access.log): host:port in column 1, the request in column 6.
    const log = urls
      .toString()
      .split('\n')
      .filter((u) => u !== '')
      .map((u, i) => {
        const url = new URL(u)
        return `${url.host}:443 192.0.2.${i % 250} - - [23/Nov/2026:10:00:00 +0000] "GET ${url.pathname}${url.search} HTTP/1.1" 200 512 "-" "Mozilla/5.0"\n`
      })
    fixture('other_vhosts_access.log', log.join(''))
    // combined: the same requests of one site, without the vhost column.
    fixture('access.log', log.map((l) => l.slice(l.indexOf(' ') + 1)).join(''))
    const fetchedLines = readdirSync(join(corpus, 'robots')).map((host) => `${JSON.stringify({ origin: host, body: readFileSync(join(corpus, 'robots', host), 'utf8') })}\n`)
    fixture('fetched.jsonl.gz', gzipSync(fetchedLines.join('')))
    const bundle = await run(['pack', join(corpus, 'robots'), '-o', join(fixtures, 'robots.bundle'), '-q'])
    expect(bundle.status, bundle.stderr).toBe(0)
    // Two workers' bundles to merge: half of the corpus each.
    const hosts = readdirSync(join(corpus, 'robots'))
    for (const [n, part] of [hosts.filter((_h, i) => i % 2 === 0), hosts.filter((_h, i) => i % 2 === 1)].entries()) {
      const jsonl = part.map((host) => `${JSON.stringify({ origin: host, body: readFileSync(join(corpus, 'robots', host), 'utf8') })}\n`).join('')
      fixture(`part-${n + 1}.jsonl`, jsonl)
      const packed = await run(['pack', join(fixtures, `part-${n + 1}.jsonl`), '-o', join(fixtures, `part-${n + 1}.bundle`), '-q'])
      expect(packed.status, packed.stderr).toBe(0)
    }
    // A bundle and its refresh, where one host's file changed, and a frontier of URLs (diff --bundle).
    cpSync(join(fixtures, 'robots.bundle'), join(fixtures, 'old.bundle'))
    const fresh = tmp.path('robots-new')
    cpSync(join(corpus, 'robots'), fresh, { recursive: true, dereference: true })
    writeFileSync(join(fresh, 'www.abebooks.com'), robots.replace(/^User-agent: Googlebot\n/m, 'User-agent: Googlebot\nDisallow: /\n'))
    const refreshed = await run(['pack', fresh, '-o', join(fixtures, 'new.bundle'), '-q'])
    expect(refreshed.status, refreshed.stderr).toBe(0)
    fixture('frontier.txt.gz', gzipSync(urls))
    // audit's crawler list and host list (fetched from the test's server).
    fixture('ai-crawlers.txt', '# AI crawlers\nGPTBot\nCCBot\nClaudeBot\nGoogle-Extended\nGooglebot-Image+Googlebot\n')
    fixture('hosts.txt', hosts.slice(0, 6).join('\n') + '\nhttp://www.abebooks.com/\n')

    // compare's implementations under test: this library, as module, batch process and per-case tool.
    const library = pathToFileURL(join(ROOT, 'dist/index.js')).href
    fixture(
      'adapter.mjs',
      `import { parseRobots } from '${library}'\n` +
        'export function parse(bytes) {\n' +
        '  const robots = parseRobots(bytes)\n' +
        '  return { isAllowed: (url, agent) => robots.agent(agent).isAllowed(url), matchingLine: (url, agent) => robots.agent(agent).explain(url).rule?.line ?? 0 }\n' +
        '}\n',
    )
    fixture('batch-adapter.mjs', readFileSync(join(ROOT, 'examples/adapters/robots-automaton-batch.mjs'), 'utf8').replace("from 'robots-automaton'", `from '${library}'`))
    fixture('batch-protocol.mjs', readFileSync(join(ROOT, 'examples/adapters/batch-protocol.mjs'), 'utf8'))
    // Exit 0 allowed, 1 disallowed, as compare --cmd expects by default (check --exit-code gives 3).
    executable(join(fixtures, 'mytool'), `#!/bin/sh\n${PROGRAM} check "$1" --agent="$3" --exit-code -q -- "$2"\nstatus=$?\n[ $status -eq 3 ] && exit 1\nexit $status\n`)
    cpSync(join(ROOT, 'test/data/spec-test'), join(fixtures, 'robotstxt-spec-test'), { recursive: true })
    fixture('adapters.json', JSON.stringify({ adapters: [{ name: 'module', module: './adapter.mjs' }, { name: 'batch', batch: 'node batch-adapter.mjs' }] }))
  })
  afterAll(async () => {
    tmp.cleanup()
    await server.close()
  })

  /**
   * Runs a `playground` example that serves the page: waits for the address
   * on stdout (however long a busy machine takes), fetches the page from it,
   * then stops the server with SIGTERM. Resolves to the exit status, what
   * stdout said, and the page's status and start.
   */
  function serveExample(line: string): Promise<{ status: number | null; stdout: string; stderr: string; page: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `exec ${line}`], { cwd: fixtures, env: { ...process.env, PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      let page = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString()
        if (!stdout.includes('\n') || page !== '') return
        page = 'fetching'
        fetch(stdout.trim())
          .then(async (res) => (page = `${res.status} ${(await res.text()).slice(0, 15)}`))
          .catch((err: unknown) => (page = `failed: ${String(err)}`))
          .finally(() => child.kill('SIGTERM'))
      })
      child.on('error', reject)
      child.on('close', (status) => resolve({ status, stdout, stderr, page }))
    })
  }

  /** Runs one command line with sh in the fixture folder. */
  function shell(line: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', line], { cwd: fixtures, env: { ...process.env, PATH: path, ROBOTS_AUTOMATON_PROGRESS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
      const out: Buffer[] = []
      const err: Buffer[] = []
      child.stdout.on('data', (c: Buffer) => out.push(c))
      child.stderr.on('data', (c: Buffer) => err.push(c))
      child.on('error', reject)
      child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }))
    })
  }

  it('some example of each command runs (not every one fetches)', () => {
    for (const command of COMMANDS) expect(EXAMPLES.some((e) => e.command === command && e.urls.length === 0), command).toBe(true)
  })

  it.each(EXAMPLES)('$command example $n ($how): $line', async ({ command, line, urls }) => {
    // An example that names an http(s) robots.txt would reach the network: the parser test above is its check.
    if (urls.length > 0) return
    if (command === 'playground' && !/ (--out|-o) /.test(line)) {
      const s = await serveExample(line)
      expect(s.status, s.stderr).toBe(0)
      expect(s.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\n$/)
      expect(s.page).toBe('200 <!doctype html>')
      return
    }
    const r = await shell(line)
    expect(OK_STATUS[command], `status ${r.status}: ${r.stderr}`).toContain(r.status)
    expect(r.stderr).not.toMatch(/--help'\)$/m)
    expect(r.stderr).not.toMatch(/cannot read|no such file/)
    // compare: every implementation of the examples is this library, so the run passes (a matrix: every cell is 100.0).
    if (command === 'compare') {
      expect(r.stdout).toMatch(line.includes('--matrix') ? /^Leaderboard: [^]*^1 +module +– +100\.0 +(?:100\.0|–) +0\.0 +[\d.]+ +100\.0 +(?:100\.0|–) +0\.0 +[\d.]+$/m : /100\.00% agreement with the reference on .*: passed/)
    }
  })
})
