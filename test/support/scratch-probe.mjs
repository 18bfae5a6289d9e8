// Run by test/match/scratch.test.ts: node --expose-gc scratch-probe.mjs DIST_INDEX_JS
// Prints {"before":..,"during":..,"after":..} in bytes (V8 heap + array buffers after
// full GCs): before a large rule set is compiled and used through every tier with
// long URLs, while it is held, and after everything was dropped.
import { pathToFileURL } from 'node:url'

const { parseRobots } = await import(pathToFileURL(process.argv[2]).href)
// The reference engine lives in the internals entry, beside the core's bundle.
const { compactRulesOf, referenceDecide } = await import(pathToFileURL(process.argv[2].replace(/index\.js$/, 'internals.js')).href)
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
async function settle() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc()
    await tick()
  }
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** Compiles and uses everything; returns what it holds (dropped by the caller). Block-scoped values of the module's own body could stay in its context across an await. */
function work() {
  const held = []
  const tiers = [{ tier: 'cold' }, { tier: 'hot' }, { tier: 'thrash-proof' }, {}, { engine: 'plain' }]
  // About 5 MB of rules (a raised limit): 300,000 rules, millions of DFA positions, and a
  // thrash-proof index over them.
  const lines = ['User-agent: *']
  for (let i = 0; lines.length < 300_000; i++) lines.push(`Disallow: /p${i}/x${i % 3 ? '' : '*y'}`)
  const big = lines.join('\n')
  for (const options of tiers) {
    const m = parseRobots(big, { limit: 16_000_000, ...options }).agent('bot')
    for (const u of ['/p1/x', '/p299999/xy', '/q', 'https://e.com/p7/x/zy?q']) m.isAllowed(u)
    held.push(m)
  }
  // URLs of 3.2 MB, as strings, bytes and lines, on a few rules.
  const small = 'User-agent: *\nDisallow: /*h*q\nAllow: /abc\nDisallow: /*fgh$\n'
  const longPath = '/' + 'abcdefgh'.repeat(400_000)
  const longUrl = 'https://example.com' + longPath + '\u00e4'
  const longBytes = new TextEncoder().encode(longUrl)
  const lineBuffer = new TextEncoder().encode(`${longUrl}\n?${longPath}\n/x\n`)
  for (const options of tiers) {
    const m = parseRobots(small, options).agent('bot')
    m.isAllowed(longUrl)
    m.isAllowed(longBytes)
    m.isAllowed('?' + longPath)
    m.matchLines(lineBuffer)
    held.push(m)
  }
  referenceDecide(compactRulesOf(parseRobots(small)), ['bot'], new TextEncoder().encode(longPath))
  return held
}

const before = await settle()
let held = work()
const during = await settle()
held = null
const after = await settle()

// A matcher holds the pattern bytes it needs, not the Robots it came from.
const live = []
const robotsRefs = []
for (const options of [{ tier: 'cold' }, { tier: 'hot' }, { tier: 'thrash-proof' }, {}]) {
  let robots = parseRobots('User-agent: *\nDisallow: /a*b\nAllow: /a$\n', options)
  const m = robots.agent('bot')
  m.isAllowed('/axb')
  live.push(m)
  robotsRefs.push(new WeakRef(robots))
  robots = null
}
await settle()
const robotsFreed = robotsRefs.every((r) => r.deref() === undefined)
const stillAnswers = live.every((m) => m.isAllowed('/axb') === false && m.isAllowed('/a') === true)
console.log(JSON.stringify({ before, during, after, robotsFreed, stillAnswers }))
