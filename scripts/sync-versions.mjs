// `npm version` runs this ("version" script): the drop-in package
// (packages/robots-automaton-compat) and the override lines of its docs take
// the main package's new version, in the same commit.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DROPIN_DIR, VERSIONED_DOCS } from './dropin.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const pkgPath = join(root, DROPIN_DIR, 'package.json')
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'))
pkg.version = version
writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + '\n')
for (const doc of VERSIONED_DOCS) {
  const path = join(root, doc)
  const text = readFileSync(path, 'utf8')
    .replace(new RegExp(`${pkg.name}@[0-9][0-9A-Za-z.+-]*`, 'g'), `${pkg.name}@${version}`)
    .replace(new RegExp(`${pkg.name}-[0-9][0-9A-Za-z.+-]*?\\.tgz`, 'g'), `${pkg.name}-${version}.tgz`)
  writeFileSync(path, text)
}
console.log(`${pkg.name} ${version}`)
