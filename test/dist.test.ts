/**
 * The built package (CI builds before testing): the ESM and CJS builds answer
 * through the documented API, each format is one module graph (its entries
 * share their classes), and the exports map is well formed. Skipped when
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

  it('errors: one class tree per module format, shared by its entries; the ESM and CJS builds are two graphs (codes and built-in kinds in both)', async () => {
    type ErrorApi = Api & { RobotsError: new (...a: never[]) => Error }
    type InternalsApi = { createParser(handler: unknown): unknown }
    const req = createRequire(import.meta.url)
    const esm = (await import(pathToFileURL(ESM).href)) as ErrorApi
    const cjs = req(CJS) as ErrorApi
    const esmInternals = (await import(pathToFileURL(resolve(ROOT, 'dist/internals.js')).href)) as InternalsApi
    const cjsInternals = req(resolve(ROOT, 'dist/internals.cjs')) as InternalsApi
    const thrown = (f: () => unknown): unknown => {
      try {
        f()
      } catch (e) {
        return e
      }
      return undefined
    }
    for (const [from, internals, other] of [[esm, esmInternals, cjs], [cjs, cjsInternals, esm]] as const) {
      const limit = thrown(() => from.parseRobots('', { limit: 5 } as never))
      const input = thrown(() => from.parseRobots(42 as never))
      // Another entry of the same format throws the same classes (one module graph).
      const fromInternals = thrown(() => internals.createParser(42))
      expect(limit).toBeInstanceOf(RangeError)
      expect(input).toBeInstanceOf(TypeError)
      for (const e of [limit, input, fromInternals]) {
        expect(e).toBeInstanceOf(from.RobotsError)
        // The other format's build is another graph (the dual-package hazard, docs/api.md): not its class, the same code.
        expect(e).not.toBeInstanceOf(other.RobotsError)
      }
      expect((limit as { code: string }).code).toBe('ERR_LIMIT')
      expect((input as { code: string }).code).toBe('ERR_INPUT')
      expect((fromInternals as { code: string }).code).toBe('ERR_INPUT')
    }
  })

  it('the core entries (the library, internals and compat) reach no Node built-in, through their chunks too; the CommonJS entries share one core bundle', () => {
    /** The files an ESM file imports, transitively (its chunks). */
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen
      seen.add(file)
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?["'](\.\/[^'"]+)["']/g)) closure(resolve(file, '..', m[1]), seen)
      return seen
    }
    const files = [...['index', 'compat', 'internals'].flatMap((e) => [...closure(resolve(ROOT, `dist/${e}.js`))]), CJS, resolve(ROOT, 'dist/core.cjs'), resolve(ROOT, 'dist/compat.cjs'), resolve(ROOT, 'dist/internals.cjs')]
    expect(files.some((f) => /chunk-/.test(f))).toBe(true)
    for (const file of new Set(files)) {
      const src = readFileSync(file, 'utf8')
      expect(src, file).not.toMatch(/(?:from\s*|require\(\s*|import\(\s*)["'](?:node:)?(?:fs|path|http|https|net|stream|zlib|child_process|os|worker_threads)(?:\/[a-z]+)?["']/)
    }
    // Every CommonJS entry requires the one core bundle and holds no copy of the core's classes.
    for (const e of ['index', 'internals', 'compat', 'node']) {
      const src = readFileSync(resolve(ROOT, `dist/${e}.cjs`), 'utf8')
      expect(src, e).toMatch(/require\(["']\.\/core\.cjs["']\)/)
      expect(src, e).not.toMatch(/class (Robots|AgentMatcher|RobotsError)\b/)
    }
  })

  it('the typings hold no @internal declaration; the test options are documented options; no constructor of Robots or AgentMatcher', () => {
    const typings = declarationFiles(resolve(ROOT, 'dist'))
    expect(typings.length).toBeGreaterThan(40)
    for (const file of typings) expect(readFileSync(file, 'utf8'), file).not.toContain('@internal')
    const engine = readFileSync(resolve(ROOT, 'dist/match/engine-options.d.cts'), 'utf8')
    expect(engine).toMatch(/interface EngineOptions \{[^}]*matcherBudget\?: number;/)
    // engine and tier: options for tests and benchmarks, in the typings with their values (the answers are the same).
    expect(engine).toMatch(/\bengine\?: 'automaton' \| 'plain';/)
    expect(engine).toMatch(/\btier\?: 'cold' \| 'hot' \| 'thrash-proof';/)
    expect(readFileSync(resolve(ROOT, 'dist/robots/robots.d.cts'), 'utf8')).toMatch(/class Robots \{[^]*?\n {2}private constructor\(\);/)
    expect(readFileSync(resolve(ROOT, 'dist/match/matcher.d.cts'), 'utf8')).toMatch(/class AgentMatcher \{[^]*?\n {2}private constructor\(\);/)
  })

  it('one set of declarations serves both formats: an entry has a .d.ts and a .d.cts, the modules behind them a .d.cts only, and the command line none', () => {
    const typings = declarationFiles(resolve(ROOT, 'dist')).map((f) => f.slice(resolve(ROOT, 'dist').length + 1))
    const entries = ['index', 'node', 'compat', 'crawlee', 'internals']
    expect(typings.filter((f) => f.endsWith('.d.ts')).sort()).toEqual(entries.map((e) => `${e}.d.ts`).sort())
    for (const e of entries) expect(typings, e).toContain(`${e}.d.cts`)
    expect(typings.filter((f) => /^(cli|compare|playground)\//.test(f))).toEqual([])
    // The ES entries name the CommonJS declarations (a relative .js import would find no file).
    for (const e of entries) expect(readFileSync(resolve(ROOT, `dist/${e}.d.ts`), 'utf8'), e).not.toMatch(/from\s*['"]\.{1,2}\/[^'"]*\.js['"]/)
  })

  it('one module graph per format: a Robots made by the core entry is a Robots for internals, node and the store; across formats it crosses by toBytes', async () => {
    type Core = {
      parseRobots(body: string): object
      Robots: { fromBytes(b: Uint8Array): object; prototype: object }
      RobotsStore: new () => { setRobots(k: string, r: object): void; isAllowed(u: string, a: string): boolean }
    }
    type Internals = {
      compactRulesOf(robots: object): object
      referenceDecide(rules: object, tokens: string[], path: Uint8Array): { allowed: boolean; line: number }
    }
    type Node = { parseRobotsStream(source: AsyncIterable<Uint8Array>): Promise<object> }
    const req = createRequire(import.meta.url)
    const load = async (ext: 'js' | 'cjs', e: string): Promise<unknown> => (ext === 'js' ? import(pathToFileURL(resolve(ROOT, `dist/${e}.js`)).href) : req(resolve(ROOT, `dist/${e}.cjs`)))
    const enc = new TextEncoder()
    const chunks = async function* (): AsyncIterable<Uint8Array> {
      yield enc.encode('User-agent: *\nDisallow: /s')
    }
    for (const ext of ['js', 'cjs'] as const) {
      const core = (await load(ext, 'index')) as Core
      const internals = (await load(ext, 'internals')) as Internals
      const node = (await load(ext, 'node')) as Node
      const robots = core.parseRobots('User-agent: *\nDisallow: /x\nAllow: /x/y')
      const rules = internals.compactRulesOf(robots)
      expect(internals.referenceDecide(rules, ['bot'], enc.encode('/x/z'))).toMatchObject({ allowed: false, line: 2 })
      expect(internals.referenceDecide(rules, ['bot'], enc.encode('/x/y'))).toMatchObject({ allowed: true, line: 3 })
      const streamed = await node.parseRobotsStream(chunks())
      expect(streamed, ext).toBeInstanceOf(core.Robots as unknown as new () => object)
      const store = new core.RobotsStore()
      store.setRobots('a.test', streamed)
      expect(store.isAllowed('https://a.test/s', 'bot')).toBe(false)
    }
    // Across the formats: two graphs; a Robots crosses as its bytes.
    const esmCore = (await load('js', 'index')) as Core
    const cjsCore = (await load('cjs', 'index')) as Core
    const cjsInternals = (await load('cjs', 'internals')) as Internals
    const esmRobots = esmCore.parseRobots('User-agent: *\nDisallow: /x')
    expect(esmRobots).not.toBeInstanceOf(cjsCore.Robots as unknown as new () => object)
    expect(() => cjsInternals.compactRulesOf(esmRobots)).toThrow(expect.objectContaining({ code: 'ERR_INPUT' }))
    const carried = cjsCore.Robots.fromBytes((esmRobots as { toBytes(): Uint8Array }).toBytes())
    expect(cjsInternals.referenceDecide(cjsInternals.compactRulesOf(carried), ['a'], enc.encode('/x'))).toMatchObject({ allowed: false, line: 2 })
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
