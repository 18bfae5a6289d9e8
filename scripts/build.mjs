// Build: the ESM and CJS builds with esbuild, .d.ts with tsc, and the tester page (build-playground.mjs).
// Entries: index, internals and compat (the core, browser-safe: no Node built-ins), node (Node
// streams and files), crawlee (Node: Crawlee's robots.txt handling), cli (the bin, with its
// shebang), filter-worker (filter --jobs's threads) and compare-module (the thread of compare --module).
//
// One module graph per format. ESM: every entry in one build with code splitting, so the entries
// share one copy of each module (a Robots made by the core entry is a Robots for internals; one
// class per error). CommonJS, which esbuild cannot split: the whole core is one bundle
// (dist/core.cjs), and each entry a few lines that re-export its part of it (node.cjs bundles only
// its own code and requires the core; so does crawlee.cjs). The ESM and CJS builds are two graphs
// (the dual-package hazard: docs/api.md says so). Last, the drop-in package's index.js.
//
// What ships is sized for the tarball: no source maps (`npm run build -- --sourcemap` writes them
// for debugging; then do not pack), every bundle minified, the declarations of the public entries
// and what they reference only, the unit vectors gzipped. The ESM library keeps its property and
// method names (a stack trace reads `x.isAllowed`), not its local and module-level ones (the
// CommonJS bundles alike: error classes name themselves);
// `npm run build -- --names` keeps those too, for CPU profiles and debugging (then do not pack).
import { build, transform } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildPlayground } from './build-playground.mjs'
import { buildDropInIndex, DROPIN_DIR } from './dropin.mjs'

rmSync('dist', { recursive: true, force: true })

const sourcemap = process.argv.includes('--sourcemap')
/** Whether the ESM library keeps every name (`--names`, or with source maps). */
const names = sourcemap || process.argv.includes('--names')
const common = { bundle: true, sourcemap, target: 'node20', logLevel: 'warning', legalComments: 'none', mainFields: ['module', 'main'] }
/** What the ESM chunks get: minified, names too unless `--names` (see above). */
const compact = { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: !names }
/** The core's entries: they must not reach a Node built-in. */
const CORE = ['index', 'internals', 'compat']

