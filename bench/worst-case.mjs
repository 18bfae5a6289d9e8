// Worst case: pathological robots.txt files (bench/lib/pathological.mjs,
// generated in code) against URLs of 8 KiB and 64 KiB drawn from each file's
// own alphabet (rule positions stay live to the end of the URL).
//
//   node bench/worst-case.mjs [--urls N] [--quick] [--json FILE]
//
// For every file, at the default matcher budget and at
// parseRobots(body, { matcherBudget: 64 << 20 }):
// - parse time; compile time: robots.agent('Googlebot') (positions, byte
//   classes) and the first isAllowed on an 8 KiB URL (the first lazily built
//   states: "first use");
// - then N distinct URLs of 8 KiB and N of 64 KiB (fresh random URLs: each
//   reaches states not yet built, the expensive case), each timed alone:
//   median time per URL and ns per byte (URL seeds differ between lengths,
//   so a 64 KiB URL does not start with an 8 KiB one already seen); the ratio t(64 KiB) / t(8 KiB)
//   (8 = linear in the URL length);
// - matcher.memoryUsage(), the DFA's cached state count and its flush count
//   (matcher.stats().flushes: times the state cache hit the budget and
//   was dropped).
// Baseline: the library's own plain engine (parseRobots(body, { engine:
// 'plain' }): every rule matched against the path, no automaton), on the
// same URLs (at most 2 per length), to show what the automaton costs or saves
// in these cases.
// robots-parser is not run here: it turns rules into regular expressions, and
// on these files (many `*`) a backtracking match of a 64 KiB URL can take
// exponential time.
import { parseRobots } from '../dist/index.js'
import { pathologicalFiles, URL_LENGTHS } from './lib/pathological.mjs'
import { bytes, median, ms, parseArgs, printHeader, table, timeOnce, writeJson } from './lib/stats.mjs'

const AGENT = 'Googlebot'
const opts = parseArgs(process.argv.slice(2), { urls: 5 })
const urlsPerLength = opts.quick ? 2 : opts.urls
const BUDGETS = [
  { name: 'default (4 MiB)', options: {} },
  { name: '64 MiB', options: { matcherBudget: 64 << 20 } },
]
// Stop timing more URLs of one length once this much time was spent (keeps the run bounded).
const CAP_MS = opts.quick ? 1500 : 8000

const machine = printHeader('Worst case: pathological files, long URLs', {
  workload: `${URL_LENGTHS.map((l) => l / 1024 + ' KiB').join(' and ')} URLs, ${urlsPerLength} distinct URLs per length (fewer if one length takes over ${CAP_MS / 1000} s), agent ${AGENT}`,
})

