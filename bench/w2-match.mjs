// W2 match-only: the checks of every paired corpus URL against its host's
// robots.txt (agent Googlebot), ours against robots-parser in the same run.
// Three measurements, the first reported first (it is what users meet):
//
// 1. From first use (the neutral harness): per host, the matcher is made
//    (ours: parseRobots + agent; robots-parser: one instance per origin,
//    see w1-frontier.mjs), then one verdict pass and one warm-up pass over
//    every URL, untimed; then five passes are timed. Both libraries the
//    same way, in the same round, a round per sample (fresh matchers each
//    round), the order alternating; reported: the median per round of the
//    five passes' CPU time, and the median of the per-round ratios.
//    A matcher meets these URLs in its first few hundred uses, so its
//    tiers (src/match/README.md) and their switch are inside the figure.
// 2. Cold against hot, same URLs: the steady pass (matchers warmed by two
//    passes) with every matcher pinned to the cold tier (`tier: 'cold'`),
//    with its first tier kept (`hotThreshold: Infinity`: cold, or the
//    indexed start of a star-heavy set), and pinned hot (`tier: 'hot'`);
//    the ratios to the hot pass, and the cold and hot passes again split
//    by the size of each matcher's rule set (where the cold tier's extra
//    time goes).
// 3. Steady state: matchers warmed by full passes until every matcher with
//    rules has left the cold tier (a long-lived matcher, its lazy DFA built),
//    or 1,000 passes (a set of few URLs whose threshold is beyond them stays
//    cold; the header counts them); then only the checks are timed.
//
//   node bench/w2-match.mjs [--runs N] [--rounds N] [--quick] [--json FILE] [--profile N] [--profile-first N]
//
// Steady state, three variants, runs interleaved:
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
import { cpuOnce, goal, measureInterleaved, median, ms, parseArgs, printHeader, ratio, si, table, timeOnce, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
/** Goal: ≥ 30× robots-parser, from first use and in the steady state (isAllowed on strings). */
const GOAL = 30
/** Goal: the cold tier at most 1.5 times the hot tier's cost on the same URLs. */
const COLD_GOAL = 1.5
/** Passes timed from first use, after the verdict pass and the warm-up pass. */
const FIRST_USE_TIMED = 5

const opts = parseArgs(process.argv.slice(2), { runs: 9, rounds: 5 })
const runs = opts.quick ? 3 : opts.runs
const rounds = opts.quick ? 2 : Number(opts.rounds)
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const encoder = new TextEncoder()
const n = corpus.urlCount

// ---- 1. From first use ----

/** Our matchers, made fresh (parse + agent), with `options`. */
const freshOurs = (options = {}) => corpus.hosts.map((h) => ({ matcher: parseRobots(h.bytes, options).agent(AGENT), urls: h.urls }))
/** robots-parser's instances, made fresh: one per origin. */
function freshTheirs() {
  const out = []
  for (const h of corpus.hosts) for (const o of h.origins) out.push({ parser: robotsParser(o.robotsUrl, h.text), urls: o.urls })
  return out
}
function oursPassOver(hosts) {
  let allowed = 0
  for (let g = 0; g < hosts.length; g++) {
    const { matcher, urls } = hosts[g]
    for (let i = 0; i < urls.length; i++) if (matcher.isAllowed(urls[i])) allowed++
  }
  return allowed
}
function theirPassOver(groups) {
  let allowed = 0
  for (let g = 0; g < groups.length; g++) {
    const { parser, urls } = groups[g]
    for (let i = 0; i < urls.length; i++) if (parser.isAllowed(urls[i], AGENT) !== false) allowed++
  }
  return allowed
}
/** One side of a first-use round: the verdict pass and the warm-up pass untimed, then FIRST_USE_TIMED passes timed (CPU ms, their sum). */
function firstUse(make, pass) {
  const hosts = make()
  const verdicts = pass(hosts)
  pass(hosts)
  let ms = 0
  const perPass = []
  for (let k = 0; k < FIRST_USE_TIMED; k++) {
    const [t] = cpuOnce(() => pass(hosts))
    perPass.push(t)
    ms += t
  }
  return { ms, perPass, verdicts, hosts }
}

// --profile-first N: N first-use rounds of ours alone, then exit (for `node --cpu-prof bench/w2-match.mjs --profile-first 20`).
if (typeof opts.profileFirst === 'number') {
  for (let k = 0; k < opts.profileFirst; k++) firstUse(freshOurs, oursPassOver)
  process.exit(0)
}

// With --profile (the steady state's profile), the first two measurements are left out.
const profiling = typeof opts.profile === 'number'
const firstRounds = []
for (let r = 0; r < (profiling ? 0 : rounds); r++) {
  const order = r & 1 ? ['theirs', 'ours'] : ['ours', 'theirs']
  const round = {}
  for (const side of order) round[side] = side === 'ours' ? firstUse(freshOurs, oursPassOver) : firstUse(freshTheirs, theirPassOver)
  const tiers = {}
  for (const h of round.ours.hosts) tiers[h.matcher.stats().tier] = (tiers[h.matcher.stats().tier] ?? 0) + 1
  firstRounds.push({ ours: round.ours.ms, theirs: round.theirs.ms, ratio: round.theirs.ms / round.ours.ms, oursPerPass: round.ours.perPass, tiers, verdicts: round.ours.verdicts })
}
const firstUseResult = profiling ? null : {
  oursMs: median(firstRounds.map((x) => x.ours)),
  theirsMs: median(firstRounds.map((x) => x.theirs)),
  ratio: median(firstRounds.map((x) => x.ratio)),
  ratios: firstRounds.map((x) => x.ratio),
  oursPerPass: firstRounds.map((x) => x.oursPerPass),
  tiersAfter: firstRounds[firstRounds.length - 1].tiers,
}

// ---- 2. Cold against hot, same URLs ----

const tierSets = profiling ? {} : { cold: freshOurs({ tier: 'cold' }), first: freshOurs({ hotThreshold: Infinity }), hot: freshOurs({ tier: 'hot' }) }
for (let k = 0; k < 2; k++) for (const hosts of Object.values(tierSets)) oursPassOver(hosts)
const tierSamples = { cold: [], first: [], hot: [] }
for (let r = 0; r < (profiling ? 0 : runs); r++) for (const [name, hosts] of Object.entries(tierSets)) tierSamples[name].push(cpuOnce(() => oursPassOver(hosts))[0])
const tierMs = Object.fromEntries(Object.entries(tierSamples).map(([k, v]) => [k, median(v)]))
const coldOverHot = tierMs.cold / tierMs.hot
const firstOverHot = tierMs.first / tierMs.hot
// Where the cold tier's extra time goes: the pinned passes split by the size of each matcher's rule set (each class timed apart, repeated to about 20 ms a sample).
const SIZE_CLASSES = [[0, 10], [10, 50], [50, 200], [200, Infinity]]
const bySize = profiling ? [] : SIZE_CLASSES.map(([lo, hi]) => {
  const pick = (hosts) => hosts.filter((h) => h.matcher.stats().rules >= lo && h.matcher.stats().rules < hi)
  const sets = { cold: pick(tierSets.cold), hot: pick(tierSets.hot) }
  const reps = Math.max(1, Math.ceil(20 / Math.max(0.05, cpuOnce(() => oursPassOver(sets.cold))[0])))
  const samples = { cold: [], hot: [] }
  for (let r = 0; r < runs; r++) {
    for (const name of ['cold', 'hot']) {
      samples[name].push(cpuOnce(() => {
        for (let k = 0; k < reps; k++) oursPassOver(sets[name])
      })[0] / reps)
    }
  }
  const label = hi === Infinity ? `${lo} or more` : `${lo}–${hi - 1}`
  return { rules: label, hosts: sets.cold.length, urls: sets.cold.reduce((a, h) => a + h.urls.length, 0), coldMs: median(samples.cold), hotMs: median(samples.hot) }
})

// ---- 3. Steady state ----

// Build everything beforehand.
const ourHosts = corpus.hosts.map((h) => {
  const matcher = parseRobots(h.bytes).agent(AGENT)
  const lines = encoder.encode(h.urls.join('\n'))
  return { host: h.host, matcher, urls: h.urls, lines, out: new Uint8Array(h.urls.length) }
})
const flushes = (h) => h.matcher.stats().flushes
const theirGroups = []
for (const h of corpus.hosts) for (const o of h.origins) theirGroups.push({ parser: robotsParser(o.robotsUrl, h.text), urls: o.urls })

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
const stillCold = cold()
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

const machine = printHeader('W2 match-only: the checks alone, from first use and in the steady state', {
  corpus: describeCorpus(corpus.info),
  workload: `${corpus.hosts.length} hosts, ${n} URLs per pass, agent ${AGENT}. From first use: ${rounds} rounds of fresh matchers, a verdict pass and a warm-up pass untimed, ${FIRST_USE_TIMED} passes timed. Steady state: ${warmPasses} warm-up passes (${stillCold === 0 ? 'every matcher with rules hot' : `every matcher with rules hot but ${stillCold}, whose threshold is beyond their URLs`}); ${runs} samples (median) of ${repsString} / ${repsLines} / ${repsTheirs} passes (ours string / ours matchLines / robots-parser)`,
})

const perUrl = (msPerPass) => ms(msPerPass / n)
console.log(`From first use (isAllowed(string); per round: the ${FIRST_USE_TIMED} timed passes' CPU time):`)
console.log(
  table(
    ['library', `${FIRST_USE_TIMED} passes (median of rounds)`, 'per URL', 'URLs/s', 'vs robots-parser (median of rounds)', 'rounds'],
    [
      ['robots-automaton, fresh matchers', ms(firstUseResult.oursMs), perUrl(firstUseResult.oursMs / FIRST_USE_TIMED), si((n * FIRST_USE_TIMED / firstUseResult.oursMs) * 1000) + 'URL/s', ratio(firstUseResult.ratio), firstUseResult.ratios.map((x) => x.toFixed(1)).join(' / ')],
      ['robots-parser, fresh instances', ms(firstUseResult.theirsMs), perUrl(firstUseResult.theirsMs / FIRST_USE_TIMED), si((n * FIRST_USE_TIMED / firstUseResult.theirsMs) * 1000) + 'URL/s', '1.00×', ''],
    ],
  ),
)
console.log(`ours per timed pass (ms), by round: ${firstUseResult.oursPerPass.map((p) => p.map((x) => x.toFixed(1)).join(' ')).join(' | ')}; tiers after the last round: ${JSON.stringify(firstUseResult.tiersAfter)}`)
console.log(`ratio from first use: ${ratio(firstUseResult.ratio)}   goal ≥ ${GOAL}×: ${goal(firstUseResult.ratio >= GOAL)}`)
console.log('')
console.log('Cold against hot, same URLs (steady passes, every matcher pinned or kept in its first tier):')
console.log(
  table(
    ['tiers', 'pass (median)', 'per URL', 'vs hot'],
    [
      ["cold (`tier: 'cold'`)", ms(tierMs.cold), perUrl(tierMs.cold), coldOverHot.toFixed(2) + '×'],
      ['first tier (`hotThreshold: Infinity`)', ms(tierMs.first), perUrl(tierMs.first), firstOverHot.toFixed(2) + '×'],
      ["hot (`tier: 'hot'`)", ms(tierMs.hot), perUrl(tierMs.hot), '1.00×'],
    ],
  ),
)
console.log(`cold ÷ hot: ${coldOverHot.toFixed(2)}   goal ≤ ${COLD_GOAL}: ${goal(coldOverHot <= COLD_GOAL)}`)
const extra = bySize.reduce((a, c) => a + Math.max(0, c.coldMs - c.hotMs), 0)
console.log('The same, by the size of the rule set (rules for the agent):')
console.log(
  table(
    ['rules', 'hosts', 'URLs', 'cold per URL', 'hot per URL', 'cold ÷ hot', "share of the cold tier's extra time"],
    bySize.filter((c) => c.urls > 0).map((c) => [c.rules, c.hosts, c.urls, ms(c.coldMs / c.urls), ms(c.hotMs / c.urls), (c.coldMs / c.hotMs).toFixed(2) + '×', extra > 0 ? `${((100 * Math.max(0, c.coldMs - c.hotMs)) / extra).toFixed(0)} %` : '']),
  ),
)
console.log('')
console.log(`Steady state (${stillCold === 0 ? 'every matcher with rules hot' : `after the warm-up; ${stillCold} matchers with rules still cold`}):`)

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
console.log(`steady ratio, string URLs: ${ratio(ratioString)}   goal ≥ ${GOAL}×: ${goal(ratioString >= GOAL)}`)
console.log(`steady ratio, matchLines:  ${ratio(ratioLines)}`)
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
  firstUse: firstUseResult,
  tierPass: { ...tierMs, coldOverHot, firstOverHot, goal: COLD_GOAL, met: coldOverHot <= COLD_GOAL, bySize },
  mismatches,
  thrashing,
  goal: GOAL,
  met: firstUseResult.ratio >= GOAL,
})
