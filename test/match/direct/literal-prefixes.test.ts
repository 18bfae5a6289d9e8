/**
 * The cold tier's literal prefix index (src/match/direct/literal-prefixes.ts)
 * against the plain engine (every rule against the path): large sets of
 * plain prefix rules, with duplicates, rules that are prefixes of each
 * other, allow/disallow ties, and the other rules (`*`, `$`, index.htm)
 * mixed in, which the direct engine still tries one by one.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { bestPrefixRule, buildLiteralPrefixes, LITERAL_INDEX_MIN, NO_PREFIX_RULE, plainPrefixCount } from '../../../src/match/direct/literal-prefixes.js'
import { seededRandom } from '../../support/core-helpers.js'

const ALPHABET = ['a', 'b', '/', 'c', '-', '%2F', '.html', 'x']

function randomSet(rand: () => number, n: number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]
  const piece = (): string => Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(ALPHABET)).join('')
  const lines = ['User-agent: *']
  const made: string[] = []
  for (let i = 0; i < n; i++) {
    const r = rand()
    let p: string
    if (r < 0.2 && made.length) p = pick(made) // a duplicate pattern
    else if (r < 0.4 && made.length) p = pick(made) + piece() // a longer rule over an earlier one
    else p = '/' + piece()
    made.push(p)
    const kind = rand() < 0.4 ? 'Allow' : 'Disallow'
    const shape = rand()
    if (shape < 0.06) lines.push(`${kind}: ${p}*${piece()}`)
    else if (shape < 0.1) lines.push(`${kind}: ${p}$`)
    else if (shape < 0.12) lines.push(`${kind}: ${p}/index.html`)
    else if (shape < 0.13) lines.push(`${kind}: ${piece()}`) // not starting with '/': never matches
    else lines.push(`${kind}: ${p}`)
  }
  return lines.join('\n')
}

function randomPath(rand: () => number): string {
  let p = '/'
  const n = Math.floor(rand() * 9)
  for (let i = 0; i < n; i++) p += ALPHABET[Math.floor(rand() * ALPHABET.length)]
  return rand() < 0.1 ? p + '#frag' : p
}

describe('literal prefix index: the cold tier on large plain prefix sets', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`gives the plain engine's answer and line, seed ${seed}`, () => {
      const rand = seededRandom(seed)
      const body = randomSet(rand, LITERAL_INDEX_MIN * (1 + seed))
      const cold = parseRobots(body, { tier: 'cold' }).agent('bot')
      const plain = parseRobots(body, { engine: 'plain' }).agent('bot')
      expect(plainPrefixCount(parseRobots(body).rulesFor('bot'))).toBeGreaterThanOrEqual(LITERAL_INDEX_MIN)
      for (let i = 0; i < 3000; i++) {
        const path = randomPath(rand)
        expect(cold.explain(path), path).toEqual(plain.explain(path))
      }
    })
  }

  it('finds the longest plain rule that is a prefix of the path, the first in rank order of a duplicated pattern', () => {
    const rules = ['User-agent: *', 'Disallow: /a/b', 'Allow: /a/b', ...Array.from({ length: LITERAL_INDEX_MIN }, (_, i) => `Disallow: /a/${i}`), 'Disallow: /a']
    const set = parseRobots(rules.join('\n')).rulesFor('bot')
    const index = buildLiteralPrefixes(set)
    const enc = new TextEncoder()
    const best = (path: string): number => {
      const p = enc.encode(path)
      return bestPrefixRule(index, set.bytes, set.records, p, 0, p.length)
    }
    expect(set.line(best('/a/b/c'))).toBe(3) // the Allow ties the Disallow and wins: first in rank order
    expect(set.line(best('/a/12x'))).toBe(4 + 12)
    expect(set.line(best('/a/'))).toBe(4 + LITERAL_INDEX_MIN)
    expect(best('/b')).toBe(NO_PREFIX_RULE)
    expect(best('/')).toBe(NO_PREFIX_RULE)
  })
})
