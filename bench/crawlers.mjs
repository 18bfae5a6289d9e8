// Eight crawlers in one pass against one crawler: the library (match-only,
// from first use, and steady state) on the paired corpus, and `filter`
// (one run with --crawlers against one --agent run and against eight).
// Goal: eight crawlers cost at most twice one crawler's time.
//
//   node bench/crawlers.mjs [--runs N] [--quick] [--json FILE] [--only lib|cli|audit] [--profile lib|lines]
//
// Library, per pass over every host of paired.tsv (each host's robots.txt
// parsed beforehand; fresh `Robots` objects for every pass, so that every
// matcher starts cold: "from first use"):
// - one:    robots.agent('Googlebot'), then isAllowed(url) for its URLs
// - eight:  robots.crawlers(EIGHT), then set.match(url, out) for its URLs
// - 8×one:  robots.agent(c) for each of the eight, each judging every URL
// and the same over each host's URLs as one buffer: matcher.matchLines
// against set.matchLines. Steady state: the same passes again on the same
// objects once every matcher has left the cold tier.
// Samples are CPU time of this process (the machine is shared), medians;
// the ratios are of medians from the same run.
//
// Command line: `filter --robots-dir DIR` over the paired URLs (one file
// of 111,805 lines), --jobs 1: --crawlers EIGHT against --agent Googlebot,
// and against the eight --agent runs one after the other; CPU time of the
// child processes, medians.
//
// Audit: `audit --robots-dir corpus/robots --crawlers EIGHT` on the
// bundled sample, wall time of the command, median (the goal: under a second).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Robots, RobotsStore, parseRobots } from '../dist/index.js'
import { describeCorpus, loadPaired, ROOT } from './lib/corpus.mjs'
import { median, parseArgs, printHeader, table, writeJson } from './lib/stats.mjs'

