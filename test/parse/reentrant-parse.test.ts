/**
 * A parse started from inside a ParseHandler's callback (a handler that
 * parses another body as it goes) must leave the running parse's input alone.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { parseInto, type ParseHandler } from '../../src/internals.js'

const dec = new TextDecoder()
const BODY = 'User-agent: a\nDisallow: /one\nDisallow: /two\nDisallow: /three\n'

/** A handler that writes down every rule, and runs `inner` once, at the first user-agent line. */
function recorder(inner: () => void): { handler: ParseHandler; seen: string[] } {
  const seen: string[] = []
  let done = false
  const text = (b: Uint8Array, s: number, e: number): string => dec.decode(b.subarray(s, e))
  const handler: ParseHandler = {
    userAgent(line, b, s, e) {
      seen.push(`${line} user-agent ${text(b, s, e)}`)
      if (!done) {
        done = true
        inner()
      }
    },
    allow: (line, b, s, e) => void seen.push(`${line} allow ${text(b, s, e)}`),
    disallow: (line, b, s, e) => void seen.push(`${line} disallow ${text(b, s, e)}`),
    sitemap() {},
    unknown() {},
  }
  return { handler, seen }
}

describe('a parse inside a parse', () => {
  it('regression: parseRobots or parseInto of a string called from a handler\'s callback overwrote the running parse\'s string input (it read "allow /XXX…" where the file says "Disallow: /two", and lost the rest)', () => {
    const want = ['1 user-agent a', '2 disallow /one', '3 disallow /two', '4 disallow /three']
    const inners = [
      () => parseRobots('User-agent: zzzzzzzzzzzzzzzz\nAllow: /XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n'),
      () => parseInto('Disallow: /QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\n', recorder(() => {}).handler),
      () => parseInto('User-agent: b\nDisallow: /RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR\n', recorder(() => parseRobots('Allow: /SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS')).handler),
    ]
    for (const inner of inners) {
      const { handler, seen } = recorder(inner)
      parseInto(BODY, handler)
      expect(seen).toEqual(want)
    }
    // A handler that throws leaves the next parse whole.
    const { handler } = recorder(() => {
      throw new Error('handler failed')
    })
    expect(() => parseInto(BODY, handler)).toThrow('handler failed')
    const again = recorder(() => {})
    parseInto(BODY, again.handler)
    expect(again.seen).toEqual(want)
    expect(parseRobots(BODY).agent('a').isAllowed('/two')).toBe(false)
  })
})
