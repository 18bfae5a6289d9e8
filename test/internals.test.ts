/**
 * src/internals.ts, the `robots-automaton/internals` entry: what it adds
 * beyond re-exports (compactRulesOf) and that the parse-handler interface is
 * usable from it alone. Its names are listed in public-api.test.ts; the
 * built bundles (a Robots of the core bundle read by the internals bundle)
 * are tested in dist.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots, Robots, RobotsInputError } from '../src/index.js'
import { compactRulesOf, createParser, LineFlag, parseInto, referenceDecide, type ParseHandler } from '../src/internals.js'
import { rulesOf } from '../src/robots/robots.js'

const enc = new TextEncoder()
const BODY = 'User-agent: *\nDisallow: /x\nAllow: /x/y\n'

describe('internals: compactRulesOf', () => {
  it('gives the rules referenceDecide reads: the Robots\' own form when it is of this copy of the classes', () => {
    const robots = parseRobots(BODY)
    const rules = compactRulesOf(robots)
    // The same bytes, not a copy (each read makes a view of them).
    const own = rulesOf(robots).bytes
    expect(rules.bytes.buffer).toBe(own.buffer)
    expect([rules.bytes.byteOffset, rules.bytes.byteLength]).toEqual([own.byteOffset, own.byteLength])
    expect(referenceDecide(rules, ['bot'], enc.encode('/x/z'))).toEqual({ allowed: false, line: 2, kind: 'disallow', pattern: '/x' })
    expect(referenceDecide(rules, ['bot'], enc.encode('/x/y'))).toEqual({ allowed: true, line: 3, kind: 'allow', pattern: '/x/y' })
  })

  it('anything but a Robots of this build is a RobotsInputError; one of another build (the other module format) is told to cross by toBytes and fromBytes', () => {
    const robots = parseRobots(BODY)
    // What a Robots of the other module format's build looks like from here: an object with toBytes, not an instance.
    const foreign = { toBytes: () => robots.toBytes() }
    expect(() => compactRulesOf(foreign as never)).toThrow(RobotsInputError)
    expect(() => compactRulesOf(foreign as never)).toThrow(/another build .*Robots\.fromBytes/)
    const carried = compactRulesOf(Robots.fromBytes(foreign.toBytes()))
    expect(referenceDecide(carried, ['bot'], enc.encode('/x/z')).line).toBe(2)
    for (const bad of [undefined, null, 42, 'robots', {}, { toBytes: 1 }, { toBytes: () => new Uint8Array(64) }]) {
      expect(() => compactRulesOf(bad as never), String(bad)).toThrow(RobotsInputError)
    }
  })
})

describe('internals: a consumer of its own through the parse-handler interface', () => {
  /** Counts directives and comment lines, as a user's handler would. */
  function counter(): ParseHandler & { counts: Record<string, number> } {
    const counts: Record<string, number> = { userAgent: 0, allow: 0, disallow: 0, sitemap: 0, unknown: 0, comments: 0 }
    return {
      counts,
      userAgent: () => void counts.userAgent++,
      allow: () => void counts.allow++,
      disallow: () => void counts.disallow++,
      sitemap: () => void counts.sitemap++,
      unknown: () => void counts.unknown++,
      lineEnd: (_line, flags) => void ((flags & LineFlag.isComment) !== 0 && counts.comments++),
    }
  }
  const body = '# hi\nUser-agent: *\nDisallow: /a\nAllow: /b\nCrawl-delay: 1\nSitemap: https://e.com/s.xml\n'
  const expected = { userAgent: 1, allow: 1, disallow: 1, sitemap: 1, unknown: 1, comments: 1 }

  it('parseInto: a whole body', () => {
    const h = counter()
    parseInto(body, h)
    expect(h.counts).toEqual(expected)
  })

  it('createParser: the same body in chunks split at every byte', () => {
    const bytes = enc.encode(body)
    for (let cut = 0; cut <= bytes.length; cut++) {
      const h = counter()
      const reader = createParser(h)
      reader.push(bytes.subarray(0, cut))
      reader.push(bytes.subarray(cut))
      reader.end()
      expect(h.counts, `split at ${cut}`).toEqual(expected)
    }
  })
})
