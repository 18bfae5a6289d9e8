/**
 * matchLines equals isAllowed line by line: LF, CRLF, empty lines, no final
 * newline. The line-convention data suite (test/support/line-cases.ts) runs
 * over every engine and tier (support/engines.ts), so over both
 * implementations of the convention: the automaton's fused loop and the
 * shared functions of src/match/lines.ts (the other engines' path), and
 * over tier changes in the middle of a buffer (`switching`).
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { describePaired } from '../support/corpus-data.js'
import { LINE_CASES, LINE_RULES } from '../support/line-cases.js'
import { ENGINES } from '../support/engines.js'

const enc = new TextEncoder()
const body = 'User-agent: *\nDisallow: /private\nAllow: /private/ok$\nDisallow: /*.pdf$\nDisallow: /\u00e4\n'

function check(robotsBody: string | Uint8Array, urls: string[], sep: string, finalNewline: boolean): void {
  const m = parseRobots(robotsBody).agent('Googlebot')
  const bytes = enc.encode(urls.join(sep) + (finalNewline ? sep : ''))
  const lines = new Int32Array(urls.length)
  const out = m.matchLines(bytes, undefined, lines)
  expect(out.length).toBe(urls.length)
  urls.forEach((u, i) => {
    expect(out[i], u).toBe(m.isAllowed(u) ? 1 : 0)
    expect(lines[i], u).toBe(m.explain(u).rule?.line ?? 0)
  })
}

const urls = ['/private/x', '', '/private/ok', 'https://e.com/a.pdf', 'https://e.com/a.pdf?x', '/%C3%A4', '/ä', '//h/private', '?q', '#frag', '/private/ok#x']

describe('the line convention: one data suite over every engine and tier', () => {
  for (const { name: engine, options } of ENGINES) {
    for (const c of LINE_CASES) {
      it(`${engine}: ${c.name}`, () => {
        const m = parseRobots(LINE_RULES, options).agent('bot')
        const bytes = new Uint8Array(Buffer.from(c.input, 'latin1'))
        const n = c.lines.length
        const ruleLines = new Int32Array(n)
        const lineEnds = new Int32Array(n)
        const out = m.matchLines(bytes, undefined, ruleLines, lineEnds)
        expect(out.length).toBe(n)
        const got = c.lines.map((_, i) => ({ verdict: out[i], line: ruleLines[i], end: lineEnds[i] }))
        const want = c.lines.map(({ url, end }) => {
          const e = m.explain(new Uint8Array(Buffer.from(url, 'latin1')))
          return { verdict: e.allowed ? 1 : 0, line: e.rule?.line ?? 0, end }
        })
        expect(got).toEqual(want)
        // The same through a caller's arrays of exactly the right size, and through matchRange.
        expect([...m.matchLines(bytes, new Uint8Array(n))]).toEqual(want.map((w) => w.verdict))
        let start = 0
        c.lines.forEach(({ url, end }, i) => {
          expect(m.matchRange(bytes, start, start + url.length), `${c.name}: line ${i}`).toBe(want[i].line * 2 + want[i].verdict)
          start = end + 1
        })
      })
    }
  }

  for (const { name: engine, options } of ENGINES) {
    it(`${engine}: a crawler set's matchLines, every line case, sets of 1, 2 and 8: each crawler's code and line end as its own matcher's`, () => {
      for (const c of LINE_CASES) {
        for (const crawlers of [['bot'], ['bot', 'other'], ['bot', ['other', 'bot'], 'other', 'bot', '*', '', ['BOT'], 'x']] as const) {
          const set = parseRobots(LINE_RULES, options).crawlers(crawlers)
          const bytes = new Uint8Array(Buffer.from(c.input, 'latin1'))
          const n = c.lines.length
          const k = crawlers.length
          const lineEnds = new Int32Array(n)
          const rows = set.matchLines(bytes, new Int32Array(n * k), lineEnds)
          expect(rows.length, c.name).toBe(n * k)
          expect([...lineEnds], c.name).toEqual(c.lines.map((l) => l.end))
          c.lines.forEach(({ url }, i) => {
            crawlers.forEach((cr, j) => {
              const e = parseRobots(LINE_RULES).agents(typeof cr === 'string' ? [cr] : cr).explain(new Uint8Array(Buffer.from(url, 'latin1')))
              expect(rows[i * k + j], `${c.name}: line ${i}, crawler ${j}`).toBe((e.rule?.line ?? 0) * 2 + (e.allowed ? 1 : 0))
            })
          })
          if (n > 0) expect(() => set.matchLines(bytes, new Int32Array(n * k - 1))).toThrow(expect.objectContaining({ code: 'ERR_CAPACITY' }))
        }
      }
    })
  }

  it('the rules tell the cases apart: a CR kept in the URL would change verdicts', () => {
    const m = parseRobots(LINE_RULES).agent('bot')
    expect(m.isAllowed('/a')).toBe(true)
    expect(m.isAllowed('/a\r')).toBe(false)
    expect(m.isAllowed('/')).toBe(true)
    expect(m.isAllowed('/a/')).toBe(false)
    expect(m.isAllowed('/a\u0000b')).toBe(true) // the path ends at NUL: "/a"
  })
})

describe('matchLines', () => {
  for (const sep of ['\n', '\r\n']) {
    for (const finalNewline of [true, false]) {
      it(`agrees with isAllowed (${JSON.stringify(sep)}, final newline: ${finalNewline})`, () => check(body, urls, sep, finalNewline))
    }
  }
  it('empty input gives no lines; a lone newline gives one line judged as "/"', () => {
    const m = parseRobots('User-agent: *\nDisallow: /$').agent('x')
    expect(m.matchLines(new Uint8Array(0))).toHaveLength(0)
    expect([...m.matchLines(enc.encode('\n'))]).toEqual([0])
    expect([...m.matchLines(enc.encode('\r\n\n'))]).toEqual([0, 0])
  })
  it('writes into a given buffer and rejects one that is too small', () => {
    const m = parseRobots(body).agent('x')
    const out = new Uint8Array(8)
    expect(m.matchLines(enc.encode('/private\n/a\n'), out)).toHaveLength(2)
    expect(() => m.matchLines(enc.encode('/a\n/b\n/c\n'), new Uint8Array(2))).toThrow(RangeError)
    expect(() => m.matchLines(enc.encode('/a\n/b\n'), new Uint8Array(2), new Int32Array(1))).toThrow(RangeError)
  })
  it('matchRange encodes line and verdict', () => {
    const m = parseRobots(body).agent('x')
    const bytes = enc.encode('xx/private/yy')
    expect(m.matchRange(bytes, 2, 11)).toBe(2 * 2 + 0)
    expect(m.matchRange(bytes, 2, 4)).toBe(1)
  })
})

describePaired('matchLines', 'match-lines-paired', (source) => {
  it('equals isAllowed on every URL (one CRLF-separated buffer per host), tiers changing inside the buffer', () => {
    let n = 0
    for (const h of source.hosts()) {
      // matchLines on a matcher that goes hot after 7 lines of the buffer (and may thrash on its tiny cache);
      // the answers to compare with come from a matcher of its own.
      const m = parseRobots(h.robots ?? '', { hotThreshold: 7, matcherBudget: 4096 }).agent('Googlebot')
      const ref = parseRobots(h.robots ?? '').agent('Googlebot')
      const lines = new Int32Array(h.urls.length)
      const out = m.matchLines(enc.encode(h.urls.join('\r\n')), undefined, lines)
      expect(out.length).toBe(h.urls.length)
      for (let i = 0; i < h.urls.length; i++) {
        const want = ref.explain(h.urls[i])
        if (out[i] !== (want.allowed ? 1 : 0) || lines[i] !== (want.rule?.line ?? 0)) {
          expect({ url: h.urls[i], got: [out[i], lines[i]] }).toEqual({ url: h.urls[i], got: [want.allowed ? 1 : 0, want.rule?.line ?? 0] })
        }
        n++
      }
    }
    expect(n).toBe(source.urlCount)
  })
})
