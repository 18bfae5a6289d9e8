// Hash flooding: host names made to collide, through the store, pack and
// filter --bundle, beside random names of the same length (issue 19).
//
//   node bench/hash-flood.mjs [--names N] [--runs N] [--dist DIR]   (build first: npm run build)
//
// Name sets (N each, default 32,768; cached under bench/data/):
// - fnv: names with one FNV-1a-32 hash (the unkeyed hash the key table, the
//   bundles' index and the command line's host index used before issue 19).
//   Made by chaining collisions: FNV-1a's state after two colliding blocks is
//   the same, so 15 pairs of colliding 5-byte labels give 2^15 names.
// - known-key: names whose keyed hash (src/url/keyed-hash.ts) under one fixed,
//   known key agrees in its low 10 bits (1,024 tries each): what an attacker
//   who knew the key could make. The process's key is random, so they only
//   collide where that key is adopted on purpose (the "known key adopted" rows).
// - random: random labels of the same lengths.
// Workloads, per set: RobotsStore.set of every name (bare host) then one
// isAllowed look-up of each (in this process); `pack` of the names as JSON
// lines; `filter --bundle` over one URL per name. Every figure is the median
// of --runs (default 3) wall times; the ratio is against the random names.
// --dist DIR runs the same against another build (e.g. /work/main/dist, the
// unkeyed FNV-1a) for the "before" figures.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { prng } from '../test/support/prng.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DATA = join(ROOT, 'bench/data')
const argv = process.argv.slice(2)
const option = (name, dflt) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : dflt
}
const N = Number(option('--names', 32_768))
const RUNS = Math.max(1, Number(option('--runs', 3)))
const DIST = resolve(option('--dist', join(ROOT, 'dist')))
const core = await import(join(DIST, 'index.js'))
const { RobotsStore } = core
const internals = await import(join(DIST, 'internals.js'))
/** The keyed hash of host names and its key: UrlScan's statics, or the internals of builds before them (none before the keyed hash). */
const hashing = core.UrlScan
  ? { key: () => core.UrlScan.hashKey(), use: (k) => core.UrlScan.useHashKey(k), hash: (b) => core.UrlScan.hostHash(b, 0, b.length) }
  : typeof internals.adoptHashKey === 'function'
    ? { key: () => internals.hashKeyWords(), use: (k) => internals.adoptHashKey(k), hash: (b) => internals.hostHash(b, 0, b.length) }
    : undefined
const CLI = join(DIST, 'cli.js')
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
const SUFFIX = '.flood.test'
const enc = new TextEncoder()

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[s.length >> 1]
}

/** FNV-1a-32 state after `text` from state `h`. */
function fnv(h, text) {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h
}

/** Two different 5-letter labels (and a dot) that take FNV-1a from `state` to one state; and that state. */
function collidingPair(state, rand) {
  const seen = new Map()
  for (;;) {
    let label = ''
    for (let k = 0; k < 5; k++) label += ALPHABET[Math.floor(rand() * ALPHABET.length)]
    label += '.'
    const h = fnv(state, label)
    const other = seen.get(h)
    if (other !== undefined && other !== label) return { a: other, b: label, state: h }
    seen.set(h, label)
  }
}

/** 2^bits names with one FNV-1a hash, as bits chained pairs of colliding labels. */
function fnvNames(count) {
  const bits = Math.ceil(Math.log2(count))
  const rand = prng(19)
  let state = 0x811c9dc5
  const pairs = []
  for (let i = 0; i < bits; i++) {
    const p = collidingPair(state, rand)
    pairs.push([p.a, p.b])
    state = p.state
  }
  const names = []
  for (let n = 0; n < count; n++) {
    let name = ''
    for (let i = 0; i < bits; i++) name += pairs[i][(n >>> i) & 1]
    names.push(name + SUFFIX.slice(1))
  }
  const h = fnv(0x811c9dc5, names[0])
  if (!names.every((x) => fnv(0x811c9dc5, x) === h)) throw new Error('fnv names do not collide')
  return names
}

/** The fixed "known" key, and `count` names whose hostHash under it has the same low 10 bits. */
const KNOWN_KEY = Int32Array.of(0x5eed0001, 0x5eed0002, 0x5eed0003, 0x5eed0004)
function knownKeyNames(count, length) {
  const own = hashing.key()
  hashing.use(KNOWN_KEY)
  const rand = prng(2019)
  const names = []
  try {
    while (names.length < count) {
      let label = ''
      for (let k = 0; k < length - SUFFIX.length; k++) label += ALPHABET[Math.floor(rand() * ALPHABET.length)]
      const b = enc.encode(label + SUFFIX)
      if ((hashing.hash(b) & 0x3ff) === 0) names.push(label + SUFFIX)
    }
  } finally {
    hashing.use(own)
  }
  return names
}

