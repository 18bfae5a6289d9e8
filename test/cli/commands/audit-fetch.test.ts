/**
 * `audit --fetch` on `fetch`'s machinery: a failure of this machine is
 * never a host's outcome (`ulimit -n 256` with `--concurrency 1000`: every
 * healthy host `ok`), an address the policy refuses is `refused` (class
 * unknown), fetched with `--allow-private`, and read back so from a bundle
 * `fetch` wrote; `--save` is an output like `fetch`'s (checked before any
 * request, written through a link). Servers on 127.0.0.1 only.
 */
import { spawn } from 'node:child_process'
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { CLI, run, tempDir } from '../helpers.js'
import { withFetchServer, type FetchServer } from '../fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>

withFetchServer((s, t) => {
  server = s
  tmp = t
})

const lines = (b: Buffer): string[] => b.toString().trimEnd().split('\n')
const route = () => ['--resolve', `*:${server.port}:127.0.0.1`]

/** The CSV rows' outcome column, counted. */
function outcomes(csv: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const row of csv.trimEnd().split('\n').slice(1)) {
    const o = row.split(',')[4]!
    out.set(o, (out.get(o) ?? 0) + 1)
  }
  return out
}

/** Runs a shell script (for `ulimit`): exit code, stdout, stderr. */
function runShell(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('audit --fetch: fetch\'s scheduler, policy and outputs', () => {
  it('regression: with ulimit -n 256 and --concurrency 1000, 1,200 healthy hosts are all ok, none unreachable', async () => {
    const list = tmp.path('many.txt')
    writeFileSync(list, Array.from({ length: 1200 }, (_, i) => `http://h${i}.audit-local.test:${server.port}/`).join('\n') + '\n')
    const args = ['audit', '--fetch', list, '--crawlers', 'GPTBot,CCBot', '--concurrency', '1000', '--per-ip', '1000', ...route()]
    const cli = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args.map((a) => `'${a}'`).join(' ')}`
    const r = await runShell(`ulimit -n 256 && ${cli}`)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/note: --concurrency 1,000 lowered to \d+: this process may have 256 files open/)
    expect(outcomes(r.stdout)).toEqual(new Map([['ok', 2400]]))
    expect(server.asked.size).toBe(1200)
  })

  it('an address the policy refuses is outcome refused, class unknown, nothing sent; --allow-private fetches it', async () => {
    const list = tmp.path('literal.txt')
    writeFileSync(list, `http://127.0.0.1:${server.port}/page\n`)
    const refused = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', '--format', 'jsonl', '-q'])
    expect(refused.status, refused.stderr.toString()).toBe(0)
    const row = JSON.parse(lines(refused.stdout)[0]!)
    expect(row).toMatchObject({ host: `http://127.0.0.1:${server.port}`, crawler: 'GPTBot', access: 'unknown', group: null, outcome: 'refused' })
    expect(row.reason).toContain('address policy')
    expect(server.total).toBe(0)
    const table = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', '--format', 'table'])
    expect(table.stdout.toString()).toContain('1 refused')

    const allowed = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', '--format', 'jsonl', '-q', '--allow-private'])
    expect(JSON.parse(lines(allowed.stdout)[0]!)).toMatchObject({ access: 'some', group: 'global', outcome: 'ok', status: 200 })
    expect(server.total).toBe(1)
  })

  it('a bundle fetch wrote with a refused entry audits as refused (never the site\'s "nothing")', async () => {
    const list = tmp.path('mixed.txt')
    writeFileSync(list, `http://127.0.0.1:${server.port}/\nhttp://named.audit.test:${server.port}/\n`)
    const bundle = tmp.path('mixed.bundle')
    const f = await run(['fetch', list, '-o', bundle, '--resolve', `named.audit.test:${server.port}:127.0.0.1`, '-q'])
    expect(f.status, f.stderr.toString()).toBe(0)
    expect(RobotsStore.fromBytes(readFileSync(bundle)).fetchInfo(`http://127.0.0.1:${server.port}`)!.outcome).toBe('refused')
    const r = await run(['audit', bundle, '--crawlers', 'GPTBot', '-q'])
    expect(lines(r.stdout).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
      'host,crawler,access,group,outcome',
      `http://127.0.0.1:${server.port},GPTBot,unknown,,refused`,
      `http://named.audit.test:${server.port},GPTBot,some,global,ok`,
    ])
  })

  it('--save: a path that cannot be written fails before any request; a link is written through', async () => {
    const list = tmp.path('one.txt')
    writeFileSync(list, `http://one.audit.test:${server.port}/\n`)
    const bad = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', ...route(), '--save', tmp.path('no/such/dir/x.bundle')])
    expect(bad.status).toBe(1)
    expect(bad.stderr.toString()).toMatch(/bundle/)
    expect(server.total).toBe(0)

    const target = tmp.path('target.bundle')
    writeFileSync(target, 'old')
    const link = tmp.path('link.bundle')
    symlinkSync(target, link)
    const ok = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', ...route(), '--save', link, '-q'])
    expect(ok.status, ok.stderr.toString()).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect([...RobotsStore.fromBytes(readFileSync(target)).keys()]).toEqual([`http://one.audit.test:${server.port}`])
  })

  it('regression: lines of a list without a host or URL were counted alone ("2 lines of the list without a host or URL skipped"); the first is now named with why, as fetch names it', async () => {
    const list = tmp.path('faulty.txt')
    writeFileSync(list, ['bücher.audit.test', 'http://a;b@bücher.audit.test/x', 'http:///bücher.audit.test/x'].join('\n') + '\n')
    server.reset()
    const r = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', '--format', 'jsonl', '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`])
    expect(r.status, r.stderr.toString()).toBe(0)
    expect(lines(r.stdout).map((l) => JSON.parse(l).host)).toEqual(['xn--bcher-kva.audit.test'])
    expect(r.stderr.toString()).toContain(`warning: line 2 of '${list}' was not judged: the URL parser refuses its host or port (its host is in the path the reference matches): http://a;b@bücher.audit.test/x; no site has such a name, so no rules can judge it; 2 lines of the list without a host or URL skipped\n`)
  })

  it('regression: the hosts a list names that cannot be fetched from are named, the first with its line and why (it said only "2 lines skipped"); every spelling of a host is one row', async () => {
    const list = tmp.path('spellings.txt')
    writeFileSync(list, ['bücher.audit.test', 'xn--a.com', 'BÜCHER.audit.test', 'xn--bcher-kva.audit.test', 'b%C3%BCcher.audit.test', 'example.com:99999'].join('\n') + '\n')
    server.reset()
    const r = await run(['audit', '--fetch', list, '--crawlers', 'GPTBot', '--format', 'jsonl', '--scheme', 'http', '--connect-to', `::127.0.0.1:${server.port}`])
    expect(r.status, r.stderr.toString()).toBe(0)
    expect(lines(r.stdout).map((l) => JSON.parse(l).host)).toEqual(['xn--bcher-kva.audit.test'])
    expect(server.total).toBe(1)
    expect(r.stderr.toString()).toContain(`warning: 2 lines skipped: a host that cannot be fetched from (a bad port, not a host name); line 2 of '${list}': xn--a.com (the host "xn--a.com" is refused: it is not a valid international domain name: UTS-46 processing refuses it)`)
  })
})
