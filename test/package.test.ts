/**
 * The package as users install it: `npm pack` (the `prepack` script builds
 * dist/ when needed), the tarball installed offline into a fresh project (no
 * runtime dependencies, so no registry is needed) without a warning, then the
 * bin, `import` and `require` of every entry, and TypeScript resolving every
 * entry under `moduleResolution` node10, bundler, node16 (ESM and CommonJS
 * callers). This is the README's install line, verified; and the package's
 * size: what it holds, unpacked.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { gzipSync } from 'node:zlib'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/build.js'
import { cleanEnv, sh } from './support/npm-child.js'
import { typecheck } from './support/typecheck.js'

/**
 * The gzipped size a browser bundle of one `parseRobots(…).agent(…).isAllowed(…)`
 * may reach: the parser, the compact form, `Robots` with the methods no bundler
 * can drop (`toBytes`/`fromBytes`, `crawlers`), and the three tiers' engines
 * (cold, the lazy DFA, thrash-proof), which a matcher may move through at run
 * time. A guard against unplanned growth, set just above the size of the
 * last deliberate changes (enum objects marked pure in the shared chunk,
 * the diagnostics' and rule slots' numbers written in place, one UTF-8
 * decoder, the scheme hashes made on first use; then, up by about 140 B,
 * the private constructors' refusal and options read once); the goal of 20 kB is not
 * met: bench/RESULTS.md ("Package") has the profile and the API choice it
 * needs.
 */
const BROWSER_BUNDLE_GZIP_BYTES = 35_350

/**
 * The unpacked package's size at most, its goal: every bundle (ESM, CJS,
 * the command line, the tester page), the data the command line reads,
 * the manuals.
 */
const UNPACKED_BYTES = 1_500_000

const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string }

