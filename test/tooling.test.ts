/**
 * The project's own tooling: `npm run typecheck` covers the whole code base
 * (the core without Node types, then src/cli, src/node.ts and the tests with
 * them), as its run on a scratch project with this one's configuration
 * shows, and `npm run bench` writes its results to an untracked, gitignored
 * path instead of rewriting a tracked file.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RESULTS_JSON } from '../bench/lib/output.mjs'
import { ROOT } from './support/build.js'
import { SHARED_SUITES } from './support/shared-data.js'

const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
const TSC = resolve(ROOT, 'node_modules/typescript/bin/tsc')
const IS_GIT = existsSync(resolve(ROOT, '.git'))

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' })
}

describe('typecheck', () => {
  it('npm run typecheck covers every TypeScript file of src/ and test/, and the vitest configurations', () => {
    const config = JSON.parse(execFileSync(process.execPath, [TSC, '-p', 'tsconfig.test.json', '--showConfig'], { cwd: ROOT, encoding: 'utf8' })) as { files: string[] }
    const checked = new Set(config.files.map((f) => f.replace(/^\.\//, '')))
    const walk = (dir: string): string[] =>
      readdirSync(resolve(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : /\.(m|c)?ts$/.test(e.name) ? [join(dir, e.name)] : [],
      )
    const configs = readdirSync(ROOT).filter((f) => /^vitest(\.\w+)?\.config\.ts$/.test(f))
    expect(configs).toContain('vitest.config.ts')
    const missing = [...walk('src'), ...walk('test'), ...configs].filter((f) => !checked.has(f))
    expect(missing).toEqual([])
  })

  it('npm run typecheck, on a scratch project with this one\'s configuration: Node APIs fail in the core, pass in src/node.ts, src/cli and the tests; a type error in a test fails; nothing is written', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'robots-typecheck-'))
    try {
      for (const f of ['tsconfig.json', 'tsconfig.test.json']) copyFileSync(resolve(ROOT, f), join(scratch, f))
      symlinkSync(resolve(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir')
      const put = (file: string, text: string): void => {
        mkdirSync(dirname(join(scratch, file)), { recursive: true })
        writeFileSync(join(scratch, file), text)
      }
      put('src/core.ts', 'export const answer: number = 42\n')
      put('src/node.ts', "export const version: string = process.version\n")
      put('src/cli/main.ts', "export const args: string[] = process.argv\n")
      put('test/core.test.ts', "import { answer } from '../src/core.js'\nexport const home: string | undefined = process.env.HOME ?? String(answer)\n")
      // As npm runs a script: with node_modules/.bin first on the PATH.
      const typecheck = () =>
        spawnSync('sh', ['-c', pkg.scripts.typecheck], {
          cwd: scratch,
          encoding: 'utf8',
          env: { ...process.env, PATH: `${join(scratch, 'node_modules/.bin')}:${process.env.PATH}` },
        })
      const clean = typecheck()
      expect(clean.status, clean.stdout + clean.stderr).toBe(0)
      put('src/core.ts', 'export const answer: number = process.pid\n')
      const nodeInCore = typecheck()
      expect(nodeInCore.status).not.toBe(0)
      expect(nodeInCore.stdout).toMatch(/src\/core\.ts.*Cannot find name 'process'/)
      put('src/core.ts', 'export const answer: number = 42\n')
      put('test/broken.test.ts', "export const n: number = 'not a number'\n")
      const inTest = typecheck()
      expect(inTest.status).not.toBe(0)
      expect(inTest.stdout).toMatch(/test\/broken\.test\.ts.*Type 'string' is not assignable to type 'number'/)
      const written = readdirSync(scratch, { recursive: true, encoding: 'utf8' }).filter((f) => !f.startsWith('node_modules') && /\.(js|d\.ts|tsbuildinfo)$/.test(f))
      expect(written).toEqual([])
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})

describe('bench output', () => {
  it('the default results file is untracked and gitignored', () => {
    const rel = relative(ROOT, RESULTS_JSON)
    if (!IS_GIT) return
    expect(git('ls-files', 'bench').split('\n')).not.toContain('bench/results.json')
    expect(git('check-ignore', rel).trim()).toBe(rel)
  })

  it.runIf(IS_GIT)('regression (npm run bench rewrote bench/results.json): a bench run leaves git status unchanged', () => {
    const before = git('status', '--porcelain', '--untracked-files=all')
    const existed = existsSync(RESULTS_JSON)
    try {
      execFileSync(process.execPath, ['bench/run-all.mjs', '--quick', '--only', 'w3'], { cwd: ROOT, stdio: 'ignore' })
      expect(existsSync(RESULTS_JSON)).toBe(true)
      expect(JSON.parse(readFileSync(RESULTS_JSON, 'utf8')).results.w3).toBeDefined()
      expect(git('status', '--porcelain', '--untracked-files=all')).toBe(before)
    } finally {
      if (!existed) rmSync(resolve(ROOT, 'bench/out'), { recursive: true, force: true })
    }
  })
})

describe('npm run test:quick', () => {
  it('every pattern of its configuration names test files, and npm test runs them too', async () => {
    const config = /^vitest run --config (\S+)$/.exec(pkg.scripts['test:quick'])?.[1]
    expect(config, 'test:quick runs vitest with a configuration of its own').toBeDefined()
    const before = process.env.ROBOTS_AUTOMATON_QUICK_TESTS
    type Config = { test?: { include?: string[]; exclude?: string[]; projects?: { test: { include: string[]; exclude?: string[] } }[] } }
    const [{ default: quick }, { default: full }] = (await Promise.all([import(resolve(ROOT, config!)), import('../vitest.config.js')])) as { default: Config }[]
    if (before === undefined) delete process.env.ROBOTS_AUTOMATON_QUICK_TESTS // set by the quick config as it loads
    // A glob as vitest reads these: `**/` any folders (or none), `*` any name part.
    const glob = (pattern: string): RegExp =>
      new RegExp(`^${pattern.split('**/').map((part) => part.split('*').map((t) => t.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('(?:.*/)?')}$`)
    const files = (function walk(dir: string): string[] {
      return readdirSync(resolve(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]))
    })('test')
    // npm test runs a file when one of its projects includes the file and does not exclude it.
    const projects = (full.test?.projects ?? []).map((p) => p.test)
    expect(projects.length, 'npm test runs its files in projects').toBeGreaterThan(0)
    const inFull = files.filter((f) => projects.some((p) => p.include.some((i) => glob(i).test(f)) && !(p.exclude ?? []).some((e) => glob(e).test(f))))
    const inQuick = new Set<string>()
    for (const pattern of quick.test?.include ?? []) {
      const matched = files.filter((f) => glob(pattern).test(f))
      expect(matched.length, `${pattern} names no test file`).toBeGreaterThan(0)
      for (const f of matched) expect(inFull, `${f} is not run by npm test`).toContain(f)
      matched.forEach((f) => inQuick.add(f))
    }
    // The reference's own vectors are part of the quick run.
    expect([...inQuick]).toContain('test/conformance.test.ts')
  })
})

describe('the suites that need ../shared', () => {
  it('every declared suite is used by a test file and every use is declared, so the skip line names exactly the skipped suites', () => {
    const used = new Set<string>()
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name)
        if (e.isDirectory()) walk(path)
        else if (e.name.endsWith('.test.ts')) {
          const text = readFileSync(path, 'utf8')
          for (const m of text.matchAll(/(?:describeShared|itShared)\('([\w-]+)'|describePaired\([^;]*?,\s*'([\w-]+)',\s*\(/g)) used.add(m[1] ?? m[2])
        }
      }
    }
    walk(resolve(ROOT, 'test'))
    expect([...used].sort()).toEqual(Object.keys(SHARED_SUITES).sort())
  })
})

describe('test files that share a worker', () => {
  it('a global a test file (or its helper) patches is put back, and none sets an environment variable, unless the file runs isolated', async () => {
    const { ISOLATED } = (await import('../vitest.config.js')) as { ISOLATED: string[] }
    // The folders of the isolated files keep their helpers too.
    const isolatedDirs = ISOLATED.map((p) => p.slice(0, p.indexOf('*')))
    // A property of a global, assigned: `Uint8Array.prototype.indexOf = …`, `process.stderr.write = …`, `process.env.X = …`.
    const ASSIGNED = /^\s*((?:process|globalThis|console|Math|Date|performance|Buffer|[A-Z]\w*\.prototype)(?:\.[A-Za-z_$][\w$]*)+)\s*=(?!=)/gm
    const offenders: string[] = []
    let patched = 0
    const walk = (dir: string): void => {
      for (const e of readdirSync(resolve(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${e.name}`
        if (e.isDirectory()) walk(path)
        else if (/\.(ts|mts)$/.test(e.name) && !isolatedDirs.some((d) => path.startsWith(d))) {
          const text = readFileSync(resolve(ROOT, path), 'utf8')
          const counts = new Map<string, number>()
          for (const m of text.matchAll(ASSIGNED)) {
            const before = text.slice(0, m.index)
            // Code a child process or a browser page runs: inside a template string, or marked as the page's.
            if ((before.match(/`/g) ?? []).length % 2 === 1 || /\/\/ In the page\b[^\n]*\n\s*$/.test(before)) continue
            counts.set(m[1], (counts.get(m[1]) ?? 0) + 1)
          }
          for (const [target, n] of counts) {
            patched++
            if (target.startsWith('process.env.')) offenders.push(`${path}: sets ${target} (use vi.stubEnv, undone after each test)`)
            else if (n < 2) offenders.push(`${path}: assigns ${target} once, never putting it back`)
          }
        }
      }
    }
    walk('test')
    expect(offenders).toEqual([])
    // The check sees the patches this suite makes (Uint8Array.prototype.indexOf, process.stderr.write, …).
    expect(patched).toBeGreaterThan(5)
  })
})
