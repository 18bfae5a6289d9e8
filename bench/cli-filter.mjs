// Benchmark of `robots-automaton filter` against `wc -l` and against a
// readline + robots-parser filter on the same files, built from
// ../shared/corpus/urls (cached under bench/data/, gitignored).
//
//   node bench/cli-filter.mjs [--size MB] [--runs N] [--only a,b] [--cli PATH] [--prepare]   (build first: npm run build)
//
// Workloads (--only picks some: single, dir, kasztp, log, longline):
// - single: every URL of the corpus lists (paired.tsv, kasztp.txt, userbait.txt)
//   moved onto one site (https://www.nytimes.com + the URL's path and query),
//   judged by that site's robots.txt (--robots); --size MB (default 300).
// - dir: the URLs of paired.tsv, each judged by its own host's file from
//   ../shared/corpus/robots/anubhavp28-benchmark (--robots-dir), and by the
//   bundle `pack` makes of that directory (--bundle); --size MB.
// - kasztp: the 48,010 real URLs of kasztp.txt over 22,154 hosts, most without
//   a robots.txt in the directory, repeated 25 times (1.2 M lines).
// - log: 5 M lines of an Apache "vhost_combined" access log over 50,000 hosts
//   (the corpus lists' hosts and generated ones; paths from the corpus URLs;
//   Zipf-like host popularity, seeded), judged with --log-format vhost_combined
//   (--field 8 --host-field 1 for a build before issue 19, which counted columns without quotes).
// - longline: one line of 255 MiB judged by one robots.txt, read from the
//   file and from a pipe (`cat FILE |`): reading must stay linear whatever the
//   line length (issue 19: at most twice the file's time from a pipe).
// The kasztp list is also judged by one robots.txt (--robots): the
// many-host runs against it, --jobs 1, by CPU time, say what the per-host
// path costs (goal: at least 0.8 of the one-host speed); so does a run with
// a bundle that holds none of the list's hosts, where every line takes the
// per-host look-up but no host's rules are entered (the look-up alone).
// Each filter runs with its default options (--jobs as the machine decides)
// and with --jobs 1. --cli PATH runs another build's dist/cli.js (for
// before/after figures in the same run). Every command runs --runs
// times (default 3) in this same process, output to /dev/null; the table
// gives the median wall time (process start included), MB/s and URLs/s, the
// median CPU time (user + system), and the load average before and after (other processes on the machine skew
// every figure, --jobs 2 most).
//
// `--prepare` only builds the data files (and the bundle).
// `--baseline MODE ROBOTS FILE` runs the readline + robots-parser filter itself
// (used by the benchmark as a child); MODE is single, dir or log.
import { spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, statSync, closeSync, writeFileSync, writeSync } from 'node:fs'
import { loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { prng } from '../test/support/prng.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SHARED = join(ROOT, '../shared/corpus')
const DATA = join(ROOT, 'bench/data')
const CLI_ARG = process.argv.indexOf('--cli')
const CLI = CLI_ARG >= 0 ? process.argv[CLI_ARG + 1] : join(ROOT, 'dist/cli.js')
const SITE = 'https://www.nytimes.com'
const SITE_ROBOTS = join(SHARED, 'robots/anubhavp28-benchmark/www.nytimes.com')
const ROBOTS_DIR = join(SHARED, 'robots/anubhavp28-benchmark')
const AGENT = 'Googlebot'
/** The log workload: lines, hosts, and its columns (vhost_combined: "%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\""). */
const LOG_LINES = 5_000_000
const LOG_HOSTS = 50_000
const LOG_FORMAT = ['--log-format', 'vhost_combined']
const LOG_FIELDS_BEFORE_19 = ['--field', '8', '--host-field', '1']
/** The long line's length: 255 MiB. */
const LONG_LINE = 255 << 20

const argv = process.argv.slice(2)
if (argv[0] === '--baseline') await baseline(argv[1], argv[2], argv[3])
else await main()

function option(name, dflt) {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : dflt
}

/** Path, query and fragment of a URL string: what follows the authority ("/" when nothing). */
function pathOf(url) {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*(.*)$/.exec(url)
  const rest = m ? m[1] : url
  return rest.startsWith('/') ? rest : `/${rest}`
}

function hostOf(url) {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/.exec(url)
  return m ? m[1].toLowerCase() : ''
}

function plainList(name) {
  return readFileSync(join(SHARED, 'urls', name), 'utf8').replace(/^\ufeff/, '').split('\n').filter(Boolean)
}

function corpusUrls() {
  const paired = readFileSync(join(SHARED, 'urls/paired.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t')[2])
  const kasztp = plainList('kasztp.txt')
  return { paired, kasztp, all: [...paired, ...kasztp, ...plainList('userbait.txt')] }
}

/** Writes `lines` repeated until the file reaches `mb` megabytes (or `times` copies); reuses an existing file. */
async function buildFile(name, lines, { mb, times }) {
  const path = join(DATA, name)
  if (existsSync(path)) return path
  mkdirSync(DATA, { recursive: true })
  const block = Buffer.from(lines.map((l) => `${l}\n`).join(''))
  const out = createWriteStream(`${path}.tmp`)
  let written = 0
  for (let k = 0; times !== undefined ? k < times : written < mb * 1e6; k++) {
    if (!out.write(block)) await new Promise((r) => out.once('drain', r))
    written += block.length
  }
  await new Promise((r) => out.end(r))
  spawnSync('mv', [`${path}.tmp`, path])
  return path
}

/** The access log: LOG_LINES lines over LOG_HOSTS hosts (see the module comment). */
async function buildLog(all) {
  const path = join(DATA, `vhost-access-${LOG_LINES / 1e6}M-${LOG_HOSTS / 1000}k.log`)
  if (existsSync(path)) return path
  mkdirSync(DATA, { recursive: true })
  const rand = prng(2026)
  const real = [...new Set(all.map(hostOf).filter((h) => /^[a-z0-9.-]+$/.test(h)))]
  const hosts = real.slice(0, LOG_HOSTS)
  for (let i = 0; hosts.length < LOG_HOSTS; i++) hosts.push(`site${i}.${['example.com', 'example.net', 'example.org', 'test'][i % 4]}`)
  // Shuffled, then Zipf-like popularity: host k drawn with weight 1 / (k + 10).
  for (let i = hosts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[hosts[i], hosts[j]] = [hosts[j], hosts[i]]
  }
  const cumulative = new Float64Array(hosts.length)
  let total = 0
  for (let k = 0; k < hosts.length; k++) cumulative[k] = total += 1 / (k + 10)
  const pick = () => {
    const x = rand() * total
    let lo = 0
    let hi = hosts.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulative[mid] < x) lo = mid + 1
      else hi = mid
    }
    return hosts[lo]
  }
  const paths = all.map(pathOf).filter((p) => !/[\s"]/.test(p))
  const agents = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'curl/8.5.0']
  const out = createWriteStream(`${path}.tmp`)
  let chunk = ''
  for (let i = 0; i < LOG_LINES; i++) {
    const host = pick()
    const secs = 36_000 + Math.floor(i / 60)
    const t = `${String(Math.floor(secs / 3600) % 24).padStart(2, '0')}:${String(Math.floor(secs / 60) % 60).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}`
    chunk +=
      `${host}:443 203.0.${i % 251}.${(i * 7) % 253} - - [23/Nov/2026:${t} +0000] "GET ${paths[Math.floor(rand() * paths.length)]} HTTP/1.1" ` +
      `${rand() < 0.9 ? 200 : 404} ${Math.floor(rand() * 50_000)} "-" "${agents[i % agents.length]}"\n`
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r))
      chunk = ''
    }
  }
  out.write(chunk)
  await new Promise((r) => out.end(r))
  spawnSync('mv', [`${path}.tmp`, path])
  return path
}

