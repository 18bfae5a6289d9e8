/**
 * The parser's optimised code survives garbage collection: V8 drops code
 * optimised for an object shape once no object of that shape is left, and
 * between two parses no builder, reader or (in a program that dropped them
 * all) Robots is alive, so src/robots/robots.ts keeps an empty body's.
 * Measured in a child process with --expose-gc and V8's natives syntax
 * (test/support/shape-probe.mjs) on the built package.
 */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')

describe('shape keepers', () => {
  it('parseRobots stays optimised after every parsed file was dropped and collected, and keeps neither the last input nor its Robots', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', resolve(ROOT, 'test/support/shape-probe.mjs'), resolve(ROOT, 'dist/index.js')], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const { optimised, afterGc, freed } = JSON.parse(out) as { optimised: boolean; afterGc: boolean; freed: boolean }
    // The probe did get optimised code, so the check after the collections can see it go.
    expect(optimised).toBe(true)
    expect(afterGc).toBe(true)
    expect(freed).toBe(true)
  })
})
