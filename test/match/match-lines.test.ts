/** matchLines equals isAllowed line by line: LF, CRLF, empty lines, no final newline. */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { describePaired } from '../support/corpus-data.js'

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
  it('equals isAllowed on every URL (one CRLF-separated buffer per host)', () => {
    let n = 0
    for (const h of source.hosts()) {
      const robots = parseRobots(h.robots ?? '')
      const m = robots.agent('Googlebot')
      const lines = new Int32Array(h.urls.length)
      const out = m.matchLines(enc.encode(h.urls.join('\r\n')), undefined, lines)
      expect(out.length).toBe(h.urls.length)
      for (let i = 0; i < h.urls.length; i++) {
        const want = m.explain(h.urls[i])
        if (out[i] !== (want.allowed ? 1 : 0) || lines[i] !== (want.rule?.line ?? 0)) {
          expect({ url: h.urls[i], got: [out[i], lines[i]] }).toEqual({ url: h.urls[i], got: [want.allowed ? 1 : 0, want.rule?.line ?? 0] })
        }
        n++
      }
    }
    expect(n).toBe(source.urlCount)
  })
})