let tmp: string
let project: string
let packed: { filename: string; unpackedSize: number; files: { path: string; size: number }[] }
/** What `npm install` of the tarball wrote to stderr. */
let installErr: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'robots-pack-'))
  project = join(tmp, 'project')
  mkdirSync(project)
  const out = sh('npm', ['pack', '--json', '--pack-destination', tmp], ROOT)
  packed = (JSON.parse(out.slice(out.indexOf('['))) as (typeof packed)[])[0]
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }))
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(tmp, packed.filename)], { cwd: project, env: cleanEnv(), encoding: 'utf8' })
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`)
  installErr = install.stderr
  // npm pack and install are a few processes each; a busy machine may take minutes.
}, 300_000)

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe('package: npm pack, installed from the tarball', () => {
  it('the tarball holds dist/ (every entry, both module kinds, both kinds of types), the bin, README and LICENSE; no sources or tests', () => {
    const files = packed.files.map((f) => f.path)
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli.js',
      ...['index', 'node', 'compat', 'crawlee', 'internals'].flatMap((e) => [`dist/${e}.js`, `dist/${e}.cjs`, `dist/${e}.d.ts`, `dist/${e}.d.cts`]),
    ]) {
      expect(files, f).toContain(f)
    }
    expect(files.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([])
  })

  it('installing the tarball prints no warning, and the package has no script npm would run on install', () => {
    expect(installErr.split('\n').filter((l) => /\bwarn|\berr/i.test(l))).toEqual([])
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/robots-automaton/package.json'), 'utf8')) as { scripts?: Record<string, string> }
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare']
    expect(Object.keys(manifest.scripts ?? {}).filter((k) => installScripts.includes(k))).toEqual([])
  })

  it(`the package unpacks to at most ${UNPACKED_BYTES.toLocaleString('en-US')} bytes, with no source map and declarations of the public entries only`, () => {
    expect(packed.unpackedSize).toBeLessThanOrEqual(UNPACKED_BYTES)
    const files = packed.files.map((f) => f.path)
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([])
    // The command line's and compare's modules are bundled into dist/cli.js: no declarations of theirs ship.
    expect(files.filter((f) => /\.d\.c?ts$/.test(f) && /^dist\/(cli|compare|playground)\//.test(f))).toEqual([])
    // Each shipped file is a bundle, data the command line reads, or a page of text: none is a runaway.
    for (const f of packed.files) expect(f.size, f.path).toBeLessThanOrEqual(400_000)
  })

  it('the bin: --version and a check', () => {
    expect(sh('npx', ['--no', '--', 'robots-automaton', '--version'], project)).toContain(pkg.version)
    writeFileSync(join(project, 'robots.txt'), 'User-agent: *\nDisallow: /private\n')
    const out = sh('npx', ['--no', '--', 'robots-automaton', 'check', 'robots.txt', '--agent', 'Googlebot', '/private/x', '/public'], project)
    const lines = out.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^disallowed\t\/private\/x\tline 2: Disallow: \/private/)
    expect(lines[1]).toMatch(/^allowed\t\/public\t/)
  })

  it('the bin finds its data in the installed package: compare\'s unit vectors and sample corpus, the tester page', () => {
    const cli = (args: string[]): string => sh('npx', ['--no', '--', 'robots-automaton', ...args], project)
    cli(['compare', '--cases', 'unit', '--export', 'unit.jsonl'])
    const unit = readFileSync(join(project, 'unit.jsonl'), 'utf8').trimEnd().split('\n')
    expect(unit).toHaveLength(145)
    cli(['compare', '--cases', 'corpus', '--count', '50', '--export', 'corpus.jsonl'])
    expect(readFileSync(join(project, 'corpus.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(50)
    cli(['playground', '--out', 'page'])
    expect(readFileSync(join(project, 'page/index.html'), 'utf8')).toContain('<script src="playground.js">')
    expect(readFileSync(join(project, 'page/playground.js'), 'utf8').length).toBeGreaterThan(10_000)
  })

  it('a browser bundle of parseRobots(…).agent(…).isAllowed(…) from the installed package stays within its gzipped size, with no Node built-in', async () => {
    const { build } = await import('esbuild')
    const result = await build({
      stdin: { contents: "import { parseRobots } from 'robots-automaton'\nexport const allowed = (body, url) => parseRobots(body).agent('Googlebot').isAllowed(url)\n", resolveDir: project, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const code = result.outputFiles[0].contents
    expect(Object.keys(result.metafile.inputs).filter((f) => f.startsWith('node:'))).toEqual([])
    // Judged by the bundle itself: it answers.
    writeFileSync(join(project, 'bundle.mjs'), code)
    const run = "import { allowed } from './bundle.mjs'\nconst body = 'User-agent: *\\nDisallow: /x'\nconsole.log(JSON.stringify([allowed(body, '/x/y'), allowed(body, '/y')]))"
    expect(sh(process.execPath, ['--input-type=module', '-e', run], project).trim()).toBe('[false,true]')
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BROWSER_BUNDLE_GZIP_BYTES)
  })

  const body = 'User-agent: *\\nDisallow: /private\\n'
  // The internals entry answers (its reference engine reads a Robots of the
  // core entry), and the core entry exports none of the internals.
  const moved = JSON.stringify(['LineReader', 'parseLine', 'createParser', 'checkLimit', 'referenceDecide', 'patternMatches', 'parseInto', 'LineFlag', 'KeyKind', 'MAX_LINE_BYTES', 'lineMetadata'])
  const checks = (lib: string, node: string, compat: string, internals: string): string => `
    const body = '${body}'
    const robots = ${lib}.parseRobots(body)
    const core = robots.agent(${lib}.productTokens('Mozilla/5.0 (compatible; Googlebot/2.1)')[0])
    const viaCompat = ${compat}.robotsParser('https://e.com/robots.txt', body)
    const oracle = ${internals}.referenceDecide(${internals}.compactRulesOf(robots), ['Googlebot'], new TextEncoder().encode('/private/x'))
    const flags = []
    ${internals}.parseInto(body, { userAgent() {}, allow() {}, disallow() {}, sitemap() {}, unknown() {}, lineEnd: (line, f) => flags.push(f & ${internals}.LineFlag.hasDirective) })
    console.log(JSON.stringify([
      core.isAllowed('/private/x'), core.explain('/private/x').rule.line,
      typeof ${node}.parseRobotsFile,
      viaCompat.isAllowed('https://e.com/private/x', 'Googlebot'), viaCompat.isAllowed('https://other.com/x'),
      oracle.allowed, oracle.line, flags,
      ${moved}.filter((name) => name in ${lib} || !(name in ${internals})),
    ]))`
  const expected = JSON.stringify([false, 2, 'function', false, null, false, 2, [8, 8, 0], []])

  it('import: ".", "./node", "./compat", "./crawlee" and "./internals" (ES modules); the core has none of the internals', () => {
    writeFileSync(
      join(project, 'esm.mjs'),
      `import * as lib from 'robots-automaton'\nimport * as node from 'robots-automaton/node'\nimport * as compat from 'robots-automaton/compat'\nimport robotsParser from 'robots-automaton/compat'\n` +
        `import * as internals from 'robots-automaton/internals'\n` +
        `import { useWithCrawlee } from 'robots-automaton/crawlee'\n` +
        `if (robotsParser !== compat.robotsParser) throw new Error('default export')\n` +
        `if (typeof useWithCrawlee !== 'function') throw new Error('crawlee entry')\n` +
        checks('lib', 'node', 'compat', 'internals').replace('JSON.stringify([', 'JSON.stringify([').replace(/undefined/g, 'null'),
    )
    expect(sh('node', ['esm.mjs'], project).trim()).toBe(expected)
  })

  it('require: ".", "./node", "./compat", "./crawlee" and "./internals" (CommonJS); the compat module is the function, as robots-parser\'s', () => {
    writeFileSync(
      join(project, 'cjs.cjs'),
      `const lib = require('robots-automaton')\nconst node = require('robots-automaton/node')\nconst compat = require('robots-automaton/compat')\n` +
        `const internals = require('robots-automaton/internals')\n` +
        `if (typeof require('robots-automaton/crawlee').useWithCrawlee !== 'function') throw new Error('crawlee entry')\n` +
        `if (typeof compat !== 'function' || compat.robotsParser !== compat || compat.default !== compat) throw new Error('compat module')\n` +
        checks('lib', 'node', 'compat', 'internals'),
    )
    expect(sh('node', ['cjs.cjs'], project).trim()).toBe(expected)
  })

  it('TypeScript resolves every entry under moduleResolution node10, bundler and node16 (ESM and CommonJS callers)', () => {
    // The published typings hold no test switch, no constructor and none of
    // the internals in the core entry: each @ts-expect-error below must meet
    // its error, or tsc reports it unused (TS2578).
    const source = `import { parseRobots, productTokens, Robots, type Explanation, type MatcherStats } from 'robots-automaton'
