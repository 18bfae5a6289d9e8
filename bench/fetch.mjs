// `robots-automaton fetch` against a local server: its speed beside a bare
// client's in the same run, throughput at two concurrencies against the
// bound concurrency / latency, the time of an --update where nothing
// changed (every file answers 304), and peak memory.
//
//   node bench/fetch.mjs [--origins N] [--runs N] [--delay MS]      (build first: npm run build)
//   node bench/fetch.mjs --speed [--speed-origins N] [--runs N]      the speed section alone
//   node bench/fetch.mjs --serve [--origins N]      the server alone, for a profile: prints a fetch command
//
// - Speed (first): SPEED_ORIGINS (default 4,000) host names `okI.bench.test`
//   that all answer 200 with a corpus body after --delay ms, fetched at
//   concurrency 64 by the CLI (`--concurrency 64 --per-ip 64`: one server
//   holds every name) and by a bare Node client (bench/lib/bare-client.mjs:
//   `http.request`, a new connection per request, the body read and
//   dropped), each in a process of its own, in turn, RUNS times; the
//   medians, their ratio, and each against the bound 64 / delay.
// - A server in this process on 127.0.0.1 answers for every host name
//   (`fetch --resolve '*:PORT:127.0.0.1'`), each reply after --delay ms
//   (default 20). N host names (default 10,000), `hI.bench.test:PORT`, one
//   URL each, with a mix by I % 100: 0–69 200 with a corpus body (an ETag,
//   a Last-Modified), 70–79 404, 80–84 500, 85–89 a 301 to another path of
//   the host (then 200), 90–97 200 gzip-encoded, 98–99 403; and every
//   1,000th host never answers (a time-out: --timeout 2). Bodies: the
//   corpus's robots.txt files (../shared/corpus/robots when present, else
//   corpus/robots), in turn.
// - Each figure is the median of --runs runs (default 3), `--per-ip` as
//   high as the concurrency (one server holds every name): a fresh fetch at
//   --concurrency 32 and at 256 (origins per second, and its ratio to
//   concurrency / delay, the rate with no cost but the delay); then, from a
//   bundle fetched at 256 whose entries the bench marks expired, `fetch
//   --update` at 256 (a 304 for every file with a validator).
// - CPU: the CLI's user + system time (/usr/bin/time) per origin, beyond
//   that of a run of one origin (start-up), which a busy machine stretches
//   less than the wall time.
// - Peak memory: the CLI's peak RSS (/usr/bin/time's maximum resident set
//   size), for N / 4 and N origins at --concurrency 256, with the bundle's
//   size; and once more at N with V8's old space capped at 64 MB
//   (`node --max-old-space-size=64`): it completes, so what the run keeps is
//   the rules (the bundle itself) and the requests in flight, and the rest of
//   the uncapped RSS is the heap V8 allows itself for the garbage of the
//   requests.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { ROOT } from './lib/corpus.mjs'

const CLI = join(ROOT, 'dist/cli.js')
const argv = process.argv.slice(2)
const option = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt)
const ORIGINS = option('--origins', 10_000)
const SPEED_ORIGINS = option('--speed-origins', 4000)
const SPEED_CONCURRENCY = 64
const RUNS = option('--runs', 3)
const DELAY = option('--delay', 20)
const TIMEOUT_S = 2

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build')
const { RobotsStore } = await import(join(ROOT, 'dist/index.js'))

// The bodies: every robots.txt of the corpus (skipping FEATURES.tsv, SOURCES.tsv).
const shared = join(ROOT, '../shared/corpus/robots')
const bodyFiles = existsSync(shared)
  ? readdirSync(shared).filter((d) => statSync(join(shared, d)).isDirectory()).flatMap((d) => readdirSync(join(shared, d)).map((f) => join(shared, d, f)))
  : readdirSync(join(ROOT, 'corpus/robots')).map((f) => join(ROOT, 'corpus/robots', f))
