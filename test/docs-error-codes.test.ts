/**
 * The error codes the pages name are the codes the layers have, both ways:
 *
 * - each layer's codes (the core's `RobotsErrorCode`, the command line's
 *   `CliErrorCode`, `compare`'s `CompareErrorCode`, read from their unions)
 *   are each named by some page;
 * - the error tree of docs/api.md gives each of the core's codes in the row
 *   of its class, as src/errors.ts does;
 * - every `ERR_…` a page names is a code of some layer, a code src/ gives
 *   a fetch outcome's error (`ERR_CONTENT_CODING`), or one of the
 *   platform's codes the pages quote as such (a renamed or dropped code
 *   never lingers in the docs).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/build.js'

/** Codes of the platform (Node, OpenSSL) the pages quote, which no layer of the project throws. */
const PLATFORM_CODES = new Set(['ERR_SSL_WRONG_VERSION_NUMBER'])

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** The members of the string-literal union `type NAME = | 'ERR_A' | 'ERR_B' …` in a source file. */
function unionCodes(path: string, name: string): string[] {
  const text = read(path)
  const start = text.indexOf(`export type ${name} =`)
  if (start < 0) throw new Error(`${path}: no type ${name}`)
  const body = text.slice(start).split(/\n\s*\n/)[0]!
  return [...body.matchAll(/\|\s*'(ERR_[A-Z0-9_]+)'/g)].map((m) => m[1]!)
}

/** Every `code: 'ERR_…'` src/ sets on an error of its own (a fetch outcome's, a transport's), and every code a class of the tree passes to `super('ERR_…'`. */
function sourceCodes(dir = join(ROOT, 'src')): Set<string> {
  const out = new Set<string>()
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) for (const c of sourceCodes(path)) out.add(c)
    else if (name.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/(?:code: |super\()'(ERR_[A-Z0-9_]+)'/g)) out.add(m[1]!)
  }
  return out
}

const LAYERS = {
  core: unionCodes('src/errors.ts', 'RobotsErrorCode'),
  cli: unionCodes('src/cli/common/cli-error.ts', 'CliErrorCode'),
  compare: unionCodes('src/compare/compare-error.ts', 'CompareErrorCode'),
}
const PAGES = ['README.md', 'ARCHITECTURE.md', 'SECURITY.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
const TEXT = new Map(PAGES.map((p) => [p, read(p)]))

describe('error codes: the pages and the layers agree', () => {
  it('each layer has codes (the unions are found)', () => {
    for (const [layer, codes] of Object.entries(LAYERS)) expect(codes.length, layer).toBeGreaterThan(3)
  })

  it.each(Object.entries(LAYERS))('every code of the %s layer is named by a page', (_layer, codes) => {
    const all = [...TEXT.values()].join('\n')
    expect(codes.filter((c) => !new RegExp(`\\b${c}\\b`).test(all))).toEqual([])
  })

  it("docs/api.md's error tree gives every code of the core in its class's row, as src/errors.ts does", () => {
    const api = TEXT.get('docs/api.md')!
    const tree = /```\nRobotsError[^\n]*\n([\s\S]*?)```/.exec(api)
    expect(tree, 'the tree block of docs/api.md').not.toBeNull()
    const rows = new Map<string, string>()
    for (const line of tree![1]!.split('\n')) {
      const m = /(Robots\w*Error)\s.*?((?:ERR_[A-Z_]+(?:, )?)+)\s*$/.exec(line)
      if (m) for (const code of m[2]!.split(', ')) rows.set(code, m[1]!)
    }
    // src/errors.ts: the class of each code, from its own tree comment.
    const source = read('src/errors.ts')
    const comment = /\* RobotsError[^\n]*\n([\s\S]*?)\n \*\/?\s*\n/.exec(source)![1]!
    const classOf = new Map<string, string>()
    let current = ''
    for (const line of comment.split('\n')) {
      const cls = /(Robots\w*Error)/.exec(line)
      if (cls) current = cls[1]!
      for (const code of line.match(/ERR_[A-Z_]+/g) ?? []) classOf.set(code, current)
    }
    for (const code of LAYERS.core) {
      expect(classOf.get(code), `src/errors.ts's tree comment names ${code}`).toBeDefined()
      expect(rows.get(code), `docs/api.md's tree names ${code}`).toBe(classOf.get(code))
    }
  })

  it('every ERR_ code a page names is a code of some layer or of src/, or a platform code quoted as such', () => {
    const known = new Set([...LAYERS.core, ...LAYERS.cli, ...LAYERS.compare, ...sourceCodes()])
    expect(known.has('ERR_CONTENT_CODING')).toBe(true)
    for (const c of PLATFORM_CODES) expect(known.has(c), `${c} is the project's own code now`).toBe(false)
    const unknown: string[] = []
    for (const [page, text] of TEXT) {
      for (const m of text.matchAll(/\bERR_[A-Z0-9_]+\b/g)) if (!known.has(m[0]) && !PLATFORM_CODES.has(m[0])) unknown.push(`${page}: ${m[0]}`)
    }
    expect(unknown).toEqual([])
  })
})