// ESM: one build, shared chunks at the top of dist/ (beside the entries, so that a module's
// `new URL('./x', import.meta.url)` means the same in a chunk). Platform neutral: Node built-ins
// are external (`node:` imports; the command line has no other dependency), and the check below
// fails the build when a core entry reaches one.
const esm = await build({
  ...common,
  entryPoints: {
    index: 'src/index.ts',
    internals: 'src/internals.ts',
    compat: 'src/compat.ts',
    node: 'src/node.ts',
    crawlee: 'src/crawlee.ts',
    'cli-main': 'src/cli/bin.ts',
    'filter-worker': 'src/cli/filter/worker.ts',
    'compare-module': 'src/compare/adapters/module-thread.ts',
  },
  platform: 'neutral',
  external: ['node:*'],
  format: 'esm',
  splitting: true,
  outdir: 'dist',
  chunkNames: 'chunk-[hash]',
  metafile: true,
  ...compact,
})
for (const entry of CORE) {
  const seen = new Set()
  const visit = (out) => {
    if (seen.has(out)) return
    seen.add(out)
    for (const i of esm.metafile.outputs[out].imports) {
      if (i.external) throw new Error(`the core entry ${entry} reaches ${i.path} (through ${out}): the core takes no Node built-in`)
      visit(i.path)
    }
  }
  visit(`dist/${entry}.js`)
}
// An enum's values are written in place where the library reads them, but its object stays for the
// entries that export it (internals: LineFlag, KeyKind), in a chunk every entry imports. esbuild
// marks an enum's IIFE `/* @__PURE__ */` and drops the mark when it minifies whitespace, so a
// user's bundler would keep the object; the mark goes back here, and a user's bundle of the core
// entry drops it (not with source maps, whose columns it would shift).
/** The command line's own files: its entry and its threads. */
const TOOL_FILES = ['dist/cli-main.js', 'dist/filter-worker.js', 'dist/compare-module.js']
const ENUM_IIFE = /([\w$]+)=\(([\w$]+)=>\(\2\[\2\.[\w$]+=/g
if (!sourcemap) for (const out of Object.keys(esm.metafile.outputs)) {
  if (!out.endsWith('.js') || TOOL_FILES.includes(out)) continue
  const text = readFileSync(out, 'utf8')
  let marked = 0
  const next = text.replace(ENUM_IIFE, (m, name) => {
    marked++
    return `${name}=/* @__PURE__ */${m.slice(name.length + 1)}`
  })
  const enums = text.match(/\(([\w$]+)\|\|\{\}\)/g)?.length ?? 0
  if (marked !== enums) throw new Error(`${out}: ${marked} enum objects marked pure of ${enums}: esbuild's enum output changed`)
  if (marked > 0) writeFileSync(out, next)
}
// The command line's own modules (no library user reads them): minified whole, identifiers too.
if (!sourcemap) for (const file of TOOL_FILES) {
  const text = readFileSync(file, 'utf8')
  const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : ''
  const out = await transform(text.slice(shebang.length), { minify: true, format: 'esm', target: 'node20', legalComments: 'none', sourcemap: false })
  writeFileSync(file, shebang + out.code)
}
// The bin: a launcher that loads the command, so that a start this machine cannot make (no file
// descriptor left to read the modules: ulimit -n) is said in one line, not as Node's stack trace.
writeFileSync('dist/cli.js', `#!/usr/bin/env node
import('./cli-main.js').catch((e) => {
  const c = e && e.code
  const why = c === 'EMFILE' || c === 'ENFILE' ? 'no file descriptor left to load its modules (' + c + '): raise the limit (ulimit -n)' : e && e.message ? e.message : String(e)
  process.stderr.write('robots-automaton: cannot start: ' + why + '\\n')
  process.exitCode = 1
})
`)
chmodSync('dist/cli.js', 0o755)

// CommonJS: the core as one bundle, and each entry its part of it.
await build({
  ...common,
  stdin: {
    contents: "export * from './index.ts'\nexport * from './internals.ts'\nexport { robotsParser, compatToken } from './compat.ts'\n",
    resolveDir: 'src',
    sourcefile: 'core.cjs.ts',
    loader: 'ts',
  },
  platform: 'neutral',
  format: 'cjs',
  outfile: 'dist/core.cjs',
  minify: true,
  keepNames: names,
})
/** The names an ESM entry exports (as the build saw them), for its CommonJS twin. */
const exportsOf = (entry) => esm.metafile.outputs[`dist/${entry}.js`].exports
const reexport = (what, names) =>
  `'use strict'\n// robots-automaton/${what} (CommonJS): its part of the one CommonJS build of the core, core.cjs.\n` +
  `Object.defineProperty(exports, '__esModule', { value: true })\nconst core = require('./core.cjs')\n` +
  names.map((n) => `exports.${n} = core.${n}\n`).join('')
writeFileSync('dist/index.cjs', reexport('', exportsOf('index')).replace('robots-automaton/ (', 'robots-automaton ('))
writeFileSync('dist/internals.cjs', reexport('internals', exportsOf('internals')))
// robots-parser's CommonJS module is its function: so is compat's
// (`const robotsParser = require('robots-automaton/compat')`), with the named
// exports and `default` on it; the last line names them for Node's CommonJS
// export detection.
writeFileSync(
  'dist/compat.cjs',
  `'use strict'\n// robots-automaton/compat (CommonJS): robots-parser's function, from the one CommonJS build of the core, core.cjs.\n` +
    `const core = require('./core.cjs')\nconst robotsParser = core.robotsParser\n` +
    `module.exports = Object.assign(robotsParser, { robotsParser, compatToken: core.compatToken, default: robotsParser })\n` +
    `0 && (module.exports = { compatToken, robotsParser });\n`,
)
// The Node entries: their own code, with the core required from core.cjs (not bundled again).
// Each reaches the core through the entries named here only (a relative import of another core
// module would bundle a second copy of it).
const NODE_ENTRIES = {
  // The Node entry's own modules: src/net/ (the transport), src/files/ (output paths).
  node: { own: /src\/(node\.ts$|net\/|files\/)/, core: ['index.ts'] },
  crawlee: { own: /src\/crawlee(\.ts|\/)/, core: ['index.ts', 'compat.ts'] },
}
for (const [entry, { own, core }] of Object.entries(NODE_ENTRIES)) {
  await build({
    ...common,
    entryPoints: [`src/${entry}.ts`],
    platform: 'node',
    format: 'cjs',
    outfile: `dist/${entry}.cjs`,
    minify: true,
    keepNames: names,
    // src/net/built-ins.ts reads __filename where a CommonJS bundle has no import.meta.
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [
      {
        name: 'core-from-core-cjs',
        setup(b) {
          b.onResolve({ filter: /^\./ }, (args) => {
            if (!own.test(args.importer)) return undefined
            const target = join(args.resolveDir, args.path).replace(/\.js$/, '.ts')
            const inSrc = target.slice(target.lastIndexOf('/src/') + 1)
            if (core.some((c) => inSrc === `src/${c}`)) return { path: './core.cjs', external: true }
            if (own.test(inSrc)) return undefined
            throw new Error(`${args.importer} imports ${args.path}: the ${entry} entry reaches the core through ${core.map((c) => `src/${c}`).join(' and ')} only`)
          })
        },
      },
    ],
  })
}
// Package data of `compare --cases unit`: the reference's unit vectors, gzipped (their one copy is
// test/data/conformance; its README gives their provenance).
mkdirSync('dist/data/conformance', { recursive: true })
const vectors = JSON.stringify(JSON.parse(readFileSync('test/data/conformance/google-robots-test.json', 'utf8')))
writeFileSync('dist/data/conformance/google-robots-test.json.gz', gzipSync(vectors, { level: 9 }))
copyFileSync('test/data/conformance/README.md', 'dist/data/conformance/README.md')
// The sample corpus's URL list, gzipped: the package ships it in place of corpus/urls.txt.
writeFileSync('dist/data/corpus-urls.txt.gz', gzipSync(readFileSync('corpus/urls.txt'), { level: 9 }))
// Declarations (tsc writes one per module of src/), then only those of the public entries and what
// they reference are kept: the command line's, compare's and the other internal modules' go.
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.node.json'], { stdio: 'inherit' })
const PUBLIC = ['index', 'node', 'compat', 'crawlee', 'internals']
function pruneDeclarations(dir) {
  const keep = new Set()
  const visit = (file) => {
    if (keep.has(file)) return
    keep.add(file)
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (!m[1].endsWith('.js')) throw new Error(`${file} imports ${m[1]}: the build follows .js specifiers only`)
      visit(join(dirname(file), m[1].slice(0, -'.js'.length) + '.d.ts'))
    }
  }
  for (const e of PUBLIC) visit(join(dir, `${e}.d.ts`))
  const sweep = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name)
      if (entry.isDirectory()) {
        sweep(path)
        if (readdirSync(path).length === 0) rmSync(path, { recursive: true })
      } else if (entry.name.endsWith('.d.ts') && !keep.has(path)) unlinkSync(path)
    }
  }
  sweep(dir)
}
pruneDeclarations('dist')

