// Runs every benchmark workload, each in its own child process (W4 with
// --expose-gc), prints a markdown summary to stdout and writes
// bench/out/results.json (the machine, every workload's full results and
// output; untracked and gitignored: the record is bench/RESULTS.md).
//
//   npm run bench                      (= node bench/run-all.mjs; build first: npm run build)
//   node bench/run-all.mjs [--quick] [--only w1,w2,w2b,w3,w4,worst,compat,store] [--out FILE]
//
// `store` (RobotsStore at 1,000,000 origins) runs only when --only names it.
// W3 also measures a native google/robotstxt parse-bench when one built
// locally is named (not part of this repository):
//   NATIVE_PARSE_BENCH=/path/to/parse-bench npm run bench
//
// The workloads' own reports go to stderr as they run, so
// `npm run bench > summary.md` keeps just the summary. --quick passes
// --quick to every script (tiny counts: a smoke run, figures meaningless).
// Figures are medians of several runs; run on a quiet machine.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ROOT, corpusInfo, describeCorpus } from './lib/corpus.mjs'
import { distState } from '../scripts/dist-state.mjs'
import { ensureDirFor, RESULTS_JSON } from './lib/output.mjs'
import { bytes, machine as machineInfo, ms, parseArgs, ratio, si, table, writeJson } from './lib/stats.mjs'

const WORKLOADS = [
  { id: 'w1', script: 'w1-frontier.mjs', title: 'W1 frontier' },
  { id: 'w2', script: 'w2-match.mjs', title: 'W2 match-only' },
  { id: 'w2b', script: 'w2-benchmarkjs.mjs', title: 'W2 benchmark.js' },
  { id: 'w3', script: 'w3-parse.mjs', title: 'W3 parse' },
  { id: 'w4', script: 'w4-memory.mjs', title: 'W4 memory', nodeArgs: ['--expose-gc'] },
  { id: 'worst', script: 'worst-case.mjs', title: 'Worst case' },
  { id: 'compat', script: 'compat.mjs', title: 'Compat (robots-parser API)' },
  // Minutes and about 4 GB of memory at 1,000,000 origins: only when asked for (--only store).
  { id: 'store', script: 'store.mjs', title: 'Store at 1,000,000 origins', nodeArgs: ['--expose-gc', '--max-old-space-size=8192'], optIn: true },
]

const opts = parseArgs(process.argv.slice(2), { out: RESULTS_JSON })
const only = typeof opts.only === 'string' ? new Set(opts.only.split(',')) : null
const selected = WORKLOADS.filter((w) => (only ? only.has(w.id) : !w.optIn))
const dist = distState(ROOT)
if (!dist.fresh) {
  console.error(`${dist.reason}: run \`npm run build\` first (benchmarks measure dist/)`)
  process.exit(2)
}

const machine = machineInfo()
const tmp = mkdtempSync(join(tmpdir(), 'robots-bench-'))
const started = Date.now()
const results = {}
const logs = {}
const failures = []

function run(w) {
  const json = join(tmp, `${w.id}.json`)
  const args = [...(w.nodeArgs ?? []), join(ROOT, 'bench', w.script), '--json', json, ...(opts.quick ? ['--quick'] : [])]
  return new Promise((resolve) => {
    const t0 = Date.now()
    process.stderr.write(`\n=== ${w.title}: node ${args.join(' ')}\n`)
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      process.stderr.write(d)
    })
    child.stderr.on('data', (d) => process.stderr.write(d))
    child.on('close', (code) => {
      logs[w.id] = out
      const seconds = (Date.now() - t0) / 1000
      if (code === 0 && existsSync(json)) results[w.id] = { ...JSON.parse(readFileSync(json, 'utf8')), seconds }
      else failures.push(`${w.title} (exit ${code})`)
      resolve()
    })
  })
}

for (const w of selected) await run(w)
rmSync(tmp, { recursive: true, force: true })
const totalSeconds = (Date.now() - started) / 1000

