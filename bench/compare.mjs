// `compare` at volume: a --cases corpus run of N cases (default 100,000)
// through --batch with the robots-parser example adapter, the goal being
// "under 60 s on this machine, excluding the adapter's own time".
//
//   node bench/compare.mjs [--count 100000] [--runs 3] [--quick] [--json FILE]
//
// Each run spawns `dist/cli.js compare` and measures its wall time. The
// adapter runs inside bench/lib/cpu-wrap.mjs, which reports the adapter
// process's own CPU time; compare's JSON report gives the harness's times:
// cases (reading the corpus, generating the cases, the oracle's answers and
// categories: wall), its CPU while the cases run (I/O, JSON, matching answers
// by id), minimisation (20 disagreements, 200 adapter calls at most each) and
// the report; and, for --batch, the harness's ceiling (a null adapter's
// cases/s through the same protocol on the first 20,000 cases, which the
// wall time includes). "Harness" below is the sum of those; "wall − adapter CPU" is the
// whole run with the adapter's CPU time taken out (both exclude the adapter's
// own time; the first also excludes node's start-up and waiting). A second
// configuration runs the same cases through --module (robots-parser in
// process) for comparison. Medians of --runs runs.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './lib/corpus.mjs'
import { median, parseArgs, printHeader, writeJson } from './lib/stats.mjs'

const opts = parseArgs(process.argv.slice(2), { count: 100_000, runs: 3 })
const count = opts.quick ? 2000 : opts.count
const runs = opts.quick ? 1 : opts.runs
const machine = printHeader('compare: corpus cases through the robots-parser batch adapter', { count, runs })
const tmp = mkdtempSync(join(tmpdir(), 'robots-bench-compare-'))
const cli = join(ROOT, 'dist/cli.js')

function once(adapterArgs, withCpu) {
  const json = join(tmp, 'report.json')
  const cpuFile = join(tmp, 'cpu.json')
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [cli, 'compare', '--cases', 'corpus', '--count', String(count), ...adapterArgs, '--json', json, '--show', '0'], {
    cwd: ROOT,
    env: { ...process.env, CPU_OUT: cpuFile },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  const wallMs = performance.now() - t0
  // 0: every case agrees, 3: some disagree; anything else is a failure of the run.
  if (r.status !== 0 && r.status !== 3) throw new Error(`compare failed (${r.status}): ${r.stderr}`)
  const report = JSON.parse(readFileSync(json, 'utf8'))
  const h = report.timings.harness
  const cpu = withCpu ? JSON.parse(readFileSync(cpuFile, 'utf8')) : undefined
  const adapterCpuMs = cpu ? (cpu.user + cpu.system) / 1000 : undefined
  return {
    wallMs,
    casesMs: h.casesMs,
    runCpuMs: h.runCpuMs,
    runWallMs: report.timings.runWallMs,
    minimiseMs: h.minimiseMs,
    reportMs: h.reportMs,
    harnessMs: h.casesMs + h.runCpuMs + h.minimiseMs + h.reportMs,
    adapterCpuMs,
    wallMinusAdapterMs: adapterCpuMs !== undefined ? wallMs - adapterCpuMs : undefined,
    casesPerSecond: report.timings.casesPerSecond,
    ceilingCasesPerSecond: report.timings.ceiling?.casesPerSecond,
    agreement: report.totals.agreement,
    disagreements: report.totals.disagreements,
  }
}

const configs = {
  batch: [['--batch', `${process.execPath} bench/lib/cpu-wrap.mjs examples/adapters/robots-parser-batch.mjs`], true],
  module: [['--module', 'examples/adapters/robots-parser-module.mjs'], false],
}
const results = {}
for (const [name, [args, withCpu]] of Object.entries(configs)) {
  const samples = []
  for (let i = 0; i < runs; i++) samples.push(once(args, withCpu))
  const med = (k) => (samples[0][k] === undefined ? undefined : median(samples.map((s) => s[k])))
  results[name] = Object.fromEntries(Object.keys(samples[0]).map((k) => [k, med(k)]))
  results[name].samples = samples
}
rmSync(tmp, { recursive: true, force: true })

const s = (ms) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`)
console.log('| adapter | wall | adapter CPU | wall − adapter CPU | harness: cases | run (CPU) | minimise | report | harness total | cases/s (run) | harness ceiling (cases/s) | agreement |')
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for (const [name, r] of Object.entries(results)) {
  console.log(
    `| ${name} | ${s(r.wallMs)} | ${s(r.adapterCpuMs)} | ${s(r.wallMinusAdapterMs)} | ${s(r.casesMs)} | ${s(r.runCpuMs)} | ${s(r.minimiseMs)} | ${s(r.reportMs)} | ` +
      `${s(r.harnessMs)} | ${Math.round(r.casesPerSecond).toLocaleString('en-US')} | ` +
      `${r.ceilingCasesPerSecond === undefined ? '-' : Math.round(r.ceilingCasesPerSecond).toLocaleString('en-US')} | ${r.agreement.toFixed(2)} % |`,
  )
}
const goal = results.batch.wallMinusAdapterMs < 60_000
console.log(`\ngoal (batch, ${count.toLocaleString('en-US')} cases, under 60 s excluding the adapter's own time): ${goal ? 'met' : 'not met'}`)
if (opts.json) writeJson(opts.json, { machine, count, runs, results })
