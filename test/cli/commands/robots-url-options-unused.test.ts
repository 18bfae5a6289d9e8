// The options of a ROBOTS URL (--stand-in, --resolve, --connect-to,
// --dns-server) given when no ROBOTS is a URL were ignored in silence: a
// user who routed or stood in for a file, or for per-host rules, was told
// nothing. They are a usage error now, as audit's --fetch options are
// without --fetch.
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: *\nDisallow: /p\n')
  mkdirSync(tmp.path('robots'))
  writeFileSync(tmp.path('robots/example.com'), 'User-agent: *\nDisallow: /p\n')
})
afterAll(() => tmp.cleanup())

describe('ROBOTS URL options without a ROBOTS URL', () => {
  it('regression: check FILE --stand-in and filter --robots-dir DIR --resolve ran as if the option applied; each is a usage error naming it, nothing written', async () => {
    const runs = [
      ['check', tmp.path('robots.txt'), '--agent', 'G', '--stand-in', '/p'],
      ['filter', '--robots-dir', tmp.path('robots'), '--agent', 'G', '--resolve', 'example.com:443:127.0.0.1'],
    ]
    for (const args of runs) {
      const r = await run(args, { input: 'https://example.com/p\n' })
      const option = args.find((a) => a === '--stand-in' || a === '--resolve')!
      expect([r.status, r.stdout.length, r.stderr], args.join(' ')).toEqual([
        2,
        0,
        `robots-automaton: ${args[0]}: '${option}' applies only to a ROBOTS that is an http(s) URL, and no ROBOTS here is one (see 'robots-automaton ${args[0]} --help')\n`,
      ])
    }
  })
})
