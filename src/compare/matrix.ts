/**
 * `compare --matrix ADAPTERS.json`: several implementations over the same
 * case sets in one go, for a leaderboard. The file names each implementation
 * with the options its adapter takes on the command line, how to read its
 * version, how to tell whether it is installed and what it needs; and the
 * case sets, each with its own case options (`{"cases": "corpus",
 * "robots-dir": …}`). Each set's cases are made once (answered, tagged,
 * filtered) and every implementation runs on them; each implementation × set
 * is one session, summarised for the tables (report/matrix-report.ts).
 */
import { childProcess } from '../tools/built-ins.js'
import { readInputFileFreeable } from './input-file.js'
import { withoutBom } from './format.js'
import { ADAPTER_KINDS, ADAPTER_OPTIONS, adapterOf, intValue, type OptionValues } from './adapters/adapter-options.js'
import { killGroup, localSpawnFailure, trackGroup } from './adapters/process-group.js'
import { CaseStore } from './cases/case-store.js'
import { loadCaseSet, type CaseSetSpec } from './cases/case-sets.js'
import { CATEGORIES, filterText, parseCategoryFilter, type CategoryFilter } from './categories.js'
import { Oracle } from './oracle.js'
import type { Score, Semantics } from './outcome.js'
import type { CategoryRow, Report, ReportTimings, Tally } from './report/report-model.js'
import { prepareCases } from './run.js'
import { EXIT, runSession } from './session.js'
import { CompareError, readError } from './compare-error.js'

/** The case options a set of a matrix file may carry (by their command-line names). */
export const SET_OPTIONS = ['robots-dir', 'urls', 'urls-field', 'count', 'seed', 'category'] as const

/** One case set of a matrix: its `--cases` value and its own case options. */
export interface MatrixSetSpec extends MatrixCaseOptions {
  readonly cases: string
}

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
  /** What it needs that a clean machine lacks (a package, a build), shown in the table. */
  readonly needs?: string
  /** What runs, as the reports name it (`--batch node x.mjs`). */
  readonly description: string
}

/** A matrix file. */
export interface MatrixFile {
  readonly entries: readonly MatrixEntry[]
  /** Case sets named by the file; the command line's `--cases` replace them. */
  readonly sets: readonly MatrixSetSpec[]
}

/** Fields of an entry: its name, version, availability, needs and note, and the adapter options (multi-agent cases are left out: every implementation gets the same cases). */
const ENTRY_FIELDS = new Set(['name', 'version', 'available', 'needs', 'note', ...ADAPTER_KINDS, ...Object.keys(ADAPTER_OPTIONS)])

/** The known category ids (a filter naming another is an error). */
const KNOWN_CATEGORIES: ReadonlySet<string> = new Set(CATEGORIES.map((c) => c.id))

/** A set of the file: a `--cases` value, or an object with `cases` and case options. */
function readSet(file: string, v: unknown, where: string): MatrixSetSpec {
  const bad = (message: string): never => {
    throw new CompareError('ERR_READ', `${file}: ${where}: ${message}`)
  }
  if (typeof v === 'string') return v === '' ? bad('an empty --cases value') : { cases: v }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('a set is a --cases value or an object {"cases": …, "robots-dir": …}')
  const o = v as Record<string, unknown>
  for (const k of Object.keys(o)) if (k !== 'cases' && !(SET_OPTIONS as readonly string[]).includes(k)) bad(`unknown field '${k}' (fields: cases, ${SET_OPTIONS.join(', ')})`)
  if (typeof o.cases !== 'string' || o.cases === '') bad("'cases' must be a --cases value (unit, corpus, spec-test:PATH or a .jsonl file)")
  const str = (k: string): string | undefined => {
    const x = o[k]
    if (x === undefined) return undefined
    return typeof x === 'string' && x !== '' ? x : bad(`'${k}' must be a non-empty string`)
  }
  const values: OptionValues = {
    value: (name) => (o[name] === undefined ? undefined : String(o[name])),
    named: (name) => `'${name}'`,
    error: (message) => new CompareError('ERR_READ', `${file}: ${where}: ${message}`),
  }
  const num = (k: string, min: number, max?: number): number | undefined => (o[k] === undefined ? undefined : intValue(values, k, 0, min, max))
  const category = str('category')
  const spec: MatrixSetSpec = {
    cases: o.cases as string,
    robotsDir: str('robots-dir'),
    urls: str('urls'),
    urlsField: num('urls-field', 1, 1000),
    count: num('count', 1),
    seed: num('seed', 0, 0xffffffff),
    category: category === undefined ? undefined : parseCategoryFilter(category, KNOWN_CATEGORIES, (m) => new CompareError('ERR_READ', `${file}: ${where}: 'category': ${m}`)),
  }
  if (spec.cases !== 'corpus') {
    const only = (['robots-dir', 'urls', 'urls-field'] as const).find((k) => o[k] !== undefined)
    if (only) bad(`'${only}' goes with "cases": "corpus"`)
  }
  if (spec.urlsField !== undefined && spec.urls === undefined) bad("'urls-field' needs 'urls'")
  if (spec.urls !== undefined && spec.robotsDir === undefined) bad("'urls' needs 'robots-dir'")
  return spec
}