const files = pathologicalFiles()
const results = []
const rows = []
const plainRows = []
for (const f of files) {
  for (const budget of BUDGETS) {
    const [parseMs, robots] = timeOnce(() => parseRobots(f.body, budget.options))
    const [agentMs, matcher] = timeOnce(() => robots.agent(AGENT))
    const firstUrl = f.url(URL_LENGTHS[0], 1000)
    const [firstMs] = timeOnce(() => matcher.isAllowed(firstUrl))
    const perLength = {}
    for (const len of URL_LENGTHS) {
      const samples = []
      let spent = 0
      for (let i = 0; i < urlsPerLength && (i === 0 || spent < CAP_MS); i++) {
        const url = f.url(len, len + i + 1)
        const [t] = timeOnce(() => matcher.isAllowed(url))
        samples.push(t)
        spent += t
      }
      const med = median(samples)
      perLength[len] = { medianMs: med, minMs: Math.min(...samples), maxMs: Math.max(...samples), urls: samples.length, nsPerByte: (med * 1e6) / len, samples }
    }
    // Warm: the same 8 KiB URL again, all its states built (unless flushed).
    const again = f.url(URL_LENGTHS[0], URL_LENGTHS[0] + 1)
    const [warmMs] = timeOnce(() => matcher.isAllowed(again))
    const stats = matcher.stats()
    const r = {
      file: f.name,
      description: f.description,
      fileBytes: f.bytes,
      rules: f.rules,
      truncated: robots.truncated,
      budget: budget.name,
      parseMs,
      agentMs,
      firstUseMs: firstMs,
      perLength,
      repeatUrlMs: warmMs,
      ratio64to8: perLength[URL_LENGTHS[1]].medianMs / perLength[URL_LENGTHS[0]].medianMs,
      memoryUsage: matcher.memoryUsage(),
      states: stats.states,
      positions: stats.positions,
      flushes: stats.flushes,
    }
    results.push(r)
    const a = perLength[URL_LENGTHS[0]]
    const b = perLength[URL_LENGTHS[1]]
    rows.push([
      f.name,
      `${(f.bytes / 1000).toFixed(0)} KB, ${f.rules} rules${robots.truncated ? ' (TRUNCATED)' : ''}`,
      budget.name,
      ms(parseMs),
      `${ms(agentMs)} + ${ms(firstMs)}`,
      `${ms(a.medianMs)} (${a.nsPerByte.toFixed(1)} ns/B)`,
      `${ms(b.medianMs)} (${b.nsPerByte.toFixed(1)} ns/B)`,
      r.ratio64to8.toFixed(1) + '×',
      ms(warmMs),
      bytes(r.memoryUsage),
      r.states,
      r.flushes,
    ])
    console.error(`  [worst-case] ${f.name} / ${budget.name} done`)
  }
  // The plain engine on the same URLs.
  const plain = parseRobots(f.body, { engine: 'plain' }).agent(AGENT)
  const plainPerLength = {}
  for (const len of URL_LENGTHS) {
    const samples = []
    let spent = 0
    for (let i = 0; i < Math.min(2, urlsPerLength) && (i === 0 || spent < CAP_MS); i++) {
      const url = f.url(len, len + i + 1)
      const [t] = timeOnce(() => plain.isAllowed(url))
      samples.push(t)
      spent += t
    }
    plainPerLength[len] = { medianMs: median(samples), urls: samples.length, nsPerByte: (median(samples) * 1e6) / len }
  }
  const auto = results.filter((r) => r.file === f.name)
  plainRows.push([
    f.name,
    ...URL_LENGTHS.flatMap((len) => [
      `${ms(plainPerLength[len].medianMs)} (${plainPerLength[len].nsPerByte.toFixed(1)} ns/B)`,
      auto.map((r) => (plainPerLength[len].medianMs / r.perLength[len].medianMs).toFixed(2) + '×').join(' / '),
    ]),
  ])
  for (const r of auto) r.plain = plainPerLength
  console.error(`  [worst-case] ${f.name} / plain engine done`)
}

console.log(
  table(
    ['file', 'size', 'budget', 'parse', 'compile: agent() + first use', '8 KiB URL: median', '64 KiB URL: median', '64K/8K', '8 KiB again', 'memoryUsage()', 'states', 'flushes'],
    rows,
  ),
)
console.log('')
console.log('64K/8K: time per URL at 64 KiB over time per URL at 8 KiB; 8.0× is linear in the URL length. "8 KiB again": an 8 KiB URL seen before (cached states).')
console.log('')
console.log("Baseline: the plain engine (engine: 'plain', every rule against the path), same URLs; speedup = plain time / automaton time (default budget / 64 MiB)")
console.log(table(['file', ...URL_LENGTHS.flatMap((l) => [`plain, ${l / 1024} KiB URL`, 'automaton speedup'])], plainRows))
console.log('')
const worst = Math.max(...results.map((r) => r.ratio64to8))
console.log(`largest 64K/8K ratio: ${worst.toFixed(1)}×${worst > 12 ? '  <-- superlinear: see the per-file rows' : ''}`)

writeJson(opts.json, { workload: 'worst-case', machine, urlLengths: URL_LENGTHS, urlsPerLength, results })
