/**
 * `fetch --timeout` bounds each attempt at an origin as a whole: the look-up
 * of its name, the connection and the answer. A name its DNS servers leave
 * unanswered while they answer others is the site's `timeout` at the
 * deadline; servers silent to everything are this machine's failure, seen
 * at the deadline too, so that `--give-up-after` stops the run in time.
 * The DNS server is the tests' own, on 127.0.0.1.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDnsServer, type DnsTestServer } from '../../support/dns-server.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'
import { startFetchServer, type FetchServer } from './fetch-server.js'

let server: FetchServer
let dns: DnsTestServer
let tmp: ReturnType<typeof tempDir>

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  server = await startFetchServer()
  dns = await startDnsServer({ 'ok.test': ['127.0.0.1'] })
})
afterAll(async () => {
  await server.close()
  await dns.close()
  tmp.cleanup()
})

describe('fetch --timeout and the look-up', () => {
  it('regression: fetch --timeout did not cover the DNS look-up: a name left unanswered took the resolver\'s own time-outs and was a dns-error; now it is the site\'s timeout at the deadline', async () => {
    // Unanswered while the servers answer other names (and the probe): the name's own wait, not this machine's.
    dns.silent.add('slow.test')
    const input = tmp.path('slow.txt')
    writeFileSync(input, `http://ok.test:${server.port}/\nhttp://slow.test:${server.port}/\n`)
    const out = tmp.path('slow.jsonl')
    const r = await run(['fetch', input, '--format', 'jsonl', '-o', out, '--dns-server', dns.address, '--allow-private', '--timeout', '1'])
    expect(r.status, r.stderr).toBe(0)
    const records = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const slow = records.find((x) => String(x.origin ?? x.key).includes('slow.test'))
    expect(slow, JSON.stringify(records)).toMatchObject({ outcome: 'unreachable', reason: 'timeout' })
    expect(JSON.stringify(slow)).toContain('no complete answer within 1000 ms')
    // The resolver's first try (5 s) had not run out: the name was asked once.
    expect(dns.questions.filter((q) => q === 'slow.test A')).toHaveLength(1)
  })

  it('regression: --give-up-after reacted late to DNS servers silent to everything (each look-up took the resolver\'s own time-outs, then a probe as long); now each attempt ends at the deadline', async () => {
    const mute = await startDnsServer({})
    // Silent to every question, the root's (the probe) included.
    mute.silent.add('m.test').add('')
    try {
      const input = tmp.path('mute.txt')
      writeFileSync(input, `http://m.test:${server.port}/\n`)
      const out = tmp.path('mute.bundle')
      const r = await run(['fetch', input, '-o', out, '--dns-server', mute.address, '--allow-private', '--timeout', '1', '--give-up-after', '1'])
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/cannot make progress: .*only failures of this machine \(the DNS servers are not answering/)
      // Stopped at the first deadline: before the resolver's second try (5 s) of the name.
      expect(mute.questions.filter((q) => q === 'm.test A')).toHaveLength(1)
    } finally {
      await mute.close()
    }
  })
})
