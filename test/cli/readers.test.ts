/**
 * The command line's readers of bytes fed by a hostile user: the same bytes in
 * every chunking give the same output, and what cannot be read is an error,
 * never data dropped in silence. Each regression is named after what went wrong.
 */
import { writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gunzipMembers } from '../../src/cli/filter/gunzip.js'
import { ensureBuilt, run, tempDir } from './helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /private\n')
})
afterAll(() => tmp?.cleanup())

/** `bytes` cut at `cuts`, as a source of chunks. */
async function* chunked(bytes: Buffer, cuts: readonly number[]): AsyncGenerator<Buffer> {
  let at = 0
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(at, cut)
    at = cut
  }
}

/** Everything `gunzipMembers` decodes from `bytes` cut at `cuts`, and the code of its error (or undefined). */
async function gunzipAt(bytes: Buffer, cuts: readonly number[]): Promise<{ text: string; code: string | undefined }> {
  const out: Buffer[] = []
  try {
    for await (const b of gunzipMembers(chunked(bytes, cuts))) out.push(b)
  } catch (err) {
    return { text: Buffer.concat(out).toString(), code: (err as { code?: string }).code }
  }
  return { text: Buffer.concat(out).toString(), code: undefined }
}

describe('gzip input after zero padding', () => {
  const A = 'https://a.test/a\n'
  const B = 'https://a.test/private\n'

  it('a member or text after zero padding is an error at every split, not dropped in silence (it was skipped with exit 0; zcat calls it trailing garbage)', async () => {
    for (const rest of [gzipSync(B), Buffer.from(B), Buffer.from([0, 0, 1])]) {
      const input = Buffer.concat([gzipSync(A), Buffer.alloc(4, 0), rest])
      for (let cut = 1; cut < input.length; cut++) {
        const r = await gunzipAt(input, [cut])
        expect(r, `cut at ${cut}`).toEqual({ text: A, code: 'Z_DATA_ERROR' })
      }
    }
  })

  it('zero padding to the end is still read as zcat reads it, at every split', async () => {
    const input = Buffer.concat([gzipSync(A), gzipSync(B), Buffer.alloc(700, 0)])
    for (let cut = 1; cut < input.length; cut++) expect(await gunzipAt(input, [cut])).toEqual({ text: A + B, code: undefined })
  })

  it('filter: a member after zero padding fails the run (exit 1) after the lines before it', async () => {
    const file = tmp.path('padded.gz')
    writeFileSync(file, Buffer.concat([gzipSync(A), Buffer.alloc(4, 0), gzipSync(B)]))
    const r = await run(['filter', '--robots', tmp.path('robots.txt'), '--agent', 'bot', '--print', 'verdicts', '-q', file])
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).toBe(`allowed\t0\t${A}`)
    expect(r.stderr).toBe(`robots-automaton: cannot read input file '${file}': not valid gzip data\n`)
  })
})

describe('pack JSON lines', () => {
  it('a line that is not valid UTF-8 stops the run naming the line (its body was packed with U+FFFD: Disallow: /caf\\xe9 became /caf%EF%BF%BD)', async () => {
    const file = tmp.path('latin1.jsonl')
    // A line of files joined with cat may start with a BOM too: skipped, as before.
    const good = Buffer.from('\ufeff{"origin":"https://b.test","body":"User-agent: *\\nDisallow: /caf\u00e9\\n"}\r\n\ufeff{"origin":"c.test","body":""}\n')
    const bad = Buffer.concat([Buffer.from('{"origin":"https://a.test","body":"User-agent: *\\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\\n"}\n')])
    writeFileSync(file, Buffer.concat([good, bad]))
    const r = await run(['pack', file, '-o', tmp.path('latin1.bundle')])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`robots-automaton: cannot read '${file}' line 3: not valid UTF-8 (a body that is not UTF-8 goes in "body_base64")\n`)
    // Valid UTF-8 (a BOM, CRLF, text past ASCII) packs as before.
    writeFileSync(file, good)
    const ok = await run(['pack', file, '-o', tmp.path('latin1.bundle'), '-q'])
    expect(ok.status, ok.stderr).toBe(0)
    const f = await run(['filter', '--bundle', tmp.path('latin1.bundle'), '--agent', 'bot', '--print', 'verdicts', '-q'], { input: 'https://b.test/caf%C3%A9\n' })
    expect(f.stdout.toString()).toBe('disallowed\t2\thttps://b.test/caf%C3%A9\n')
  })
})
