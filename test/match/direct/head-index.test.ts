/**
 * The cold tier's head index (src/match/direct/head-index.ts) and segment
 * signatures (src/match/direct/segments.ts) against the plain engine (every
 * rule against the path): sets on either side of the index's size bounds,
 * heads longer than the index files, `*`-led and `$` rules, duplicates,
 * plain prefix rules that close a node's list, non-ASCII paths, and a set
 * whose heads are too many bytes to file HEAD_DEPTH deep.
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { HEAD_DEPTH, HEAD_INDEX_MAX_HEAD_BYTES, buildHeadIndex, headNodesOfBytes } from '../../../src/match/direct/head-index.js'
import { DirectEngine, HEAD_MIN_RULES, INDEX_AFTER_URLS, INDEX_MIN_RULES } from '../../../src/match/direct/direct-engine.js'
import { seededRandom } from '../../support/core-helpers.js'

const enc = new TextEncoder()
const ALPHABET = ['a', 'b', '/', 'c', '-', '%2F', '.html', 'x', '?', '=', 'é']
const LONG = 'abcdefghijklmnopqrstu' // longer than HEAD_DEPTH

function randomSet(rand: () => number, n: number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]
  const piece = (): string => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(ALPHABET)).join('')
  const lines = ['User-agent: *']
  const made: string[] = []
  for (let i = 0; i < n; i++) {
    const r = rand()
    let p: string
    if (r < 0.15 && made.length) p = pick(made) // a duplicate pattern
    else if (r < 0.35 && made.length) p = pick(made) + piece() // a longer rule over an earlier one
    else if (r < 0.45) p = '/' + LONG.slice(0, 10 + Math.floor(rand() * 11)) + piece() // a head cut at HEAD_DEPTH
    else p = '/' + piece()
    made.push(p)
    const kind = rand() < 0.4 ? 'Allow' : 'Disallow'
    const shape = rand()
    if (shape < 0.25) lines.push(`${kind}: ${p}*${piece()}${rand() < 0.3 ? '*' + piece() : ''}${rand() < 0.2 ? '$' : ''}`)
    else if (shape < 0.3) lines.push(`${kind}: *${piece()}`)
    else if (shape < 0.33) lines.push(`${kind}: /*${piece()}`)
    else if (shape < 0.4) lines.push(`${kind}: ${p}$`)
    else if (shape < 0.43) lines.push(`${kind}: ${p}/index.html`)
    else if (shape < 0.45) lines.push(`${kind}: ${piece()}`) // not starting with '/': never matches
    else lines.push(`${kind}: ${p}`)
  }
  return lines.join('\n')
}

function randomPath(rand: () => number): string {
  let p = '/'
  if (rand() < 0.3) p += LONG.slice(0, Math.floor(rand() * 22))
  const n = Math.floor(rand() * 8)
  for (let i = 0; i < n; i++) p += ALPHABET[Math.floor(rand() * ALPHABET.length)]
  return rand() < 0.1 ? p + '#frag' : p
}

/** The cold matcher (pinned: its index built at once) against the plain engine, as a path, a URL string and bytes. */
function agree(body: string, rand: () => number, urls: number): void {
  const cold = parseRobots(body, { tier: 'cold' }).agent('bot')
  const plain = parseRobots(body, { engine: 'plain' }).agent('bot')
  for (let i = 0; i < urls; i++) {
    const path = randomPath(rand)
    const url = 'https://e.com' + path
    expect(cold.explain(path), path).toEqual(plain.explain(path))
    expect(cold.explain(url), url).toEqual(plain.explain(url))
    const bytes = enc.encode(url)
    expect(cold.matchRange(bytes, 0, bytes.length), path).toBe(plain.matchRange(bytes, 0, bytes.length))
  }
}

