// How big compiled matchers get on real data, to choose the default matcher
// budget: every paired.tsv URL is checked against its host's Googlebot
// matcher, with an unbounded budget; then the distribution of
// matcher.memoryUsage() and of the state counts is printed.
//
//   node bench/matcher-sizes.mjs        (build first: npm run build)
import { parseRobots } from '../dist/index.js'
import { describeCorpus, loadPaired } from './lib/corpus.mjs'
import { printHeader } from './lib/stats.mjs'

const corpus = loadPaired({})
printHeader('Matcher sizes after every paired URL (unbounded budget)', { corpus: describeCorpus(corpus.info) })
const rows = []
for (const host of corpus.hosts) {
  const m = parseRobots(host.bytes, { matcherBudget: 1 << 30 }).agent('Googlebot')
  for (const u of host.urls) m.isAllowed(u)
  rows.push({ host: host.host, bytes: m.memoryUsage(), states: m.stats().states })
}
rows.sort((a, b) => a.bytes - b.bytes)
const q = (f) => rows[Math.min(rows.length - 1, Math.floor(rows.length * f))]
console.log(`hosts: ${rows.length}`)
console.log(`median: ${q(0.5).bytes} B (${q(0.5).states} states); p90: ${q(0.9).bytes} B; p99: ${q(0.99).bytes} B; max: ${rows.at(-1).bytes} B`)
console.log('largest:')
for (const r of rows.slice(-5).reverse()) console.log(`  ${r.host}: ${r.bytes} B, ${r.states} states`)
