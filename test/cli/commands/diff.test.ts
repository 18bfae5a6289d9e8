// `diff OLD NEW`: the URLs whose verdict changes, with the deciding rule on each side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { parseRobots } from '../../../src/index.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const OLD = `User-agent: *
Disallow: /private
Allow: /private/ok
`
const NEW = `User-agent: *
Disallow: /private/ok
Disallow: /tmp
Allow: /private
`
const URLS = ['https://e.com/private/x', 'https://e.com/private/ok/1', 'https://e.com/tmp/a', 'https://e.com/public', '/private', '', 'https://e.com/tmp\x1b[2J'].join('\n')

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('old.txt'), OLD)
  writeFileSync(tmp.path('new.txt'), NEW)
})
afterAll(() => tmp.cleanup())

describe('diff', () => {
  it('prints the changed URLs with both rules, exit 3; a summary on stderr', async () => {
    const r = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot'], { input: URLS })
    expect(r.status).toBe(3)
    expect(r.stdout.toString()).toBe(
      [
        'now-allowed\thttps://e.com/private/x\tline 2: Disallow: /private\tline 4: Allow: /private',
        'now-disallowed\thttps://e.com/private/ok/1\tline 3: Allow: /private/ok\tline 2: Disallow: /private/ok',
        'now-disallowed\thttps://e.com/tmp/a\tno matching rule\tline 3: Disallow: /tmp',
        'now-allowed\t/private\tline 2: Disallow: /private\tline 4: Allow: /private',
        'now-disallowed\thttps://e.com/tmp\\x1b[2J\tno matching rule\tline 3: Disallow: /tmp',
        '',
      ].join('\n'),
    )
    // The empty line is no URL: named, not compared.
    expect(r.stderr).toBe(
      "robots-automaton: warning: line 6 of '<stdin>' was not judged: it is blank; such lines are not compared\n" +
        'robots-automaton: 6 URLs compared: 3 now disallowed, 2 now allowed, 1 unchanged; 1 without a URL, not compared\n',
    )
  })

  it('agrees with the library on every line, in JSON lines too', async () => {
    const urls = URLS.split('\n')
    const a = parseRobots(OLD).agent('bot')
    const b = parseRobots(NEW).agent('bot')
    const want = urls.map((u, i) => ({ u, i })).filter(({ u }) => u !== '' && a.isAllowed(u) !== b.isAllowed(u)).map(({ u, i }) => ({ url: u, change: b.isAllowed(u) ? 'now-allowed' : 'now-disallowed', old: { allowed: a.isAllowed(u), line: a.explain(u).rule?.line ?? 0, rule: a.explain(u).rule && { kind: a.explain(u).rule!.kind, pattern: a.explain(u).rule!.pattern } }, new: { allowed: b.isAllowed(u), line: b.explain(u).rule?.line ?? 0, rule: b.explain(u).rule && { kind: b.explain(u).rule!.kind, pattern: b.explain(u).rule!.pattern } }, input_line: i + 1 }))
    writeFileSync(tmp.path('urls.gz'), gzipSync(URLS))
    const r = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot', '--format', 'jsonl', '-q', tmp.path('urls.gz')])
    expect(r.status).toBe(3)
    expect(r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(want)
    expect(r.stderr).toBe('')
  })

  it('no change: exit 0 and no output; a log column with --field', async () => {
    const same = await run(['diff', tmp.path('old.txt'), tmp.path('old.txt'), '--agent', 'bot'], { input: URLS })
    expect(same.status).toBe(0)
    expect(same.stdout.length).toBe(0)
    const log = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot', '--field', '2', '--delimiter', ',', '-q'], { input: 'a,/tmp/x,b\nc,/public,d\n' })
    expect(log.stdout.toString()).toBe('now-disallowed\t/tmp/x\tno matching rule\tline 3: Disallow: /tmp\n')
  })

  it('NEW from stdin, URLs from a file', async () => {
    writeFileSync(tmp.path('u.txt'), '/tmp/1\n/x\n')
    const r = await run(['diff', tmp.path('old.txt'), '-', '--agent', 'bot', '-q', tmp.path('u.txt')], { input: NEW })
    expect(r.stdout.toString()).toBe('now-disallowed\t/tmp/1\tno matching rule\tline 3: Disallow: /tmp\n')
  })

  it('reads logs as filter does: --log-format, and a line without a request is named, not compared; a "-" request only counted', async () => {
    const log = [
      '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /private/x HTTP/1.0" 200 2326 "-" "Mozilla/4.08"',
      '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "-" 408 0 "-" "-"',
      '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "\\x16\\x03\\x01" 400 0 "-" "-"',
      '127.0.0.1 - - [10/Oct/2000:13:55:37 -0700] "GET /tmp/a?b HTTP/1.1" 200 1 "-" "curl/8"',
    ].join('\n')
    const r = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot', '--log-format', 'combined'], { input: log })
    expect(r.status).toBe(3)
    expect(r.stdout.toString()).toBe('now-allowed\t/private/x\tline 2: Disallow: /private\tline 4: Allow: /private\nnow-disallowed\t/tmp/a?b\tno matching rule\tline 3: Disallow: /tmp\n')
    expect(r.stderr).toMatch(/^robots-automaton: warning: line 3 of '<stdin>' was not judged: it is not a combined line \(.*\) with a request line/)
    expect(r.stderr).toMatch(/2 URLs compared: 1 now disallowed, 1 now allowed, 0 unchanged; 1 without a URL, not compared; 1 with no request \("-"\), not compared\n$/)
  })

  it('no line held a URL: exit 4', async () => {
    const r = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot'], { input: 'GET /a\nexample.com/b\n' })
    expect(r.status).toBe(4)
    expect(r.stderr).toMatch(/robots-automaton: no line of the input held a URL \(2 lines read\); see the warning above\n$/)
  })

  it('per host: two directories, or a directory and a bundle (OLD first), judged by each URL\'s host', async () => {
    const oldDir = tmp.path('old-dir')
    const newDir = tmp.path('new-dir')
    mkdirSync(oldDir)
    mkdirSync(newDir)
    writeFileSync(join(oldDir, 'e.com'), OLD)
    writeFileSync(join(newDir, 'e.com'), NEW)
    writeFileSync(join(oldDir, 'gone.com'), 'User-agent: *\nDisallow: /\n')
    const bundle = tmp.path('new.bundle')
    expect((await run(['pack', newDir, '-o', bundle, '-q'])).status).toBe(0)
    const input = ['https://e.com/private/x', 'https://E.COM/tmp/a', 'https://gone.com/a', 'https://other.com/private/x', '/private/x'].join('\n')
    const want = [
      'now-allowed\thttps://e.com/private/x\tline 2: Disallow: /private\tline 4: Allow: /private',
      'now-disallowed\thttps://E.COM/tmp/a\tno matching rule\tline 3: Disallow: /tmp',
      'now-allowed\thttps://gone.com/a\tline 2: Disallow: /\tno robots.txt',
      '',
    ].join('\n')
    for (const sources of [['--robots-dir', oldDir, '--robots-dir', newDir], ['--robots-dir', oldDir, '--bundle', bundle]]) {
      const r = await run(['diff', ...sources, '--agent', 'bot'], { input })
      expect(r.status, r.stderr).toBe(3)
      expect(r.stdout.toString()).toBe(want)
      expect(r.stderr).toMatch(/line 5 of '<stdin>' was not judged: its URL is a path, and per-host rules need its host/)
      expect(r.stderr).toMatch(/4 URLs compared: 1 now disallowed, 2 now allowed, 1 unchanged; 1 without a URL or host, not compared; old hosts: 2 with a robots\.txt, 1 without one, 0 unreadable; new hosts: 1 with a robots\.txt, 2 without one, 0 unreadable\n/)
    }
    const json = await run(['diff', '--bundle', bundle, '--robots-dir', oldDir, '--agent', 'bot', '--format', 'jsonl', '-q'], { input })
    const records = json.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(records[0]).toEqual({
      url: 'https://e.com/private/x',
      change: 'now-disallowed',
      old: { allowed: true, line: 4, rule: { kind: 'allow', pattern: '/private' }, source: `${bundle}#e.com` },
      new: { allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/private' }, source: join(oldDir, 'e.com') },
      input_line: 1,
      host: 'e.com',
    })
    expect(records[2]).toMatchObject({ url: 'https://gone.com/a', old: { allowed: true, line: 0, rule: null, source: null }, new: { allowed: false, line: 2, source: join(oldDir, 'gone.com') } })
  })
})

