// Where `filter`'s many-host time goes: the kasztp list (bench/cli-filter.mjs's
// kasztp workload, 1.2 M lines over 22,154 hosts) judged by one robots.txt
// and by --robots-dir, --jobs 1, each in a fresh process ("cold") and in a
// process whose library code first ran the same per-host path (parse,
// agents(), checks, diagnostics) over the directory's files that the list's
// hosts do not use ("warmed": bench/lib/filter-warm.mjs). CPU is counted
// from the CLI's start (after the warm-up), whole process and by thread
// (main; V8's workers, which compile optimised code and help the garbage
// collector; libuv). The cold gap less the warmed gap is what warming up the
// parser, the rule selection and the matchers costs a fresh process; the
// warmed gap is the per-host work itself.
//
//   node bench/filter-warmup.mjs [--runs N] [--cli PATH]   (build first: npm run build; data: node bench/cli-filter.mjs --only kasztp --prepare)
//
// --runs: interleaved runs of each case (default 5), medians reported.
// --cli: another build's dist/cli.js (its index.js is warmed).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadavg } from 'node:os'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const option = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt)
const CLI = resolve(option('--cli', join(ROOT, 'dist/cli.js')))
const RUNS = Number(option('--runs', 5))
const LIST = join(ROOT, 'bench/data/kasztp-x25.txt')
const ROBOTS_DIR = join(ROOT, '../shared/corpus/robots/anubhavp28-benchmark')
const ONE = join(ROBOTS_DIR, 'www.nytimes.com')
const WARM = join(ROOT, 'bench/lib/filter-warm.mjs')
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`)
if (!existsSync(LIST)) throw new Error(`${LIST} is missing: run node bench/cli-filter.mjs --only kasztp --prepare`)

const cases = [
  ['one robots.txt, cold', ['--robots', ONE], false],
  ['--robots-dir, cold', ['--robots-dir', ROBOTS_DIR], false],
  ['one robots.txt, warmed', ['--robots', ONE], true],
  ['--robots-dir, warmed', ['--robots-dir', ROBOTS_DIR], true],
]
const results = new Map(cases.map(([label]) => [label, []]))
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ')
console.log(`node ${process.version}, ${CLI}, ${RUNS} runs each (interleaved), CPU seconds after the warm-up; load average before: ${load()}`)
for (let r = 0; r < RUNS; r++) {
  for (const [label, rules, warm] of cases) {
    const env = { ...process.env, FILTER_WARM: warm ? '1' : '0', FILTER_WARM_DIST: dirname(CLI), FILTER_WARM_DIR: ROBOTS_DIR, FILTER_WARM_LIST: LIST }
    const run = spawnSync(process.execPath, ['--import', WARM, CLI, 'filter', ...rules, '--agent', 'Googlebot', '-q', '--jobs', '1', LIST], { env, maxBuffer: 1 << 30, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`${label}: exit ${run.status}: ${run.stderr}`)
    const line = run.stderr.split('\n').find((l) => l.startsWith('FILTER_WARM '))
    results.get(label).push(JSON.parse(line.slice('FILTER_WARM '.length)))
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const row = (label) => {
  const rs = results.get(label)
  const main = median(rs.map((x) => x.threads.main ?? NaN))
  const others = median(rs.map((x) => Object.entries(x.threads).reduce((s, [k, v]) => (k === 'main' ? s : s + v), 0)))
  return { cpu: median(rs.map((x) => x.cpu)), main, others, warmed: rs[0].warmed }
}
console.log(`\n${'case'.padEnd(26)} ${'CPU s'.padStart(7)} ${'main'.padStart(6)} ${'others'.padStart(7)}  runs`)
for (const [label] of cases) {
  const r = row(label)
  const runs = results.get(label).map((x) => x.cpu.toFixed(3)).join(' ')
  console.log(`${label.padEnd(26)} ${r.cpu.toFixed(3).padStart(7)} ${r.main.toFixed(2).padStart(6)} ${r.others.toFixed(2).padStart(7)}  [${runs}]${r.warmed ? `  (warmed on ${r.warmed} files)` : ''}`)
}
const ratio = (a, b) => (row(a).cpu / row(b).cpu).toFixed(2)
console.log(`\nmany hosts ÷ one robots.txt (speed, CPU): cold ${ratio('one robots.txt, cold', '--robots-dir, cold')}, warmed ${ratio('one robots.txt, warmed', '--robots-dir, warmed')}`)
const gap = (w) => row(`--robots-dir, ${w}`).cpu - row(`one robots.txt, ${w}`).cpu
console.log(`extra CPU of many hosts: cold ${gap('cold').toFixed(3)} s, warmed ${gap('warmed').toFixed(3)} s; warm-up of the library's code ${(gap('cold') - gap('warmed')).toFixed(3)} s`)
console.log(`load average after: ${load()}`)