// ---- summary ----
const status = (ok) => (ok ? '✅ met' : '❌ not met')
const rows = []
const r2 = results.w2
if (r2) {
  const f = r2.firstUse
  const perSec = (msFive) => si((r2.urls * 5 / msFive) * 1000) + 'URL/s'
  rows.push(['W2 match-only from first use: fresh matchers, passes 3–7, isAllowed(string)', 'URLs/s (median of rounds)', perSec(f.oursMs), perSec(f.theirsMs), ratio(f.ratio), `≥ ${r2.goal}×`, status(f.ratio >= r2.goal)])
  rows.push(['W2 cold tier against hot tier, same URLs', 'CPU per pass (median)', ms(r2.tierPass.cold) + ' cold', ms(r2.tierPass.hot) + ' hot', r2.tierPass.coldOverHot.toFixed(2) + ' (cold ÷ hot)', `≤ ${r2.tierPass.goal}`, status(r2.tierPass.met)])
  rows.push(['W2 match-only, steady state, isAllowed(string)', 'URLs/s (median)', si(r2.oursString.urlsPerSec) + 'URL/s', si(r2.robotsParser.urlsPerSec) + 'URL/s', ratio(r2.ratioString), `≥ ${r2.goal}×`, status(r2.ratioString >= r2.goal)])
  rows.push(['W2 match-only, steady state, matchLines(bytes)', 'URLs/s (median)', si(r2.oursMatchLines.urlsPerSec) + 'URL/s', '(strings, as above)', ratio(r2.ratioMatchLines), '', ''])
}
const r1 = results.w1
if (r1) {
  rows.push(['W1 frontier: parse + compile + check, per host', 'URLs/s (median pass)', si(r1.ours.urlsPerSec) + 'URL/s', si(r1.robotsParser.urlsPerSec) + 'URL/s', ratio(r1.ratio), `≥ ${r1.goal}×`, status(r1.met)])
  rows.push(['W1 frontier', 'hosts/s', si(r1.ours.hostsPerSec) + 'hosts/s', si(r1.robotsParser.hostsPerSec) + 'hosts/s', ratio(r1.ratio), '', ''])
}
const r2b = results.w2b
if (r2b) {
  rows.push([`W2 benchmark.js, ${r2b.pairs} pairs`, 'URLs/s (hz × pairs)', `${si(r2b.ours.urlsPerSec)}URL/s ±${r2b.ours.rme.toFixed(1)}%`, `${si(r2b.robotsParser.urlsPerSec)}URL/s ±${r2b.robotsParser.rme.toFixed(1)}%`, ratio(r2b.ratio), '', ''])
}
const r3 = results.w3
if (r3) {
  rows.push([`W3 parse, ${r3.files} files, bytes`, 'MB/s (CPU, median)', r3.oursBytesMBps.toFixed(1) + ' MB/s', r3.robotsParserMBps.toFixed(1) + ' MB/s', ratio(r3.vsRobotsParser), `≥ ${r3.goal}×`, status(r3.met)])
  rows.push(['W3 parse, strings', 'MB/s (CPU, median)', r3.oursStringMBps.toFixed(1) + ' MB/s', r3.robotsParserMBps.toFixed(1) + ' MB/s', ratio(r3.tasks['robots-automaton parseRobots(string)'].vsRobotsParser), '', ''])
  if (r3.native) rows.push(['W3 parse vs google/robotstxt native', 'MB/s (CPU)', r3.oursBytesMBps.toFixed(1) + ' MB/s', r3.native.mbps.toFixed(1) + ' MB/s (native)', r3.native.oursOverNative.toFixed(2) + '×', '≥ 1.0×', status(r3.native.oursOverNative >= 1)])
}
const r4 = results.w4
if (r4) {
  const g = r4.goals
  rows.push(['W4 memory per parsed file', 'median retained bytes', bytes(r4.medianPerFile.ours), bytes(r4.medianPerFile.robotsParser), r4.fraction.toFixed(2), `≤ ${g.median[0]}`, status(r4.fraction <= g.median[0])])
  rows.push(['W4 all corpus files held at once', 'mean retained bytes', bytes(r4.bulkMeanPerFile.ours), bytes(r4.bulkMeanPerFile.robotsParser), r4.fractionAll.toFixed(2), `≤ ${g.allHeld[0]}`, status(r4.fractionAll <= g.allHeld[0])])
  rows.push(["W4 parsed + agent('Googlebot') after its URLs", 'median retained bytes', bytes(r4.medianPerHostChecked.ours), bytes(r4.medianPerHostChecked.robotsParser), r4.fractionChecked.toFixed(2), `≤ ${g.withMatcher[0]}`, status(r4.fractionChecked <= g.withMatcher[0])])
  rows.push(['W4 robots.memoryUsage() (library estimate)', 'median', `${bytes(r4.memoryUsageMedian.parsed)} / ${bytes(r4.memoryUsageMedian.checked)} with matcher`, '', '', '', ''])
}
const rs = results.store
if (rs) {
  rows.push([`Store, ${rs.origins.toLocaleString('en')} origins`, 'retained bytes per origin', bytes(rs.retainedPerOrigin), bytes(rs.robotsParserPerOrigin), (rs.retainedPerOrigin / rs.robotsParserPerOrigin).toFixed(2), '≤ 2.0 GB at 1 M', status(rs.met)])
  rows.push(['Store: isAllowed cold / hot', 'URLs/s (CPU)', `${si(rs.cold.perSecond)} / ${si(rs.hot.perSecond)}`, si(rs.robotsParserPerSecond), `${(rs.cold.perSecond / rs.robotsParserPerSecond).toFixed(2)}× / ${(rs.hot.perSecond / rs.robotsParserPerSecond).toFixed(2)}×`, '', ''])
}
const rc = results.compat
if (rc) {
  rows.push(['Compat: robots-parser API, isAllowed(url, token)', 'URLs/s (median)', si(rc.oursMatch.urlsPerSec) + 'URL/s', si(rc.theirsMatch.urlsPerSec) + 'URL/s', ratio(rc.ratioMatch), '', ''])
  rows.push(['Compat: parse + check per origin', 'URLs/s (median)', si(rc.oursFrontier.urlsPerSec) + 'URL/s', si(rc.theirsFrontier.urlsPerSec) + 'URL/s', ratio(rc.ratioFrontier), '', ''])
}

