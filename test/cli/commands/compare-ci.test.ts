// `compare` as a maintainer runs it in CI: a baseline of known disagreements
// (the recipe of docs/compare.md, run as written), RFC 9309's answers as the
// gate, category exclusions, a URL list read whatever its form, what a failing
// --cmd case gave kept in every output, and no process outliving its case.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../src/compare/report/report-model.js'
import { compareWithJson, parseCsv, parseXml } from '../compare-helpers.js'
import { CLI, ensureBuilt, ROOT, run, tempDir } from '../helpers.js'
import { alive, groupMembers, waitGone } from '../../support/processes.js'

const NODE = process.execPath
const RP_BATCH = `${NODE} examples/adapters/robots-parser-batch.mjs`
const RP_MODULE = 'examples/adapters/robots-parser-module.mjs'
const SELF_BATCH = `${NODE} examples/adapters/robots-automaton-batch.mjs`
const NEW_BUG = resolve(ROOT, 'test/compare/fixtures/robots-parser-new-bug-batch.mjs')

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

/** Runs a command line with sh in `cwd`, `robots-automaton` on the PATH. */
function shell(line: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const bin = join(cwd, 'bin')
  mkdirSync(bin, { recursive: true })
  const q = (x: string): string => `'${x.replace(/'/g, `'\\''`)}'`
  writeFileSync(join(bin, 'robots-automaton'), `#!/bin/sh\nexec ${q(NODE)} ${q(CLI)} "$@"\n`, { mode: 0o755 })
  return new Promise((ok, fail) => {
    const child = spawn('/bin/sh', ['-c', line], { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, ROBOTS_AUTOMATON_PROGRESS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s))
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    child.on('error', fail)
    child.on('close', (status) => ok({ status, stdout, stderr }))
  })
}

