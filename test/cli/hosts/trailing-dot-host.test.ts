/**
 * A host's trailing dot is the DNS root: `example.com.` is the site
 * `example.com` for DNS and every server, so a client asking
 * `http://example.com./private` gets that site's robots.txt and page.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalHost, RobotsStore } from '../../../src/index.js'
import { CLI, ensureBuilt, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp?.cleanup())

describe('a trailing dot in a host', () => {
  it('regression: http://example.com./private was judged allowed (a host without a robots.txt) although example.com disallows /private', () => {
    expect(canonicalHost('Example.COM.')).toBe('example.com')
    const store = new RobotsStore()
    store.set('https://bücher.de.', 'User-agent: *\nDisallow: /private\n')
    expect([...store.keys()]).toEqual(['https://xn--bcher-kva.de'])
    expect(store.isAllowed('https://BÜCHER.de./private', 'bot')).toBe(false)

    const dir = tmp.path('robots')
    mkdirSync(dir)
    writeFileSync(join(dir, 'example.com'), 'User-agent: *\nDisallow: /private\n')
    const bundle = tmp.path('robots.bundle')
    const urls = 'http://example.com./private\nhttps://EXAMPLE.com.:443/private\nhttp://example.com/public\n'
    const cli = `"${process.execPath}" "${CLI}"`
    const script = [
      `${cli} pack "${dir}" -o "${bundle}" -q`,
      `${cli} filter --robots-dir "${dir}" --agent bot --print verdicts -q`,
      `${cli} filter --bundle "${bundle}" --agent bot --print verdicts -q <<< "http://example.com./private"`,
      `echo /private | ${cli} filter --robots-dir "${dir}" --agent bot --host example.com. -q`,
    ].join('\n')
    const r = spawnSync('bash', ['-c', script], { input: urls, encoding: 'utf8', timeout: 30_000 })
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(
      'disallowed\t2\thttp://example.com./private\ndisallowed\t2\thttps://EXAMPLE.com.:443/private\nallowed\t0\thttp://example.com/public\n' +
        'disallowed\t2\thttp://example.com./private\n',
    )
  })
})