/** One line of LONG_LINE bytes, a URL (reused when present). */
function buildLongLine() {
  const path = join(DATA, 'long-line-255m.txt')
  if (existsSync(path)) return path
  mkdirSync(DATA, { recursive: true })
  const head = Buffer.from('https://www.nytimes.com/')
  const fd = openSync(`${path}.tmp`, 'w')
  const chunk = Buffer.alloc(1 << 20, 0x61)
  let left = LONG_LINE - head.length - 1
  writeSync(fd, head)
  while (left > 0) {
    const n = Math.min(left, chunk.length)
    writeSync(fd, chunk, 0, n)
    left -= n
  }
  writeSync(fd, Buffer.from('\n'))
  closeSync(fd)
  spawnSync('mv', [`${path}.tmp`, path])
  return path
}

function countLines(path) {
  const r = spawnSync('wc', ['-l', path], { encoding: 'utf8' })
  return Number(r.stdout.trim().split(/\s+/)[0])
}

/**
 * Runs a command `runs` times with stdout to /dev/null; returns the median
 * wall seconds and the median CPU seconds (user + system of the command and
 * its children, from bash's `times`: other processes on the machine leave
 * it alone).
 */
function time(cmd, args, runs) {
  const walls = []
  const cpus = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    const r = spawnSync('bash', ['-c', '"$0" "$@" > /dev/null || exit $?; times', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 20 })
    const t = (performance.now() - t0) / 1000
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`)
    walls.push(t)
    const seconds = (x) => {
      const m = /^(\d+)m([\d.]+)s$/.exec(x)
      return m ? Number(m[1]) * 60 + Number(m[2]) : NaN
    }
    const [user, system] = r.stdout.trim().split('\n')[1].trim().split(/\s+/).map(seconds)
    cpus.push(user + system)
  }
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  return { wall: med(walls), cpu: med(cpus) }
}

function load() {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first')
  if (!existsSync(SHARED)) throw new Error(`${SHARED} is missing`)
  const size = Number(option('--size', 300))
  const runs = Math.max(3, Number(option('--runs', 3)))
  const only = option('--only', 'single,dir,kasztp,log').split(',')
  const { paired, kasztp, all } = corpusUrls()
  const node = process.execPath
  const self = fileURLToPath(import.meta.url)
  const bundle = join(DATA, 'anubhavp28-benchmark.bundle')
  mkdirSync(DATA, { recursive: true })
  const packed = spawnSync(node, [CLI, 'pack', ROBOTS_DIR, '-o', bundle, '-q'])
  if (packed.status !== 0) throw new Error(`pack failed: ${packed.stderr}`)
  const filter = (name, rules, extra, file) => [
    [`${name} (default)`, node, [CLI, 'filter', ...rules, '--agent', AGENT, '-q', ...extra, file]],
    [`${name} --jobs 1`, node, [CLI, 'filter', ...rules, '--agent', AGENT, '-q', '--jobs', '1', ...extra, file]],
  ]
  const help = spawnSync(node, [CLI, 'filter', '--help'], { encoding: 'utf8' }).stdout
  const logColumns = help.includes('--log-format') ? LOG_FORMAT : LOG_FIELDS_BEFORE_19
  const dirAndBundle = (extra, file) => [
    ...filter('filter --robots-dir', ['--robots-dir', ROBOTS_DIR], extra, file),
    ...filter('filter --bundle', ['--bundle', bundle], extra, file),
  ]
  const workloads = []
  if (only.includes('single')) {
    const file = await buildFile(`single-${size}mb.txt`, all.map((u) => SITE + pathOf(u)), { mb: size })
    workloads.push({ name: 'one robots.txt', file, cases: [
      ['wc -l', 'wc', ['-l', file]],
      ...filter('filter --robots', ['--robots', SITE_ROBOTS], [], file),
      ...filter('filter --robots --print verdicts', ['--robots', SITE_ROBOTS], ['--print', 'verdicts'], file),
      ['readline + robots-parser', node, [self, '--baseline', 'single', SITE_ROBOTS, file]],
    ] })
  }
  if (only.includes('dir')) {
    const file = await buildFile(`paired-${size}mb.txt`, paired, { mb: size })
    workloads.push({ name: 'paired corpus, one robots.txt per host', file, cases: [
      ['wc -l', 'wc', ['-l', file]],
      ...dirAndBundle([], file),
      ['readline + robots-parser, per host', node, [self, '--baseline', 'dir', ROBOTS_DIR, file]],
    ] })
  }
  if (only.includes('kasztp')) {
    const file = await buildFile('kasztp-x25.txt', kasztp, { times: 25 })
    const unlisted = unlistedBundle(node)
    workloads.push({ name: 'kasztp x25: 22,154 hosts, most without a robots.txt', file, oneHost: true, cases: [
      ['wc -l', 'wc', ['-l', file]],
      ...dirAndBundle([], file),
      // Every line through the per-host path, but no host enters (none is in the bundle): the per-line cost alone.
      ['filter --bundle, none listed --jobs 1', node, [CLI, 'filter', '--bundle', unlisted, '--agent', AGENT, '-q', '--jobs', '1', file]],
      // The same list judged by one robots.txt: what the per-host path costs beyond it.
      ...filter('filter --robots (one robots.txt)', ['--robots', SITE_ROBOTS], [], file),
      ['readline + robots-parser, per host', node, [self, '--baseline', 'dir', ROBOTS_DIR, file]],
    ] })
  }
  if (only.includes('log')) {
    const file = await buildLog(all)
    workloads.push({ name: `access log: ${LOG_LINES / 1e6} M lines, ${LOG_HOSTS.toLocaleString('en-US')} hosts (${logColumns.join(' ')})`, file, cases: [
      ['wc -l', 'wc', ['-l', file]],
      ...dirAndBundle(logColumns, file),
      ['readline + robots-parser, per host', node, [self, '--baseline', 'log', ROBOTS_DIR, file]],
    ] })
  }
  if (only.includes('longline')) {
    const file = buildLongLine()
    const q = (x) => `'${x.replace(/'/g, `'\\''`)}'`
    workloads.push({ name: 'one 255 MiB line, from a file and from a pipe', file, noBaseline: true, cases: [
      ['wc -l', 'wc', ['-l', file]],
      ['filter --robots, the file', node, [CLI, 'filter', '--robots', SITE_ROBOTS, '--agent', AGENT, '-q', '--jobs', '1', file]],
      ['filter --robots, cat FILE |', 'sh', ['-c', `cat ${q(file)} | ${q(node)} ${q(CLI)} filter --robots ${q(SITE_ROBOTS)} --agent ${AGENT} -q --jobs 1`]],
    ] })
  }
  if (argv.includes('--prepare')) {
    console.log(`data ready: ${workloads.map((w) => w.file.slice(ROOT.length + 1)).join(', ')}`)
    return
  }
  console.log(`node ${process.version}, ${CLI}, ${runs} runs each, median wall time (process start included); load average before: ${load()}`)
  for (const { name, file, cases, noBaseline, oneHost } of workloads) {
    const bytes = statSync(file).size
    const lines = countLines(file) // also warms the page cache
    console.log(`\n${name}\n${file.slice(ROOT.length + 1)}: ${(bytes / 1e6).toFixed(0)} MB, ${lines.toLocaleString('en-US')} lines`)
    console.log(`${'command'.padEnd(44)} ${'median s'.padStart(9)} ${'MB/s'.padStart(8)} ${'lines/s'.padStart(12)} ${'CPU s'.padStart(8)} ${'vs baseline'.padStart(12)}`)
    const timed = cases.map(([label, cmd, args]) => [label, time(cmd, args, runs)])
    const results = timed.map(([label, t]) => [label, t.wall])
    const base = results[results.length - 1][1]
    for (const [label, t] of timed) {
      const s = t.wall
      const ratio = label.startsWith('filter') && !noBaseline ? `${(base / s).toFixed(1)}×` : ''
      console.log(`${label.padEnd(44)} ${s.toFixed(3).padStart(9)} ${(bytes / 1e6 / s).toFixed(1).padStart(8)} ${Math.round(lines / s).toLocaleString('en-US').padStart(12)} ${t.cpu.toFixed(3).padStart(8)} ${ratio.padStart(12)}`)
    }
    if (oneHost) {
      // Many hosts against one robots.txt on the same list, --jobs 1, by CPU time: the per-host path's cost.
      const cpuOf = (label) => timed.find(([l]) => l === label)?.[1].cpu
      const one = cpuOf('filter --robots (one robots.txt) --jobs 1')
      for (const many of ['filter --robots-dir --jobs 1', 'filter --bundle --jobs 1', 'filter --bundle, none listed --jobs 1']) {
        const m = cpuOf(many)
        // The run with no host listed is the per-line path alone, not the goal's figure.
        const goal = many.includes('none listed') ? '   (the per-line path alone: no goal)' : `   goal ≥ 0.8: ${one / m >= 0.8 ? 'met' : 'NOT met'}`
        if (one && m) console.log(`${many} ÷ one robots.txt (speed, CPU): ${(one / m).toFixed(2)}${goal}`)
      }
    }
    const jobs = (prefix) => {
      const one = results.find(([l]) => l === `${prefix} --jobs 1`)
      const dflt = results.find(([l]) => l === `${prefix} (default)`)
      return one && dflt ? `${prefix}: default / --jobs 1 = ${(one[1] / dflt[1]).toFixed(2)}× the speed` : ''
    }
    if (noBaseline) console.log(`from a pipe / from the file = ${(results[2][1] / results[1][1]).toFixed(2)}× the time (goal ≤ 2×)`)
    else console.log([...new Set(results.map(([l]) => l.replace(/ (--jobs \d|\(default\))$/, '')).filter((l) => l.startsWith('filter')))].map(jobs).filter(Boolean).join('; '))
  }
  console.log(`\nload average after: ${load()}`)
}

