// Build: ESM and CJS bundles with esbuild, .d.ts with tsc, and the tester page (build-playground.mjs).
// Entries: index, internals and compat (core, browser-safe: no Node built-ins), node (Node streams/files), crawlee (Node), cli (bin, shebang).
// Declarations drop every `@internal` member (stripInternal in tsconfig.json).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildPlayground } from './build-playground.mjs'
import { buildDropInIndex, DROPIN_DIR } from './dropin.mjs'

rmSync('dist', { recursive: true, force: true })

const common = { bundle: true, sourcemap: true, target: 'node20', logLevel: 'warning' }

// Core entries (the library, its internals and the robots-parser compatibility layer):
// platform neutral, so a Node built-in import fails the build.
for (const entry of ['index', 'internals', 'compat']) {
  for (const format of ['esm', 'cjs']) {
    await build({
      ...common,
      entryPoints: [`src/${entry}.ts`],
      platform: 'neutral',
      mainFields: ['module', 'main'],
      format,
      outfile: `dist/${entry}.${format === 'esm' ? 'js' : 'cjs'}`,
      // robots-parser's CommonJS module is its function: so is compat's
      // (`const robotsParser = require('robots-automaton/compat')`), with the
      // named exports and `default` on it.
      ...(entry === 'compat' && format === 'cjs' ? { footer: { js: 'module.exports = Object.assign(module.exports.robotsParser, module.exports);\n0 && (module.exports = { compatToken, robotsParser });' } } : {}),
    })
  }
}
// Node entries: node (files, streams) and crawlee (Crawlee's robots.txt handling; Crawlee itself is passed in, never imported).
for (const entry of ['node', 'crawlee']) {
  for (const format of ['esm', 'cjs']) {
    await build({
      ...common,
      entryPoints: [`src/${entry}.ts`],
      platform: 'node',
      format,
      outfile: `dist/${entry}.${format === 'esm' ? 'js' : 'cjs'}`,
    })
  }
}
await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  platform: 'node',
  format: 'esm',
  outfile: 'dist/cli.js',
  banner: { js: '#!/usr/bin/env node' },
})
chmodSync('dist/cli.js', 0o755)
// Package data of `compare --cases unit`: the reference's unit vectors (their one copy is test/data/conformance).
cpSync('test/data/conformance', 'dist/data/conformance', { recursive: true })
// The worker threads of `filter --jobs N` (loaded by dist/cli.js from next to it).
await build({
  ...common,
  entryPoints: ['src/cli/filter/worker.ts'],
  platform: 'node',
  format: 'esm',
  outfile: 'dist/filter-worker.js',
})
// Declarations of every entry (tsconfig.node.json includes the Node entry and the CLI).
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.node.json'], { stdio: 'inherit' })

// Types for `require` (the exports map's "require" → "types"): in a
// "type": "module" package a .d.ts describes ES modules, so TypeScript under
// `moduleResolution: node16`/`nodenext` would reject it for CommonJS callers.
// Each .d.ts gets a .d.cts twin whose relative imports name the .cjs twins.
function cjsTypes(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) cjsTypes(path)
    else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8').replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\.js\2/g, '$1$2$3.cjs$2')
      writeFileSync(path.slice(0, -'.d.ts'.length) + '.d.cts', text)
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
