// `compare`'s outputs and what survives a failure: the JSON report lists every
// case, --csv every case as a row, --junit suites per category and per
// spec-test file, --format jsonl; an adapter that exits, stalls or is
// interrupted leaves readable JSON, JUnit, HTML and CSV of the cases done,
// the failure recorded and exit 4 (130 or 143 when interrupted); --diff compares
// two runs case by case.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../src/compare/report/report-model.js'
import { byCategory, compareWithJson, parseCsv, parseXml, type XmlElement } from '../compare-helpers.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'

const NODE = process.execPath
const SELF_BATCH = `${NODE} examples/adapters/robots-automaton-batch.mjs`
const RP_MODULE = 'examples/adapters/robots-parser-module.mjs'
const FIXTURE = resolve(ROOT, 'test/data/spec-test')

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

/** A batch adapter script in the temporary folder: this library's answers, and `extra` run before each answer (`n`: the request's number, 1 for the start-up probe). */
function adapter(name: string, extra: string): string {
  const file = tmp.path(`${name}.mjs`)
  writeFileSync(
    file,
    `import { createInterface } from 'node:readline'
import { writeFileSync } from 'node:fs'
import { parseRobots } from ${JSON.stringify(resolve(ROOT, 'dist/index.js'))}
import { readFileSync } from 'node:fs'
let n = 0
createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line)
  n++
  ${extra}
  const r = parseRobots(new Uint8Array(readFileSync(req.robots_path))).agent(req.agent).explain(req.url)
  process.stdout.write(JSON.stringify({ id: req.id, allowed: r.allowed, line: r.rule?.line ?? 0 }) + '\\n')
})
`,
  )
  return `${NODE} ${file}`
}

/** The test cases of a JUnit file, by suite name. */
function suites(root: XmlElement): Map<string, XmlElement[]> {
  expect(root.name).toBe('testsuites')
  return new Map(root.children.map((s) => [s.attributes.name, s.children.filter((c) => c.name === 'testcase')]))
}

