// The package's size: what `npm pack` would ship (packed, unpacked, files; by kind), and a browser
// bundle of one `parseRobots(…).agent(…).isAllowed(…)` made with esbuild from the built entry
// (minified, gzipped), with the modules that make it up (from src/, for their names).
//   node bench/package-size.mjs [--json]          (build first: npm run build)
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const env = { ...process.env }
for (const k of Object.keys(env)) if (k.toLowerCase().startsWith('npm_')) delete env[k]
const text = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
const pack = JSON.parse(text.slice(text.indexOf('[')))[0]

/** A file's kind, for the table. */
function kind(path) {
  if (path.endsWith('.map')) return 'source maps'
  if (/\.d\.c?ts$/.test(path)) return 'declarations (.d.ts, .d.cts)'
  if (path === 'dist/cli.js' || path === 'dist/filter-worker.js' || path === 'dist/compare-module.js') return 'command line (dist/cli.js, its threads)'
  if (/^dist\/[^/]+\.js$/.test(path)) return 'ESM library (entries and shared chunks)'
  if (/^dist\/[^/]+\.cjs$/.test(path)) return 'CommonJS library (core.cjs and the entries)'
  if (path.startsWith('dist/playground/')) return 'tester page (dist/playground)'
  if (path.startsWith('corpus/') || path === 'dist/data/corpus-urls.txt.gz') return 'sample corpus (compare --cases corpus; its URL list gzipped)'
  if (path.startsWith('dist/data/')) return "compare's unit vectors (dist/data, gzipped)"
  if (path.startsWith('examples/')) return 'examples (compare adapters)'
  return 'README, LICENSE, NOTICE, package.json'
}
const kinds = new Map()
for (const f of pack.files) kinds.set(kind(f.path), (kinds.get(kind(f.path)) ?? 0) + f.size)

const entry = "import { parseRobots } from './dist/index.js'\nexport const allowed = (body, url) => parseRobots(body).agent('Googlebot').isAllowed(url)\n"
const bundle = async (contents) =>
  build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent' })
const fromDist = await bundle(entry)
const code = fromDist.outputFiles[0].contents
const fromSrc = await bundle(entry.replace('./dist/index.js', './src/index.ts'))
const out = Object.values(fromSrc.metafile.outputs)[0]
const modules = Object.entries(out.inputs)
  .map(([path, i]) => ({ path, bytes: i.bytesInOutput }))
  .sort((a, b) => b.bytes - a.bytes)

const result = {
  packed: pack.size,
  unpacked: pack.unpackedSize,
  files: pack.entryCount,
  kinds: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1])),
  browser: { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, modules },
}
if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2))
else {
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`
  console.log(`package: ${kb(result.packed)} packed, ${kb(result.unpacked)} unpacked, ${result.files} files`)
  for (const [k, n] of Object.entries(result.kinds)) console.log(`  ${kb(n).padStart(9)}  ${k}`)
  console.log(`browser bundle of parseRobots(…).agent(…).isAllowed(…): ${kb(result.browser.minified)} minified, ${kb(result.browser.gzipped)} gzipped`)
  for (const m of modules.slice(0, 25)) console.log(`  ${kb(m.bytes).padStart(9)}  ${m.path}`)
}
