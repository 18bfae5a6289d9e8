// `compare --export` of a case set with cases whose crawler has several
// tokens: without --multi-agent they are left out of the file, and the note
// says how many and why (it said "2 cases written", the third gone in
// silence); with --multi-agent every case is written.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

describe('compare --export: cases left out are said', () => {
  it('regression: an export without --multi-agent dropped the cases of several tokens in silence; the note counts them and names the option', async () => {
    const cases = tmp.path('cases.jsonl')
    writeFileSync(
      cases,
      [
        { id: 'one', robots: 'User-agent: *\nDisallow: /private\n', agent: 'FooBot', url: '/private/x' },
        { id: 'two', robots: 'User-agent: *\nDisallow: /x\n', agent: ['FooBot-News', 'FooBot'], url: '/x' },
        { id: 'three', robots: 'User-agent: FooBot\nDisallow: /y\n', agent: 'FooBot', url: '/y' },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n') + '\n',
    )
    const out = tmp.path('out.jsonl')
    const r = await run(['compare', '--cases', cases, '--export', out])
    expect(r.status).toBe(0)
    expect(r.stderr).toBe(`robots-automaton: 2 cases written to ${out}; 1 case whose crawler has several tokens left out (add --multi-agent to keep them)\n`)
    expect(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['one', 'three'])
  })
})
