/**
 * `--robots-dir DIR` reads `DIR/<host>`; a directory of `<host>.txt` files
 * (a common way to save them) matched no URL, and every URL was judged as of
 * a host without a robots.txt, exit 0, said only by "0 with a robots.txt".
 * A folder per host (`DIR/<host>/robots.txt`) was skipped, said to be "not
 * a regular file" only.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DirectoryRules } from '../../../src/cli/hosts/robots-dir.js'
import { run, tempDir } from '../helpers.js'

const tmp = tempDir()
afterAll(() => tmp.cleanup())
const DISALLOW = 'User-agent: *\nDisallow: /private\n'

describe('regression: a --robots-dir of <host>.txt files judged every URL as of a host without one, exit 0', () => {
  it('a URL of a host that has only a <host>.txt file: judged by --missing, the file named with the name to give it, exit 1; a file with the host name still wins', async () => {
    const dir = tmp.path('txt')
    mkdirSync(dir)
    writeFileSync(join(dir, 'example.com.txt'), DISALLOW)
    writeFileSync(join(dir, 'both.test.txt'), 'User-agent: *\nDisallow: /\n')
    writeFileSync(join(dir, 'both.test'), DISALLOW)
    writeFileSync(tmp.path('urls.txt'), 'http://example.com/private\nhttp://both.test/private\nhttp://both.test/public\nhttp://none.test/private\n')
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'Googlebot', '--print', 'verdicts', tmp.path('urls.txt')])
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toBe('allowed\t0\thttp://example.com/private\ndisallowed\t2\thttp://both.test/private\nallowed\t0\thttp://both.test/public\nallowed\t0\thttp://none.test/private\n')
    expect(r.stderr).toContain(`warning: skipped '${dir}/example.com': no such file, but '${dir}/example.com.txt' is: a file is named by its host alone (rename it 'example.com')`)
    expect(r.stderr).toMatch(/hosts: 1 with a robots\.txt, 1 without one, 1 unreadable/)
    // The .txt files stay the files of the hosts so named; only a host without a file of its own gets the entry that says so.
    const rules = DirectoryRules.open(dir)
    const names = Array.from({ length: rules.size }, (_, id) => rules.name(id))
    expect([...names].sort()).toEqual(['both.test', 'both.test.txt', 'example.com', 'example.com.txt'])
    expect(rules.read(names.indexOf('example.com'))).toEqual({ reason: `no such file, but '${dir}/example.com.txt' is: a file is named by its host alone (rename it 'example.com')` })
  })

  it('a folder per host holding its robots.txt (DIR/<host>/robots.txt): skipped as before (exit 1), the reason now says where the file goes', () => {
    const dir = tmp.path('folders')
    mkdirSync(join(dir, 'example.com'), { recursive: true })
    mkdirSync(join(dir, 'empty.test'))
    writeFileSync(join(dir, 'example.com', 'robots.txt'), DISALLOW)
    const rules = DirectoryRules.open(dir)
    const names = Array.from({ length: rules.size }, (_, id) => rules.name(id))
    expect(rules.read(names.indexOf('example.com'))).toEqual({ reason: `a directory with a robots.txt in it: a host's robots.txt is read from the file '${dir}/example.com' itself, not from a folder` })
    expect(rules.read(names.indexOf('empty.test'))).toEqual({ reason: 'not a regular file (a directory)' })
  })
})
