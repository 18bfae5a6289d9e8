// prepareCases: each case is answered while the oracle still holds its
// body's analysis (a body is analysed once, however many bodies a block
// spans), and a source failing within a block leaves none of its cases
// answered (their stated answers are not noted).
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BodyAnalysis } from '../../src/compare/analysis.js'
import type { CaseInput } from '../../src/compare/case.js'
import { corpusCaseStream } from '../../src/compare/cases/corpus-cases.js'
import { Oracle } from '../../src/compare/oracle.js'
import { prepareCases } from '../../src/compare/run.js'

const CORPUS = resolve(__dirname, '../../corpus')

/** An oracle that records the analyses it hands out, per body. */
class CountingOracle extends Oracle {
  readonly made = new Map<Uint8Array, Set<BodyAnalysis>>()
  override body(bytes: Uint8Array): BodyAnalysis {
    const a = super.body(bytes)
    let seen = this.made.get(bytes)
    if (seen === undefined) this.made.set(bytes, (seen = new Set()))
    seen.add(a)
    return a
  }
}

describe('prepareCases', () => {
  it('bodies analysed twice when a block spans more bodies than the oracle keeps: each once', async () => {
    const oracle = new CountingOracle()
    const source = corpusCaseStream({ robotsDir: `${CORPUS}/robots`, urlsFile: `${CORPUS}/urls.txt`, count: 600, seed: 3, multiAgent: false }, oracle)
    const prepared = prepareCases(source, oracle, { multiAgent: false })
    let cases = 0
    for await (const block of prepared.blocks) cases += block.length
    expect(cases).toBe(600)
    expect(oracle.made.size).toBeGreaterThan(8)
    for (const seen of oracle.made.values()) expect(seen.size).toBe(1)
  })

  it('a source failing within a block: none of its cases counted as stating another answer', async () => {
    const oracle = new Oracle()
    const robots = new Uint8Array(Buffer.from('User-agent: *\nDisallow: /\n'))
    async function* source(): AsyncGenerator<CaseInput> {
      yield { id: 'a', robots, agents: ['FooBot'], url: '/x', stated: { allowed: true } }
      yield { id: 'b', robots, agents: ['FooBot', 'BarBot'], url: '/x', stated: { allowed: true } }
      throw new Error('unreadable')
    }
    const prepared = prepareCases(source(), oracle, { multiAgent: true })
    await expect((async () => {
      for await (const _ of prepared.blocks) void _
    })()).rejects.toThrow('unreadable')
    expect(oracle.statedMismatchCount).toBe(0)
    expect(oracle.statedMismatches).toEqual([])
    expect(prepared.counts).toEqual({ skipped: 0, inputs: 2, exported: 0 })
    const whole = prepareCases([{ id: 'c', robots, agents: ['FooBot'], url: '/x', stated: { allowed: true } }], oracle, { multiAgent: false })
    for await (const _ of whole.blocks) void _
    expect(oracle.statedMismatchCount).toBe(1)
    expect(oracle.statedMismatches.map((m) => m.id)).toEqual(['c'])
  })
})