// Types for `require` (the exports map's "require" → "types"): in a
// "type": "module" package a .d.ts describes ES modules, so TypeScript under
// `moduleResolution: node16`/`nodenext` would reject it for CommonJS callers.
// Each .d.ts becomes a .d.cts whose relative imports name the .cjs twins. An entry keeps its .d.ts
// too, for `import`, and it names the same .d.cts modules (ES modules may import CommonJS ones),
// so one set of declarations serves both formats.
function cjsTypes(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) cjsTypes(path)
    else if (entry.name.endsWith('.d.ts')) {
      // tsc indents by four spaces; two say the same in half the bytes.
      const text = readFileSync(path, 'utf8')
        .replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\.js\2/g, '$1$2$3.cjs$2')
        .replace(/^(?: {4})+/gm, (indent) => ' '.repeat(indent.length / 2))
      writeFileSync(path.slice(0, -'.d.ts'.length) + '.d.cts', text)
      if (dir === 'dist' && PUBLIC.includes(entry.name.slice(0, -'.d.ts'.length))) writeFileSync(path, text)
      else unlinkSync(path)
    }
  }
}
cjsTypes('dist')

// robots-parser's CommonJS module is its function, and so is compat's: its
// types for `require` say so (`export =`), so that `import robotsParser =
// require('robots-automaton/compat')` and a JS file's `require()` are
// callable, while `import robotsParser from` and the named imports still
// type-check (the function carries `default`, `robotsParser` and
// `compatToken`). The declarations themselves move to compat-api.d.cts.
renameSync('dist/compat.d.cts', 'dist/compat-api.d.cts')
writeFileSync(
  'dist/compat.d.cts',
  `/** robots-parser's API, answered by robots-automaton: the module is the function (as robots-parser's is). */
import type * as api from './compat-api.cjs'
declare const robotsParser: typeof api.robotsParser & {
  /** The module itself (\`const { robotsParser } = require('robots-automaton/compat')\`). */
  readonly robotsParser: typeof api.robotsParser
  /** The module itself (\`import robotsParser from 'robots-automaton/compat'\`). */
  readonly default: typeof api.robotsParser
  readonly compatToken: typeof api.compatToken
}
declare namespace robotsParser {
  /** What \`robotsParser\` returns: robots-parser's \`Robot\`. */
  type Robot = api.Robot
}
export = robotsParser
`,
)

await buildPlayground()
// The drop-in package's index.js (packages/robots-automaton-compat), so that its folder installs as it is.
await buildDropInIndex('.', `${DROPIN_DIR}/index.js`)
console.log('built dist/')
