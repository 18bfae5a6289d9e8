// `npm run pack:all [-- --out DIR] [--json]`: the packages of a release, packed
// together from one build: robots-automaton and its drop-in for robots-parser
// overrides (packages/robots-automaton-compat, version set to the main
// package's). Prints the tarballs' paths (--json: npm pack's records).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stageDropIn } from './dropin.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const outAt = args.indexOf('--out')
const out = resolve(outAt >= 0 ? args[outAt + 1] : root)
const json = args.includes('--json')
mkdirSync(out, { recursive: true })

const env = { ...process.env }
for (const k of Object.keys(env)) if (k.toLowerCase().startsWith('npm_')) delete env[k]
const pack = (dir) => {
  const text = execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  return JSON.parse(text.slice(text.indexOf('[')))[0]
}

// The main package (its `prepack` builds dist/ when it is stale).
const main = pack(root)
const stage = mkdtempSync(join(tmpdir(), 'robots-dropin-'))
try {
  const pkg = await stageDropIn(root, stage)
  const dropin = pack(stage)
  if (dropin.version !== main.version) throw new Error(`${pkg.name} ${dropin.version} != ${main.name} ${main.version}`)
  const records = [main, dropin].map((r) => ({ ...r, path: join(out, r.filename) }))
  if (json) console.log(JSON.stringify(records, null, 2))
  else for (const r of records) console.log(r.path)
} finally {
  rmSync(stage, { recursive: true, force: true })
}
