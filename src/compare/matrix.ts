/**
 * `compare --matrix ADAPTERS.json`: several implementations over the same
 * case sets in one go, for a leaderboard. The file names each implementation
 * with the options its adapter takes on the command line, how to read its
 * version and how to tell whether it is installed; each implementation ×
 * set is one session, summarised for the tables (report/matrix-report.ts).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { withoutBom } from './format.js'
import { ADAPTER_KINDS, ADAPTER_OPTIONS, adapterOf, type OptionValues } from './adapters/adapter-options.js'
import { loadCaseSet, type CaseSetSpec } from './cases/case-sets.js'
import { Oracle } from './oracle.js'
import type { Score } from './outcome.js'
import type { CategoryRow, Report, ReportTimings, Tally } from './report/report-model.js'
import { EXIT, runSession } from './session.js'
import { CompareError, readError } from './compare-error.js'

/** One implementation of the file. */
export interface MatrixEntry {
  readonly name: string
  /** Adapter options by their command-line names (`batch`, `window`, …) as text. */
  readonly options: ReadonlyMap<string, string>
  /** A command (sh -c) whose first line of stdout is the implementation's version. */
  readonly version?: string
  /** A command (sh -c) that exits 0 when the implementation is installed; otherwise its cells say why not. */
  readonly available?: string
  /** A note shown beside the name (what the adapter does not report, …). */
  readonly note?: string
  /** What runs, as the reports name it (`--batch node x.mjs`). */
  readonly description: string
}

/** A matrix file. */
export interface MatrixFile {
  readonly entries: readonly MatrixEntry[]
  /** Case sets named by the file (`--cases` values); the command line's replace them. */
  readonly sets: readonly string[]
}

/** Fields of an entry: its name, version, availability and note, and the adapter options (multi-agent cases are left out: every implementation gets the same cases). */
const ENTRY_FIELDS = new Set(['name', 'version', 'available', 'note', ...ADAPTER_KINDS, ...Object.keys(ADAPTER_OPTIONS)])

/** Reads and checks a matrix file (errors name the file and the entry). */
export function readMatrixFile(file: string): MatrixFile {
  let o: unknown
  try {
    o = JSON.parse(withoutBom(readFileSync(file, 'utf8')))
  } catch (err) {
    if (err instanceof SyntaxError) throw new CompareError('ERR_READ', `${file}: not JSON (${err.message})`)
    throw readError('matrix file', file, err)
  }
  const bad = (message: string): never => {
    throw new CompareError('ERR_READ', `${file}: ${message}`)
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) bad('a matrix file is a JSON object: {"adapters": [...], "sets": [...]}')
  const r = o as Record<string, unknown>
  for (const k of Object.keys(r)) if (k !== 'adapters' && k !== 'sets') bad(`unknown field '${k}' (fields: adapters, sets)`)
  const sets = r.sets ?? []
  if (!Array.isArray(sets) || !sets.every((s) => typeof s === 'string' && s !== '')) bad("'sets' must be an array of --cases values")
  if (!Array.isArray(r.adapters) || r.adapters.length === 0) bad("'adapters' must be a non-empty array")
  const names = new Set<string>()
  const entries = (r.adapters as unknown[]).map((a, i) => {
    const where = `adapters[${i}]`
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return bad(`${where} must be an object`)
    const e = a as Record<string, unknown>
    for (const k of Object.keys(e)) if (!ENTRY_FIELDS.has(k)) bad(`${where}: unknown field '${k}' (fields: ${[...ENTRY_FIELDS].join(', ')})`)
    if (typeof e.name !== 'string' || e.name === '') bad(`${where} needs a "name"`)
    const name = e.name as string
    if (names.has(name)) bad(`${where}: the name '${name}' is used twice`)
    names.add(name)
    const options = new Map<string, string>()
    for (const k of [...ADAPTER_KINDS, ...Object.keys(ADAPTER_OPTIONS)]) {
      const v = e[k]
      if (v === undefined) continue
      if ((typeof v !== 'string' && typeof v !== 'number') || v === '') bad(`${where} (${name}): '${k}' must be a non-empty string or a number`)
      options.set(k, String(v))
    }
    if (!ADAPTER_KINDS.some((k) => options.has(k))) bad(`${where} (${name}) names no adapter: give one of cmd, batch, module`)
    for (const k of ['version', 'available', 'note'] as const) if (e[k] !== undefined && typeof e[k] !== 'string') bad(`${where} (${name}): '${k}' must be a string`)
    const entry = { name, options, version: e.version as string | undefined, available: e.available as string | undefined, note: e.note as string | undefined }
    // The adapter's options are checked now, before anything runs.
    return { ...entry, description: adapterOf(entryOptions(file, { ...entry, description: '' }), false)!.description }
  })
  return { entries, sets: sets as string[] }
}

/** The option values of an entry, as adapter-options.ts reads them. */
export function entryOptions(file: string, entry: MatrixEntry): OptionValues {
  return {
    value: (name) => entry.options.get(name),
    named: (name) => `'${name}'`,
    error: (message) => new CompareError('ERR_READ', `${file}: adapter '${entry.name}': ${message}`),
  }
}

