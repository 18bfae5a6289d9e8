/**
 * The public surface, name by name: the core entry (`robots-automaton`,
 * src/index.ts) and the internals entry (`robots-automaton/internals`,
 * src/internals.ts). The lists below are reviewed by hand: a new export, or
 * an internal one leaking into the core, fails here until the list is
 * changed on purpose. Values are what the module exports at run time (the
 * sources, and the built ESM and CJS bundles when dist/ is there); types are
 * what TypeScript sees beyond them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as compat from '../src/compat.js'
import * as core from '../src/index.js'
import * as internals from '../src/internals.js'
import { ROOT } from './support/build.js'

/** Run-time exports of the core entry. */
const CORE_VALUES = [
  // parsing
  'parseRobots',
  'parseRobotsStream',
  'Robots',
  'DEFAULT_LIMIT',
  // matching
  'AgentMatcher',
  'DEFAULT_MATCHER_BUDGET',
  'ruleText',
  // several crawlers together
  'CrawlerSet',
  'StoreCrawlers',
  // batch judging from byte buffers
  'UrlScan',
  'canonicalHost',
  'lineEnd',
  'urlEnd',
  // diagnostics, extensions, the per-line report
  'DIAGNOSTICS',
  'MAX_CRAWL_DELAY',
  'reportLines',
  // helpers
  'escapePattern',
  'isValidProductToken',
  'pathOf',
  'productTokens',
  // serialisation and the store
  'FORMAT_VERSION',
  'BUNDLE_VERSION',
  'BundleWriter',
  'RobotsStore',
  'DEFAULT_STORE_MATCHER_BUDGET',
  // errors
  'RobotsError',
  'RobotsFormatError',
  'RobotsInputError',
  'RobotsLimitError',
  'RobotsRangeError',
  // fetching and the cache
  'fetchRobots',
  'MAX_TIMEOUT_MS',
  'RobotsCache',
  'classifyHost',
  'describeFetchResult',
  'robotsLocation',
]

/** Type-only exports of the core entry. */
const CORE_TYPES = [
  'ParseOptions',
  'StreamParseOptions',
  'ByteSource',
  'EngineOptions',
  'RuleText',
  'Explanation',
  'RuleRef',
  'MatcherStats',
  'Crawler',
  'CrawlerAccess',
  'CrawlerVerdict',
  'AccessClass',
  'AccessGroup',
  'StoreCrawlerExplanation',
  'EngineStats',
  'Diagnostic',
  'DiagnosticCode',
  'DiagnosticTotals',
  'Severity',
  'RequestRate',
  'VisitTime',
  'LineMetadata',
  'LineReport',
  'LineTag',
  'RobotsReport',
  'RobotsStoreOptions',
  'RobotsStoreStats',
  'StoreExplanation',
  'StoreOutcome',
  'StoreFetchInfo',
  'StoreSource',
  'EntryId',
  'RobotsErrorCode',
  'FetchLike',
  'FetchRobotsOptions',
  'PreviousFetch',
  'RobotsTransport',
  'TransportRequest',
  'TransportResponse',
  'PrivateAddressPolicy',
  'BundleEntryKind',
  'BundleChecksum',
  'FetchValidators',
  'RedirectFilter',
  'HostClass',
  'FetchFailure',
  'FetchOutcome',
  'FetchReason',
  'RedirectHop',
  'RobotsFetchResult',
  'RobotsBasis',
  'RobotsCacheOptions',
  'RobotsCacheStats',
  'RobotsLookup',
  'RobotsLocation',
]

/** Run-time exports of the internals entry. */
const INTERNAL_VALUES = [
  'LineFlag',
  'KeyKind',
  'parseInto',
  'parseLine',
  'createParser',
  'LineReader',
  'MAX_LINE_BYTES',
  'LINE_HAS_PERCENT',
  'checkLimit',
  'lineMetadata',
  'referenceDecide',
  'patternMatches',
  'compactRulesOf',
]

/** Type-only exports of the internals entry: the parser's, the reference engine's, and RuleSet (what `robots.rulesFor()` returns). */
const INTERNAL_TYPES = ['ParseHandler', 'LineSink', 'LineFastPath', 'ReadInfo', 'ReferenceDecision', 'RuleSet', 'CompactRules']

/** Run-time exports of the compat entry (its CommonJS module is `robotsParser` itself, with these on it). */
const COMPAT_VALUES = ['robotsParser', 'compatToken', 'default']

/** Type-only exports of the compat entry. */
const COMPAT_TYPES = ['Robot']

/** The members of robots-parser's `Robot` that compat answers (3.0.1's, and `isExplicitlyDisallowed` of its repository). */
const COMPAT_ROBOT_MEMBERS = ['isAllowed', 'isDisallowed', 'isExplicitlyDisallowed', 'getMatchingLineNumber', 'getCrawlDelay', 'getSitemaps', 'getPreferredHost']

