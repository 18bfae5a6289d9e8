/**
 * `filter --agent ''` is accepted, as `check` and `diff` accept it: the empty
 * token names the groups whose User-agent value reads as empty (the
 * reference's reading), with the same warning; the three commands agree.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => {
  ensureBuilt()
  writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /\n\nUser-agent: 123\nDisallow: /e\n')
  writeFileSync(tmp.path('all.txt'), 'User-agent: *\nAllow: /\n')
})
afterAll(() => tmp.cleanup())

const WARNING = "warning: --agent '' is not a product token ([A-Za-z_-]+): the empty token names the groups whose User-agent value reads as empty"

describe("--agent '' in filter, check and diff", () => {
  it('filter judges with the empty token, as check does', async () => {
    const f = await run(['filter', '--robots', tmp.path('r.txt'), '--agent', '', '--print', 'verdicts'], { input: '/x\n/e\n' })
    expect(f.status).toBe(0)
    expect(f.stdout.toString()).toBe('allowed\t0\t/x\ndisallowed\t5\t/e\n')
    expect(f.stderr).toContain(WARNING)
    const c = await run(['check', tmp.path('r.txt'), '--agent=', '/x', '/e'])
    expect(c.stdout.toString()).toBe('allowed\t/x\tno matching rule\ndisallowed\t/e\tline 5: Disallow: /e\n')
    const d = await run(['diff', tmp.path('all.txt'), tmp.path('r.txt'), '--agent='], { input: '/x\n/e\n' })
    expect(d.stdout.toString()).toBe('now-disallowed\t/e\tline 2: Allow: /\tline 5: Disallow: /e\n')
    expect(d.stderr).toContain(WARNING)
  })
})
