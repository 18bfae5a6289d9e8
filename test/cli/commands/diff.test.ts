// `diff OLD NEW`: the URLs whose verdict changes, with the deciding rule on each side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
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
    expect(r.stderr).toBe('robots-automaton: 7 URLs compared: 3 now disallowed, 2 now allowed, 2 unchanged\n')
  })

  it('agrees with the library on every line, in JSON lines too', async () => {
    const urls = URLS.split('\n')
    const a = parseRobots(OLD).agent('bot')
    const b = parseRobots(NEW).agent('bot')
    const want = urls.filter((u) => a.isAllowed(u) !== b.isAllowed(u)).map((u) => ({ url: u, change: b.isAllowed(u) ? 'now-allowed' : 'now-disallowed', old: { allowed: a.isAllowed(u), line: a.explain(u).rule?.line ?? 0, rule: a.explain(u).rule && { kind: a.explain(u).rule!.kind, pattern: a.explain(u).rule!.pattern } }, new: { allowed: b.isAllowed(u), line: b.explain(u).rule?.line ?? 0, rule: b.explain(u).rule && { kind: b.explain(u).rule!.kind, pattern: b.explain(u).rule!.pattern } } }))
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
})
