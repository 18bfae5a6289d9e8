/**
 * The RuleSet's rank order (src/rules/rule-set.ts, rankOrder): priority
 * descending, allow before disallow, then file order. rankOrder has three
 * ways to sort (insertion for up to 16 rules, counting by key below
 * COUNTING_KEYS, packed keys beyond); each is checked against a plain
 * comparator sort of the same rules.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../src/index.js'
import { seededRandom } from '../support/core-helpers.js'

/** The set's rules as [priority, allow, line, index.htm directory form], in its order. */
function ranked(body: string): number[][] {
  const set = parseRobots(body).rulesFor('bot')
  return Array.from({ length: set.count }, (_, r) => [set.priority(r), set.allows(r) ? 1 : 0, set.line(r), set.isIndexDirectory(r) ? 1 : 0])
}

/** The expected order: the same rules sorted by comparator (stable: file order, a directory form after its rule). */
function expected(rows: number[][]): number[][] {
  const fileOrder = [...rows].sort((a, b) => a[2] - b[2] || a[3] - b[3])
  return fileOrder.sort((a, b) => b[0] * 2 + b[1] - (a[0] * 2 + a[1]))
}

function body(n: number, seed: number, long = 0): string {
  const rand = seededRandom(seed)
  const lines = ['User-agent: *']
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rand() * 12)
    let p = '/' + Array.from({ length: len }, () => 'ab*'[Math.floor(rand() * 3)]).join('')
    if (rand() < 0.1) p += '/index.html'
    if (rand() < 0.2) p += '$'
    if (i === 7 && long) p = '/' + 'x'.repeat(long)
    lines.push(`${rand() < 0.5 ? 'Allow' : 'Disallow'}: ${p}`)
  }
  return lines.join('\n')
}

describe('rank order', () => {
  it('is priority descending, allow first, then file order, for every way rankOrder sorts', () => {
    for (const [n, long] of [
      [5, 0],
      [16, 0],
      [17, 0],
      [300, 0],
      [40, 2047],
      [40, 2048],
      [40, 5000],
    ]) {
      for (let seed = 1; seed <= 5; seed++) {
        const rows = ranked(body(n, seed * 31 + n, long))
        expect(rows.length).toBeGreaterThanOrEqual(n)
        expect(rows, `${n} rules, seed ${seed}, long ${long}`).toEqual(expected(rows))
      }
    }
  })
})
