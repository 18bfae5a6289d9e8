/**
 * The project's own tooling: `npm run typecheck` covers the whole code base
 * (the core without Node types, then src/cli, src/node.ts and the tests with
 * them), and `npm run bench` writes its results to an untracked, gitignored
 * path instead of rewriting a tracked file.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
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
  it('npm run typecheck checks the core alone and everything with Node types, tests included', () => {
    expect(pkg.scripts.typecheck).toBe('tsc -p tsconfig.json --noEmit && tsc -p tsconfig.test.json')
    const config = JSON.parse(execFileSync(process.execPath, [TSC, '-p', 'tsconfig.test.json', '--showConfig'], { cwd: ROOT, encoding: 'utf8' })) as {
      files: string[]
      compilerOptions: { types?: string[]; noEmit?: boolean }
    }
    const files = config.files.map((f) => f.replace(/^\.\//, ''))
    for (const f of ['src/cli/main.ts', 'src/node.ts', 'src/compat.ts', 'test/compat.test.ts', 'test/cli/helpers.ts', 'test/support/compat-differences.ts', 'vitest.config.ts']) {
      expect(files, f).toContain(f)
    }
    expect(config.compilerOptions.types).toEqual(['node'])
    expect(config.compilerOptions.noEmit).toBe(true)
  })
})

describe('bench output', () => {
  it('the default results file is untracked and gitignored', () => {
    const rel = relative(ROOT, RESULTS_JSON)
    expect(rel).toBe('bench/out/results.json')
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
  }, 120_000)
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
