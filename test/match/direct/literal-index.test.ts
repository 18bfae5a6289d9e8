/**
 * The literal index's memory (src/match/direct/literal-index.ts): every
 * typed array it keeps, and every byte of the buffers they view, counted by
 * the model of src/memory.ts (a buffer as an array of its own, and a view
 * for each further array of it).
 */
import { describe, expect, it } from 'vitest'
import { parseRobots } from '../../../src/index.js'
import { buildLiteralIndex, literalIndexBytes } from '../../../src/match/direct/literal-index.js'
import { TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES } from '../../../src/memory.js'
import { seededRandom } from '../../support/core-helpers.js'

/** The typed arrays reachable from the fields of `x`. */
function arraysOf(x: object, out = new Set<ArrayBufferView>()): Set<ArrayBufferView> {
  for (const v of Object.values(x)) {
    if (ArrayBuffer.isView(v)) out.add(v)
    else if (v !== null && typeof v === 'object') arraysOf(v, out)
  }
  return out
}

/** What the arrays hold by the memory model: each buffer whole, once, and a view object for each array of it. */
function modelBytes(arrays: Set<ArrayBufferView>): number {
  const views = new Map<ArrayBufferLike, number>()
  for (const a of arrays) views.set(a.buffer, (views.get(a.buffer) ?? 0) + 1)
  let total = 0
  for (const [buffer, n] of views) total += n === 1 ? TYPED_ARRAY_BYTES + buffer.byteLength : TYPED_ARRAY_BYTES + n * TYPED_VIEW_BYTES + buffer.byteLength
  return total
}

function starHeavy(seed: number, n: number): string {
  const rand = seededRandom(seed)
  const word = (): string => Array.from({ length: 1 + Math.floor(rand() * 6) }, () => 'abcxyz/-.'[Math.floor(rand() * 9)]).join('')
  const lines = ['User-agent: *']
  for (let i = 0; i < n; i++) {
    const shape = rand()
    if (shape < 0.5) lines.push(`Disallow: /${word()}*${word()}${rand() < 0.5 ? '*' + word() : ''}`)
    else if (shape < 0.7) lines.push(`Allow: /${word()}$`)
    else lines.push(`Disallow: /${word()}${i}`)
  }
  return lines.join('\n')
}

describe('literal index memory', () => {
  const bodies: [string, string][] = [
    ['star-heavy sets', starHeavy(1, 300)],
    ['another seed, fewer rules', starHeavy(7, 40)],
    ['no floating segment', 'User-agent: *\nDisallow: /a\nAllow: /a/b$\nDisallow: /c'],
    ['one rule', 'User-agent: *\nDisallow: /*x'],
  ]
  for (const [name, body] of bodies) {
    it(`regression: literalIndexBytes counts every buffer the index keeps, whole (the head trie's string nodes were left out): ${name}`, () => {
      const x = buildLiteralIndex(parseRobots(body).rulesFor('bot'))
      const arrays = arraysOf(x)
      // The index keeps arrays of at least three buffers (two tries and the rest), and the count is the model's.
      expect(new Set([...arrays].map((a) => a.buffer)).size).toBeGreaterThanOrEqual(3)
      expect(literalIndexBytes(x)).toBe(modelBytes(arrays))
    })
  }
})