/** Largest matrix file read (it names commands and case sets: a few KiB). */
const MAX_MATRIX_BYTES = 16 << 20

/** Reads and checks a matrix file (errors name the file and the entry). */
export async function readMatrixFile(file: string): Promise<MatrixFile> {
  let o: unknown
  try {
    o = JSON.parse(withoutBom((await readInputFileFreeable(file, 'matrix file', { limit: MAX_MATRIX_BYTES })).toString('utf8')))
  } catch (err) {
    if (err instanceof CompareError) throw err
    if (err instanceof SyntaxError) throw new CompareError('ERR_READ', `${file}: not JSON (${err.message})`)
    throw readError('matrix file', file, err)
  }
  const bad = (message: string): never => {
    throw new CompareError('ERR_READ', `${file}: ${message}`)
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) bad('a matrix file is a JSON object: {"adapters": [...], "sets": [...]}')
  const r = o as Record<string, unknown>
  for (const k of Object.keys(r)) if (k !== 'adapters' && k !== 'sets') bad(`unknown field '${k}' (fields: adapters, sets)`)
  const rawSets = r.sets ?? []
  if (!Array.isArray(rawSets)) bad("'sets' must be an array of --cases values or objects {\"cases\": …}")
  const sets = (rawSets as unknown[]).map((v, i) => readSet(file, v, `sets[${i}]`))
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
    for (const k of ['version', 'available', 'needs', 'note'] as const) if (e[k] !== undefined && typeof e[k] !== 'string') bad(`${where} (${name}): '${k}' must be a string`)
    const entry = { name, options, version: e.version as string | undefined, available: e.available as string | undefined, needs: e.needs as string | undefined, note: e.note as string | undefined }
    // The adapter's options are checked now, before anything runs.
    return { ...entry, description: adapterOf(entryOptions(file, { ...entry, description: '' }), false)!.description }
  })
  return { entries, sets }
}

/** The option values of an entry, as adapter-options.ts reads them; `defaults`: values for options the entry does not set (`--timeout`). */
export function entryOptions(file: string, entry: MatrixEntry, defaults: ReadonlyMap<string, string> = new Map()): OptionValues {
  return {
    value: (name) => entry.options.get(name) ?? defaults.get(name),
    named: (name) => `'${name}'`,
    error: (message) => new CompareError('ERR_READ', `${file}: adapter '${entry.name}': ${message}`),
  }
}

/** Counts with scores, as a cell keeps them. */
export type CellTally = Tally & { linesChecked: number }

/** What one implementation did on one set. */
export interface MatrixCell {
  readonly set: string
  /** Not run: why (the implementation is not installed). */
  readonly skipped?: string
  /** The run's summary (absent when skipped). */
  readonly totals?: CellTally
  readonly categories?: readonly Pick<CategoryRow, 'id' | 'cases' | 'agreement' | 'scores' | 'rfcScores' | 'verdict' | 'line' | 'errors'>[]
  /** Per standard (rfc, google-specific, rfc-differs). */
  readonly standards?: readonly ({ id: string } & Tally)[]
  readonly timings?: Pick<ReportTimings, 'casesPerSecond' | 'startupMs' | 'ceiling' | 'repeats' | 'p50Ms'>
  /** Why the run stopped before its end. */
  readonly failure?: string
}

/** One implementation's row. */
export interface MatrixRow {
  readonly name: string
  readonly adapter: string
  readonly version: string
  readonly needs?: string
  readonly note?: string
  readonly cells: readonly MatrixCell[]
}

/** One case set of the matrix, as it ran. */
export interface MatrixSet {
  /** The `--cases` value. */
  readonly cases: string
  /** Its options, as the command line would give them (`--robots-dir DIR --count 100000`). */
  readonly options: string
  /** Its cases' origin. */
  readonly description: string
  /** Cases every implementation got, and a digest of their keys. */
  readonly count: number
  readonly digest: string
  /** Time to read or make the cases and answer them (ms), once for every implementation. */
  readonly casesMs: number
}

