/**
 * `--baseline FILE` and `--write-baseline FILE`: the disagreements a
 * maintainer knows of and keeps (deliberate divergences, bugs not fixed
 * yet), so that CI fails only on new ones. A baseline is an earlier `--json`
 * report (its cases that disagreed, under this run's semantics and score) or
 * a list of cases, one per line: a content key or an id (tab-separated
 * fields; `#` starts a comment). Cases are matched by content key first
 * (the same body, tokens and URL in any run, set or order), then by id.
 */
import { CompareError, describeSystemError, readError } from './compare-error.js'
import { MAX_REPORT_BYTES, readInputFileFreeable } from './input-file.js'
import type { Case } from './case.js'
import { fails, type Outcome, type Score, type Semantics } from './outcome.js'
import { ReportFile } from './output-files.js'
import type { CaseSink } from './run.js'
import { gateOutcome, type CaseResult } from './tally.js'

/** Case ids a baseline result lists at most (the counts are complete). */
export const BASELINE_LISTED = 1000

/** One case of a baseline: known to disagree, unless its outcomes (from a report) say it agreed under the run's scoring. */
interface Entry {
  readonly id?: string
  /** From a report: its outcomes; from a list: none (known to disagree). */
  readonly outcome?: Outcome
  readonly rfcOutcome?: Outcome
}

/** A baseline read from a file. */
export interface Baseline {
  readonly file: string
  readonly kind: 'report' | 'list'
  readonly entries: readonly Entry[]
  /** Entry index by content key and by id. */
  readonly byKey: ReadonlyMap<string, number>
  readonly byId: ReadonlyMap<string, number>
}

/** What a run made of its baseline. */
export interface BaselineResult {
  file: string
  /** Disagreements the baseline knows (they do not fail the run). */
  known: number
  /** Disagreements it does not know: they fail the run (exit 3). The first BASELINE_LISTED ids, and their count. */
  new: string[]
  newCount: number
  /** Cases the baseline knows as disagreements that agree now. */
  fixed: string[]
  fixedCount: number
  /** Disagreements of the baseline that this run has no case for. */
  absent: number
}

/** Reads a baseline: a `--json` report (format 2 or later), or a list of content keys or ids. */
export async function readBaseline(file: string, semantics: Semantics): Promise<Baseline> {
  let text: string
  try {
    text = (await readInputFileFreeable(file, 'baseline', { limit: MAX_REPORT_BYTES })).toString('utf8')
  } catch (err) {
    if (err instanceof CompareError) throw err
    throw readError('baseline', file, err)
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const entries: Entry[] = []
  const byKey = new Map<string, number>()
  const byId = new Map<string, number>()
  if (text.trimStart().startsWith('{')) {
    let r: { format?: unknown; cases?: unknown }
    try {
      r = JSON.parse(text) as typeof r
    } catch (err) {
      throw new CompareError('ERR_READ', `${file}: not JSON (${(err as Error).message}); a baseline is a --json report or a list of case keys or ids`)
    }
    if (!Array.isArray(r.cases)) throw new CompareError('ERR_READ', `${file}: the report lists no cases (a --json report of format 2 or later does)`)
    for (const c of r.cases as Record<string, unknown>[]) {
      if (typeof c !== 'object' || c === null || typeof c.id !== 'string' || typeof c.outcome !== 'string') throw new CompareError('ERR_READ', `${file}: a case of the report has no id or outcome`)
      if (semantics === 'rfc' && typeof c.rfcOutcome !== 'string') {
        throw new CompareError('ERR_READ', `${file}: the report has no RFC 9309 outcomes (format ${String(r.format)}): --semantics rfc needs a report of format 3 or later`)
      }
      const i = entries.length
      entries.push({ id: c.id, outcome: c.outcome as Outcome, ...(typeof c.rfcOutcome === 'string' ? { rfcOutcome: c.rfcOutcome as Outcome } : {}) })
      if (typeof c.key === 'string') byKey.set(c.key, i)
      byId.set(c.id, i)
    }
    return { file, kind: 'report', entries, byKey, byId }
  }
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const content = line.startsWith('#') ? '' : line
    if (content.trim() === '') continue
    const i = entries.length
    entries.push({})
    for (const field of content.split('\t')) {
      const f = field.trim()
      if (f === '') continue
      if (/^[0-9a-f]{16}$/.test(f)) byKey.set(f, i)
      else byId.set(f, i)
    }
  }
  return { file, kind: 'list', entries, byKey, byId }
}

