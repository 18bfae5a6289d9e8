// Bundles: how long `pack` takes and what loading a bundle costs in
// `filter --bundle` (time and memory), for the corpus directory and for
// 1,000,000 generated origins.
//
//   node bench/bundle-load.mjs [--origins N] [--runs N]      (build first: npm run build)
//
// - corpus: `pack ../shared/corpus/robots/anubhavp28-benchmark` (1,612 files).
// - generated: N origins (default 1,000,000) as JSON lines, `https://site<i>.example`
//   with small robots.txt bodies of a few rules drawn from 16 templates (every
//   16th origin an `unreachable` outcome), packed once (cached in bench/data/;
//   packed again when the cached file is not of the store's current bundle version).
// A bundle is a RobotsStore's `toBytes()` (src/store/bundle.ts): `filter --bundle`
// loads it with `RobotsStore.fromBytes` (every form checked in the main thread).
// Load: `filter --bundle B --agent Googlebot` on one URL (judged by the last
// origin) minus the same on an empty bundle-less run (`--robots` of a tiny
// file): the median wall time of --runs runs (default 5), and the peak RSS
// (/usr/bin/time's maximum resident set size) against the same baseline.
// In process: `RobotsStore.fromBytes(bytes)` (every form checked: what the CLI's
// main thread does) and `fromBytes(bytes, { lazy: true })` (forms checked on
// first use: what its workers do), median of --runs, the file already in memory.
import { spawnSync } from 'node:child_process'
import { closeSync, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(ROOT, 'dist/cli.js')
const DATA = join(ROOT, 'bench/data')
const DIR = join(ROOT, '../shared/corpus/robots/anubhavp28-benchmark')
const argv = process.argv.slice(2)
const option = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt)
const ORIGINS = option('--origins', 1_000_000)
const RUNS = option('--runs', 5)

function timed(args, input) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`)
  const [wall, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number)
  return { wall, kb }
}

const { BUNDLE_VERSION, RobotsStore } = await import(join(ROOT, 'dist/index.js'))

/** Whether `path` is a bundle of the current version ("RATB", then the u16 version). */
function currentBundle(path) {
  if (!existsSync(path)) return false
  const head = Buffer.alloc(6)
  const fd = openSync(path, 'r')
  readSync(fd, head, 0, 6, 0)
  closeSync(fd)
  return head.toString('latin1', 0, 4) === 'RATB' && head.readUInt16LE(4) === BUNDLE_VERSION
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

async function generated() {
  const jsonl = join(DATA, `origins-${ORIGINS}.jsonl`)
  const bundle = join(DATA, `origins-${ORIGINS}.bundle`)
  if (!existsSync(jsonl)) {
    const templates = Array.from({ length: 16 }, (_, t) =>
      [`User-agent: *`, `Disallow: /private-${t}/`, t % 3 ? `Allow: /private-${t}/public` : `Disallow: /*.pdf$`, t % 4 === 0 ? `Crawl-delay: ${t}` : `Disallow: /tmp`, t % 5 === 0 ? `\nUser-agent: Googlebot\nDisallow: /nogoogle-${t}` : ''].join('\n'),
    )
    const out = createWriteStream(jsonl)
    let chunk = ''
    for (let i = 0; i < ORIGINS; i++) {
      chunk += i % 16 === 15 ? `{"origin":"https://site${i}.example","outcome":"unreachable"}\n` : `${JSON.stringify({ origin: `https://site${i}.example`, body: templates[i % 16] })}\n`
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await new Promise((r) => out.once('drain', r))
        chunk = ''
      }
    }
    out.write(chunk)
    await new Promise((r) => out.end(r))
  }
  let packSeconds
  if (!currentBundle(bundle)) {
    const t0 = performance.now()
    const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, CLI, 'pack', jsonl, '-o', bundle, '-q'], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`pack: ${r.stderr}`)
    packSeconds = (performance.now() - t0) / 1000
    console.log(`pack of ${ORIGINS.toLocaleString('en-US')} origins: ${packSeconds.toFixed(1)} s, peak RSS ${(Number(r.stderr.trim()) / 1024).toFixed(0)} MiB`)
  }
  return { bundle, url: `https://site${ORIGINS - 2}.example/private-${(ORIGINS - 2) % 16}/x\n` }
}

mkdirSync(DATA, { recursive: true })
console.log(`node ${process.version}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
const tiny = join(DATA, 'tiny-robots.txt')
writeFileSync(tiny, 'User-agent: *\nDisallow: /x\n')
const corpusBundle = join(DATA, 'anubhavp28-benchmark.bundle')
const t0 = performance.now()
const packed = spawnSync(process.execPath, [CLI, 'pack', DIR, '-o', corpusBundle, '-q'])
if (packed.status !== 0) throw new Error(`pack: ${packed.stderr}`)
console.log(`pack of the corpus directory (1,612 files): ${((performance.now() - t0) / 1000).toFixed(2)} s`)
const cases = [['corpus', corpusBundle, 'https://www.nytimes.com/svc/x\n'], ['generated', ...Object.values(await generated())]]
const base = Array.from({ length: RUNS }, () => timed(['filter', '--robots', tiny, '--agent', 'Googlebot', '-q'], '/a\n'))
const baseWall = median(base.map((r) => r.wall))
const baseKb = median(base.map((r) => r.kb))
console.log(`baseline (filter --robots, one URL): ${baseWall.toFixed(3)} s, ${(baseKb / 1024).toFixed(0)} MiB`)
console.log(`${'bundle'.padEnd(12)} ${'entries'.padStart(10)} ${'size MB'.padStart(9)} ${'load s'.padStart(8)} ${'+RSS MiB'.padStart(9)}`)
for (const [name, bundle, url] of cases) {
  const runs = Array.from({ length: RUNS }, () => timed(['filter', '--bundle', bundle, '--agent', 'Googlebot', '-q', '--jobs', '1'], url))
  const entries = name === 'corpus' ? 1612 : ORIGINS
  const wall = median(runs.map((r) => r.wall)) - baseWall
  const kb = median(runs.map((r) => r.kb)) - baseKb
  console.log(`${name.padEnd(12)} ${entries.toLocaleString('en-US').padStart(10)} ${(statSync(bundle).size / 1e6).toFixed(1).padStart(9)} ${wall.toFixed(3).padStart(8)} ${(kb / 1024).toFixed(0).padStart(9)}`)
}
console.log(`in process, RobotsStore.fromBytes (median of ${RUNS}):`)
console.log(`${'bundle'.padEnd(12)} ${'checked ms'.padStart(11)} ${'lazy ms'.padStart(9)}`)
for (const [name, bundle] of cases) {
  const bytes = readFileSync(bundle)
  const time = (lazy) =>
    median(
      Array.from({ length: RUNS }, () => {
        const t = performance.now()
        RobotsStore.fromBytes(bytes, { lazy, matcherBudget: 0 })
        return performance.now() - t
      }),
    )
  console.log(`${name.padEnd(12)} ${time(false).toFixed(0).padStart(11)} ${time(true).toFixed(0).padStart(9)}`)
}
