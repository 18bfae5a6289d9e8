/**
 * `audit --fetch` survives a kill as `fetch` does: with `--save BUNDLE`
 * every host fetched is in `BUNDLE.journal`, the same command run again
 * fetches only the hosts it lacks and writes the rows an uninterrupted run
 * writes, and the journal goes once the rows are out. An interrupt audits
 * nothing (no partial rows), keeps the journal and names the command to
 * go on with. Counted server-side, on 127.0.0.1, every name routed there;
 * the kill comes once the server has seen enough requests, never on a clock.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { run, type tempDir } from '../helpers.js'
import { runKilledAfter, variedAnswers, withFetchServer, type FetchServer } from '../fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>

withFetchServer((s, t) => {
  server = s
  tmp = t
}, 2)
beforeEach(() => {
  // GPTBot shut out now and then, besides the 404s and 503s.
  server.handler = variedAnswers((i) => `User-agent: GPTBot\nDisallow: ${i % 3 === 0 ? '/' : `/private/${i}`}\n`)
})

/** A host list of `n` names, all routed to the server. */
function hosts(name: string, n: number): string {
  const file = tmp.path(name)
  writeFileSync(file, Array.from({ length: n }, (_, i) => `h${i}.audit-journal.test:${server.port}`).join('\n') + '\n')
  return file
}

const CONCURRENCY = 16
const args = (file: string, more: string[] = [], quiet = true) => [
  'audit', '--fetch', file, '--crawlers', 'GPTBot,CCBot', '--scheme', 'http', ...(quiet ? ['-q'] : []),
  '--concurrency', String(CONCURRENCY), '--per-ip', String(CONCURRENCY), '--resolve', `*:${server.port}:127.0.0.1`, ...more,
]

