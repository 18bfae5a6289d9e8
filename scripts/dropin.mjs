// The drop-in package (packages/robots-automaton-compat): robots-parser's
// function as its root export, for `"overrides": { "robots-parser":
// "npm:robots-automaton-compat@<version>" }`. Its index.js is the compat
// entry (src/compat.ts, through src/crawlee/dropin.ts: URLs judged as the
// URL parser writes them) bundled into one CommonJS file of its own, so that
// the package has no dependencies: an override installs it alone, from the
// registry or from a tarball. Staged into a folder with its version set to
// the main package's, ready for `npm pack`; `npm run build` also writes the
// index.js into packages/robots-automaton-compat/ (gitignored), so that the
// folder itself can be installed (`file:` with an absolute path).
import { build } from 'esbuild'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const DROPIN_DIR = 'packages/robots-automaton-compat'

/** The pages whose override lines name the drop-in's version (scripts/sync-versions.mjs keeps them current). */
export const VERSIONED_DOCS = [`${DROPIN_DIR}/README.md`, 'docs/crawlee.md', 'docs/migrating.md', 'README.md']

/** Bundles the drop-in's entry (src/crawlee/dropin.ts: the compat entry, URLs judged as requested) into `outfile`: its index.js. */
export async function buildDropInIndex(root, outfile) {
  await build({
    entryPoints: [join(root, 'src/crawlee/dropin.ts')],
    bundle: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    outfile,
    // robots-parser's module is its function: so is this one, with the named
    // exports and `default` on it (the second line names them for Node's
    // CommonJS export detection, `import { robotsParser } from`).
    footer: { js: 'module.exports = Object.assign(module.exports.robotsParser, module.exports);\n0 && (module.exports = { compatToken, robotsParser });' },
  })
}

/** Stages the drop-in package into `outDir` (created); returns its package.json. */
export async function stageDropIn(root, outDir) {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const src = join(root, DROPIN_DIR)
  const pkg = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'))
  pkg.version = rootPkg.version
  mkdirSync(outDir, { recursive: true })
  await buildDropInIndex(root, join(outDir, 'index.js'))
  for (const f of ['index.d.ts', 'Robots.js', 'README.md', 'NOTICE']) copyFileSync(join(src, f), join(outDir, f))
  copyFileSync(join(root, 'LICENSE'), join(outDir, 'LICENSE'))
  writeFileSync(join(outDir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n')
  return pkg
}
