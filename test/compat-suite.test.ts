/**
 * robots-parser's own test suite, as its npm package ships it
 * (node_modules/robots-parser/test/Robots.js: mocha, chai), against
 * `robots-automaton/compat`, changed only in the module it loads. Every test
 * passes but the documented differences below (docs/migrating.md), each
 * pinned to its assertion: another failure, or one of them passing, fails.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIFFERENCE_CLASSES } from './support/compat-differences.js'
import { ensureBuilt } from './cli/helpers.js'
import { ROOT } from './support/build.js'

const SUITE = resolve(ROOT, 'node_modules/robots-parser/test/Robots.js')
/** The one line changed: the module under test (the README's migration line, resolved as a user's code resolves it). */
const THEIRS = "var robotsParser = require('../index');"
const OURS = "var robotsParser = require('robots-automaton/compat');"

/** A documented difference that fails one of robots-parser's tests: the class, and the assertion it fails on. */
interface Expected {
  cls: keyof typeof DIFFERENCE_CLASSES
  /** chai's message. */
  message: string
  /** The line of the suite whose assertion fails (from the stack). */
  line: number
}

/** robots-parser 3.0.1's tests that fail for a documented difference, by title. */
const EXPECTED_FAILURES: Record<string, Expected> = {
  // `/π`, `/❃`, `/💩` as raw characters, and `%e2%9d%83` in lower case: robots-parser matches the
  // WHATWG serialisation of the URL, the reference the URL as given.
  'should handle Unicode and urlencoded paths': { cls: 'url-normalisation', message: 'expected false to equal true', line: 13 },
  // `Sitemap: /sitemap.xml` is not a sitemap here (the robots.txt URL itself is accepted, as robots-parser accepts it).
  'should handle invalid robots.txt urls': { cls: 'sitemap-not-absolute', message: "expected [] to deeply equal [ '/sitemap.xml' ]", line: 530 },
  'should parse the sitemap directive': {
    cls: 'sitemap-not-absolute',
    message: "expected [ 'http://example.com/test.xml', …(1) ] to deeply equal [ 'http://example.com/test.xml', …(2) ]",
    line: 592,
  },
  // Several Host lines: the first (as Yandex documents), robots-parser the last.
  'should parse the host directive': { cls: 'host-several', message: "expected 'www.example.net' to equal 'example.com'", line: 613 },
  'should treat only the last host directive as valid': { cls: 'host-several', message: "expected 'www.example.net' to equal 'example.com'", line: 650 },
}

interface Outcome {
  title: string
  state: 'passed' | 'failed' | 'pending'
  message?: string
  line?: number
}

interface MochaTest {
  title: string
  fullTitle(): string
}
interface MochaRunner {
  on(event: 'pass' | 'pending', fn: (test: MochaTest) => void): MochaRunner
  on(event: 'fail', fn: (test: MochaTest, err: Error) => void): MochaRunner
}
interface MochaInstance {
  addFile(file: string): void
  run(done: (failures: number) => void): MochaRunner
  dispose(): void
}
type MochaClass = new (options: Record<string, unknown>) => MochaInstance

let dir: string
let outcomes: Outcome[] = []
let suiteText = ''

/** The line of the suite's file (`…/Robots.cjs`, named in full or relative to the working directory) in an error's stack: the first frame there. */
function lineIn(err: Error): number | undefined {
  const m = /Robots\.cjs:(\d+):\d+/.exec(err.stack ?? '')
  return m === null ? undefined : Number(m[1])
}

beforeAll(async () => {
  ensureBuilt()
  suiteText = readFileSync(SUITE, 'utf8')
  // Inside the package (its tmp/, gitignored), so that `robots-automaton/compat` resolves to this package's
  // dist/ by the exports map, as from a user's project; `.cjs`: the suite is CommonJS, the package an ES module.
  mkdirSync(resolve(ROOT, 'tmp'), { recursive: true })
  dir = mkdtempSync(join(ROOT, 'tmp', 'robots-parser-suite-'))
  const file = join(dir, 'Robots.cjs')
  writeFileSync(file, suiteText.replace(THEIRS, OURS))
  const require = createRequire(import.meta.url)
  const Mocha = require('mocha') as MochaClass
  const mocha = new Mocha({ reporter: class {}, timeout: 60_000 })
  mocha.addFile(file)
  // A failure's line is read from its stack: deep enough to reach the suite's frame, whatever an earlier file of
  // this worker left Error.stackTraceLimit at (the files share their workers).
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 50
  try {
    outcomes = await new Promise<Outcome[]>((done) => {
      const out: Outcome[] = []
      const runner = mocha.run(() => done(out))
      runner.on('pass', (t) => out.push({ title: t.title, state: 'passed' }))
      runner.on('pending', (t) => out.push({ title: t.title, state: 'pending' }))
      runner.on('fail', (t, err) => out.push({ title: t.title, state: 'failed', message: err.message, line: lineIn(err) }))
    })
  } finally {
    Error.stackTraceLimit = limit
  }
  mocha.dispose()
})

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe("robots-parser 3.0.1's own test suite against robots-automaton/compat", () => {
  it('is the shipped file, changed in one line only: the module it loads', () => {
    expect(suiteText.split(THEIRS)).toHaveLength(2)
    const before = suiteText.split('\n')
    const after = suiteText.replace(THEIRS, OURS).split('\n')
    expect(after).toHaveLength(before.length)
    expect(before.flatMap((l, i) => (l === after[i] ? [] : [[l, after[i]]]))).toEqual([[THEIRS, OURS]])
  })

  it('runs all 41 tests; none is skipped', () => {
    expect(outcomes).toHaveLength(41)
    expect(new Set(outcomes.map((o) => o.title)).size).toBe(41)
    expect(outcomes.filter((o) => o.state === 'pending')).toEqual([])
  })

  it('every test passes, except the documented differences, each failing on its own assertion', () => {
    const failed = outcomes.filter((o) => o.state === 'failed')
    const unexpected = failed.filter((o) => {
      const e = EXPECTED_FAILURES[o.title]
      return e === undefined || e.message !== o.message || e.line !== o.line
    })
    // As strings, so that a report that shortens objects still shows which test and why.
    expect(unexpected.map((o) => `${o.title}: ${o.message} (line ${o.line})`)).toEqual([])
    // A documented difference that starts passing must leave this list (and, if the difference is gone, docs/migrating.md).
    expect(failed.map((o) => o.title).sort()).toEqual(Object.keys(EXPECTED_FAILURES).sort())
    expect(outcomes.filter((o) => o.state === 'passed')).toHaveLength(41 - Object.keys(EXPECTED_FAILURES).length)
  })

  it('each expected failure names a class of docs/migrating.md', () => {
    const doc = readFileSync(resolve(ROOT, 'docs/migrating.md'), 'utf8')
    for (const [title, e] of Object.entries(EXPECTED_FAILURES)) {
      expect(DIFFERENCE_CLASSES[e.cls], title).toBeDefined()
      expect(doc, title).toContain(`| \`${e.cls}\` |`)
      expect(doc, title).toContain(title)
    }
  })
})
