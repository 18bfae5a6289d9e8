// W3 parse: parse all 6,817 robots.txt files of ../shared/corpus/robots
// (every source; FEATURES.tsv and SOURCES.tsv skipped). One pass = every file
// parsed once.
//
//   node bench/w3-parse.mjs [--rounds N] [--quick] [--native PATH|none] [--json FILE] [--profile N]
//   NATIVE_PARSE_BENCH=/path/to/parse-bench node bench/w3-parse.mjs
//
// Tasks:
// - ours, bytes:         parseRobots(Uint8Array)  (the body as served)
// - ours, strings:       parseRobots(string)      (UTF-8 decoded beforehand)
// - robots-parser:       robotsParser('http://<host>/robots.txt', string)
//
// Method (the machine is shared: other processes take the CPU at random):
// the tasks run in rounds, one pass each per round, in an order that
// rotates from round to round, after two unmeasured warm-up rounds. Each
// pass is timed by this process's CPU time (process.cpuUsage(): the time
// other processes hold the CPU is left out) and by wall time. Reported per
// task: the median CPU time per pass → MB/s (MB = 10^6 bytes); the ratio to
// robots-parser is the median of the per-round ratios (each round's passes
// ran seconds apart, under the same load).
//
// Ours stops reading at the 500 KiB parsing limit (RFC 9309 §2.5),
// robots-parser reads everything: six files are longer, so ours' MB/s is
// also given over the bytes it actually read (bytesRead; the lower,
// conservative figure).
//
// The native parser (optional; not part of this repository): a
// google/robotstxt `parse-bench` built where it is measured, given by
// --native PATH or NATIVE_PARSE_BENCH, called as `PATH --rounds R
// --skip-tsv <corpus>/robots` (ParseRobotsTxt over the same files with a
// counting handler). It is measured by CPU time too, before, between and
// after our rounds: the CPU time of a run of 1 + K rounds minus that of a run
// of 1 round (the file loading cancels out), divided by K, read from the
// shell's `times` (bash); its MB/s is compared with ours over all bytes.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseRobots } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { describeCorpus, loadAllRobots, robotsUrlFor } from './lib/corpus.mjs'
import { goal, median, ms, parseArgs, printHeader, ratio, table, writeJson } from './lib/stats.mjs'

/** Goals of issue 21: ≥ 3.5× robots-parser, and ≥ 1.0× the native parser (when it is given). */
const GOAL_RATIO = 3.5

const opts = parseArgs(process.argv.slice(2), { rounds: 15 })
const rounds = opts.quick ? 3 : Number(opts.rounds)
const nativePath = opts.native === 'none' ? null : (opts.native ?? process.env.NATIVE_PARSE_BENCH ?? null)
const corpus = loadAllRobots(opts.quick ? { limit: 500 } : {})
const files = corpus.files.map((f) => ({ ...f, url: robotsUrlFor(f.host) }))
const totalBytes = corpus.totalBytes
let readBytes = 0
for (const f of files) readBytes += parseRobots(f.bytes).bytesRead

const machine = printHeader('W3 parse: all corpus files', {
  corpus: describeCorpus(corpus.info),
  workload: `${files.length} files, ${(totalBytes / 1e6).toFixed(2)} MB (ours reads ${(readBytes / 1e6).toFixed(2)} MB: 500 KiB limit); ${rounds} interleaved rounds, CPU time per pass (median)`,
})

/** Rounds per native measurement (beyond the one that loads the files): about 150 MB parsed, so that the CPU clock's millisecond steps do not matter. */
const NATIVE_ROUNDS = Math.max(5, Math.ceil(150e6 / totalBytes))

/**
 * The directory the native parser reads: the corpus's, when every file is
 * loaded; else (--quick) a temporary one of links to exactly the files this
 * run parses, so that both sides are measured over the same bytes.
 */
const nativeDir = (() => {
  if (!nativePath) return null
  const all = loadAllRobots().files.length
  if (files.length === all) return join(corpus.info.root, 'robots')
  const dir = mkdtempSync(join(tmpdir(), 'w3-native-'))
  files.forEach((f, i) => symlinkSync(join(corpus.info.root, 'robots', f.file), join(dir, String(i))))
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
})()

