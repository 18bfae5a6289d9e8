/**
 * The built package (CI builds before testing): the ESM and CJS bundles answer
 * through the documented API, and the exports map is well formed. Skipped when
 * dist/ has not been built.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '..')
const ESM = resolve(ROOT, 'dist/index.js')
const CJS = resolve(ROOT, 'dist/index.cjs')
const HAS_DIST = existsSync(ESM)

interface Api {
  parseRobots(body: string | Uint8Array): {
    agent(token: string): { isAllowed(url: string): boolean; explain(url: string): { allowed: boolean; rule: { line: number } | null } }
  }
}

function oneCase(api: Api): void {
  const m = api.parseRobots('User-agent: *\nDisallow: /x').agent('a')
  expect(m.isAllowed('/x/y')).toBe(false)
  expect(m.isAllowed('/y')).toBe(true)
  expect(m.explain('https://example.com/x/y').rule?.line).toBe(2)
}

const suite = HAS_DIST ? describe : describe.skip

suite('dist: the built package', () => {
  it('ESM: import("dist/index.js") answers', async () => {
    const api = (await import(pathToFileURL(ESM).href)) as Api
    oneCase(api)
  })

  it('CJS: require("dist/index.cjs") answers', () => {
    expect(existsSync(CJS)).toBe(true)
    const api = createRequire(import.meta.url)(CJS) as Api
    oneCase(api)
  })

  it('the core bundles import no Node built-ins', () => {
    for (const file of [ESM, CJS]) {
      const src = readFileSync(file, 'utf8')
      expect(src, file).not.toMatch(/(?:from\s*|require\(\s*|import\(\s*)["'](?:node:)?(?:fs|path|http|https|net|stream|zlib|child_process|os)(?:\/[a-z]+)?["']/)
    }
  })

  it('every file the exports map names exists', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    let n = 0
    for (const value of Object.values(pkg.exports)) {
      const files = typeof value === 'string' ? [value] : Object.values(value as Record<string, string>)
      for (const f of files) {
        expect(existsSync(resolve(ROOT, f)), f).toBe(true)
        n++
      }
    }
    expect(n).toBeGreaterThan(3)
  })
})

describe('package.json exports map', () => {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>
    main?: string
    module?: string
    types?: string
  }

  it('every conditional entry lists "types" first', () => {
    const entries = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object')
    expect(entries.length).toBeGreaterThan(0)
    for (const [key, value] of entries) {
      const conditions = Object.keys(value as Record<string, string>)
      expect(conditions[0], key).toBe('types')
      expect(conditions, key).toContain('import')
      expect(conditions, key).toContain('require')
    }
  })

  it('"." points at the ESM, CJS and declaration files', () => {
    const dot = pkg.exports['.'] as Record<string, string>
    expect(dot.types).toBe('./dist/index.d.ts')
    expect(dot.import).toBe('./dist/index.js')
    expect(dot.require).toBe('./dist/index.cjs')
    expect(pkg.main).toBe(dot.require)
    expect(pkg.types).toBe(dot.types)
  })
})
