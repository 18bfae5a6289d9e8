/**
 * The API reference (`npm run docs`: TypeDoc, typedoc.json, into the
 * gitignored docs/api/): it documents every entry of the package, and
 * TypeDoc's validation passes without a warning (treatWarningsAsErrors: a
 * type referenced but not exported, a broken `{@link}`). The test runs the
 * validation without writing the site (`--emit none`).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/build.js'

const TYPEDOC = resolve(ROOT, 'node_modules/typedoc/bin/typedoc')

interface TypedocConfig {
  entryPoints: string[]
  out: string
  excludeInternal: boolean
  treatWarningsAsErrors: boolean
  validation: Record<string, boolean>
}

const config = JSON.parse(readFileSync(resolve(ROOT, 'typedoc.json'), 'utf8')) as TypedocConfig
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  exports: Record<string, unknown>
}

describe('docs: the API reference', () => {
  it('npm run docs writes docs/api/ (gitignored) from every entry of the exports map, without @internal', () => {
    expect(pkg.scripts.docs).toBe('typedoc')
    expect(config.out).toBe('docs/api')
    expect(readFileSync(resolve(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('docs/api/')
    const entries = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'src/index.ts' : `src/${k.slice(2)}.ts`))
    expect([...config.entryPoints].sort()).toEqual(entries.sort())
    expect(config.excludeInternal).toBe(true)
  })

  it('TypeDoc validates the entries without a warning (nothing referenced but not exported, no broken link)', () => {
    expect(config.treatWarningsAsErrors).toBe(true)
    expect(config.validation).toMatchObject({ notExported: true, invalidLink: true })
    let out: string
    try {
      out = execFileSync(process.execPath, [TYPEDOC, '--emit', 'none'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string }
      throw new Error(`typedoc failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`)
    }
    expect(out).not.toMatch(/\[warning\]|\[error\]/)
  }, 120_000)
})
