/**
 * A file of `--robots-dir DIR` (or `pack DIR`) whose name starts with a
 * byte order mark (a host list with a BOM, each line a file name): the name
 * was decoded as the host after the BOM, taken as that host's file, and
 * never found, so its URLs were judged as of a host without a robots.txt,
 * allowed, and the file was neither used nor named as skipped. Now it is
 * skipped with the name to give it, its BOM shown (`\u{feff}`), as is a
 * byte of a name that is not UTF-8 (`\xHH`).
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
  it('filter names it as skipped, with the BOM shown and the name to give it', async () => {
    const r = await run(['filter', '--robots-dir', dir, '--agent', 'A', '--print', 'verdicts'], { input: 'https://example.com/private\n' })
    expect(r.stdout.toString()).toBe('allowed\t0\thttps://example.com/private\n')
    expect(r.stderr).toContain(`2 files of '${dir}' not used, as no URL's host is written so: `)
    expect(r.stderr).toContain(`'\\u{feff}example.com' (not named by its host as URLs give it (lowercase, punycode, canonical IP address): name the file 'example.com')`)
    expect(r.stderr).toContain(`'b\\xe9.test' (not a host name: the name is not UTF-8)`)
  })

  it('pack skips it, saying so', async () => {
    const r = await run(['pack', dir, '-o', tmp.path('b.bundle')])
    expect(r.stderr).toContain(`warning: skipped '${join(dir, '\\u{feff}example.com')}': not named by its host as URLs give it`)
    expect(r.stderr).toContain(`warning: skipped '${join(dir, 'b\\xe9.test')}': not a host name: the name is not UTF-8`)
  })
})
