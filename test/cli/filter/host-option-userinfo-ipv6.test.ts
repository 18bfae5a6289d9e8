/**
 * `--host HOST` (filter, fetch, audit --fetch: one parser) given as
 * `user@host` or an IPv6 address without brackets: a usage error naming
 * the mistake, never a host taken unsaid for another (`user@a.test` read
 * as `a.test`) or refused with an unrelated reason (a bad port).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /x\n')
  writeFileSync(tmp.path('log'), '/x\n')
})
afterAll(() => tmp.cleanup())

describe('--host with userinfo or an unbracketed IPv6 address', () => {
  it('regression: --host user@host was taken as the host after @ with exit 0, and --host 2001:db8::1 was refused as a bad port; both are usage errors that say why', async () => {
    const filter = (host: string) => run(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'a', '--host', host, tmp.path('log')])
    for (const host of ['user@a.test', 'u:p@a.test', 'http://u@a.test', '@a.test']) {
      const r = await filter(host)
      expect(r.status, host).toBe(2)
      expect(r.stdout.toString()).toBe('')
      expect(r.stderr).toContain(`(got '${host}'): a host has no user name or password ('user@'); give the host alone`)
    }
    for (const host of ['::1', '2001:db8::1', 'https://2001:db8::1/', 'fe80::1%eth0']) {
      const r = await filter(host)
      expect(r.status, host).toBe(2)
      expect(r.stderr).toContain(`(got '${host}'): an IPv6 address is written in brackets ('[2001:db8::1]', '[::1]:8080')`)
    }
    // Hosts, ports, bracketed addresses and origins are taken as before.
    for (const host of ['a.test', 'a.test:80', '[::1]', '[::1]:8080', 'http://[::1]:80/', 'https://a.test']) {
      const r = await filter(host)
      expect(r.status, host).toBe(0)
      expect(r.stdout.toString()).toBe('')
    }
    // fetch reads --host with the same parser.
    const f = await run(['fetch', '--host', 'user@a.test', tmp.path('log'), '-o', tmp.path('b.jsonl')])
    expect(f.status).toBe(2)
    expect(f.stderr).toContain(`a host has no user name or password`)
  })
})
