// The HTML report: self-contained and escaped (in process), and opened in a
// real browser (Debian's Chromium through playwright-core): the category table,
// the chart and the disagreements, one expanded.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { esc, renderHtml } from '../../../src/compare/report/html-report.js'
import type { Report } from '../../../src/compare/report/report-model.js'
import { renderTerminal } from '../../../src/compare/report/terminal-report.js'
import { ensureBuilt, run, tempDir } from '../../cli/helpers.js'

const CHROMIUM = '/usr/bin/chromium'
const HOSTILE = '<script>alert("x")</script>&amp;\'"'

let tmp: ReturnType<typeof tempDir>
let html = ''
let report: Report

beforeAll(async () => {
  ensureBuilt()
  tmp = tempDir()
  // Unit vectors plus one case whose URL and body try to inject markup; robots-parser disagrees on it.
  const cases = tmp.path('cases.jsonl')
  writeFileSync(
    cases,
    JSON.stringify({ id: `hostile ${HOSTILE}`, robots: `User-agent: FOO BAR\nDisallow: /${HOSTILE}\n`, agent: 'foo', url: `http://a.com/${HOSTILE}` }) + '\n',
  )
  const page = tmp.path('report.html')
  const json = tmp.path('report.json')
  const r = await run(['compare', '--cases', cases, '--module', 'examples/adapters/robots-parser-module.mjs', '--html', page, '--json', json])
  expect(r.status).toBe(3)
  html = readFileSync(page, 'utf8')
  report = JSON.parse(readFileSync(json, 'utf8')) as Report
  const unitPage = tmp.path('unit.html')
  const u = await run(['compare', '--cases', 'unit', '--module', 'examples/adapters/robots-parser-module.mjs', '--html', unitPage, '--minimise', '3'])
  expect(u.status).toBe(3)
})
afterAll(() => tmp?.cleanup())

