// W2 match-only: every robots.txt of ../shared/corpus/urls/paired.tsv parsed
// and compiled beforehand (ours: robots.agent('Googlebot'); robots-parser: one
// instance per origin, see w1-frontier.mjs), and warmed by full passes until
// every matcher with rules has left the cold tier (the steady state of a
// long-lived matcher: its lazy DFA built, src/match/README.md); then only the
// checks are timed: 111,805 URLs per pass.
//
//   node bench/w2-match.mjs [--runs N] [--quick] [--json FILE] [--profile N]
//
// Three variants, runs interleaved:
// - ours, string URLs:      matcher.isAllowed(url)
// - ours, batch over bytes: matcher.matchLines(bytes, out) on one pre-built
//                           UTF-8 buffer per host (its URLs joined by '\n'),
//                           into a pre-allocated verdict buffer
// - robots-parser, strings: parser.isAllowed(url, 'Googlebot') !== false
// A pass of ours is short (milliseconds), so each timed sample repeats the
// pass `reps` times (chosen so a sample lasts ≥ ~100 ms) and is divided back.
// Samples are timed by this process's CPU time (the machine is shared: the
// time other processes hold the CPU is left out).
// Sanity: matchLines must give the same verdicts as isAllowed, URL by URL.
import { parseRobots } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { goal, measureInterleaved, ms, parseArgs, printHeader, ratio, si, table, timeOnce, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
/** Goal of issue 21 (isAllowed on strings): ≥ 30× robots-parser. */
const GOAL = 30

const opts = parseArgs(process.argv.slice(2), { runs: 9 })
const runs = opts.quick ? 3 : opts.runs
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const encoder = new TextEncoder()

// Build everything beforehand.
const ourHosts = corpus.hosts.map((h) => {
  const matcher = parseRobots(h.bytes).agent(AGENT)
  const lines = encoder.encode(h.urls.join('\n'))
  return { host: h.host, matcher, urls: h.urls, lines, out: new Uint8Array(h.urls.length) }
})
const flushes = (h) => h.matcher.stats().flushes
const theirGroups = []
for (const h of corpus.hosts) for (const o of h.origins) theirGroups.push({ parser: robotsParser(o.robotsUrl, h.text), urls: o.urls })
const n = corpus.urlCount

function oursStringPass() {
  let allowed = 0
  for (let g = 0; g < ourHosts.length; g++) {
    const { matcher, urls } = ourHosts[g]
    for (let i = 0; i < urls.length; i++) if (matcher.isAllowed(urls[i])) allowed++
  }
  return allowed
}

function oursLinesPass() {
  let allowed = 0
  for (let g = 0; g < ourHosts.length; g++) {
    const h = ourHosts[g]
    const out = h.matcher.matchLines(h.lines, h.out)
    for (let i = 0; i < out.length; i++) allowed += out[i]
  }
  return allowed
}

function theirPass() {
  let allowed = 0
  for (let g = 0; g < theirGroups.length; g++) {
    const { parser, urls } = theirGroups[g]
    for (let i = 0; i < urls.length; i++) if (parser.isAllowed(urls[i], AGENT) !== false) allowed++
  }
  return allowed
}

// Warm-up passes (until every matcher with rules is hot; they also build the DFA states the corpus needs) and sanity check.
const cold = () => ourHosts.filter((h) => h.matcher.stats().tier === 'cold' && h.matcher.stats().rules > 0).length
let warmPasses = 0
do {
  oursStringPass()
  oursLinesPass()
  warmPasses++
} while (cold() > 0 && warmPasses < 1000)
theirPass()
let mismatches = 0
for (const h of ourHosts) {
  const out = h.matcher.matchLines(h.lines, h.out)
  if (out.length !== h.urls.length) mismatches += Math.abs(out.length - h.urls.length)
  for (let i = 0; i < h.urls.length; i++) if ((out[i] === 1) !== h.matcher.isAllowed(h.urls[i])) mismatches++
}

const flushesBefore = ourHosts.map(flushes)

// --profile N: N string passes of ours alone once warm, then exit (for `node --cpu-prof bench/w2-match.mjs --profile 200`).
if (typeof opts.profile === 'number') {
  for (let k = 0; k < opts.profile; k++) oursStringPass()
  process.exit(0)
}

// Repetitions per sample: enough for ~100 ms per sample (at least 1).
function repsFor(fn, targetMs) {
  const [t] = timeOnce(fn)
  return Math.max(1, Math.min(1000, Math.round(targetMs / Math.max(t, 0.01))))
}
const target = opts.quick ? 20 : 100
const repsString = repsFor(oursStringPass, target)
const repsLines = repsFor(oursLinesPass, target)
const repsTheirs = repsFor(theirPass, target)
const repeat = (fn, reps) => () => {
  let r = 0
  for (let i = 0; i < reps; i++) r = fn()
  return r
}

const machine = printHeader('W2 match-only: pre-compiled matchers, checks only', {
  corpus: describeCorpus(corpus.info),
  workload: `${corpus.hosts.length} hosts, ${n} URLs per pass, agent ${AGENT}; ${warmPasses} warm-up passes (every matcher with rules hot); ${runs} samples (median) of ${repsString} / ${repsLines} / ${repsTheirs} passes (ours string / ours matchLines / robots-parser)`,
})

const res = measureInterleaved(
  { string: repeat(oursStringPass, repsString), lines: repeat(oursLinesPass, repsLines), theirs: repeat(theirPass, repsTheirs) },
  { runs, warmup: 0, clock: 'cpu' },
)
const per = (r, reps) => ({ median: r.median / reps, min: r.min / reps, max: r.max / reps, result: r.result, reps, samples: r.samples.map((x) => x / reps) })
const s = per(res.string, repsString)
const l = per(res.lines, repsLines)
const t = per(res.theirs, repsTheirs)
const ups = (r) => (n / r.median) * 1000
const row = (name, r) => [name, ms(r.median), `${ms(r.min)} – ${ms(r.max)}`, si(ups(r)) + 'URL/s', ratio(t.median / r.median), r.result]
console.log(
  table(
    ['variant', 'median pass', 'min – max', 'URLs/s', 'vs robots-parser', 'allowed'],
    [row('robots-automaton isAllowed(string)', s), row('robots-automaton matchLines(bytes)', l), row('robots-parser isAllowed(string)', t)],
  ),
)
console.log('')
const ratioString = t.median / s.median
const ratioLines = t.median / l.median
console.log(`ratio, string URLs: ${ratio(ratioString)}   goal ≥ ${GOAL}×: ${goal(ratioString >= GOAL)}`)
console.log(`ratio, matchLines:  ${ratio(ratioLines)}   goal ≥ ${GOAL}×: ${goal(ratioLines >= GOAL)}`)
console.log(`sanity: matchLines vs isAllowed mismatches: ${mismatches}${mismatches ? '  <-- ANOMALY' : ''}`)
// Matchers whose lazy DFA still flushed its state cache (budget exceeded) after the warm-up pass:
// they rebuild states on every pass instead of running from the cache.
const thrashing = ourHosts
  .map((h, i) => ({ host: h.host, urls: h.urls.length, flushes: flushes(h) - flushesBefore[i], memoryUsage: h.matcher.memoryUsage() }))
  .filter((x) => x.flushes > 0)
if (thrashing.length) {
  console.log(`matchers flushing their DFA cache during the timed passes (working set over the matcher budget; they rebuild states on every pass):`)
  for (const x of thrashing) {
    const h = ourHosts.find((y) => y.host === x.host)
    const [tMs] = timeOnce(() => {
      for (const u of h.urls) h.matcher.isAllowed(u)
    })
    console.log(`  ${x.host}: ${x.urls} URLs, ${x.flushes} flushes, memoryUsage ${(x.memoryUsage / 2 ** 20).toFixed(2)} MiB, one pass over its URLs ${ms(tMs)} (${ms(tMs / x.urls)} per URL) = ${((tMs / s.median) * 100).toFixed(0)}% of a whole isAllowed pass`)
  }
}

writeJson(opts.json, {
  workload: 'w2-match',
  machine,
  corpus: corpus.info,
  hosts: corpus.hosts.length,
  urls: n,
  runs,
  warmPasses,
  tiers: ourHosts.reduce((t, h) => ((t[h.matcher.stats().tier] = (t[h.matcher.stats().tier] ?? 0) + 1), t), {}),
  oursString: { ...s, urlsPerSec: ups(s) },
  oursMatchLines: { ...l, urlsPerSec: ups(l) },
  robotsParser: { ...t, urlsPerSec: ups(t) },
  ratioString,
  ratioMatchLines: ratioLines,
  mismatches,
  thrashing,
  goal: GOAL,
  met: ratioString >= GOAL,
})
