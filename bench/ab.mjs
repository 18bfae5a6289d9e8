// A/B of two builds of this library on one workload, for changes whose effect
// is smaller than the machine's noise (a few %): both builds are loaded in one
// process and timed in alternation, by process CPU time (process.cpuUsage(),
// which leaves out the time other processes hold the CPU), and the run is
// made twice, once with each build loaded first, because the build loaded
// first runs a few % faster in this setup. With x1 = B/A from the run that
// loads A first and x2 = A/B from the run that loads B first, both biased by
// the same factor, B/A = sqrt(x1 / x2).
//
//   node bench/ab.mjs DIST_A DIST_B [--workload w2s|w2l|w2f|w1|w3] [--rounds N]
//
// DIST_* are dist/ folders (build a scratch clone of main with
// `node scripts/build.mjs` for the baseline). Workloads (real corpus as in
// bench/lib/corpus.mjs): w2s = W2's isAllowed(string) pass, w2l = W2's
// matchLines pass (both in the steady state), w2f = W2 from first use
// (fresh matchers, then seven isAllowed passes, the build included),
// w1 = W1's frontier pass (parse + agent + checks per origin), w3 = W3's
// parse of every corpus file from bytes.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { loadAllRobots, loadPaired } from './lib/corpus.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : dflt
}
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')))
const [distA, distB] = positional
const workload = opt('workload', 'w2s')
const rounds = Number(opt('rounds', 21))
if (!distA || !distB) {
  console.error('usage: node bench/ab.mjs DIST_A DIST_B [--workload w2s|w2l|w2f|w1|w3] [--rounds N]')
  process.exit(2)
}

if (process.env.AB_CHILD) {
  // One run: the first build given is loaded first.
  const libs = []
  for (const d of [distA, distB]) libs.push(await import(pathToFileURL(resolve(d, 'index.js')).href))
  const passes = libs.map((L) => makePass(L, workload))
  const cpu = (f) => {
    const t = process.cpuUsage()
    f()
    const d = process.cpuUsage(t)
    return (d.user + d.system) / 1000
  }
  for (let k = 0; k < 3; k++) passes.forEach(cpu)
  const samples = [[], []]
  for (let r = 0; r < rounds; r++) {
    const order = r & 1 ? [1, 0] : [0, 1]
    for (const i of order) samples[i].push(cpu(passes[i]))
  }
  const median = (x) => [...x].sort((p, q) => p - q)[x.length >> 1]
  console.log(JSON.stringify({ a: median(samples[0]), b: median(samples[1]) }))
  process.exit(0)
}

function makePass(L, w) {
  const enc = new TextEncoder()
  if (w === 'w3') {
    const { files } = loadAllRobots()
    return () => {
      let n = 0
      for (const f of files) n += L.parseRobots(f.bytes).lineCount
      return n
    }
  }
  const corpus = loadPaired({})
  if (w === 'w1') {
    return () => {
      let a = 0
      for (const h of corpus.hosts) {
        for (const o of h.origins) {
          const m = L.parseRobots(h.bytes).agent('Googlebot')
          for (const u of o.urls) if (m.isAllowed(u)) a++
        }
      }
      return a
    }
  }
  if (w === 'w2f') {
    // From first use: fresh matchers (parse + agent), then seven passes over every URL (W2's first-use rounds, the untimed two included).
    return () => {
      let a = 0
      const fresh = corpus.hosts.map((h) => ({ m: L.parseRobots(h.bytes).agent('Googlebot'), urls: h.urls }))
      for (let k = 0; k < 7; k++) for (const h of fresh) for (const u of h.urls) if (h.m.isAllowed(u)) a++
      return a
    }
  }
  const hosts = corpus.hosts.map((h) => {
    const m = L.parseRobots(h.bytes).agent('Googlebot')
    return { m, urls: h.urls, lines: enc.encode(h.urls.join('\n')), out: new Uint8Array(h.urls.length) }
  })
  if (w === 'w2l') {
    return () => {
      let a = 0
      for (let k = 0; k < 4; k++) {
        for (const h of hosts) {
          const o = h.m.matchLines(h.lines, h.out)
          for (let i = 0; i < o.length; i++) a += o[i]
        }
      }
      return a
    }
  }
  return () => {
    let a = 0
    for (let k = 0; k < 4; k++) for (const h of hosts) for (const u of h.urls) if (h.m.isAllowed(u)) a++
    return a
  }
}

const self = fileURLToPath(import.meta.url)
const run = (first, second) =>
  JSON.parse(
    execFileSync(process.execPath, [self, first, second, '--workload', workload, '--rounds', String(rounds)], {
      env: { ...process.env, AB_CHILD: '1' },
      encoding: 'utf8',
    }),
  )
const r1 = run(distA, distB) // A loaded first: x1 = B/A · bias
const r2 = run(distB, distA) // B loaded first: x2 = A/B · bias
const x1 = r1.b / r1.a
const x2 = r2.b / r2.a
console.log(`workload ${workload}, ${rounds} rounds per run; CPU ms per pass (medians)`)
console.log(`  run 1 (A first): A ${r1.a.toFixed(2)}  B ${r1.b.toFixed(2)}  B/A ${x1.toFixed(3)}`)
console.log(`  run 2 (B first): B ${r2.a.toFixed(2)}  A ${r2.b.toFixed(2)}  A/B ${x2.toFixed(3)}`)
console.log(`B/A = ${Math.sqrt(x1 / x2).toFixed(3)} (load-order bias ${Math.sqrt(x1 * x2).toFixed(3)})`)
