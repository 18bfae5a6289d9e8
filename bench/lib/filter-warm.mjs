// Loaded with `node --import` before dist/cli.js by bench/filter-warmup.mjs.
// FILTER_WARM=1: first runs the library's per-host path (parse, agents(),
// 30 checks, diagnostics) over the files of FILTER_WARM_DIR whose hosts
// FILTER_WARM_LIST does not hold, so the run meets code already compiled.
// Either way, at exit it writes to stderr one JSON line: the process's CPU
// seconds after this module (user + system) and, on Linux, each thread's
// CPU seconds after this module (main thread, V8's worker threads, libuv).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const dist = process.env.FILTER_WARM_DIST
let warmed = 0
if (process.env.FILTER_WARM === '1') {
  const { parseRobots } = await import(pathToFileURL(join(dist, 'index.js')).href)
  const dir = process.env.FILTER_WARM_DIR
  const used = new Set()
  const paths = []
  for (const line of readFileSync(process.env.FILTER_WARM_LIST, 'utf8').split('\n')) {
    try {
      const u = new URL(line.replace(/^\ufeff/, ''))
      used.add(u.hostname)
      if (paths.length < 512) paths.push(u.pathname + u.search)
    } catch {}
  }
  const agent = process.env.FILTER_WARM_AGENT ?? 'Googlebot'
  for (const name of readdirSync(dir)) {
    if (used.has(name)) continue
    // The options `filter` gives the matchers of --robots-dir (cli/hosts/host-rules.ts).
    const robots = parseRobots(readFileSync(join(dir, name)), { hotThreshold: 0 })
    const m = robots.agents([agent])
    for (let k = 0; k < 30; k++) m.isAllowed(`https://${name}${paths[(warmed * 7 + k) % paths.length]}`)
    void robots.diagnostics
    warmed++
  }
}

/** CPU seconds by thread name so far ('main' for the main thread; clock ticks of 10 ms), or {} off Linux. */
function threadCpu() {
  const threads = {}
  try {
    for (const t of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const name = t === String(process.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      threads[name] = (threads[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100
    }
  } catch {}
  return threads
}

const start = process.cpuUsage()
const startThreads = threadCpu()
process.on('exit', () => {
  const c = process.cpuUsage(start)
  const threads = threadCpu()
  for (const k of Object.keys(threads)) threads[k] = Math.round((threads[k] - (startThreads[k] ?? 0)) * 100) / 100
  process.stderr.write(`FILTER_WARM ${JSON.stringify({ cpu: (c.user + c.system) / 1e6, warmed, threads })}\n`)
})
