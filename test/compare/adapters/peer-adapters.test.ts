// The adapters of other implementations (examples/adapters/), each run
// through `compare --batch` on the unit vectors, a corpus sample and the
// spec-test files when ../shared has them: each completes (no adapter
// failure) with the counts measured for its Debian or npm package. An
// implementation whose runtime or package is missing is skipped, the reason
// in the test's name. The counts are the packages' behaviour: a change of
// version shows up here.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../src/compare/report/report-model.js'
import { ensureBuilt, ROOT, run, tempDir } from '../../cli/helpers.js'
import { SHARED, sharedHas } from '../../support/shared-data.js'

const SPEC_TEST = resolve(SHARED, 'spec-test')
const HAS_SPEC_TEST = sharedHas('spec-test')

/** Whether a command runs (exit 0). */
function works(program: string, args: string[]): boolean {
  try {
    execFileSync(program, args, { stdio: 'ignore', timeout: 30_000 })
    return true
  } catch {
    return false
  }
}

/** Debian's python3 first: another python3 on PATH (pyenv, a venv) does not see Debian's packages. */
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => works(p, ['-c', 'import protego'])) ?? 'python3'
const TEMOTO = join(ROOT, 'examples/adapters/temoto-robotstxt/temoto-batch')

/** [cases, agreed, verdict, errors] for the unit vectors, a corpus sample (2,000 cases, seed 7) and the 400 spec-test expectations. */
type Counts = readonly [number, number, number, number]

interface Peer {
  readonly name: string
  readonly batch: string
  /** Why it cannot run here, or '' when it can. */
  readonly missing: string
  readonly unit?: Counts
  readonly corpus?: Counts
  readonly spec?: Counts
  /** The adapter reports deciding lines. */
  readonly lines?: boolean
}

const PEERS: Peer[] = [
  {
    name: 'Protego (python3-protego)',
    batch: `${PYTHON} examples/adapters/protego_batch.py`,
    missing: works(PYTHON, ['-c', 'import protego']) ? '' : 'python3-protego is not installed (apt-get install python3-protego)',
    unit: [145, 130, 15, 0],
    corpus: [2000, 1922, 78, 0],
    spec: [400, 381, 19, 0],
  },
  {
    name: 'urllib.robotparser (Python)',
    batch: 'python3 examples/adapters/urllib_robotparser_batch.py',
    missing: works('python3', ['-c', 'import urllib.robotparser']) ? '' : 'python3 is missing',
    unit: [145, 88, 57, 0],
    corpus: [2000, 1698, 302, 0],
    spec: [400, 293, 107, 0],
  },
  {
    name: 'WWW::RobotRules (libwww-robotrules-perl)',
    batch: 'perl examples/adapters/www_robotrules_batch.pl',
    missing: works('perl', ['-MWWW::RobotRules', '-MJSON::PP', '-e1']) ? '' : 'perl or libwww-robotrules-perl is not installed (apt-get install libwww-robotrules-perl)',
    unit: [145, 81, 64, 0],
    corpus: [2000, 1754, 246, 0],
    spec: [400, 288, 112, 0],
  },
  {
    // webrobots refuses URLs that are not ASCII or not http(s): those cases are error answers.
    name: 'webrobots (ruby-webrobots)',
    batch: 'ruby examples/adapters/webrobots_batch.rb',
    missing: works('ruby', ['-e', 'require "webrobots"']) ? '' : 'ruby or ruby-webrobots is not installed (apt-get install ruby-webrobots)',
    unit: [145, 121, 21, 3],
    corpus: [2000, 1535, 363, 102],
    spec: [400, 348, 49, 3],
  },
  {
    name: 'temoto/robotstxt (Go)',
    batch: TEMOTO,
    missing: existsSync(TEMOTO) ? '' : 'temoto/robotstxt has no Debian package: build examples/adapters/temoto-robotstxt (see its main.go) to run it',
  },
  { name: 'robots-parser (npm)', batch: 'node examples/adapters/robots-parser-batch.mjs', missing: '', lines: true },
  {
    name: 'robots-txt-guard and robots-txt-parse (npm)',
    batch: 'node examples/adapters/robots-txt-guard-batch.mjs',
    missing: '',
    unit: [145, 127, 18, 0],
    corpus: [2000, 1958, 42, 0],
    spec: [400, 375, 25, 0],
  },
  {
    // robots-txt-parser throws on an empty body (three of the unit vectors' bodies).
    name: 'robots-txt-parser (npm)',
    batch: 'node examples/adapters/robots-txt-parser-batch.mjs',
    missing: '',
    unit: [145, 123, 19, 3],
    corpus: [2000, 1967, 33, 0],
    spec: [400, 366, 31, 3],
  },
  {
    name: 'robots (npm)',
    batch: 'node examples/adapters/robots-batch.mjs',
    missing: '',
    unit: [145, 91, 54, 0],
    corpus: [2000, 1816, 184, 0],
    spec: [400, 329, 71, 0],
  },
  {
    name: 'allow-all baseline',
    batch: 'node examples/adapters/allow-all-batch.mjs',
    missing: '',
    unit: [145, 77, 68, 0],
    corpus: [2000, 1219, 781, 0],
    spec: [400, 204, 196, 0],
  },
]