describe('every case, as the run goes', () => {
  it('--json lists every case; --csv has a row per case; --junit a test case per case (categories as properties), the counts adding up', async () => {
    const csv = tmp.path('unit.csv')
    const junit = tmp.path('unit.xml')
    const r = await compareWithJson(['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0', '--csv', csv, '--junit', junit], tmp.path('unit.json'))
    expect(r.status).toBe(3)
    const cases = r.report.cases
    expect(cases).toHaveLength(145)
    expect(cases.filter((c) => c.outcome !== 'agree')).toHaveLength(21)
    const missing = cases.find((c) => c.id === 'unit:ID_LineSyntax_Line#3')!
    expect(missing).toEqual({
      id: 'unit:ID_LineSyntax_Line#3', key: expect.stringMatching(/^[0-9a-f]{16}$/), outcome: 'verdict', rfcOutcome: 'verdict', standard: 'google-specific',
      categories: ['missing-colon', 'google-specific'], answer: { allowed: true, line: 0 }, evidence: { raw: 'isAllowed: true; matchingLine: 0' },
      expected: { allowed: false, line: 2 }, rfc: { allowed: false, line: 2 },
    })
    // Agreeing cases carry no evidence.
    expect(cases.filter((c) => c.outcome === 'agree').every((c) => c.evidence === undefined)).toBe(true)

    const rows = parseCsv(readFileSync(csv, 'utf8'))
    expect(rows[0]).toEqual([
      'id', 'key', 'standard', 'categories', 'agent', 'url', 'expected_allowed', 'expected_line', 'rfc_allowed', 'rfc_line',
      'allowed', 'line', 'error', 'outcome', 'rfc_outcome', 'verdict_agrees', 'line_agrees', 'ms', 'raw', 'exit_status', 'stdout', 'stderr',
    ])
    expect(rows).toHaveLength(146)
    expect(rows.slice(1).map((row) => [row[0], row[1], row[13], row[14]])).toEqual(cases.map((c) => [c.id, c.key, c.outcome, c.rfcOutcome]))
    const row = rows.find((x) => x[0] === 'unit:ID_LineSyntax_Line#3')!
    expect([...row.slice(2, 17), ...row.slice(18)]).toEqual([
      'google-specific', 'missing-colon google-specific', 'FooBot', 'http://foo.bar/x/y', 'false', '2', 'false', '2', 'true', '0', '', 'verdict', 'verdict', 'false', 'false',
      'isAllowed: true; matchingLine: 0', '', '', '',
    ])

    const root = parseXml(readFileSync(junit, 'utf8'))
    const bySuite = suites(root)
    // Each case once: one suite for the set (no files), tests = cases.
    expect([...bySuite.keys()]).toEqual(['unit'])
    expect(root.attributes).toMatchObject({ tests: '145', failures: String(r.report.totals.verdict + r.report.totals.line), errors: '0' })
    const tests = bySuite.get('unit')!
    expect(tests.map((t) => t.attributes.name)).toEqual(cases.map((c) => c.id))
    const t = tests.find((x) => x.attributes.name === 'unit:ID_LineSyntax_Line#3')!
    const props = t.children.find((x) => x.name === 'properties')!.children.map((p) => [p.attributes.name, p.attributes.value])
    expect(props).toEqual([['category', 'missing-colon'], ['category', 'google-specific'], ['standard', 'google-specific'], ['key', missing.key]])
    const failure = t.children.find((x) => x.name === 'failure')!
    expect(failure.attributes).toEqual({ type: 'verdict', message: 'verdict differs: implementation allowed (line 0); reference disallowed by line 2: Disallow: /' })
    expect(failure.text).toContain('url: http://foo.bar/x/y')
    expect(t.children.find((x) => x.name === 'system-out')!.text).toBe('answer: isAllowed: true; matchingLine: 0')
  })

  it('--junit groups spec-test cases by file too; a failing case shows the additional_explanation', async () => {
    const junit = tmp.path('spec.xml')
    // Disallowed everything: the first expectation (DISALLOWED) agrees, the ALLOWED ones fail.
    const r = await compareWithJson(['--cases', `spec-test:${FIXTURE}/fixture.textproto`, '--batch', `${NODE} -e "${DENY_ALL}"`, '--junit', junit, '--minimise', '0', '--show', '7'], tmp.path('spec.json'))
    expect(r.report.files).toEqual([expect.objectContaining({ file: 'fixture.textproto', cases: 7, agreed: 4 })])
    expect(r.stdout).toContain('Files: 0 of 1 pass every case')
    const bySuite = suites(parseXml(readFileSync(junit, 'utf8')))
    expect([...bySuite.keys()]).toEqual(['file fixture.textproto'])
    expect(bySuite.get('file fixture.textproto')).toHaveLength(7)
    expect(bySuite.get('file fixture.textproto')!.map((t) => t.attributes.classname)).toEqual(Array(7).fill('file fixture.textproto'))
    // The set's explanation is shown on a disagreement that has one.
    const allow = await compareWithJson(['--cases', `spec-test:${FIXTURE}`, '--batch', `${NODE} -e "${ALLOW_ALL}"`, '--minimise', '0', '--show', '7'], tmp.path('spec-allow.json'))
    const first = allow.report.disagreements.find((d) => d.id === 'spec-test:fixture.textproto#1.1')!
    expect(first.explanation).toBe('A rule applies to the paths that start with its value.')
    expect(first.source).toBe('fixture.textproto:10')
    expect(allow.stdout).toContain("    why (the set's explanation): A rule applies to the paths that start with its value.")
  })

  it('--junit keeps tabs, line breaks and CRs of ids and messages (an XML parser read them as spaces and line feeds); an adapter that allows everything is said to (the report did not say)', async () => {
    const cases = tmp.path('spaces.jsonl')
    const ids = ['tab\there', 'two\nlines', 'cr\r\nlf', 'lone\rcr']
    writeFileSync(cases, ids.map((id) => JSON.stringify({ id, robots: 'User-agent: *\nDisallow: /a\tb\n', agent: 'FooBot', url: 'https://a.com/a\tb' })).join('\n') + '\n')
    const junit = tmp.path('spaces.xml')
    const r = await run(['compare', '--cases', cases, '--batch', `${NODE} -e "${ALLOW_ALL}"`, '--junit', junit, '--minimise', '0', '-q'])
    expect(r.status).toBe(3)
    const tests = [...suites(parseXml(readFileSync(junit, 'utf8'))).values()].flat()
    expect(tests.map((t) => t.attributes.name)).toEqual(ids)
    expect(tests[0].children.find((c) => c.name === 'failure')!.attributes.message).toContain('Disallow: /a\tb')
    expect(r.stdout.toString()).toContain('\n(the implementation answered allowed to every case)\n')
  })

  it('--format jsonl prints a line per category and one for all cases', async () => {
    const r = await run(['compare', '--cases', 'unit', '--module', RP_MODULE, '--minimise', '0', '--format', 'jsonl'])
    const lines = r.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.at(-1)).toMatchObject({ category: null, cases: 145, agreed: 124, score: 'lines', passed: false, agreement: { lines: expect.closeTo(85.52, 2) } })
    expect(lines.find((l) => l.category === 'ua-case')).toMatchObject({ cases: 10, verdict: 5, line: 5, agreement: { lines: 0, verdicts: 50 } })
  })
})

