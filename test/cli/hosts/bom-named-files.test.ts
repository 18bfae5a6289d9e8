/**
 * A file of `--robots-dir DIR` (or `pack DIR`) whose name starts with a
 * byte order mark (a host list with a BOM, each line a file name): the name
 * was decoded as the host after the BOM, taken as that host's file, and
 * never found, so its URLs were judged as of a host without a robots.txt,
 * allowed, and the file was neither used nor named as skipped. A BOM in a
 * host is nothing to the URL parser (`http://\u{feff}example.com/` is
 * example.com), so the file is now that host's, as any spelling of a host
 * names its file; a name with a byte that is not UTF-8 is skipped and named
 * (`\xHH`).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
const dir = tmp.path('rd')
beforeAll(() => {
  ensureBuilt()
  mkdirSync(dir)
  writeFileSync(Buffer.from(`${dir}/\ufeffexample.com`), 'User-agent: *\nDisallow: /private\n')
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/b`), Buffer.from([0xe9]), Buffer.from('.test')]), 'User-agent: *\nDisallow: /\n')
})
afterAll(() => tmp.cleanup())

describe('regression: a --robots-dir file named with a BOM was taken for the host after it, then never used nor named', () => {
  it('filter judges the host by it, and names the name that is no host', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'A', '--print', 'verdicts'], { input: 'https://example.com/private\n' })
    expect(r.stdout.toString()).toBe('disallowed\t2\thttps://example.com/private\n')
    expect(r.stderr).toContain(`1 file of '${dir}' not used: 'b\\xe9.test' (not a host name: the name is not UTF-8)`)
  })

  it('pack keys it by its host, and skips the name that is no host, saying so', async () => {
    const r = await run(['pack', dir, '-o', tmp.path('b.bundle')])
    expect(r.stderr).toContain(`warning: skipped '${join(dir, 'b\\xe9.test')}': not a host name: the name is not UTF-8`)
    expect(r.stderr).toMatch(/1 host packed into .*: 1 robots\.txt; .*; 1 skipped\n$/)
    const f = await run(['filter', '--bundle', tmp.path('b.bundle'), '--agent', 'A', '--format', 'jsonl', '-q'], { input: 'https://example.com/private\n' })
    expect(JSON.parse(f.stdout.toString())).toMatchObject({ allowed: false, line: 2, source: `${tmp.path('b.bundle')}#example.com` })
  })
})
