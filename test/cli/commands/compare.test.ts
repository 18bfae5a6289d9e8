// `robots-automaton compare` end to end (dist/cli.js): this project's own CLI
// and library score 100%; robots-parser (module and batch example) disagrees
// by category with the counts below (the other implementations:
// test/compare/adapters/peer-adapters.test.ts); every --cmd example of
// docs/compare.md scores 100 % against this project; a broken
// implementation that ignores `$` disagrees only on end-anchor cases; usage
// errors, the gate, minimisation and export.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCompare } from '../../../src/cli/commands/compare.js'
import { ms } from '../../../src/compare/format.js'
import type { Report } from '../../../src/compare/report/report-model.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { describeShared, SHARED, sharedHas } from '../../support/shared-data.js'

const SPEC_TEST = resolve(SHARED, 'spec-test')
const HAS_SPEC_TEST = sharedHas('spec-test')
const FIXTURE = resolve(ROOT, 'test/data/spec-test')
const NODE = process.execPath
const CHECK = `${NODE} ${CLI} check %robots% --agent=%user-agent% --exit-code -q -- %url%`
const SELF_BATCH = `${NODE} examples/adapters/robots-automaton-batch.mjs`
const RP_BATCH = `${NODE} examples/adapters/robots-parser-batch.mjs`
const RP_MODULE = 'examples/adapters/robots-parser-module.mjs'
const BROKEN = 'test/compare/fixtures/ignore-dollar.mjs'

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

let reports = 0
/** Runs compare with --json; returns the exit status, stdout, stderr and the report. */
async function compare(args: string[], env?: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string; report: Report }> {
  const json = tmp.path(`report-${++reports}.json`)
  const r = await run(['compare', ...args, '--json', json], env ? { env: { ...process.env, ...env } } : {})
  if (!existsSync(json)) throw new Error(`no report (exit ${r.status}): ${r.stderr}`)
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr, report: JSON.parse(readFileSync(json, 'utf8')) as Report }
}

/** Per category: [cases, verdict, line, errors]. */
const byCategory = (r: Report) => Object.fromEntries(r.categories.map((c) => [c.id, [c.cases, c.verdict, c.line, c.errors]]))

function expectAllAgree(r: { status: number | null; report: Report; stdout: string }, cases: number): void {
  expect(r.report.totals).toMatchObject({ cases, agreed: cases, verdict: 0, line: 0, errors: 0, agreement: 100 })
  expect(r.report.passed).toBe(true)
  expect(r.status).toBe(0)
  expect(r.stdout).toContain('Result: 100.00% agreement with the reference')
}

describe('this project scores 100%', () => {
  it('its CLI (check --exit-code) through --cmd, on a sample of unit and of corpus', async () => {
    const unit = await compare(['--cases', 'unit', '--count', '6', '--seed', '3', '--cmd', CHECK, '--disallowed-exit', '3'])
    expectAllAgree(unit, 6)
    expect(unit.report.totals.linesChecked).toBe(0)
    const corpus = await compare(['--cases', 'corpus', '--count', '4', '--cmd', CHECK, '--disallowed-exit', '3', '--concurrency', '4'])
    expectAllAgree(corpus, 4)
  })

  it('its CLI through --cmd with stdout patterns, deciding lines checked', async () => {
    const cmd = `${NODE} ${CLI} check %robots% --agent=%user-agent% -q -- %url%`
    const r = await compare(['--cases', 'unit', '--count', '4', '--seed', '9', '--cmd', cmd, '--allowed-pattern', '^allowed\\t', '--line-pattern', '\\tline (\\d+):'])
    expectAllAgree(r, 4)
    expect(r.report.totals.linesChecked).toBe(4)
  })

  it('its library through --batch, on unit, corpus and the spec-test fixture, lines included', async () => {
    expectAllAgree(await compare(['--cases', 'unit', '--batch', SELF_BATCH]), 145)
    const corpus = await compare(['--cases', 'corpus', '--count', '1500', '--batch', SELF_BATCH, '--multi-agent'])
    expectAllAgree(corpus, 1500)
    expect(corpus.report.totals.linesChecked).toBe(1500)
    expect(byCategory(corpus.report)['ua-multi'][0]).toBeGreaterThan(50)
    expectAllAgree(await compare(['--cases', `spec-test:${FIXTURE}`, '--batch', SELF_BATCH, '--batch-robots', 'inline']), 7)
  })
})

