// Summary of a V8 CPU profile (`node --cpu-prof`): self time by function
// and by source file, as shares of the sampled time, for the profiles that
// bench/RESULTS.md quotes.
//
//   node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--match TEXT]
//
// --top N: rows per table (default 25). --match TEXT: also the total time
// (self and callees) of every function whose name contains TEXT.
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

const argv = process.argv.slice(2)
const file = argv.find((a, i) => !a.startsWith('--') && !['--top', '--match'].includes(argv[i - 1]))
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--match TEXT]')
  process.exit(2)
}
const flag = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}
const top = Number(flag('--top', '25'))
const match = flag('--match', undefined)

const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

// Self time per node from the samples and their time deltas.
const self = new Map()
let total = 0
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt)
  total += dt
}

const name = (n) => n.callFrame.functionName || '(anonymous)'
const where = (n) => (n.callFrame.url ? basename(n.callFrame.url) + ':' + (n.callFrame.lineNumber + 1) : '')
const fnSelf = new Map()
const fileSelf = new Map()
for (const [id, t] of self) {
  const n = byId.get(id)
  const key = `${name(n)} ${where(n)}`.trim()
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + t)
  const f = n.callFrame.url ? basename(n.callFrame.url) : name(n)
  fileSelf.set(f, (fileSelf.get(f) ?? 0) + t)
}

const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + ' %'
const table = (title, map) => {
  console.log(`\n${title}`)
  for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`)
}
console.log(`${basename(file)}: ${(total / 1000).toFixed(0)} ms sampled, ${profile.samples.length} samples`)
table('self time by function', fnSelf)
table('self time by file', fileSelf)

if (match) {
  // Total time: a sample counts once for each distinct matching function on its stack.
  const inclusive = new Map()
  for (const [id, t] of self) {
    const seen = new Set()
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at)
      if (!name(n).includes(match)) continue
      const key = `${name(n)} ${where(n)}`.trim()
      if (seen.has(key)) continue
      seen.add(key)
      inclusive.set(key, (inclusive.get(key) ?? 0) + t)
    }
  }
  table(`total time (self and callees) of functions named *${match}*`, inclusive)
}