import { parseRobotsFile } from 'robots-automaton/node'
import robotsParser, { type Robot } from 'robots-automaton/compat'
import { compactRulesOf, createParser, LineFlag, referenceDecide, type ParseHandler, type ReferenceDecision } from 'robots-automaton/internals'
import { useWithCrawlee, type CrawleeModule, type CrawleeRobots } from 'robots-automaton/crawlee'
// @ts-expect-error the parser internals are not in the core entry
import { createParser as notInCore } from 'robots-automaton'
const r: Robot = robotsParser('https://e.com/robots.txt', 'User-agent: *')
const a: boolean | undefined = r.isAllowed(new URL('https://e.com/x'), 'bot')
const e: Explanation = parseRobots('').agent(productTokens('Googlebot/2.1')[0]).explain('/')
const p: Promise<{ sitemaps: readonly string[] }> = parseRobotsFile('robots.txt')
const s: MatcherStats = parseRobots('', { matcherBudget: 1 << 20 }).agent('a').stats()
const d: ReferenceDecision = referenceDecide(compactRulesOf(parseRobots('')), ['a'], new Uint8Array(0))
const h: ParseHandler = { userAgent() {}, allow() {}, disallow() {}, sitemap() {}, unknown() {}, lineEnd: (_l: number, f: number) => void (f & LineFlag.isComment) }
createParser(h).end()
parseRobots('', { engine: 'plain' })
// @ts-expect-error a tier is one of the tiers' names
parseRobots('', { tier: 'lukewarm' })
// @ts-expect-error Robots has no public constructor
const made = new Robots(new Uint8Array(0))
// The crawlee entry takes Crawlee's module by its shape (never imported); anything else is a type error.
const fakeCrawlee: CrawleeModule = { RobotsTxtFile: { find: async () => ({}), from: () => ({}) } }
const crawleeOn = (): CrawleeRobots => useWithCrawlee(fakeCrawlee, { userAgent: 'MyBot/1.0', timeoutMs: 5000 })
// @ts-expect-error not Crawlee's module
const notCrawlee = (): CrawleeRobots => useWithCrawlee({ RobotsTxtFile: 1 })
export { a, e, p, s, d, made, notInCore, crawleeOn, notCrawlee }
`
    // Three programs (node16 checks an ES module and a CommonJS caller at once).
    // No @types/node: the typings need only the DOM and ES2022 libs, as in a browser project.
    const programs: [module: string, resolution: string, files: string[]][] = [
      ['commonjs', 'node10', ['use-node10.ts', 'wrong.ts']],
      ['esnext', 'bundler', ['use-bundler.ts']],
      ['node16', 'node16', ['use-node16.mts', 'use-node16.cts']],
    ]
    // TypeScript's own lib files go unchecked (skipDefaultLibCheck): they are not ours, and checking
    // them is most of a run; the package's .d.ts files are checked as a user's project checks them.
    // A type error must be caught: the same file with a wrong type is rejected.
    writeFileSync(join(project, 'wrong.ts'), source.replace('const a: boolean | undefined', 'const a: string'))
    for (const [module, resolution, files] of programs) {
      for (const f of files) if (f !== 'wrong.ts') writeFileSync(join(project, f), source)
      const config = {
        compilerOptions: { strict: true, noEmit: true, skipDefaultLibCheck: true, target: 'es2022', lib: ['es2022', 'dom'], module, moduleResolution: resolution, types: [] },
        files,
      }
      writeFileSync(join(project, `tsconfig.${resolution}.json`), JSON.stringify(config))
      const errors = typecheck(join(project, `tsconfig.${resolution}.json`))
      if (resolution === 'node10') {
        expect(errors, resolution).toHaveLength(1)
        expect(errors[0]).toMatch(/^wrong\.ts\(\d+,\d+\): error TS2322/)
      } else {
        expect(errors, resolution).toEqual([])
      }
    }
  })

  it("TypeScript: robots-parser's forms of the compat entry (import x from, import x = require(), a JS file's require()) each type-check", () => {
    // Each form is used as robots-parser is, and each file expects an error
    // (a ts-expect-error directive) on a wrong type, so a form typed `any`
    // (or not callable: TS2349) fails the run.
    const use = (robotsParser: string): string => `const robots = ${robotsParser}('https://e.com/robots.txt', 'User-agent: *')
