/**
 * `fetch --update`: `--refresh-older-than DURATION` fetches again entries
 * fetched before it, expired or not; input that names no host is exit 4,
 * as for `fetch` (a log read without its --log-format refreshed nothing,
 * exit 0); a 304 to a refresh sent without validators keeps the rules
 * (entries packed from files have none), never allow-all. Servers on
 * 127.0.0.1, names routed there.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RobotsStore, type StoreFetchInfo } from '../../../src/index.js'
import { run, tempDir } from '../helpers.js'
import { withFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
const HOUR = 3_600_000

withFetchServer((s, t) => {
  server = s
  tmp = t
})

const resolveAll = () => ['--resolve', `*:${server.port}:127.0.0.1`]
const origin = (h: string) => `http://${h}:${server.port}`
const store = (path: string) => RobotsStore.fromBytes(readFileSync(path))

/** A bundle of entries fetched `agesMs` ago, none expired. */
function bundleOf(name: string, agesMs: Record<string, number>): string {
  const s = new RobotsStore()
  const now = Date.now()
  for (const [host, age] of Object.entries(agesMs)) {
    const info: StoreFetchInfo = { outcome: 'ok', status: 200, fetchedAt: now - age, expiresAt: now + HOUR, reachableAt: now - age }
    s.set(origin(host), `User-agent: *\nDisallow: /old-${host}\n`, info)
  }
  const path = tmp.path(name)
  writeFileSync(path, s.toBytes())
  return path
}

describe('--update --refresh-older-than', () => {
  it('fetches again what was fetched longer ago, expired or not, and keeps the rest', async () => {
    const old = bundleOf('ages.bundle', { 'recent.test': 10 * 60_000, 'older.test': 7 * HOUR, 'oldest.test': 3 * 24 * HOUR })
    const out = tmp.path('ages-next.bundle')
    const r = await run(['fetch', '--update', old, '--refresh-older-than', '6h', '-o', out, ...resolveAll()])
    expect(r.status, r.stderr).toBe(0)
    expect([...server.asked.keys()].sort()).toEqual(['older.test', 'oldest.test'])
    expect(r.stderr).toMatch(/2 origins fetched in .*; 1 kept \(not expired\)/)
    const s = store(out)
    expect(s.isAllowed(`${origin('recent.test')}/old-recent.test`, 'bot')).toBe(false)
    expect(s.isAllowed(`${origin('older.test')}/old-older.test`, 'bot')).toBe(true)
    // 0: everything.
    server.reset()
    const all = await run(['fetch', '--update', old, '--refresh-older-than', '0', '-o', tmp.path('all.bundle'), ...resolveAll()])
    expect(all.status, all.stderr).toBe(0)
    expect(server.asked.size).toBe(3)
  })

  it('takes a duration with its unit, and goes with --update only', async () => {
    const old = bundleOf('units.bundle', { 'a.test': HOUR })
    for (const [value, fetched] of [['30s', 1], ['59m', 1], ['2h', 0], ['1d', 0], ['1w', 0], ['1.5h', 0]] as const) {
      server.reset()
      const r = await run(['fetch', '--update', old, '--refresh-older-than', value, '-o', tmp.path('units-next.bundle'), ...resolveAll()])
      expect(r.status, `${value}: ${r.stderr}`).toBe(0)
      expect(server.total, value).toBe(fetched)
    }
    for (const bad of ['6', 'h', '-1h', '1y', '']) {
      const r = await run(['fetch', '--update', old, '--refresh-older-than', bad, '-o', tmp.path('never.bundle')])
      expect(r.status, bad).toBe(2)
      expect(r.stderr, bad).toMatch(/option '--refresh-older-than' (takes a duration|needs a (non-empty )?value)/)
    }
    const without = await run(['fetch', '--refresh-older-than', '1h', '-o', tmp.path('never.bundle')], { input: 'http://a.test/\n' })
    expect(without.status).toBe(2)
    expect(without.stderr).toMatch(/'--refresh-older-than' goes with '--update BUNDLE'/)
    expect(existsSync(tmp.path('never.bundle'))).toBe(false)
  })
})

describe('exit codes that tell the truth', () => {
  // README step 5 left out --log-format: the log was read as a URL list, "0 origins fetched", exit 0.
  it('fetch --update with FILEs that name no host exits 4, as fetch does, and writes nothing', async () => {
    const old = bundleOf('log-update.bundle', { 'a.test': HOUR })
    const log = tmp.path('vhost.log')
    writeFileSync(log, `a.test:80 203.0.113.9 - - [23/Nov/2026:10:00:00 +0000] "GET /x HTTP/1.1" 200 512 "-" "bot"\n`)
    const out = tmp.path('log-update-next.bundle')
    const r = await run(['fetch', '--update', old, log, '-o', out, ...resolveAll()])
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/no line of the input held a URL with a host \(1 line read\)/)
    expect(r.stderr).toMatch(/try --log-format/)
    expect(existsSync(out)).toBe(false)
    expect(server.total).toBe(0)
    // a.test on port 80 routed to the test's server: no name reaches the system's resolver.
    const right = await run(['fetch', '--update', old, '--log-format', 'vhost_combined', log, '-o', out, ...resolveAll(), '--connect-to', `a.test:80:127.0.0.1:${server.port}`])
    expect(right.status, right.stderr).toBe(0)
  })
})

describe('a 304 to a refresh sent without validators', () => {
  // Entries packed from a directory have none; a bare 304 turned their Disallow: /secret into allow-all.
  it('keeps the previous rules, says so in the summary, and never becomes allow-all', async () => {
    const dir = tmp.path('packed')
    mkdirSync(dir)
    writeFileSync(`${dir}/bare304.test`, 'User-agent: *\nDisallow: /secret\n')
    const packed = tmp.path('packed.bundle')
    const p = await run(['pack', dir, '-o', packed])
    expect(p.status, p.stderr).toBe(0)
    server.handler = (_host, req, res) => {
      expect(req.headers['if-none-match']).toBeUndefined()
      res.writeHead(304)
      res.end()
    }
    const out = tmp.path('bare304.bundle')
    const r = await run(['fetch', '--update', packed, '-o', out, '--scheme', 'http', ...resolveAll(), '--connect-to', `::127.0.0.1:${server.port}`])
    expect(r.status, r.stderr).toBe(0)
    expect(server.total).toBe(1)
    expect(r.stderr).toMatch(/1 not modified \(1 answered 304 without being asked: rules kept\)/)
    const s = store(out)
    expect(s.source('bare304.test')).toBe('robots')
    expect(s.isAllowed('http://bare304.test/secret', 'bot')).toBe(false)
    expect(s.fetchInfo('bare304.test')?.outcome).toBe('not-modified')
  })
})
