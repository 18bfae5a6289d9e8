// W3 parse: parse all 6,817 robots.txt files of ../shared/corpus/robots
// (every source; FEATURES.tsv and SOURCES.tsv skipped), measured with
// tinybench (Bench with `iterations` and `time` set; one task iteration =
// one pass over every file). Reported: tinybench's median latency (p50) per
// pass → MB/s (MB = 10^6 bytes).
//
//   node bench/w3-parse.mjs [--iterations N] [--quick] [--json FILE]
//
// Tasks:
// - ours, bytes:         parseRobots(Uint8Array)  (the body as served)
// - ours, strings:       parseRobots(string)      (UTF-8 decoded beforehand)
// - robots-parser:       robotsParser('http://<host>/robots.txt', string)
// Throughput is computed over the bytes of all files. Ours stops reading at
// the 500 KiB parsing limit (RFC 9309 §2.5), robots-parser reads everything:
// six files are longer, so ours' MB/s is also given over the bytes it
// actually read (bytesRead; the lower, conservative figure, and the one the
// goal is checked against).
import { parseRobots } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { Bench } from 'tinybench'
import { describeCorpus, loadAllRobots, robotsUrlFor } from './lib/corpus.mjs'
import { goal, ms, parseArgs, printHeader, ratio, table, writeJson } from './lib/stats.mjs'

const GOAL = 200 // MB/s

const opts = parseArgs(process.argv.slice(2), { iterations: 10 })
const iterations = opts.quick ? 2 : opts.iterations
const corpus = loadAllRobots(opts.quick ? { limit: 500 } : {})
const files = corpus.files.map((f) => ({ ...f, url: robotsUrlFor(f.host) }))
const totalBytes = corpus.totalBytes
let readBytes = 0
for (const f of files) readBytes += parseRobots(f.bytes).bytesRead

const machine = printHeader('W3 parse: all corpus files', {
  corpus: describeCorpus(corpus.info),
  workload: `${files.length} files, ${(totalBytes / 1e6).toFixed(2)} MB (ours reads ${(readBytes / 1e6).toFixed(2)} MB: 500 KiB limit); tinybench, ${iterations} iterations per task (median)`,
})

let sink = 0
const bench = new Bench({ name: 'W3 parse', iterations, time: 1, warmup: true, warmupIterations: 1, warmupTime: 1, throws: true })
bench
  .add('robots-automaton parseRobots(bytes)', () => {
    for (let i = 0; i < files.length; i++) sink += parseRobots(files[i].bytes).lineCount
  })
  .add('robots-automaton parseRobots(string)', () => {
    for (let i = 0; i < files.length; i++) sink += parseRobots(files[i].text).lineCount
  })
  .add('robots-parser(url, string)', () => {
    for (let i = 0; i < files.length; i++) sink += robotsParser(files[i].url, files[i].text)._sitemaps.length
  })
await bench.run()

const results = {}
const rows = []
for (const task of bench.tasks) {
  const r = task.result
  const lat = r.latency
  const mbps = totalBytes / 1e6 / (lat.p50 / 1000)
  const ours = task.name.startsWith('robots-automaton')
  const mbpsRead = ours ? readBytes / 1e6 / (lat.p50 / 1000) : mbps
  results[task.name] = { medianMs: lat.p50, minMs: lat.min, maxMs: lat.max, samples: lat.samples?.length ?? r.runs ?? iterations, mbps, mbpsRead }
  rows.push([task.name, ms(lat.p50), `${ms(lat.min)} – ${ms(lat.max)}`, mbps.toFixed(1), ours ? mbpsRead.toFixed(1) : '', ''])
}
const theirs = results['robots-parser(url, string)']
for (const row of rows) row[5] = ratio(theirs.medianMs / results[row[0]].medianMs)
console.log(table(['task', 'median pass', 'min – max', 'MB/s (all bytes)', 'MB/s (bytes read)', 'vs robots-parser'], rows))
console.log('')
const headline = results['robots-automaton parseRobots(bytes)'].mbpsRead
console.log(`ours from bytes: ${headline.toFixed(1)} MB/s over bytes read   goal ≥ ${GOAL} MB/s: ${goal(headline >= GOAL)}`)
if (sink === 0) console.log('(sink 0)')

writeJson(opts.json, {
  workload: 'w3-parse',
  machine,
  corpus: corpus.info,
  files: files.length,
  totalBytes,
  readBytes,
  iterations,
  tasks: results,
  oursBytesMBps: headline,
  oursStringMBps: results['robots-automaton parseRobots(string)'].mbpsRead,
  robotsParserMBps: theirs.mbps,
  goal: GOAL,
  met: headline >= GOAL,
})