/** Runs a command line with sh (asynchronously, so that the test runner stays responsive). */
function runShell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** The `robots-automaton compare … --cmd …` command lines of docs/compare.md's code blocks (continuation lines joined). */
function docsCmdExamples(): string[] {
  const md = readFileSync(resolve(ROOT, 'docs/compare.md'), 'utf8')
  const out: string[] = []
  for (const block of md.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block[1].replace(/\\\n\s*/g, '').split('\n')
    for (const line of lines) if (/^robots-automaton compare .*--cmd /.test(line)) out.push(line)
  }
  return out
}

describe('every --cmd example of docs/compare.md', () => {
  const examples = docsCmdExamples()
  let dir = ''
  beforeAll(() => {
    // A folder where the examples run as written: robots-automaton on PATH, ./mytool (this project's check, exit 0 allowed, 1 disallowed), a spec-test checkout.
    dir = tmp.path('docs-examples')
    const bin = join(dir, 'bin')
    mkdirSync(bin, { recursive: true })
    const q = (x: string): string => `'${x.replace(/'/g, `'\\''`)}'`
    writeFileSync(join(bin, 'robots-automaton'), `#!/bin/sh\nexec ${q(NODE)} ${q(CLI)} "$@"\n`, { mode: 0o755 })
    writeFileSync(join(dir, 'mytool'), '#!/bin/sh\nrobots-automaton check "$1" --agent="$3" --exit-code -q -- "$2"\nstatus=$?\n[ $status -eq 3 ] && exit 1\nexit $status\n', { mode: 0o755 })
    const ctc = join(dir, 'robotstxt-spec-test/src/main/resources/CTC')
    mkdirSync(ctc, { recursive: true })
    copyFileSync(join(FIXTURE, 'fixture.textproto'), join(ctc, 'fixture.textproto'))
  })

  it('there are some, running this project’s own CLI', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3)
    expect(examples.filter((e) => e.includes('robots-automaton check')).length).toBeGreaterThanOrEqual(2)
  })

  // Each example runs as written on a seeded sample of its cases (a process per case: the work is bounded, so is
  // the time whatever the machine's load; a spec-test example keeps its --min-agreement); the limit is a stall guard.
  it.each(examples)(
    'scores 100 percent against this project: %s',
    async (line) => {
      const sampled = `${line} --count 25 --seed 7`
      const r = await runShell(sampled, dir, { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, ROBOTS_AUTOMATON_PROGRESS: '0' })
      expect(r.stdout, r.stderr).toMatch(/^Result: 100\.00% agreement with the reference on .*: passed/m)
      expect(r.stdout).toMatch(/; (?:25|7) cases$/m)
      expect(r.status).toBe(0)
    },
    600_000,
  )
})

describe('timings: start-up apart from the cases', () => {
  // Each adapter takes 200 ms before it answers its first request.
  const SLOW_START = `sh -c 'sleep 0.2; exec "$0" "$@"'`

  it('--batch: start-up measured alone and reported; the per-case times share out the run without it', async () => {
    const r = await compare(['--cases', 'unit', '--count', '20', '--seed', '3', '--batch', `sleep 0.2; ${SELF_BATCH}`])
    expectAllAgree(r, 20)
    const tm = r.report.timings
    expect(tm.startupMs).toBeGreaterThanOrEqual(150)
    expect(r.stdout).toContain(`  start-up, measured alone on an empty robots.txt: ${ms(tm.startupMs!)}\n`)
    // Answers read together share the time since the previous read: the 20 cases add up to the run's time at most.
    expect(tm.meanMs * 20).toBeLessThanOrEqual(tm.runWallMs + 1e-6)
  })

  it('--cmd: start-up measured alone (the median of three runs of the command), and taken off each case', async () => {
    const r = await compare(['--cases', 'unit', '--count', '4', '--seed', '3', '--cmd', `${SLOW_START} ${CHECK}`, '--disallowed-exit', '3'])
    expectAllAgree(r, 4)
    const tm = r.report.timings
    expect(tm.startupMs).toBeGreaterThanOrEqual(150)
    expect(tm.startupSubtracted).toBe(true)
    expect(r.stdout).toContain(`  start-up, measured alone on an empty robots.txt: ${ms(tm.startupMs!)} (taken off each case)\n`)
  })
})