const out = []
out.push('# robots-automaton benchmarks')
out.push('')
out.push(`- machine: ${machine.cpu} (${machine.cores} cores, ${machine.memory}), node ${machine.node} (V8 ${machine.v8}), ${machine.os}`)
out.push(`- load average at start: ${machine.loadavg}; date: ${machine.date}`)
out.push(`- corpus: ${describeCorpus(corpusInfo())}`)
out.push(`- command: node bench/run-all.mjs${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}; total ${totalSeconds.toFixed(0)} s${opts.quick ? ' — QUICK SMOKE RUN: figures are not meaningful' : ''}`)
out.push('')
out.push(table(['workload', 'metric', 'robots-automaton', 'robots-parser', 'ratio', 'goal', 'status'], rows))
if (r2?.thrashing?.length) {
  out.push('')
  out.push(`W2 note: ${r2.thrashing.map((x) => `${x.host} (${x.urls} URLs)`).join(', ')} kept flushing its DFA state cache during the timed passes (working set over the default matcher budget), rebuilding states on every pass; see the W2 output.`)
}
const rw = results.worst
if (rw) {
  out.push('')
  out.push('## Worst case (pathological files; fresh random URLs, median per URL)')
  out.push('')
  const wrows = rw.results.map((r) => {
    const [a, b] = rw.urlLengths.map((l) => r.perLength[l])
    return [
      r.file,
      r.budget,
      `${ms(r.agentMs)} + ${ms(r.firstUseMs)}`,
      `${ms(a.medianMs)} (${a.nsPerByte.toFixed(0)} ns/B)`,
      `${ms(b.medianMs)} (${b.nsPerByte.toFixed(0)} ns/B)`,
      r.ratio64to8.toFixed(1) + '×',
      bytes(r.memoryUsage),
      r.flushes,
    ]
  })
  out.push(table(['file', 'budget', 'compile (agent + first use)', '8 KiB URL', '64 KiB URL', '64K/8K (8× = linear)', 'memoryUsage()', 'flushes'], wrows))
}
if (failures.length) {
  out.push('')
  out.push(`**Failed:** ${failures.join(', ')} (see the output above / the logs in ${relative(ROOT, opts.out)})`)
}
out.push('')
out.push(`Per-workload detail: ${relative(ROOT, opts.out)} (and each script's own output, on stderr above). Run one workload alone with \`node bench/<script>.mjs\`.`)
console.log(out.join('\n'))

ensureDirFor(opts.out)
writeJson(opts.out, { machine, corpus: corpusInfo(), quick: opts.quick, totalSeconds, failures, results, logs })
process.stderr.write(`\nwrote ${opts.out}\n`)
process.exitCode = failures.length ? 1 : 0