const EIGHT = ['GPTBot', 'CCBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'Bytespider', 'PerplexityBot', 'Googlebot']
const ONE = 'Googlebot'
/** Goal: eight crawlers in one pass cost at most this many times one crawler. */
const GOAL = 2

const opts = parseArgs(process.argv.slice(2), { runs: 9 })
const runs = opts.quick ? 3 : opts.runs
const only = typeof opts.only === 'string' ? opts.only : undefined
const corpus = loadPaired(opts.quick ? { limit: 200 } : {})
const encoder = new TextEncoder()
const hosts = corpus.hosts.map((h) => {
  const form = parseRobots(h.bytes).toBytes()
  const lines = encoder.encode(h.urls.join('\n'))
  return { host: h.host, form, urls: h.urls, lines, origins: h.origins.map((o) => o.origin).filter((o) => o !== 'null') }
})
/**
 * The same hosts with a group of their own for each of the eight crawlers in
 * front of their file (`User-agent: GPTBot` / `Disallow: /0/` …): eight
 * distinct matchers per host, the worst case of sharing, for the record.
 */
const namedHosts = corpus.hosts.map((h, g) => {
  const head = encoder.encode(EIGHT.map((c, i) => `User-agent: ${c}\nDisallow: /${i}/\nAllow: /${i}/public/\nDisallow: /*.${i}$\n\n`).join(''))
  const body = new Uint8Array(head.length + h.bytes.length)
  body.set(head)
  body.set(h.bytes, head.length)
  return { ...hosts[g], form: parseRobots(body).toBytes() }
})

/** Every host's URLs in one list, for the store passes (hosts interleaved as a frontier meets them: round robin). */
const allUrls = []
for (let i = 0, more = true; more; i++) {
  more = false
  for (const h of hosts) if (i < h.urls.length) {
    allUrls.push(h.urls[i])
    more = true
  }
}
/** A fresh store of every host's robots.txt under each of its origins (nothing compiled yet). */
function freshStore() {
  const store = new RobotsStore({ matcherBudget: 256 * 2 ** 20 })
  for (const h of hosts) for (const o of h.origins) store.setRobots(o, Robots.fromBytes(h.form))
  return store
}
const n = corpus.urlCount

const machine = printHeader('Eight crawlers in one pass against one crawler', {
  corpus: describeCorpus(corpus.info),
  workload: `${hosts.length} hosts, ${n} URLs; crawlers ${EIGHT.join(', ')}; one crawler: ${ONE}; ${runs} samples, CPU time, medians`,
})

function cpu(fn) {
  const t0 = process.cpuUsage()
  const r = fn()
  const t = process.cpuUsage(t0)
  return [(t.user + t.system) / 1000, r]
}

/** Fresh Robots of every host (every matcher cold), made outside the timed pass. */
const fresh = () => hosts.map((h) => Robots.fromBytes(h.form))

/** The passes; each takes the hosts' Robots and returns a checksum (allowed count). */
const out = new Int32Array(EIGHT.length)
let linesOut = new Int32Array(0)
let verdicts = new Uint8Array(0)
const PASSES = {
  one(rs) {
    let a = 0
    for (let g = 0; g < hosts.length; g++) {
      const m = rs[g].agent(ONE)
      const urls = hosts[g].urls
      for (let i = 0; i < urls.length; i++) if (m.isAllowed(urls[i])) a++
    }
    return a
  },
  eight(rs) {
    let a = 0
    for (let g = 0; g < hosts.length; g++) {
      const set = rs[g].crawlers(EIGHT)
      const urls = hosts[g].urls
      for (let i = 0; i < urls.length; i++) a += set.match(urls[i], out)[7] & 1
    }
    return a
  },
  eightAlone(rs) {
    let a = 0
    for (let g = 0; g < hosts.length; g++) {
      const urls = hosts[g].urls
      for (const c of EIGHT) {
        const m = rs[g].agent(c)
        for (let i = 0; i < urls.length; i++) if (m.isAllowed(urls[i]) && c === ONE) a++
      }
    }
    return a
  },
  oneLines(rs) {
    let a = 0
    for (let g = 0; g < hosts.length; g++) {
      const h = hosts[g]
      if (verdicts.length < h.urls.length) verdicts = new Uint8Array(h.urls.length * 2)
      const v = rs[g].agent(ONE).matchLines(h.lines, verdicts)
      for (let i = 0; i < v.length; i++) a += v[i]
    }
    return a
  },
  eightLines(rs) {
    let a = 0
    for (let g = 0; g < hosts.length; g++) {
      const h = hosts[g]
      if (linesOut.length < h.urls.length * 8) linesOut = new Int32Array(h.urls.length * 16)
      const v = rs[g].crawlers(EIGHT).matchLines(h.lines, linesOut)
      for (let i = 7; i < v.length; i += 8) a += v[i] & 1
    }
    return a
  },
}

const results = { machine, goal: GOAL }

/** The store passes: a frontier's URLs of every host, interleaved, judged for one crawler or the eight. */
const STORE_PASSES = {
  storeOne(store) {
    let a = 0
    for (let i = 0; i < allUrls.length; i++) if (store.isAllowed(allUrls[i], ONE)) a++
    return a
  },
  storeEight(store) {
    let a = 0
    const crawlers = store.crawlers(EIGHT)
    for (let i = 0; i < allUrls.length; i++) a += crawlers.match(allUrls[i], out)[7] & 1
    return a
  },
}

if (opts.profile === 'lib' || opts.profile === 'lines') {
  const name = opts.profile === 'lib' ? 'eight' : 'eightLines'
  for (let k = 0; k < 30; k++) PASSES[name](fresh())
  process.exit(0)
}

// ---- library ----
if (only === undefined || only === 'lib') {
  // Sanity: every crawler of the set as its own matcher, URL by URL, and the line forms alike.
  {
    const rs = fresh()
    const alone = fresh()
    let bad = 0
    for (let g = 0; g < hosts.length; g++) {
      const set = rs[g].crawlers(EIGHT)
      const rows = set.matchLines(hosts[g].lines)
      hosts[g].urls.forEach((u, i) => {
        const codes = set.match(u)
        EIGHT.forEach((c, k) => {
          const m = alone[g].agent(c)
          const want = m.matchRange(encoder.encode(u), 0, encoder.encode(u).length)
          if (codes[k] !== want || rows[i * 8 + k] !== want) bad++
        })
      })
    }
    if (bad > 0) throw new Error(`${bad} answers of the set differ from the crawlers' own`)
    const distinct = rs.map((r) => r.crawlers(EIGHT).matchers.length)
    const weighted = hosts.reduce((s, h, g) => s + h.urls.length * distinct[g], 0) / n
    results.distinct = { mean: distinct.reduce((a, b) => a + b, 0) / distinct.length, weightedByUrls: weighted, histogram: Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((d) => [d, distinct.filter((x) => x === d).length])) }
    console.log(`distinct matchers per host for the eight: mean ${results.distinct.mean.toFixed(2)}, weighted by URLs ${weighted.toFixed(2)}; hosts by count ${JSON.stringify(results.distinct.histogram)}`)
  }
  const first = Object.fromEntries(Object.keys(PASSES).map((k) => [k, []]))
  const steady = Object.fromEntries(Object.keys(PASSES).map((k) => [k, []]))
  for (let r = 0; r < runs + 1; r++) {
    for (const [name, pass] of Object.entries(PASSES)) {
      const rs = fresh()
      const [t] = cpu(() => pass(rs))
      // Until every matcher with rules is hot: the steady state, on the same objects.
      for (let w = 0; w < 4; w++) pass(rs)
      const [s] = cpu(() => pass(rs))
      if (r > 0) {
        first[name].push(t)
        steady[name].push(s)
      }
    }
  }
  const row = (label, name, base, ofSet) => {
    const f = median(first[name])
    const s = median(steady[name])
    return [label, `${f.toFixed(1)} ms`, `${(f / median(first[base])).toFixed(2)}×`, `${s.toFixed(1)} ms`, `${(s / median(steady[base])).toFixed(2)}×`, ofSet ?? '']
  }
  console.log('\nLibrary, match-only (ratio: to one crawler\'s same form)')
  console.log(
    table(
      ['variant', 'from first use', 'ratio', 'steady state', 'ratio', ''],
      [
        row('one crawler, isAllowed(string)', 'one', 'one'),
        row('eight, set.match(string, out)', 'eight', 'one', `goal ≤ ${GOAL}×`),
        row('eight one-crawler matchers', 'eightAlone', 'one'),
        row('one crawler, matchLines(bytes)', 'oneLines', 'oneLines'),
        row('eight, set.matchLines(bytes, out)', 'eightLines', 'oneLines', `goal ≤ ${GOAL}×`),
      ],
    ),
  )
  // The store: fresh stores (nothing compiled), a frontier's interleaved URLs.
  const storeFirst = { storeOne: [], storeEight: [] }
  const storeSteady = { storeOne: [], storeEight: [] }
  for (let r = 0; r < runs + 1; r++) {
    for (const [name, pass] of Object.entries(STORE_PASSES)) {
      const store = freshStore()
      const [t, a] = cpu(() => pass(store))
      for (let w = 0; w < 4; w++) pass(store)
      const [s2] = cpu(() => pass(store))
      if (r === 0 && name === 'storeEight' && a !== STORE_PASSES.storeOne(freshStore())) throw new Error('the store passes disagree on Googlebot')
      if (r > 0) {
        storeFirst[name].push(t)
        storeSteady[name].push(s2)
      }
    }
  }
  const sf = (n) => median(storeFirst[n])
  const ss = (n) => median(storeSteady[n])
  console.log(`\nThe store (${allUrls.length} URLs of ${hosts.length} hosts interleaved, fresh stores: matchers compiled on first use)`)
  console.log(
    table(
      ['variant', 'from first use', 'ratio', 'steady state', 'ratio', ''],
      [
        ['one crawler, store.isAllowed(url, agent)', `${sf('storeOne').toFixed(1)} ms`, '1.00×', `${ss('storeOne').toFixed(1)} ms`, '1.00×', ''],
        ['eight, store.crawlers(EIGHT).match(url, out)', `${sf('storeEight').toFixed(1)} ms`, `${(sf('storeEight') / sf('storeOne')).toFixed(2)}×`, `${ss('storeEight').toFixed(1)} ms`, `${(ss('storeEight') / ss('storeOne')).toFixed(2)}×`, ''],
      ],
    ),
  )
  results.store = { oneFirstMs: sf('storeOne'), eightFirstMs: sf('storeEight'), oneSteadyMs: ss('storeOne'), eightSteadyMs: ss('storeEight') }
  results.library = Object.fromEntries(Object.keys(PASSES).map((k) => [k, { firstMs: median(first[k]), steadyMs: median(steady[k]) }]))

  // The worst case of sharing: every crawler named, eight matchers per host (not the goal's workload).
  const named = { one: [], eight: [], oneLines: [], eightLines: [] }
  const freshNamed = () => namedHosts.map((h) => Robots.fromBytes(h.form))
  const saved = hosts.slice()
  hosts.splice(0, hosts.length, ...namedHosts)
  try {
    for (let r = 0; r < runs + 1; r++) {
      for (const name of Object.keys(named)) {
        const [t] = cpu(() => PASSES[name](freshNamed()))
        if (r > 0) named[name].push(t)
      }
    }
  } finally {
    hosts.splice(0, hosts.length, ...saved)
  }
  const nf = (n) => median(named[n])
  console.log('\nWorst case of sharing, for the record: every host names each of the eight in a group of its own (eight matchers per host), from first use')
  console.log(
    table(
      ['variant', 'from first use', 'ratio'],
      [
        ['one crawler, isAllowed(string)', `${nf('one').toFixed(1)} ms`, '1.00×'],
        ['eight, set.match(string, out)', `${nf('eight').toFixed(1)} ms`, `${(nf('eight') / nf('one')).toFixed(2)}×`],
        ['one crawler, matchLines(bytes)', `${nf('oneLines').toFixed(1)} ms`, '1.00×'],
        ['eight, set.matchLines(bytes, out)', `${nf('eightLines').toFixed(1)} ms`, `${(nf('eightLines') / nf('oneLines')).toFixed(2)}×`],
      ],
    ),
  )
  results.allNamed = { oneMs: nf('one'), eightMs: nf('eight'), oneLinesMs: nf('oneLines'), eightLinesMs: nf('eightLines') }
  results.library.ratioFirst = median(first.eight) / median(first.one)
  results.library.ratioLinesFirst = median(first.eightLines) / median(first.oneLines)
}