describeShared('compare-spec-test', () => {
  it('this project scores 100% on all 400 expectations, exported and read back as JSONL too', async () => {
    const jsonl = tmp.path('spec-test.jsonl')
    const r = await compare(['--cases', `spec-test:${SPEC_TEST}`, '--batch', SELF_BATCH, '--export', jsonl])
    expectAllAgree(r, 400)
    expect(byCategory(r.report)['google-specific'][0]).toBeGreaterThan(10)
    const lines = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toHaveLength(400)
    expect(new Set(lines.filter((l) => l.robots_base64 !== undefined).map((l) => l.robots_base64))).toEqual(
      new Set(['77s=', '7w==', '7xG/'].map((p) => Buffer.concat([Buffer.from(p, 'base64'), Buffer.from('User-Agent: foo\nDisallow: /AnyValue\n')]).toString('base64'))),
    )
    expectAllAgree(await compare(['--cases', jsonl, '--batch', SELF_BATCH, '--batch-robots', 'inline']), 400)
  })

  it('its CLI through --cmd on the cases with a BOM (the bodies that are not UTF-8) and a sample', async () => {
    const bom = await compare(['--cases', `spec-test:${SPEC_TEST}`, '--category', 'bom', '--cmd', CHECK, '--disallowed-exit', '3'])
    expectAllAgree(bom, 5)
    expectAllAgree(await compare(['--cases', `spec-test:${SPEC_TEST}`, '--count', '3', '--cmd', CHECK, '--disallowed-exit', '3']), 3)
  })
})

/** Categories that robots-parser's known differences fall in. */
const ROBOTS_PARSER_DIFFERENCES = new Set([
  'ua-case', 'ua-product-token', 'ua-prefix', 'percent-encoding', 'non-ascii', 'empty-rules', 'key-typo', 'missing-colon',
  'index-html', 'long-lines', 'bom', 'url-forms', 'end-anchor', 'line-convention',
])

