/**
 * `--junit FILE`: JUnit XML for CI. Each case is one `<testcase>`, counted
 * once: in the suite of its file for a set with files (spec-test), else in
 * one suite named after the set; its categories, standard and content key
 * are `<properties>`. A case that disagrees under the run's semantics and
 * score fails (`<failure>`, or `<error>` when no answer came) with the
 * implementation's evidence in `<system-out>` (its raw answer, a command's
 * stdout) and `<system-err>` (a command's exit status and stderr). Test
 * cases are spooled per suite as the run goes; `finish` writes the file, a
 * failed run's reason included (as one more test case, "the run").
 */
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { join } from 'node:path'
import type { Evidence } from '../adapters/adapter.js'
import type { Case } from '../case.js'
import { fails, type Score, type Semantics } from '../outcome.js'
import type { CaseSink } from '../run.js'
import { gateOutcome, type CaseResult } from '../tally.js'
import { BufferedFile } from './buffered-file.js'
import { reportStream } from '../output-files.js'
import { reportAnswer } from './report-model.js'
import { describeAnswer, describeExpected } from './terminal-report.js'
import { CompareError, describeSystemError } from '../compare-error.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'

/** Characters XML 1.0 cannot hold (shown as `\xHH` or `\u{HHHH}`): controls, U+FFFE and U+FFFF, and lone surrogates (which UTF-8 cannot hold: written, they would turn into U+FFFD), and those escaped. */
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]/gu
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\t': '&#9;', '\n': '&#10;' }

