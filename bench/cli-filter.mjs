// Benchmark of `robots-automaton filter` against `wc -l` and against a
// readline + robots-parser filter, on URL files of a few hundred MB built from
// ../shared/corpus/urls (cached under bench/data/, gitignored).
//
//   node bench/cli-filter.mjs [--size MB] [--runs N]      (build first: npm run build)
//
// Two workloads:
// - single: every URL of the corpus lists (paired.tsv, kasztp.txt, userbait.txt)
//   moved onto one site (https://www.nytimes.com + the URL's path and query),
//   judged by that site's robots.txt (--robots).
// - dir: the URLs of paired.tsv, each judged by its own host's file from
//   ../shared/corpus/robots/anubhavp28-benchmark (--robots-dir).
// Each command runs --runs times (default 3) in this same process, output to
// /dev/null; the table gives the median wall time, MB/s and URLs/s.
//
// `--baseline single ROBOTS FILE` and `--baseline dir DIR FILE` run the
// readline + robots-parser filter itself (used by the benchmark as a child).
import { spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, statSync, closeSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SHARED = join(ROOT, '../shared/corpus')
const DATA = join(ROOT, 'bench/data')
const CLI = join(ROOT, 'dist/cli.js')
const SITE = 'https://www.nytimes.com'
const SITE_ROBOTS = join(SHARED, 'robots/anubhavp28-benchmark/www.nytimes.com')
const ROBOTS_DIR = join(SHARED, 'robots/anubhavp28-benchmark')
const AGENT = 'Googlebot'

const argv = process.argv.slice(2)
if (argv[0] === '--baseline') await baseline(argv[1], argv[2], argv[3])
else await main()

function option(name, dflt) {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : dflt
}

/** Path, query and fragment of a URL string: what follows the authority ("/" when nothing). */
function pathOf(url) {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*(.*)$/.exec(url)
  const rest = m ? m[1] : url
  return rest.startsWith('/') ? rest : `/${rest}`
}

function corpusUrls() {
  const paired = readFileSync(join(SHARED, 'urls/paired.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t')[2])
  const plain = (name) => readFileSync(join(SHARED, 'urls', name), 'utf8').replace(/^\ufeff/, '').split('\n').filter(Boolean)
  return { paired, all: [...paired, ...plain('kasztp.txt'), ...plain('userbait.txt')] }
}

/** Writes `lines` repeated until the file reaches `mb` megabytes; reuses an existing file. */
async function buildFile(name, lines, mb) {
  const path = join(DATA, name)
  if (existsSync(path) && statSync(path).size >= mb * 1e6) return path
  mkdirSync(DATA, { recursive: true })
  const block = Buffer.from(lines.map((l) => `${l}\n`).join(''))
  const out = createWriteStream(path)
  let written = 0
  while (written < mb * 1e6) {
    if (!out.write(block)) await new Promise((r) => out.once('drain', r))
    written += block.length
  }
  await new Promise((r) => out.end(r))
  return path
}

function countLines(path) {
  const r = spawnSync('wc', ['-l', path], { encoding: 'utf8' })
  return Number(r.stdout.trim().split(/\s+/)[0])
}

/** Runs a command `runs` times with stdout to /dev/null; returns the median seconds. */
function time(cmd, args, runs) {
  const devnull = openSync('/dev/null', 'w')
  const times = []
  try {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now()
      const r = spawnSync(cmd, args, { stdio: ['ignore', devnull, 'pipe'], maxBuffer: 1 << 20 })
      const t = (performance.now() - t0) / 1000
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`)
      times.push(t)
    }
  } finally {
    closeSync(devnull)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first')
  if (!existsSync(SHARED)) throw new Error(`${SHARED} is missing`)
  const size = option('--size', 300)
  const runs = Math.max(3, option('--runs', 3))
  const { paired, all } = corpusUrls()
  const singleFile = await buildFile(`single-${size}mb.txt`, all.map((u) => SITE + pathOf(u)), size)
  const dirFile = await buildFile(`paired-${size}mb.txt`, paired, size)
  const node = process.execPath
  const self = fileURLToPath(import.meta.url)
  const workloads = [
    { file: singleFile, cases: [
      ['wc -l', 'wc', ['-l', singleFile]],
      ['filter --robots (print allowed)', node, [CLI, 'filter', '--robots', SITE_ROBOTS, '--agent', AGENT, '-q', singleFile]],
      ['filter --robots --print verdicts', node, [CLI, 'filter', '--robots', SITE_ROBOTS, '--agent', AGENT, '-q', '--print', 'verdicts', singleFile]],
      ['readline + robots-parser', node, [self, '--baseline', 'single', SITE_ROBOTS, singleFile]],
    ] },
    { file: dirFile, cases: [
      ['wc -l', 'wc', ['-l', dirFile]],
      ['filter --robots-dir (print allowed)', node, [CLI, 'filter', '--robots-dir', ROBOTS_DIR, '--agent', AGENT, '-q', dirFile]],
      ['filter --robots-dir --print verdicts', node, [CLI, 'filter', '--robots-dir', ROBOTS_DIR, '--agent', AGENT, '-q', '--print', 'verdicts', dirFile]],
      ['readline + robots-parser, per host', node, [self, '--baseline', 'dir', ROBOTS_DIR, dirFile]],
    ] },
  ]
  console.log(`node ${process.version}, ${runs} runs each, median wall time (process start included)`)
  for (const { file, cases } of workloads) {
    const bytes = statSync(file).size
    const lines = countLines(file) // also warms the page cache
    console.log(`\n${file.slice(ROOT.length + 1)}: ${(bytes / 1e6).toFixed(0)} MB, ${lines.toLocaleString('en-US')} URLs`)
    console.log(`${'command'.padEnd(40)} ${'median s'.padStart(9)} ${'MB/s'.padStart(8)} ${'URLs/s'.padStart(12)}`)
    for (const [name, cmd, args] of cases) {
      const s = time(cmd, args, runs)
      console.log(`${name.padEnd(40)} ${s.toFixed(3).padStart(9)} ${(bytes / 1e6 / s).toFixed(1).padStart(8)} ${Math.round(lines / s).toLocaleString('en-US').padStart(12)}`)
    }
  }
}

/** The comparison filter: readline over the file, robots-parser per line, allowed lines to stdout. */
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
    else {
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
