// W2 with a second harness: benchmark.js, ours.isAllowed against
// robots-parser.isAllowed on a fixed sample of corpus (host, URL) pairs
// (every k-th URL of ../shared/corpus/urls/paired.tsv, about 2,000 pairs),
// matchers parsed and compiled beforehand and warmed by one pass.
//
//   node bench/w2-benchmarkjs.mjs [--pairs N] [--max-time S] [--quick] [--json FILE]
//
// One benchmark.js operation = one pass over the whole sample, so
// URLs/s = hz × pairs; ratio = hz(ours) / hz(robots-parser). benchmark.js
// reports its own mean and relative margin of error (not a median): the
// figures come from a second, independent harness to cross-check W2.
import { createRequire } from 'node:module'
import { parseRobots } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { goal, parseArgs, printHeader, ratio, si, table, writeJson } from './lib/stats.mjs'

const require = createRequire(import.meta.url)
const Benchmark = require('benchmark')

const AGENT = 'Googlebot'
/** Goal of issue 21 (as W2): ≥ 30× robots-parser. */
const GOAL = 30
const opts = parseArgs(process.argv.slice(2), { pairs: 2000, maxTime: 5 })
const maxTime = opts.quick ? 0.5 : opts.maxTime
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})

// The fixed sample: every k-th URL in corpus order.
const step = Math.max(1, Math.floor(corpus.urlCount / opts.pairs))
const ourPairs = []
const theirPairs = []
let index = 0
for (const h of corpus.hosts) {
  const matcher = parseRobots(h.bytes).agent(AGENT)
  for (const o of h.origins) {
    const parser = robotsParser(o.robotsUrl, h.text)
    for (const url of o.urls) {
      if (index++ % step === 0) {
        ourPairs.push({ matcher, url })
        theirPairs.push({ parser, url })
      }
    }
  }
}
const n = ourPairs.length

function ours() {
  let allowed = 0
  for (let i = 0; i < ourPairs.length; i++) if (ourPairs[i].matcher.isAllowed(ourPairs[i].url)) allowed++
  return allowed
}
function theirs() {
  let allowed = 0
  for (let i = 0; i < theirPairs.length; i++) if (theirPairs[i].parser.isAllowed(theirPairs[i].url, AGENT) !== false) allowed++
  return allowed
}
const allowedOurs = ours()
const allowedTheirs = theirs()

const machine = printHeader('W2 (benchmark.js): isAllowed on a fixed sample of corpus pairs', {
  corpus: describeCorpus(corpus.info),
  workload: `${n} (host, URL) pairs (every ${step}th URL), agent ${AGENT}; one op = one pass over the sample; benchmark.js ${Benchmark.version}, maxTime ${maxTime} s per test`,
})

let sink = 0
const results = {}
await new Promise((resolve, reject) => {
  new Benchmark.Suite('w2')
    .add('robots-automaton isAllowed(string)', () => {
      sink += ours()
    }, { maxTime, minSamples: 5 })
    .add('robots-parser isAllowed(string)', () => {
      sink += theirs()
    }, { maxTime, minSamples: 5 })
    .on('cycle', (event) => {
      const b = event.target
      if (b.error) reject(b.error)
      results[b.name] = { hz: b.hz, rme: b.stats.rme, samples: b.stats.sample.length, meanMs: b.stats.mean * 1000 }
      console.error(`  [benchmark.js] ${String(b)}`)
    })
    .on('complete', resolve)
    .on('error', (e) => reject(e.target?.error ?? e))
    .run({ async: false })
})

const o = results['robots-automaton isAllowed(string)']
const t = results['robots-parser isAllowed(string)']
const row = (name, r, allowed) => [name, `${si(r.hz)}ops/s ±${r.rme.toFixed(1)}%`, r.samples, si(r.hz * n) + 'URL/s', allowed]
console.log(table(['library', 'hz (passes/s)', 'samples', 'URLs/s', 'allowed'], [row('robots-automaton isAllowed(string)', o, allowedOurs), row('robots-parser isAllowed(string)', t, allowedTheirs)]))
console.log('')
const r = o.hz / t.hz
console.log(`ratio (hz ours / hz robots-parser): ${ratio(r)}   goal ≥ ${GOAL}×: ${goal(r >= GOAL)}`)
if (sink === 0) console.log('(sink 0)')

writeJson(opts.json, {
  workload: 'w2-benchmarkjs',
  machine,
  corpus: corpus.info,
  pairs: n,
  maxTime,
  ours: { ...o, urlsPerSec: o.hz * n },
  robotsParser: { ...t, urlsPerSec: t.hz * n },
  ratio: r,
  goal: GOAL,
  met: r >= GOAL,
})
