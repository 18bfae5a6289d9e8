// Tier threshold: after how many URLs does a matcher's lazy DFA pay for
// itself? The measurement behind `hotThreshold`'s default and the cold
// tier's size limits (src/match/tiers.ts, src/match/README.md).
//
//   node bench/tier-threshold.mjs [--reps N] [--quick] [--json FILE]
//
// For every host of ../shared/corpus/urls/paired.tsv, Googlebot's matcher
// (every host, also those the cold tier would not take):
// - c: the cold tier's time per URL (`tier: 'cold'`), warm: the median of
//   `reps` passes over the host's URLs;
// - h: the hot tier's time per URL (`tier: 'hot'`), warm (states built);
// - B: the hot tier's one-time cost: a fresh matcher (`agent()` with the
//   DFA's tables) plus a first pass over the URLs (states built on the way),
//   minus that pass at the warm rate h.
// Break-even: U* = B / (c - h) URLs (infinite when the cold tier is not
// slower). Reported: the distribution of U* over hosts, the total cost of
// the corpus's URLs (each host judging its own URLs `m` times) under a
// policy "cold for the first T URLs, then hot" for several T, and c and U*
// by rule count and `*`-rule count (what the cold tier's size limits rest on).
// Times are process CPU time (process.cpuUsage), in µs.
import { parseRobots } from '../dist/index.js'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { median, parseArgs, printHeader, table, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
const opts = parseArgs(process.argv.slice(2), { reps: 7 })
const reps = opts.quick ? 3 : opts.reps
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const machine = printHeader('Tier threshold: when the lazy DFA pays back', {
  corpus: describeCorpus(corpus.info),
  workload: `${corpus.hosts.length} hosts, ${corpus.urlCount} URLs, agent ${AGENT}, ${reps} warm passes per tier (median)`,
})

const cpu = (f) => {
  const t = process.cpuUsage()
  f()
  const d = process.cpuUsage(t)
  return d.user + d.system
}
function pass(m, urls) {
  let a = 0
  for (let i = 0; i < urls.length; i++) if (m.isAllowed(urls[i])) a++
  return a
}
// Short passes are below the clock's resolution: repeat a pass until it lasts ≥ 2 ms.
function perUrl(m, urls) {
  let loops = 1
  for (;;) {
    const t = cpu(() => {
      for (let k = 0; k < loops; k++) pass(m, urls)
    })
    if (t >= 2000 || loops >= 4096) return t / (loops * urls.length)
    loops *= 4
  }
}

const rows = []
for (const h of corpus.hosts) {
  const set = parseRobots(h.bytes).rulesFor(AGENT)
  let stars = 0
  for (let r = 0; r < set.count; r++) if (set.flags(r) & 4) stars++
  const cold = parseRobots(h.bytes, { tier: 'cold' }).agent(AGENT)
  const hot = parseRobots(h.bytes, { tier: 'hot' }).agent(AGENT)
  pass(cold, h.urls)
  pass(hot, h.urls)
  const cs = []
  const hs = []
  const bs = []
  for (let k = 0; k < reps; k++) {
    cs.push(perUrl(cold, h.urls))
    hs.push(perUrl(hot, h.urls))
    // A fresh hot matcher and its first pass; the parse is outside.
    const robots = parseRobots(h.bytes, { tier: 'hot' })
    const u = h.urls
    bs.push(cpu(() => pass(robots.agent(AGENT), u)))
  }
  const c = median(cs)
  const hw = median(hs)
  const B = Math.max(0, median(bs) - hw * h.urls.length)
  const breakEven = c > hw ? B / (c - hw) : Infinity
  rows.push({ host: h.host, urls: h.urls.length, rules: set.count, stars, c, h: hw, B, breakEven })
}

const q = (xs, f) => {
  const s = xs.slice().sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * f))]
}
const fmt = (x) => (x === Infinity ? '∞' : x < 10 ? x.toFixed(2) : Math.round(x).toString())
const be = rows.map((r) => r.breakEven)
console.log(`break-even U* over ${rows.length} hosts: p10 ${fmt(q(be, 0.1))}, p25 ${fmt(q(be, 0.25))}, median ${fmt(q(be, 0.5))}, p75 ${fmt(q(be, 0.75))}, p90 ${fmt(q(be, 0.9))} URLs`)
console.log('')

// Cost of a policy: cold for the first T URLs, then the DFA (B once, then h per URL).
const policy = (T, mult) => {
  let total = 0
  for (const r of rows) {
    const U = r.urls * mult
    total += U <= T ? U * r.c : T * r.c + r.B + (U - T) * r.h
  }
  return total
}
const thresholds = [0, 16, 32, 64, 128, 256, 512, 1024, 4096, Infinity]
const mults = [1, 4, 16, 64]
const policyRows = thresholds.map((T) => [T === Infinity ? 'never hot' : String(T), ...mults.map((m) => (policy(T, m) / 1000).toFixed(1) + ' ms')])
console.log('Total CPU time of the corpus, each host judging its own URLs m times, by threshold T (all hosts):')
console.log(table(['T', ...mults.map((m) => `m = ${m}`)], policyRows))
console.log('')

// By size: cold cost per URL and break-even.
const bands = [
  ['0', (r) => r.rules === 0],
  ['1–16', (r) => r.rules >= 1 && r.rules <= 16],
  ['17–64', (r) => r.rules > 16 && r.rules <= 64],
  ['65–256', (r) => r.rules > 64 && r.rules <= 256],
  ['257–1024', (r) => r.rules > 256 && r.rules <= 1024],
  ['> 1024', (r) => r.rules > 1024],
]
const starBands = [
  ['0', (r) => r.stars === 0],
  ['1–8', (r) => r.stars >= 1 && r.stars <= 8],
  ['9–32', (r) => r.stars > 8 && r.stars <= 32],
  ['33–128', (r) => r.stars > 32 && r.stars <= 128],
  ['> 128', (r) => r.stars > 128],
]
const bandRows = (list) =>
  list.map(([name, f]) => {
    const xs = rows.filter(f)
    if (!xs.length) return [name, 0, '', '', '', '']
    return [name, xs.length, fmt(median(xs.map((r) => r.c * 1000))) + ' ns', fmt(median(xs.map((r) => r.h * 1000))) + ' ns', fmt(median(xs.map((r) => r.B))) + ' µs', fmt(median(xs.map((r) => r.breakEven)))]
  })
console.log('By rules (medians):')
console.log(table(['rules', 'hosts', 'cold per URL', 'hot per URL', 'hot one-time B', 'break-even U*'], bandRows(bands)))
console.log('')
console.log('By `*` rules (medians):')
console.log(table(['* rules', 'hosts', 'cold per URL', 'hot per URL', 'hot one-time B', 'break-even U*'], bandRows(starBands)))

writeJson(opts.json, { workload: 'tier-threshold', machine, corpus: corpus.info, reps, rows, policy: Object.fromEntries(thresholds.map((T) => [String(T), mults.map((m) => policy(T, m))])) })
