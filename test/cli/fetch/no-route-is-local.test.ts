/**
 * An address this machine cannot reach (no route to it, its address family
 * off: connect() fails before anything is sent) says nothing of the site: it
 * is never written as the site's `unreachable`, the next address of the
 * name is tried, and `fetch` leaves out, with a warning, an origin whose
 * address has no route from here while one fetched before has (once it
 * failed the whole run). A TCP connect to the broadcast address
 * (255.255.255.255) fails so on Linux whatever the routes, and so does a UDP
 * one. Servers on 127.0.0.1 only.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { fetchRobots } from '../../../src/index.js'
import { createNodeTransport } from '../../../src/node.js'
import { run } from '../helpers.js'
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

  it('fetch: the origin left out with a warning, the others written, exit 0', async () => {
    const input = tmp.path('no-route.txt')
    const out = tmp.path('no-route.jsonl')
    writeFileSync(input, 'http://ok.test/a\nhttp://v6only.test/b\n')
    const r = await run(['fetch', input, '-o', out, '--format', 'jsonl', '--resolve', `ok.test:80:127.0.0.1`, '--connect-to', `ok.test:80:127.0.0.1:${server.port}`, '--resolve', 'v6only.test:80:255.255.255.255', '--give-up-after', '30'])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/warning: http:\/\/v6only\.test: not fetched: .*this machine failed \(ENETUNREACH\)/)
    expect(r.stderr).toMatch(/1 origin fetched in .*: 1 ok; 4 fetches retried after failures of this machine \(ENETUNREACH 4\); 1 origin not fetched/)
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { origin: string; outcome: string })
    expect(records.map((x) => [x.origin, x.outcome])).toEqual([['http://ok.test', 'ok']])
  })
})
