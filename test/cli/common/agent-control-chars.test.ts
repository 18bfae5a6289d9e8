/**
 * `--agent` (check, filter, diff) and a token holding a control character
 * (a line break, NUL, a tab inside), and `--crawlers` with a tab inside a
 * name: a usage error from the one shared check, never a crawler that names
 * no group, judged by the `*` groups alone with exit 0.
 */
import { writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCrawlers } from '../../../src/cli/common/crawlers-option.js'
import { UsageError } from '../../../src/cli/common/cli-error.js'
import { hasControlCharacter, refuseControlInAgents } from '../../../src/cli/common/control-chars.js'
import { ensureBuilt, run, tempDir } from '../helpers.js'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  writeFileSync(tmp.path('robots.txt'), 'User-agent: googlebot\nDisallow: /g\n')
})
afterAll(() => tmp.cleanup())

describe('--agent: control characters', () => {
  it('regression: --agent with a newline, NUL or tab inside was judged by the * groups alone with exit 0 in check, filter and diff; now a usage error (exit 2) in each', async () => {
    const robots = tmp.path('robots.txt')
    const commands = (agent: string): string[][] => [
      ['check', robots, '--agent', agent, 'http://a.test/g'],
      ['filter', '--robots', robots, '--agent', agent],
      ['diff', robots, robots, '--agent', agent],
    ]
    for (const agent of ['google\nbot', 'google\u0001bot', 'google\tbot', '\tgooglebot', 'googlebot\r']) {
      for (const args of commands(agent)) {
        const r = await run(args, { input: 'http://a.test/g\n' })
        expect(r.status, `${args[0]} ${JSON.stringify(agent)}`).toBe(2)
        expect(r.stdout.toString()).toBe('')
        expect(r.stderr).toMatch(new RegExp(`^robots-automaton: ${args[0]}: --agent '[^']*': holds a control character \\(a line break, NUL, a tab\\)`))
      }
    }
    // NUL cannot reach argv; the shared check refuses it.
    expect(() => refuseControlInAgents(['googlebot', 'google\u0000bot'])).toThrow(UsageError)
    expect(() => refuseControlInAgents(['googlebot', '', 'Google bot'])).not.toThrow()
    // A product token, an empty token and a token with a space are taken as before (with their warnings).
    expect((await run(['check', robots, '--agent', 'googlebot', 'http://a.test/g'])).status).toBe(0)
    expect((await run(['check', robots, '--agent', 'Google bot', 'http://a.test/g'])).status).toBe(0)
  })

  it('regression: a tab inside a --crawlers name was taken as one crawler naming no group; now refused like a line break (tabs around a name are trimmed as before)', async () => {
    expect(() => parseCrawlers(['google\tbot'])).toThrow(/a crawler's name holds a control character/)
    expect(() => parseCrawlers(['a+google\tbot'])).toThrow(/a crawler's name holds a control character/)
    expect(parseCrawlers(['\tgooglebot\t+ bingbot ']).map((c) => c.name)).toEqual(['googlebot+bingbot'])
    const r = await run(['audit', '--fetch', '--crawlers', 'google\tbot'], { input: '' })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain("a crawler's name holds a control character")
    expect(hasControlCharacter('Bötli')).toBe(false)
    expect(hasControlCharacter('a\u0085b')).toBe(true)
  })
})