describe('regression: a URL list whose lines end with CR alone was compared as one URL, exit 0', () => {
  it('filter and diff name the line, judge none of it, and exit 4 when no other line holds a URL', async () => {
    const input = 'https://e.com/private/x\rhttps://e.com/tmp/a\r/private\r'
    const f = await run(['filter', '--robots', tmp.path('old.txt'), '--agent', 'bot', '--print', 'verdicts'], { input })
    expect(f.status).toBe(4)
    expect(f.stdout.toString()).toBe(`invalid\t0\t${input.slice(0, -1)}\n`)
    expect(f.stderr.toString()).toContain("line 1 of '<stdin>' was not judged: it holds a CR that ends no line")
    const d = await run(['diff', tmp.path('old.txt'), tmp.path('new.txt'), '--agent', 'bot', '--format', 'jsonl'], { input })
    expect(d.status).toBe(4)
    expect(d.stdout.toString()).toBe('')
    expect(d.stderr.toString()).toContain('0 URLs compared')
    // CRLF lines are read as before.
    const crlf = await run(['filter', '--robots', tmp.path('old.txt'), '--agent', 'bot', '--print', 'verdicts'], { input: 'https://e.com/private/x\r\n/public\r\n' })
    expect(crlf.status).toBe(0)
    expect(crlf.stdout.toString()).toBe('disallowed\t2\thttps://e.com/private/x\nallowed\t0\t/public\n')
  })
})

describe('regression: diff per host summed OLD\'s hosts alone (NEW\'s unreadable files shown as 0 unreadable)', () => {
  it('the summary counts each side, the crawlers form too, and either side\'s unreadable file fails the run', async () => {
    const good = tmp.path('good-dir')
    const bad = tmp.path('bad-dir')
    mkdirSync(good)
    mkdirSync(bad)
    for (const h of ['a.com', 'b.com']) writeFileSync(join(good, h), 'User-agent: *\nDisallow: /x\n')
    writeFileSync(join(bad, 'a.com'), 'User-agent: *\nDisallow: /y\n')
    mkdirSync(join(bad, 'b.com'))
    const input = 'https://a.com/x\nhttps://b.com/x\nhttps://c.com/x\n'
    for (const who of [['--agent', 'bot'], ['--crawlers', 'bot,other']]) {
      const r = await run(['diff', '--robots-dir', good, '--robots-dir', bad, ...who], { input })
      expect(r.status, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/; old hosts: 2 with a robots\.txt, 1 without one, 0 unreadable; new hosts: 1 with a robots\.txt, 1 without one, 1 unreadable\n.*a robots\.txt file this run used could not be read \('.*b\.com': not a regular file \(a directory\)\)/)
    }
  })
})
