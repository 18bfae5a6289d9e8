// The per-crawler analysis of a body: crawlers that select the same groups
// share one list of rule infos (made once per selection, not once per token),
// while the tags that depend on the token stay each crawler's own.
import { describe, expect, it } from 'vitest'
import { analyseAgents, analyseBody } from '../../src/compare/analysis.js'

const body = analyseBody(new Uint8Array(Buffer.from('User-agent: FooBot\nDisallow: /foo*\n\nUser-agent: *\nDisallow: /a$\nAllow: /a/index.html\n', 'utf8')))

describe('analyseAgents', () => {
  it('rule infos rebuilt for every crawler token that selects the same groups: one list per selection', () => {
    const a = analyseAgents(body, ['BarBot'])
    const b = analyseAgents(body, ['Ba42zBot'])
    const c = analyseAgents(body, ['BarBot', 'BazBot'])
    expect(a).not.toBe(b)
    expect(b.rules).toBe(a.rules)
    expect(c.rules).toBe(a.rules)
    expect(a.rules.map((r) => r.line)).toEqual([5, 6, 6])
    const foo = analyseAgents(body, ['foobot'])
    expect(foo.rules).not.toBe(a.rules)
    expect(analyseAgents(body, ['FooBot']).rules).toBe(foo.rules)
    expect(foo.rules.map((r) => r.line)).toEqual([2])
  })

  it("the token tags stay each crawler's own when the rule infos are shared", () => {
    expect(analyseAgents(body, ['foobot']).categories).toContain('ua-case')
    expect(analyseAgents(body, ['FooBot']).categories).not.toContain('ua-case')
    expect(analyseAgents(body, ['FooBot/2.1']).categories).toContain('ua-product-token')
    expect(analyseAgents(body, ['FooBot-News']).categories).toContain('ua-prefix')
    expect(analyseAgents(body, ['BarBot']).categories).toEqual(['ua-global-fallback'])
    expect(analyseAgents(body, ['FooBot']).agentLines.map((l) => l.line)).toEqual([1])
    expect(analyseAgents(body, ['BarBot']).agentLines.map((l) => l.line)).toEqual([4])
  })
})
