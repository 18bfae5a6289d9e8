// Crawlee: `RobotsTxtFile#isAllowed(url, ua)`, the call every Crawlee crawler
// makes per request and per enqueued link, through each way of using this
// library, against stock Crawlee (robots-parser), same corpus, same run:
//
//   node bench/crawlee.mjs [--runs N] [--quick] [--json FILE]
//
// Crawlee 3.18.1 is the fixture's (test/crawlee/fixture, installed outside the
// repository by scripts/crawlee-fixture.mjs: the registry is needed once):
//
// - stock: `RobotsTxtFile.from(robotsUrl, body)` of stock Crawlee;
// - drop-in: the same with robots-parser overridden by the drop-in package
//   (packed from this checkout);
// - useWithCrawlee, from: `RobotsTxtFile.from` after `useWithCrawlee(crawlee)`;
// - useWithCrawlee, crawler's file: the file a crawler gets, from `find`,
//   fetched through a local proxy that serves each host's corpus file (so no
//   name is looked up; origins and URLs as http:).
//
// One file per origin. Cold: fresh files (made untimed), their first pass
// timed (matchers compiled on the way). Warm: the same files, after a pass.
// Agents: the product token, and a whole User-Agent header. Samples
// interleaved; medians; ratios are stock ÷ way.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useWithCrawlee } from '../dist/crawlee.js'
import { installCrawlee } from '../scripts/crawlee-fixture.mjs'
import { stageDropIn } from '../scripts/dropin.mjs'
import { describeCorpus, loadPaired, ROOT } from './lib/corpus.mjs'
import { median, ms, parseArgs, printHeader, ratio, si, table, timeOnce, writeJson } from './lib/stats.mjs'

const TOKEN = 'Googlebot'
const HEADER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

const opts = parseArgs(process.argv.slice(2), { runs: 9 })
const runs = opts.quick ? 3 : opts.runs
const corpus = loadPaired(opts.quick ? { limit: 100 } : {})

