// `compare --matrix`: every option reaches every implementation. Each case
// option (--robots-dir, --urls, --urls-field, --count, --seed, --category),
// --score, --semantics, --repeat and --timeout is run through a matrix and
// checked to take effect, on the command line and per set in the file; each
// set's cases are made once and every implementation gets the same ones; an
// option no set can honour is a usage error. And the leaderboard the issue
// asks for: unit, spec-test and a corpus given by --robots-dir and --urls in
// one command, with verdict, line, error and RFC columns.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Matrix } from '../../../src/compare/matrix.js'
import { ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { SHARED, sharedHas } from '../../support/shared-data.js'
import { waitGone } from '../../support/processes.js'

const NODE = process.execPath
const RECORDER = resolve(ROOT, 'test/compare/fixtures/recording-batch.mjs')
const FIXTURE = resolve(ROOT, 'test/data/spec-test')
const EMPTY_SHA1 = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'

let tmp: ReturnType<typeof tempDir>
let robotsDir = ''
let tsv = ''
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
  // Two hosts, and a TSV of their URLs with a header, the URL in field 2.
  robotsDir = tmp.path('robots')
  mkdirSync(robotsDir)
  writeFileSync(join(robotsDir, 'alpha.test'), 'User-agent: *\nDisallow: /private\nAllow: /private/open$\n\nUser-agent: FooBot\nDisallow: /\n')
  writeFileSync(join(robotsDir, 'beta.test'), 'User-agent: *\nDisallow: /*.pdf$\n')
  tsv = tmp.path('urls.tsv')
  const rows = ['host\turl']
  for (let i = 0; i < 30; i++) rows.push(`alpha.test\thttps://alpha.test/private/doc-${i}`, `beta.test\thttps://beta.test/files/report-${i}.pdf`)
  writeFileSync(tsv, rows.join('\n') + '\n')
})
afterAll(() => tmp.cleanup())

let n = 0
/** A matrix of two recording implementations (A and B, each logging its requests) over `sets`; runs it with `args` and returns the matrix and the logs. */
async function matrix(sets: unknown[], args: string[], extra: object[] = []): Promise<{ status: number | null; stderr: string; m: Matrix; logs: string[][] }> {
  const k = ++n
  const logs = [tmp.path(`a-${k}.log`), tmp.path(`b-${k}.log`)]
  for (const l of logs) writeFileSync(l, '')
  const file = tmp.path(`matrix-${k}.json`)
  writeFileSync(file, JSON.stringify({ sets, adapters: [...logs.map((l, i) => ({ name: `rec-${'AB'[i]}`, batch: `${NODE} ${RECORDER} ${l}` })), ...extra] }))
  const json = tmp.path(`m-${k}.json`)
  const r = await run(['compare', '--matrix', file, '--json', json, ...args])
  const m = JSON.parse(readFileSync(json, 'utf8')) as Matrix
  // Each log without the start-up probes (an empty robots.txt, "/").
  const read = (l: string) => readFileSync(l, 'utf8').split('\n').filter((x) => x !== '' && !(x.endsWith(EMPTY_SHA1) && x.includes('\t"/"\t')))
  return { status: r.status, stderr: r.stderr, m, logs: logs.map(read) }
}

const urlsOf = (log: string[]) => log.map((l) => JSON.parse(l.split('\t')[1]) as string)

