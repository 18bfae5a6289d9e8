/**
 * The segment matcher of the direct engines (src/match/direct/segments.ts)
 * against the reference's Matches() (patternRangeMatches): one rule, one
 * path, for patterns whose segments are short (searched byte by byte) and
 * long (searched with KMP), over a two-letter alphabet where near-matches
 * are everywhere.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { pairBit, pathSignature, ruleMatches, segmentSignatures, SIGNATURE_WORDS, signatureMayOccur } from '../../../src/match/direct/segments.js'
import { patternRangeMatches } from '../../../src/match/reference-engine.js'
import { RuleField, RuleFlag } from '../../../src/rules/rule-set.js'

const enc = new TextEncoder()

/** Every rule of `body`'s `*` group against `path`: the segment matcher and the reference agree. */
function agree(body: string, path: string): void {
  const set = parseRobots(body).rulesFor('x')
  const p = enc.encode(path)
  // The path inside a larger buffer, as the engines see a URL's path.
  const buf = new Uint8Array(p.length + 6)
  buf.set(p, 3)
  for (let r = 0; r < set.count; r++) {
    const at = r * RuleField.Width
    const rec = set.records
    const want = patternRangeMatches(p, set.bytes, rec[at + RuleField.Start], rec[at + RuleField.End], (rec[at + RuleField.Flags] & RuleFlag.Anchored) !== 0)
    expect(ruleMatches(set.bytes, rec, at, buf, 3, 3 + p.length), `${set.patternText(r)} on ${path}`).toBe(want)
  }
}

describe('segment matcher = the reference\'s Matches()', () => {
  it('hand-picked: heads, final stars, `$` after a star, repeated segments, KMP borders', () => {
    const rules = [
      '/a', '/a$', '/a*', '/a*$', '/*', '/*$', '*', '*$', '$', '/*b$', '/a*b*a', '/*ab*ab$', '/*aab', '/**a',
      '/*' + 'a'.repeat(20) + 'b', '/*' + 'ab'.repeat(12) + 'aab', '/*' + 'a'.repeat(17) + '$', '/x*' + 'aba'.repeat(7) + '*b$',
    ]
    const body = 'User-agent: *\n' + rules.map((r) => `Disallow: ${r}`).join('\n')
    for (const path of ['/', '/a', '/ab', '/aab', '/' + 'a'.repeat(40), '/' + 'a'.repeat(40) + 'b', '/' + 'ab'.repeat(30) + 'aab', '/x' + 'aba'.repeat(9) + 'b', '/b']) {
      agree(body, path)
    }
  })

  it('seeded: short and long segments over {a, b}, 2000 cases', () => {
    const seg = fc.oneof(
      fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 4 }).map((x) => x.join('')),
      fc.tuple(fc.integer({ min: 12, max: 40 }), fc.constantFrom('a', 'b', 'ab', 'aab')).map(([n, tail]) => 'a'.repeat(n) + tail),
    )
    const pattern = fc
      .tuple(fc.constantFrom('/', '/a', '/ab', '', '/b'), fc.array(seg, { maxLength: 3 }), fc.constantFrom('', '$', '*', '*$'))
      .map(([head, segs, end]) => head + segs.map((s) => '*' + s).join('') + end)
    const path = fc
      .array(fc.oneof(fc.constantFrom('a', 'b', 'ab'), fc.integer({ min: 10, max: 50 }).map((n) => 'a'.repeat(n))), { maxLength: 8 })
      .map((x) => '/' + x.join(''))
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 1, maxLength: 6 }), fc.array(path, { minLength: 1, maxLength: 6 }), (patterns, paths) => {
        const body = 'User-agent: *\n' + patterns.map((p) => `Disallow: ${p}`).join('\n')
        for (const p of paths) agree(body, p)
      }),
      { seed: 31337, numRuns: 2000 },
    )
  })
})

describe('segment signatures: a necessary condition only (the direct engine skips a `*` rule whose segment bytes or pairs the path lacks)', () => {
  it('never rules out a match (fast-check over patterns and paths, ASCII and not)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'Z', '=', '/', '*', '%2F', 'é', '$', 'ab', 'ba'), { minLength: 1, maxLength: 10 }),
        fc.array(fc.constantFrom('a', 'b', 'Z', '=', '/', '?', 'é', '\u00ff', 'ab'), { maxLength: 14 }),
        (pattern, path) => {
          const body = `User-agent: *\nDisallow: /*${pattern.join('')}\nAllow: /a*b*${pattern.join('')}\n`
          const set = parseRobots(body).rulesFor('x')
          const sigs = segmentSignatures(set.bytes, set.records)
          const p = enc.encode('/' + path.join(''))
          const have = new Int32Array(SIGNATURE_WORDS)
          pathSignature(p, 0, p.length, have)
          for (let r = 0; r < set.count; r++) {
            const at = r * RuleField.Width
            if ((set.records[at + RuleField.Flags] & RuleFlag.Star) === 0) continue
            if (ruleMatches(set.bytes, set.records, at, p, 0, p.length)) expect(signatureMayOccur(sigs, r, have)).toBe(true)
          }
        },
      ),
      { seed: 21, numRuns: 3000 },
    )
  })

  it('rules out a path that lacks a segment byte, or a pair of adjacent segment bytes', () => {
    const set = parseRobots('User-agent: *\nDisallow: /*pmax=*\n').rulesFor('x')
    const sigs = segmentSignatures(set.bytes, set.records)
    const have = new Int32Array(SIGNATURE_WORDS)
    const check = (path: string): boolean => {
      const p = enc.encode(path)
      pathSignature(p, 0, p.length, have)
      return signatureMayOccur(sigs, 0, have)
    }
    expect(check('/pma=ma')).toBe(false) // no `x`
    expect(check('/a?pmax=1')).toBe(true)
    // Every byte of `pmax=` is there, but not the pair `pm` (its bit is no pair's of the path: checked, so the test cannot pass by a collision).
    const path = '/x=axmap'
    const bits = new Set(Array.from({ length: path.length - 1 }, (_, i) => pairBit(path.charCodeAt(i), path.charCodeAt(i + 1))))
    expect(bits.has(pairBit(0x70, 0x6d))).toBe(false)
    expect(check(path)).toBe(false)
    expect(check('/x=axmapm')).toBe(true)
  })
})