/** The public members of a `Robots` (as the published typings show them), and its static ones. */
const ROBOTS_MEMBERS = [
  'agent',
  'agents',
  'crawlers',
  'access',
  'isAllowed',
  'rulesFor',
  'crawlDelay',
  'requestRate',
  'visitTime',
  'host',
  'sitemaps',
  'diagnostics',
  'diagnosticTotals',
  'truncated',
  'bytesRead',
  'lineCount',
  'toBytes',
  'memoryUsage',
]
const ROBOTS_STATIC = ['fromBytes', 'prototype']

/** The public members of the other stable classes (their private state is private: no `@internal` member is left to strip). */
const MATCHER_MEMBERS = ['rules', 'isAllowed', 'explain', 'matchRange', 'matchScan', 'matchLines', 'memoryUsage', 'stats']
const STORE_MEMBERS = [
  'size',
  'set',
  'setRobots',
  'setOutcome',
  'fetchInfo',
  'has',
  'delete',
  'get',
  'source',
  'isAllowed',
  'explain',
  'keys',
  'memoryUsage',
  'stats',
  'compact',
  'toBytes',
  // the batch calls: look-ups to entry ids, and the per-entry ones
  'lookup',
  'lookupScan',
  'lookupHost',
  'ids',
  'matcher',
  'entrySource',
  'entryKey',
  'entryFetchInfo',
  'hasOriginKeys',
  // several crawlers together
  'crawlers',
]
const CRAWLER_SET_MEMBERS = ['crawlers', 'size', 'matchers', 'matcher', 'match', 'check', 'isAllowed', 'explain', 'matchRange', 'matchScan', 'matchLines', 'access', 'memoryUsage']
const STORE_CRAWLERS_MEMBERS = ['crawlers', 'size', 'match', 'check', 'matchScan', 'isAllowed', 'explain', 'forEntry']
const STORE_STATIC = ['bundleSize', 'fromBytes', 'keyOf', 'prototype']
const URL_SCAN_MEMBERS = ['scan', 'scanString', 'scanHost', 'moveTo', 'start', 'end', 'schemeEnd', 'scheme', 'hostStart', 'hostEnd', 'port', 'authorityEnd', 'pathStart', 'plainHost', 'canonicalHost', 'userInfo', 'hostHash', 'hostHash2']
const URL_SCAN_STATIC = ['NO_PORT', 'BAD_PORT', 'hostHash', 'hashKey', 'useHashKey', 'prototype']

/** Names that used to be in the core entry and now must not be (issue 12). */
const MOVED = ['LineReader', 'parseLine', 'createParser', 'checkLimit', 'referenceDecide', 'patternMatches', 'parseInto', 'LineFlag', 'KeyKind', 'MAX_LINE_BYTES', 'lineMetadata']

const sorted = (names: readonly string[]): string[] => [...names].sort()

/** Every name a module exports as TypeScript sees it (values and types). */
function typedExports(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram(
    files.map((f) => resolve(ROOT, f)),
    { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] },
  )
  const checker = program.getTypeChecker()
  const out = new Map<string, string[]>()
  for (const f of files) {
    const source = program.getSourceFile(resolve(ROOT, f))
    const symbol = source && checker.getSymbolAtLocation(source)
    if (!symbol) throw new Error(`no module symbol for ${f}`)
    out.set(f, sorted(checker.getExportsOfModule(symbol).map((s) => s.name)))
  }
  return out
}

describe('public API: the core entry', () => {
  it('exports at run time exactly the reviewed values', () => {
    expect(sorted(Object.keys(core))).toEqual(sorted(CORE_VALUES))
  })

  it('exports none of the parser internals or the reference engine', () => {
    for (const name of MOVED) expect(Object.keys(core), name).not.toContain(name)
  })

  it('no name is exported by both entries', () => {
    const both = [...CORE_VALUES, ...CORE_TYPES].filter((n) => [...INTERNAL_VALUES, ...INTERNAL_TYPES].includes(n))
    expect(both).toEqual([])
  })
})

describe('public API: the internals entry', () => {
  it('exports at run time exactly the reviewed values', () => {
    expect(sorted(Object.keys(internals))).toEqual(sorted(INTERNAL_VALUES))
  })
})

describe('public API: as TypeScript sees it', () => {
  it('the core and internals entries export exactly the reviewed values and types', () => {
    const typed = typedExports(['src/index.ts', 'src/internals.ts'])
    expect(typed.get('src/index.ts')).toEqual(sorted([...CORE_VALUES, ...CORE_TYPES]))
    expect(typed.get('src/internals.ts')).toEqual(sorted([...INTERNAL_VALUES, ...INTERNAL_TYPES]))
  })
})

