// Minimisation keeps the disagreement and shrinks the robots.txt (and the URL).
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import type { Answer, Request } from '../../src/compare/adapters/adapter.js'
import { minimise, splitLines } from '../../src/compare/minimise.js'
import { outcomeOf } from '../../src/compare/outcome.js'
import { decide, Oracle } from '../../src/compare/oracle.js'

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'))

/** An implementation that reads the final `$` literally, counting its calls. */
function ignoresDollar(): { judge: (r: Request) => Promise<Answer>; calls: () => number } {
  let calls = 0
  return {
    judge: async (r) => {
      calls++
      const body = Buffer.from(r.robots).toString('latin1').replace(/\$(?=\r?\n|$)/gm, '$*')
      const m = parseRobots(enc(body)).agents(r.agents)
      const e = m.explain(r.url)
      return { allowed: e.allowed, line: e.rule?.line ?? 0 }
    },
    calls: () => calls,
  }
}

const BODY = [
  'User-agent: *',
  ...Array.from({ length: 30 }, (_, i) => `Disallow: /private${i}/`),
  'Disallow: /*.pdf$',
  'Allow: /public',
  'Sitemap: https://example.com/sitemap.xml',
  '',
  'User-agent: otherbot',
  'Disallow: /',
  '',
].join('\n')

describe('minimise', () => {
  it('keeps the direction of a verdict disagreement: a smaller case that disagrees the other way is no repro', async () => {
    // The implementation answers the opposite of the reference, always: any smaller body disagrees on the verdict,
    // but dropping the Disallow line would make it the implementation that disallows.
    const opposite = async (r: Request): Promise<Answer> => ({ allowed: !decide(r.robots, r.agents, r.url).allowed })
    const c = new Oracle().answer({ id: 'd', robots: enc('User-agent: *\nDisallow: /a\nAllow: /a/c\n'), agents: ['FooBot'], url: '/a/b' })
    expect(c.expected.allowed).toBe(false)
    const m = (await minimise(c, 'verdict', opposite, 100, { allowed: true }))!
    expect(m.expected.allowed).toBe(false)
    expect(m.answer.allowed).toBe(true)
    expect(Buffer.from(m.robots).toString()).toBe('User-agent: *\nDisallow: /a\n')
  })

  it('keeps the disagreement and shrinks the file and the URL, within its budget', async () => {
    const c = new Oracle().answer({ id: 'm', robots: enc(BODY), agents: ['FooBot'], url: 'https://example.com/docs/a/b.pdf#top' })
    expect(c.expected).toMatchObject({ allowed: false, line: 32 })
    const impl = ignoresDollar()
    const first = await impl.judge(c)
    expect(outcomeOf(c.expected, first)).toBe('verdict')
    const m = await minimise(c, 'verdict', impl.judge, 200)
    expect(m).toBeDefined()
    expect(m!.linesBefore).toBe(splitLines(c.robots).length)
    expect(m!.linesAfter).toBeLessThan(m!.linesBefore)
    expect(Buffer.from(m!.robots).toString()).toBe('User-agent: *\nDisallow: /*.pdf$\n')
    expect(m!.url).toBe('https://example.com/docs/a/b.pdf')
    expect(outcomeOf(m!.expected, m!.answer)).toBe('verdict')
    expect(m!.expected).toEqual(decide(m!.robots, c.agents, m!.url))
    expect(m!.calls).toBe(impl.calls() - 1)
    expect(m!.calls).toBeLessThanOrEqual(200)
    expect(m!.complete).toBe(true)
  })

  it('stops at the budget, keeping what it found', async () => {
    const c = new Oracle().answer({ id: 'm', robots: enc(BODY), agents: ['FooBot'], url: '/x.pdf' })
    const impl = ignoresDollar()
    const m = await minimise(c, 'verdict', impl.judge, 8)
    expect(impl.calls()).toBe(8)
    expect(m).toBeDefined()
    expect(m!.complete).toBe(false)
    expect(m!.linesAfter).toBeLessThan(m!.linesBefore)
    expect(outcomeOf(m!.expected, m!.answer)).toBe('verdict')
  })

  it('gives nothing when no smaller case disagrees', async () => {
    const c = new Oracle().answer({ id: 'm', robots: enc('User-agent: *\nDisallow: /a$'), agents: ['x'], url: '/a' })
    // Wrong on the case itself only: every smaller candidate gets the reference's answer.
    const m = await minimise(c, 'verdict', async (r) => ({ allowed: decide(r.robots, r.agents, r.url).allowed }), 50)
    expect(m).toBeUndefined()
  })

  it('splitLines keeps every line ending (LF, CR, CRLF)', () => {
    const lines = splitLines(enc('a\r\nb\rc\n\nd'))
    expect(lines.map((l) => Buffer.from(l).toString())).toEqual(['a\r\n', 'b\r', 'c\n', '\n', 'd'])
  })

  it('outcomeOf checks a line only when the answer has one', () => {
    const e = { allowed: false, line: 3, rule: null }
    expect(outcomeOf(e, { allowed: false })).toBe('agree')
    expect(outcomeOf(e, { allowed: false, line: 3 })).toBe('agree')
    expect(outcomeOf(e, { allowed: false, line: 4 })).toBe('line')
    expect(outcomeOf(e, { allowed: true, line: 3 })).toBe('verdict')
    expect(outcomeOf(e, { error: 'x' })).toBe('error')
  })
})