let tmp: ReturnType<typeof tempDir>
beforeAll(() => {
  ensureBuilt()
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

let n = 0
async function compare(set: string[], batch: string): Promise<{ status: number | null; report: Report }> {
  const json = tmp.path(`peer-${++n}.json`)
  const r = await run(['compare', ...set, '--batch', batch, '--minimise', '0', '--show', '0', '--json', json, '-q'])
  if (!existsSync(json)) throw new Error(`no report (exit ${r.status}): ${r.stderr}`)
  return { status: r.status, report: JSON.parse(readFileSync(json, 'utf8')) as Report }
}

const SETS: [keyof Pick<Peer, 'unit' | 'corpus' | 'spec'>, string[]][] = [
  ['unit', ['--cases', 'unit']],
  ['corpus', ['--cases', 'corpus', '--count', '2000', '--seed', '7']],
  ['spec', ['--cases', `spec-test:${SPEC_TEST}`]],
]

/** Per category: [cases, verdict, line, errors]. */
const byCategory = (r: Report) => Object.fromEntries(r.categories.map((c) => [c.id, [c.cases, c.verdict, c.line, c.errors]]))

describe.each(PEERS)('$name', (peer) => {
  const skip = peer.missing !== ''
  it.skipIf(skip)(`runs through unit, corpus and spec-test to the end${skip ? ` (skipped: ${peer.missing})` : ''}`, async () => {
    for (const [key, set] of SETS) {
      if (key === 'spec' && !HAS_SPEC_TEST) continue
      const { status, report } = await compare(set, peer.batch)
      const t = report.totals
      expect(report.complete, `${key}: ${report.failure?.message}`).toBe(true)
      expect(status, key).toBe(t.disagreements > 0 ? 3 : 0)
      expect(t.cases, key).toBe(key === 'unit' ? 145 : key === 'corpus' ? 2000 : 400)
      if (peer.lines) expect(t.linesChecked, key).toBe(t.cases - t.errors)
      else expect([t.linesChecked, t.line], key).toEqual([0, 0])
      const want = peer[key]
      if (want) expect([t.cases, t.agreed, t.verdict, t.errors], key).toEqual(want)
      // No adapter is right nowhere nor everywhere: the baseline aside, each beats allowing everything.
      if (peer.name !== 'allow-all baseline') expect(t.scores.verdicts, key).toBeGreaterThan(key === 'unit' ? 53.1 : key === 'corpus' ? 60.95 : 51)
    }
  })
})

describe.skipIf(PEERS[1].missing !== '')('urllib.robotparser in detail', () => {
  it('on unit: verdicts only, disagreements by category, the report saying so', async () => {
    const json = tmp.path('urllib.json')
    const r = await run(['compare', '--cases', 'unit', '--batch', PEERS[1].batch, '--minimise', '2', '--json', json])
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report
    expect(r.status).toBe(3)
    expect(report.totals).toMatchObject({ cases: 145, agreed: 88, verdict: 57, line: 0, errors: 0, linesChecked: 0 })
    expect(byCategory(report)).toMatchObject({
      wildcard: [27, 19, 0, 0], 'end-anchor': [12, 4, 0, 0], precedence: [64, 45, 0, 0], 'group-merging': [10, 3, 0, 0],
      'ua-case': [10, 5, 0, 0], 'ua-product-token': [16, 8, 0, 0], 'missing-colon': [1, 1, 0, 0], 'long-lines': [5, 3, 0, 0],
    })
    expect(r.stdout.toString()).toContain('only verdicts were checked')
  })
})
