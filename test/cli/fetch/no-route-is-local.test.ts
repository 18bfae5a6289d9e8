/**
 * An address this machine cannot reach (no route to it, its address family
 * off: connect() fails before anything is sent) says nothing of the site: it
 * is never written as the site's `unreachable`, the next address of the
 * name is tried, and `fetch` leaves out, with a warning, an origin whose
 * address has no route from here while one fetched before has (once it
 * failed the whole run), writes the rest, keeps its journal and exits 1,
 * so that the same command run again fetches only it. A TCP connect to the broadcast address
 * (255.255.255.255) fails so on Linux whatever the routes, and so does a UDP
 * one. Servers on 127.0.0.1 only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { fetchRobots } from '../../../src/index.js'
import { createNodeTransport } from '../../../src/node.js'
import { run } from '../helpers.js'
import { startDnsServer } from '../../support/dns-server.js'
import { withFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let tmp: { path: (name: string) => string }
withFetchServer((s, t) => {
  server = s
  tmp = t
})

/** A port on 127.0.0.1 nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as { port: number }).port
  await new Promise((resolve) => s.close(resolve))
  return port
}

describe.skipIf(process.platform !== 'linux')('regression: no route from this machine was written as the site unreachable', () => {
  it('the library: ERR_LOCAL, the next address tried, a site’s own refusal on another address kept', async () => {
    const refused = await closedPort()
    const routes: Record<string, string[]> = { 'only.test': ['255.255.255.255'], 'next.test': ['255.255.255.255', '127.0.0.1'], 'closed.test': ['127.0.0.1', '255.255.255.255'] }
    const transport = createNodeTransport({ route: (host) => ({ hosts: routes[host]!, port: host === 'closed.test' ? refused : server.port, routed: true }) })
    try {
      await expect(fetchRobots('http://only.test/', { transport })).rejects.toMatchObject({ code: 'ERR_LOCAL', message: expect.stringContaining('ENETUNREACH') })
      expect(await fetchRobots('http://next.test/', { transport })).toMatchObject({ outcome: 'ok' })
      expect(await fetchRobots('http://closed.test/', { transport })).toMatchObject({ outcome: 'unreachable', reason: 'network-error', error: { code: 'ECONNREFUSED' } })
    } finally {
      transport.close()
    }
  })

  it("the library over the platform's fetch (undici): ERR_LOCAL too (it was the site's network-error)", async () => {
    await expect(fetchRobots('http://255.255.255.255/', { privateAddresses: 'allow' })).rejects.toMatchObject({ code: 'ERR_LOCAL', message: expect.stringContaining('ENETUNREACH') })
  })

  it('regression: an origin left out for a failure of this machine exited 0 ("written", the output taken as whole); now the rest is written, the journal kept, one line says how many, why and to run again, exit 1', async () => {
    const input = tmp.path('no-route.txt')
    const out = tmp.path('no-route.jsonl')
    writeFileSync(input, 'http://ok.test/a\nhttp://v6only.test/b\n')
    const args = ['fetch', input, '-o', out, '--format', 'jsonl', '--resolve', `ok.test:80:127.0.0.1`, '--connect-to', `ok.test:80:127.0.0.1:${server.port}`, '--resolve', 'v6only.test:80:255.255.255.255', '--give-up-after', '30']
    const r = await run(args)
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/warning: http:\/\/v6only\.test: not fetched: .*this machine failed \(ENETUNREACH\)/)
    expect(r.stderr).toMatch(/1 origin fetched in .*: 1 ok; 4 fetches retried after failures of this machine \(ENETUNREACH 4\); 1 origin not fetched/)
    expect(r.stderr).toContain(`robots-automaton: 1 origin left out of ${out}: this machine could not fetch it (ENETUNREACH 1); the journal '${out}.journal' keeps what was fetched: run the same command again to fetch it: robots-automaton fetch `)
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { origin: string; outcome: string })
    expect(records.map((x) => [x.origin, x.outcome])).toEqual([['http://ok.test', 'ok']])
    expect(existsSync(`${out}.journal`)).toBe(true)

    // The same command again (--give-up-after is not the run's: the journal is taken up) fetches only the origin left out; with nothing
    // fetched in this run it is not known to be this origin's alone: the run stops as one that cannot make progress, the journal kept.
    server.reset()
    const again = await run([...args.slice(0, -2), '--give-up-after', '1'])
    expect(again.status, again.stderr).toBe(1)
    expect(server.asked.get('ok.test')).toBeUndefined()
    expect(again.stderr).toContain(`cannot make progress: nothing fetched for`)
    expect(again.stderr).toContain(`the journal '${out}.journal' keeps the 1 origin fetched: run the same command again to go on once this machine can`)
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { origin: string }).origin)).toEqual(['http://ok.test'])
    expect(existsSync(`${out}.journal`)).toBe(true)
  })

  it('regression: an origin left out for a failure of this machine exited 0; the same command run again once this machine can fetches only it, writes the whole output, removes the journal, exit 0', async () => {
    const dns = await startDnsServer({ 'ok.test': ['127.0.0.1'], 'v6only.test': ['255.255.255.255'] })
    try {
      const input = tmp.path('no-route-rerun.txt')
      const out = tmp.path('no-route-rerun.bundle')
      writeFileSync(input, `http://ok.test:${server.port}/a\nhttp://v6only.test:${server.port}/b\n`)
      const args = ['fetch', input, '-o', out, '--dns-server', dns.address, '--allow-private', '--give-up-after', '30']
      const r = await run(args)
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/1 origin left out of .*no-route-rerun\.bundle: this machine could not fetch it \(ENETUNREACH 1\); the journal '.*no-route-rerun\.bundle\.journal' keeps what was fetched: run the same command again to fetch it/)
      expect(r.stderr).toMatch(/wrote .*no-route-rerun\.bundle: 1 entry/)
      expect(existsSync(`${out}.journal`)).toBe(true)
      expect(server.asked.get('ok.test')).toBe(1)

      // This machine can reach it now: the run again fetches it alone.
      dns.names.set('v6only.test', ['127.0.0.1'])
      server.reset()
      const again = await run(args)
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).not.toContain('left out')
      expect(again.stderr).toMatch(/1 origin fetched in .*: 1 ok; 1 from the journal of an earlier run; wrote .*no-route-rerun\.bundle: 2 entries/)
      expect(server.asked.get('ok.test')).toBeUndefined()
      expect(server.asked.get('v6only.test')).toBe(1)
      expect(existsSync(`${out}.journal`)).toBe(false)
    } finally {
      await dns.close()
    }
  })

  it('regression: audit --fetch of a host this machine could not fetch wrote its rows and exited 0; now the rows and --save are written, the journal kept, one line says so, exit 1, and the same command run again once this machine can fetches only it, exit 0', async () => {
    const dns = await startDnsServer({ 'ok.test': ['127.0.0.1'], 'v6only.test': ['255.255.255.255'] })
    try {
      const input = tmp.path('no-route-audit.txt')
      const saved = tmp.path('no-route-audit.bundle')
      writeFileSync(input, `http://ok.test:${server.port}/a\nhttp://v6only.test:${server.port}/b\n`)
      const args = ['audit', '--crawlers', 'GPTBot', '--fetch', input, '--save', saved, '--dns-server', dns.address, '--allow-private', '--give-up-after', '30']
      const r = await run(args)
      expect(r.status, r.stderr).toBe(1)
      expect(r.stdout.toString()).toContain('ok.test')
      expect(r.stderr).toMatch(/robots-automaton: 1 host left out of the audit: this machine could not fetch it \(ENETUNREACH 1\); the journal '.*no-route-audit\.bundle\.journal' keeps what was fetched: run the same command again to fetch it: robots-automaton audit /)
      expect(r.stderr).toMatch(/wrote .*no-route-audit\.bundle: 1 entry/)
      expect(existsSync(`${saved}.journal`)).toBe(true)
      expect(server.asked.get('ok.test')).toBe(1)

      dns.names.set('v6only.test', ['127.0.0.1'])
      server.reset()
      const again = await run(args)
      expect(again.status, again.stderr).toBe(0)
      expect(again.stderr).not.toContain('left out')
      expect(server.asked.get('ok.test')).toBeUndefined()
      expect(server.asked.get('v6only.test')).toBe(1)
      expect(existsSync(`${saved}.journal`)).toBe(false)
    } finally {
      await dns.close()
    }
  })

  it('regression: fetch --update with an origin this machine could not fetch exited 0, its entry kept as it was in silence; now the entry is kept, the journal too, exit 1', async () => {
    const dns = await startDnsServer({ 'ok.test': ['127.0.0.1'], 'v6only.test': ['127.0.0.1'] })
    try {
      const input = tmp.path('no-route-update.txt')
      const out = tmp.path('no-route-update.bundle')
      writeFileSync(input, `http://ok.test:${server.port}/a\nhttp://v6only.test:${server.port}/b\n`)
      const common = ['--dns-server', dns.address, '--allow-private', '--give-up-after', '30']
      const first = await run(['fetch', input, '-o', out, ...common])
      expect(first.status, first.stderr).toBe(0)
      dns.names.set('v6only.test', ['255.255.255.255'])
      const r = await run(['fetch', '--update', out, '--refresh-older-than', '0', input, '-o', out, ...common])
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/wrote .*no-route-update\.bundle: 2 entries/)
      expect(r.stderr).toMatch(/robots-automaton: 1 origin not fetched into .*no-route-update\.bundle \(an entry it held kept as it was\): this machine could not fetch it \(ENETUNREACH 1\); the journal '.*no-route-update\.bundle\.journal' keeps what was fetched: run the same command again to fetch it/)
      expect(existsSync(`${out}.journal`)).toBe(true)
    } finally {
      await dns.close()
    }
  })
})