/** What one implementation did on one set. */
export interface MatrixCell {
  readonly set: string
  /** Not run: why (the implementation is not installed). */
  readonly skipped?: string
  /** The run's summary (absent when skipped). */
  readonly totals?: Tally & { linesChecked: number }
  readonly categories?: readonly Pick<CategoryRow, 'id' | 'cases' | 'agreement' | 'scores'>[]
  readonly timings?: Pick<ReportTimings, 'casesPerSecond' | 'startupMs' | 'ceiling' | 'repeats' | 'p50Ms'>
  /** Why the run stopped before its end. */
  readonly failure?: string
}

/** One implementation's row. */
export interface MatrixRow {
  readonly name: string
  readonly adapter: string
  readonly version: string
  readonly note?: string
  readonly cells: readonly MatrixCell[]
}

/** The whole matrix. */
export interface Matrix {
  readonly date: string
  readonly tool: string
  /** The command line that produced it. */
  readonly command: string
  readonly score: Score
  /** The case sets, as named on the command line or in the file. */
  readonly sets: readonly string[]
  /** Descriptions of the sets (their cases' origin). */
  readonly setDescriptions: readonly string[]
  readonly rows: readonly MatrixRow[]
  /** Whether some implementation failed on some set. */
  readonly failed: boolean
}

/** What a matrix run is asked to do. */
export interface MatrixOptions {
  readonly file: string
  readonly sets: readonly string[]
  /** The corpus's size (other sets run whole). */
  readonly count?: number
  readonly seed: number
  readonly score: Score
  readonly repeat: number
  readonly tool: string
  readonly command: string
  readonly signal?: AbortSignal
  /** Called before each run (progress on stderr). */
  readonly onRun?: (name: string, set: string) => void
  readonly onNote?: (line: string) => void
}

/** Runs the first line of a command's stdout (sh -c), or undefined when it fails. */
function firstLine(command: string): { ok: boolean; line: string } {
  const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] })
  const out = (r.status === 0 ? r.stdout : r.stderr || r.stdout || '').trim().split('\n')[0] ?? ''
  return { ok: r.status === 0, line: out.slice(0, 200) }
}

/** Runs every implementation of the file on every set. */
export async function runMatrix(matrix: MatrixFile, options: MatrixOptions): Promise<Matrix> {
  const sets = options.sets.length > 0 ? options.sets : matrix.sets
  if (sets.length === 0) throw new CompareError('ERR_READ', `${options.file} names no case sets: give --cases SET (one or more)`)
  const setDescriptions: string[] = []
  const rows: MatrixRow[] = []
  let failed = false
  for (const entry of matrix.entries) {
    const ready = entry.available === undefined ? { ok: true, line: '' } : firstLine(entry.available)
    const version = entry.version === undefined ? '' : ready.ok ? firstLine(entry.version).line : ''
    const cells: MatrixCell[] = []
    for (const [i, set] of sets.entries()) {
      if (options.signal?.aborted) break
      if (!ready.ok) {
        cells.push({ set, skipped: `not installed (${entry.available} failed${ready.line ? `: ${ready.line}` : ''})` })
        continue
      }
      options.onRun?.(entry.name, set)
      const oracle = new Oracle()
      const adapter = adapterOf(entryOptions(options.file, entry), false)!
      const spec: CaseSetSpec = { cases: set, count: set === 'corpus' ? options.count : undefined, seed: options.seed, multiAgent: adapter.multiAgent, onNote: options.onNote }
      const caseSet = await loadCaseSet(spec, oracle)
      setDescriptions[i] ??= caseSet.set
      const s = await runSession(caseSet, oracle, adapter, {
        score: options.score,
        repeat: options.repeat,
        multiAgent: adapter.multiAgent,
        minimise: 0,
        minimiseCalls: 1,
        minAgreement: 0,
        outputs: {},
        signal: options.signal,
        tool: options.tool,
        ceiling: true,
      })
      const r = s.report as Report
      if (s.status === EXIT.adapterFailure || s.status === EXIT.error) failed = true
      cells.push({
        set,
        totals: { ...r.totals },
        categories: r.categories.map((c) => ({ id: c.id, cases: c.cases, agreement: c.agreement, scores: c.scores })),
        timings: {
          casesPerSecond: r.timings.casesPerSecond,
          p50Ms: r.timings.p50Ms,
          ...(r.timings.startupMs !== undefined ? { startupMs: r.timings.startupMs } : {}),
          ...(r.timings.ceiling ? { ceiling: r.timings.ceiling } : {}),
          ...(r.timings.repeats ? { repeats: r.timings.repeats } : {}),
        },
        ...(r.failure ? { failure: r.failure.message } : {}),
      })
    }
    rows.push({ name: entry.name, adapter: entry.description, version, ...(entry.note ? { note: entry.note } : {}), cells })
  }
  for (const [i, set] of sets.entries()) setDescriptions[i] ??= set
  return { date: new Date().toISOString(), tool: options.tool, command: options.command, score: options.score, sets, setDescriptions, rows, failed }
}
