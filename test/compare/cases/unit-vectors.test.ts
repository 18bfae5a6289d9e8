// --cases unit: the vendored google/robotstxt vectors, bundled into the CLI.
import { describe, expect, it } from 'vitest'
import { unitCases } from '../../../src/compare/cases/unit-vectors.js'
import { Oracle } from '../../../src/compare/oracle.js'

describe('unit cases', () => {
  it('are the 145 allow/disallow vectors, each stating the reference’s verdict', () => {
    const cases = unitCases()
    expect(cases).toHaveLength(145)
    expect(new Set(cases.map((c) => c.id)).size).toBe(145)
    expect(cases[0]).toMatchObject({ id: 'unit:GoogleOnly_SystemTest#1', agents: ['FooBot'], url: '', stated: { allowed: true } })
    const oracle = new Oracle()
    for (const c of cases) oracle.answer(c)
    expect(oracle.statedMismatches).toEqual([])
  })
})
