// The RFC 9309 oracle: with no difference applied it gives the reference's
// answers on every set (so the RFC score is measured, not assumed); each
// difference gives RFC 9309's answer to the RFC's own examples, and changes
// answers only where what it is about is in play.
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyseAgents } from '../../src/compare/analysis.js'
import type { CaseInput } from '../../src/compare/case.js'
import { corpusCases } from '../../src/compare/cases/corpus-cases.js'
import { specTestDirCases } from '../../src/compare/cases/spec-test.js'
import { unitCases } from '../../src/compare/cases/unit-vectors.js'
import { decideRfc, Oracle } from '../../src/compare/oracle.js'
import { RFC_DIFFERENCES, rfcDecide, rfcRules, type RfcDifferenceId } from '../../src/compare/rfc-oracle.js'
import { SHARED, sharedHas } from '../support/shared-data.js'

const CORPUS = resolve(__dirname, '../../corpus')
const NONE: ReadonlySet<RfcDifferenceId> = new Set()

function sets(): CaseInput[] {
  const inputs = [...unitCases(), ...specTestDirCases(resolve(__dirname, '../data/spec-test'))]
  if (sharedHas('spec-test')) inputs.push(...specTestDirCases(resolve(SHARED, 'spec-test')))
  inputs.push(...corpusCases({ robotsDir: `${CORPUS}/robots`, urlsFile: `${CORPUS}/urls.txt`, count: 20_000, seed: 11, multiAgent: true }, new Oracle()))
  // RFC 9309 §2.2.3's examples, which no real file of the corpus happens to exercise.
  const special = new Uint8Array(Buffer.from('User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\nAllow: /a$b\n'))
  for (const url of ['https://www.example.com/path/file-with-a-*.html', 'https://www.example.com/path/foo-$', '/path/foo-%24', '/a$b', '/a%24b']) {
    inputs.push({ id: `rfc-example ${url}`, robots: special, agents: ['FooBot'], url })
  }
  // §2.2.2's implicitly allowed /robots.txt, which the bundled sample's URLs never ask for (only ../shared's spec-test does).
  const disallowAll = new Uint8Array(Buffer.from('User-agent: *\nDisallow: /\n'))
  for (const url of ['https://www.example.com/robots.txt', 'https://www.example.com/robots.txt?x=1']) {
    inputs.push({ id: `rfc-example ${url}`, robots: disallowAll, agents: ['FooBot'], url })
  }
  return inputs
}

/** RFC 9309's answer with the differences `d` only. */
function rfcWith(oracle: Oracle, input: CaseInput, d: ReadonlySet<RfcDifferenceId>) {
  const body = oracle.body(input.robots)
  return rfcDecide(rfcRules(body, analyseAgents(body, input.agents)), input.url, d)
}

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'))
const rfc = (robots: string, url: string, agent = 'FooBot') => decideRfc(bytes(robots), [agent], url)