/** The whole matrix. */
export interface Matrix {
  readonly date: string
  readonly tool: string
  /** The command line that produced it. */
  readonly command: string
  readonly score: Score
  readonly semantics: Semantics
  /** The case sets (their `--cases` values), in order. */
  readonly sets: readonly string[]
  /** The case sets as they ran. */
  readonly setDetails: readonly MatrixSet[]
  /** Descriptions of the sets (their cases' origin). */
  readonly setDescriptions: readonly string[]
  readonly rows: readonly MatrixRow[]
  /** Whether some implementation failed on some set. */
  readonly failed: boolean
  /** Why the matrix stopped before its end (`interrupted by SIGTERM`), if a signal stopped it. */
  readonly interrupted?: string
}

/** Case options given on the command line for every set (each overrides the file's). */
export interface MatrixCaseOptions {
  readonly robotsDir?: string
  readonly urls?: string
  readonly urlsField?: number
  readonly count?: number
  readonly seed?: number
  readonly category?: CategoryFilter
}

/** What a matrix run is asked to do. */
export interface MatrixOptions {
  readonly file: string
  /** `--cases` values of the command line (they replace the file's sets). */
  readonly sets: readonly string[]
  readonly caseOptions: MatrixCaseOptions
  readonly score: Score
  readonly semantics: Semantics
  readonly repeat: number
  /** Adapter options for entries that do not set them (`timeout`). */
  readonly adapterDefaults?: ReadonlyMap<string, string>
  readonly tool: string
  readonly command: string
  readonly signal?: AbortSignal
  /** Called before each run (progress on stderr). */
  readonly onRun?: (name: string, set: string) => void
  readonly onNote?: (line: string) => void
}

/** The sets a matrix runs: the command line's `--cases`, or the file's, with the command line's case options over each. */
export function matrixSets(matrix: MatrixFile, options: Pick<MatrixOptions, 'sets' | 'caseOptions'>): MatrixSetSpec[] {
  const base = options.sets.length > 0 ? options.sets.map((cases) => ({ cases })) : matrix.sets
  const o = options.caseOptions
  return base.map((s) => {
    const corpus = s.cases === 'corpus'
    return {
      ...s,
      ...(corpus && o.robotsDir !== undefined ? { robotsDir: o.robotsDir } : {}),
      ...(corpus && o.urls !== undefined ? { urls: o.urls } : {}),
      ...(corpus && o.urlsField !== undefined ? { urlsField: o.urlsField } : {}),
      ...(o.count !== undefined ? { count: o.count } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(o.category !== undefined ? { category: o.category } : {}),
    }
  })
}

/** A set's options as the command line writes them. */
function setOptionsText(s: MatrixSetSpec, seed: number): string {
  const words: string[] = []
  if (s.robotsDir !== undefined) words.push('--robots-dir', s.robotsDir)
  if (s.urls !== undefined) words.push('--urls', s.urls)
  if (s.urlsField !== undefined) words.push('--urls-field', String(s.urlsField))
  if (s.count !== undefined) words.push('--count', String(s.count))
  words.push('--seed', String(seed))
  if (s.category !== undefined) words.push('--category', filterText(s.category))
  return words.join(' ')
}

/** How long a version or availability command may run (ms) before its group is killed. */
const PROBE_LIMIT_MS = 60_000
/** How long its pipes may stay open once it exited (a process that left its group may hold them; ms). */
const PROBE_PIPE_GRACE_MS = 500

/**
 * Runs a command (sh -c, in its own process group, killed whole when it ends
 * or after PROBE_LIMIT_MS): its status and first line of output. It ends when
 * its shell exits, even when a process that left the group holds its output.
 */
export async function firstLine(command: string, signal?: AbortSignal): Promise<{ ok: boolean; line: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return resolve({ ok: false, line: String(signal.reason) })
    const child = childProcess().spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    trackGroup(child)
    let out = ''
    let err = ''
    let timedOut = false
    let done = false
    // No pipes when the spawn failed for want of descriptors: the error below says so.
    child.stdout?.setEncoding('utf8').on('data', (s: string) => void (out.length < 1 << 16 && (out += s)))
    child.stderr?.setEncoding('utf8').on('data', (s: string) => void (err.length < 1 << 16 && (err += s)))
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, PROBE_LIMIT_MS)
    let status: number | null = null
    // An interrupt ends it at once (a matrix waits for these before its first set).
    const stop = (): void => killGroup(child)
    signal?.addEventListener('abort', stop, { once: true })
    const finish = (result: { ok: boolean; line: string }): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', stop)
      if (done) return
      done = true
      resolve(result)
    }
    child.on('error', (e) => {
      // This machine's limits are the run's failure, not an implementation that is not installed.
      const local = localSpawnFailure(e, `'${command}'`)
      if (local && !done) {
        done = true
        clearTimeout(timer)
        signal?.removeEventListener('abort', stop)
        return reject(local)
      }
      finish({ ok: false, line: `cannot run /bin/sh` })
    })
    child.on('exit', (code) => {
      status = code
      clearTimeout(timer)
      killGroup(child) // a process it left behind ends with it
      setTimeout(() => {
        child.stdout?.destroy()
        child.stderr?.destroy()
      }, PROBE_PIPE_GRACE_MS).unref()
    })
    child.on('close', () => {
      if (timedOut) return finish({ ok: false, line: `timed out after ${PROBE_LIMIT_MS / 1000} s` })
      const text = (status === 0 ? out : err || out).trim().split('\n')[0] ?? ''
      finish({ ok: status === 0, line: text.slice(0, 200) })
    })
  })
}

