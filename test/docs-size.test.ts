/**
 * Prose of the right size: every hand-written manual page of docs/ (not
 * docs/api/, TypeDoc's gitignored output) is at most about 20 KB, so that a
 * page is read rather than searched; a longer subject gets pages of its own
 * (the command line has a page per command). bench/RESULTS.md keeps the
 * current figures on one screen and its history under bench/history/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/build.js'

/** About 20 KB: the most a manual page may hold. */
const PAGE_LIMIT = 20 * 1024

const DOCS = resolve(ROOT, 'docs')
const pages = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md') && statSync(join(DOCS, name)).isFile())
  .sort()

describe('docs: pages of the right size', () => {
  it('finds the manual pages', () => {
    expect(pages).toContain('cli.md')
    expect(pages).toContain('api.md')
  })

  for (const name of pages) {
    it(`docs/${name} is at most ${PAGE_LIMIT} bytes`, () => {
      expect(Buffer.byteLength(readFileSync(join(DOCS, name)))).toBeLessThanOrEqual(PAGE_LIMIT)
    })
  }
})