describe('public API: the compat entry', () => {
  it('exports at run time exactly the reviewed values, and the reviewed types', () => {
    expect(sorted(Object.keys(compat))).toEqual(sorted(COMPAT_VALUES))
    expect(typedExports(['src/compat.ts']).get('src/compat.ts')).toEqual(sorted([...COMPAT_VALUES, ...COMPAT_TYPES]))
  })

  it("a Robot has exactly robots-parser's reviewed methods", () => {
    const robot = compat.robotsParser('https://e.com/robots.txt', '')
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(robot)).filter((n) => n !== 'constructor' && typeof (robot as unknown as Record<string, unknown>)[n] === 'function')
    // The class's private helpers are not part of the interface: the interface, as TypeScript sees it, is the list.
    for (const m of COMPAT_ROBOT_MEMBERS) expect(methods, m).toContain(m)
    expect(interfaceMembers('src/compat.ts', 'Robot')).toEqual(sorted(COMPAT_ROBOT_MEMBERS))
  })
})

/** The properties TypeScript shows on an exported interface, or on a class's instances and its static side (private and @internal ones left out). */
function interfaceMembers(file: string, name: string, side: 'instance' | 'static' = 'instance'): string[] {
  const program = ts.createProgram([resolve(ROOT, file)], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(resolve(ROOT, file))!
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === name)!
  const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const type = side === 'static' ? checker.getTypeOfSymbol(resolved) : checker.getDeclaredTypeOfSymbol(resolved)
  return sorted(
    checker
      .getPropertiesOfType(type)
      .filter((p) => !(p.declarations ?? []).some((d) => ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)))
      .filter((p) => !p.getJsDocTags().some((t) => t.name === 'internal'))
      .map((p) => p.name),
  )
}

describe('public API: the members of Robots', () => {
  it('are exactly the reviewed ones (a method added, as isAllowed(url, agent), is a deliberate change)', () => {
    expect(interfaceMembers('src/index.ts', 'Robots')).toEqual(sorted(ROBOTS_MEMBERS))
    expect(interfaceMembers('src/index.ts', 'Robots', 'static')).toEqual(sorted(ROBOTS_STATIC))
  })
})

describe('public API: the members of AgentMatcher, RobotsStore, UrlScan and the crawler sets', () => {
  it('are exactly the reviewed ones', () => {
    expect(interfaceMembers('src/index.ts', 'AgentMatcher')).toEqual(sorted(MATCHER_MEMBERS))
    expect(interfaceMembers('src/index.ts', 'RobotsStore')).toEqual(sorted(STORE_MEMBERS))
    expect(interfaceMembers('src/index.ts', 'RobotsStore', 'static')).toEqual(sorted(STORE_STATIC))
    expect(interfaceMembers('src/index.ts', 'UrlScan')).toEqual(sorted(URL_SCAN_MEMBERS))
    expect(interfaceMembers('src/index.ts', 'UrlScan', 'static')).toEqual(sorted(URL_SCAN_STATIC))
    expect(interfaceMembers('src/index.ts', 'CrawlerSet')).toEqual(sorted(CRAWLER_SET_MEMBERS))
    expect(interfaceMembers('src/index.ts', 'StoreCrawlers')).toEqual(sorted(STORE_CRAWLERS_MEMBERS))
  })

  it('no source file marks anything @internal: what is not API is private, or lives outside the entries', () => {
    const marked: string[] = []
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = resolve(dir, e.name)
        if (e.isDirectory()) walk(path)
        else if (e.name.endsWith('.ts') && /@internal\b/.test(readFileSync(path, 'utf8'))) marked.push(path)
      }
    }
    walk(resolve(ROOT, 'src'))
    expect(marked).toEqual([])
  })
})

const HAS_DIST = existsSync(resolve(ROOT, 'dist/internals.cjs'))

describe.runIf(HAS_DIST)('public API: the built bundles', () => {
  it('ESM and CJS bundles of both entries export the reviewed values', async () => {
    const req = createRequire(import.meta.url)
    for (const [entry, values] of [['index', CORE_VALUES], ['internals', INTERNAL_VALUES]] as const) {
      const esm = (await import(pathToFileURL(resolve(ROOT, `dist/${entry}.js`)).href)) as object
      const cjs = req(resolve(ROOT, `dist/${entry}.cjs`)) as object
      expect(sorted(Object.keys(esm)), `dist/${entry}.js`).toEqual(sorted(values))
      expect(sorted(Object.keys(cjs)), `dist/${entry}.cjs`).toEqual(sorted(values))
    }
  })
})