/** A bundle of one robots.txt, under a host no list of the corpus holds (bench/data/unlisted.bundle). */
function unlistedBundle(node) {
  const dir = join(DATA, 'unlisted-host')
  const bundle = join(DATA, 'unlisted.bundle')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'unlisted.invalid'), readFileSync(SITE_ROBOTS))
  const packed = spawnSync(node, [CLI, 'pack', dir, '-o', bundle, '-q'])
  if (packed.status !== 0) throw new Error(`pack failed: ${packed.stderr}`)
  return bundle
}

/** The comparison filter: readline over the file, robots-parser per line (per host, by the URL's host or the log's vhost column), allowed lines to stdout. */
async function baseline(kind, robots, file) {
  const require = createRequire(import.meta.url)
  const robotsParser = require('robots-parser')
  const cache = new Map()
  const forHost = (host) => {
    let r = cache.get(host)
    if (r === undefined) {
      const path = join(robots, host)
      r = host && !host.includes('/') && existsSync(path) ? robotsParser(`https://${host}/robots.txt`, readFileSync(path, 'utf8')) : null
      cache.set(host, r)
    }
    return r
  }
  const single = kind === 'single' ? robotsParser(`${SITE}/robots.txt`, readFileSync(robots, 'utf8')) : null
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
  let out = ''
  for await (const line of rl) {
    let allowed
    if (single !== null) allowed = single.isAllowed(line, AGENT) !== false
    else if (kind === 'log') {
      const fields = line.split(/[ \t]+/)
      const host = (fields[0] ?? '').replace(/:\d+$/, '').toLowerCase()
      const r = forHost(host)
      allowed = r === null || r.isAllowed(`https://${host}${fields[7] ?? '/'}`, AGENT) !== false
    } else {
      let host = ''
      try {
        host = new URL(line).hostname
      } catch {}
      const r = forHost(host)
      // robots-parser checks the scheme and port too: judge the URL as if on https.
      allowed = r === null || r.isAllowed(line.replace(/^http:/, 'https:'), AGENT) !== false
    }
    if (allowed) {
      out += `${line}\n`
      if (out.length > 1 << 16) {
        if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r))
        out = ''
      }
    }
  }
  process.stdout.write(out)
}
