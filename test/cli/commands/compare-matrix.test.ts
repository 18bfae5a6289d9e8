// `compare --matrix ADAPTERS.json`: several implementations on several case
// sets, as a leaderboard in text, Markdown, HTML and JSON lines; an
// implementation that is not installed is named and skipped, one that fails
// is marked (exit 4); the file's errors name the file and the entry. And the
// timings: --repeat N with median and spread, the harness's ceiling beside a
// batch adapter, --cmd's start-up taken off each case. And the leaderboard of
// docs/compare-leaderboard.md is what its printed command gives.
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Matrix } from '../../../src/compare/matrix.js'
import { compareWithJson, parseXml } from '../compare-helpers.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { SHARED, sharedHas } from '../../support/shared-data.js'

const NODE = process.execPath
const FIXTURE = resolve(ROOT, 'test/data/spec-test')
const SPEC_TEST = resolve(SHARED, 'spec-test')
const HAS_SPEC_TEST = sharedHas('spec-test')

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

const ADAPTERS = {
  sets: ['unit'],
  adapters: [
    { name: 'robots-automaton', batch: `${NODE} examples/adapters/robots-automaton-batch.mjs`, version: `${NODE} -p "require('./package.json').version"` },
    { name: 'robots-parser', module: 'examples/adapters/robots-parser-module.mjs', version: `${NODE} -p "require('robots-parser/package.json').version"`, note: 'reports deciding lines', needs: 'npm robots-parser' },
    { name: 'missing', batch: 'missing-tool', available: 'command -v missing-tool-x', version: 'echo 9' },
    { name: 'crashes', batch: `${NODE} -e "process.stdin.once('data', () => process.exit(3))"`, timeout: 5000 },
  ],
}

