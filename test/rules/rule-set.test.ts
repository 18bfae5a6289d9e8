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
import { handRules } from '../support/forms.js'
import { EventType, EventWriter } from '../../src/rules/compact-rules.js'
import { selectRules } from '../../src/rules/rule-set.js'
import { referenceDecide } from '../../src/match/reference-engine.js'

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

describe('rule selection', () => {
  it('flags a rule Star exactly when its pattern (its $ aside) holds a *, patterns read in any order', () => {
    // Repeated blocks are written as repeats pointing back (rules/pattern-table.ts), so a later group reads earlier patterns again.
    const rand = seededRandom(77)
    for (let file = 0; file < 40; file++) {
      const block = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => {
        const len = Math.floor(rand() * 10)
        let p = '/' + Array.from({ length: len }, () => 'ab*/'[Math.floor(rand() * 4)]).join('')
        if (rand() < 0.15) p += '/index.htm' + (rand() < 0.5 ? '*' : '')
        if (rand() < 0.2) p += '$'
        return `${rand() < 0.5 ? 'Allow' : 'Disallow'}: ${p}`
      })
      const other = block.slice().reverse()
      const text = ['User-agent: a', ...block, 'User-agent: b', ...other, 'User-agent: c', ...block, 'User-agent: *', ...other].join('\n')
      for (const agent of ['a', 'b', 'c', 'zz']) {
        const set = parseRobots(text).rulesFor(agent)
        for (let r = 0; r < set.count; r++) {
          const holds = set.bytes.subarray(set.start(r), set.end(r)).includes(42)
          expect((set.flags(r) & 4) !== 0, `${agent} rule ${r}: ${set.patternText(r)}`).toBe(holds)
        }
      }
    }
  })

  it('a form whose names hold a name no user-agent line uses: the crawler of that name gets the * groups', () => {
    const w = new EventWriter()
    w.add(EventType.UaGlobal, 1, 0)
    w.add(EventType.Disallow, 2, 2)
    const rules = handRules({ events: w, patterns: new TextEncoder().encode('/x'), names: ['bot'] })
    const set = selectRules(rules, ['bot'])
    expect(set.specific).toBe(false)
    expect(set.count).toBe(1)
    expect(set.patternText(0)).toBe('/x')
    expect(referenceDecide(rules, ['bot'], new TextEncoder().encode('/x')).allowed).toBe(false)
  })
})
