// Categories: each tag on a case built to exercise it (and not on its near
// twin), and the property the harness relies on: an implementation that gets
// one feature wrong disagrees only on cases tagged with it.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { corpusCases } from '../../src/compare/cases/corpus-cases.js'
import { unitCases } from '../../src/compare/cases/unit-vectors.js'
import { specTestDirCases } from '../../src/compare/cases/spec-test.js'
import { CATEGORIES, isOddUrl } from '../../src/compare/categories.js'
import { Oracle } from '../../src/compare/oracle.js'
import { Random } from '../../src/compare/random.js'
import type { Case } from '../../src/compare/case.js'

const oracle = new Oracle()
const tags = (robots: string | Uint8Array, agents: string | string[], url: string): readonly string[] =>
  oracle.answer({
    id: 't',
    robots: typeof robots === 'string' ? new Uint8Array(Buffer.from(robots, 'utf8')) : robots,
    agents: typeof agents === 'string' ? [agents] : agents,
    url,
  }).categories

describe('categories of a case', () => {
  it.each<[string, string, string | string[], string, string, boolean]>([
    // [category, robots, agent, url with, url without]
    ['wildcard', 'User-agent: *\nDisallow: /a*b\n', 'x', '/a/b', '/c', true],
    ['end-anchor', 'User-agent: *\nDisallow: /a$\n', 'x', '/a/b', '/b', true],
    ['end-anchor', 'User-agent: *\nDisallow: /*.pdf$\n', 'x', '/x.pdf?q', '/x.html', true],
    ['precedence', 'User-agent: *\nDisallow: /a\nAllow: /a/b\n', 'x', '/a/b', '/a/c', true],
    ['index-html', 'User-agent: *\nAllow: /d/index.html\nDisallow: /\n', 'x', '/d/', '/e/', true],
    ['percent-encoding', 'User-agent: *\nDisallow: /a%2fb\n', 'x', '/a/b', '/c', true],
    ['percent-encoding', 'User-agent: *\nDisallow: /a/b\n', 'x', '/a%2Fb', '/c%2F', true],
    ['non-ascii', 'User-agent: *\nDisallow: /é\n', 'x', '/é', '/e', true],
    ['path-case', 'User-agent: *\nDisallow: /Admin\n', 'x', '/admin', '/user', true],
    ['comments', 'User-agent: *\nDisallow: /a#b\n', 'x', '/a', '/c', true],
    ['ua-case', 'User-agent: FooBot\nDisallow: /\n', 'foobot', '/', '/', false],
    ['ua-product-token', 'User-agent: FooBot\nDisallow: /\n', 'FooBot/2.1', '/', '/', false],
    ['ua-product-token', 'User-agent: Foo Bar\nDisallow: /\n', 'Foo', '/', '/', false],
    ['ua-prefix', 'User-agent: Googlebot\nDisallow: /\n', 'Googlebot-News', '/', '/', false],
    ['ua-global-fallback', 'User-agent: *\nDisallow: /\n', 'x', '/', '/', false],
    ['ua-specific-hides-global', 'User-agent: *\nDisallow: /\nUser-agent: x\nDisallow: /y\n', 'x', '/', '/', false],
    ['ua-multi', 'User-agent: a\nDisallow: /\n', ['a', 'b'], '/', '/', false],
    ['group-merging', 'User-agent: a\nDisallow: /x\nUser-agent: a\nDisallow: /y\n', 'a', '/', '/', false],
    ['group-merging', 'User-agent: a\nUser-agent: b\nDisallow: /x\n', 'b', '/', '/', false],
    ['empty-rules', 'User-agent: a\nDisallow:\n', 'a', '/', '/', false],
    ['rules-outside-group', 'Disallow: /a\nUser-agent: *\nDisallow: /b\n', 'x', '/a', '/c', true],
    ['key-typo', 'User-agent: *\nDissallow: /a\n', 'x', '/a', '/c', true],
    ['key-typo', 'User-agent: *\nDisallowed: /a\n', 'x', '/a', '/c', true],
    ['key-typo', 'User-agent: *\nDisalow /a\n', 'x', '/a', '/c', true],
    ['key-typo', 'User-agent: *\nDsallow: /a\n', 'x', '/a', '/c', true],
    ['missing-colon', 'User-agent: *\nDisallow /a\n', 'x', '/a', '/c', true],
    ['missing-colon', 'User-agent: *\nDisallow /a /b\n', 'x', '/a', '/c', true],
    ['url-forms', 'User-agent: *\nDisallow: /\n', 'x', '//host/a', 'http://host/a', true],
    ['absolute-url-rule', 'User-agent: *\nDisallow: https://example.com/private\n', 'x', 'https://example.com/private/x', 'https://example.com/public', true],
    ['line-convention', 'User-agent: *\nDisallow:\n', 'x', '/a', '/a', false],
    ['google-specific', 'User-agent: *\nDisallow /a\n', 'x', '/a', '/c', true],
    ['google-specific', 'User-agent: FooBot\nDisallow: /\n', 'FooBot/2.1', '/', '/', false],
    ['google-specific', 'User-agent: *\nDisallow: /\n', 'x', 'page.html', '/page.html', true],
    ['rfc-differs', 'User-agent: *\nDisallow: /a\n', 'x', '/%61', '/a', true],
    ['rfc-differs', 'User-agent: *\nDisallow: /\n', 'x', '/robots.txt', '/robots', true],
  ])('%s: %j', (category, robots, agent, withIt, without, urlDecides) => {
    expect(tags(robots, agent, withIt)).toContain(category)
    if (urlDecides) expect(tags(robots, agent, without)).not.toContain(category)
  })

  it('tags agent-level categories only when they hold', () => {
    expect(tags('User-agent: FooBot\nDisallow: /\n', 'FooBot', '/')).not.toContain('ua-case')
    expect(tags('User-agent: FooBot\nDisallow: /\n', 'FooBot', '/')).not.toContain('ua-product-token')
    expect(tags('User-agent: Bot\nDisallow: /\n', 'Bot/2.1', '/')).not.toContain('ua-prefix')
    expect(tags('User-agent: a\nDisallow: /x\n', 'a', '/')).not.toContain('group-merging')
    expect(tags('User-agent: *\nDisallow: /\n', 'x', '/')).not.toContain('ua-specific-hides-global')
  })

  it('tags body-level categories', () => {
    const b = (...parts: (string | number[])[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))))
    expect(tags(b([0xef, 0xbb], 'User-agent: *\nDisallow: /\n'), 'x', '/')).toContain('bom')
    expect(tags('User-agent: *\r\nDisallow: /\r\n', 'x', '/')).toContain('line-endings')
    expect(tags('User-agent: *\rDisallow: /\r', 'x', '/')).toContain('line-endings')
    expect(tags(b('User-agent: *\nDisallow: /a', [0], '/b\n'), 'x', '/')).toContain('nul')
    expect(tags(`User-agent: *\nDisallow: /${'a'.repeat(17000)}\n`, 'x', '/')).toContain('long-lines')
    expect(tags(`User-agent: *\n${'Disallow: /aaaaaaaaaaaaaaaaaaaa\n'.repeat(20000)}`, 'x', '/')).toContain('parsing-limit')
    expect(tags('User-agent: *\nDisallow: /\n', 'x', '/')).toEqual(['ua-global-fallback'])
  })

  it('odd URL forms', () => {
    for (const u of ['', 'http://h', 'http://h?q', '//h/p', '?q', ';p', '#f', '/p#f', 'http://u@h/p', 'http://h:81/p', 'p', 'HTTP://h/p', 'ftp://h/p']) {
      expect(isOddUrl(u), u).toBe(true)
    }
    for (const u of ['/', '/a?b', 'http://h/', 'https://a.b-c.com/x;y?z']) expect(isOddUrl(u), u).toBe(false)
  })

  it('every category has a description and a unique id', () => {
    expect(new Set(CATEGORIES.map((c) => c.id)).size).toBe(CATEGORIES.length)
    for (const c of CATEGORIES) expect(c.description.length).toBeGreaterThan(10)
  })
})

