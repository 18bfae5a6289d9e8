// `robots-automaton fetch` at a million origins: peak memory and whether the
// rate holds from the first 10,000 origins to the last.
//
//   node bench/fetch-scale.mjs [--origins N] [--delay MS] [--concurrency C]      (build first: npm run build)
//
// - A server in this process on 127.0.0.1 answers every name `sI.scale.test`
//   (routed there with `--resolve '*:PORT:127.0.0.1'`) after --delay ms
//   (default 20) with a small robots.txt of its own (a Disallow naming the
//   host), an ETag and a Last-Modified; N names (default 1,000,000), one
//   URL each.
// - The CLI fetches them into a bundle at --concurrency C (default 64) and
//   --per-ip C (one server holds every name), under /usr/bin/time: its peak
//   RSS, wall and CPU time, and the bundle's size.
// - The rate: the server notes the time of the first request and of every
//   10,000th; the rate of each window of 10,000 is set against the first
//   window's. Reported: the first window, the median, the 10th percentile
//   and the slowest window, the last, and how many fall below 0.9 of the
//   first. (Start-up and reading the input come before the
//   first request, the output after the last: in the wall time only.)
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './lib/corpus.mjs'

const CLI = join(ROOT, 'dist/cli.js')
const argv = process.argv.slice(2)
const option = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt)
const ORIGINS = option('--origins', 1_000_000)
const DELAY = option('--delay', 20)
const CONCURRENCY = option('--concurrency', 64)
const WINDOW = 10_000

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build')

const LAST_MODIFIED = 'Tue, 01 Dec 2026 10:00:00 GMT'
let requests = 0
/** When the first request came, then every WINDOW-th. */
const marks = []
const server = createServer((req, res) => {
  if (requests++ === 0) marks.push(performance.now())
  if (requests % WINDOW === 0) marks.push(performance.now())
  const host = (req.headers.host ?? '').replace(/:\d+$/, '')
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/plain', etag: `"${host}"`, 'last-modified': LAST_MODIFIED })
    res.end(`User-agent: *\nDisallow: /private/${host}\nAllow: /\n`)
  }, DELAY)
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const PORT = server.address().port

const work = mkdtempSync(join(tmpdir(), 'bench-fetch-scale-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1))

const input = join(work, 'urls.txt')
await new Promise((resolve, reject) => {
  const out = createWriteStream(input)
  out.on('error', reject)
  out.on('finish', resolve)
  let i = 0
  const write = () => {
    while (i < ORIGINS) {
      let chunk = ''
      for (let k = 0; k < 10_000 && i < ORIGINS; k++, i++) chunk += `http://s${i}.scale.test:${PORT}/page/${i}\n`
      if (!out.write(chunk)) return out.once('drain', write)
    }
    out.end()
  }
  write()
})

console.log(`fetch at scale: ${ORIGINS.toLocaleString('en-US')} origins, reply delay ${DELAY} ms, --concurrency ${CONCURRENCY} --per-ip ${CONCURRENCY}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
const out = join(work, 'scale.bundle')
const started = performance.now()
const result = await new Promise((resolve, reject) => {
  const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, CLI, 'fetch', input, '-o', out, '-q', '--concurrency', String(CONCURRENCY), '--per-ip', String(CONCURRENCY), '--resolve', `*:${PORT}:127.0.0.1`], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (c) => (stderr += c))
  child.on('error', reject)
  child.on('exit', (status) => {
    const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr)
    if (status !== 0 || !m) return reject(new Error(`fetch: exit ${status}: ${stderr}`))
    resolve({ wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), peakMb: Number(m[4]) / 1024 })
  })
})
const seconds = (performance.now() - started) / 1000
const rates = []
for (let i = 1; i < marks.length; i++) rates.push(WINDOW / ((marks[i] - marks[i - 1]) / 1000))
const sorted = [...rates].sort((a, b) => a - b)
const first = rates[0]
const median = sorted[Math.floor(sorted.length / 2)]
const slowest = sorted[0]
const p10 = sorted[Math.floor(sorted.length / 10)]
const below = rates.filter((r) => r < 0.9 * rates[0]).length
const last = rates[rates.length - 1]
const summary = {
  origins: ORIGINS,
  requests,
  delayMs: DELAY,
  concurrency: CONCURRENCY,
  wallSeconds: seconds,
  originsPerSecond: ORIGINS / seconds,
  cpuSeconds: result.cpu,
  peakRssMb: result.peakMb,
  bundleMb: statSync(out).size / 1e6,
  windows: rates.length,
  firstWindowRate: first,
  medianWindowRate: median,
  slowestWindowRate: slowest,
  p10WindowRate: p10,
  windowsBelow90PercentOfFirst: below,
  lastWindowRate: last,
  medianToFirst: median / first,
  slowestToFirst: slowest / first,
  lastToFirst: last / first,
}
console.log(
  `  ${ORIGINS.toLocaleString('en-US')} origins in ${seconds.toFixed(0)} s (${(ORIGINS / seconds).toFixed(0)}/s), CPU ${result.cpu.toFixed(0)} s, peak RSS ${result.peakMb.toFixed(0)} MB, bundle ${summary.bundleMb.toFixed(1)} MB`,
)
console.log(
  `  rate per window of ${WINDOW.toLocaleString('en-US')}: first ${first.toFixed(0)}/s, median ${median.toFixed(0)}/s (${(median / first).toFixed(2)}), 10th percentile ${p10.toFixed(0)}/s (${(p10 / first).toFixed(2)}), slowest ${slowest.toFixed(0)}/s (${(slowest / first).toFixed(2)}), last ${last.toFixed(0)}/s (${(last / first).toFixed(2)}); ${below} of ${rates.length} windows below 0.9 of the first`,
)
console.log(JSON.stringify(summary))
server.close()
