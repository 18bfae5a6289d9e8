// W1 frontier: a crawler's work per host — parse the host's robots.txt,
// compile the matcher (robots.agent('Googlebot')), check every URL the crawl
// found on that host — for the 1,264 hosts / 111,805 URLs of
// ../shared/corpus/urls/paired.tsv; ours against robots-parser in the same
// process, runs interleaved (ours, robots-parser, ours, ...).
//
//   node bench/w1-frontier.mjs [--runs N] [--quick] [--json FILE] [--profile N]
//
// Equal work on both sides: robots-parser needs the robots.txt URL of the
// URLs' own origin, so a host whose URLs span several origins (http/https,
// www/bare: 54 of 1,264 hosts) is parsed once per origin, by both libraries
// (1,318 parses per pass). Ours parses the bytes (Uint8Array, as served);
// robots-parser gets the UTF-8 string decoded beforehand (decoding not timed).
// A URL counts as allowed by robots-parser when isAllowed(...) !== false.
// Reported: the median pass time (this process's CPU time: the machine is
// shared) → URLs/s and hosts/s, and the ratio. Ours
// runs with the default options: a matcher judges its host's URLs in the cold
// tier (no automaton) unless its rules are costly to try directly, or the
// host has more URLs than the tier threshold (src/match/README.md); the
// tiers the matchers end a pass in are printed.
import { parseRobots } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { goal, measureInterleaved, ms, parseArgs, printHeader, ratio, si, table, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
/** Goal: ≥ 15× robots-parser. */
const GOAL = 15

const opts = parseArgs(process.argv.slice(2), { runs: 7 })
const runs = opts.quick ? 2 : opts.runs
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const machine = printHeader('W1 frontier: parse + compile + check, per host', {
  corpus: describeCorpus(corpus.info),
  workload: `${corpus.hosts.length} hosts, ${corpus.originCount} origins (parses per pass), ${corpus.urlCount} URLs, agent ${AGENT}, ${runs} runs (median)`,
})

const groups = []
for (const h of corpus.hosts) for (const o of h.origins) groups.push({ bytes: h.bytes, text: h.text, robotsUrl: o.robotsUrl, urls: o.urls })

function ours() {
  let allowed = 0
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]
    const m = parseRobots(group.bytes).agent(AGENT)
    const urls = group.urls
    for (let i = 0; i < urls.length; i++) if (m.isAllowed(urls[i])) allowed++
  }
  return allowed
}

function theirs() {
  let allowed = 0
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]
    const r = robotsParser(group.robotsUrl, group.text)
    const urls = group.urls
    for (let i = 0; i < urls.length; i++) if (r.isAllowed(urls[i], AGENT) !== false) allowed++
  }
  return allowed
}

// --profile N: N passes of ours alone, then exit (for `node --cpu-prof bench/w1-frontier.mjs --profile 40`).
if (typeof opts.profile === 'number') {
  for (let k = 0; k < opts.profile; k++) ours()
  process.exit(0)
}

const res = measureInterleaved({ ours, theirs }, { runs, warmup: 1, clock: 'cpu' })
const n = corpus.urlCount
const hostsN = corpus.hosts.length
const row = (name, r) => [name, ms(r.median), `${ms(r.min)} – ${ms(r.max)}`, si((n / r.median) * 1000) + 'URL/s', si((hostsN / r.median) * 1000) + 'hosts/s', r.result]
const speedup = res.theirs.median / res.ours.median
console.log(table(['library', 'median pass', 'min – max', 'URLs/s', 'hosts/s', 'allowed'], [row('robots-automaton', res.ours), row('robots-parser', res.theirs)]))
console.log('')
console.log(`ratio (robots-parser time / ours): ${ratio(speedup)}   goal ≥ ${GOAL}×: ${goal(speedup >= GOAL)}`)
if (res.ours.result !== res.theirs.result) {
  console.log(`note: allowed counts differ by ${res.ours.result - res.theirs.result} (${n} URLs): the two libraries differ in semantics (robots-parser is not google/robotstxt-exact); not a timing issue.`)
}

// Where ours spends a pass: parse alone, parse + agent(), everything.
function oursParseOnly() {
  let lines = 0
  for (let g = 0; g < groups.length; g++) lines += parseRobots(groups[g].bytes).lineCount
  return lines
}
function oursParseAgent() {
  let rules = 0
  for (let g = 0; g < groups.length; g++) rules += parseRobots(groups[g].bytes).agent(AGENT).rules.count
  return rules
}
const parts = measureInterleaved({ parse: oursParseOnly, agent: oursParseAgent, all: ours }, { runs: opts.quick ? 1 : 3, warmup: 0, clock: 'cpu' })
const breakdown = {
  parseMs: parts.parse.median,
  agentMs: parts.agent.median - parts.parse.median,
  checksMs: parts.all.median - parts.agent.median,
}
console.log(
  `ours, breakdown of a pass (medians of ${parts.all.runs}): parse ${ms(breakdown.parseMs)}, + agent() ${ms(breakdown.agentMs)}, + checks (each matcher's first URLs) ${ms(breakdown.checksMs)}`,
)
const tiers = {}
for (const g of groups) {
  const m = parseRobots(g.bytes).agent(AGENT)
  for (const u of g.urls) m.isAllowed(u)
  const t = m.stats().tier
  tiers[t] = (tiers[t] ?? 0) + 1
}
console.log(`tiers at the end of a pass: ${Object.entries(tiers).map(([t, n]) => `${t} ${n}`).join(', ')} (of ${groups.length} matchers)`)

writeJson(opts.json, {
  workload: 'w1-frontier',
  machine,
  corpus: corpus.info,
  hosts: hostsN,
  parses: groups.length,
  urls: n,
  runs,
  ours: { ...res.ours, urlsPerSec: (n / res.ours.median) * 1000, hostsPerSec: (hostsN / res.ours.median) * 1000 },
  robotsParser: { ...res.theirs, urlsPerSec: (n / res.theirs.median) * 1000, hostsPerSec: (hostsN / res.theirs.median) * 1000 },
  ratio: speedup,
  breakdown,
  tiers,
  goal: GOAL,
  met: speedup >= GOAL,
})
