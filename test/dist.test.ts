/**
 * The built package (CI builds before testing): the ESM and CJS bundles answer
 * through the documented API, and the exports map is well formed. Skipped when
 * dist/ has not been built.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '..')
const ESM = resolve(ROOT, 'dist/index.js')
const CJS = resolve(ROOT, 'dist/index.cjs')
const HAS_DIST = existsSync(ESM)

interface Api {
  parseRobots(body: string | Uint8Array, options?: object): {
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

  it('errors: instanceof RobotsError holds across the ESM and CJS builds, with codes and built-in kinds', async () => {
    type ErrorApi = Api & { RobotsError: new (...a: never[]) => Error }
    const esm = (await import(pathToFileURL(ESM).href)) as ErrorApi
    const cjs = createRequire(import.meta.url)(CJS) as ErrorApi
    const thrown = (api: ErrorApi, f: (api: ErrorApi) => unknown): unknown => {
      try {
        f(api)
      } catch (e) {
        return e
      }
      return undefined
    }
    for (const [from, other] of [[esm, cjs], [cjs, esm]] as const) {
      const limit = thrown(from, (api) => api.parseRobots('', { limit: 5 } as never))
      const input = thrown(from, (api) => api.parseRobots(42 as never))
      expect(limit).toBeInstanceOf(RangeError)
      expect(input).toBeInstanceOf(TypeError)
      for (const e of [limit, input]) {
        expect(e).toBeInstanceOf(from.RobotsError)
        expect(e).toBeInstanceOf(other.RobotsError)
      }
      expect((limit as { code: string }).code).toBe('ERR_LIMIT')
      expect((input as { code: string }).code).toBe('ERR_INPUT')
    }
  })

  it('the core bundles (the library, internals and compat) import no Node built-ins', () => {
    for (const file of [ESM, CJS, ...['compat', 'internals'].flatMap((e) => [resolve(ROOT, `dist/${e}.js`), resolve(ROOT, `dist/${e}.cjs`)])]) {
      const src = readFileSync(file, 'utf8')
      expect(src, file).not.toMatch(/(?:from\s*|require\(\s*|import\(\s*)["'](?:node:)?(?:fs|path|http|https|net|stream|zlib|child_process|os)(?:\/[a-z]+)?["']/)
    }
  })

  it('the typings hold no @internal declaration (stripInternal): no test switch, no constructor of Robots or AgentMatcher', () => {
    const typings = declarationFiles(resolve(ROOT, 'dist'))
    expect(typings.length).toBeGreaterThan(40)
    for (const file of typings) expect(readFileSync(file, 'utf8'), file).not.toContain('@internal')
    for (const ext of ['d.ts', 'd.cts']) {
      const engine = readFileSync(resolve(ROOT, `dist/match/engine-options.${ext}`), 'utf8')
      expect(engine).toMatch(/interface EngineOptions \{[^}]*matcherBudget\?: number;/)
      expect(engine).not.toMatch(/\bengine\?:/)
      expect(readFileSync(resolve(ROOT, `dist/robots/robots.${ext}`), 'utf8')).toMatch(/class Robots \{[^]*?\n {4}private constructor\(\);/)
      expect(readFileSync(resolve(ROOT, `dist/match/matcher.${ext}`), 'utf8')).toMatch(/class AgentMatcher \{[^]*?\n {4}private constructor\(\);/)
    }
  })

  it('internals: compactRulesOf reads a Robots of the core bundle (another copy of the classes) for referenceDecide, in ESM and CJS', async () => {
    type Core = { parseRobots(body: string): object }
    type Internals = {
      compactRulesOf(robots: object): object
      referenceDecide(rules: object, tokens: string[], path: Uint8Array): { allowed: boolean; line: number }
    }
    const req = createRequire(import.meta.url)
    const esm = [(await import(pathToFileURL(ESM).href)) as Core, (await import(pathToFileURL(resolve(ROOT, 'dist/internals.js')).href)) as Internals] as const
    const cjs = [req(CJS) as Core, req(resolve(ROOT, 'dist/internals.cjs')) as Internals] as const
    for (const [lib, internals] of [esm, cjs, [esm[0], cjs[1]], [cjs[0], esm[1]]] as const) {
      const rules = internals.compactRulesOf(lib.parseRobots('User-agent: *\nDisallow: /x\nAllow: /x/y'))
      expect(internals.referenceDecide(rules, ['bot'], new TextEncoder().encode('/x/z'))).toMatchObject({ allowed: false, line: 2 })
      expect(internals.referenceDecide(rules, ['bot'], new TextEncoder().encode('/x/y'))).toMatchObject({ allowed: true, line: 3 })
    }
  })

  it('every file the exports map names exists', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Conditions> }
    const files = Object.values(pkg.exports).flatMap(targets)
    for (const f of files) expect(existsSync(resolve(ROOT, f)), f).toBe(true)
    expect(files.length).toBeGreaterThan(12)
  })
})

/** Every .d.ts and .d.cts file under `dir`. */
function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = resolve(dir, e.name)
    return e.isDirectory() ? declarationFiles(path) : /\.d\.c?ts$/.test(e.name) ? [path] : []
  })
}

/** An exports target: a path, or conditions (nested) leading to paths. */
type Conditions = string | { [condition: string]: Conditions }

/** Every path a target leads to. */
function targets(value: Conditions): string[] {
  return typeof value === 'string' ? [value] : Object.values(value).flatMap(targets)
}

/** Every conditions object of a target, nested ones included. */
function conditionObjects(value: Conditions): Record<string, Conditions>[] {
  return typeof value === 'string' ? [] : [value, ...Object.values(value).flatMap(conditionObjects)]
}

describe('package.json exports map', () => {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, Conditions>
    main?: string
    module?: string
    types?: string
    typesVersions?: Record<string, Record<string, string[]>>
  }

  it('every entry has import and require, each with its own types, listed first', () => {
    const entries = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object')
    expect(entries.map(([k]) => k)).toEqual(['.', './node', './compat', './crawlee', './internals'])
    for (const [key, value] of entries) {
      const conditions = value as Record<string, Record<string, string>>
      expect(Object.keys(conditions), key).toEqual(['import', 'require'])
      for (const obj of conditionObjects(value)) {
        if (Object.values(obj).some((v) => typeof v === 'string')) expect(Object.keys(obj)[0], key).toBe('types')
      }
      expect(conditions.import.types, key).toMatch(/\.d\.ts$/)
      expect(conditions.require.types, key).toMatch(/\.d\.cts$/)
    }
  })

  it('"." points at the ESM, CJS and declaration files; main and types agree', () => {
    const dot = pkg.exports['.'] as Record<string, Record<string, string>>
    expect(dot.import).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' })
    expect(dot.require).toEqual({ types: './dist/index.d.cts', default: './dist/index.cjs' })
    expect(pkg.main).toBe(dot.require.default)
    expect(pkg.module).toBe(dot.import.default)
    expect(pkg.types).toBe(dot.import.types)
  })

  it('typesVersions maps every subpath for moduleResolution node10 (compat to its require typings, whose module is the function)', () => {
    const map = pkg.typesVersions?.['*'] ?? {}
    for (const key of Object.keys(pkg.exports).filter((k) => k !== '.' && k !== './package.json')) {
      const sub = key.slice(2)
      const entry = pkg.exports[key] as Record<string, Record<string, string>>
      // node10 is CommonJS resolution: `import robotsParser = require('robots-automaton/compat')` must be callable there too.
      expect(map[sub], key).toEqual([key === './compat' ? entry.require.types : entry.import.types])
    }
  })
})
