/**
 * A ROBOTS URL's rules judge the paths of a log's host column
 * (vhost_combined's first column, `--host-field`'s) as they judge those of
 * `--host`: a column of another site is named in a warning and its paths
 * counted as URLs of another origin (`filter`, `diff`). Names routed to a
 * server on 127.0.0.1.
 */
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { run, tempDir } from '../helpers.js'
import { withFetchServer, type FetchServer } from '../fetch/fetch-server.js'

let server: FetchServer
let tmp: ReturnType<typeof tempDir>
withFetchServer((s, t) => {
  server = s
  tmp = t
})

const line = (host: string, target: string) => `${host} 1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET ${target} HTTP/1.1" 200 5 "-" "ua"\n`

describe('regression: a host column of another site was judged by a ROBOTS URL\'s rules in silence', () => {
  it('filter (--jobs 1 and 2) and diff: the paths of a vhost column of another site are named and counted, those of any spelling of the site are not', async () => {
    const p = server.port
    const own = [line(`up.test:${p}`, '/a'), line(`UP.TEST.:${p}`, '/b'), line('up.test', '/c')]
    const other = [line('evil.test', '/d'), line(`up.test:${p + 1}`, '/e'), line(`up.test:${p}`, 'http://evil.test/f')]
    const log = tmp.path('vhost.log')
    writeFileSync(log, [own[0], other[0], own[1], other[1], own[2], other[2]].join(''))
    const route = ['--resolve', `*:${p}:127.0.0.1`]
    const robots = `http://up.test:${p}/`
    const warning = `warning: the host column 'evil.test' is not of http://up.test:${p}, whose robots.txt judges its paths all the same`
    for (const jobs of ['1', '2']) {
      const f = await run(['filter', '--robots', robots, '--agent', 'bot', '--log-format', 'vhost_combined', '--jobs', jobs, log, ...route])
      expect(f.status, f.stderr).toBe(0)
      expect(f.stderr).toContain(warning)
      expect(f.stderr).toMatch(new RegExp(`; 3 URLs of another origin than http://up\\.test:${p}\\n`))
    }
    const none = tmp.path('none.txt')
    writeFileSync(none, '')
    const d = await run(['diff', none, robots, '--agent', 'bot', '--log-format', 'vhost_combined', log, ...route])
    expect(d.stderr).toContain(warning)
    expect(d.stderr).toMatch(new RegExp(`6 URLs compared \\(3 of another origin than http://up\\.test:${p}\\)`))
    // --field with --host-field, the column an origin.
    const tsv = tmp.path('hosts.tsv')
    writeFileSync(tsv, `/a\thttp://up.test:${p}\n/b\thttps://up.test:${p}\n`)
    const t = await run(['filter', '--robots', robots, '--agent', 'bot', '--field', '1', '--host-field', '2', tsv, ...route])
    expect(t.stderr).toContain(`warning: the host column 'https://up.test:${p}' is not of`)
    expect(t.stderr).toMatch(/; 1 URL of another origin than /)
  })
})