describe('audit --fetch keeps a journal: kills and interrupts', () => {
  it('killed with SIGKILL half-way, the same command again fetches each host once in total (those in flight at most twice) and writes the rows an uninterrupted run writes', async () => {
    const N = 1500
    const file = hosts('kill.txt', N)
    const whole = await run(args(file))
    expect(whole.status, whole.stderr.toString()).toBe(0)
    expect(server.total).toBe(N)
    server.reset()

    const saved = tmp.path('kill.bundle')
    const killed = await runKilledAfter(server, args(file, ['--save', saved]), N / 2, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(killed.stdout).toBe('')
    expect(existsSync(`${saved}.journal`)).toBe(true)
    expect(server.total).toBeLessThan(N)
    const again = await run(args(file, ['--save', saved]))
    expect(again.status, again.stderr.toString()).toBe(0)
    expect(server.asked.size).toBe(N)
    const twice = [...server.asked.values()].filter((n) => n > 1).length
    expect([...server.asked.values()].every((n) => n <= 2)).toBe(true)
    expect(twice).toBeLessThanOrEqual(CONCURRENCY)
    expect(server.total).toBe(N + twice)
    expect(again.stdout.toString()).toBe(whole.stdout.toString())
    expect(RobotsStore.fromBytes(readFileSync(saved)).size).toBe(N)
    expect(existsSync(`${saved}.journal`)).toBe(false)
  }, 300_000)

  it('interrupted (SIGINT): no rows, exit 130, the journal kept and the command named; run again, it fetches only the rest and audits every host', async () => {
    const N = 1000
    const file = hosts('int.txt', N)
    const journal = tmp.path('int.journal')
    const first = await runKilledAfter(server, args(file, ['--journal', journal], false), N / 2, 'SIGINT')
    expect(first.code, first.stderr).toBe(130)
    expect(first.stdout).toBe('')
    expect(first.stderr).toMatch(/interrupted: [\d,]+ of 1,000 hosts fetched; nothing audited/)
    expect(first.stderr).toMatch(/the journal '.*int\.journal' keeps what was fetched: run the same command again to fetch the rest: robots-automaton audit --fetch .*int\.txt/)
    const kept = readFileSync(journal, 'utf8').trimEnd().split('\n').length - 1
    expect(kept).toBeGreaterThan(0)
    const before = server.total
    const again = await run(args(file, ['--journal', journal], false))
    expect(again.status, again.stderr.toString()).toBe(0)
    expect(again.stderr.toString()).toContain(`${kept.toLocaleString('en-US')} hosts taken from the journal`)
    expect(server.total - before).toBeLessThanOrEqual(N - kept + CONCURRENCY)
    expect(server.asked.size).toBe(N)
    expect(again.stdout.toString().trimEnd().split('\n')).toHaveLength(1 + 2 * N)
    expect(existsSync(journal)).toBe(false)
  }, 300_000)

  it('interrupted without --save or --journal: exit 143 on SIGTERM, and how to go on next time', async () => {
    const file = hosts('bare.txt', 400)
    const r = await runKilledAfter(server, args(file, [], false), 100, 'SIGTERM')
    expect(r.code, r.stderr).toBe(143)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('to go on later, run it with --save BUNDLE or --journal FILE')
  }, 300_000)

  it('regression: a journal record whose "origin" was not its first field was taken up, but one of a host the list lacks, or of a host recorded twice, was passed over without a word; now each is named in a warning with its line', async () => {
    const file = hosts('order.txt', 5)
    const journal = tmp.path('order.journal')
    // One at a time: the run is surely killed with the four answered in its journal.
    const argv = args(file, ['--journal', journal], false)
    argv[argv.indexOf('--concurrency') + 1] = '1'
    const inner = server.handler
    server.handler = (host, req, res) => {
      if (host !== 'h4.audit-journal.test') inner(host, req, res)
    }
    const first = await runKilledAfter(server, argv, 5, 'SIGKILL')
    server.handler = inner
    expect(first.signal).toBe('SIGKILL')
    const lines = readFileSync(journal, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(5)
    const record = (n: number) => JSON.parse(lines[n + 1]!) as Record<string, unknown>
    const h1 = record(1).origin as string
    expect(h1).toContain('h1.audit-journal.test')
    // h1's record with its fields the other way round, then h2's again (line 6) and a host the list lacks (line 7).
    lines[2] = JSON.stringify(Object.fromEntries(Object.entries(record(1)).reverse()))
    lines.push(lines[3]!, JSON.stringify({ ...record(0), origin: h1.replace('h1.', 'hx.') }))
    writeFileSync(journal, `${lines.join('\n')}\n`)
    server.reset()
    const again = await run(argv)
    expect(again.status, again.stderr.toString()).toBe(0)
    const stderr = again.stderr.toString()
    expect(stderr).toContain(`warning: the journal '${journal}' holds 1 record of origins not in this run (line 7: ${h1.replace('h1.', 'hx.')}): left out`)
    expect(stderr).toContain(`warning: the journal '${journal}' holds 1 record of an origin recorded before (line 6: ${record(2).origin as string}): the last record of each origin taken up`)
    expect(stderr).not.toContain('damaged')
    expect(stderr).toContain('4 hosts taken from the journal')
    // Only the one never answered.
    expect(server.total).toBe(1)
    expect(server.asked.get('h4.audit-journal.test')).toBe(1)
    expect(again.stdout.toString().trimEnd().split('\n')).toHaveLength(1 + 2 * 5)
    expect(existsSync(journal)).toBe(false)
  }, 300_000)

  it("a journal of another run (here fetch's) is neither used nor overwritten; nothing is fetched", async () => {
    const file = hosts('other.txt', 5)
    const saved = tmp.path('other.bundle')
    const urls = tmp.path('fetch.txt')
    writeFileSync(urls, Array.from({ length: 300 }, (_, i) => `http://h${i}.audit-journal.test:${server.port}/`).join('\n') + '\n')
    const fetched = await runKilledAfter(server, ['fetch', urls, '-o', saved, '-q', '--scheme', 'http', '--concurrency', '1', '--resolve', `*:${server.port}:127.0.0.1`], 50, 'SIGKILL')
    expect(fetched.signal, fetched.stderr).toBe('SIGKILL')
    const text = readFileSync(`${saved}.journal`, 'utf8')
    server.reset()
    const r = await run(args(file, ['--save', saved]))
    expect(r.status).toBe(1)
    expect(r.stderr.toString()).toMatch(/cannot use the journal '.*other\.bundle\.journal': it is the journal of another run/)
    expect(server.total).toBe(0)
    expect(readFileSync(`${saved}.journal`, 'utf8')).toBe(text)
  }, 300_000)
})
