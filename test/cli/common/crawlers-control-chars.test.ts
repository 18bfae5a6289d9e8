/**
 * `--crawlers` (check, filter, diff, audit: one parser) and a name holding a
 * line break, NUL or another control character, from the command line or
 * an @FILE: a usage error naming where, never one crawler that names no
 * group (judged by the `*` groups alone, exit 0 under -q).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCrawlers } from '../../../src/cli/common/crawlers-option.js'
import { UsageError } from '../../../src/cli/common/cli-error.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

const refusal = (values: string[]): string => {
  try {
    parseCrawlers(values)
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as Error).message
  }
  return 'taken'
}

describe('--crawlers: control characters inside a name', () => {
  it('regression: a list pasted into one value ("$(cat list)": googlebot LF bingbot) was one crawler judged by the * groups alone, exit 0 under -q; now a usage error, on the command line and in @FILE', async () => {
    const pasted = "--crawlers 'googlebot\nbingbot': a crawler's name holds a control character (a line break, NUL): crawlers are separated by ',', or one a line in '--crawlers @FILE'"
    expect(refusal(['googlebot\nbingbot'])).toBe(pasted)
    expect(refusal(['a,google\rbot'])).toMatch(/^--crawlers 'a,google\rbot': a crawler's name holds a control character \(a line break, NUL\): /)
    expect(refusal(['a+b\u0000c'])).toMatch(/'a\+b\u0000c': a crawler's name holds a control character/)
    expect(refusal(['a+b\u007fc'])).toMatch(/'a\+b\u007fc': a crawler's name holds a control character/)
    const file = tmp.path('list.txt')
    writeFileSync(file, '# crawlers\ngooglebot\r\nbing\rbot\n')
    expect(refusal([`@${file}`])).toBe(`--crawlers @${file}, line 3: a crawler's name holds a control character (a line break, NUL): crawlers are separated by ',', or one a line in '--crawlers @FILE'`)
    writeFileSync(file, 'google\u0000bot\n')
    expect(refusal([`@${file}`])).toMatch(/, line 1: a crawler's name holds a control character \(a line break, NUL\): crawlers are separated by ','/)
    // Blanks around a name, CRLF line ends, tabs at the edges and non-ASCII names are as before.
    writeFileSync(file, 'googlebot\r\n\tbingbot \r\n')
    expect(parseCrawlers([`@${file}`, ' a\t+ b ', 'Bötli']).map((c) => c.name)).toEqual(['googlebot', 'bingbot', 'a+b', 'Bötli'])
    // Through the command: a usage error (exit 2), nothing judged.
    writeFileSync(tmp.path('robots.txt'), 'User-agent: googlebot\nDisallow: /g\n')
    const r = await run(['check', tmp.path('robots.txt'), '--crawlers', 'googlebot\nbingbot', '-q', 'http://a.test/g'])
    expect(r.status).toBe(2)
    expect(r.stdout.toString()).toBe('')
    expect(r.stderr).toContain("check: --crawlers 'googlebot\\x0abingbot': a crawler's name holds a control character")
  })
})