describe('the RFC 9309 oracle', () => {
  const inputs = sets()

  it('with no difference applied, gives the reference\'s answers, lines included, on every set', () => {
    const oracle = new Oracle()
    let n = 0
    // One expect for the sets (the first case answered otherwise named), not one a case.
    let wrong: string | undefined
    for (const input of inputs) {
      const c = oracle.answer(input)
      const r = rfcWith(oracle, input, NONE)
      const [got, want] = [JSON.stringify([r.allowed, r.line]), JSON.stringify([c.expected.allowed, c.expected.line])]
      if (wrong === undefined && got !== want) wrong = `${c.id} ${JSON.stringify(c.url)}: ${got} against ${want}`
      n++
    }
    expect(wrong).toBeUndefined()
    expect(n).toBeGreaterThan(20_000)
  })

  it('answers the RFC\'s own examples as the RFC does (the reference answers otherwise)', () => {
    // §2.2.2: "/foo/bar/%62%61%7A" is matched as "/foo/bar/baz"; a URI's octets outside ASCII are percent-encoded.
    expect(rfc('User-agent: *\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n', 'http://foo.bar/foo/bar/baz')).toMatchObject({ allowed: true, line: 3 })
    expect(rfc('User-agent: *\nDisallow: /\nAllow: /foo/bar/baz\n', 'http://foo.bar/foo/bar/%62%61%7a')).toMatchObject({ allowed: true, line: 3 })
    expect(rfc('User-agent: *\nDisallow: /\nAllow: /foo/bar/ツ\n', 'http://foo.bar/foo/bar/ツ')).toMatchObject({ allowed: true, line: 3 })
    expect(rfc('User-agent: *\nDisallow: /\nAllow: /foo/bar/ツ\n', 'http://foo.bar/foo/bar/%E3%83%84')).toMatchObject({ allowed: true, line: 3 })
    // §2.2.3: %2A and %24 in a pattern match a * and a $ of the URI.
    expect(rfc('User-agent: *\nDisallow: /path/file-with-a-%2A.html\n', 'https://www.example.com/path/file-with-a-*.html')).toMatchObject({ allowed: false, line: 2 })
    expect(rfc('User-agent: *\nDisallow: /path/foo-%24\n', 'https://www.example.com/path/foo-$')).toMatchObject({ allowed: false, line: 2 })
    // §2.2.2: "The /robots.txt URI is implicitly allowed."
    expect(rfc('User-agent: *\nDisallow: /\n', 'https://example.com/robots.txt')).toEqual({ allowed: true, line: 0, rule: null })
    expect(rfc('User-agent: *\nDisallow: /\n', 'https://example.com/robots.txt.bak')).toMatchObject({ allowed: false, line: 2 })
    // §2.2.2: a match only when the rule's path is reached: Allow /d/index.html does not allow /d/.
    expect(rfc('User-agent: *\nAllow: /d/index.html\nDisallow: /\n', 'https://example.com/d/')).toMatchObject({ allowed: false, line: 3 })
    expect(rfc('User-agent: *\nAllow: /d/index.html\nDisallow: /\n', 'https://example.com/d/index.html')).toMatchObject({ allowed: true, line: 2 })
  })

  it('leaves what the RFC does not decide as the reference has it', () => {
    // Reserved characters stay encoded: %2F is no /.
    expect(rfc('User-agent: *\nDisallow: /a%2Fb\n', 'https://example.com/a/b')).toMatchObject({ allowed: true, line: 0 })
    // The longest match wins, a tie goes to allow; a * matches any octets; $ anchors.
    expect(rfc('User-agent: *\nDisallow: /a\nAllow: /a\n', '/a')).toMatchObject({ allowed: true, line: 3 })
    expect(rfc('User-agent: *\nDisallow: /*.gif$\n', '/x/y.gif')).toMatchObject({ allowed: false, line: 2 })
    expect(rfc('User-agent: *\nDisallow: /*.gif$\n', '/x/y.gif?q')).toMatchObject({ allowed: true, line: 0 })
    // Groups: the crawler's own, else *; rules before any group ignored.
    expect(rfc('Disallow: /x\nUser-agent: *\nDisallow: /y\nUser-agent: FooBot\nAllow: /\n', '/y')).toMatchObject({ allowed: true, line: 5 })
  })

  it.each(RFC_DIFFERENCES.map((d) => d.id))('%s alone changes answers only where it is in play', (id) => {
    const inPlay: Record<RfcDifferenceId, (robots: string, url: string) => boolean> = {
      'percent-unreserved': (robots, url) => /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/.test(robots + url),
      'non-ascii-uri': (_robots, url) => /[^\x00-\x7f]/.test(url),
      'special-characters': (robots, url) => /[*$]/.test(url) || /%2[Aa4]|\$./.test(robots),
      'index-html': (robots) => /index\.htm/.test(robots),
      'robots-txt-allowed': (_robots, url) => url.includes('/robots.txt'),
    }
    const oracle = new Oracle()
    const only = new Set([id])
    let changed = 0
    for (const input of inputs) {
      const c = oracle.answer(input)
      const r = rfcWith(oracle, input, only)
      if (r.allowed === c.expected.allowed && r.line === c.expected.line) continue
      changed++
      expect(inPlay[id](Buffer.from(input.robots).toString('latin1'), input.url), `${c.id} ${JSON.stringify(c.url)}`).toBe(true)
    }
    expect(changed, id).toBeGreaterThan(0)
  })

  it('tags each case with its standard: rfc-differs exactly where the RFC answers otherwise', () => {
    const oracle = new Oracle()
    const counts = { rfc: 0, 'google-specific': 0, 'rfc-differs': 0 }
    for (const input of inputs) {
      const c = oracle.answer(input)
      counts[c.standard]++
      const differs = c.rfc.allowed !== c.expected.allowed || c.rfc.line !== c.expected.line
      // Each expect is made only when its check fails (the same check, the same message): thousands of cases pass.
      if (c.standard === 'rfc-differs' !== differs) expect(c.standard === 'rfc-differs', c.id).toBe(differs)
      if (c.categories.includes('rfc-differs') !== differs) expect(c.categories.includes('rfc-differs'), c.id).toBe(differs)
      if (c.categories.includes('google-specific') !== (c.standard === 'google-specific')) expect(c.categories.includes('google-specific'), c.id).toBe(c.standard === 'google-specific')
    }
    for (const n of Object.values(counts)) expect(n).toBeGreaterThan(50)
  })
})

describe('rfcRules', () => {
  const body = new Oracle().body(new Uint8Array(Buffer.from('User-agent: FooBot\nDisallow: /foo%41\n\nUser-agent: BarBot\nUser-agent: *\nDisallow: /a$\n', 'utf8')))
  const rules = (...agents: string[]) => rfcRules(body, analyseAgents(body, agents))

  it('RFC rules replayed for every crawler token that names the same user-agent lines: one replay per selection', () => {
    expect(rules('Ba42zBot')).toBe(rules('QuxBot'))
    expect(rules('Ba42zBot', 'QuxBot')).toBe(rules('QuxBot'))
    expect(rules('FooBot')).toBe(rules('foobot'))
    expect(rules('FooBot', 'QuxBot')).toBe(rules('foobot'))
    expect(rules('FooBot')).not.toBe(rules('QuxBot'))
    expect(rules('BarBot')).not.toBe(rules('QuxBot'))
    expect(rules('FooBot', 'BarBot')).not.toBe(rules('FooBot'))
    expect(rules('QuxBot').rules.map((r) => r.line)).toEqual([6])
    expect(rules('BarBot').rules.map((r) => r.line)).toEqual([6])
    expect(rules('FooBot').rules.map((r) => r.line)).toEqual([2])
    expect(rules('FooBot', 'BarBot').rules.map((r) => r.line)).toEqual([2, 6])
  })
})
