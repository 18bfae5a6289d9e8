// The leaderboard's HTML page fits a 1,280 px window: opened in Debian's
// Chromium (playwright-core, never a downloaded browser) with the field's
// eleven implementations, three sets and every category, nothing overflows
// the page and no table is wider than the window.
import { existsSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATEGORIES } from '../../../src/compare/categories.js'
import type { Matrix, MatrixCell } from '../../../src/compare/matrix.js'
import { renderMatrixHtml } from '../../../src/compare/report/matrix-report.js'
import { tempDir } from '../../cli/helpers.js'

const CHROMIUM = '/usr/bin/chromium'

const NAMES = ['robots-automaton', 'robots-parser', 'Protego', 'urllib.robotparser', 'temoto/robotstxt', 'WWW::RobotRules', 'webrobots', 'robots-txt-guard', 'robots-txt-parser', 'robots', 'allow-all']
const NEEDS = ['', 'npm: robots-parser', 'Debian: python3-protego', 'Python 3', 'Go, and a build of github.com/temoto/robotstxt v1.1.2', 'Debian: libwww-robotrules-perl', 'Debian: ruby-webrobots', 'npm: robots-txt-guard, robots-txt-parse', 'npm: robots-txt-parser', 'npm: robots', '']
const SETS = ['unit', 'spec-test:../shared/spec-test', 'corpus']

function cell(set: string, i: number, k: number): MatrixCell {
  const cases = set === 'corpus' ? 100_000 : set === 'unit' ? 145 : 400
  const scores = { lines: 80 + ((i * 7 + k) % 20), verdicts: 85 + ((i * 3 + k) % 15) }
  const counts = { cases, agreed: Math.round(cases * 0.8), verdict: Math.round(cases * 0.1), line: Math.round(cases * 0.05), errors: Math.round(cases * 0.05), rfcAgreed: 0, rfcVerdict: 0, rfcLine: 0 }
  return {
    set,
    totals: { ...counts, agreement: scores.lines, scores, rfcScores: scores, linesChecked: i < 2 ? cases : 0 },
    categories: CATEGORIES.map((c) => ({ id: c.id, cases: 12_345, agreement: 97.5, scores, rfcScores: scores, verdict: 1, line: 1, errors: 0 })),
    timings: { casesPerSecond: 123_456, p50Ms: 0.01, startupMs: 120, ceiling: { cases: 20_000, casesPerSecond: 234_567 } },
  }
}

const MATRIX: Matrix = {
  date: '2026-11-29T00:00:00.000Z',
  tool: 'robots-automaton 0.1.0',
  command:
    'robots-automaton compare --matrix examples/adapters/leaderboard.json --cases unit --cases spec-test:../shared/spec-test --cases corpus --robots-dir ../shared/corpus/robots/anubhavp28-benchmark --urls ../shared/corpus/urls/paired.tsv --urls-field 3 --count 100000 --html board.html',
  score: 'lines',
  semantics: 'reference',
  sets: SETS,
  setDetails: SETS.map((s) => ({ cases: s, options: '--seed 1', description: `${s}: a description of its cases' origin, with a long path ../shared/corpus/robots/anubhavp28-benchmark`, count: 100, digest: '0', casesMs: 1 })),
  setDescriptions: SETS.map((s) => `${s}: a description of its cases' origin, with a long path ../shared/corpus/robots/anubhavp28-benchmark`),
  rows: NAMES.map((name, i) => ({
    name,
    adapter: `--batch node examples/adapters/${name}-batch.mjs`,
    version: i === 3 ? 'Python 3.11.7' : '1.0.2',
    needs: NEEDS[i] || undefined,
    note: 'a note',
    cells: i === 4 ? SETS.map((s) => ({ set: s, skipped: 'not installed (test -x examples/adapters/temoto-robotstxt/temoto-batch failed)' })) : SETS.map((s, k) => cell(s, i, k)),
  })),
  failed: false,
}

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  tmp = tempDir()
})
afterAll(() => tmp?.cleanup())

describe('the leaderboard page (as text)', () => {
  it('shows a line break in a name, version or note as \\x0A, as the text does (regression: "a\\nb" read "a b", another name)', () => {
    const row = { ...MATRIX.rows[0], name: 'a\nb', version: '1.0\t2', note: 'n\no' }
    const page = renderMatrixHtml({ ...MATRIX, rows: [row, ...MATRIX.rows.slice(1)] })
    expect(page).toContain('<td>a\\x0Ab</td>')
    expect(page).toContain('<td>1.0\\x092</td>')
    expect(page).toContain('a\\x0Ab: n\\x0Ao')
    expect(page).not.toMatch(/a\nb|n\no/)
  })
})

describe.skipIf(!existsSync(CHROMIUM))('the leaderboard page in Chromium', () => {
  it('fits a 1,280 px window: no horizontal overflow, every table within it', async () => {
    const file = tmp.path('board.html')
    writeFileSync(file, renderMatrixHtml(MATRIX))
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(pathToFileURL(file).href)
      const m = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        tables: Array.from(document.querySelectorAll('table')).map((t) => ({ id: t.id, right: t.getBoundingClientRect().right, scroll: t.scrollWidth, width: t.clientWidth })),
      }))
      expect(m.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(m.client)
      expect(m.tables.length).toBe(2 + SETS.length)
      for (const t of m.tables) {
        expect(t.right, t.id).toBeLessThanOrEqual(1280)
        expect(t.scroll, t.id).toBeLessThanOrEqual(t.width + 1)
      }
      // The overview: eleven rows, a rank, the needs, and four columns per set.
      expect(await page.locator('#overview tbody tr').count()).toBe(11)
      expect(await page.locator('#overview thead tr').nth(1).locator('th').count()).toBe(4 + 4 * SETS.length)
    } finally {
      await browser.close()
    }
  })
})
