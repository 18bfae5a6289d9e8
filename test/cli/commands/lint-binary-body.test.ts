/**
 * `lint` on a body that is no robots.txt text: a gzip-compressed file or
 * other binary data was linted line by line as garbage, with warnings only
 * and exit 0, while `check` and `filter` call such a body binary. It is now a
 * whole-file error (`binary-body`), exit 1, naming gzip when it is that.
 */
import { writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

const tmp = tempDir()
beforeAll(() => {
  ensureBuilt()
  const body = 'User-agent: *\nDisallow: /p\n'
  writeFileSync(tmp.path('robots.txt.gz'), gzipSync(body.repeat(40)))
  // Binary data of many lines: every line holds control bytes.
  writeFileSync(tmp.path('image.bin'), Buffer.from(Array.from({ length: 600 }, (_, i) => (i % 23 === 0 ? 10 : (i * 7) % 32))))
  writeFileSync(tmp.path('ok.txt'), body)
})
afterAll(() => tmp.cleanup())

describe('lint: a binary body', () => {
  it('regression: lint said nothing of a gzip-compressed or binary body (exit 0); now a whole-file binary-body error, exit 1, text and JSON alike', async () => {
    const files = [tmp.path('robots.txt.gz'), tmp.path('image.bin'), tmp.path('ok.txt')]
    const r = await run(['lint', ...files])
    const out = r.stdout.toString()
    expect(r.status).toBe(1)
    expect(out).toContain(`${files[0]}: error: body is gzip data, not a robots.txt [binary-body]\n`)
    expect(out).toContain(`${files[1]}: error: body is binary data, not a robots.txt [binary-body]\n`)
    expect(out).not.toContain(`${files[2]}:`)
    expect(r.stderr).toMatch(/ok\.txt: 0 errors, 0 warnings/)
    expect(r.stderr).toMatch(/robots\.txt\.gz: 1 error,/)
    const j = await run(['lint', '--format', 'jsonl', files[0]])
    expect(j.status).toBe(1)
    const report = JSON.parse(j.stdout.toString())
    expect(report.errors).toBe(1)
    expect(report.diagnostics[0]).toMatchObject({ line: 0, code: 'binary-body', severity: 'error' })
  })
})
