// Store: RobotsStore at 1,000,000 origins with the corpus's distribution.
//
//   node --expose-gc --max-old-space-size=8192 bench/store.mjs [--origins N] [--sample N]
//        [--hot N] [--lookups N] [--matcher-mb N] [--quick] [--json FILE] [--profile-hot]
//
// Origins: origin i (https://s<i>.<one of 40 generated domains>) gets corpus
// file i mod 6,817 (every file of ../shared/corpus/robots in turn, so the
// set has the corpus's distribution of sizes and contents) with one unique
// line appended, `Disallow: /<8 random letters>/`, so that no two bodies
// are the same (sharing identical bodies would be a fair optimisation, but
// this measures the per-origin form).
//
// Figures:
// - load: store.set(origin, body) for every origin (bodies made on the fly
//   and dropped; wall time, and origins/s);
// - retained bytes per origin: Δ(heapUsed + arrayBuffers) of
//   process.memoryUsage() across the load, after gc() and a macrotask turn,
//   divided by the origins; and store.memoryUsage() (the library's own
//   estimate). robots-parser: one robotsParser(url, body) object per origin
//   on a sample of the same origins (--sample, default 100,000: a million
//   would need about 9 GB of heap), same method;
// - isAllowed throughput, agent 'Googlebot', URLs with the paths of the
//   paired corpus URLs (of the file's own host when it has some, else of
//   any host): (a) cold: each lookup on a random origin of all of
//   them (matchers compiled on first use and mostly dropped by the LRU);
//   (b) hot: lookups spread over a working set of --hot origins (default
//   10,000) after one warm-up pass, matchers kept in the LRU
//   (matcherBudget --matcher-mb, default 256 MiB); robots-parser's isAllowed
//   on the sample's objects for comparison (its parse is not counted);
//   (c) hot, small files: --hot origins in a store of their own, each with a
//   four-line robots.txt, the same URL paths (issue 19's goal: ≤ 0.35 µs a
//   URL); each figure also as µs a URL (CPU);
// - the bundle: toBytes() size and time, RobotsStore.fromBytes() time
//   (eager and lazy), and that the loaded store answers a sample of URLs
//   as the original.
import { RobotsStore } from '../dist/index.js'
import robotsParser from 'robots-parser'
import { describeCorpus, loadAllRobots, loadPaired } from './lib/corpus.mjs'
import { bytes, median, parseArgs, printHeader, table, writeJson } from './lib/stats.mjs'
import { prng } from '../test/support/prng.mjs'
import { settle } from './lib/settle.mjs'

if (typeof globalThis.gc !== 'function') {
  console.error('store needs --expose-gc: node --expose-gc --max-old-space-size=8192 bench/store.mjs')
  process.exit(2)
}

const opts = parseArgs(process.argv.slice(2), { origins: 1_000_000, sample: 100_000, hot: 10_000, lookups: 1_000_000, matcherMb: 256 })
const N = opts.quick ? 20_000 : opts.origins
const SAMPLE = Math.min(N, opts.quick ? 5_000 : opts.sample)
const HOT = Math.min(N, opts.quick ? 1_000 : opts.hot)
const LOOKUPS = opts.quick ? 100_000 : opts.lookups
const AGENT = 'Googlebot'
const GOAL_BYTES = 2.0e9 / 1e6 // per origin at 1,000,000 origins: ≤ 2.0 GB in all
const AIM_BYTES = 1.5e9 / 1e6