describe('--matrix', () => {
  it('runs every implementation on every set: text, Markdown, HTML and JSON lines; a failed one gives exit 4', async () => {
    const file = tmp.path('adapters.json')
    writeFileSync(file, JSON.stringify(ADAPTERS))
    const md = tmp.path('board.md')
    const html = tmp.path('board.html')
    const json = tmp.path('board.json')
    const args = ['compare', '--matrix', file, '--cases', 'unit', '--cases', `spec-test:${FIXTURE}`, '--markdown', md, '--html', html, '--json', json, '-q']
    const r = await run(args)
    expect(r.status).toBe(4)
    const m = JSON.parse(readFileSync(json, 'utf8')) as Matrix
    expect(m.sets).toEqual(['unit', `spec-test:${FIXTURE}`])
    expect(m.setDetails.map((d) => [d.cases, d.count, d.options])).toEqual([['unit', 145, '--seed 1'], [`spec-test:${FIXTURE}`, 7, '--seed 1']])
    expect(m.command).toBe(['robots-automaton', ...args.slice(0, -1).concat('-q')].join(' '))
    expect(m.rows.map((row) => [row.name, row.version])).toEqual([
      ['robots-automaton', '0.1.0'],
      ['robots-parser', '3.0.1'],
      ['missing', ''],
      ['crashes', ''],
    ])
    const [self, rp, missing, crashes] = m.rows
    expect(self.cells.map((c) => [c.totals!.cases, c.totals!.scores.lines])).toEqual([[145, 100], [7, 100]])
    // RFC 9309 answers otherwise on 4 unit cases: the reference's own answers agree with it on the rest.
    expect(self.cells[0].totals!.rfcScores.verdicts).toBeCloseTo((100 * 141) / 145, 6)
    expect(self.cells[0].standards!.map((x) => [x.id, x.cases])).toEqual([['rfc', 119], ['google-specific', 22], ['rfc-differs', 4]])
    expect(rp.cells[0].totals).toMatchObject({ cases: 145, agreed: 124, linesChecked: 145 })
    expect(rp.cells[0].categories!.find((c) => c.id === 'ua-case')).toMatchObject({ cases: 10, agreement: 0, scores: { verdicts: 50 } })
    expect(missing.cells.map((c) => c.skipped)).toEqual(Array(2).fill('not installed (command -v missing-tool-x failed)'))
    expect(crashes.cells[0].failure).toMatch(/--batch: the adapter exited with status 3/)
    expect(self.cells[0].timings!.ceiling!.casesPerSecond).toBeGreaterThan(0)

    const text = r.stdout.toString()
    // Ranked on verdicts; per set: verdicts, lines (the empty-rule line convention apart), errors, RFC 9309.
    expect(text).toContain('sets, 4 columns each: unit (145) · spec-test (7)')
    expect(text).toMatch(/^#  implementation +version +needs +verdicts +lines +errors +RFC 9309 +verdicts +lines +errors +RFC 9309$/m)
    expect(text).toMatch(/^1  robots-automaton +0\.1\.0 +100\.0 +100\.0 +0\.0 +97\.2 +100\.0 +100\.0 +0\.0 +85\.7$/m)
    expect(text).toMatch(/^2  robots-parser +3\.0\.1 +npm robots-parser +90\.3 +86\.2 +0\.0 +91\.7 +[\d.]+ +[\d.]+ +0\.0 +[\d.]+$/m)
    expect(text).toMatch(/^–  missing +– +– +– +– +– +– +– +– +–$/m)
    expect(text).toMatch(/^–  crashes +– +✗ +– +– +– +✗ +– +– +–$/m)
    expect(text).toMatch(/^robots-automaton +[\d.]+ m?s +[\d,]+ \([\d,]+\) +[\d,]+ \([\d,]+\)$/m)
    expect(text).toMatch(/^robots-parser +– +[\d,]+ +[\d,]+$/m)
    expect(text).toMatch(/^crashes +– +– +–$/m)
    expect(text).toContain('note: missing: not installed (command -v missing-tool-x failed)')
    // Per set, agreement on verdicts per category.
    expect(text).toMatch(/^ua-case +10 +100\.0 +50\.0 +– +–$/m)
    expect(text).toMatch(/^rfc-differs +4 +100\.0 +25\.0 +– +–$/m)

    const markdown = readFileSync(md, 'utf8')
    expect(markdown).toContain(`Produced ${m.date.slice(0, 10)} by robots-automaton 0.1.0 with:\n\n\`\`\`sh\n${m.command}\n\`\`\``)
    expect(markdown).toContain('| # | implementation | version | needs | unit (145): verdicts | lines | errors | RFC 9309 | spec-test (7): verdicts | lines | errors | RFC 9309 |')
    expect(markdown).toContain('| implementation | start-up | unit: cases/s (ceiling) | spec-test: cases/s (ceiling) |')
    expect(markdown).toMatch(/^\| 2 \| robots-parser \| 3\.0\.1 \| npm robots-parser \| 90\.3 \| 86\.2 \| 0\.0 \| 91\.7 \|/m)

    const page = readFileSync(html, 'utf8')
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
    expect(page).not.toMatch(/\s(src|href)\s*=|<script/i)
    const overview = parseXml(page.slice(page.indexOf('<table id="overview">'), page.indexOf('</table>') + 8))
    expect(overview.children[1].children.map((tr) => tr.children[1].text)).toEqual(['robots-automaton', 'robots-parser', 'missing', 'crashes'])

    const lines = (await run(['compare', '--matrix', file, '--cases', 'unit', '--format', 'jsonl', '-q'])).stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.category === null).map((l) => [l.implementation, l.cases ?? l.skipped])).toEqual([
      ['robots-automaton', 145], ['robots-parser', 145], ['missing', 'not installed (command -v missing-tool-x failed)'], ['crashes', 0],
    ])
    expect(lines.find((l) => l.implementation === 'robots-parser' && l.category === 'ua-case')).toMatchObject({ cases: 10, agreement: { lines: 0, verdicts: 50 }, rfcAgreement: { lines: 0, verdicts: 50 } })
    expect(lines.find((l) => l.implementation === 'robots-parser' && l.category === null)).toMatchObject({ cases: 145, errors: 0, linesChecked: 145, rfcAgreement: { verdicts: expect.closeTo(91.72, 2) } })
  })

  it.each([
    [{ adapters: [] }, /'adapters' must be a non-empty array/],
    [{ adapters: [{ name: 'x' }] }, /adapters\[0\] \(x\) names no adapter: give one of cmd, batch, module/],
    [{ adapters: [{ name: 'x', batch: 'y', windw: 3 }] }, /adapters\[0\]: unknown field 'windw'/],
    [{ adapters: [{ name: 'x', batch: 'y', window: 0 }] }, /adapter 'x': option 'window' must be a whole number from 1/],
    [{ adapters: [{ name: 'x', batch: 'y', 'allowed-exit': 3 }] }, /adapter 'x': option 'allowed-exit' goes with 'cmd'/],
    [{ adapters: [{ name: 'x', batch: 'y' }, { name: 'x', batch: 'z' }] }, /adapters\[1\]: the name 'x' is used twice/],
    [{ adapters: [{ name: 'x', batch: 'y' }], extra: 1 }, /unknown field 'extra'/],
    [{ adapters: [{ name: 'x', batch: 'y' }] }, /names no case sets: give --cases SET/],
  ])('a wrong matrix file is an error naming it (%j)', async (content, message) => {
    const file = tmp.path('bad.json')
    writeFileSync(file, JSON.stringify(content))
    const r = await run(['compare', '--matrix', file, '-q'])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(message)
  })

  it('Markdown: a name, version or note holding markup or backticks is shown as text, and the command cannot close its fence', async () => {
    const hostile = '<img src=x onerror=alert(1)>|a&b'
    const file = tmp.path('hostile-md.json')
    writeFileSync(
      file,
      JSON.stringify({
        sets: ['unit'],
        adapters: [{ name: `n${hostile}`, batch: `${NODE} examples/adapters/allow-all-batch.mjs`, version: 'echo "<b>1</b>"', note: `note ${hostile}` }],
      }),
    )
    const md = tmp.path('hostile ```x```.md')
    const r = await run(['compare', '--matrix', file, '--markdown', md, '--category', 'wildcard', '-q'])
    expect(r.status).toBe(0)
    const text = readFileSync(md, 'utf8')
    expect(text).not.toMatch(/<img|<b>/)
    expect(text).toContain('| 1 | n&lt;img src=x onerror=alert(1)&gt;\\|a&amp;b | &lt;b&gt;1&lt;/b&gt; |')
    expect(text).toContain('- n&lt;img src=x onerror=alert(1)&gt;\\|a&amp;b: note &lt;img src=x onerror=alert(1)&gt;\\|a&amp;b')
    // The command holds a run of three backticks: the fence is four.
    expect(text).toMatch(/\n````sh\nrobots-automaton compare --matrix .*hostile ```x```\.md.*\n````\n/)
  })

  it('takes only the options a matrix uses', async () => {
    const r = await run(['compare', '--matrix', 'x.json', '--batch', 'y'])
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/option '--batch' does not go with --matrix/)
  })
})