const ALLOW_ALL = "require('readline').createInterface({input: process.stdin}).on('line', (l) => console.log(JSON.stringify({id: JSON.parse(l).id, allowed: true})))"
const DENY_ALL = "require('readline').createInterface({input: process.stdin}).on('line', (l) => console.log(JSON.stringify({id: JSON.parse(l).id, allowed: false})))"

describe('a failed run leaves its results', () => {
  it('an adapter that exits after 50 answers: readable JSON, JUnit, HTML and CSV of those 50, the failure recorded, exit 4', async () => {
    const out = { json: tmp.path('f.json'), junit: tmp.path('f.xml'), html: tmp.path('f.html'), csv: tmp.path('f.csv') }
    const batch = adapter('dies', `if (n === 52) { console.error('adapter: giving up'); process.exit(9) }`)
    const r = await compareWithJson(['--cases', 'corpus', '--count', '400', '--batch', batch, '--window', '1', '--junit', out.junit, '--html', out.html, '--csv', out.csv], out.json)
    expect(r.status).toBe(4)
    const report = r.report
    expect(report.complete).toBe(false)
    expect(report.passed).toBe(false)
    expect(report.failure!.message).toMatch(/^--batch: the adapter exited with status 9 after 50 answers, with 1 request unanswered; the oldest unanswered: case corpus:\S+ \(agent .*, URL .*, robots\.txt .*corpus\/robots\/\S+\); its stderr ended with: adapter: giving up$/)
    expect(report.failure!.stderr).toBe('adapter: giving up\n')
    expect(report.totals).toMatchObject({ cases: 50, agreed: 50 })
    expect(report.cases).toHaveLength(50)
    expect(parseCsv(readFileSync(out.csv, 'utf8'))).toHaveLength(51)
    const root = parseXml(readFileSync(out.junit, 'utf8'))
    const run0 = root.children[0]
    expect(run0.attributes.name).toBe('compare')
    expect(run0.children.find((c) => c.name === 'testcase')!.children[0]).toMatchObject({ name: 'error', attributes: { type: 'adapter', message: report.failure!.message } })
    const html = readFileSync(out.html, 'utf8')
    expect(html).toContain('<p id="failure" class="fail"><strong>The run stopped:</strong> --batch: the adapter exited with status 9 after 50 answers')
    expect(html).toContain('The counts below are those of the 50 cases done.')
    expect(r.stderr).toMatch(/the --json, --junit, --html, --csv outputs hold the 50 cases done|the --json, --html, --junit, --csv outputs hold the 50 cases done/)
    expect(r.stdout).toContain('Result: the run stopped after 50 cases')
  })

  it('a stall: no answer at all for --timeout ms stops the run naming the case, its agent, URL and robots.txt; exit 4', async () => {
    const batch = adapter('stalls', `if (n > 21) return`)
    const r = await compareWithJson(['--cases', 'corpus', '--count', '300', '--batch', batch, '--timeout', '3000'], tmp.path('stall.json'))
    expect(r.status).toBe(4)
    expect(r.report.totals.cases).toBe(20)
    expect(r.report.failure!.message).toMatch(
      /^--batch: no answer at all for \d+ ms \(--timeout 3000\) after 20 answers, \d+ requests in flight; the oldest: case corpus:(\S+)#[0-9a-f]{10}(?:~\d+)? \(agent "[^"]*", URL "[^"]*", robots\.txt \S+\/corpus\/robots\/\S+\)$/,
    )
    expect(r.stderr).toContain(r.report.failure!.message)
  })

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('an interrupt (%s) stops the run: the reports hold the cases done, exit %i', async (signal, exit) => {
    const marker = tmp.path(`marker-${signal}`)
    // Answers 30 cases, then marks the moment and waits (a hang the stall timeout would not see for 60 s).
    const batch = adapter(`slow-${signal}`, `if (n === 32) writeFileSync(${JSON.stringify(marker)}, 'x'); if (n > 31) return`)
    const json = tmp.path(`int-${signal}.json`)
    const child = spawn(NODE, [CLI, 'compare', '--cases', 'corpus', '--count', '300', '--batch', batch, '--timeout', '60000', '--json', json], { cwd: ROOT, stdio: 'ignore' })
    const status = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)))
    for (let i = 0; i < 600 && !existsSync(marker); i++) await new Promise((ok) => setTimeout(ok, 50))
    expect(existsSync(marker)).toBe(true)
    child.kill(signal)
    expect(await status).toBe(exit)
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report & { cases: unknown[] }
    expect(report.failure!.message).toBe(`interrupted by ${signal}`)
    expect(report.cases).toHaveLength(30)
  })

  it('--matrix: an interrupt stops it at once, even in an available command, with the signal\'s status (regression: SIGTERM waited up to 60 s for the command, then exited 0 as a matrix that ran through)', async () => {
    const marker = tmp.path('marker-matrix')
    const file = tmp.path('interrupted-matrix.json')
    writeFileSync(file, JSON.stringify({ sets: ['unit'], adapters: [{ name: 'x', batch: SELF_BATCH, available: `touch ${marker}; exec sleep 300` }] }))
    const json = tmp.path('interrupted-matrix.out.json')
    const child = spawn(NODE, [CLI, 'compare', '--matrix', file, '-q', '--json', json], { cwd: ROOT, stdio: 'ignore' })
    const status = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)))
    for (let i = 0; i < 600 && !existsSync(marker); i++) await new Promise((ok) => setTimeout(ok, 50))
    child.kill('SIGTERM')
    expect(await status).toBe(143)
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ interrupted: 'interrupted by SIGTERM' })
  }, 30_000)

  it('an adapter that cannot start: the reports say so, with no case, exit 4; no 100 % agreement claimed of no case (it read "stopped after 0 cases (100.00% agreement")', async () => {
    const html = tmp.path('nostart.html')
    const r = await compareWithJson(['--cases', 'unit', '--batch', '/nonexistent/adapter-x', '--html', html], tmp.path('nostart.json'))
    expect(r.status).toBe(4)
    expect(r.stdout).toContain('Result: the run stopped before any case was answered: see above')
    expect(readFileSync(html, 'utf8')).toContain('<title>robots.txt compare: no case answered (stopped)</title>')
    expect(r.report).toMatchObject({ complete: false, totals: { cases: 0 }, cases: [] })
    expect(r.report.failure!.message).toMatch(/exited with status 127.*not found/)
  })
})

