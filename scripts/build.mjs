// Build: ESM and CJS bundles with esbuild, .d.ts with tsc.
// Entries: index and compat (core, browser-safe: no Node built-ins), node (Node streams/files), cli (bin, shebang).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { rmSync, existsSync, chmodSync } from 'node:fs'

rmSync('dist', { recursive: true, force: true })

const common = { bundle: true, sourcemap: true, target: 'node20', logLevel: 'warning' }

// Core entries (the library and the robots-parser compatibility layer):
// platform neutral, so a Node built-in import fails the build.
for (const entry of ['index', 'compat']) {
  for (const format of ['esm', 'cjs']) {
    await build({
      ...common,
      entryPoints: [`src/${entry}.ts`],
      platform: 'neutral',
      mainFields: ['module', 'main'],
      format,
      outfile: `dist/${entry}.${format === 'esm' ? 'js' : 'cjs'}`,
    })
  }
}
if (existsSync('src/node.ts')) {
  for (const format of ['esm', 'cjs']) {
    await build({
      ...common,
      entryPoints: ['src/node.ts'],
      platform: 'node',
      format,
      outfile: format === 'esm' ? 'dist/node.js' : 'dist/node.cjs',
    })
  }
}
if (existsSync('src/cli/main.ts')) {
  await build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    platform: 'node',
    format: 'esm',
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  })
  chmodSync('dist/cli.js', 0o755)
}
const tsc = ['node_modules/typescript/bin/tsc']
execFileSync(process.execPath, [...tsc, '-p', existsSync('src/node.ts') ? 'tsconfig.node.json' : 'tsconfig.json'], { stdio: 'inherit' })
console.log('built dist/')
