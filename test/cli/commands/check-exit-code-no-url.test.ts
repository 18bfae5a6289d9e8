/**
 * `check --exit-code` with no URL at all (an empty stdin) has no verdict to
 * give: it exits 4 (ERR_NO_URL, as filter and diff do when no line held a
 * URL), not 0, which a script reads as "every URL allowed".
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => {
  ensureBuilt()
  writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /p\n')
})
afterAll(() => tmp.cleanup())

describe('check --exit-code with no URL', () => {
  it('exits 4 with ERR_NO_URL when stdin holds no URL', async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A', '--exit-code'], { input: '' })
    expect(r.status).toBe(4)
    expect(r.stdout.length).toBe(0)
    expect(r.stderr).toMatch(/no URL was checked/)
  })

  it("exits 4 when '-' reads an empty stdin", async () => {
    const r = await run(['check', tmp.path('r.txt'), '--agent', 'A', '--exit-code', '-'], { input: '' })
    expect(r.status).toBe(4)
  })

  it('still gives the verdict when a URL was checked, and 0 without --exit-code', async () => {
    expect((await run(['check', tmp.path('r.txt'), '--agent', 'A', '--exit-code', '/x'])).status).toBe(0)
    expect((await run(['check', tmp.path('r.txt'), '--agent', 'A', '--exit-code', '/p'])).status).toBe(3)
    expect((await run(['check', tmp.path('r.txt'), '--agent', 'A'], { input: '' })).status).toBe(0)
  })
})