describe('head index: the cold tier tries only the rules whose head the path passes', () => {
  for (const n of [HEAD_MIN_RULES, HEAD_MIN_RULES + 1, INDEX_MIN_RULES + 1, 300]) {
    for (const seed of [1, 2]) {
      it(`gives the plain engine's answer and line, ${n} rules, seed ${seed}`, () => {
        const rand = seededRandom(seed * 1000 + n)
        agree(randomSet(rand, n), rand, 1500)
      })
    }
  }

  it('files a head at most HEAD_DEPTH bytes deep, and a list stops at its first plain prefix rule filed whole', () => {
    const body = ['User-agent: *', `Disallow: /${LONG}`, `Allow: /${LONG}x`, 'Allow: /k$', 'Disallow: /k', 'Allow: /k', 'Disallow: /k*b', ...Array.from({ length: 10 }, (_, i) => `Disallow: /z${i}`)].join('\n')
    const set = parseRobots(body).rulesFor('bot')
    const index = buildHeadIndex(set.bytes, set.records, false)
    expect(index.depth).toBe(HEAD_DEPTH)
    const nodes = new Int32Array(HEAD_DEPTH + 1)
    const listed = (path: string): number[] => {
      const p = enc.encode(path)
      const out: number[] = []
      for (let k = 0, n = headNodesOfBytes(index, p, 0, p.length, nodes); k < n; k++) {
        for (let i = index.ruleStart[nodes[k]]; i < index.ruleStart[nodes[k] + 1]; i++) out.push(set.line(index.rules[i]))
      }
      return out
    }
    // Both long rules end at the node HEAD_DEPTH bytes down; the path passes it even where it leaves the patterns after that.
    expect(listed(`/${LONG.slice(0, HEAD_DEPTH - 1)}!`).sort()).toEqual([2, 3])
    // At `/k`, in rank order: `/k*b` (its head is `/k`), `/k$`, then the Allow and the Disallow tie on `/k`: the Allow ranks first and closes the list.
    expect(listed('/k')).toEqual([7, 4, 6])
  })

  it('regression: a set whose heads have no leading `/` (every rule `*`-led or never matching) judges without a `/` node', () => {
    const body = ['User-agent: *', ...Array.from({ length: 12 }, (_, i) => `${i % 2 ? 'Allow' : 'Disallow'}: ${i % 3 ? '*' : 'x'}${'ab'.slice(0, 1 + (i % 2))}${i}`)].join('\n')
    const set = parseRobots(body).rulesFor('bot')
    expect(buildHeadIndex(set.bytes, set.records, false).slash).toBe(-1)
    agree(body, seededRandom(3), 300)
  })

  it('files shallower heads for a set whose heads are too many bytes at HEAD_DEPTH, with the same answers', () => {
    const n = Math.ceil(HEAD_INDEX_MAX_HEAD_BYTES / HEAD_DEPTH) + 10
    const rules = Array.from({ length: n }, (_, i) => `${i % 3 ? 'Disallow' : 'Allow'}: /${String.fromCharCode(97 + (i % 26))}${LONG}${i}*x`)
    const body = ['User-agent: *', ...rules, 'Disallow: /b', 'Allow: /*x$'].join('\n')
    const set = parseRobots(body).rulesFor('bot')
    const index = buildHeadIndex(set.bytes, set.records, false)
    expect(index.depth).toBeLessThan(HEAD_DEPTH)
    expect(index.depth).toBeGreaterThan(1)
    expect(index.first.length).toBeLessThanOrEqual(HEAD_INDEX_MAX_HEAD_BYTES + 1)
    const cold = parseRobots(body, { tier: 'cold' }).agent('bot')
    const plain = parseRobots(body, { engine: 'plain' }).agent('bot')
    const rand = seededRandom(9)
    for (let i = 0; i < 400; i++) {
      const path = '/' + String.fromCharCode(97 + Math.floor(rand() * 26)) + LONG.slice(0, Math.floor(rand() * 22)) + Math.floor(rand() * n) + (rand() < 0.5 ? 'x' : 'y')
      expect(cold.explain(path), path).toEqual(plain.explain(path))
    }
  })

  it(`builds the index of a set of ${HEAD_MIN_RULES + 1} to ${INDEX_MIN_RULES} rules after ${INDEX_AFTER_URLS} URLs, once, with the same answers before and after`, () => {
    const rand = seededRandom(77)
    const body = randomSet(rand, 30)
    const m = parseRobots(body, { hotThreshold: Infinity }).agent('bot')
    const plain = parseRobots(body, { engine: 'plain' }).agent('bot')
    const sizes = new Set<number>()
    for (let i = 0; i < 3 * INDEX_AFTER_URLS; i++) {
      const path = randomPath(rand)
      expect(m.explain(path), path).toEqual(plain.explain(path))
      sizes.add(m.memoryUsage())
    }
    expect(m.stats().tier).toBe('cold')
    expect(sizes.size).toBe(2)
    // Within one matchLines buffer too.
    const lines = Array.from({ length: 3 * INDEX_AFTER_URLS }, () => randomPath(rand))
    const fresh = parseRobots(body, { hotThreshold: Infinity }).agent('bot')
    const ruleLines = new Int32Array(lines.length)
    const out = fresh.matchLines(enc.encode(lines.join('\n')), undefined, ruleLines)
    lines.forEach((path, i) => {
      const code = plain.matchRange(enc.encode(path), 0, enc.encode(path).length)
      expect([out[i], ruleLines[i]], path).toEqual([code & 1, code >> 1])
    })
  })

  it(`does not build the index of an engine whose countdown runs out within ${INDEX_AFTER_URLS} URLs (it would never be used)`, () => {
    const set = parseRobots(randomSet(seededRandom(78), 30)).rulesFor('bot')
    for (const [urls, built] of [[INDEX_AFTER_URLS, false], [INDEX_AFTER_URLS + 1, true]] as const) {
      const engine = new DirectEngine(set, INDEX_AFTER_URLS)
      let ran = 0
      engine.countDown(urls, () => ran++)
      const size = engine.memoryUsage()
      for (let i = 0; i < urls; i++) engine.decideString('/a' + i)
      expect(ran).toBe(1)
      expect(engine.memoryUsage() > size).toBe(built)
    }
  })
})