describe('--matrix: every option reaches every implementation', () => {
  it('--robots-dir, --urls, --urls-field, --count: every implementation gets the same corpus cases, made once', async () => {
    const r = await matrix(['unit', 'corpus'], ['--robots-dir', robotsDir, '--urls', tsv, '--urls-field', '2', '--count', '300'])
    expect(r.status).toBe(0)
    const [a, b] = r.logs
    // The same requests, in the same order: the cases are shared.
    expect(a).toEqual(b)
    const corpus = r.m.setDetails[1]
    expect(corpus).toMatchObject({ cases: 'corpus', count: 300, options: `--robots-dir ${robotsDir} --urls ${tsv} --urls-field 2 --count 300 --seed 1` })
    expect(corpus.description).toContain(`files of ${robotsDir}, URLs of ${tsv} (field 2)`)
    expect(r.m.setDetails[0]).toMatchObject({ cases: 'unit', count: 145 }) // --count larger than the set: the whole set
    expect(r.m.rows.map((row) => row.cells.map((c) => c.totals!.cases))).toEqual([[145, 300], [145, 300]])
    // The corpus cases are on the folder's hosts, and the list's real URLs among them.
    const urls = urlsOf(a).slice(145)
    expect(urls).toHaveLength(300)
    expect(urls.filter((u) => /^https:\/\/alpha\.test\/private\/doc-\d+$|^https:\/\/beta\.test\/files\/report-\d+\.pdf$/.test(u)).length).toBeGreaterThan(30)
    // Made once per set: one note for each, the folder's notes once.
    expect(r.stderr.match(/matrix: making the cases of corpus once/g)).toHaveLength(1)
    expect(r.stderr.match(/--urls: 1 line of 'urls\.tsv' is not a URL/g)).toHaveLength(1)
  })

  it('--seed: another seed, other cases; the same seed, the same cases (digest)', async () => {
    const args = ['--robots-dir', robotsDir, '--count', '100']
    const s1 = await matrix(['corpus'], [...args, '--seed', '1'])
    const s1b = await matrix(['corpus'], [...args, '--seed', '1'])
    const s2 = await matrix(['corpus'], [...args, '--seed', '2'])
    expect(s1.m.setDetails[0].digest).toBe(s1b.m.setDetails[0].digest)
    expect(s2.m.setDetails[0].digest).not.toBe(s1.m.setDetails[0].digest)
    expect(s2.m.setDetails[0].options).toContain('--seed 2')
    expect(urlsOf(s2.logs[0])).not.toEqual(urlsOf(s1.logs[0]))
  })

  it('--category (with exclusions): every set filtered, for every implementation', async () => {
    const r = await matrix(['unit', `spec-test:${FIXTURE}`], ['--category', '!google-specific,!rfc-differs'])
    for (const row of r.m.rows) {
      expect(row.cells[0].totals!.cases).toBe(145 - 22 - 4)
      for (const c of row.cells) expect(c.categories!.map((x) => x.id)).not.toContain('google-specific')
    }
    expect(r.m.setDetails.map((s) => s.options)).toEqual(Array(2).fill('--seed 1 --category !google-specific,!rfc-differs'))
    const bad = await run(['compare', '--matrix', tmp.path('matrix-1.json'), '--category', '!nope'])
    expect(bad.status).toBe(2)
  })

  it('--score, --semantics, --repeat, --timeout', async () => {
    const stall = { name: 'stalls', batch: `${NODE} -e "process.stdin.resume()"` }
    const r = await matrix(['unit'], ['--score', 'verdicts', '--semantics', 'rfc', '--repeat', '2', '--timeout', '1500'], [stall])
    expect(r.m).toMatchObject({ score: 'verdicts', semantics: 'rfc' })
    expect(r.m.rows[0].cells[0].timings!.repeats!.wallMs).toHaveLength(2)
    // --timeout reached the entry that sets none.
    expect(r.m.rows[2].cells[0].failure).toMatch(/--timeout 1500/)
    expect(r.status).toBe(4)
    // Ranked on RFC 9309's verdicts, the reference's answers agree with it on 141 of 145 unit cases.
    const text = (await run(['compare', '--matrix', tmp.path(`matrix-${n}.json`), '--semantics', 'rfc', '--cases', 'unit', '-q'])).stdout.toString()
    expect(text).toContain("ranked on verdicts: the mean over the sets of the agreement on verdicts with RFC 9309's answers")
  })

  it('case options per set in the file; the command line\'s override them', async () => {
    const set = { cases: 'corpus', 'robots-dir': robotsDir, urls: tsv, 'urls-field': 2, count: 40, seed: 3, category: '!google-specific' }
    const r = await matrix([set, 'unit'], [])
    expect(r.m.setDetails[0]).toMatchObject({ count: expect.any(Number), options: `--robots-dir ${robotsDir} --urls ${tsv} --urls-field 2 --count 40 --seed 3 --category !google-specific` })
    expect(r.m.setDetails[0].count).toBeLessThanOrEqual(40)
    expect(r.m.setDetails[1].count).toBe(145) // the unit set is not filtered: the category is the corpus set's
    const over = await matrix([set], ['--count', '60'])
    expect(over.m.setDetails[0].options).toContain('--count 60')
  })

  it.each([
    [['--robots-dir', 'x'], /option '--robots-dir' goes with a corpus set, and the matrix has none \(its sets: unit\)/],
    [['--urls-field', '2'], /option '--urls-field' goes with a corpus set/],
    [['--cases', 'corpus', '--urls', 'x.tsv'], /option '--urls' needs --robots-dir/],
    [['--multi-agent'], /option '--multi-agent' does not go with --matrix/],
    [['--minimise', '3'], /option '--minimise' does not go with --matrix/],
    [['--baseline', 'b.txt'], /option '--baseline' does not go with --matrix/],
    [['--csv', 'c.csv'], /option '--csv' does not go with --matrix/],
    [['--window', '3'], /option '--window' does not go with --matrix/],
  ])('an option no set or implementation can honour is a usage error: %j', async (args, message) => {
    const file = tmp.path('usage.json')
    writeFileSync(file, JSON.stringify({ sets: ['unit'], adapters: [{ name: 'x', batch: 'true' }] }))
    const r = await run(['compare', '--matrix', file, ...args])
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(message)
  })

  it.each([
    [{ sets: [{ cases: 'unit', 'robots-dir': 'x' }] }, /sets\[0\]: 'robots-dir' goes with "cases": "corpus"/],
    [{ sets: [{ cases: 'corpus', urls: 'x' }] }, /sets\[0\]: 'urls' needs 'robots-dir'/],
    [{ sets: [{ cases: 'corpus', count: 0 }] }, /sets\[0\]: option 'count' must be a whole number from 1/],
    [{ sets: [{ cases: 'unit', colour: 1 }] }, /sets\[0\]: unknown field 'colour'/],
    [{ sets: [{ cases: 'unit', category: '!nope' }] }, /sets\[0\]: 'category': unknown category 'nope'/],
  ])('a wrong set in the file is an error naming it (%j)', async (content, message) => {
    const file = tmp.path('badset.json')
    writeFileSync(file, JSON.stringify({ ...content, adapters: [{ name: 'x', batch: 'true' }] }))
    const r = await run(['compare', '--matrix', file])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(message)
  })
})

