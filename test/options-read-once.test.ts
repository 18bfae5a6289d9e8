/**
 * The option bags of parseRobots, parseRobotsStream, Robots.fromBytes,
 * RobotsStore (its matcherOptions too), RobotsStore.fromBytes and
 * parseRobotsFile are read once: the value checked is the value used. A
 * getter that answered differently at a later read slipped an unchecked
 * value past the checks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseRobots, parseRobotsStream, Robots, RobotsStore } from '../src/index.js'
import { parseRobotsFile } from '../src/node.js'

const body = 'User-agent: *\nDisallow: /p\n'

/** An options object whose `name` reads as `good` once, then as `bad`; `reads` counts the reads. */
function shifty(name: string, good: unknown, bad: unknown): { options: Record<string, unknown>; reads: () => number } {
  let reads = 0
  const options = Object.defineProperty({}, name, { enumerable: true, get: () => (reads++ === 0 ? good : bad) })
  return { options, reads: () => reads }
}

async function* chunks(): AsyncGenerator<string> {
  yield body
}

describe('option bags read once', () => {
  it('regression: a hotThreshold getter that gave 0 to the check and a Symbol after made agent() throw an uncoded TypeError; each option is now read once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'options-once-'))
    try {
      const file = join(dir, 'robots.txt')
      writeFileSync(file, body)
      const makers: [string, (o: Record<string, unknown>) => Robots | Promise<Robots>][] = [
        ['parseRobots', (o) => parseRobots(body, o)],
        ['parseRobotsStream', (o) => parseRobotsStream(chunks(), o)],
        ['Robots.fromBytes', (o) => Robots.fromBytes(parseRobots(body).toBytes(), o)],
        ['parseRobotsFile', (o) => parseRobotsFile(file, o)],
      ]
      for (const [what, make] of makers) {
        for (const [name, good, bad] of [
          ['hotThreshold', 0, Symbol('bad')],
          ['tier', 'hot', 5],
          ['matcherBudget', 1 << 20, -1],
          ['engine', 'automaton', {}],
        ] as const) {
          const s = shifty(name, good, bad)
          const robots = await make(s.options)
          const m = robots.agent('bot')
          expect(m.isAllowed('/p'), `${what} ${name}`).toBe(false)
          expect(m.isAllowed('/q'), `${what} ${name}`).toBe(true)
          expect(s.reads(), `${what} ${name}`).toBe(1)
        }
        const s = shifty('limit', 512_000, 5)
        await make(s.options)
        expect(s.reads(), `${what} limit`).toBeLessThanOrEqual(1)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('regression: a RobotsStore matcherBudget getter that gave a valid budget to the check and 0.5 after was used (every matcher evicted at once); each option is now read once', () => {
    const bundle = (() => {
      const s = new RobotsStore()
      s.set('a.example', body)
      return s.toBytes()
    })()
    const makers: [string, (o: Record<string, unknown>) => RobotsStore][] = [
      ['new RobotsStore', (o) => new RobotsStore(o)],
      ['RobotsStore.fromBytes', (o) => RobotsStore.fromBytes(bundle, o)],
    ]
    for (const [what, make] of makers) {
      const s = shifty('matcherBudget', 1 << 20, 0.5)
      const store = make(s.options)
      store.set('a.example', body)
      expect(store.isAllowed('http://a.example/p', 'bot'), what).toBe(false)
      expect(store.stats().evictions, what).toBe(0)
      expect(s.reads(), what).toBe(1)
      const inner = shifty('hotThreshold', 0, Symbol('bad'))
      const store2 = make({ matcherOptions: inner.options })
      store2.set('a.example', body)
      expect(store2.isAllowed('http://a.example/p', 'bot'), what).toBe(false)
      expect(inner.reads(), what).toBe(1)
    }
  })
})