/** CPU ms of one run of the native parse-bench with `rounds` rounds (its children's user + system time, from bash's `times`). */
function nativeRunMs(rounds) {
  const out = execFileSync('bash', ['-c', '"$0" "$@" > /dev/null; times', nativePath, '--rounds', String(rounds), '--skip-tsv', nativeDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const seconds = (t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t)
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN
  }
  const [user, system] = out.trim().split('\n')[1].trim().split(/\s+/).map(seconds)
  return (user + system) * 1000
}

/** The native parser's CPU MB/s over the corpus (one measurement; see the header), or null. */
function native() {
  if (!nativePath) return null
  try {
    const perRound = (nativeRunMs(1 + NATIVE_ROUNDS) - nativeRunMs(1)) / NATIVE_ROUNDS
    return perRound > 0 ? totalBytes / 1e6 / (perRound / 1000) : null
  } catch {
    return null
  }
}

let sink = 0
const TASKS = {
  'robots-automaton parseRobots(bytes)': () => {
    for (let i = 0; i < files.length; i++) sink += parseRobots(files[i].bytes).lineCount
  },
  'robots-automaton parseRobots(string)': () => {
    for (let i = 0; i < files.length; i++) sink += parseRobots(files[i].text).lineCount
  },
  'robots-parser(url, string)': () => {
    for (let i = 0; i < files.length; i++) sink += robotsParser(files[i].url, files[i].text)._sitemaps.length
  },
}
const names = Object.keys(TASKS)
// --profile N: N passes of parseRobots(bytes) alone, then exit (for `node --cpu-prof bench/w3-parse.mjs --native none --profile 30`).
if (typeof opts.profile === 'number') {
  for (let k = 0; k < opts.profile; k++) TASKS['robots-automaton parseRobots(bytes)']()
  process.exit(0)
}
const THEIRS = 'robots-parser(url, string)'

const nativeRuns = [native()]
const cpu = Object.fromEntries(names.map((n) => [n, []]))
const wall = Object.fromEntries(names.map((n) => [n, []]))
for (let r = -2; r < rounds; r++) {
  if (r === rounds >> 1) nativeRuns.push(native())
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + Math.max(r, 0)) % names.length]
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    TASKS[name]()
    const t1 = performance.now()
    const c = process.cpuUsage(c0)
    if (r >= 0) {
      cpu[name].push((c.user + c.system) / 1000)
      wall[name].push(t1 - t0)
    }
  }
}
nativeRuns.push(native())
const nativeMeasured = nativeRuns.filter((x) => x !== null)
const nativeMBps = nativeMeasured.length ? median(nativeMeasured) : null

const results = {}
const rows = []
for (const name of names) {
  const med = median(cpu[name])
  const ours = name.startsWith('robots-automaton')
  const mbps = totalBytes / 1e6 / (med / 1000)
  const mbpsRead = ours ? readBytes / 1e6 / (med / 1000) : mbps
  const perRound = cpu[THEIRS].map((t, i) => t / cpu[name][i])
  results[name] = {
    cpuMedianMs: med,
    cpuMinMs: Math.min(...cpu[name]),
    cpuMaxMs: Math.max(...cpu[name]),
    wallMedianMs: median(wall[name]),
    samples: cpu[name].length,
    mbps,
    mbpsRead,
    vsRobotsParser: median(perRound),
  }
  rows.push([name, ms(med), `${ms(Math.min(...cpu[name]))} – ${ms(Math.max(...cpu[name]))}`, ms(median(wall[name])), mbps.toFixed(1), ours ? mbpsRead.toFixed(1) : '', ratio(median(perRound))])
}
console.log(table(['task', 'CPU per pass (median)', 'min – max', 'wall (median)', 'MB/s (all bytes)', 'MB/s (bytes read)', 'vs robots-parser (median of rounds)'], rows))
console.log('')
const ours = results['robots-automaton parseRobots(bytes)']
const vs = ours.vsRobotsParser
console.log(`ours from bytes vs robots-parser: ${ratio(vs)}   goal ≥ ${GOAL_RATIO}×: ${goal(vs >= GOAL_RATIO)}`)
if (nativeMBps !== null) {
  console.log(
    `google/robotstxt native ParseRobotsTxt (${nativePath}, CPU, built locally): ${nativeMeasured.map((x) => x.toFixed(1)).join(' / ')} MB/s (before / between / after); ours (all bytes) / native = ${(ours.mbps / nativeMBps).toFixed(2)}   goal ≥ 1.0: ${goal(ours.mbps >= nativeMBps)}`,
  )
}
if (sink === 0) console.log('(sink 0)')

writeJson(opts.json, {
  workload: 'w3-parse',
  machine,
  corpus: corpus.info,
  files: files.length,
  totalBytes,
  readBytes,
  rounds,
  tasks: results,
  oursBytesMBps: ours.mbps,
  oursBytesMBpsRead: ours.mbpsRead,
  oursStringMBps: results['robots-automaton parseRobots(string)'].mbps,
  robotsParserMBps: results[THEIRS].mbps,
  vsRobotsParser: vs,
  native: nativeMBps === null ? null : { path: nativePath, runs: nativeMeasured, mbps: nativeMBps, oursOverNative: ours.mbps / nativeMBps },
  goal: GOAL_RATIO,
  met: vs >= GOAL_RATIO,
})
