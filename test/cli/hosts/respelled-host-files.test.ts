/**
 * A `--robots-dir` (or `pack DIR`, `audit DIR`, `diff`) file named by another
 * spelling of its host than the URL parser writes (`Bücher.de`, `Example.COM`,
 * `127.1`) was skipped with a warning, and its host's URLs were judged as of
 * a host without a robots.txt: allowed, exit 0. The file is now its host's,
 * as a URL of any spelling of the host is; when a file is also named as URLs
 * give the host, that one is used and the other named as skipped; when
 * several other spellings claim a host with no such file, none is taken over
 * the others: the host is unreadable (exit 1), every name given.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
const dir = tmp.path('rd')
const URLS = ['https://bücher.de/private', 'https://xn--bcher-kva.de/open', 'http://www.example.com/x', 'http://127.0.0.1/secret', 'http://clash.test/a', 'http://twice.test/b', 'http://none.test/c'].join('\n') + '\n'

beforeAll(() => {
  ensureBuilt()
  mkdirSync(dir)
  writeFileSync(join(dir, 'Bücher.de'), 'User-agent: *\nDisallow: /private\n')
  writeFileSync(join(dir, 'WWW.Example.COM'), 'User-agent: *\nDisallow: /\n')
  writeFileSync(join(dir, '127.1'), 'User-agent: *\nDisallow: /secret\n')
  // Named as URLs give the host, and another spelling: the first is used.
  writeFileSync(join(dir, 'clash.test'), 'User-agent: *\nDisallow: /a\n')
  writeFileSync(join(dir, 'CLASH.test'), 'User-agent: *\nAllow: /\n')
  // Two other spellings, none as URLs give it: neither is taken.
  writeFileSync(join(dir, 'Twice.test'), 'User-agent: *\nDisallow: /b\n')
  writeFileSync(join(dir, 'TWICE.test'), 'User-agent: *\nAllow: /\n')
})
afterAll(() => tmp.cleanup())

const verdicts = (out: Buffer) => out.toString().trim().split('\n').map((l) => l.split('\t').slice(0, 2).join(' '))
const WANT = ['disallowed 2', 'allowed 0', 'disallowed 2', 'disallowed 2', 'disallowed 2', 'allowed 0', 'allowed 0']

describe('regression: a --robots-dir file named by another spelling of its host was skipped, its URLs judged as of a host without one', () => {
  for (const jobs of ['1', '2']) {
    it(`filter --jobs ${jobs} judges each host by its file, whatever the spelling; a host two spellings claim is unreadable (exit 1), both named`, async () => {
      const r = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--print', 'verdicts', '--jobs', jobs], { input: URLS })
      expect(r.status, r.stderr).toBe(1)
      expect(verdicts(r.stdout)).toEqual(WANT)
      expect(r.stderr).toContain(`1 file of '${dir}' not used: 'CLASH.test' (another spelling of the host 'clash.test', whose own file 'clash.test' is used)`)
      expect(r.stderr).toMatch(new RegExp(`'${dir}/(Twice|TWICE)\\.test' and '${dir}/(Twice|TWICE)\\.test' both name this host: keep one, named 'twice\\.test'`))
    })
  }

  it('filter --format jsonl names the file by its own name', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'bot', '--format', 'jsonl', '-q'], { input: 'https://BÜCHER.de/private\n' })
    expect(JSON.parse(r.stdout.toString())).toMatchObject({ allowed: false, line: 2, host: 'xn--bcher-kva.de', source: `${dir}/Bücher.de` })
  })

  it('pack keys each file by its host (a host two spellings claim: nothing written); audit DIR lists the hosts', async () => {
    const p = await run(['pack', dir, '-o', tmp.path('b.bundle')])
    expect(p.status).toBe(1)
    expect(p.stderr).toContain("both name this host: keep one, named 'twice.test'): no bundle written")
    const a = await run(['audit', dir, '--crawlers', 'bot'])
    expect(a.status).toBe(1)
    const rows = a.stdout.toString().trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 5).join(','))
    expect(rows).toEqual(['127.0.0.1,bot,some,global,ok', 'clash.test,bot,some,global,ok', 'twice.test,bot,unknown,,unreadable', 'www.example.com,bot,nothing,global,ok', 'xn--bcher-kva.de,bot,some,global,ok'])
  })

  it('pack of the hosts alone: the bundle answers as the directory does', async () => {
    const solo = tmp.path('solo')
    mkdirSync(solo)
    writeFileSync(join(solo, 'Bücher.de'), 'User-agent: *\nDisallow: /private\n')
    const p = await run(['pack', solo, '-o', join(solo, 'Out.bundle')])
    expect(p.status, p.stderr).toBe(0)
    expect(p.stderr).toMatch(/1 host packed into .*: 1 robots\.txt/)
    const f = await run(['filter', '--bundle', join(solo, 'Out.bundle'), '--agent', 'bot', '--print', 'verdicts'], { input: 'https://bücher.de/private\n' })
    expect(verdicts(f.stdout)).toEqual(['disallowed 2'])
  })
})