// Crawlee, stock and with the drop-in.
const packDir = mkdtempSync(join(tmpdir(), 'robots-bench-dropin-'))
await stageDropIn(ROOT, join(packDir, 'stage'))
const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: join(packDir, 'stage'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
const tarball = join(packDir, JSON.parse(packed.slice(packed.indexOf('[')))[0].filename)
const stockInstall = installCrawlee()
const dropInInstall = installCrawlee({ dropIn: tarball })
rmSync(packDir, { recursive: true, force: true })
if (stockInstall.skip || dropInInstall.skip) {
  console.error(`bench/crawlee.mjs: ${stockInstall.skip ?? dropInInstall.skip}`)
  process.exit(2)
}
process.env.CRAWLEE_STORAGE_DIR = mkdtempSync(join(tmpdir(), 'robots-bench-storage-'))
const load = (dir) => {
  const crawlee = createRequire(join(dir, 'package.json'))('crawlee')
  crawlee.log.setLevel(crawlee.log.LEVELS.OFF)
  return crawlee
}
const stock = load(stockInstall.dir)
const dropIn = load(dropInInstall.dir)

// One entry per origin: its robots.txt URL, body and URLs; and the same as http: for the crawler's files.
const origins = []
for (const h of corpus.hosts) for (const o of h.origins) origins.push({ host: h.host, robotsUrl: o.robotsUrl, urls: o.urls, text: h.text, hasFile: h.bytes.length > 0 || Boolean(h.robotsFile) })
const n = origins.reduce((k, o) => k + o.urls.length, 0)
const toHttp = (u) => u.replace(/^https:/i, 'http:')
const httpOrigins = new Map()
for (const o of origins) {
  const origin = new URL(toHttp(o.robotsUrl)).origin
  const entry = httpOrigins.get(origin) ?? { origin, text: o.text, hasFile: o.hasFile, urls: [] }
  for (const u of o.urls) entry.urls.push(toHttp(u))
  httpOrigins.set(origin, entry)
}
const viaProxy = [...httpOrigins.values()]
const nProxy = viaProxy.reduce((k, o) => k + o.urls.length, 0)

// A proxy that answers every absolute-form robots.txt request with that host's corpus file (404 without one).
const proxy = createServer((req, res) => {
  let origin
  try {
    origin = new URL(req.url).origin
  } catch {
    res.writeHead(400).end()
    return
  }
  const o = httpOrigins.get(origin)
  if (!o || !o.hasFile) res.writeHead(404).end()
  else res.writeHead(200, { 'content-type': 'text/plain' }).end(o.text)
})
await new Promise((r) => proxy.listen(0, '127.0.0.1', r))
const proxyUrl = `http://127.0.0.1:${proxy.address().port}`

const fromFiles = (from) => origins.map((o) => from(o.robotsUrl, o.text))
// Stock Crawlee's own `from`, taken before useWithCrawlee replaces it.
const stockFrom = stock.RobotsTxtFile.from.bind(stock.RobotsTxtFile)
const dropInFrom = dropIn.RobotsTxtFile.from.bind(dropIn.RobotsTxtFile)
const pass = (files, list, agent) => () => {
  let allowed = 0
  for (let g = 0; g < files.length; g++) {
    const f = files[g]
    const urls = list[g].urls
    for (let i = 0; i < urls.length; i++) if (f.isAllowed(urls[i], agent)) allowed++
  }
  return allowed
}

// The ways. Stock files are made before useWithCrawlee takes over stock Crawlee's class.
const ways = {
  stock: { make: async () => fromFiles(stockFrom), list: origins, urls: n },
  dropIn: { make: async () => fromFiles(dropInFrom), list: origins, urls: n },
}
const handle = useWithCrawlee(stock, { log: false, timeoutMs: 30_000 })
if (stock.RobotsTxtFile.from === stockFrom) throw new Error('useWithCrawlee did not take over RobotsTxtFile.from')
ways.useFrom = { make: async () => fromFiles((url, body) => stock.RobotsTxtFile.from(url, body)), list: origins, urls: n }
ways.useCrawler = {
  make: async () => {
    handle.clear()
    const files = []
    for (let i = 0; i < viaProxy.length; i += 64) {
      files.push(...(await Promise.all(viaProxy.slice(i, i + 64).map((o) => stock.RobotsTxtFile.find(o.origin + '/', proxyUrl)))))
    }
    return files
  },
  list: viaProxy,
  urls: nProxy,
}
const LABELS = { stock: 'stock Crawlee (robots-parser)', dropIn: 'drop-in override', useFrom: 'useWithCrawlee, from()', useCrawler: "useWithCrawlee, a crawler's file" }

// Check: the drop-in and useWithCrawlee's from() answer alike (one engine).
{
  const a = pass(await ways.dropIn.make(), origins, TOKEN)()
  const b = pass(await ways.useFrom.make(), origins, TOKEN)()
  if (a !== b) throw new Error(`drop-in and useWithCrawlee disagree: ${a} != ${b} allowed`)
}

const machine = printHeader("Crawlee: RobotsTxtFile#isAllowed, each way vs stock Crawlee", {
  corpus: describeCorpus(corpus.info),
  workload: `${origins.length} origins, ${n} URLs a pass (${viaProxy.length} http origins, ${nProxy} URLs for the crawler's files); ${runs} samples (median)`,
})

const samples = {}
const results = {}
for (const key of Object.keys(ways)) for (const agent of ['token', 'header']) for (const phase of ['cold', 'warm']) samples[`${key}.${agent}.${phase}`] = []
for (let r = 0; r < runs; r++) {
  for (const [key, way] of Object.entries(ways)) {
    for (const [agent, ua] of [['token', TOKEN], ['header', HEADER]]) {
      const files = await way.make()
      const fn = pass(files, way.list, ua)
      const [cold, allowed] = timeOnce(fn)
      const [warm] = timeOnce(fn)
      samples[`${key}.${agent}.cold`].push(cold)
      samples[`${key}.${agent}.warm`].push(warm)
      results[`${key}.${agent}`] = allowed
    }
  }
}
proxy.close()
rmSync(process.env.CRAWLEE_STORAGE_DIR, { recursive: true, force: true })

const rows = []
const out = {}
for (const agent of ['token', 'header']) {
  for (const phase of ['cold', 'warm']) {
    const base = median(samples[`stock.${agent}.${phase}`])
    for (const key of Object.keys(ways)) {
      const m = median(samples[`${key}.${agent}.${phase}`])
      const perSec = (ways[key].urls / m) * 1000
      out[`${key}.${agent}.${phase}`] = { median: m, urlsPerSec: perSec, allowed: results[`${key}.${agent}`] }
      // The crawler's files judge the http: copy of the URLs: the ratio is per URL.
      const ratioToStock = base / ways.stock.urls / (m / ways[key].urls)
      rows.push([`${agent === 'token' ? TOKEN : 'whole User-Agent'}, ${phase}`, LABELS[key], ms(m), si(perSec) + ' URL/s', key === 'stock' ? '' : ratio(ratioToStock)])
      out[`${key}.${agent}.${phase}`].ratioToStock = ratioToStock
    }
  }
}
console.log(table(['agent, pass', 'way', 'pass', 'rate', 'vs stock'], rows))
writeJson(opts.json, { workload: 'crawlee', machine, corpus: corpus.info, origins: origins.length, urls: n, runs, crawlee: '3.18.1', ...out })