function randomNames(count, length, seed) {
  const rand = prng(seed)
  const names = new Set()
  while (names.size < count) {
    let label = ''
    for (let k = 0; k < length - SUFFIX.length; k++) label += ALPHABET[Math.floor(rand() * ALPHABET.length)]
    names.add(label + SUFFIX)
  }
  return [...names]
}

/** A name set from the cache, or made and cached. */
function cached(name, make) {
  const path = join(DATA, `flood-${name}-${N}.txt`)
  if (existsSync(path)) return readFileSync(path, 'utf8').split('\n').filter(Boolean)
  mkdirSync(DATA, { recursive: true })
  const t0 = performance.now()
  const names = make()
  console.error(`  [flood] made ${name} names in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  writeFileSync(path, `${names.join('\n')}\n`)
  return names
}

const fnvSet = cached('fnv', () => fnvNames(N))
const length = fnvSet[0].length
const sets = {
  fnv: fnvSet,
  'known-key': cached('known-key', () => knownKeyNames(N, length)),
  random: cached(`random-${length}`, () => randomNames(N, length, 7)),
}

const BODY = 'User-agent: *\nDisallow: /private\n'

/** RobotsStore.set of every name, then isAllowed of one URL each; seconds. */
function storeRun(names) {
  const t0 = performance.now()
  const store = new RobotsStore()
  for (const n of names) store.set(n, BODY)
  let disallowed = 0
  for (const n of names) if (!store.isAllowed(`https://${n}/private/x`, 'bot')) disallowed++
  if (disallowed !== names.length) throw new Error(`store answers wrong: ${disallowed} of ${names.length}`)
  return (performance.now() - t0) / 1000
}

/** Wall seconds of a CLI run. */
function cli(args, input) {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [CLI, ...args], { input, maxBuffer: 1 << 30 })
  const s = (performance.now() - t0) / 1000
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`)
  return s
}

/** One run of each workload on a name set: seconds. */
function workloads(label, names) {
  const jsonl = names.map((n) => JSON.stringify({ origin: n, body: BODY })).join('\n') + '\n'
  const bundle = join(DATA, `flood-${label}.bundle`)
  const urls = names.map((n) => `https://${n}/private/x`).join('\n') + '\n'
  return {
    store: storeRun(names),
    pack: cli(['pack', '-', '-o', bundle, '-q'], jsonl),
    filter: cli(['filter', '--bundle', bundle, '--agent', 'bot', '-q', '--jobs', '1'], urls),
  }
}

console.log(`hash flood: ${N.toLocaleString('en-US')} names of ${length} bytes per set, ${RUNS} runs each (median wall s), dist ${DIST}; node ${process.version}`)
// A warm-up pass (the store's code is compiled by V8 on the first set it meets), then the sets interleaved run by run.
storeRun(sets.random)
const samples = Object.fromEntries(Object.keys(sets).map((l) => [l, { store: [], pack: [], filter: [] }]))
for (let r = 0; r < RUNS; r++) {
  for (const [label, names] of Object.entries(sets)) {
    const one = workloads(label, names)
    for (const k of ['store', 'pack', 'filter']) samples[label][k].push(one[k])
  }
}
const results = Object.fromEntries(Object.entries(samples).map(([l, s]) => [l, { store: median(s.store), pack: median(s.pack), filter: median(s.filter) }]))
// The known-key names under the key they were made for: the flood they would be (store only, in this process).
let knownAdopted
if (hashing !== undefined) {
  const own = hashing.key()
  hashing.use(KNOWN_KEY)
  try {
    knownAdopted = median(Array.from({ length: RUNS }, () => storeRun(sets['known-key'])))
  } finally {
    hashing.use(own)
  }
}
const base = results.random
console.log(`${'names'.padEnd(28)} ${'store set+lookup'.padStart(18)} ${'pack'.padStart(14)} ${'filter --bundle'.padStart(18)}`)
for (const [label, r] of Object.entries(results)) {
  const cell = (k) => `${r[k].toFixed(3)} (${(r[k] / base[k]).toFixed(2)}×)`
  console.log(`${label.padEnd(28)} ${cell('store').padStart(18)} ${cell('pack').padStart(14)} ${cell('filter').padStart(18)}`)
}
if (knownAdopted !== undefined) console.log(`${'known-key, key adopted'.padEnd(28)} ${`${knownAdopted.toFixed(3)} (${(knownAdopted / base.store).toFixed(2)}×)`.padStart(18)}`)
const worst = Math.max(...['fnv', 'known-key'].flatMap((l) => ['store', 'pack', 'filter'].map((k) => results[l][k] / base[k])))
console.log(`worst ratio against random names: ${worst.toFixed(2)}×   goal ≤ 2×: ${worst <= 2 ? 'met' : 'NOT met'}`)