describe('fair timing', () => {
  it('--repeat N: each pass timed, the median and spread reported, the cases counted once', async () => {
    const r = await compareWithJson(['--cases', 'unit', '--batch', `${NODE} examples/adapters/robots-automaton-batch.mjs`, '--repeat', '3'], tmp.path('rep.json'))
    expect(r.status).toBe(0)
    const rep = r.report.timings.repeats!
    expect(rep.wallMs).toHaveLength(3)
    expect(rep.casesPerSecond.min).toBeLessThanOrEqual(rep.casesPerSecond.median)
    expect(rep.casesPerSecond.median).toBeLessThanOrEqual(rep.casesPerSecond.max)
    expect(rep.unstable).toBe(0)
    expect(r.report.timings.casesPerSecond).toBe(rep.casesPerSecond.median)
    expect(r.report.totals.cases).toBe(145)
    expect(r.report.cases).toHaveLength(145)
    expect(r.stdout).toMatch(/ {2}3 passes: [\d,]+ cases\/s median, from [\d,]+ to [\d,]+/)
  })

  it('--batch: the harness ceiling (a null adapter through the same protocol) beside the rate', async () => {
    const r = await compareWithJson(['--cases', 'corpus', '--count', '3000', '--batch', `${NODE} examples/adapters/robots-automaton-batch.mjs`], tmp.path('ceil.json'))
    expect(r.report.timings.ceiling).toEqual({ cases: 3000, casesPerSecond: expect.any(Number) })
    expect(r.report.timings.ceiling!.casesPerSecond).toBeGreaterThan(0)
    expect(r.stdout).toMatch(/ {2}harness ceiling: [\d,]+ cases\/s \(a null adapter through the same protocol, 3,000 cases\)/)
  })

  it('--cmd: the start-up, measured alone, is taken off each case', async () => {
    const cmd = `${NODE} ${CLI} check %robots% --agent=%user-agent% --exit-code -q -- %url%`
    const r = await compareWithJson(['--cases', 'unit', '--count', '6', '--cmd', cmd, '--disallowed-exit', '3'], tmp.path('cmd.json'))
    const t = r.report.timings
    expect(t.startupSubtracted).toBe(true)
    expect(t.startupMs).toBeGreaterThan(0)
    expect(t.caseTime).toBe('wall time of one process less the start-up measured alone')
    expect(r.stdout).toMatch(/start-up, measured alone on an empty robots\.txt: [\d.]+ m?s \(taken off each case\)/)
  })
})

