/**
 * `--junit FILE`: JUnit XML for CI. One `<testsuite>` per category and, for
 * sets with files (spec-test), one per file; a case is a `<testcase>` in
 * each group it belongs to, failing (`<failure>`, `<error>`) when it
 * disagrees under the run's score. Test cases are spooled per suite as the
 * run goes; `finish` writes the file, a failed run's reason included.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Case } from '../case.js'
import { CATEGORY_ORDER } from '../categories.js'
import { fails, type Score } from '../outcome.js'
import type { CaseSink } from '../run.js'
import type { CaseResult } from '../tally.js'
import { BufferedFile } from './buffered-file.js'
import { reportStream } from '../output-files.js'
import { reportAnswer } from './report-model.js'
import { describeAnswer, describeExpected } from './terminal-report.js'
import { CompareError, describeSystemError } from '../compare-error.js'

/** Characters XML 1.0 cannot hold (shown as `\xHH`), and those escaped. */
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Text escaped for XML content and attribute values; characters XML cannot hold shown as `\xHH`. */
export function xml(text: string): string {
  return text
    .replace(NOT_XML, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`)
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c])
}

/** The suite a case goes to for no category. */
const NO_CATEGORY = '(no category)'

interface Suite {
  readonly name: string
  readonly spool: BufferedFile
  tests: number
  failures: number
  errors: number
  seconds: number
}

/** What the file says about the run as a whole. */
export interface JunitRun {
  readonly set: string
  readonly adapter: string
  readonly tool: string
  /** Why the run stopped before its end, if it did. */
  readonly failure?: { message: string; stderr?: string }
}

/** The JUnit output of a run. */
export class JunitWriter implements CaseSink {
  private readonly dir = mkdtempSync(join(tmpdir(), 'robots-compare-junit-'))
  private readonly suites = new Map<string, Suite>()

  constructor(
    private readonly file: string,
    private readonly score: Score,
  ) {}

  add(c: Case, r: CaseResult): void {
    const failing = fails(r.outcome, this.score)
    const seconds = r.ms / 1000
    let body = ''
    if (failing) {
      const tag = r.outcome === 'error' ? 'error' : 'failure'
      const message = `${r.outcome === 'error' ? '' : `${r.outcome} differs: `}implementation ${describeAnswer(reportAnswer(r.answer))}; reference ${describeExpected(c.expected)}`
      const detail = [
        `agent: ${c.agents.join(', ')}`,
        `url: ${c.url}`,
        ...(c.source !== undefined ? [`robots.txt: ${c.source}`] : []),
        `categories: ${c.categories.join(', ') || 'none'}`,
        ...(c.explanation !== undefined ? [`why: ${c.explanation}`] : []),
      ].join('\n')
      body = `<${tag} type="${r.outcome}" message="${xml(message)}">${xml(detail)}</${tag}>`
    }
    const groups = c.categories.length > 0 ? [...c.categories] : [NO_CATEGORY]
    if (c.group !== undefined) groups.push(`file ${c.group}`)
    for (const g of groups) {
      let s = this.suites.get(g)
      if (s === undefined) {
        s = { name: g, spool: new BufferedFile(join(this.dir, `${this.suites.size}.xml`)), tests: 0, failures: 0, errors: 0, seconds: 0 }
        this.suites.set(g, s)
      }
      s.tests++
      s.seconds += seconds
      if (failing && r.outcome === 'error') s.errors++
      else if (failing) s.failures++
      const open = `    <testcase classname="${xml(g)}" name="${xml(c.id)}" time="${seconds.toFixed(6)}"`
      s.spool.write(body ? `${open}>${body}</testcase>\n` : `${open}/>\n`)
    }
  }

  async flush(): Promise<void> {
    for (const s of this.suites.values()) await s.spool.flush()
  }

  /** Deletes the spooled suites (after finish, or instead of it). */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }

  /** Writes the file: the suites in report order (categories, then files), and the run's failure as an error of its own. */
  async finish(run: JunitRun): Promise<void> {
    try {
      for (const s of this.suites.values()) await s.spool.close()
      const rank = (name: string): number => (name.startsWith('file ') ? 1e6 : (CATEGORY_ORDER.get(name) ?? 1e5))
      const ordered = [...this.suites.values()].sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1))
      const failure = run.failure
      const out = reportStream(this.file)
      const done = new Promise<void>((ok, fail) => {
        out.once('finish', ok)
        out.once('error', fail)
      })
      const write = (text: string): Promise<void> => new Promise((ok) => (out.write(text) ? ok() : out.once('drain', () => ok())))
      // The root counts the test cases of its suites (a case once per group it is in), as consumers add them up.
      const sum = (k: 'tests' | 'failures' | 'errors' | 'seconds'): number => ordered.reduce((n, s) => n + s[k], 0)
      const extra = failure ? 1 : 0
      await write(
        `<?xml version="1.0" encoding="UTF-8"?>\n` +
          `<testsuites name="robots-automaton compare" tests="${sum('tests') + extra}" failures="${sum('failures')}" errors="${sum('errors') + extra}" time="${sum('seconds').toFixed(3)}">\n`,
      )
      const properties =
        `    <properties>\n      <property name="set" value="${xml(run.set)}"/>\n      <property name="adapter" value="${xml(run.adapter)}"/>\n` +
        `      <property name="score" value="${this.score}"/>\n      <property name="tool" value="${xml(run.tool)}"/>\n    </properties>\n`
      if (failure) {
        await write(
          `  <testsuite name="compare" tests="1" failures="0" errors="1" time="0">\n${properties}` +
            `    <testcase classname="compare" name="the run"><error type="adapter" message="${xml(failure.message)}">${xml(failure.stderr ?? '')}</error></testcase>\n  </testsuite>\n`,
        )
      }
      for (const s of ordered) {
        await write(`  <testsuite name="${xml(s.name)}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" skipped="0" time="${s.seconds.toFixed(3)}">\n${properties}`)
        await new Promise<void>((ok, fail) => {
          const input = createReadStream(s.spool.file)
          input.once('error', fail)
          input.once('end', () => ok())
          input.pipe(out, { end: false })
        })
        await write('  </testsuite>\n')
      }
      out.end('</testsuites>\n')
      await done
    } catch (err) {
      throw err instanceof CompareError ? err : new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
    } finally {
      this.discard()
    }
  }
}
