/**
 * The drop-in package (packages/robots-automaton-compat) as a user gets it:
 * packed from this checkout (scripts/dropin.mjs, as `npm run pack:all` packs
 * it), then installed under an override of robots-parser in a project whose
 * dependency uses robots-parser (Crawlee's shape), with npm:
 *
 * - `"overrides": { "robots-parser": "file:<tarball>" }`, offline;
 * - `"overrides": { "robots-parser": "npm:robots-automaton-compat@<version>" }`,
 *   the README's line, from a registry on 127.0.0.1 that serves the tarball;
 * - a direct dependency on the alias (npm refuses an override of a direct one).
 *
 * Then robots-parser's function answers with the reference's answers, for
 * `require`, `import` and the deep `robots-parser/Robots`, and its typings
 * type-check under every module resolution.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DROPIN_DIR, stageDropIn, VERSIONED_DOCS } from '../scripts/dropin.mjs'
import { ROOT } from './support/build.js'
import { cleanEnv, sh } from './support/npm-child.js'
import { typecheck } from './support/typecheck.js'

const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
const NAME = 'robots-automaton-compat'
const BODY = 'User-agent: *\\nDisallow: /dir/\\nAllow: /dir/index.html\\nDisallow: /a|b\\n'
/** What the consumer prints: the reference's answers (robots-parser 3.0.1 gives true, false, true for the first three). */
const EXPECTED = JSON.stringify([false, true, false, 3, 'MyBot'])

