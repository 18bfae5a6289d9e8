/**
 * A URL that clients resolve to another path than the reference judges (dot
 * segments, backslashes, a host read into the path) is judged as the
 * reference judges it, but never in silence: `filter` (one robots.txt, per
 * host, a log, worker threads), `check` and `diff` name the first and count
 * them; `--quiet` silences them.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { clientPath } from '../../../src/cli/common/client-path.js'
import { run, tempDir } from '../helpers.js'

describe('clientPath', () => {
  it('gives the path a WHATWG client requests when the reference reads another, else undefined', () => {
    const other: [string, string, boolean?][] = [
      ['http://example.com/a/../private', '/private'],
      ['http://example.com/%2e%2E/private', '/private'],
      ['HTTPS://EXAMPLE.COM/a/./b?q', '/a/b?q'],
      ['http://example.com/a/.%2E#f', '/'],
      ['http://example.com\\private\\x', '/private/x'],
      ['http://example.com/a\\b', '/a/b'],
      ['http://a;b@example.com/private', '/private'],
      ['http://example.com;x/private', '/private'],
      ['http:///example.com/private', '/private'],
      ['http:/example.com/private', '/private'],
      ['/a/../b', '/b'],
      ['/a\\b', '/a/b'],
      ['//example.com/../x', '/x'],
      ['example.com/./x', '/x'],
      ['/a/%2e%2e/b?q', '/b?q', true],
      ['//h/../x', '//x', true],
      ['/a\\b', '/a/b', true],
    ]
    for (const [url, path, target] of other) expect([url, clientPath(url, target)]).toEqual([url, path])
    const same: [string, boolean?][] = [
      ['http://example.com/private'], ['http://example.com/.well-known/x'], ['http://example.com/a/...'], ['http://example.com/a?x=/../'],
      ['http://example.com/a;jsessionid=1/b'], ['http://example.com:8080/x;y'], ['http:example.com/x'], ['example.com/x'],
      ['ftp://example.com/../x'], ['mailto:a;b'], [''], ['/', true],
    ]
    for (const [url, target] of same) expect([url, clientPath(url, target)]).toEqual([url, undefined])
  })
})

describe('a URL that clients resolve to another path than the reference judges', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())
  const rules = 'User-agent: *\nDisallow: /private\n'
  mkdirSync(tmp.path('dir'))
  writeFileSync(tmp.path('dir/example.com'), rules)
  writeFileSync(tmp.path('r.txt'), rules)
  writeFileSync(tmp.path('r2.txt'), 'User-agent: *\nDisallow: /\n')
  const other = ['http://example.com/a/../private', 'http://example.com/%2e%2e/private', 'http://example.com/./private', 'http://example.com\\private\\x']
  const urls = [...other, 'http://example.com/private', 'http://example.com/ok;x/.well-known', ...other, 'http://a;b@example.com/private']
  writeFileSync(tmp.path('urls.txt'), `${urls.join('\n')}\n`)
  const log = ['/a/../private', '/%2E/private', '/x\\\\y', '/ok'].map((t) => `1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET ${t} HTTP/1.1" 200 1 "-" "Mozilla/5.0 (X11; Linux)"\n`)
  writeFileSync(tmp.path('log.txt'), log.join(''))
  const warning = (url: string, path: string) => `warning: '${url}' is judged as written; clients and servers resolve it to '${path}'`

  it('regression: a URL holding a tab, CR or LF (clients strip them, so they request another path) was judged in silence by check and filter --field --delimiter', async () => {
    const paths = ['http://example.com/pri\tvate', 'http://example.com/x?a\nb', '/pri\rvate', 'example.com/pri\tvate']
    expect(paths.map((u) => clientPath(u))).toEqual(['/private', '/x?ab', '/private', '/private'])
    // The host or the fragment is no path; a logged target holds what the server got.
    expect(['http://exam\tple.com/x', 'http://example.com/x#a\tb', 'http://example.com/x'].map((u) => clientPath(u))).toEqual([undefined, undefined, undefined])
    expect(clientPath('/pri\tvate', true)).toBe(undefined)
    const csv = 'a,http://example.com/pri\tvate,b\na,http://example.com/ok,b\n'
    const [column, check] = await Promise.all([
      run(['filter', '--agent', 'bot', '--robots', tmp.path('r.txt'), '--field', '2', '--delimiter', ',', '--print', 'verdicts'], { input: csv }),
      run(['check', tmp.path('r.txt'), '--agent', 'bot', 'http://example.com/pri\tvate', 'http://example.com/pri\nvate', 'http://exam\tple.com/x']),
    ])
    expect(column.stdout.toString()).toBe('allowed\t0\ta,http://example.com/pri\tvate,b\nallowed\t0\ta,http://example.com/ok,b\n')
    expect(column.stderr).toContain(warning('http://example.com/pri\\x09vate', '/private'))
    expect(column.stderr).toMatch(/; 1 URL that clients resolve to another path\n$/)
    expect(check.stdout.toString().split('\n').map((l) => l.split('\t')[0])).toEqual(['allowed', 'allowed', 'allowed', ''])
    expect(check.stderr).toMatch(/3 URLs checked: 3 allowed, 0 disallowed; 2 URLs that clients resolve to another path\n$/)
  })

  it('is judged as the reference judges it, named once and counted, in every mode of filter, check and diff', async () => {
    // Per host, in worker threads with a block per line: counted across threads, the first named in input order.
    const env = { ...process.env, ROBOTS_AUTOMATON_BLOCK_BYTES: '16' }
    const [dir, one, logged, check, diff, quiet] = await Promise.all([
      run(['filter', '--agent', 'bot', '--robots-dir', tmp.path('dir'), '--jobs', '3', tmp.path('urls.txt')], { env }),
      run(['filter', '--agent', 'bot', '--robots', tmp.path('r.txt'), tmp.path('urls.txt')]),
      run(['filter', '--agent', 'bot', '--robots', tmp.path('r.txt'), '--log-format', 'combined', tmp.path('log.txt')]),
      run(['check', tmp.path('r.txt'), '--agent', 'bot'], { input: urls.join('\n') }),
      run(['diff', tmp.path('r.txt'), tmp.path('r2.txt'), '--agent', 'bot', tmp.path('urls.txt')]),
      run(['filter', '-q', '--agent', 'bot', '--robots', tmp.path('r.txt'), '--jobs', '2', tmp.path('urls.txt')], { env }),
    ])
    // The reference's answers: allowed, in their places.
    const allowed = urls.filter((u) => u !== 'http://example.com/private' && u !== 'http://a;b@example.com/private')
    expect(dir.stdout.toString()).toBe(`${allowed.join('\n')}\nhttp://a;b@example.com/private\n`)
    expect(dir.stderr.split(warning(other[0], '/private')).length).toBe(2)
    expect(dir.stderr).toMatch(/; 8 URLs that clients resolve to another path\n$/)
    // One robots.txt: `http://a;b@host/x` is judged too (its path is '/;b@…'), and counted.
    expect(one.stdout.toString()).toBe(`${[...allowed, 'http://a;b@example.com/private'].join('\n')}\n`)
    expect(one.stderr).toContain(warning(other[0], '/private'))
    expect(one.stderr).toMatch(/; 9 URLs that clients resolve to another path\n$/)
    expect(logged.stdout.toString()).toBe(log.join(''))
    expect(logged.stderr).toContain(warning('/a/../private', '/private'))
    expect(logged.stderr).toMatch(/; 3 URLs that clients resolve to another path\n$/)
    expect(check.stderr).toContain(warning(other[0], '/private'))
    expect(check.stderr).toMatch(/11 URLs checked: 10 allowed, 1 disallowed; 9 URLs that clients resolve to another path\n$/)
    expect(diff.stderr).toContain(warning(other[0], '/private'))
    expect(diff.stderr).toMatch(/11 URLs compared: 10 now disallowed, 0 now allowed, 1 unchanged; 9 URLs that clients resolve to another path\n$/)
    expect([quiet.status, quiet.stderr, quiet.stdout.toString()]).toEqual([0, '', one.stdout.toString()])
  })
})