describe('--diff A.json B.json', () => {
  it('compares two runs case by case: fixed, broken, per category; exit 3 when a case broke', async () => {
    const a = tmp.path('a.json')
    const b = tmp.path('b.json')
    await compareWithJson(['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0'], a)
    await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH], b)
    const fixed = await run(['compare', '--diff', a, b])
    expect(fixed.status).toBe(0)
    const text = fixed.stdout.toString()
    expect(text).toContain('cases: 124 unchanged, 21 fixed, 0 broken, 0 disagree otherwise, 0 only in A, 0 only in B')
    expect(text).toMatch(/ua-case\s+0\.00% → +100\.00%/)
    expect(text).toContain('fixed: unit:ID_LineSyntax_Line#3  [missing-colon, google-specific]')
    const broken = await run(['compare', '--diff', b, a, '--format', 'jsonl'])
    expect(broken.status).toBe(3)
    const lines = broken.stdout.toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { change: string; id: string })
    expect(lines).toHaveLength(21)
    expect(new Set(lines.map((l) => l.change))).toEqual(new Set(['broken']))
    // Verdicts alone: robots-parser's 7 line differences are no disagreement.
    const verdicts = await run(['compare', '--diff', b, a, '--score', 'verdicts', '--show', '0'])
    expect(verdicts.stdout.toString()).toContain('cases: 131 unchanged, 0 fixed, 14 broken')
  })

  it('a report without cases, or not a report, is an error; --diff takes two files and few options', async () => {
    const old = tmp.path('old.json')
    writeFileSync(old, JSON.stringify({ format: 1, totals: {} }))
    const r = await run(['compare', '--diff', old, old])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/old\.json: the report lists no cases \(format 1; reports of format 2 and later do/)
    expect((await run(['compare', '--diff', old])).stderr).toMatch(/--diff compares two JSON reports: --diff A\.json B\.json/)
    expect((await run(['compare', '--diff', old, old, '--cases', 'unit'])).stderr).toMatch(/option '--cases' does not go with --diff/)
  })

  it('a report whose cases are not of compare --json (null, categories not a list, no answer) is named with the case, not a TypeError (it read "Cannot read properties of null")', async () => {
    const good = { id: 'a', key: 'k', outcome: 'agree', categories: [], answer: { allowed: true }, expected: { allowed: true, line: 0 } }
    const bad: [unknown, number][] = [
      [null, 1],
      [{ ...good, categories: 5 }, 2],
      [{ ...good, answer: null }, 2],
      [{ ...good, expected: {} }, 2],
      [{ ...good, outcome: 'maybe' }, 2],
      [{ ...good, rfcOutcome: 'agree' }, 2],
    ]
    for (const [c, n] of bad) {
      const f = tmp.path('crafted.json')
      writeFileSync(f, JSON.stringify({ format: 3, cases: n === 1 ? [c] : [good, c] }))
      const r = await run(['compare', '--diff', f, f])
      expect([r.status, r.stderr]).toEqual([1, `robots-automaton: ${f}: case ${n} of the report is not a case of compare --json (it needs an id, an outcome, categories, an answer and the expected answers)\n`])
    }
  })
})

