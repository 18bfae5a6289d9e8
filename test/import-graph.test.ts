/**
 * The import graph of src/ (static imports and re-exports, `import type`
 * and `import('…')` included): no file imports itself through others, no
 * folder of src/ (nor of a tool's folder) imports itself through other
 * folders (a folder's files may import each other), and nothing under src/
 * imports test/ or bench/. The tools (src/cli/, src/compare/, src/tools/,
 * src/playground/) reach the core only through the package's entries, as
 * an outside tool would, and the core imports no tool.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '..')
const SRC = join(ROOT, 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  )
}

/** Relative specifiers of a file's static imports and re-exports. */
function specifiers(text: string): string[] {
  const out: string[] = []
  const re = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3])
  return out
}

/** The graph: file (relative to the root) → files it imports. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const from = relative(ROOT, file)
    const to = specifiers(readFileSync(file, 'utf8')).map((s) => relative(ROOT, resolve(dirname(file), s.replace(/\.js$/, '.ts'))))
    g.set(from, to)
  }
  return g
}

/** The strongly connected components with more than one node (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  const visit = (v: string): void => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1) out.push(scc.sort())
    }
  }
  for (const v of g.keys()) if (!idx.has(v)) visit(v)
  return out
}

/** src/a/b/c.ts → src/a; src/x.ts → src/x.ts. */
const folderOf = (file: string): string => {
  const parts = file.split('/')
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file
}

/**
 * The tools: built on the package's entries, as an outside tool would be.
 * The crawlee entry (src/crawlee.ts and src/crawlee/) is built the same
 * way: its CommonJS build requires the core's (scripts/build.mjs).
 */
const TOOLS = ['src/cli/', 'src/compare/', 'src/tools/', 'src/playground/', 'src/crawlee.ts', 'src/crawlee/']
/** The package's entries (the exports map's): all a tool may import of the core. */
const ENTRIES = ['src/index.ts', 'src/node.ts', 'src/compat.ts', 'src/internals.ts']
const isTool = (file: string): boolean => TOOLS.some((t) => file.startsWith(t))

/** Imports of a tool's file into the core past the entries (value and type imports alike). */
function pastEntries(g: Map<string, string[]>): string[] {
  const out: string[] = []
  for (const [from, to] of g) {
    if (!isTool(from)) continue
    for (const t of to) if (t.startsWith('src/') && !isTool(t) && !ENTRIES.includes(t)) out.push(`${from} imports ${t}`)
  }
  return out
}

/** Imports of the core into a tool. */
function coreIntoTools(g: Map<string, string[]>): string[] {
  const out: string[] = []
  for (const [from, to] of g) if (!isTool(from)) for (const t of to) if (isTool(t)) out.push(`${from} imports ${t}`)
  return out
}

/** The folder graph at `folder` (src/x/y/z.ts → src/x/y, a file at the first level is its own node). */
function folderGraph(g: Map<string, string[]>, folder: (file: string) => string, keep: (file: string) => boolean = () => true): Map<string, string[]> {
  const folders = new Map<string, string[]>()
  for (const [from, to] of g) {
    if (!keep(from)) continue
    const f = folder(from)
    const list = folders.get(f) ?? []
    for (const t of to) if (keep(t) && folder(t) !== f && !list.includes(folder(t))) list.push(folder(t))
    folders.set(f, list)
  }
  return folders
}

/** src/cli/a/b.ts → src/cli/a; src/cli/main.ts → itself. */
const toolFolderOf = (file: string): string => {
  const parts = file.split('/')
  return parts.length > 3 ? parts.slice(0, 3).join('/') : file
}

describe('import graph of src/', () => {
  const g = graph()

  it('reads every source file and finds imports', () => {
    expect(g.size).toBeGreaterThan(100)
    let edges = 0
    for (const to of g.values()) edges += to.length
    expect(edges).toBeGreaterThan(g.size)
  })

  it('no file imports itself through others', () => {
    expect(cycles(g)).toEqual([])
  })

  it('no folder of src/ imports itself through other folders', () => {
    expect(cycles(folderGraph(g, folderOf))).toEqual([])
  })

  it("no folder of a tool (cli/commands, cli/filter, cli/hosts, …) imports itself through the tool's other folders", () => {
    // The folders inside a tool (its files at the top, main.ts and the like, sit above them all).
    for (const tool of ['src/cli/', 'src/compare/']) {
      const folders = folderGraph(g, toolFolderOf, (f) => f.startsWith(tool) && f.split('/').length > 3)
      expect(folders.size, tool).toBeGreaterThanOrEqual(3)
      expect(cycles(folders), tool).toEqual([])
    }
  })

  it('the tools reach the core only through the entries (index, node, compat, internals), type imports included', () => {
    expect(pastEntries(g)).toEqual([])
    // They do use the core: through the entries.
    const viaEntries = [...g].filter(([from, to]) => isTool(from) && to.some((t) => ENTRIES.includes(t)))
    expect(viaEntries.length).toBeGreaterThan(30)
  })

  it('the core imports no tool', () => {
    expect(coreIntoTools(g)).toEqual([])
  })

  it('finds a tool reaching past the entries, and a folder cycle inside a tool, when there is one (the checks can fail)', () => {
    const bad = new Map([
      ['src/cli/filter/a.ts', ['src/index.ts', 'src/url/url-scan.ts']],
      ['src/playground/p.ts', ['src/errors.ts']],
      ['src/compare/c.ts', ['src/internals.ts', 'src/compare/d.ts']],
      ['src/url/url-scan.ts', []],
    ])
    expect(pastEntries(bad)).toEqual(['src/cli/filter/a.ts imports src/url/url-scan.ts', 'src/playground/p.ts imports src/errors.ts'])
    const loop = new Map([
      ['src/cli/hosts/j.ts', ['src/cli/filter/l.ts']],
      ['src/cli/filter/s.ts', ['src/cli/hosts/j.ts']],
      ['src/cli/filter/l.ts', []],
    ])
    expect(cycles(folderGraph(loop, toolFolderOf))).toEqual([['src/cli/filter', 'src/cli/hosts']])
  })

  it('nothing under src/ imports test/ or bench/', () => {
    for (const [from, to] of g) for (const t of to) expect(t.startsWith('test/') || t.startsWith('bench/'), `${from} imports ${t}`).toBe(false)
  })

  it('finds a cycle when there is one (the check can fail)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']])
  })
})
