// audit of hosts whose robots.txt is an HTML page (a soft 404), classed as the reference reads it: said, as filter and check say it.
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

describe('audit and bodies that are no robots.txt', () => {
  it('regression: a host whose robots.txt was an HTML page was classed "everything" with no word said; now the first ten are warned about by host and the rest counted, with the bundle as with the folder, and -q says nothing', async () => {
    const dir = tmp.path('d')
    mkdirSync(dir)
    const page = '<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Page not found</body></html>\n'
    for (let i = 0; i < 12; i++) writeFileSync(`${dir}/h${String(i).padStart(2, '0')}.example`, page)
    writeFileSync(`${dir}/plain.example`, 'User-agent: *\nDisallow: /x\n')
    const bundle = tmp.path('d.bundle')
    expect((await run(['pack', dir, '-o', bundle, '-q'])).status).toBe(0)
    for (const source of [dir, bundle]) {
      const r = await run(['audit', source, '--crawlers', 'GPTBot'])
      expect(r.status, r.stderr).toBe(0)
      const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'))
      expect(warnings.slice(0, 10)).toEqual(
        Array.from({ length: 10 }, (_, i) => `robots-automaton: warning: 'h${String(i).padStart(2, '0')}.example' looks like an HTML page, not a robots.txt [html-body]; judged as the reference reads it, which finds no rule that disallows a URL: URLs allowed`),
      )
      expect(warnings.slice(10)).toEqual(['robots-automaton: warning: 2 more hosts whose robots.txt is no robots.txt (12 HTML in all), classed as the reference reads them'])
      // The classes are the reference's: every HTML host allows everything.
      const rows = r.stdout.toString().trimEnd().split('\n').slice(1)
      expect(rows.filter((l) => l.startsWith('h') && l.includes(',GPTBot,everything,none,ok,'))).toHaveLength(12)
      expect(rows.filter((l) => l.startsWith('plain.example,GPTBot,some,'))).toHaveLength(1)
    }
    const quiet = await run(['audit', dir, '--crawlers', 'GPTBot', '-q'])
    expect([quiet.status, quiet.stderr]).toEqual([0, ''])
  })
})
