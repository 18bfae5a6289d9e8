// Run by test/robots/shape-keepers.test.ts:
//   node --expose-gc --allow-natives-syntax shape-probe.mjs DIST_INDEX_JS
// Prints {"optimised":..,"afterGc":..,"freed":..}: whether parseRobots runs
// optimised code once optimised, and still after every file it parsed was
// dropped and the garbage collected (V8 drops code optimised for an object
// shape that no object has any more); and whether the last input parsed and
// its Robots were collected (what keeps the shapes holds neither).
import { pathToFileURL } from 'node:url'

const { parseRobots } = await import(pathToFileURL(process.argv[2]).href)
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const body = 'User-agent: *\nDisallow: /private\nAllow: /private/open\n# a comment\nSitemap: https://example.com/s.xml\n'
const isOptimised = () => (%GetOptimizationStatus(parseRobots) & 16) !== 0

function parseSome() {
  let n = 0
  for (let i = 0; i < 20; i++) n += parseRobots(body).lineCount
  return n
}

parseSome()
// The last input parsed and its Robots (parsed before the optimisation: another path through the parser would deoptimise it).
const refs = (() => {
  const input = new TextEncoder().encode(body)
  return [new WeakRef(input), new WeakRef(parseRobots(input))]
})()
;%PrepareFunctionForOptimization(parseRobots)
parseSome()
;%OptimizeFunctionOnNextCall(parseRobots)
parseSome()
const optimised = isOptimised()
for (let i = 0; i < 4; i++) {
  globalThis.gc()
  await tick()
}
console.log(JSON.stringify({ optimised, afterGc: isOptimised(), freed: refs.every((r) => r.deref() === undefined) }))