/** The two command lines of docs/compare.md's CI recipe (its first code block under "In CI"). */
function ciRecipe(): { write: string; check: string } {
  const md = readFileSync(resolve(ROOT, 'docs/compare.md'), 'utf8')
  const section = md.slice(md.indexOf('\n## In CI'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]
  const lines = block.split('\n').filter((l) => l.startsWith('robots-automaton compare'))
  expect(lines).toHaveLength(2)
  return { write: lines.find((l) => l.includes('--write-baseline'))!, check: lines.find((l) => l.includes('--baseline '))! }
}

describe('a baseline in CI', () => {
  it('the recipe of docs/compare.md: the baseline written from one run makes the same run pass; one new bug fails with exit 3, naming the new cases', async () => {
    const { write, check } = ciRecipe()
    const dir = tmp.path('ci')
    mkdirSync(dir, { recursive: true })
    const adapter = join(dir, 'my-adapter')
    const use = (script: string): void => writeFileSync(adapter, `#!/bin/sh\ncd ${JSON.stringify(ROOT)} && exec ${JSON.stringify(NODE)} ${script}\n`, { mode: 0o755 })
    use('examples/adapters/robots-parser-batch.mjs')
    const first = await shell(write, dir)
    expect(first.status, first.stderr).toBe(0) // `|| true`: the run itself disagrees
    const baseline = readFileSync(join(dir, 'compare-baseline.txt'), 'utf8')
    expect(baseline.split('\n').filter((l) => l !== '' && !l.startsWith('#'))).toHaveLength(21)
    expect(baseline).toMatch(/^[0-9a-f]{16}\tunit:ID_LineSyntax_Line#3\tverdict$/m)

    const same = await shell(check, dir)
    expect(same.status, same.stdout + same.stderr).toBe(0)
    expect(same.stdout).toMatch(/^Result: .*: passed: no disagreement is new \(21 known to compare-baseline\.txt\)$/m)

    use(NEW_BUG)
    const bug = await shell(check, dir)
    expect(bug.status, bug.stderr).toBe(3)
    const news = /^ {2}new \((\d+)\): (.*)$/m.exec(bug.stdout)!
    expect(Number(news[1])).toBeGreaterThan(0)
    expect(bug.stdout).toMatch(new RegExp(`^Result: .*: failed: ${news[1]} new disagreements? \\(\\d+ known to compare-baseline\\.txt\\)$`, 'm'))
    // The new cases are named, and JUnit fails them: the end-anchor bug, nothing else.
    const junit = parseXml(readFileSync(join(dir, 'compare.xml'), 'utf8'))
    const failing = junit.children.flatMap((s) => s.children).filter((t) => t.children.some((c) => c.name === 'failure' || c.name === 'error'))
    for (const id of news[2].split(', ')) {
      expect(failing.map((t) => t.attributes.name), id).toContain(id)
      const props = failing.find((t) => t.attributes.name === id)!.children.find((c) => c.name === 'properties')!.children
      expect(props.map((p) => p.attributes.value), id).toContain('end-anchor')
    }
  })

  it('reads an earlier --json report as a baseline; fixed cases are named; the report records known, new and fixed', async () => {
    const base = tmp.path('base.json')
    await compareWithJson(['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0'], base)
    const again = await compareWithJson(['--cases', 'unit', '--batch', RP_BATCH, '--minimise', '0', '--baseline', base], tmp.path('again.json'))
    expect(again.status).toBe(0)
    expect(again.report.baseline).toMatchObject({ known: 21, newCount: 0, new: [], fixedCount: 0, absent: 0 })
    expect(again.report.passed).toBe(true)
    const fixed = await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH, '--baseline', base], tmp.path('fixed.json'))
    expect(fixed.status).toBe(0)
    expect(fixed.report.baseline).toMatchObject({ known: 0, newCount: 0, fixedCount: 21 })
    expect(fixed.stdout).toMatch(/^ {2}fixed \(21\): unit:/m)
    // A baseline of a few ids, written by hand: the other disagreements are new.
    const ids = tmp.path('ids.txt')
    writeFileSync(ids, '# known\nunit:ID_LineSyntax_Line#3\n\nunit:ID_UserAgentValueCaseInsensitive#1\n')
    const partial = await compareWithJson(['--cases', 'unit', '--module', RP_MODULE, '--minimise', '0', '--baseline', ids], tmp.path('partial.json'))
    expect(partial.status).toBe(3)
    expect(partial.report.baseline).toMatchObject({ known: 2, newCount: 19 })
    // New disagreements are listed first.
    expect(partial.report.disagreements.slice(0, 19).map((d) => d.id)).not.toContain('unit:ID_LineSyntax_Line#3')
  })

  it('ids and keys are content-derived: a case has the same id and key in every run that makes it, whatever --count', async () => {
    const args = ['--cases', 'corpus', '--module', RP_MODULE, '--minimise', '0', '--seed', '4']
    const small = await compareWithJson([...args, '--count', '300'], tmp.path('corpus-300.json'))
    const large = await compareWithJson([...args, '--count', '900'], tmp.path('corpus-900.json'))
    const byKey = new Map(large.report.cases.map((c) => [c.key, c.id]))
    const shared = small.report.cases.filter((c) => byKey.has(c.key))
    expect(shared.length).toBeGreaterThan(0)
    for (const c of shared) expect(byKey.get(c.key)!.replace(/~\d+$/, ''), c.id).toBe(c.id.replace(/~\d+$/, ''))
    // A filter keeps the cases it keeps as they are: the same ids and keys.
    const filtered = await compareWithJson([...args, '--count', '900', '--category', 'wildcard'], tmp.path('corpus-wild.json'))
    const all = new Map(large.report.cases.map((c) => [c.id, c.key]))
    expect(filtered.report.cases.length).toBeGreaterThan(20)
    for (const c of filtered.report.cases) expect(all.get(c.id), c.id).toBe(c.key)
    const ids = large.report.cases.map((c) => c.id)
    expect(ids.every((id) => /^corpus:[^#]+#[0-9a-f]{10}(?:~\d+)?$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // A baseline of the large run knows every disagreement the small run shares with it.
    const b = tmp.path('corpus-base.txt')
    await run(['compare', ...args, '--count', '900', '--write-baseline', b, '-q'])
    const r = await compareWithJson([...args, '--count', '300', '--baseline', b], tmp.path('corpus-again.json'))
    const known = new Set(large.report.cases.filter((c) => c.outcome !== 'agree').map((c) => c.key))
    const expectedNew = small.report.cases.filter((c) => c.outcome !== 'agree' && !known.has(c.key)).length
    expect(r.report.baseline!.newCount).toBe(expectedNew)
    expect(r.report.baseline!.known).toBe(small.report.cases.filter((c) => c.outcome !== 'agree').length - expectedNew)
  })

  it('a baseline that cannot be read is an error (exit 1); a run that stops early writes none', async () => {
    const missing = await run(['compare', '--cases', 'unit', '--batch', SELF_BATCH, '--baseline', tmp.path('none.txt')])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/cannot read baseline '.*none\.txt': no such file or directory/)
    const out = tmp.path('partial-base.txt')
    const dies = await run(['compare', '--cases', 'unit', '--batch', `${NODE} -e "process.stdin.once('data', () => process.exit(3))"`, '--write-baseline', out])
    expect(dies.status).toBe(4)
    expect(existsSync(out) && readFileSync(out, 'utf8') !== '').toBe(false)
    expect(dies.stderr).toContain('--write-baseline: not written, the run stopped early')
  })
})

describe('two standards', () => {
  it('--semantics rfc gates on RFC 9309\'s answers: the reference\'s own answers then disagree where the RFC answers otherwise', async () => {
    const r = await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH, '--semantics', 'rfc', '--minimise', '0'], tmp.path('rfc.json'))
    expect(r.status).toBe(3)
    expect(r.report.semantics).toBe('rfc')
    expect(r.report.disagreements.map((d) => d.standard)).toEqual(Array(4).fill('rfc-differs'))
    expect(r.report.totals).toMatchObject({ agreed: 145, rfcAgreed: 141, disagreements: 4 })
    expect(r.stdout).toMatch(/^Result: 97\.24% agreement with RFC 9309 on verdicts and lines .*; the reference: 100\.00% \(100\.00%\): failed/m)
    expect(r.stdout).toContain('RFC 9309:       allowed by line 3: Allow: /foo/bar/ツ  [rfc-differs]'.replace('ツ', '%E3%83%84'))
    // Without the cases where the RFC answers otherwise, the reference's answers are the RFC's.
    const rest = await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH, '--semantics', 'rfc', '--category', '!rfc-differs'], tmp.path('rfc-rest.json'))
    expect(rest.status).toBe(0)
    expect(rest.report.totals.cases).toBe(141)
  })

  it('--category takes exclusions: !google-specific leaves those cases out, in every set', async () => {
    const all = await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH], tmp.path('cat-all.json'))
    const google = all.report.categories.find((c) => c.id === 'google-specific')!.cases
    expect(google).toBe(22)
    const without = await compareWithJson(['--cases', 'unit', '--batch', SELF_BATCH, '--category', '!google-specific'], tmp.path('cat-not.json'))
    expect(without.report.totals.cases).toBe(145 - google)
    expect(without.report.cases.every((c) => !c.categories.includes('google-specific'))).toBe(true)
    const both = await compareWithJson(['--cases', 'corpus', '--count', '500', '--batch', SELF_BATCH, '--category', 'wildcard,!ua-product-token'], tmp.path('cat-both.json'))
    expect(both.report.cases.every((c) => c.categories.includes('wildcard') && !c.categories.includes('ua-product-token'))).toBe(true)
    expect(both.report.totals.cases).toBeGreaterThan(10)
    for (const bad of ['!nope', '!', 'wildcard,!']) {
      const r = await run(['compare', '--cases', 'unit', '--batch', SELF_BATCH, '--category', bad])
      expect(r.status, bad).toBe(2)
    }
  })
})