/** As sh, without blocking this process (whose registry server answers the child). */
function shAsync(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 180_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${String(err)}\n${stderr}`)) : resolve(stdout)))
  })
}

function pack(dir: string, dest: string): { filename: string; files: { path: string }[]; version: string } {
  const out = sh('npm', ['pack', '--json', '--pack-destination', dest], dir)
  return (JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[]; version: string }[])[0]
}

let tmp: string
let tarball: string
let packed: { filename: string; files: { path: string }[]; version: string }
let consumerTarball: string

/** A package that depends on robots-parser and uses it, as Crawlee's @crawlee/utils does. */
function makeConsumer(): string {
  const dir = join(tmp, 'uses-robots-parser')
  mkdirSync(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'uses-robots-parser', version: '1.0.0', main: 'index.js', dependencies: { 'robots-parser': '^3.0.1' } }))
  writeFileSync(
    join(dir, 'index.js'),
    `const robotsParser = require('robots-parser')
module.exports = function answers() {
  const r = robotsParser('https://e.com/robots.txt', '${BODY}')
  return [r.isAllowed('https://e.com/a|b', 'MyBot'), r.isAllowed('https://e.com/dir/', 'MyBot'), r.isAllowed('https://e.com/dir/x', 'MyBot'),
    r.getMatchingLineNumber('https://e.com/dir/', 'Mozilla/5.0 (compatible; MyBot/1.0)'), robotsParser.compatToken('Mozilla/5.0 (compatible; MyBot/1.0)')]
}
`,
  )
  return join(tmp, pack(dir, tmp).filename)
}

/** A project that depends on the consumer; `extra` goes into its package.json. */
function project(name: string, extra: Record<string, unknown>): string {
  const dir = join(tmp, name)
  mkdirSync(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, dependencies: { 'uses-robots-parser': `file:${consumerTarball}` }, ...extra }, null, 2))
  return dir
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'robots-dropin-'))
  await stageDropIn(ROOT, join(tmp, 'stage'))
  packed = pack(join(tmp, 'stage'), tmp)
  tarball = join(tmp, packed.filename)
  consumerTarball = makeConsumer()
})

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe('the drop-in package: packed, then installed under an override of robots-parser', () => {
  it("the tarball: robots-parser's files (the bundled compat entry, its typings, Robots.js), no dependencies, the main package's version", () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual(['LICENSE', 'NOTICE', 'README.md', 'Robots.js', 'index.d.ts', 'index.js', 'package.json'])
    expect(packed.version).toBe(rootPkg.version)
    const manifest = JSON.parse(readFileSync(join(tmp, 'stage/package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest).toMatchObject({ name: NAME, main: 'index.js', types: 'index.d.ts', license: 'Apache-2.0' })
    for (const key of ['dependencies', 'peerDependencies', 'optionalDependencies', 'scripts', 'exports', 'type']) expect(manifest, key).not.toHaveProperty(key)
    // The committed manifest and the override lines of the docs follow the main package's version (scripts/sync-versions.mjs).
    expect(JSON.parse(readFileSync(join(ROOT, DROPIN_DIR, 'package.json'), 'utf8')).version).toBe(rootPkg.version)
    for (const doc of VERSIONED_DOCS) {
      const versions = [...readFileSync(join(ROOT, doc), 'utf8').matchAll(new RegExp(`npm:${NAME}@([^"'\\s\`]+)`, 'g'))].map((m) => m[1])
      expect(versions.length, doc).toBeGreaterThan(0)
      expect(new Set(versions), doc).toEqual(new Set([rootPkg.version]))
    }
  })

  it('npm, offline: "overrides": { "robots-parser": "file:<tarball>" } puts it under the consumer; its answers are the reference\'s', () => {
    const dir = project('override-file', { overrides: { 'robots-parser': `file:${tarball}` } })
    sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir)
    const out = sh(process.execPath, ['-e', `console.log(JSON.stringify(require('uses-robots-parser')()))`], dir)
    expect(out.trim()).toBe(EXPECTED)
    const resolved = sh(process.execPath, ['-e', `const r = require('module').createRequire(require.resolve('uses-robots-parser')); console.log(require(r.resolve('robots-parser/package.json')).name)`], dir)
    expect(resolved.trim()).toBe(NAME)
  })

  it('npm, offline: the folder itself (built by npm run build) under a file: override', () => {
    const dir = project('override-folder', { overrides: { 'robots-parser': `file:${join(ROOT, DROPIN_DIR)}` } })
    sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir)
    expect(sh(process.execPath, ['-e', `console.log(JSON.stringify(require('uses-robots-parser')()))`], dir).trim()).toBe(EXPECTED)
  })

  describe('the README\'s line, npm:robots-automaton-compat@<version>, from a registry on 127.0.0.1', () => {
    let registry: Server
    let registryUrl: string
    const asked: string[] = []
    beforeAll(async () => {
      const bytes = readFileSync(tarball)
      const manifest = JSON.parse(readFileSync(join(tmp, 'stage/package.json'), 'utf8')) as Record<string, unknown>
      registry = createServer((req, res) => {
        asked.push(req.url ?? '')
        const url = req.url ?? ''
        if (url === `/${NAME}`) {
          const version = { ...manifest, _id: `${NAME}@${rootPkg.version}`, dist: { tarball: `${registryUrl}/${NAME}/-/${packed.filename}`, integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`, shasum: createHash('sha1').update(bytes).digest('hex') } }
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: NAME, 'dist-tags': { latest: rootPkg.version }, versions: { [rootPkg.version]: version } }))
        } else if (url === `/${NAME}/-/${packed.filename}`) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes)
        } else {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
        }
      })
      await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r))
      registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`
    })
    afterAll(() => {
      registry.close()
    })
    const install = (dir: string): Promise<string> =>
      shAsync('npm', ['install', '--registry', registryUrl, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-online'], dir)

    it('an override of a dependency\'s robots-parser (as Crawlee\'s): require() answers with the reference\'s answers', async () => {
      asked.length = 0
      const dir = project('override-alias', { overrides: { 'robots-parser': `npm:${NAME}@${rootPkg.version}` } })
      await install(dir)
      expect(sh(process.execPath, ['-e', `console.log(JSON.stringify(require('uses-robots-parser')()))`], dir).trim()).toBe(EXPECTED)
      // Only the drop-in was asked for: robots-parser itself never.
      expect(asked.filter((u) => !u.startsWith(`/${NAME}`))).toEqual([])
    })

    it('a direct dependency on the alias: require, import (default and named) and robots-parser/Robots', async () => {
      const dir = join(tmp, 'direct')
      mkdirSync(dir)
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'direct', version: '1.0.0', private: true, dependencies: { 'robots-parser': `npm:${NAME}@${rootPkg.version}` } }))
      await install(dir)
      writeFileSync(
        join(dir, 'use.mjs'),
        `import robotsParser, { robotsParser as named } from 'robots-parser'
import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const Robots = require('robots-parser/Robots')
const body = '${BODY}'
console.log(JSON.stringify([
  robotsParser === require('robots-parser'), named === robotsParser,
  robotsParser('https://e.com/robots.txt', body).isAllowed('https://e.com/dir/', 'MyBot'),
  new Robots('https://e.com/robots.txt', body).isAllowed('https://e.com/a|b', 'MyBot'),
]))
`,
      )
      expect(sh(process.execPath, ['use.mjs'], dir).trim()).toBe(JSON.stringify([true, true, true, false]))
    })
  })

  it("TypeScript: robots-parser's import forms type-check against its typings, with or without DOM types (and a wrong type fails)", () => {
    const dir = join(tmp, 'types')
    mkdirSync(join(dir, 'node_modules/robots-parser'), { recursive: true })
    sh('tar', ['xzf', tarball, '-C', join(dir, 'node_modules/robots-parser'), '--strip-components=1'], tmp)
    const use = (fn: string): string => `const robots = ${fn}('https://e.com/robots.txt', 'User-agent: *')
const allowed: boolean | undefined = robots.isAllowed('https://e.com/x', 'bot')
const line: number = robots.getMatchingLineNumber('https://e.com/x')
const sitemaps: string[] = robots.getSitemaps()
// @ts-expect-error isAllowed answers boolean | undefined
const wrong: string = robots.isAllowed('https://e.com/x')
export { allowed, line, sitemaps, wrong }
`
    const files: Record<string, string> = {
      'default.ts': `import robotsParser from 'robots-parser'\n${use('robotsParser')}`,
      'assign.cts': `import robotsParser = require('robots-parser')\nconst r: robotsParser.Robot = robotsParser('u', '')\nexport { r }\n${use('robotsParser')}`,
      'default.mts': `import robotsParser from 'robots-parser'\n${use('robotsParser')}`,
      'default.cts': `import robotsParser from 'robots-parser'\n${use('robotsParser')}`,
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    const programs: [module: string, resolution: string, interop: boolean, lib: string[], files: string[]][] = [
      ['commonjs', 'node10', false, ['es2022'], ['default.ts']],
      ['commonjs', 'node10', true, ['es2022', 'dom'], ['default.ts']],
      ['esnext', 'bundler', false, ['es2022'], ['default.ts']],
      ['node16', 'node16', false, ['es2022', 'dom'], ['assign.cts', 'default.mts', 'default.cts']],
      ['nodenext', 'nodenext', true, ['es2022'], ['assign.cts', 'default.mts', 'default.cts']],
    ]
    // TypeScript's own lib files go unchecked (skipDefaultLibCheck), the package's .d.ts files are.
    programs.forEach(([module, moduleResolution, esModuleInterop, lib, list], i) => {
      writeFileSync(join(dir, `tsconfig.${i}.json`), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipDefaultLibCheck: true, target: 'es2022', lib, module, moduleResolution, esModuleInterop, types: [] }, files: list }))
      expect(typecheck(join(dir, `tsconfig.${i}.json`)), `${moduleResolution} ${lib.join('+')}`).toEqual([])
    })
  })
})
