// The store's hot path alone: RobotsStore.isAllowed over a working set of
// hot origins with small files, every matcher compiled, no compiles while
// timed; µs a URL by process CPU time. The baseline, on the same URLs: each
// judged by its own origin's matcher, fetched from the store beforehand
// (`store ÷ prepared`: what the look-up costs; goal ≤ 2); the two run in 9
// interleaved pairs of passes and each gives its median. The other columns
// are the median of 5 passes each.
//
//   node bench/store-hot.mjs [--hot N] [--lookups N] [--dist DIR]... [--json FILE]   (build first: npm run build)
//
// Origins https://s<i>.d<i mod 40>-example.com (--hot, default 10,000), each
// with a five-line file; URLs: a random hot origin each, with the path and
// query of a URL of the bundled sample (corpus/urls.txt). Two forms of the
// same URLs: flat strings (as a reader or JSON.parse makes them) and strings
// concatenated from origin and path (V8 cons strings, as store.mjs makes
// them). Then the split of a flat look-up: lookup(url) alone, plus
// matcher(id, agent), and one matcher's isAllowed on every URL. Each --dist
// (default dist/) is measured in turn in its own child process, so two
// builds compare in one run.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs, writeJson } from './lib/stats.mjs'
import { prng } from '../test/support/prng.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)

if (argv[0] === '--child') {
  const [, dist, hotArg, lookupsArg] = argv
  const { RobotsStore } = await import(pathToFileURL(join(dist, 'index.js')).href)
  const HOT = Number(hotArg)
  const LOOKUPS = Number(lookupsArg)
  const AGENT = 'Googlebot'
  const origin = (i) => `https://s${i}.d${i % 40}-example.com`
  const paths = readFileSync(join(ROOT, 'corpus/urls.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((u) => {
      const url = new URL(u)
      return url.pathname + url.search
    })
  const store = new RobotsStore({ matcherBudget: 256 << 20 })
  for (let k = 0; k < HOT; k++) store.set(origin(k), `User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\nDisallow: /s${k}/\n`)
  const rand = prng(2024)
  const cons = Array.from({ length: LOOKUPS }, () => origin(Math.floor(rand() * HOT)) + paths[Math.floor(rand() * paths.length)])
  const flat = JSON.parse(JSON.stringify(cons))
  const cpu = (f) => {
    f()
    const runs = []
    for (let r = 0; r < 5; r++) {
      const c0 = process.cpuUsage()
      f()
      const c = process.cpuUsage(c0)
      runs.push((c.user + c.system) / LOOKUPS)
    }
    return runs.sort((a, b) => a - b)[2]
  }
  const isAllowed = (urls) => () => {
    let n = 0
    for (let k = 0; k < urls.length; k++) if (store.isAllowed(urls[k], AGENT)) n++
    return n
  }
  const one = store.matcher(store.lookup(flat[0]), AGENT)
  // The baseline: each URL judged by its own origin's matcher, fetched from the store beforehand (no look-up timed).
  const prepared = flat.map((u) => store.matcher(store.lookup(u), AGENT))
  // Every matcher hot before anything is timed (past its tier threshold), so that both sides judge with the same tier.
  for (let r = 0; r < 8; r++) for (let k = 0; k < flat.length; k++) prepared[k].isAllowed(flat[k])
  // The store and the prepared matchers on the same URLs, passes interleaved (a noisy stretch of the machine hits both).
  const preparedPass = () => {
    let s = 0
    for (let k = 0; k < flat.length; k++) if (prepared[k].isAllowed(flat[k])) s++
    return s
  }
  const storePass = isAllowed(flat)
  const pairs = { prepared: [], flat: [] }
  for (let r = 0; r < 9; r++) {
    for (const [name, f] of r & 1 ? [['flat', storePass], ['prepared', preparedPass]] : [['prepared', preparedPass], ['flat', storePass]]) {
      const c0 = process.cpuUsage()
      f()
      const c = process.cpuUsage(c0)
      pairs[name].push((c.user + c.system) / LOOKUPS)
    }
  }
  const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1]
  const out = {
    prepared: med(pairs.prepared),
    flat: med(pairs.flat),
    cons: cpu(isAllowed(cons)),
    lookup: cpu(() => {
      let s = 0
      for (let k = 0; k < flat.length; k++) s += store.lookup(flat[k])
      return s
    }),
    lookupMatcher: cpu(() => {
      let s = 0
      for (let k = 0; k < flat.length; k++) if (store.matcher(store.lookup(flat[k]), AGENT) !== null) s++
      return s
    }),
    oneMatcher: cpu(() => {
      let s = 0
      for (let k = 0; k < flat.length; k++) if (one.isAllowed(flat[k])) s++
      return s
    }),
  }
  console.log(JSON.stringify(out))
  process.exit(0)
}

const opts = parseArgs(argv, { hot: 10_000, lookups: 1_000_000 })
const dists = []
for (let i = 0; i < argv.length; i++) if (argv[i] === '--dist') dists.push(resolve(argv[i + 1]))
if (dists.length === 0) dists.push(join(ROOT, 'dist'))

const µs = (x) => x.toFixed(3)
const results = []
console.log(`store hot path: ${opts.hot.toLocaleString('en')} origins with small files, ${opts.lookups.toLocaleString('en')} look-ups a pass; µs a URL (CPU; store and prepared: medians of 9 interleaved pairs, the rest: medians of 5)`)
console.log('build | isAllowed, flat strings | its origin\'s matcher prepared, isAllowed | store ÷ prepared | isAllowed, concatenated strings | lookup | lookup + matcher | one matcher, isAllowed')
for (const dist of dists) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, String(opts.hot), String(opts.lookups)], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (r.status !== 0) {
    console.log(`${dist} | failed: ${r.stderr.trim().split('\n').pop()}`)
    continue
  }
  const x = JSON.parse(r.stdout)
  console.log(`${dist} | ${µs(x.flat)} | ${µs(x.prepared)} | ${(x.flat / x.prepared).toFixed(2)}× | ${µs(x.cons)} | ${µs(x.lookup)} | ${µs(x.lookupMatcher)} | ${µs(x.oneMatcher)}`)
  results.push({ dist, ...x, storeOverPrepared: x.flat / x.prepared })
}
if (opts.json) writeJson(opts.json, { workload: 'store-hot', hot: opts.hot, lookups: opts.lookups, goal: 2, results })