/** Text escaped for XML content (a CR kept as `&#13;`: a parser reads it as a line feed); characters XML cannot hold shown as `\xHH` or `\u{HHHH}`. */
export function xml(text: string): string {
  return text
    .replace(NOT_XML, (c) => (c < '\x20' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}` : `\\u{${c.charCodeAt(0).toString(16)}}`))
    .replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c])
}

/** Text escaped for an attribute value: its tabs and line breaks kept too (a parser reads them as spaces). */
function attr(text: string): string {
  return xml(text).replace(/[\t\n]/g, (c) => XML_ESCAPES[c])
}

/** A property element. */
function property(name: string, value: string): string {
  return `<property name="${attr(name)}" value="${attr(value)}"/>`
}

/** The evidence as `<system-out>` and `<system-err>`. */
function evidenceXml(e: Evidence | undefined): string {
  if (e === undefined) return ''
  const out = [e.raw !== undefined ? `answer: ${e.raw}` : '', e.stdout !== undefined ? `stdout:\n${e.stdout}` : ''].filter((x) => x !== '').join('\n')
  const status = e.signal ? `killed by ${e.signal}` : e.status !== undefined ? `exit status ${e.status}` : ''
  const err = [status, e.stderr !== undefined ? `stderr:\n${e.stderr}` : ''].filter((x) => x !== '').join('\n')
  return (out ? `<system-out>${xml(out)}</system-out>` : '') + (err ? `<system-err>${xml(err)}</system-err>` : '')
}

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
  private readonly dir = makeTempFolder('robots-compare-junit-')
  private readonly suites = new Map<string, Suite>()

  /** `set`: the name of the suite of cases without a file. */
  constructor(
    private readonly file: string,
    private readonly score: Score,
    private readonly set = 'cases',
    private readonly semantics: Semantics = 'reference',
  ) {}

  add(c: Case, r: CaseResult): void {
    const outcome = gateOutcome(r, this.semantics)
    const failing = fails(outcome, this.score)
    const seconds = r.ms / 1000
    const expected = this.semantics === 'rfc' ? c.rfc : c.expected
    let body = ''
    if (failing) {
      const tag = outcome === 'error' ? 'error' : 'failure'
      const whose = this.semantics === 'rfc' ? 'RFC 9309' : 'reference'
      const message = `${outcome === 'error' ? '' : `${outcome} differs: `}implementation ${describeAnswer(reportAnswer(r.answer))}; ${whose} ${describeExpected(expected)}`
      const detail = [
        `agent: ${c.agents.join(', ')}`,
        `url: ${c.url}`,
        ...(c.source !== undefined ? [`robots.txt: ${c.source}`] : []),
        `categories: ${c.categories.join(', ') || 'none'}`,
        `standard: ${c.standard}`,
        ...(this.semantics === 'rfc' ? [`reference: ${describeExpected(c.expected)}`] : [`RFC 9309: ${describeExpected(c.rfc)}`]),
        ...(c.explanation !== undefined ? [`why: ${c.explanation}`] : []),
      ].join('\n')
      body = `<${tag} type="${outcome}" message="${attr(message)}">${xml(detail)}</${tag}>${evidenceXml(r.answer.evidence)}`
    }
    const name = c.group !== undefined ? `file ${c.group}` : this.set
    let s = this.suites.get(name)
    if (s === undefined) {
      s = { name, spool: new BufferedFile(join(this.dir, `${this.suites.size}.xml`)), tests: 0, failures: 0, errors: 0, seconds: 0 }
      this.suites.set(name, s)
    }
    s.tests++
    s.seconds += seconds
    if (failing && outcome === 'error') s.errors++
    else if (failing) s.failures++
    const properties = [...c.categories.map((id) => property('category', id)), property('standard', c.standard), property('key', c.key)].join('')
    s.spool.write(`    <testcase classname="${attr(name)}" name="${attr(c.id)}" time="${seconds.toFixed(6)}"><properties>${properties}</properties>${body}</testcase>\n`)
  }

  async flush(): Promise<void> {
    for (const s of this.suites.values()) await s.spool.flush()
  }

  /** Deletes the spooled suites (after finish, or instead of it). */
  discard(): void {
    removeTempFolder(this.dir)
  }

  /** Writes the file: the suites in report order (categories, then files), and the run's failure as an error of its own. */
  async finish(run: JunitRun): Promise<void> {
    try {
      for (const s of this.suites.values()) await s.spool.close()
      const ordered = [...this.suites.values()]
      const failure = run.failure
      // The root counts the test cases of its suites: each case once (and the run, when it stopped early).
      const sum = (k: 'tests' | 'failures' | 'errors' | 'seconds'): number => ordered.reduce((n, s) => n + s[k], 0)
      const extra = failure ? 1 : 0
      const properties =
        `    <properties>\n      <property name="set" value="${attr(run.set)}"/>\n      <property name="adapter" value="${attr(run.adapter)}"/>\n` +
        `      <property name="score" value="${this.score}"/>\n      <property name="semantics" value="${this.semantics}"/>\n      <property name="tool" value="${attr(run.tool)}"/>\n    </properties>\n`
      // One pipeline: a write error of the file (a full disk) fails it, never waits for ever nor goes unseen.
      await pipeline(async function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?>\n` +
          `<testsuites name="robots-automaton compare" tests="${sum('tests') + extra}" failures="${sum('failures')}" errors="${sum('errors') + extra}" time="${sum('seconds').toFixed(3)}">\n`
        if (failure) {
          yield `  <testsuite name="compare" tests="1" failures="0" errors="1" time="0">\n${properties}` +
            `    <testcase classname="compare" name="the run"><error type="adapter" message="${attr(failure.message)}">${xml(failure.stderr ?? '')}</error></testcase>\n  </testsuite>\n`
        }
        for (const s of ordered) {
          yield `  <testsuite name="${attr(s.name)}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" skipped="0" time="${s.seconds.toFixed(3)}">\n${properties}`
          yield* createReadStream(s.spool.file)
          yield '  </testsuite>\n'
        }
        yield '</testsuites>\n'
      }, reportStream(this.file))
    } catch (err) {
      throw err instanceof CompareError ? err : new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
    } finally {
      this.discard()
    }
  }
}
