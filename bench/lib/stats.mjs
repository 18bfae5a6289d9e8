// Timing and reporting helpers shared by the bench/ scripts.
//
// measure(fn, { runs, warmup }) calls fn() `warmup` times unmeasured, then
// `runs` times, each timed with process.hrtime.bigint(); it returns the
// median (what we report), min, max and every sample in milliseconds.
// Scripts that compare two libraries interleave their runs (ours, theirs,
// ours, ...) through measurePairs so that a noisy stretch of the machine hits
// both sides alike.
import os from 'node:os'
import { writeFileSync } from 'node:fs'

/** Median of a numeric array (mean of the two middle values for even length). */
export function median(values) {
  if (!values.length) return NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length & 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** Summary of a list of samples (ms). */
export function summarize(samples) {
  return {
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
    samples,
  }
}

/** Time one call of fn in milliseconds; returns [ms, result]. */
export function timeOnce(fn) {
  const t0 = process.hrtime.bigint()
  const result = fn()
  const t1 = process.hrtime.bigint()
  return [Number(t1 - t0) / 1e6, result]
}

/**
 * Runs fn `warmup` times, then `runs` timed times. Returns summarize(samples)
 * plus `result`: the return value of the last call (used for sanity checks).
 */
export function measure(fn, { runs = 5, warmup = 1 } = {}) {
  let result
  for (let i = 0; i < warmup; i++) result = fn()
  const samples = []
  for (let i = 0; i < runs; i++) {
    const [ms, r] = timeOnce(fn)
    samples.push(ms)
    result = r
  }
  return { ...summarize(samples), result }
}

/** CPU time of one call of fn in milliseconds (this process, all its threads: process.cpuUsage()); returns [ms, result]. */
export function cpuOnce(fn) {
  const t0 = process.cpuUsage()
  const result = fn()
  const t = process.cpuUsage(t0)
  return [(t.user + t.system) / 1000, result]
}

/**
 * Like measure, for several named functions whose runs are interleaved:
 * warmup round(s) first, then `runs` rounds of one call each, in order.
 * `clock: 'cpu'` times each call by this process's CPU time (cpuOnce: the
 * time other processes hold the CPU is left out, which a shared machine
 * needs), `'wall'` (the default) by wall time. Returns { name: summary }.
 */
export function measureInterleaved(fns, { runs = 5, warmup = 1, clock = 'wall' } = {}) {
  const names = Object.keys(fns)
  const samples = Object.fromEntries(names.map((n) => [n, []]))
  const results = {}
  const time = clock === 'cpu' ? cpuOnce : timeOnce
  for (let i = 0; i < warmup; i++) for (const n of names) results[n] = fns[n]()
  for (let i = 0; i < runs; i++) {
    for (const n of names) {
      const [ms, r] = time(fns[n])
      samples[n].push(ms)
      results[n] = r
    }
  }
  return Object.fromEntries(names.map((n) => [n, { ...summarize(samples[n]), result: results[n] }]))
}

/** The machine and command line, printed at the top of every script. */
export function machine() {
  const cpus = os.cpus()
  return {
    command: [process.argv0 === 'node' ? 'node' : process.execPath, ...process.execArgv, ...process.argv.slice(1)].join(' '),
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    v8: process.versions.v8,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    loadavg: os.loadavg().map((x) => x.toFixed(2)).join(' '),
    date: new Date().toISOString(),
  }
}

export function printHeader(title, extra = {}) {
  const m = machine()
  console.log(`# ${title}`)
  console.log(`command: ${m.command}`)
  console.log(`machine: ${m.cpu} (${m.cores} cores, ${m.memory}), node ${m.node} (V8 ${m.v8}), ${m.os}, load ${m.loadavg}`)
  for (const [k, v] of Object.entries(extra)) console.log(`${k}: ${v}`)
  console.log('')
  return m
}

/**
 * Common command-line options: --runs N, --quick (smoke run: tiny counts),
 * --json FILE (write the results object there, for run-all.mjs).
 */
export function parseArgs(argv = process.argv.slice(2), defaults = {}) {
  const opts = { quick: false, json: null, ...defaults }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--quick') opts.quick = true
    else if (a === '--json') opts.json = argv[++i]
    else if (a.startsWith('--')) {
      const key = a.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase())
      const next = argv[i + 1]
      if (next === undefined || next.startsWith('--')) opts[key] = true
      else {
        const n = Number(next)
        opts[key] = Number.isFinite(n) ? n : next
        i++
      }
    }
  }
  return opts
}

export function writeJson(path, obj) {
  if (path) writeFileSync(path, JSON.stringify(obj, null, 2) + '\n')
}

// ---- formatting ----

/** 12345678 → "12.3 M", 12345 → "12.3 k". */
export function si(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x)
  const a = Math.abs(x)
  if (a >= 1e9) return (x / 1e9).toPrecision(digits) + ' G'
  if (a >= 1e6) return (x / 1e6).toPrecision(digits) + ' M'
  if (a >= 1e3) return (x / 1e3).toPrecision(digits) + ' k'
  return x.toPrecision(digits) + ' '
}

export function ms(x) {
  if (!Number.isFinite(x)) return String(x)
  if (x >= 1000) return (x / 1000).toFixed(2) + ' s'
  if (x >= 10) return x.toFixed(1) + ' ms'
  if (x >= 0.01) return x.toFixed(3) + ' ms'
  return (x * 1000).toFixed(2) + ' µs'
}

export function bytes(x) {
  if (!Number.isFinite(x)) return String(x)
  const a = Math.abs(x)
  if (a >= 2 ** 30) return (x / 2 ** 30).toFixed(2) + ' GiB'
  if (a >= 2 ** 20) return (x / 2 ** 20).toFixed(2) + ' MiB'
  if (a >= 2 ** 10) return (x / 2 ** 10).toFixed(1) + ' KiB'
  return Math.round(x) + ' B'
}

export function ratio(x) {
  return Number.isFinite(x) ? x.toFixed(x >= 100 ? 0 : x >= 10 ? 1 : 2) + '×' : String(x)
}

/** A markdown table from a header row and rows of cells. */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c)))
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => r[i].length)))
  const line = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [line(all[0]), '| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |', ...all.slice(1).map(line)].join('\n')
}

/** "met" / "NOT met" for a goal check. */
export function goal(ok) {
  return ok ? 'met' : 'NOT met'
}