/** Runs every implementation of the file on every set, each set's cases made once. */
export async function runMatrix(matrix: MatrixFile, options: MatrixOptions): Promise<Matrix> {
  const sets = matrixSets(matrix, options)
  if (sets.length === 0) throw new CompareError('ERR_READ', `${options.file} names no case sets: give --cases SET (one or more)`)
  const ready = await Promise.all(matrix.entries.map(async (e) => (e.available === undefined ? { ok: true, line: '' } : firstLine(e.available, options.signal))))
  const versions = await Promise.all(matrix.entries.map(async (e, i) => (e.version === undefined || !ready[i].ok ? '' : (await firstLine(e.version, options.signal)).line)))
  const cells: MatrixCell[][] = matrix.entries.map(() => [])
  const setDetails: MatrixSet[] = []
  let failed = false
  for (const spec of sets) {
    if (options.signal?.aborted) break
    const seed = spec.seed ?? 1
    const oracle = new Oracle()
    const caseSpec: CaseSetSpec = {
      cases: spec.cases,
      count: spec.count,
      seed,
      robotsDir: spec.robotsDir,
      urls: spec.urls,
      urlsField: spec.urlsField,
      multiAgent: false,
      onNote: options.onNote,
    }
    const t0 = performance.now()
    options.onNote?.(`matrix: making the cases of ${spec.cases} once for every implementation`)
    let caseSet: Awaited<ReturnType<typeof loadCaseSet>>
    try {
      caseSet = await loadCaseSet(caseSpec, oracle)
    } catch (err) {
      // An interrupt ends the wait for a FIFO's writer (the FIFO reads as ended): what follows from it is no error of the set.
      if (options.signal?.aborted) break
      throw err
    }
    const prepared = prepareCases(caseSet.inputs, oracle, { multiAgent: false, categories: spec.category })
    const store = new CaseStore()
    try {
      await store.fill(prepared.blocks)
      setDetails.push({
        cases: spec.cases,
        options: setOptionsText(spec, seed),
        description: caseSet.set,
        count: store.count,
        digest: store.digest(),
        casesMs: performance.now() - t0,
      })
      for (const [e, entry] of matrix.entries.entries()) {
        if (options.signal?.aborted) break
        if (!ready[e].ok) {
          cells[e].push({ set: spec.cases, skipped: `not installed (${entry.available} failed${ready[e].line ? `: ${ready[e].line}` : ''})` })
          continue
        }
        options.onRun?.(entry.name, spec.cases)
        const adapter = adapterOf(entryOptions(options.file, entry, options.adapterDefaults), false)!
        const s = await runSession({ set: caseSet.set, name: caseSet.name, blocks: store.blocks(), counts: prepared.counts }, oracle, adapter, {
          score: options.score,
          semantics: options.semantics,
          repeat: options.repeat,
          multiAgent: false,
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
        cells[e].push({
          set: spec.cases,
          totals: { ...r.totals },
          categories: r.categories.map((c) => ({ id: c.id, cases: c.cases, agreement: c.agreement, scores: c.scores, rfcScores: c.rfcScores, verdict: c.verdict, line: c.line, errors: c.errors })),
          standards: r.standards,
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
    } finally {
      store.remove()
    }
  }
  const rows: MatrixRow[] = matrix.entries.map((entry, e) => ({
    name: entry.name,
    adapter: entry.description,
    version: versions[e],
    ...(entry.needs ? { needs: entry.needs } : {}),
    ...(entry.note ? { note: entry.note } : {}),
    cells: cells[e],
  }))
  return {
    date: new Date().toISOString(),
    tool: options.tool,
    command: options.command,
    score: options.score,
    semantics: options.semantics,
    sets: setDetails.map((d) => d.cases),
    setDetails,
    setDescriptions: setDetails.map((d) => d.description),
    rows,
    failed,
    ...(options.signal?.aborted ? { interrupted: String(options.signal.reason) } : {}),
  }
}