/** A leaderboard's overview table in Markdown: implementation → column → cell, a set's columns keyed "set: verdicts", "set: lines", "set: errors", "set: RFC 9309". */
function overviewOf(md: string): Map<string, Map<string, string>> {
  const lines = md.split('\n').filter((l) => l.startsWith('| '))
  const at = lines.findIndex((l) => l.startsWith('| # | implementation'))
  let set = ''
  const keys = lines[at].slice(2, -2).split(' | ').map((h) => {
    const m = /^(\S+) \([\d,]+\): (.*)$/.exec(h)
    if (m) set = m[1]
    return m ? `${m[1]}: ${m[2]}` : set ? `${set}: ${h}` : h
  })
  const rows = lines.slice(at + 2).filter((l) => /^\| (?:\d+|–) \| /.test(l)).map((l) => l.slice(2, -2).split(' | '))
  return new Map(rows.map((cells) => [cells[1], new Map(keys.map((k, i) => [k, cells[i]]))]))
}

describe('the leaderboard of docs/compare-leaderboard.md', () => {
  it('is one command over unit, spec-test and the corpus, and reproduced by it (the unit and spec-test columns, for the implementations installed here)', async () => {
    const md = readFileSync(resolve(ROOT, 'docs/compare-leaderboard.md'), 'utf8')
    const command = /```sh\n(robots-automaton compare --matrix [^\n]+)\n```/.exec(md)![1]
    const table = overviewOf(md)
    const words = command.split(' ')
    expect(words.filter((_, i) => words[i - 1] === '--cases')).toEqual(['unit', 'spec-test:../shared/spec-test', 'corpus'])
    for (const option of ['--robots-dir', '--urls', '--urls-field', '--count']) expect(words).toContain(option)
    for (const set of ['unit', 'spec-test', 'corpus']) for (const column of ['verdicts', 'lines', 'errors', 'RFC 9309']) expect(table.get('robots-parser')!.has(`${set}: ${column}`), `${set}: ${column}`).toBe(true)
    const file = words[words.indexOf('--matrix') + 1]
    // The corpus column (100,000 cases) takes minutes: the seeded generation makes it as reproducible; it is left to the command.
    const sets = ['unit', ...(HAS_SPEC_TEST ? [`spec-test:${SPEC_TEST}`] : [])]
    const out = tmp.path('docs-board.md')
    const r = await run(['compare', '--matrix', file, ...sets.flatMap((s) => ['--cases', s]), '--markdown', out, '-q'])
    expect([0, 4]).toContain(r.status)
    let compared = 0
    for (const [name, row] of overviewOf(readFileSync(out, 'utf8'))) {
      const documented = table.get(name)
      expect(documented, name).toBeDefined()
      for (const set of sets.map((s) => (s.startsWith('spec-test:') ? 'spec-test' : s))) {
        if (documented!.get(`${set}: verdicts`) === '–' || row.get(`${set}: verdicts`) === '–') continue // not installed here or there
        for (const column of ['verdicts', 'lines', 'errors', 'RFC 9309']) expect(row.get(`${set}: ${column}`), `${name}, ${set}: ${column}`).toBe(documented!.get(`${set}: ${column}`))
        compared++
      }
    }
    expect(compared).toBeGreaterThanOrEqual(8)
  }, 600_000)
})