/** The body with each line's final `$` made literal (`$*`) or dropped (`*`): an implementation that ignores the end anchor. */
function unanchor(body: Uint8Array, mode: 'literal' | 'drop'): Uint8Array {
  const text = Buffer.from(body).toString('latin1')
  const out = text.replace(/\$(?=[ \t\v\f]*(?:#[^\r\n]*)?(?:\r\n|\r|\n|$))|\$(?=[ \t\v\f]*\0)/g, mode === 'drop' ? '*' : '$*')
  return new Uint8Array(Buffer.from(out, 'latin1'))
}

describe('an implementation that ignores $ disagrees only on end-anchor cases', () => {
  const corpus = resolve(__dirname, '../../corpus')
  const inputs = [
    ...corpusCases({ robotsDir: `${corpus}/robots`, urlsFile: `${corpus}/urls.txt`, count: 8_000, seed: 11, multiAgent: true }, oracle),
    ...unitCases(),
    ...specTestDirCases(resolve(__dirname, '../data/spec-test')),
  ]
  const cases: Case[] = inputs.map((c) => oracle.answer(c))

  it.each(['literal', 'drop'] as const)('$ read as %s', (mode) => {
    const broken = new Map<Uint8Array, ReturnType<typeof parseRobots>>()
    let disagreements = 0
    let anchored = 0
    for (const c of cases) {
      let r = broken.get(c.robots)
      if (!r) broken.set(c.robots, (r = parseRobots(unanchor(c.robots, mode))))
      const e = (c.agents.length === 1 ? r.agent(c.agents[0]) : r.agents(c.agents)).explain(c.url)
      const tagged = c.categories.includes('end-anchor')
      if (tagged) anchored++
      if (e.allowed !== c.expected.allowed || (e.rule?.line ?? 0) !== c.expected.line) {
        disagreements++
        expect(tagged, `${c.id} ${c.url}`).toBe(true)
      }
    }
    expect(disagreements).toBeGreaterThan(100)
    expect(anchored).toBeGreaterThan(disagreements)
  })

  it('on random small files made of $-heavy pieces too', () => {
    const rnd = new Random(7)
    const pieces = ['User-agent: a\n', 'User-agent: *\n', 'Disallow: /', 'Allow: /', '*', '$', '$', '$\n', '/', 'a', 'b', '%61', '\n', '\r\n', ' # c\n', '.pdf$\n', 'index.html', '$$\n', '\0']
    let disagreements = 0
    for (let i = 0; i < 8000; i++) {
      let body = ''
      for (let k = 2 + rnd.int(14); k > 0; k--) body += rnd.pick(pieces)
      let url = ''
      for (let k = rnd.int(8); k > 0; k--) url += rnd.pick(['/', 'a', 'b', '$', '*', '.pdf', '%61', 'A', '?', 'index.html', '#'])
      const robots = new Uint8Array(Buffer.from(body, 'latin1'))
      const c = oracle.answer({ id: String(i), robots, agents: [rnd.pick(['a', 'x'])], url })
      for (const mode of ['literal', 'drop'] as const) {
        const e = parseRobots(unanchor(robots, mode)).agent(c.agents[0]).explain(url)
        if (e.allowed !== c.expected.allowed || (e.rule?.line ?? 0) !== c.expected.line) {
          disagreements++
          expect(c.categories, `${mode} ${JSON.stringify(body)} ${JSON.stringify(url)}`).toContain('end-anchor')
        }
      }
    }
    expect(disagreements).toBeGreaterThan(20)
  })
})