describe('--urls reads what it is given', () => {
  const dir = (): string => {
    const d = tmp.path('urls-robots')
    mkdirSync(d, { recursive: true })
    writeFileSync(join(d, 'example.com'), 'User-agent: *\nDisallow: /private\n')
    writeFileSync(join(d, 'example.org'), 'User-agent: *\nAllow: /\n')
    return d
  }

  it('a TSV is refused without --urls-field, naming the field that holds URLs; with it, its URLs are used and the header named', async () => {
    const robots = dir()
    const tsv = tmp.path('paired.tsv')
    writeFileSync(tsv, 'host\trobots_file\turl\n' + Array.from({ length: 40 }, (_, i) => `example.com\tx\thttps://example.com/private/p${i}`).join('\n') + '\n')
    const refused = await run(['compare', '--cases', 'corpus', '--robots-dir', robots, '--urls', tsv, '--batch', SELF_BATCH])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/--urls: 41 lines of 41 lines of '.*paired\.tsv' are not a URL .*; it reads as TSV and field 3 holds URLs: give --urls-field 3/)
    const out = tmp.path('urls.jsonl')
    const ok = await run(['compare', '--cases', 'corpus', '--robots-dir', robots, '--urls', tsv, '--urls-field', '3', '--count', '200', '--export', out])
    expect(ok.status).toBe(0)
    expect(ok.stderr).toContain(`--urls: 1 line of 'paired.tsv' is not a URL, skipped: line 1 ("host\\trobots_file\\turl")`)
    const urls = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { url: string }).url)
    expect(urls.filter((u) => /^https:\/\/example\.com\/private\/p\d+$/.test(u)).length).toBeGreaterThan(20)
  })

  it('a CSV field with quotes; a list of mostly non-URLs refused; a list with no URL on the folder\'s hosts refused', async () => {
    const robots = dir()
    const csv = tmp.path('urls.csv')
    writeFileSync(csv, 'url,n\n' + Array.from({ length: 30 }, (_, i) => `"https://example.org/a?x=1,${i}",${i}`).join('\n') + '\n')
    const out = tmp.path('csv.jsonl')
    const ok = await run(['compare', '--cases', 'corpus', '--robots-dir', robots, '--urls', csv, '--urls-field', '1', '--count', '100', '--export', out, '-q'])
    expect(ok.status, ok.stderr).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('"url":"https://example.org/a?x=1,')
    const junk = tmp.path('junk.txt')
    writeFileSync(junk, 'hello\nworld\nhttps://example.com/a\nfoo bar\n')
    const bad = await run(['compare', '--cases', 'corpus', '--robots-dir', robots, '--urls', junk, '--export', tmp.path('x.jsonl')])
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/--urls: 3 lines of 4 lines of '.*junk\.txt' are not a URL .*line 1: "hello"/)
    const other = tmp.path('other.txt')
    writeFileSync(other, 'https://elsewhere.net/a\nhttps://elsewhere.net/b\n')
    const none = await run(['compare', '--cases', 'corpus', '--robots-dir', robots, '--urls', other, '--export', tmp.path('y.jsonl')])
    expect(none.status).toBe(1)
    expect(none.stderr).toMatch(/--urls: none of the 2 URLs of '.*other\.txt' is on a host of --robots-dir/)
    const field = await run(['compare', '--cases', 'corpus', '--urls-field', '2', '--export', tmp.path('z.jsonl')])
    expect(field.status).toBe(2)
    expect(field.stderr).toMatch(/option '--urls-field' needs --urls/)
  })
})