// ---- command line ----
const CLI = join(ROOT, 'dist/cli.js')
const CPU_WRAP = join(ROOT, 'bench/lib/cpu-wrap.mjs')

/** A run of the command line: its CPU time (the child's own, process.cpuUsage() at exit: bench/lib/cpu-wrap.mjs) and wall time, ms. */
function cliRun(args, dir) {
  const out = join(dir, 'cpu.json')
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, [CPU_WRAP, CLI, ...args], { env: { ...process.env, CPU_OUT: out }, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 })
  const wall = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0) throw new Error(`robots-automaton ${args.join(' ')}: exit ${r.status}: ${r.stderr}`)
  const cpuUsed = JSON.parse(readFileSync(out, 'utf8'))
  return { cpu: (cpuUsed.user + cpuUsed.system) / 1000, wall }
}

if (only === undefined || only === 'cli') {
  const dir = mkdtempSync(join(tmpdir(), 'crawlers-bench-'))
  try {
    const robotsDir = join(dir, 'robots')
    mkdirSync(robotsDir)
    const seen = new Set()
    const lines = []
    for (const h of corpus.hosts) {
      for (const u of h.urls) lines.push(u)
      for (const o of h.origins) {
        const name = new URL(o.robotsUrl).hostname
        if (!seen.has(name) && h.bytes.length > 0) {
          seen.add(name)
          writeFileSync(join(robotsDir, name), h.bytes)
        }
      }
    }
    const urls = join(dir, 'urls.txt')
    writeFileSync(urls, lines.join('\n') + '\n')
    results.cli = {}
    for (const print of ['allowed', 'verdicts']) {
      const base = ['filter', '--robots-dir', robotsDir, '--jobs', '1', '-q', '--print', print, urls]
      const samples = { one: [], eight: [], eightRuns: [] }
      const cpuOf = (args) => cliRun(args, dir).cpu
      for (let r = 0; r < runs + 1; r++) {
        const one = cpuOf([...base, '--agent', ONE])
        const eight = cpuOf([...base, '--crawlers', EIGHT.join(',')])
        let eightRuns = 0
        for (const c of EIGHT) eightRuns += cpuOf([...base, '--agent', c])
        if (r > 0) {
          samples.one.push(one)
          samples.eight.push(eight)
          samples.eightRuns.push(eightRuns)
        }
      }
      const one = median(samples.one)
      const eight = median(samples.eight)
      const eightRuns = median(samples.eightRuns)
      console.log(`\nfilter --robots-dir DIR --print ${print}, ${lines.length} URL lines in one file, --jobs 1 (CPU time of the process, node's start included; medians)`)
      console.log(
        table(
          ['run', 'CPU', 'eight in one pass ÷ this'],
          [
            ['--agent Googlebot (one crawler)', `${one.toFixed(0)} ms`, `${(eight / one).toFixed(2)}× (goal ≤ ${GOAL}×)`],
            ['--crawlers EIGHT (one pass)', `${eight.toFixed(0)} ms`, '1.00×'],
            ['eight --agent runs, one after the other', `${eightRuns.toFixed(0)} ms`, `${(eight / eightRuns).toFixed(2)}×`],
          ],
        ),
      )
      results.cli[print] = { oneMs: one, eightMs: eight, eightRunsMs: eightRuns, ratioToOne: eight / one, ratioToEightRuns: eight / eightRuns }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- audit ----
if (only === undefined || only === 'audit') {
  const walls = []
  for (let r = 0; r < runs + 1; r++) {
    const t0 = process.hrtime.bigint()
    const a = spawnSync(process.execPath, [CLI, 'audit', '--robots-dir', join(ROOT, 'corpus/robots'), '--crawlers', EIGHT.join(','), '--format', 'table'], { encoding: 'utf8' })
    const wall = Number(process.hrtime.bigint() - t0) / 1e6
    if (a.status !== 0) throw new Error(`audit: exit ${a.status}: ${a.stderr}`)
    if (r > 0) walls.push(wall)
    if (r === runs) console.log(`\n${a.stdout}`)
  }
  const wall = median(walls)
  console.log(`audit --robots-dir corpus/robots --crawlers EIGHT --format table: ${wall.toFixed(0)} ms wall (the whole command, node's start included), median of ${walls.length}; goal: under 1000 ms`)
  results.audit = { wallMs: wall, goalMet: wall < 1000 }
}

writeJson(opts.json, results)
