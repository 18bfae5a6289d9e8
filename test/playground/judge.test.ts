/**
 * The tester page's answers without the page (src/playground/judge.ts):
 * each verdict and line is the library's, each rule is shown as `check`
 * shows it (implied rules marked), the stand-ins of an unavailable and an
 * unreachable robots.txt, the changes as `diff` finds them, and the slices.
 */
import { describe, expect, it, vi } from 'vitest'
import { parseRobots, ruleText } from '../../src/index.js'
import { diffAll, inSlices, judgeAll, JudgedSide, SLICE_ITEMS, SLICE_MS, type RunToken } from '../../src/playground/judge.js'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/** The reference's 145 allow/disallow vectors (test/data/conformance). */
const VECTORS = JSON.parse(readFileSync(resolve(__dirname, '../data/conformance/google-robots-test.json'), 'utf8')) as {
  id: string
  robotstxt: string
  useragent: string
  url: string
  allowed: boolean
}[]

const live = (): RunToken => ({ cancelled: false })

describe('JudgedSide: the verdicts, lines and rule texts of check', () => {
  it('equal the library and ruleText on the reference vectors', () => {
    for (const r of VECTORS) {
      const tokens = [r.useragent]
      const side = new JudgedSide({ text: r.robotstxt, outcome: 'file' }, tokens)
      const robots = parseRobots(r.robotstxt)
      const m = robots.agents(tokens)
      const e = m.explain(r.url)
      const v = side.verdict(r.url)
      expect(v.allowed, r.id).toBe(r.allowed)
      expect(v.allowed, r.id).toBe(e.allowed)
      expect(v.line, r.id).toBe(e.rule?.line ?? 0)
      expect(v.rule, r.id).toBe(ruleText(m, e.rule).text)
    }
  })

  it("an index.html rule's directory form is implied and highlights its line", () => {
    const side = new JudgedSide({ text: 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n', outcome: 'file' }, ['bot'])
    expect(side.verdict('/d/')).toEqual({ url: '/d/', allowed: true, line: 3, rule: 'implied: Allow: /d/$ (from line 3: Allow: /d/index.html)', implied: true })
    expect(side.verdict('/d/x')).toEqual({ url: '/d/x', allowed: false, line: 2, rule: 'line 2: Disallow: /d/', implied: false })
    expect(side.verdict('/e')).toEqual({ url: '/e', allowed: true, line: 0, rule: 'no matching rule', implied: false })
  })

  it('the stand-ins: unavailable allows all, unreachable disallows all by an implied rule with no line; the text is not used', () => {
    const text = 'User-agent: *\nDisallow: /\nFoo: bar\n'
    const unavailable = new JudgedSide({ text, outcome: 'unavailable' }, ['bot'])
    expect(unavailable.verdict('/x')).toEqual({ url: '/x', allowed: true, line: 0, rule: 'no matching rule', implied: false })
    expect(unavailable.diagnostics({ text, outcome: 'unavailable' })).toEqual([])
    const unreachable = new JudgedSide({ text: 'User-agent: *\nAllow: /\n', outcome: 'unreachable' }, ['bot'])
    expect(unreachable.verdict('/x')).toEqual({ url: '/x', allowed: false, line: 0, rule: 'implied: Disallow: / (robots.txt unreachable)', implied: true })
    const file = new JudgedSide({ text, outcome: 'file' }, ['bot'])
    expect(file.diagnostics({ text, outcome: 'file' }).map((d) => [d.line, d.code])).toEqual([[3, 'unknown-directive']])
  })

  it("a crawler token that is not a product token: the library's warning is among the diagnostics", () => {
    const side = new JudgedSide({ text: 'User-agent: MyBot\nDisallow: /\n', outcome: 'file' }, ['MyBot/1.0'])
    expect(side.verdict('/x').allowed).toBe(true)
    expect(side.diagnostics({ text: '', outcome: 'file' }).map((d) => d.code)).toEqual(['agent-not-product-token'])
  })
})

describe('diffAll: the URLs whose verdict changes, as diff finds them', () => {
  it('in input order, with both sides', async () => {
    const before = new JudgedSide({ text: 'User-agent: *\nDisallow: /a\n', outcome: 'file' }, ['bot'])
    const after = new JudgedSide({ text: 'User-agent: *\nDisallow: /b\nAllow: /a/ok\n', outcome: 'file' }, ['bot'])
    const changes = await diffAll(before, after, ['/a/x', '/b', '/c', '/a/ok'], live())
    expect(changes!.map((c) => [c.url, c.change, c.old.line, c.new.line])).toEqual([
      ['/a/x', 'now-allowed', 2, 0],
      ['/b', 'now-disallowed', 0, 2],
      ['/a/ok', 'now-allowed', 2, 3],
    ])
  })

  it('to an unreachable robots.txt: everything allowed before is now disallowed', async () => {
    const before = new JudgedSide({ text: 'User-agent: *\nDisallow: /a\n', outcome: 'file' }, ['bot'])
    const after = new JudgedSide({ text: '', outcome: 'unreachable' }, ['bot'])
    const changes = await diffAll(before, after, ['/a', '/b', '/c'], live())
    expect(changes!.map((c) => c.url)).toEqual(['/b', '/c'])
    expect(changes![0].new.rule).toBe('implied: Disallow: / (robots.txt unreachable)')
  })
})

describe('slices', () => {
  it(`10,000 calls take at least ${Math.ceil(10_000 / SLICE_ITEMS)} slices, in order, each reported`, async () => {
    const seen: number[] = []
    const reports: number[] = []
    expect(await inSlices(10_000, (i) => seen.push(i), live(), (n) => reports.push(n))).toBe(true)
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, i) => i))
    expect(reports.length).toBeGreaterThanOrEqual(Math.ceil(10_000 / SLICE_ITEMS))
    expect(reports.at(-1)).toBe(10_000)
    for (let i = 1; i < reports.length; i++) expect(reports[i]).toBeGreaterThan(reports[i - 1])
  })

  it('slow calls held the thread for 64 of them (the clock was read every 64 calls): a call that passes the slice\'s time now ends it', async () => {
    // A clock that each call moves on: by a whole slice, or by an eighth of one.
    let clock = 0
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock)
    try {
      const slow: number[] = []
      expect(await inSlices(200, () => (clock += SLICE_MS), live(), (n) => slow.push(n))).toBe(true)
      expect(slow).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
      const tenth: number[] = []
      expect(await inSlices(200, () => (clock += SLICE_MS / 8), live(), (n) => tenth.push(n))).toBe(true)
      expect(tenth.slice(0, 3)).toEqual([8, 16, 24])
      // Cheap calls: the clock is read far less often than once a call.
      const reads = now.mock.calls.length
      expect(await inSlices(10_000, () => {}, live())).toBe(true)
      expect(now.mock.calls.length - reads).toBeLessThan(10_000 / 16)
    } finally {
      now.mockRestore()
    }
  })

  it('a cancelled run stops at its next pause and answers null', async () => {
    const token = live()
    let calls = 0
    const side = new JudgedSide({ text: 'User-agent: *\nDisallow: /\n', outcome: 'file' }, ['bot'])
    const urls = Array.from({ length: 5000 }, (_, i) => `/p${i}`)
    const run = judgeAll(side, urls, token, () => {
      calls++
      token.cancelled = true
    })
    expect(await run).toBeNull()
    expect(calls).toBe(1)
    expect(await inSlices(0, () => {}, live())).toBe(true)
  })
})
