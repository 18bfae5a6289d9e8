/**
 * docs/api.md's "At a glance" table names every value the core entry
 * exports (built, as a user imports it), and no name it does not export:
 * the page a user reads first finds each export's page.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildIfStale, ROOT } from './support/build.js'

let exported: string[] = []
beforeAll(async () => {
  buildIfStale()
  exported = Object.keys((await import(pathToFileURL(join(ROOT, 'dist/index.js')).href)) as object)
})

/** The backticked names of the table's rows (members such as `store.lookupScan` and methods in parentheses aside). */
function tableNames(): Set<string> {
  const api = readFileSync(join(ROOT, 'docs/api.md'), 'utf8')
  const section = /\n## At a glance\n([\s\S]*?)\n\n\*\*/.exec(api)![1]!
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| for ') && !l.startsWith('| ---'))
  const names = new Set<string>()
  for (const row of rows) {
    const cell = row.split(' | ')[1]!.replace(/\([^)]*\)/g, '')
    for (const m of cell.matchAll(/`([A-Za-z_][\w.]*)`/g)) names.add(m[1]!)
  }
  return names
}

describe("docs/api.md's At a glance", () => {
  it('regression: BundleWriter and canonicalHost, exported by the core entry, were in no row; every value export is named', () => {
    const names = tableNames()
    expect(exported.length).toBeGreaterThan(20)
    expect(exported.filter((n) => !names.has(n))).toEqual([])
  })

  it('names no value the entry does not export (a capitalised or UPPER_CASE name is a class, a constant or a type)', async () => {
    const types = readFileSync(join(ROOT, 'dist/index.d.ts'), 'utf8')
    const unknown = [...tableNames()].filter((n) => !n.includes('.') && !exported.includes(n) && !new RegExp(`\\b${n}\\b`).test(types))
    expect(unknown).toEqual([])
  })
})