describe('a failing --cmd case keeps its evidence', () => {
  it('exit status, stdout and stderr in the terminal, JSON, CSV, JUnit and HTML; a notice before minimisation starts processes', async () => {
    // Disallows everything, saying so on stdout and stderr.
    const cmd = `sh -c 'echo "verdict for $1"; echo "trace: $2" >&2; exit 1' tool %url% %user-agent%`
    const out = { csv: tmp.path('ev.csv'), junit: tmp.path('ev.xml'), html: tmp.path('ev.html') }
    const r = await compareWithJson(
      ['--cases', 'unit', '--count', '12', '--seed', '2', '--cmd', cmd, '--minimise', '2', '--minimise-calls', '60', '--csv', out.csv, '--junit', out.junit, '--html', out.html],
      tmp.path('ev.json'),
    )
    expect(r.status).toBe(3)
    const d = r.report.disagreements[0]
    expect(d.evidence).toMatchObject({ status: 1, signal: null, stdout: `verdict for ${d.url}\n`, stderr: expect.stringMatching(/^trace: /) })
    const c = r.report.cases.find((x) => x.id === d.id)!
    expect(c.evidence).toEqual(d.evidence)
    expect(r.stdout).toContain('    exit status: 1')
    expect(r.stdout).toContain(`    stdout: verdict for ${d.url}`)
    const rows = parseCsv(readFileSync(out.csv, 'utf8'))
    const row = rows.find((x) => x[0] === d.id)!
    // CSV fields write a line break as \x0a (lossless escapes, as every CSV of the tools).
    expect(row.slice(-3)).toEqual(['1', `verdict for ${d.url}\\x0a`, d.evidence!.stderr!.replace(/\n/g, '\\x0a')])
    const tc = parseXml(readFileSync(out.junit, 'utf8')).children.flatMap((s) => s.children).find((t) => t.attributes.name === d.id)!
    expect(tc.children.find((x) => x.name === 'system-out')!.text).toBe(`stdout:\nverdict for ${d.url}\n`)
    expect(tc.children.find((x) => x.name === 'system-err')!.text).toMatch(/^exit status 1\nstderr:\ntrace: /)
    expect(readFileSync(out.html, 'utf8')).toContain('<pre class="evidence">exit status: 1')
    // Minimising through --cmd starts a process per try: said before it starts.
    expect(r.stderr).toContain('note: minimising 2 disagreements through --cmd: up to 120 more processes (--minimise N disagreements, --minimise-calls N each; --minimise 0 skips it)')
  })
})

