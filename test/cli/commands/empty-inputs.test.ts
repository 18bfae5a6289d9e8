/**
 * Empty inputs: `fetch` of an empty URL list wrote an empty bundle with
 * exit 0, and `audit` of a snapshot holding no host (or `--fetch` of an
 * empty list) wrote a header and exit 0, as though a run had been done.
 * Each now says so and exits 4, the status of "no host" (documented);
 * `filter`/`diff` of an empty bundle warn that every line is judged as of a
 * host without one.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RobotsStore } from '../../../src/index.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => ensureBuilt())
afterAll(() => tmp.cleanup())

describe('empty inputs', () => {
  it('regression: fetch of an empty URL list wrote an empty bundle with exit 0; now exit 4, nothing written', async () => {
    writeFileSync(tmp.path('empty.txt'), '')
    const f = await run(['fetch', tmp.path('empty.txt'), '-o', tmp.path('a.bundle')])
    expect(f.status).toBe(4)
    expect(f.stderr).toBe('robots-automaton: the URL list is empty (0 lines read): no host to fetch, nothing written\n')
    expect(existsSync(tmp.path('a.bundle'))).toBe(false)
    const s = await run(['fetch', '-o', tmp.path('a.bundle')], { input: '' })
    expect(s.status).toBe(4)
    expect(existsSync(tmp.path('a.bundle'))).toBe(false)
  })

  it('regression: audit of an empty snapshot (bundle or directory, OLD and NEW alike) and audit --fetch of an empty list exited 0; now exit 4, said', async () => {
    const bundle = tmp.path('empty.bundle')
    writeFileSync(bundle, new RobotsStore().toBytes())
    mkdirSync(tmp.path('empty-dir'))
    const snapshots = [[tmp.path('empty-dir')], [bundle]]
    for (const snap of snapshots) {
      const one = await run(['audit', ...snap, '--crawlers', 'a'])
      expect(one.status, snap.join(' ')).toBe(4)
      expect(one.stderr).toMatch(/holds no host's robots\.txt: nothing audited\n$/)
      const two = await run(['audit', ...snap, ...snap, '--crawlers', 'a', '-q'])
      expect(two.status).toBe(4)
      expect(two.stderr).toMatch(/^robots-automaton: neither .* holds a host's robots\.txt: nothing compared\n$/)
    }
    const f = await run(['audit', '--fetch', '--crawlers', 'a'], { input: '' })
    expect(f.status).toBe(4)
    expect(f.stderr).toContain('the list is empty (0 lines read): no host to fetch, nothing audited')
    // A snapshot with a host is audited as before.
    mkdirSync(tmp.path('one-dir'))
    writeFileSync(tmp.path('one-dir/a.test'), 'User-agent: *\nDisallow: /\n')
    expect((await run(['audit', '--robots-dir', tmp.path('one-dir'), '--crawlers', 'a', '-q'])).status).toBe(0)
  })
})