const corpus = loadAllRobots()
const files = corpus.files.map((f) => f.bytes)
// URL paths: those of the paired corpus URLs of the file's own host where it has some, else any.
const pathOf = (u) => {
  const at = u.indexOf('/', u.indexOf('//') + 2)
  return at < 0 ? '/' : u.slice(at)
}
const paths = []
const pathsByFile = new Map()
for (const h of loadPaired().hosts) {
  const own = h.urls.map(pathOf)
  paths.push(...own)
  if (h.robotsFile) pathsByFile.set(h.robotsFile.replace(/^robots\//, ''), own)
}
const filePaths = corpus.files.map((f) => pathsByFile.get(f.file) ?? paths)
const machine = printHeader('Store: RobotsStore at 1,000,000 origins', {
  corpus: describeCorpus(corpus.info),
  workload: `${N.toLocaleString('en')} origins (corpus file i mod ${files.length} + one unique line); robots-parser on ${SAMPLE.toLocaleString('en')} of them; ${LOOKUPS.toLocaleString('en')} lookups cold and hot (${HOT.toLocaleString('en')} origins)`,
})

const DOMAINS = Array.from({ length: 40 }, (_, i) => `example-${i.toString(36)}.${['com', 'org', 'net', 'de', 'co.uk'][i % 5]}`)
const host = (i) => `s${i}.${DOMAINS[i % DOMAINS.length]}`
const origin = (i) => `https://${host(i)}`
const enc = new TextEncoder()
const letters = 'abcdefghijklmnopqrstuvwxyz'

/** The body of origin i: its corpus file plus one unique line (a fresh buffer). */
function body(i) {
  const file = files[i % files.length]
  const r = prng(i + 1)
  let word = ''
  for (let k = 0; k < 8; k++) word += letters[Math.floor(r() * 26)]
  // A newline first, in case the file does not end with one; the line is outside any group when the file has none.
  const tail = enc.encode(`\nDisallow: /${word}/\n`)
  const out = new Uint8Array(file.length + tail.length)
  out.set(file)
  out.set(tail, file.length)
  return out
}

function retained() {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
const phase = (name, t0) => console.error(`  [store] ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)

// 1. Load.
await settle()
const before = retained()
const store = new RobotsStore({ matcherBudget: opts.matcherMb * 1024 * 1024 })
let t0 = performance.now()
for (let i = 0; i < N; i++) store.set(origin(i), body(i))
const loadMs = performance.now() - t0
phase('load', t0)
await settle()
const storeBytes = retained() - before
const ownEstimate = store.memoryUsage()
const stats = store.stats()

// 2. Lookups.
const rand = prng(2024)
const urlOf = (i) => {
  const own = filePaths[i % files.length]
  return origin(i) + own[Math.floor(rand() * own.length)]
}
const coldUrls = Array.from({ length: LOOKUPS }, () => urlOf(Math.floor(rand() * N)))
const hotIds = Array.from({ length: HOT }, (_, k) => Math.floor((k * N) / HOT))
const hotUrls = Array.from({ length: LOOKUPS }, () => urlOf(hotIds[Math.floor(rand() * HOT)]))
const theirUrls = Array.from({ length: Math.min(LOOKUPS, 200_000) }, () => {
  const s = Math.floor(rand() * SAMPLE)
  return [s, urlOf(Math.floor((s * N) / SAMPLE))]
})

function timeLookups(urls) {
  let allowed = 0
  const c0 = process.cpuUsage()
  const w0 = performance.now()
  for (let k = 0; k < urls.length; k++) if (store.isAllowed(urls[k], AGENT)) allowed++
  const w = performance.now() - w0
  const c = process.cpuUsage(c0)
  return { ms: w, cpuMs: (c.user + c.system) / 1000, perSecond: urls.length / ((c.user + c.system) / 1e6), allowed }
}
// --profile-hot: the hot look-ups alone, after their warm-up, then exit (for `node --cpu-prof`).
if (opts.profileHot) {
  timeLookups(hotUrls.slice(0, Math.min(hotUrls.length, HOT * 4)))
  for (let k = 0; k < 3; k++) timeLookups(hotUrls)
  process.exit(0)
}
const compilesBefore = store.stats().compiles
const cold = timeLookups(coldUrls)
cold.compiles = store.stats().compiles - compilesBefore
phase('cold lookups', performance.now() - cold.ms)
timeLookups(hotUrls.slice(0, Math.min(hotUrls.length, HOT * 4))) // warm-up: the hot set compiled
const hotCompilesBefore = store.stats().compiles
const hot = timeLookups(hotUrls)
hot.compiles = store.stats().compiles - hotCompilesBefore
hot.matcherBytes = store.stats().matcherBytes
phase('hot lookups', performance.now() - hot.ms)
// 2c. Hot look-ups of small files: a store of HOT origins of its own, a four-line file each.
const small = new RobotsStore({ matcherBudget: opts.matcherMb * 1024 * 1024 })
for (let k = 0; k < HOT; k++) small.set(origin(hotIds[k]), `User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\nDisallow: /s${k}/\n`)
const timeSmall = (urls) => {
  let allowed = 0
  const c0 = process.cpuUsage()
  for (let k = 0; k < urls.length; k++) if (small.isAllowed(urls[k], AGENT)) allowed++
  const c = process.cpuUsage(c0)
  return { cpuMs: (c.user + c.system) / 1000, perSecond: urls.length / ((c.user + c.system) / 1e6), allowed }
}
timeSmall(hotUrls)
const hotSmall = [timeSmall(hotUrls), timeSmall(hotUrls), timeSmall(hotUrls)].sort((a, b) => a.cpuMs - b.cpuMs)[1]

const micro = (perSecond) => `${(1e6 / perSecond).toFixed(3)} µs`
// 3. The bundle.
t0 = performance.now()
const bundle = store.toBytes()
const toBytesMs = performance.now() - t0
t0 = performance.now()
const eager = RobotsStore.fromBytes(bundle)
const eagerMs = performance.now() - t0
t0 = performance.now()
const lazy = RobotsStore.fromBytes(bundle, { lazy: true })
const lazyMs = performance.now() - t0
let same = 0
for (let k = 0; k < 20_000; k++) {
  const u = coldUrls[k]
  const a = store.explain(u, AGENT)
  const b = eager.explain(u, AGENT)
  const c = lazy.explain(u, AGENT)
  if (a.allowed === b.allowed && a.allowed === c.allowed && a.rule?.line === b.rule?.line && a.rule?.line === c.rule?.line) same++
}
if (same !== 20_000) throw new Error(`bundle answers differ (${same} of 20,000 equal)`)

// 4. robots-parser on a sample of the same origins, after ours (its objects would otherwise fill the
// heap that our lookups' garbage collections walk).
await settle()
const beforeTheirs = retained()
const theirs = new Array(SAMPLE)
t0 = performance.now()
const dec = new TextDecoder()
for (let s = 0; s < SAMPLE; s++) {
  const i = Math.floor((s * N) / SAMPLE)
  theirs[s] = robotsParser(`${origin(i)}/robots.txt`, dec.decode(body(i)))
}
const theirLoadMs = performance.now() - t0
phase('robots-parser sample', t0)
await settle()
const theirBytes = retained() - beforeTheirs

let theirAllowed = 0
const tc0 = process.cpuUsage()
for (const [s, u] of theirUrls) if (theirs[s].isAllowed(u, AGENT)) theirAllowed++
const tc = process.cpuUsage(tc0)
const theirPerSecond = theirUrls.length / ((tc.user + tc.system) / 1e6)


const perOrigin = storeBytes / N
const theirPerOrigin = theirBytes / SAMPLE
const projected = (perOrigin * 1e6) / 1e9
console.log(
  table(
    ['figure', 'robots-automaton RobotsStore', 'robots-parser (one object per origin)', 'ratio'],
    [
      ['origins', N.toLocaleString('en'), SAMPLE.toLocaleString('en') + ' (sample)', ''],
      ['retained bytes per origin', `${bytes(perOrigin)} (${(storeBytes / 1e9).toFixed(2)} GB in all)`, bytes(theirPerOrigin), `${((perOrigin / theirPerOrigin) * 100).toFixed(0)}%`],
      ['memoryUsage() per origin (own estimate)', bytes(ownEstimate / N), '', ''],
      ['load (parse and store)', `${(loadMs / 1000).toFixed(1)} s (${Math.round(N / (loadMs / 1000)).toLocaleString('en')} origins/s)`, `${(theirLoadMs / 1000).toFixed(1)} s for the sample (${Math.round(SAMPLE / (theirLoadMs / 1000)).toLocaleString('en')} origins/s)`, ''],
      [`isAllowed, cold (random origin of ${N.toLocaleString('en')})`, `${Math.round(cold.perSecond).toLocaleString('en')} URLs/s, ${micro(cold.perSecond)} a URL (CPU; ${cold.compiles.toLocaleString('en')} compiles)`, `${Math.round(theirPerSecond).toLocaleString('en')} URLs/s (isAllowed only)`, `${(cold.perSecond / theirPerSecond).toFixed(2)}×`],
      [`isAllowed, hot (${HOT.toLocaleString('en')} origins)`, `${Math.round(hot.perSecond).toLocaleString('en')} URLs/s, ${micro(hot.perSecond)} a URL (CPU; ${hot.compiles.toLocaleString('en')} compiles, ${bytes(hot.matcherBytes)} of matchers)`, '', `${(hot.perSecond / theirPerSecond).toFixed(2)}×`],
      [`isAllowed, hot, small files (${HOT.toLocaleString('en')} origins)`, `${Math.round(hotSmall.perSecond).toLocaleString('en')} URLs/s, ${micro(hotSmall.perSecond)} a URL (CPU, median of 3)`, '', `${(hotSmall.perSecond / theirPerSecond).toFixed(2)}×`],
      ['bundle: toBytes()', `${(bundle.length / 1e9).toFixed(2)} GB in ${(toBytesMs / 1000).toFixed(1)} s`, '', ''],
      ['bundle: fromBytes() eager / lazy', `${(eagerMs / 1000).toFixed(2)} s / ${(lazyMs / 1000).toFixed(2)} s`, '', ''],
    ],
  ),
)
console.log('')
console.log(`arenas: ${bytes(stats.liveBytes)} live, ${bytes(stats.garbageBytes)} garbage; ${stats.entries.toLocaleString('en')} entries`)
console.log(`at 1,000,000 origins: ${projected.toFixed(2)} GB retained   goal ≤ 2.0 GB: ${projected <= 2 ? 'met' : 'NOT met'}   aim ≤ 1.5 GB: ${projected <= 1.5 ? 'met' : 'NOT met'}`)

writeJson(opts.json, {
  workload: 'store',
  machine,
  corpus: corpus.info,
  origins: N,
  sample: SAMPLE,
  retainedPerOrigin: perOrigin,
  retainedTotal: storeBytes,
  memoryUsagePerOrigin: ownEstimate / N,
  robotsParserPerOrigin: theirPerOrigin,
  loadMs,
  robotsParserSampleLoadMs: theirLoadMs,
  cold,
  hot,
  hotSmall,
  robotsParserPerSecond: theirPerSecond,
  bundle: { bytes: bundle.length, toBytesMs, eagerMs, lazyMs },
  stats,
  goalBytesPerOrigin: GOAL_BYTES,
  aimBytesPerOrigin: AIM_BYTES,
  met: perOrigin <= GOAL_BYTES,
})
