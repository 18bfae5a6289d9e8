/**
 * The import graph of src/ (static imports and re-exports, `import type`
 * included): no file imports itself through others, no folder of src/
 * imports itself through other folders (a folder's files may import each
 * other), and nothing under src/ imports test/ or bench/.
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
  const re = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]/gm
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] ?? m[2])
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
    const folders = new Map<string, string[]>()
    for (const [from, to] of g) {
      const f = folderOf(from)
      const list = folders.get(f) ?? []
      for (const t of to) if (folderOf(t) !== f && !list.includes(folderOf(t))) list.push(folderOf(t))
      folders.set(f, list)
    }
    expect(cycles(folders)).toEqual([])
  })

  it('nothing under src/ imports test/ or bench/', () => {
    for (const [from, to] of g) for (const t of to) expect(t.startsWith('test/') || t.startsWith('bench/'), `${from} imports ${t}`).toBe(false)
  })

  it('finds a cycle when there is one (the check can fail)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']])
  })
})