/** Follows a run against its baseline: each case's disagreement is known or new, each known one still there or fixed. */
export class BaselineCheck implements CaseSink {
  private readonly seenEntries: Uint8Array
  readonly result: BaselineResult

  constructor(
    private readonly baseline: Baseline,
    private readonly score: Score,
    private readonly semantics: Semantics,
  ) {
    this.seenEntries = new Uint8Array(baseline.entries.length)
    this.result = { file: baseline.file, known: 0, new: [], newCount: 0, fixed: [], fixedCount: 0, absent: 0 }
  }

  /** Whether the baseline holds the case as a disagreement (under this run's semantics and score). */
  private entryOf(c: Case): number | undefined {
    return this.baseline.byKey.get(c.key) ?? this.baseline.byId.get(c.id)
  }

  private knownFailing(i: number): boolean {
    const e = this.baseline.entries[i]
    if (e.outcome === undefined) return true
    const o = this.semantics === 'rfc' ? e.rfcOutcome! : e.outcome
    return fails(o, this.score)
  }

  add(c: Case, r: CaseResult): void {
    const failing = fails(gateOutcome(r, this.semantics), this.score)
    const i = this.entryOf(c)
    const known = i !== undefined && this.knownFailing(i)
    if (i !== undefined) this.seenEntries[i] = 1
    const res = this.result
    if (failing && known) res.known++
    else if (failing) {
      if (res.newCount++ < BASELINE_LISTED) res.new.push(c.id)
    } else if (known) {
      if (res.fixedCount++ < BASELINE_LISTED) res.fixed.push(c.id)
    }
  }

  async flush(): Promise<void> {}

  /** Whether a case's disagreement is one the baseline knows (the run does not fail on it). */
  knows(c: Case): boolean {
    const i = this.entryOf(c)
    return i !== undefined && this.knownFailing(i)
  }

  /** The result, once the run is over. */
  finish(): BaselineResult {
    let absent = 0
    for (let i = 0; i < this.baseline.entries.length; i++) if (!this.seenEntries[i] && this.knownFailing(i)) absent++
    this.result.absent = absent
    return this.result
  }
}

/**
 * `--write-baseline FILE`: the run's disagreements (under its semantics and
 * score), one per line as `KEY<TAB>ID<TAB>OUTCOME`, after a comment naming
 * the run. An output file as every tool writes one (checked before any
 * work, a link's target replaced, a FIFO streamed): put in place only when
 * the run completes, so a run that stopped early leaves no partial baseline.
 */
export class BaselineWriter implements CaseSink {
  private readonly out: ReportFile
  count = 0

  constructor(
    readonly file: string,
    private readonly score: Score,
    private readonly semantics: Semantics,
    header: string,
  ) {
    this.out = new ReportFile(file)
    this.out.write(`# ${header}\n# one disagreement per line: content key, id, outcome (read back with --baseline)\n`)
  }

  add(c: Case, r: CaseResult): void {
    const o = gateOutcome(r, this.semantics)
    if (!fails(o, this.score)) return
    this.count++
    this.out.write(`${c.key}\t${c.id.replace(/[\t\r\n]/g, ' ')}\t${o}\n`)
  }

  flush(): Promise<void> {
    return this.out.flush()
  }

  /** Puts the file in place (the run completed), or leaves the target as it was. */
  async finish(complete: boolean): Promise<void> {
    if (!complete) return this.out.abort()
    try {
      await this.out.close()
    } catch (err) {
      this.out.abort()
      throw err instanceof CompareError ? err : new CompareError('ERR_WRITE', `cannot write '${this.file}': ${describeSystemError(err)}`)
    }
  }
}