describe('the matrix\'s own commands', () => {
  it('version and availability commands run in a group of their own: what they leave running ends with them', async () => {
    const pids = tmp.path('version.pids')
    const file = tmp.path('groups.json')
    writeFileSync(file, JSON.stringify({ sets: ['unit'], adapters: [
      { name: 'x', batch: `${NODE} examples/adapters/allow-all-batch.mjs`, version: `sleep 300 & echo $! >> ${pids}; echo 1.0`, available: `sleep 300 & echo $! >> ${pids}; true` },
    ] }))
    const t0 = performance.now()
    const r = await run(['compare', '--matrix', file, '--count', '5', '--format', 'jsonl', '-q'])
    expect(r.status).toBe(0)
    expect(performance.now() - t0).toBeLessThan(120_000)
    expect(JSON.parse(r.stdout.toString().split('\n')[0])).toMatchObject({ implementation: 'x', version: '1.0', cases: 5 })
    const sleeps = readFileSync(pids, 'utf8').trim().split('\n').map(Number)
    expect(sleeps).toHaveLength(2)
    for (const p of sleeps) expect(await waitGone(p)).toBe(true)
  })
})

describe('one command, one leaderboard', () => {
  it('unit, spec-test and a corpus given by --robots-dir and --urls: verdict, line, error and RFC columns for each', async () => {
    const spec = sharedHas('spec-test') ? `spec-test:${resolve(SHARED, 'spec-test')}` : `spec-test:${FIXTURE}`
    const [dir, urls, field] = sharedHas('corpus')
      ? [resolve(SHARED, 'corpus/robots/anubhavp28-benchmark'), resolve(SHARED, 'corpus/urls/paired.tsv'), '3']
      : [robotsDir, tsv, '2']
    const file = tmp.path('board.json')
    writeFileSync(file, JSON.stringify({ adapters: [
      { name: 'robots-automaton', batch: `${NODE} examples/adapters/robots-automaton-batch.mjs` },
      { name: 'robots-parser', batch: `${NODE} examples/adapters/robots-parser-batch.mjs` },
      { name: 'allow-all', batch: `${NODE} examples/adapters/allow-all-batch.mjs` },
    ] }))
    const md = tmp.path('board.md')
    const r = await run(['compare', '--matrix', file, '--cases', 'unit', '--cases', spec, '--cases', 'corpus', '--robots-dir', dir, '--urls', urls, '--urls-field', field, '--count', '2000', '--markdown', md, '-q'])
    expect(r.status, r.stderr).toBe(0)
    const board = readFileSync(md, 'utf8')
    const header = board.split('\n').find((l) => l.startsWith('| # | implementation'))!
    for (const set of ['unit (145)', `spec-test (${sharedHas('spec-test') ? 400 : 7})`, 'corpus (2,000)']) expect(header).toContain(`| ${set}: verdicts | lines | errors | RFC 9309 |`)
    const rows = board.split('\n').filter((l) => /^\| \d+ \| /.test(l)).map((l) => l.slice(2, -2).split(' | '))
    expect(rows.map((x) => x[1])).toEqual(['robots-automaton', 'robots-parser', 'allow-all'])
    expect(rows[0].slice(4)).toEqual(expect.arrayContaining(['100.0']))
    for (const row of rows) expect(row).toHaveLength(4 + 12)
  }, 600_000)
})
