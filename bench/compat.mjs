// Compat: robots-parser's API (`robots-automaton/compat`) against robots-parser
// itself, same calls, same corpus (every URL of ../shared/corpus/urls/paired.tsv,
// one object per origin, as robots-parser needs; the bundled sample without
// ../shared):
//
//   node bench/compat.mjs [--runs N] [--quick] [--json FILE]
//
// - match-only: objects built beforehand and warmed by one pass; timed:
//   isAllowed(url, 'Googlebot') for every URL.
// - header: the same with the whole Googlebot User-Agent header as the agent
//   (compat extracts the product token; robots-parser keeps "mozilla").
// - frontier: robotsParser(robotsUrl, body) then isAllowed for the origin's
//   URLs, for every origin (parse + check, as a crawler meeting new hosts).
// Samples interleaved; medians. A pass of compat is short, so each sample
// repeats it `reps` times (≥ ~100 ms per sample) and is divided back.
import robotsParserJs from 'robots-parser'
import { robotsParser } from '../dist/compat.js'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { measureInterleaved, ms, parseArgs, printHeader, ratio, si, table, timeOnce, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
const HEADER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

const opts = parseArgs(process.argv.slice(2), { runs: 9 })
const runs = opts.quick ? 3 : opts.runs
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const n = corpus.urlCount

const origins = []
for (const h of corpus.hosts) for (const o of h.origins) origins.push({ robotsUrl: o.robotsUrl, urls: o.urls, bytes: h.bytes, text: h.text })
const ours = origins.map((o) => robotsParser(o.robotsUrl, o.bytes))
const theirs = origins.map((o) => robotsParserJs(o.robotsUrl, o.text))

function checkPass(objects, agent) {
  return () => {
    let allowed = 0
    for (let g = 0; g < objects.length; g++) {
      const r = objects[g]
      const urls = origins[g].urls
      for (let i = 0; i < urls.length; i++) if (r.isAllowed(urls[i], agent) !== false) allowed++
    }
    return allowed
  }
}

function frontierPass(make, body) {
  return () => {
    let allowed = 0
    for (const o of origins) {
      const r = make(o.robotsUrl, o[body])
      for (let i = 0; i < o.urls.length; i++) if (r.isAllowed(o.urls[i], AGENT) !== false) allowed++
    }
    return allowed
  }
}

const fns = {
  oursMatch: checkPass(ours, AGENT),
  theirsMatch: checkPass(theirs, AGENT),
  oursHeader: checkPass(ours, HEADER),
  theirsHeader: checkPass(theirs, HEADER),
  oursFrontier: frontierPass(robotsParser, 'bytes'),
  theirsFrontier: frontierPass(robotsParserJs, 'text'),
}
for (const fn of Object.values(fns)) fn() // warm-up (compiles the lazy DFA states)

const target = opts.quick ? 20 : 100
const reps = Object.fromEntries(
  Object.entries(fns).map(([k, fn]) => {
    const [t] = timeOnce(fn)
    return [k, Math.max(1, Math.min(1000, Math.round(target / Math.max(t, 0.01))))]
  }),
)
const repeated = Object.fromEntries(
  Object.entries(fns).map(([k, fn]) => [
    k,
    () => {
      let r = 0
      for (let i = 0; i < reps[k]; i++) r = fn()
      return r
    },
  ]),
)

const machine = printHeader('Compat: robots-parser API, robots-automaton/compat vs robots-parser', {
  corpus: describeCorpus(corpus.info),
  workload: `${origins.length} origins, ${n} URLs per pass; ${runs} samples (median)`,
})
const res = measureInterleaved(repeated, { runs, warmup: 0 })
const per = (k) => ({ median: res[k].median / reps[k], min: res[k].min / reps[k], max: res[k].max / reps[k], result: res[k].result })
const ups = (r) => (n / r.median) * 1000
const rows = []
const out = {}
for (const [label, a, b] of [
  ['match-only, token', 'oursMatch', 'theirsMatch'],
  ['match-only, whole header', 'oursHeader', 'theirsHeader'],
  ['frontier: parse + check', 'oursFrontier', 'theirsFrontier'],
]) {
  const x = per(a)
  const y = per(b)
  rows.push([label, ms(x.median), si(ups(x)) + 'URL/s', ms(y.median), si(ups(y)) + 'URL/s', ratio(y.median / x.median)])
  out[a] = { ...x, urlsPerSec: ups(x) }
  out[b] = { ...y, urlsPerSec: ups(y) }
}
console.log(table(['workload', 'compat pass', 'compat', 'robots-parser pass', 'robots-parser', 'ratio'], rows))

writeJson(opts.json, {
  workload: 'compat',
  machine,
  corpus: corpus.info,
  origins: origins.length,
  urls: n,
  runs,
  ...out,
  ratioMatch: out.theirsMatch.median / out.oursMatch.median,
  ratioHeader: out.theirsHeader.median / out.oursHeader.median,
  ratioFrontier: out.theirsFrontier.median / out.oursFrontier.median,
})
