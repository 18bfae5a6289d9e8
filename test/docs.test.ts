/**
 * The API reference (`npm run docs`: TypeDoc, into the gitignored docs/api/),
 * checked by what TypeDoc does rather than by its configuration:
 *
 * - TypeDoc's validation passes without a warning or an error (nothing the
 *   typings reference is left unexported, no broken `{@link}`);
 * - the reference covers every entry of the package (every subpath of the
 *   exports map) and every value each built entry exports, and shows no
 *   `@internal` declaration;
 * - every exported declaration has a doc comment (members may go without);
 * - `npm run docs` writes where nothing hand-written lives, and git ignores it.
 *
 * TypeDoc runs once, writing its HTML and its JSON model to a temporary
 * directory (the project's own output directory is left alone).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIfStale, ROOT } from './support/build.js'

const TYPEDOC = resolve(ROOT, 'node_modules/typedoc/bin/typedoc')

/** The parts of TypeDoc's JSON model the checks read. */
interface Comment {
  summary?: { text: string }[]
  blockTags?: { tag: string }[]
  modifierTags?: string[]
}
interface Reflection {
  id: number
  name: string
  kind: number
  /** A re-export (kind Reference): the id of the declaration it names. */
  target?: number
  comment?: Comment
  signatures?: Reflection[]
  getSignature?: Reflection
  children?: Reflection[]
}

const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  name: string
  exports: Record<string, unknown>
}
/** The package's entries: `robots-automaton`, `robots-automaton/node`, … */
const ENTRIES = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .map((k) => (k === '.' ? pkg.name : `${pkg.name}/${k.slice(2)}`))

let dir = ''
let output = ''
let status: number | null = null
let project: Reflection | undefined

beforeAll(() => {
  buildIfStale()
  dir = mkdtempSync(join(tmpdir(), 'robots-typedoc-'))
  const run = spawnSync(process.execPath, [TYPEDOC, '--out', join(dir, 'html'), '--json', join(dir, 'api.json')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  status = run.status
  output = `${run.stdout}${run.stderr}`
  if (existsSync(join(dir, 'api.json'))) project = JSON.parse(readFileSync(join(dir, 'api.json'), 'utf8')) as Reflection
})

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The reference's module for one package entry. */
function moduleOf(entry: string): Reflection {
  const m = project?.children?.find((c) => c.name === entry)
  if (!m) throw new Error(`the API reference has no module ${entry} (modules: ${project?.children?.map((c) => c.name).join(', ')})`)
  return m
}

/** TypeDoc's kind for a re-export (`export { x } from …`, `export default x`). */
const KIND_REFERENCE = 0x400000

/** Every reflection of the model by id. */
function byId(): Map<number, Reflection> {
  const map = new Map<number, Reflection>()
  const visit = (r: Reflection) => {
    map.set(r.id, r)
    for (const c of r.children ?? []) visit(c)
  }
  if (project) visit(project)
  return map
}

/**
 * Whether a reflection carries a doc comment (on itself, its signatures or
 * its getter); a re-export is documented where it is declared.
 */
function documented(r: Reflection, ids: Map<number, Reflection>): boolean {
  if (r.kind === KIND_REFERENCE && r.target !== undefined) {
    const target = ids.get(r.target)
    return target !== undefined && target !== r && documented(target, ids)
  }
  const has = (c?: Comment) => !!c && ((c.summary?.some((p) => p.text.trim() !== '') ?? false) || (c.blockTags?.length ?? 0) > 0)
  return has(r.comment) || (r.signatures?.some((s) => has(s.comment)) ?? false) || has(r.getSignature?.comment)
}

describe('docs: the API reference', () => {
  it('TypeDoc validates the entries without a warning (nothing referenced but not exported, no broken link)', () => {
    expect(output, output).not.toMatch(/\[warning\]|\[error\]/)
    expect(status, output).toBe(0)
    expect(project, 'TypeDoc wrote its JSON model').toBeDefined()
  })

  it('covers every entry of the package, and nothing else', () => {
    expect(project?.children?.map((c) => c.name).sort()).toEqual([...ENTRIES].sort())
  })

  for (const entry of ENTRIES) {
    it(`${entry}: every value the built entry exports is in the reference`, async () => {
      const file = entry === pkg.name ? 'index' : entry.slice(pkg.name.length + 1)
      const built = (await import(pathToFileURL(resolve(ROOT, `dist/${file}.js`)).href)) as Record<string, unknown>
      const names = new Set((moduleOf(entry).children ?? []).map((c) => c.name))
      expect(Object.keys(built).filter((n) => !names.has(n))).toEqual([])
    })
  }

  it('every exported declaration has a doc comment, and none is @internal', () => {
    const undocumented: string[] = []
    const internal: string[] = []
    const visit = (r: Reflection, path: string) => {
      if (r.comment?.modifierTags?.includes('@internal') || r.signatures?.some((s) => s.comment?.modifierTags?.includes('@internal'))) {
        internal.push(path)
      }
      for (const c of r.children ?? []) visit(c, `${path}.${c.name}`)
    }
    const ids = byId()
    for (const entry of ENTRIES) {
      for (const decl of moduleOf(entry).children ?? []) {
        if (!documented(decl, ids)) undocumented.push(`${entry}: ${decl.name}`)
        visit(decl, `${entry}: ${decl.name}`)
      }
    }
    expect(undocumented).toEqual([])
    expect(internal).toEqual([])
  })

  it('npm run docs writes where nothing hand-written lives, and git ignores it', () => {
    // --showConfig prints the resolved options as a JavaScript object literal; `out` is all this needs.
    const shown = execFileSync(process.execPath, [TYPEDOC, '--showConfig'], { cwd: ROOT, encoding: 'utf8' })
    const configured = /^\s*out: '([^']+)'/m.exec(shown)?.[1]
    expect(configured, 'TypeDoc has an output directory').toBeDefined()
    const out = relative(ROOT, resolve(ROOT, configured as string)).split(sep).join('/')
    expect(out).not.toBe('')
    expect(out.startsWith('..'), out).toBe(false)
    // Nothing tracked there: no hand-written page for TypeDoc to overwrite.
    const tracked = spawnSync('git', ['ls-files', '--', out], { cwd: ROOT, encoding: 'utf8' })
    if (tracked.status === 0) expect(tracked.stdout).toBe('')
    // And the hand-written pages of docs/ are not inside it.
    if (existsSync(resolve(ROOT, 'docs'))) {
      const pages = readdirSync(resolve(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
        .map((p) => `docs/${p.split(sep).join('/')}`)
        .filter((p) => p.endsWith('.md'))
      expect(pages.filter((p) => p === out || p.startsWith(`${out}/`))).toEqual([])
    }
    // Ignored by git (checked on .gitignore's lines, so it also holds outside a checkout).
    const ignored = readFileSync(resolve(ROOT, '.gitignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim().replace(/^\//, '').replace(/\/$/, ''))
    expect(ignored, `.gitignore ignores ${out}/`).toContain(out)
  })
})