describe('HTML report (as text)', () => {
  it('escapes everything taken from the cases', () => {
    expect(esc(HOSTILE)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&#39;&quot;')
    expect(report.disagreements).toHaveLength(1)
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain(esc(`hostile ${HOSTILE}`))
  })

  it('loads nothing from elsewhere: no src, href or url(), and a policy that forbids it', () => {
    expect(html).not.toMatch(/\s(src|href)\s*=|url\(/i)
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`)
    const bare = renderHtml({ ...report, disagreements: [], categories: [] })
    expect(bare).toContain('<p>None.</p>')
  })

  it('shows a tab or line break in an id, agent, source or category escaped, as the text report does (regression: the page showed agent "Foo\\nBar" as "Foo Bar", another agent)', () => {
    const d = report.disagreements[0]
    const page = renderHtml({
      ...report,
      disagreements: [{ ...d, id: 'a\tb', agent: 'Foo\nBar', source: 'x\ny.jsonl:1', categories: ['c\nd'] }],
      categories: [{ ...report.categories[0], id: 'c\nd' }],
    })
    for (const shown of ['<code>a\\x09b</code>', '<code>Foo\\x0ABar</code>', '<code>x\\x0Ay.jsonl:1</code>', '<span class="tag">c\\x0Ad</span>', '>c\\x0Ad</td>', '>c\\x0Ad</text>']) {
      expect(page).toContain(shown)
    }
    // A body keeps its lines.
    expect(page).toContain('User-agent: FOO BAR\nDisallow:')
  })

  it('a run stopped before any answer shows no rate, in the page and the text report (regression: "all cases 0 … 100.00%" under the failure)', () => {
    const t = report.totals
    const none = { ...report, failure: { message: 'stalled' }, categories: [], disagreements: [], totals: { ...t, cases: 0, agreed: 0, verdict: 0, line: 0, errors: 0, agreement: 100, scores: { lines: 100, verdicts: 100 }, rfcScores: { lines: 100, verdicts: 100 } } }
    const page = renderHtml(none)
    expect(page).toMatch(/<tr class="total"><td>all cases<\/td><td>0<\/td>.*<td>–<\/td><td>–<\/td><td>–<\/td><td><\/td><\/tr>/)
    expect(page).toContain('font-size="12">–</text>')
    expect(page).not.toContain('100.00%')
    expect(renderTerminal(none, 5)).toMatch(/^all cases +0 +0 +0 +\S+ +0 +– +– +–$/m)
  })
})

const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.log(`HTML report: ${CHROMIUM} is missing (apt-get install chromium), so the page is not opened in a browser`)

describe.skipIf(!hasChromium)('HTML report in Chromium', () => {
  it('shows the category table, the chart and the disagreements; a disagreement expands', async () => {
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    try {
      const page = await browser.newPage()
      const requests: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      const url = pathToFileURL(tmp.path('unit.html')).href
      await page.goto(url)
      expect(await page.title()).toBe('robots.txt compare: 85.52% agreement')
      expect(await page.locator('#result').innerText()).toContain('85.52% agreement with the reference on verdicts and lines (90.34% on verdicts alone); RFC 9309: 86.90% (91.72%): failed')

      // The table: a row per category (21) and the total, with the counts of the JSON report.
      const rows = page.locator('#categories tbody tr')
      expect(await rows.count()).toBe(22)
      // Columns: category, cases, agree, verdict ≠, line ≠, errors, agreement on verdicts, on verdicts and lines, with RFC 9309, only.
      expect(await rows.nth(0).locator('td').allInnerTexts()).toEqual(['wildcard', '27', '27', '0', '0', '0', '100.00%', '100.00%', '100.00%', ''])
      const uaCase = page.locator('#categories tr', { hasText: 'ua-case' })
      expect(await uaCase.locator('td').allInnerTexts()).toEqual(['ua-case', '10', '0', '5', '5', '0', '50.00%', '0.00%', '0.00%', '0'])
      expect(await page.locator('#categories tr.total td').allInnerTexts()).toEqual(['all cases', '145', '124', '14', '7', '0', '90.34%', '85.52%', '86.90%', ''])
      expect(await page.locator('#explanation').innerText()).toMatch(/^Explained by: ua-product-token \(14\), .*: every disagreement is tagged with one of these$/)
      // The standards: the cases whose answer follows RFC 9309 alone, Google's behaviour beyond it, or differs from the RFC.
      expect(await page.locator('#standards tbody tr').allInnerTexts()).toEqual(['rfc\t119\t99.16%\t99.16%', 'google-specific\t22\t22.73%\t22.73%', 'rfc-differs\t4\t25.00%\t75.00%'])

      // The chart: one bar group per category plus the total.
      expect(await page.locator('#chart svg g').count()).toBe(22)
      expect(await page.locator('#chart svg').isVisible()).toBe(true)

      // The disagreements: closed until clicked.
      const items = page.locator('#disagreements details')
      expect(await items.count()).toBe(21)
      const first = items.nth(0)
      const body = first.locator('pre.robots').last()
      expect(await body.isVisible()).toBe(false)
      await first.locator('summary').click()
      expect(await body.isVisible()).toBe(true)
      const text = await first.innerText()
      expect(text).toMatch(/implementation\s+allowed \(line 0\)/)
      expect(text).toMatch(/reference\s+disallowed by line 2: Disallow: \//)
      expect(text).toMatch(/RFC 9309\s+disallowed by line 2: Disallow: \/ google-specific/)
      expect(text).toMatch(/What the implementation gave\s+raw answer: isAllowed: true; matchingLine: 0/)
      expect(text).toContain('Minimised:')
      expect(text).toContain('user-agent FooBot')

      // The hostile case: shown as text, no script anywhere, nothing fetched.
      await page.goto(pathToFileURL(tmp.path('report.html')).href)
      expect(await page.locator('script').count()).toBe(0)
      await page.locator('#disagreements summary').first().click()
      expect(await page.locator('#disagreements details').first().innerText()).toContain(`Disallow: /${HOSTILE}`)
      expect(requests.every((r) => r.startsWith('file://'))).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await browser.close()
    }
  })

  it('a long URL, agent, id or category wraps: the page stays within a 1,280 px window with every entry open (it was 148,000 px wide)', async () => {
    const long = 'x'.repeat(3000)
    const cases = tmp.path('long.jsonl')
    writeFileSync(cases, JSON.stringify({ id: `id-${long}`, robots: `User-agent: *\nDisallow: /${long}\n`, agent: `Bot${long}`, url: `http://a.com/${long}`, categories: [`c-${long}`] }) + '\n')
    const page = tmp.path('long.html')
    const r = await run(['compare', '--cases', cases, '--batch', 'node examples/adapters/allow-all-batch.mjs', '--html', page, '-q'])
    expect(r.status).toBe(3)
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
    try {
      const p = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await p.goto(pathToFileURL(page).href)
      await p.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)))
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
      expect(await p.locator('#disagreements details').first().textContent()).toContain(`http://a.com/${long.slice(0, 287)}… (2713 more)`)
    } finally {
      await browser.close()
    }
  })
})