const bodies = bodyFiles.map((f) => readFileSync(f)).filter((b) => b.length > 0)
const gzipped = new Map()
const LAST_MODIFIED = 'Tue, 01 Dec 2026 10:00:00 GMT'

/** What host I answers (see the header). */
function answer(i, path, req, res) {
  if (i % 1000 === 999) return // a time-out
  const kind = i % 100
  const body = bodies[i % bodies.length]
  const etag = `"b${i % bodies.length}"`
  const ok = (extra = {}, data = body) => {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag })
      return res.end()
    }
    res.writeHead(200, { 'content-type': 'text/plain', etag, 'last-modified': LAST_MODIFIED, ...extra })
    res.end(data)
  }
  if (kind < 70) return ok()
  if (kind < 80) return res.writeHead(404).end()
  if (kind < 85) return res.writeHead(500).end()
  if (kind < 90) {
    if (path === '/robots.txt') return res.writeHead(301, { location: '/moved/robots.txt' }).end()
    return ok()
  }
  if (kind < 98) {
    let z = gzipped.get(i % bodies.length)
    if (z === undefined) gzipped.set(i % bodies.length, (z = gzipSync(body)))
    return ok({ 'content-encoding': 'gzip' }, z)
  }
  return res.writeHead(403).end()
}

let requests = 0
const held = new Set()
const server = createServer((req, res) => {
  requests++
  const m = /^h(\d+)\.bench\.test(:\d+)?$/.exec(req.headers.host ?? '')
  held.add(res)
  res.on('close', () => held.delete(res))
  const ok = /^ok(\d+)\.bench\.test(:\d+)?$/.exec(req.headers.host ?? '')
  setTimeout(() => {
    if (ok) {
      res.writeHead(200, { 'content-type': 'text/plain' })
      return res.end(bodies[Number(ok[1]) % bodies.length])
    }
    if (m) return answer(Number(m[1]), req.url, req, res)
    res.writeHead(404).end()
  }, DELAY)
})
server.keepAliveTimeout = 1000
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const PORT = server.address().port

const work = mkdtempSync(join(tmpdir(), 'bench-fetch-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1))

function inputOf(n, prefix = 'h') {
  const file = join(work, `urls-${prefix}-${n}.txt`)
  if (!existsSync(file)) writeFileSync(file, Array.from({ length: n }, (_, i) => `http://${prefix}${i}.bench.test:${PORT}/page/${i}`).join('\n') + '\n')
  return file
}

/** The bare client (bench/lib/bare-client.mjs) in a process of its own: its wall time. */
function runBare(n, concurrency) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [join(ROOT, 'bench/lib/bare-client.mjs'), '--port', String(PORT), '--origins', String(n), '--concurrency', String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (c) => (out += c))
    child.on('error', reject)
    child.on('exit', (status) => {
      if (status !== 0) return reject(new Error(`bare client: exit ${status}`))
      const r = JSON.parse(out)
      resolve({ ...r, wall: (performance.now() - started) / 1000 })
    })
  })
}

/** Runs the CLI under /usr/bin/time (asynchronously: the server is this process): wall and CPU seconds, peak RSS. */
function runCli(args, nodeOptions = []) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, ...nodeOptions, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c) => (stderr += c))
    child.on('error', reject)
    child.on('exit', (status) => {
      const seconds = (performance.now() - started) / 1000
      const m = /TIME ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr)
      if (status !== 0 || !m) return reject(new Error(`fetch ${args.join(' ')}: exit ${status}: ${stderr}`))
      resolve({ seconds, cpu: Number(m[1]) + Number(m[2]), peakMb: Number(m[3]) / 1024, stderr: stderr.slice(0, m.index) })
    })
  })
}