describe('no process outlives its case', () => {
  /** A batch adapter that first leaves `sleep 300` in the background (holding its stdout), recording its pid and the group's. */
  function leavesSleep(name: string, then: string): { command: string; pids: () => { sleep: number; group: number } } {
    const file = tmp.path(`${name}.pids`)
    const command = `sleep 300 & echo "$! $$" > ${file}; ${then}`
    return {
      command,
      pids: () => {
        const [sleep, group] = readFileSync(file, 'utf8').trim().split(' ').map(Number)
        return { sleep, group }
      },
    }
  }

  it('an adapter that leaves a background process: the run ends with its cases, and nothing it started is alive afterwards', async () => {
    const a = leavesSleep('bg', `exec ${SELF_BATCH}`)
    const t0 = performance.now()
    const r = await compareWithJson(['--cases', 'unit', '--batch', a.command], tmp.path('bg.json'))
    expect(r.status).toBe(0)
    // Far below the sleep's 300 s (a bound a busy machine keeps).
    expect(performance.now() - t0).toBeLessThan(120_000)
    const { sleep, group } = a.pids()
    expect(await waitGone(sleep)).toBe(true)
    expect(groupMembers(group)).toEqual([])
  })

  it('a protocol error: the reports are written and compare exits at once, the group killed', async () => {
    const a = leavesSleep('garbage', `${NODE} -e "process.stdin.once('data', () => console.log('not json'))"`)
    const t0 = performance.now()
    const r = await compareWithJson(['--cases', 'unit', '--batch', a.command], tmp.path('garbage.json'))
    expect(r.status).toBe(4)
    expect(r.report.failure!.message).toMatch(/is not JSON/)
    expect(performance.now() - t0).toBeLessThan(120_000)
    const { sleep, group } = a.pids()
    expect(await waitGone(sleep)).toBe(true)
    expect(groupMembers(group)).toEqual([])
  })

  it('an interrupt kills the adapter\'s whole group', async () => {
    const marker = tmp.path('int-marker')
    const a = leavesSleep('int', `${NODE} -e "process.stdin.once('data', () => require('fs').writeFileSync('${marker}', 'x'))"`)
    const child = spawn(NODE, [CLI, 'compare', '--cases', 'unit', '--batch', a.command, '--timeout', '600000', '--json', tmp.path('int.json')], { cwd: ROOT, stdio: 'ignore' })
    const status = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)))
    for (let i = 0; i < 1200 && !existsSync(marker); i++) await new Promise((ok) => setTimeout(ok, 50))
    expect(existsSync(marker)).toBe(true)
    const { sleep, group } = a.pids()
    expect(alive(sleep)).toBe(true)
    child.kill('SIGINT')
    expect(await status).toBe(130)
    expect(await waitGone(sleep)).toBe(true)
    expect(groupMembers(group)).toEqual([])
    const report = JSON.parse(readFileSync(tmp.path('int.json'), 'utf8')) as Report
    expect(report.failure!.message).toBe('interrupted by SIGINT')
  })

  it('--cmd: each case\'s background process ends with it; --timeout bounds a case', async () => {
    const pids = tmp.path('cmd-bg.pids')
    const cmd = `sh -c 'sleep 300 & echo $! >> ${pids}; exit 0'`
    const t0 = performance.now()
    const r = await compareWithJson(['--cases', 'unit', '--count', '4', '--cmd', cmd, '--minimise', '0'], tmp.path('cmd-bg.json'))
    expect(r.report.totals.errors).toBe(0)
    expect(performance.now() - t0).toBeLessThan(120_000)
    const sleeps = readFileSync(pids, 'utf8').trim().split('\n').map(Number)
    expect(sleeps.length).toBe(4 + 3) // the cases and the three start-up runs
    for (const p of sleeps) expect(await waitGone(p)).toBe(true)
    const slow = await compareWithJson(['--cases', 'unit', '--count', '2', '--cmd', `sh -c 'sleep 300'`, '--timeout', '1000', '--minimise', '0'], tmp.path('cmd-slow.json'))
    expect(slow.report.cases.map((c) => c.answer.error)).toEqual(Array(2).fill('timed out after 1000 ms (--timeout): killed'))
  }, 300_000)
})

describe('the manual', () => {
  it.each(['docs/compare.md', 'docs/compare-reference.md', 'docs/compare-leaderboard.md'])('%s is at most 20 KB', (page) => {
    expect(readFileSync(resolve(ROOT, page)).length).toBeLessThanOrEqual(20 * 1024)
  })
})