describe('robots-parser', () => {
  it('--module on unit: disagreements by category, each in a category of its known differences', async () => {
    const r = await compare(['--cases', 'unit', '--module', RP_MODULE, '--minimise', '30'])
    expect(r.status).toBe(3)
    expect(r.report.totals).toMatchObject({ cases: 145, agreed: 124, verdict: 14, line: 7, errors: 0, linesChecked: 145 })
    expect(byCategory(r.report)).toEqual({
      wildcard: [27, 0, 0, 0], 'end-anchor': [12, 0, 0, 0], precedence: [64, 3, 6, 0], 'index-html': [3, 1, 0, 0],
      'empty-rules': [1, 0, 1, 0], 'percent-encoding': [6, 2, 0, 0], 'non-ascii': [3, 2, 0, 0], 'path-case': [7, 0, 0, 0],
      comments: [1, 0, 0, 0], 'ua-case': [10, 5, 5, 0], 'ua-product-token': [16, 8, 6, 0], 'ua-global-fallback': [8, 2, 0, 0],
      'ua-specific-hides-global': [6, 1, 0, 0], 'group-merging': [10, 0, 0, 0], 'rules-outside-group': [3, 0, 0, 0],
      'missing-colon': [1, 1, 0, 0], 'long-lines': [5, 2, 0, 0], 'url-forms': [4, 0, 0, 0],
      'line-convention': [1, 0, 1, 0], 'google-specific': [22, 11, 6, 0], 'rfc-differs': [4, 3, 0, 0],
    })
    for (const d of r.report.disagreements) expect(d.categories.some((c) => ROBOTS_PARSER_DIFFERENCES.has(c)), d.id).toBe(true)
    // Each body once, by SHA-1, with its exact bytes.
    const keys = new Set(r.report.disagreements.map((d) => d.robots_sha1))
    expect(Object.keys(r.report.bodies).sort()).toEqual([...keys].sort())
    for (const [sha1, b] of Object.entries(r.report.bodies)) {
      const bytes = b.robots !== undefined ? Buffer.from(b.robots) : Buffer.from(b.robots_base64!, 'base64')
      expect(createHash('sha1').update(bytes).digest('hex')).toBe(sha1)
      expect(bytes.length).toBe(b.bytes)
    }
    // Minimisation: every disagreement minimised keeps its kind and does not grow.
    const minimised = r.report.disagreements.filter((d) => d.minimised)
    expect(minimised.length).toBeGreaterThan(10)
    for (const d of minimised) {
      const m = d.minimised!
      expect(m.linesAfter).toBeLessThanOrEqual(m.linesBefore)
      const kind = m.answer.allowed !== m.expected.allowed ? 'verdict' : m.answer.line !== m.expected.line ? 'line' : 'agree'
      expect(kind, d.id).toBe(d.outcome)
    }
    expect(minimised.filter((d) => d.minimised!.linesAfter < d.minimised!.linesBefore).length).toBeGreaterThan(5)
    expect(r.stdout).toMatch(/minimised \(\d+ → \d+ lines, \d+ adapter calls\)/)
    expect(r.stdout).toContain('reference:      disallowed by line 2: Disallow: /')
  })

  it('--module on corpus: disagreements by category, each in a category of its known differences', async () => {
    const args = ['--cases', 'corpus', '--count', '2000', '--seed', '7', '--minimise', '0']
    const mod = await compare([...args, '--module', RP_MODULE])
    expect(mod.report.totals).toMatchObject({ cases: 2000, agreed: 1755, verdict: 35, line: 210, errors: 0 })
    expect(byCategory(mod.report)).toEqual({
      wildcard: [190, 1, 7, 0], 'end-anchor': [85, 0, 2, 0], precedence: [196, 2, 5, 0], 'index-html': [5, 0, 0, 0],
      'empty-rules': [196, 0, 196, 0], 'percent-encoding': [104, 1, 2, 0], 'non-ascii': [38, 0, 0, 0], 'path-case': [98, 1, 0, 0],
      'ua-case': [102, 3, 8, 0], 'ua-product-token': [758, 30, 75, 0], 'ua-prefix': [27, 4, 0, 0],
      'ua-global-fallback': [1577, 22, 169, 0], 'ua-specific-hides-global': [370, 13, 41, 0], 'group-merging': [36, 2, 0, 0],
      'line-endings': [683, 15, 41, 0], 'url-forms': [190, 16, 20, 0],
      'line-convention': [196, 0, 196, 0], 'google-specific': [768, 32, 80, 0], 'rfc-differs': [38, 0, 0, 0],
    })
    for (const d of mod.report.disagreements) expect(d.categories.some((c) => ROBOTS_PARSER_DIFFERENCES.has(c)), d.id).toBe(true)
  })

  it('the example --batch adapter gives the same disagreements as --module', async () => {
    for (const set of [['--cases', 'unit'], ['--cases', 'corpus', '--count', '500', '--seed', '7']]) {
      const mod = await compare([...set, '--module', RP_MODULE, '--minimise', '0'])
      const batch = await compare([...set, '--batch', RP_BATCH, '--minimise', '0'])
      expect(batch.report.totals.disagreements).toBeGreaterThan(20)
      expect(byCategory(batch.report)).toEqual(byCategory(mod.report))
      expect(batch.report.disagreements.map((d) => [d.id, d.answer])).toEqual(mod.report.disagreements.map((d) => [d.id, d.answer]))
    }
  })
})

describe('an implementation that ignores $', () => {
  it.each([
    ['literal', 2000],
    ['drop', 1000],
  ])('($ read as %s) disagrees only on end-anchor cases, and end-anchor is below 100%%', async (mode, count) => {
    const sets = [['--cases', 'corpus', '--count', String(count), '--seed', '7'], ['--cases', 'unit']]
    if (HAS_SPEC_TEST && mode === 'literal') sets.push(['--cases', `spec-test:${SPEC_TEST}`])
    let disagreements = 0
    for (const set of sets) {
      const r = await compare([...set, '--module', BROKEN, '--minimise', '0'], { DOLLAR_MODE: mode })
      const t = r.report.totals
      expect(r.report.unlisted).toBe(0)
      for (const d of r.report.disagreements) expect(d.categories, d.id).toContain('end-anchor')
      const anchor = r.report.categories.find((c) => c.id === 'end-anchor')!
      expect(anchor.verdict + anchor.line + anchor.errors).toBe(t.disagreements)
      disagreements += t.disagreements
      if (t.disagreements > 0) {
        expect(anchor.agreement).toBeLessThan(100)
        expect(r.status).toBe(3)
      }
    }
    expect(disagreements).toBeGreaterThan(20)
  })
})