const allowed: boolean | undefined = robots.isAllowed('https://e.com/x', 'bot')
const explicit: boolean | undefined = robots.isExplicitlyDisallowed('https://e.com/x', 'bot')
// @ts-expect-error isAllowed answers boolean | undefined
const wrong: string = robots.isAllowed('https://e.com/x')
`
    const files: Record<string, string> = {
      // CommonJS TypeScript: the import assignment (TS2349 before), the default import, the named imports.
      'compat-assign.cts': `import robotsParser = require('robots-automaton/compat')\nconst r: robotsParser.Robot = robotsParser('u', '')\n${use('robotsParser')}export { r, allowed, explicit, wrong }\n`,
      'compat-default.cts': `import robotsParser, { type Robot } from 'robots-automaton/compat'\nconst r: Robot = robotsParser('u', '')\n${use('robotsParser')}export { r, allowed, explicit, wrong }\n`,
      'compat-named.cts': `import { robotsParser, compatToken } from 'robots-automaton/compat'\nconst t: string = compatToken('Googlebot/2.1')\n${use('robotsParser')}export { t, allowed, explicit, wrong }\n`,
      // ES modules.
      'compat-default.mts': `import robotsParser, { type Robot } from 'robots-automaton/compat'\nconst r: Robot = robotsParser(undefined, null)\n${use('robotsParser')}export { r, allowed, explicit, wrong }\n`,
      // JavaScript checked by TypeScript: require() gives the function, and its members.
      'compat-require.cjs': [
        '// @ts-check',
        "const robotsParser = require('robots-automaton/compat')",
        "const { robotsParser: named, compatToken } = require('robots-automaton/compat')",
        "const robots = robotsParser('https://e.com/robots.txt', 'User-agent: *')",
        "/** @type {boolean | undefined} */ const allowed = robots.isAllowed('https://e.com/x', 'bot')",
        "/** @type {boolean | undefined} */ const explicit = named('u', '').isExplicitlyDisallowed('https://e.com/x', 'bot')",
        "/** @type {string} */ const token = compatToken('Googlebot/2.1')",
        '// @ts-expect-error isAllowed answers boolean | undefined',
        "/** @type {string} */ const wrong = robots.isAllowed('https://e.com/x')",
        'module.exports = { allowed, explicit, token, wrong }',
        '',
      ].join('\n'),
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text)
    const programs: [module: string, resolution: string, interop: boolean, files: string[]][] = [
      ['node16', 'node16', true, Object.keys(files)],
      ['nodenext', 'nodenext', false, Object.keys(files)],
      ['commonjs', 'node10', false, ['compat-assign.ts', 'compat-default.ts', 'compat-named.ts', 'compat-require.cjs']],
      ['esnext', 'bundler', false, ['compat-default.mts', 'compat-named.mts']],
    ]
    // node10 and bundler read .ts files: the same sources under those names.
    for (const f of ['compat-assign', 'compat-default', 'compat-named']) writeFileSync(join(project, `${f}.ts`), files[`${f}.cts`])
    writeFileSync(join(project, 'compat-named.mts'), files['compat-named.cts'])
    for (const [module, resolution, esModuleInterop, list] of programs) {
      const config = {
        compilerOptions: { strict: true, noEmit: true, skipDefaultLibCheck: true, allowJs: true, checkJs: true, target: 'es2022', lib: ['es2022', 'dom'], module, moduleResolution: resolution, esModuleInterop, types: [] },
        files: list,
      }
      const file = `tsconfig.compat-${resolution}.json`
      writeFileSync(join(project, file), JSON.stringify(config))
      expect(typecheck(join(project, file)), resolution).toEqual([])
    }
    // The forms are typed, not `any`: a wrong type through the import assignment is an error.
    writeFileSync(join(project, 'compat-wrong.cts'), `import robotsParser = require('robots-automaton/compat')\nconst n: number = robotsParser('u', '')\nexport { n }\n`)
    writeFileSync(join(project, 'tsconfig.compat-wrong.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipDefaultLibCheck: true, module: 'node16', moduleResolution: 'node16', types: [], lib: ['es2022', 'dom'] }, files: ['compat-wrong.cts'] }))
    expect(typecheck(join(project, 'tsconfig.compat-wrong.json')).join('\n')).toMatch(/compat-wrong\.cts\(2,7\): error TS2322/)
  }, 300_000)
})
