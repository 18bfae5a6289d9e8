// Matcher sizes per host, by tier: every paired.tsv URL is checked against
// its host's Googlebot matcher, then matcher.memoryUsage() (the library's
// model of the bytes it holds beyond the parsed rules: src/memory.ts) is
// collected over the hosts:
// - default: the tiers as they are (cold until 256 URLs, hot after);
// - cold: pinned to the direct engine (`tier: 'cold'`): the record table;
// - hot: the compiled tier (`tier: 'hot'`), the lazy DFA with the states the
//   host's URLs built, at the default budget and unbounded (to choose the
//   default budget: the largest state caches);
// - thrash-proof: the literal index (`tier: 'thrash-proof'`).
//
//   node bench/matcher-sizes.mjs [--json FILE]      (build first: npm run build)
import { parseRobots } from '../dist/index.js'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { bytes, parseArgs, printHeader, table, writeJson } from './lib/stats.mjs'

const opts = parseArgs(process.argv.slice(2), {})
const corpus = loadPaired({})
const machine = printHeader('Matcher sizes per host, by tier, after every paired URL', { corpus: describeCorpus(corpus.info) })
const CONFIGS = [
  { name: 'default (tiers)', options: {} },
  { name: 'cold', options: { tier: 'cold' } },
  { name: 'hot (compiled tier)', options: { tier: 'hot' } },
  { name: 'hot, unbounded budget', options: { tier: 'hot', matcherBudget: 1 << 30 } },
  { name: 'thrash-proof', options: { tier: 'thrash-proof' } },
]
const results = {}
const rows = []
for (const c of CONFIGS) {
  const per = []
  for (const host of corpus.hosts) {
    const m = parseRobots(host.bytes, c.options).agent('Googlebot')
    for (const u of host.urls) m.isAllowed(u)
    const st = m.stats()
    per.push({ host: host.host, bytes: m.memoryUsage(), states: st.states, tier: st.tier, rules: st.rules })
  }
  per.sort((a, b) => a.bytes - b.bytes)
  const q = (f) => per[Math.min(per.length - 1, Math.floor(per.length * f))]
  const tiers = {}
  for (const p of per) tiers[p.tier] = (tiers[p.tier] ?? 0) + 1
  results[c.name] = {
    hosts: per.length,
    median: q(0.5).bytes,
    p90: q(0.9).bytes,
    p99: q(0.99).bytes,
    max: per.at(-1).bytes,
    total: per.reduce((s, p) => s + p.bytes, 0),
    tiers,
    largest: per.slice(-5).reverse(),
  }
  const r = results[c.name]
  rows.push([
    c.name,
    bytes(r.median),
    bytes(r.p90),
    bytes(r.p99),
    `${bytes(r.max)} (${per.at(-1).host})`,
    bytes(r.total / per.length),
    Object.entries(tiers)
      .map(([t, n]) => `${t} ${n}`)
      .join(', '),
  ])
}
console.log(`hosts: ${corpus.hosts.length}`)
console.log(table(['matcher', 'median', 'p90', 'p99', 'max', 'mean', 'tiers after the URLs'], rows))
console.log('')
console.log('largest state caches (hot, unbounded budget):')
for (const r of results['hot, unbounded budget'].largest) console.log(`  ${r.host}: ${bytes(r.bytes)}, ${r.states} states, ${r.rules} rules`)

writeJson(opts.json, { workload: 'matcher-sizes', machine, corpus: corpus.info, results })