if (argv.includes('--serve')) {
  console.log(`serving ${ORIGINS.toLocaleString('en-US')} host names on 127.0.0.1:${PORT}; for a profile (Ctrl-C here to stop):`)
  console.log(`  node --cpu-prof ${CLI} fetch ${inputOf(ORIGINS)} --resolve '*:${PORT}:127.0.0.1' --timeout ${TIMEOUT_S} --concurrency 64 --per-ip 64 -o /tmp/profile.bundle`)
  await new Promise(() => {})
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
// One server holds every name: --per-ip as high as the concurrency (the default, 4, is the politeness of a real crawl).
const base = (out) => ['fetch', '-q', '--timeout', String(TIMEOUT_S), '--resolve', `*:${PORT}:127.0.0.1`, '--per-ip', '4096', '-o', out]

async function fresh(n, concurrency, nodeOptions = []) {
  const out = join(work, `fresh-${n}-${concurrency}.bundle`)
  const r = await runCli([...base(out), '--concurrency', String(concurrency), inputOf(n)], nodeOptions)
  return { ...r, out, bytes: statSync(out).size }
}

/** A copy of `bundle` whose every entry has expired (as a day later). */
function aged(bundle) {
  const old = RobotsStore.fromBytes(readFileSync(bundle))
  const store = new RobotsStore()
  for (const key of old.keys()) {
    const info = { ...old.fetchInfo(key), expiresAt: Date.now() - 1 }
    const source = old.source(key)
    if (source === 'robots') store.setRobots(key, old.get(key), info)
    else store.setOutcome(key, source, info)
  }
  const path = `${bundle}.aged`
  writeFileSync(path, store.toBytes())
  return path
}

const results = { origins: ORIGINS, delayMs: DELAY, runs: RUNS, bodies: bodies.length, speed: {}, fresh: {}, update: {}, memory: {} }
console.log(`fetch: ${ORIGINS.toLocaleString('en-US')} origins, reply delay ${DELAY} ms, ${bodies.length} corpus bodies, ${RUNS} runs each; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
{
  // Speed: the CLI and a bare client in turn, same server, same names.
  const input = inputOf(SPEED_ORIGINS, 'ok')
  const cli = []
  const bare = []
  for (let r = 0; r < RUNS; r++) {
    const out = join(work, 'speed.bundle')
    const x = await runCli(['fetch', '-q', '--timeout', String(TIMEOUT_S), '--resolve', `*:${PORT}:127.0.0.1`, '--concurrency', String(SPEED_CONCURRENCY), '--per-ip', String(SPEED_CONCURRENCY), input, '-o', out])
    cli.push(x.seconds)
    const b = await runBare(SPEED_ORIGINS, SPEED_CONCURRENCY)
    if (b.requests !== SPEED_ORIGINS || b.statuses['200'] !== SPEED_ORIGINS) throw new Error(`bare client: ${JSON.stringify(b)}`)
    bare.push(b.wall)
  }
  const bound = SPEED_CONCURRENCY / (DELAY / 1000)
  const cliRate = SPEED_ORIGINS / median(cli)
  const bareRate = SPEED_ORIGINS / median(bare)
  results.speed = { origins: SPEED_ORIGINS, concurrency: SPEED_CONCURRENCY, bound, cliRate, bareRate, ratio: cliRate / bareRate, cliSeconds: cli, bareSeconds: bare }
  console.log(
    `  speed, ${SPEED_ORIGINS.toLocaleString('en-US')} origins at concurrency ${SPEED_CONCURRENCY}: CLI ${cliRate.toFixed(0)}/s (${((100 * cliRate) / bound).toFixed(0)} % of ${bound.toFixed(0)}/s), ` +
      `bare client ${bareRate.toFixed(0)}/s (${((100 * bareRate) / bound).toFixed(0)} %): ratio ${(cliRate / bareRate).toFixed(2)}`,
  )
  console.log(`    runs (s): CLI ${cli.map((x) => x.toFixed(2)).join(' ')}; bare ${bare.map((x) => x.toFixed(2)).join(' ')}`)
}
if (argv.includes('--speed')) {
  for (const res of held) res.destroy()
  server.close()
  console.log(JSON.stringify(results))
  process.exit(0)
}
const startupRuns = []
for (let r = 0; r < RUNS; r++) startupRuns.push((await fresh(1, 32)).cpu)
const startup = median(startupRuns)
results.startupCpuSeconds = startup
for (const c of [32, 256]) {
  const runs = []
  for (let r = 0; r < RUNS; r++) runs.push(await fresh(ORIGINS, c))
  const seconds = median(runs.map((x) => x.seconds))
  const rate = ORIGINS / seconds
  const bound = c / (DELAY / 1000)
  const cpuMs = (1000 * (median(runs.map((x) => x.cpu)) - startup)) / ORIGINS
  results.fresh[c] = { seconds, originsPerSecond: rate, bound, ratioToBound: rate / bound, cpuMsPerOrigin: cpuMs, peakMb: median(runs.map((x) => x.peakMb)), bundleBytes: runs[0].bytes }
  console.log(
    `  --concurrency ${c}: ${seconds.toFixed(2)} s, ${rate.toFixed(0)} origins/s, bound ${bound.toFixed(0)}/s (${((100 * rate) / bound).toFixed(0)} %), ` +
      `CPU ${cpuMs.toFixed(2)} ms/origin, peak RSS ${results.fresh[c].peakMb.toFixed(0)} MB, bundle ${(runs[0].bytes / 1e6).toFixed(1)} MB`,
  )
}
{
  const source = aged(join(work, `fresh-${ORIGINS}-256.bundle`))
  const runs = []
  let summary = ''
  for (let r = 0; r < RUNS; r++) {
    const before = requests
    const x = await runCli(['fetch', '--timeout', String(TIMEOUT_S), '--resolve', `*:${PORT}:127.0.0.1`, '--concurrency', '256', '--per-ip', '256', '--update', source, '-o', join(work, 'updated.bundle')])
    runs.push({ ...x, requests: requests - before })
    summary = x.stderr.trim().split('\n').pop()
  }
  const seconds = median(runs.map((x) => x.seconds))
  const cpuMs = (1000 * (median(runs.map((x) => x.cpu)) - startup)) / ORIGINS
  results.update = { seconds, originsPerSecond: ORIGINS / seconds, cpuMsPerOrigin: cpuMs, requests: runs[0].requests, summary }
  console.log(`  --update, nothing changed, --concurrency 256: ${seconds.toFixed(2)} s (${(ORIGINS / seconds).toFixed(0)} origins/s), CPU ${cpuMs.toFixed(2)} ms/origin, ${runs[0].requests} requests`)
  console.log(`    ${summary}`)
}
for (const n of [Math.floor(ORIGINS / 4), ORIGINS]) {
  const runs = []
  for (let r = 0; r < RUNS; r++) runs.push(await fresh(n, 256))
  results.memory[n] = { peakMb: median(runs.map((x) => x.peakMb)), bundleMb: runs[0].bytes / 1e6 }
  console.log(`  memory, ${n.toLocaleString('en-US')} origins at --concurrency 256: peak RSS ${results.memory[n].peakMb.toFixed(0)} MB, bundle ${results.memory[n].bundleMb.toFixed(1)} MB`)
}
{
  const capped = await fresh(ORIGINS, 256, ['--max-old-space-size=64'])
  results.memory.capped64 = { peakMb: capped.peakMb, seconds: capped.seconds }
  console.log(`  memory, ${ORIGINS.toLocaleString('en-US')} origins, old space capped at 64 MB: completes, peak RSS ${capped.peakMb.toFixed(0)} MB, ${capped.seconds.toFixed(1)} s`)
}
for (const res of held) res.destroy()
server.close()
console.log(JSON.stringify(results))