describe('the gate, the options and their errors', () => {
  it('--min-agreement relaxes the exit status', async () => {
    const args = ['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0', '--show', '0']
    expect((await compare([...args, '--min-agreement', '85'])).status).toBe(0)
    const strict = await compare([...args, '--min-agreement', '90'])
    expect(strict.status).toBe(3)
    expect(strict.stdout).toContain('Result: 85.52% agreement with the reference on verdicts and lines (90.34% on verdicts alone); RFC 9309: 86.90% (91.72%): failed (--min-agreement 90)')
  })

  it('regression: one disagreement was said as "1 disagreements" (and one case as "1 cases", one body as "1 bodies"); now each count takes its own number', async () => {
    const file = tmp.path('one.jsonl')
    writeFileSync(file, JSON.stringify({ robots: 'User-agent: *\nDisallow: /x\n', agent: 'a', url: '/x' }) + '\n')
    const module = tmp.path('allow-all.mjs')
    writeFileSync(module, 'export function parse() { return { isAllowed: () => true } }\n')
    const r = await compare(['--cases', file, '--module', module, '--minimise', '0', '--html', tmp.path('one.html')])
    expect(r.status).toBe(3)
    expect(r.stdout).toContain('1 disagreement (1 verdict, 0 line, 0 errors)')
    expect(r.stdout).toContain('Timings: 1 case in ')
    expect(r.stdout).toContain('parse: 1 body,')
    expect(r.stdout).not.toMatch(/\b1 (disagreements|errors|cases|bodies)\b/)
    expect(readFileSync(tmp.path('one.html'), 'utf8')).toContain('1 verdict and 0 line disagreement, 0 errors')
  })

  it('multi-agent cases are skipped unless --multi-agent, and never go to --cmd', async () => {
    const file = tmp.path('multi.jsonl')
    writeFileSync(file, [
      { robots: 'User-agent: a\nDisallow: /x\n', agent: ['a', 'b'], url: '/x', allowed: false, line: 2 },
      { robots: 'User-agent: a\nDisallow: /x\n', agent: 'b', url: '/x', categories: ['mine'] },
    ].map((o) => JSON.stringify(o)).join('\n') + '\n')
    const skipped = await compare(['--cases', file, '--batch', SELF_BATCH])
    expect(skipped.report.totals).toMatchObject({ cases: 1, skipped: 1 })
    expect(skipped.report.categories.map((c) => c.id)).toContain('mine')
    expect(skipped.stdout).toContain('1 case skipped: multi-agent cases (add --multi-agent to send them)')
    expectAllAgree(await compare(['--cases', file, '--batch', SELF_BATCH, '--multi-agent']), 2)
  })

  it('a JSONL set is read as it goes; --count takes a seeded sample in file order', async () => {
    const file = tmp.path('many.jsonl')
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: `c${i}`, robots: 'User-agent: *\nDisallow: /x$\n', agent: 'a', url: `/x${i % 2 ? '' : '/y'}` }))
    writeFileSync(file, lines.join('\n') + '\n')
    expectAllAgree(await compare(['--cases', file, '--batch', SELF_BATCH]), 300)
    const out = tmp.path('sample.jsonl')
    const r = await run(['compare', '--cases', file, '--count', '25', '--seed', '4', '--export', out])
    expect(r.status).toBe(0)
    const ids = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => Number((JSON.parse(l) as { id: string }).id.slice(1)))
    expect(ids).toHaveLength(25)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(25)
    const again = tmp.path('sample2.jsonl')
    await run(['compare', '--cases', file, '--count', '25', '--seed', '4', '--export', again])
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'))
  })

  it('a stated answer other than the reference’s is noted, and the reference’s is used', async () => {
    const file = tmp.path('stated.jsonl')
    writeFileSync(file, JSON.stringify({ id: 'wrong', robots: 'User-agent: *\nDisallow: /x\n', agent: 'a', url: '/x', allowed: true }) + '\n')
    const r = await compare(['--cases', file, '--batch', SELF_BATCH])
    expectAllAgree(r, 1)
    expect(r.stderr).toContain("note: 1 case states an answer other than the reference's (first: wrong); the reference's is used")
    expect(r.report.statedMismatches).toEqual([{ id: 'wrong', stated: { allowed: true }, expected: { allowed: false, line: 2 } }])
  })

  it('works from an installed package: the unit vectors inside dist/cli.js, the corpus beside it', () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { files: { path: string }[] }[]
    const files = packed[0].files.map((f) => f.path)
    for (const f of ['NOTICE', 'dist/cli.js', 'dist/compare-module.js', 'dist/data/corpus-urls.txt.gz', 'corpus/robots/99designs.com', 'examples/adapters/robots-parser-batch.mjs', 'examples/adapters/urllib_robotparser_batch.py']) {
      expect(files, f).toContain(f)
    }
    // The corpus's URL list ships gzipped only.
    expect(files).not.toContain('corpus/urls.txt')
    expect(files.filter((f) => f.startsWith('test/'))).toEqual([])
    const installed = tmp.path('installed')
    for (const f of files) {
      mkdirSync(dirname(join(installed, f)), { recursive: true })
      copyFileSync(join(ROOT, f), join(installed, f))
    }
    for (const [set, n] of [['unit', 145], ['corpus', 20]] as const) {
      const out = join(installed, `${set}.jsonl`)
      const r = spawnSync(NODE, [join(installed, 'dist/cli.js'), 'compare', '--cases', set, '--count', String(n), '--export', out, '-q'], { cwd: installed, encoding: 'utf8' })
      expect(r.stderr).toBe('')
      expect(r.status).toBe(0)
      expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(n)
    }
  })

  it('--export alone writes the cases and exits 0; no progress bar when stderr is not a terminal', async () => {
    const file = tmp.path('unit.jsonl')
    const r = await run(['compare', '--cases', 'unit', '--export', file])
    expect(r.status).toBe(0)
    expect(r.stderr).toBe(`robots-automaton: 145 cases written to ${file}\n`)
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(145)
    const runRun = await run(['compare', '--cases', 'unit', '--count', '20', '--batch', SELF_BATCH])
    expect(runRun.stderr).toBe('')
  })

  it.each([
    [['--cases', 'unit'], /give the implementation to test \(--cmd, --batch or --module\), or --export FILE/],
    [['--batch', 'x'], /option '--cases' is required/],
    [['--cases', 'nope', '--batch', 'x'], /option '--cases' must be unit, corpus, spec-test:PATH or a \.jsonl file \(got 'nope'\)/],
    [['--cases', 'unit', '--batch', 'x', '--module', 'y'], /options '--batch' and '--module' cannot be combined/],
    [['--cases', 'unit', '--batch', 'x', '--allowed-exit', '0'], /option '--allowed-exit' goes with '--cmd'/],
    [['--cases', 'unit', '--cmd', 'x', '--window', '3'], /option '--window' goes with '--batch'/],
    [['--cases', 'unit', '--cmd', 'x', '--multi-agent'], /'--multi-agent' does not go with '--cmd'/],
    [['--cases', 'unit', '--cmd', 'x', '--allowed-pattern', '('], /'--allowed-pattern' is not a valid regular expression/],
    [['--cases', 'unit', '--cmd', 'x', '--disallowed-exit', '0'], /'--allowed-exit' and '--disallowed-exit' must differ/],
    [['--cases', 'unit', '--cmd', "x 'y"], /option '--cmd': unterminated ' quote/],
    [['--cases', 'unit', '--batch', 'x', '--min-agreement', '101'], /'--min-agreement' must be a percentage from 0 to 100/],
    [['--cases', 'unit', '--batch', 'x', '--count', '0'], /'--count' must be a whole number from 1/],
    [['--cases', 'unit', '--batch', 'x', '--timeout', '1.5'], /'--timeout' must be a whole number from 1/],
    [['--cases', 'unit', '--batch', 'x', '--category', 'nope'], /unknown category 'nope'/],
    [['--cases', 'unit', '--batch', 'x', '--robots-dir', 'corpus/robots'], /option '--robots-dir' goes with --cases corpus/],
    [['--cases', 'corpus', '--batch', 'x', '--urls', 'corpus/urls.txt'], /option '--urls' needs --robots-dir/],
    [['--cases', 'unit', '--batch', 'x', '--batch-robots', 'x'], /option '--batch-robots' must be one of path, inline/],
    [['--cases', 'unit', '--batch', 'x', 'extra'], /unexpected argument 'extra'/],
    [['--cases', 'unit', '--cases', 'corpus', '--batch', 'x'], /option '--cases' is given more than once \(several sets: --matrix FILE\)/],
    [['--cases', 'unit', '--batch', 'x', '--markdown', 'b.md'], /option '--markdown' goes with --matrix/],
    [['--cases', 'unit', '--export', 'x.jsonl', '--junit', 'j.xml'], /option '--junit' needs an implementation to test/],
    [['--cases', 'unit', '--batch', 'x', '--score', 'both'], /option '--score' must be one of lines, verdicts/],
    [['--cases', 'unit', '--batch', 'x', '--repeat', '0'], /'--repeat' must be a whole number from 1/],
    [['--cases', 'unit', '--batch', 'x', '--format', 'csv'], /option '--format' must be one of text, jsonl/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    await expect(runCompare(args)).rejects.toMatchObject({ code: 'ERR_USAGE', exitCode: 2, message: expect.stringMatching(message) })
  })

  it('a usage error is one line on stderr naming the command, exit 2', async () => {
    const r = await run(['compare', '--cases', 'unit', '--batch', 'x', '--min-agreement', 'lots'])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(
      "robots-automaton: compare: option '--min-agreement' must be a percentage from 0 to 100 (got 'lots') (see 'robots-automaton compare --help')\n",
    )
  })

  it('a --timeout past what a timer holds is a usage error, on the command line and in a matrix entry (3000000000 timed every --cmd case out at once)', async () => {
    const cmd = await run(['compare', '--cases', 'unit', '--cmd', 'true', '--timeout', '3000000000'])
    expect([cmd.status, cmd.stderr]).toEqual([2, "robots-automaton: compare: option '--timeout' must be a whole number from 1 to 2,147,483,647 (got '3000000000') (see 'robots-automaton compare --help')\n"])
    const matrix = tmp.path('timeout-matrix.json')
    writeFileSync(matrix, JSON.stringify({ sets: ['unit'], adapters: [{ name: 'a', batch: 'x', timeout: 3000000000 }] }))
    const m = await run(['compare', '--matrix', matrix])
    expect([m.status, m.stderr]).toEqual([1, `robots-automaton: ${matrix}: adapter 'a': option 'timeout' must be a whole number from 1 to 2,147,483,647 (got '3000000000')\n`])
    const most = await run(['compare', '--cases', 'unit', '--category', 'comments', '--batch', `${NODE} examples/adapters/robots-automaton-batch.mjs`, '--timeout', '2147483647', '-q'])
    expect(most.status).toBe(0)
  })

  it('an adapter that cannot start is an adapter failure (exit 4); a missing case file or an unwritable report, an error (exit 1, one line)', async () => {
    const crash = await run(['compare', '--cases', 'unit', '--batch', `${NODE} -e "process.stdin.once('data', () => process.exit(5))"`])
    expect(crash.status).toBe(4)
    expect(crash.stderr).toMatch(/^robots-automaton: --batch: the adapter exited with status 5 after 0 answers/)
    const missing = await run(['compare', '--cases', tmp.path('none.jsonl'), '--batch', 'x'])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/cannot read case file .*none\.jsonl.*: no such file or directory/)
    const badOut = await run(['compare', '--cases', 'unit', '--batch', 'x', '--html', tmp.path('no/such/dir/r.html')])
    expect(badOut.status).toBe(1)
    expect(badOut.stderr).toMatch(/^robots-automaton: cannot write report '.*no\/such\/dir\/r\.html': its folder '.*no\/such\/dir': no such file or directory\n$/)
    mkdirSync(tmp.path('no-textproto'))
    const noSpec = await run(['compare', '--cases', `spec-test:${tmp.path('no-textproto')}`, '--batch', 'x'])
    expect(noSpec.status).toBe(1)
    expect(noSpec.stderr).toMatch(/no \.textproto file under/)
  })

  it('a --module that calls process.exit(0) mid-run is an adapter failure, exit 4 (compare exited 0, silently, with --min-agreement); regression: what it printed corrupted --json -, and its changes to globals reached compare\'s reports', async () => {
    const mod = tmp.path('exits.mjs')
    writeFileSync(mod, `JSON.stringify = () => 'spoilt'\nlet n = 0\nexport function parse() { return { isAllowed(url) { console.log('asked', url); if (++n === 100) process.exit(0); return true } } }\n`)
    const r = await run(['compare', '--cases', 'unit', '--module', mod, '--min-agreement', '1', '--json', '-'])
    expect(r.status).toBe(4)
    expect(r.stderr.toString()).toMatch(/^asked /)
    expect(r.stderr.toString()).toContain(`\nrobots-automaton: --module: ${mod} ended its thread (exit status 0) during the run\n`)
    const report = JSON.parse(r.stdout.toString()) as { totals: { cases: number } }
    // The cases answered before it ended (it did at the 100th call).
    expect(report.totals.cases).toBeGreaterThan(0)
    expect(report.totals.cases).toBeLessThan(100)
  })
})
