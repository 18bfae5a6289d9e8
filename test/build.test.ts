/**
 * dist/ freshness (scripts/dist-state.mjs): the tests and `npm run prepack`
 * rebuild dist/ when it is missing or older than its sources, not only when
 * it is missing.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DIST_OUTPUTS, distState } from '../scripts/dist-state.mjs'
import { ROOT } from './support/build.js'

let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
  dirs = []
})

/** A fake checkout: src/ files, the build inputs and every dist output, all at time `t` (seconds). */
function checkout(t: number): string {
  const root = mkdtempSync(join(tmpdir(), 'robots-dist-'))
  dirs.push(root)
  const files = ['src/index.ts', 'src/cli/main.ts', 'scripts/build.mjs', 'package.json', 'tsconfig.json', ...DIST_OUTPUTS]
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true })
    writeFileSync(join(root, f), '')
    utimesSync(join(root, f), t, t)
  }
  return root
}

const touch = (root: string, f: string, t: number): void => utimesSync(join(root, f), t, t)

describe('dist freshness', () => {
  it('fresh when every output is at least as new as every source', () => {
    expect(distState(checkout(1000)).fresh).toBe(true)
  })

  it('regression (dist older than src was tested as is): a source file newer than dist/ makes it stale', () => {
    const root = checkout(1000)
    touch(root, 'src/cli/main.ts', 2000)
    expect(distState(root)).toEqual({ fresh: false, reason: 'src/cli/main.ts is newer than dist/' })
  })

  it('the build script, package.json and tsconfig count as sources', () => {
    for (const f of ['scripts/build.mjs', 'package.json', 'tsconfig.json']) {
      const root = checkout(1000)
      touch(root, f, 2000)
      expect(distState(root).fresh, f).toBe(false)
    }
  })

  it('one output older than the sources (a build that stopped half way) makes it stale', () => {
    const root = checkout(2000)
    touch(root, 'src/index.ts', 1500)
    touch(root, 'dist/compat.d.ts', 1000)
    expect(distState(root).fresh).toBe(false)
  })

  it('a missing output makes it stale', () => {
    const root = checkout(1000)
    rmSync(join(root, 'dist/compat.cjs'))
    expect(distState(root)).toEqual({ fresh: false, reason: 'dist/compat.cjs is missing' })
  })

  it('this checkout is fresh after the global setup', () => {
    expect(distState(ROOT)).toEqual({ fresh: true, reason: 'dist/ is up to date' })
  })
})
