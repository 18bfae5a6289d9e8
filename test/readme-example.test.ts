/**
 * The README's examples run as written, against the built package (dist/).
 *
 * Convention (README.md): an example block is the fenced code block right
 * after an HTML comment `<!-- example: NAME -->`. The blocks are:
 *
 * - `library`: an ES module that imports from `robots-automaton` (or
 *   `robots-automaton/<entry>`). The test points those imports at
 *   dist/index.js (dist/<entry>.js), runs the module with node and compares
 *   what it prints with the block `library output`, line for line. It must
 *   stay "five lines": at most five lines besides imports and blank lines.
 * - `recipe`: shell commands, one per line (`#` lines are comments). The test
 *   runs each with `sh -c` in a fresh temporary directory, where
 *   `robots-automaton` is a shim for `node dist/cli.js` (first on PATH), and
 *   where the recipe's relative paths hold the bundled corpus, and no
 *   robots.txt file:
 *     urls.txt    a copy of corpus/urls.txt
 *     access.log  the same URLs as an Apache vhost_combined log, made here:
 *                 `host:80 client - - [date] "GET path HTTP/1.1" 200 …`
 *                 (the vhost in column 1, the quoted request line in column 6)
 *   Every command must exit 0; the files it writes are checked against what
 *   the README says of them, and the lines the block `recipe output
 *   verdicts.tsv` shows must be lines of verdicts.tsv. Every command that
 *   reads access.log names its --log-format (read as a URL list, a log
 *   names no host). "Later" comes before the refresh (`fetch --update`):
 *   the test marks the bundle's entries expired, as a day would, so the
 *   refresh, run as written, must send a conditional request for every
 *   host, and keep the rules of those answered 304.
 *
 * Nothing reaches the network: the recipe's commands may not name an http(s)
 * URL, and the shim gives `fetch` `--connect-to ::127.0.0.1:PORT`, so every
 * connection goes to a server this test starts on 127.0.0.1, which answers
 * for every host of the corpus with its file in corpus/robots/ (404 for the
 * others; an ETag, so that a refresh can be answered 304). The log says port
 * 80 on every line: that server speaks plain HTTP.
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIfStale, ROOT } from './support/build.js'
import { startServer, type TestServer } from './fetch/server.js'

const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8')

/** The fenced block right after `<!-- example: NAME -->`. */
function exampleBlock(name: string): { lang: string; code: string } {
  const marker = `<!-- example: ${name} -->`
  const at = README.indexOf(marker)
  if (at < 0) throw new Error(`README.md has no ${marker}`)
  const m = /^\s*(`{3,}|~{3,})([^\n]*)\n([\s\S]*?)\n\1[ \t]*(?:\n|$)/.exec(README.slice(at + marker.length))
  if (!m) throw new Error(`README.md: ${marker} is not followed by a fenced code block`)
  return { lang: m[2].trim(), code: m[3] }
}

const lines = (text: string) => text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1)

beforeAll(() => {
  buildIfStale()
})

describe('README: the first screen', () => {
  it('starts with the two commands for a fresh clone, and stays one page', () => {
    const first = /^# [^\n]+\n\n```sh\n([\s\S]*?)\n```/.exec(README)
    expect(first, 'a title, then a sh block').not.toBeNull()
    const commands = (first as RegExpExecArray)[1].split('\n').map((l) => l.replace(/\s+#.*$/, '').trim())
    expect(commands).toEqual(['npm install && npm start', 'npm test'])
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(15_000)
  })
})

describe('README: the library example', () => {
  const example = exampleBlock('library')

  it('is an ES module of at most five lines besides its imports', () => {
    expect(['js', 'mjs', 'javascript', 'ts', 'typescript']).toContain(example.lang)
    const body = example.code.split('\n').filter((l) => l.trim() !== '' && !/^\s*import\s/.test(l))
    expect(body.length).toBeLessThanOrEqual(5)
    expect(example.code).toMatch(/from 'robots-automaton'/)
  })

  it('prints what the README says it prints, run against dist/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-library-'))
    try {
      const code = example.code.replace(/from\s+(['"])robots-automaton(\/[a-z]+)?\1/g, (_m, _q: string, entry?: string) => {
        const file = resolve(ROOT, `dist/${entry ? entry.slice(1) : 'index'}.js`)
        expect(existsSync(file), file).toBe(true)
        return `from ${JSON.stringify(pathToFileURL(file).href)}`
      })
      expect(code, 'every import is of robots-automaton').not.toMatch(/from\s+['"](?!file:)/)
      const file = join(dir, 'example.mjs')
      writeFileSync(file, code)
      const run = spawnSync(process.execPath, [file], { encoding: 'utf8' })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      expect(lines(run.stdout)).toEqual(lines(exampleBlock('library output').code))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('README: the filtering recipe', () => {
  const recipe = exampleBlock('recipe')
  const commands = recipe.code.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
  let dir = ''
  let server: TestServer
  /** The hosts the server was asked for, per request, and whether the request was conditional. */
  const asked: { host: string; conditional: boolean }[] = []
  /** Where the refresh's requests start in `asked`. */
  let refreshFrom = -1
  const results: { command: string; status: number | null; stderr: string }[] = []
  const file = (name: string) => readFileSync(join(dir, name), 'utf8')
  const corpusRobots = resolve(ROOT, 'corpus/robots')

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      asked.push({ host, conditional: req.headers['if-none-match'] !== undefined })
      const body = /^[a-z0-9.-]+$/.test(host) && existsSync(join(corpusRobots, host)) ? readFileSync(join(corpusRobots, host)) : undefined
      const etag = `"${host}"`
      if (body !== undefined && req.headers['if-none-match'] === etag) res.writeHead(304, { etag })
      else res.writeHead(body === undefined ? 404 : 200, body === undefined ? {} : { 'content-type': 'text/plain', etag })
      res.end(body)
    })
    dir = mkdtempSync(join(tmpdir(), 'readme-recipe-'))
    // The shim: `robots-automaton` runs the built CLI; `fetch` connects only to the server above.
    const bin = join(dir, '.bin')
    mkdirSync(bin)
    const shim = join(bin, 'robots-automaton')
    const node = `${JSON.stringify(process.execPath)} ${JSON.stringify(resolve(ROOT, 'dist/cli.js'))}`
    writeFileSync(shim, `#!/bin/sh\nif [ "$1" = fetch ]; then shift; exec ${node} fetch --connect-to ::127.0.0.1:${server.port} "$@"; fi\nexec ${node} "$@"\n`)
    chmodSync(shim, 0o755)
    // The inputs the recipe names, and no robots.txt file.
    const urls = readFileSync(resolve(ROOT, 'corpus/urls.txt'), 'utf8')
    writeFileSync(join(dir, 'urls.txt'), urls)
    writeFileSync(join(dir, 'access.log'), accessLog(urls))
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, ROBOTS_AUTOMATON_PROGRESS: '0' }
    const { RobotsStore } = (await import(pathToFileURL(resolve(ROOT, 'dist/index.js')).href)) as typeof import('../src/index.js')
    for (const command of commands) {
      if (/ fetch --update /.test(command)) {
        // Later: every entry has expired (as a day would make them); what a refresh asks is logged from here.
        const path = join(dir, 'robots.bundle')
        const old = RobotsStore.fromBytes(readFileSync(path))
        const aged = new RobotsStore()
        for (const key of old.keys()) {
          const info = { ...old.fetchInfo(key)!, expiresAt: Date.now() - 1 }
          const source = old.source(key)
          if (source === 'robots') aged.setRobots(key, old.get(key)!, info)
          else aged.setOutcome(key, source as 'unavailable' | 'unreachable', info)
        }
        writeFileSync(path, aged.toBytes())
        refreshFrom = asked.length
      }
      // Asynchronously: the server answers from this process.
      results.push(await new Promise((done) => {
        const child = spawn('sh', ['-c', command], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] })
        let stderr = ''
        child.stderr.on('data', (c: Buffer) => (stderr += c))
        child.on('close', (status) => done({ command, status, stderr }))
      }))
    }
  })

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    await server?.close()
  })

  it('is a sh block of robots-automaton commands on local files only', () => {
    expect(recipe.lang).toBe('sh')
    expect(commands.length).toBeGreaterThan(0)
    for (const c of commands) {
      expect(c).toMatch(/^robots-automaton /)
      expect(c, 'no network in the tests').not.toMatch(/https?:\/\//)
    }
  })

  it('every command exits 0 and writes its summary to stderr', () => {
    expect(results.map((r) => r.command)).toEqual(commands)
    for (const r of results) {
      expect(r.status, `${r.command}\n${r.stderr}`).toBe(0)
      const stderr = r.stderr.split('\n').filter((l) => l !== '')
      expect(stderr.length, r.command).toBeGreaterThan(0)
      for (const l of stderr) expect(l, r.command).toMatch(/^robots-automaton: /)
    }
  })

  it('every command that reads the log names its format', () => {
    const readers = commands.filter((c) => /\baccess\.log\b/.test(c))
    expect(readers.length).toBeGreaterThanOrEqual(3)
    for (const c of readers) expect(c).toMatch(/ --log-format vhost_combined /)
  })

  it('fetch writes the bundle from the log alone, asking each host once', () => {
    expect(commands[0]).toMatch(/^robots-automaton fetch .*access\.log -o robots\.bundle$/)
    expect(existsSync(join(dir, 'robots'))).toBe(false)
    expect(statSync(join(dir, 'robots.bundle')).size).toBeGreaterThan(0)
    const hosts = new Set(lines(file('urls.txt')).map((u) => new URL(u).hostname))
    expect(asked.slice(0, refreshFrom).map((a) => a.host).sort()).toEqual([...hosts].sort())
    expect(results[0].stderr).toMatch(new RegExp(`${hosts.size} origins fetched in .*: \\d+ ok, \\d+ unavailable; wrote robots\\.bundle: ${hosts.size} entries`))
  })

  // Step 5 left out --log-format: the log was read as a URL list, "0 origins fetched", exit 0, nothing refreshed.
  it('the refresh as written (step 5) asks every expired host again, conditionally, and keeps the rules of a 304', () => {
    const hosts = new Set(lines(file('urls.txt')).map((u) => new URL(u).hostname))
    const update = results.find((r) => / fetch --update /.test(r.command))!
    expect(update.status, update.stderr).toBe(0)
    const refresh = asked.slice(refreshFrom)
    expect(refresh.map((a) => a.host).sort()).toEqual([...hosts].sort())
    // Every host with a file got its ETag back; every other one (404) had none to send.
    const withFile = refresh.filter((a) => existsSync(join(corpusRobots, a.host)))
    expect(withFile.length).toBeGreaterThan(0)
    for (const a of refresh) expect(a.conditional, a.host).toBe(withFile.includes(a))
    expect(update.stderr).toMatch(new RegExp(`${hosts.size} origins fetched in .*: ${withFile.length} not modified, ${hosts.size - withFile.length} unavailable; wrote robots\\.bundle: ${hosts.size} entries`))
  })

  it('allowed.txt: the allowed URLs, byte for byte, in input order; verdicts.tsv: every URL with its verdict and rule line', () => {
    const urls = lines(file('urls.txt'))
    const allowed = lines(file('allowed.txt'))
    const verdicts = lines(file('verdicts.tsv')).map((l) => {
      const m = /^(allowed|disallowed)\t(\d+)\t(.*)$/.exec(l)
      expect(m, l).not.toBeNull()
      return { allowed: (m as RegExpExecArray)[1] === 'allowed', line: Number((m as RegExpExecArray)[2]), url: (m as RegExpExecArray)[3] }
    })
    expect(verdicts.map((v) => v.url)).toEqual(urls)
    expect(allowed).toEqual(verdicts.filter((v) => v.allowed).map((v) => v.url))
    // The corpus has both kinds, and a disallowed URL always has a deciding rule.
    expect(allowed.length).toBeGreaterThan(0)
    expect(allowed.length).toBeLessThan(urls.length)
    for (const v of verdicts) if (!v.allowed) expect(v.line, v.url).toBeGreaterThan(0)
  })

  it('verdicts.tsv holds the lines the README shows', () => {
    const shown = lines(exampleBlock('recipe output verdicts.tsv').code)
    expect(shown.length).toBeGreaterThan(0)
    const written = new Set(lines(file('verdicts.tsv')))
    for (const l of shown) expect(written.has(l), l).toBe(true)
  })

  it('allowed.log: the log lines whose URL is allowed, whole', () => {
    expect(commands.some((c) => /--log-format vhost_combined access\.log > allowed\.log$/.test(c))).toBe(true)
    const log = lines(file('access.log'))
    const verdicts = lines(file('verdicts.tsv')).map((l) => l.startsWith('allowed\t'))
    expect(lines(file('allowed.log'))).toEqual(log.filter((_l, i) => verdicts[i]))
  })

  it('the fetched bundle answers as --robots-dir on the same files', () => {
    const step = commands.find((c) => /--bundle robots\.bundle .* > verdicts\.tsv$/.test(c))
    expect(step).toBeDefined()
    const command = (step as string).replace('--bundle robots.bundle', `--robots-dir ${JSON.stringify(corpusRobots)}`).replace('> verdicts.tsv', '> verdicts-dir.tsv')
    const env = { ...process.env, PATH: `${join(dir, '.bin')}${delimiter}${process.env.PATH ?? ''}`, ROBOTS_AUTOMATON_PROGRESS: '0' }
    const run = spawnSync('sh', ['-c', command], { cwd: dir, env, encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    expect(file('verdicts-dir.tsv')).toBe(file('verdicts.tsv'))
  })
})

/** The URLs of a list as an Apache vhost_combined log (`%v:%p %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`). */
function accessLog(urls: string): string {
  return lines(urls)
    .map((url, i) => {
      const m = /^(https?):\/\/([^/?#]+)(.*)$/.exec(url)
      if (!m || /\s/.test(url)) throw new Error(`corpus/urls.txt: not a URL for a log line: ${url}`)
      const [, , host, rest] = m
      const path = rest.startsWith('/') ? rest : `/${rest}`
      // Port 80 whatever the scheme: the test's server speaks plain HTTP (the bundle's entries are per host).
      return `${host}:80 192.0.2.${i % 250} - - [23/Nov/2026:10:00:00 +0000] "GET ${path} HTTP/1.1" 200 1234 "-" "ExampleBrowser/1.0"\n`
    })
    .join('')
}