describe('scores and attribution', () => {
  it('--score verdicts: line differences are counted apart, the headline and the gate use verdicts', async () => {
    const args = ['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0', '--show', '0']
    const lines = await compareWithJson(args, tmp.path('s1.json'))
    const verdicts = await compareWithJson([...args, '--score', 'verdicts', '--min-agreement', '90'], tmp.path('s2.json'))
    expect(lines.report).toMatchObject({ score: 'lines', totals: { disagreements: 21, agreement: lines.report.totals.scores.lines } })
    expect(verdicts.report).toMatchObject({ score: 'verdicts', totals: { disagreements: 14, agreement: verdicts.report.totals.scores.verdicts }, passed: true })
    expect(verdicts.status).toBe(0)
    expect(verdicts.stdout).toContain('Result: 90.34% agreement with the reference on verdicts alone (85.52% on verdicts and lines); RFC 9309: 91.72% (86.90%): passed (--min-agreement 90)')
    expect(verdicts.stdout).toContain('14 disagreements (14 verdict, 0 errors; 7 line differences not counted: --score verdicts)')
    expect(verdicts.report.disagreements.every((d) => d.outcome !== 'line')).toBe(true)
    expect(byCategory(verdicts.report)).toEqual(byCategory(lines.report))
  })

  it('a first-rule-wins bug is explained by precedence alone, though wildcard and end-anchor score lower', async () => {
    const r = await compareWithJson(['--cases', 'corpus', '--count', '3000', '--module', 'test/compare/fixtures/first-rule-wins.mjs', '--minimise', '0'], tmp.path('frw.json'))
    const t = r.report.totals
    expect(t.disagreements).toBeGreaterThan(50)
    expect(r.report.explanation.map((e) => e.id)).toEqual(['precedence'])
    const row = (id: string) => r.report.categories.find((c) => c.id === id)!
    expect(row('precedence').only).toBe(t.disagreements)
    expect(row('wildcard').only).toBe(0)
    expect(row('wildcard').agreement).toBeGreaterThan(row('precedence').agreement)
    expect(r.stdout).toContain(`Explained by: precedence (${t.disagreements}): every disagreement is tagged with one of these`)
  })
})
