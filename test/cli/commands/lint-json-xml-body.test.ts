/**
 * `lint` on a body that is JSON or XML (a sitemap served as robots.txt):
 * JSON was linted as unknown directives with exit 0, and XML was called an
 * HTML page. Each is now a whole-file error naming what it is.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyKind } from '../../../src/cli/common/body-kind.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => ensureBuilt())
afterAll(() => tmp.cleanup())

const bytes = (s: string) => new TextEncoder().encode(s)

describe('lint: a JSON or XML body', () => {
  it('regression: a JSON body was linted with warnings only (exit 0) and an XML sitemap was called an HTML page; now json-body and xml-body whole-file errors, exit 1', async () => {
    const files = {
      json: ['\ufeff {"rules": []}\n', 'error: body is JSON, not a robots.txt [json-body]'],
      array: ['[{"path": "/"}]', 'error: body is JSON, not a robots.txt [json-body]'],
      sitemap: ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.test/</loc></url></urlset>\n', 'error: body is an XML sitemap, not a robots.txt [xml-body]'],
      xml: ['<?xml version="1.0"?>\n<rss><channel/></rss>\n', 'error: body is XML, not a robots.txt [xml-body]'],
    }
    for (const [name, [body, line]] of Object.entries(files)) {
      writeFileSync(tmp.path(name), body)
      const r = await run(['lint', tmp.path(name)])
      expect(r.status, name).toBe(1)
      const out = r.stdout.toString()
      expect(out.startsWith(`${tmp.path(name)}: ${line}\n`), out).toBe(true)
      expect(out).not.toContain('[html-body]')
      expect(r.stderr).toMatch(/: 1 error, /)
    }
    const j = await run(['lint', '--json', '-'], { input: '{"a":1}' })
    expect(JSON.parse(j.stdout.toString()).diagnostics[0]).toMatchObject({ line: 0, code: 'json-body', severity: 'error' })
    // An HTML page stays the library's html-body; a robots.txt is clean.
    writeFileSync(tmp.path('page'), '<!DOCTYPE html>\n<html><body>x</body></html>\n')
    expect((await run(['lint', tmp.path('page')])).stdout.toString()).toContain('[html-body]')
    writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /x\n')
    expect((await run(['lint', tmp.path('robots.txt')])).status).toBe(0)
    expect(bodyKind(bytes('<?xml version="1.0"?><!DOCTYPE html><html>'))).toBeUndefined()
    expect(bodyKind(bytes('# {"a"}\nUser-agent: *'))).toBeUndefined()
    expect(bodyKind(bytes('[section]\n'))).toBeUndefined()
    expect(bodyKind(bytes('<sitemapindex xmlns="x">'))).toBe('sitemap')
  })

  it('regression: check, filter --robots and diff said nothing of a JSON body and called an XML sitemap an HTML page; each now names what it is', async () => {
    writeFileSync(tmp.path('j.txt'), '{"rules": []}\n')
    writeFileSync(tmp.path('x.txt'), '<?xml version="1.0"?>\n<urlset><url><loc>https://a.test/</loc></url></urlset>\n')
    writeFileSync(tmp.path('r.txt'), 'User-agent: *\nDisallow: /x\n')
    const allowed = 'judged as the reference reads it, which finds no rule that disallows a URL: URLs allowed'
    const c = await run(['check', tmp.path('j.txt'), '--agent', 'a', '/x'])
    expect(c.stderr).toContain(`warning: '${tmp.path('j.txt')}' is JSON, not a robots.txt [json-body]; ${allowed}\n`)
    const f = await run(['filter', '--robots', tmp.path('x.txt'), '--agent', 'a'], { input: '/x\n' })
    expect(f.stderr).toContain(`warning: '${tmp.path('x.txt')}' is an XML sitemap, not a robots.txt [xml-body]; ${allowed}\n`)
    expect(f.stderr).not.toContain('HTML')
    const d = await run(['diff', tmp.path('r.txt'), tmp.path('j.txt'), '--agent', 'a'], { input: '/x\n' })
    expect(d.stderr).toContain(`'${tmp.path('j.txt')}' is JSON, not a robots.txt [json-body]`)
    expect((await run(['check', tmp.path('r.txt'), '--agent', 'a', '/x'])).stderr).not.toContain('warning')
  })
})
