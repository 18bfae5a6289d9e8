/**
 * `robots-automaton compare`: checks and times another robots.txt
 * implementation against the reference's answers (this library's), by
 * category. This file reads the arguments and hands them to the harness
 * under `compare/`: a session (one implementation on one case set), a
 * matrix (several implementations on several sets), or the diff of two runs.
 */
import { existsSync } from 'node:fs'
import { COMMON_OPTIONS, helpOrVersion, flag, optionValue, optionValues, parseArgs, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { checkOutput } from '../common/output-file.js'
import { checkOutputsApart, outputFile } from '../common/output-clash.js'
import { COMPARE_HELP } from './compare-help.js'
import { PROGRAM, version } from '../common/version.js'
import { commandLine, exitProcess, signalled, SIGNALS, type StopSignal } from '../common/interrupt.js'
import { count, plural } from '../common/numbers.js'
import { note, verdictFound, verdictPending } from '../common/stdio.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted, type ProgressUnit } from '../common/progress.js'
import { ADAPTER_OPTIONS, adapterOf, intValue, MAX_TIMEOUT_MS, type OptionValues } from '../../compare/adapters/adapter-options.js'
import { MAX_URLS_FIELD } from '../../compare/cases/corpus-files.js'
import { readBaseline } from '../../compare/baseline.js'
import { loadCaseSet } from '../../compare/cases/case-sets.js'
import { JsonlWriter } from '../../compare/cases/jsonl-cases.js'
import { CATEGORIES, parseCategoryFilter, type CategoryFilter } from '../../compare/categories.js'
import { matrixSets, readMatrixFile, runMatrix, type MatrixCaseOptions } from '../../compare/matrix.js'
import { Oracle } from '../../compare/oracle.js'
import { SCORES, SEMANTICS, type Score, type Semantics } from '../../compare/outcome.js'
import { prepareCases } from '../../compare/run.js'
import { stopWaitingForReaders, waitForReaders, writeReport } from '../../compare/output-files.js'
import { stopWaitingForWriters } from '../../compare/input-file.js'
import { renderMatrixHtml, renderMatrixLines, renderMatrixMarkdown, renderMatrixText } from '../../compare/report/matrix-report.js'
import type { Report } from '../../compare/report/report-model.js'
import { diffRuns, readRunReport, renderRunDiff, runDiffLines } from '../../compare/report/run-diff.js'
import { renderTerminal } from '../../compare/report/terminal-report.js'
import { jsonLine, printable } from '../../tools/printable.js'
import type { ProgressSink } from '../../compare/run.js'
import { EXIT, runSession } from '../../compare/session.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options `compare` accepts (its help, compare-help.ts, names each of them). */
export const COMPARE_OPTIONS: readonly OptionSpec[] = [
  { name: 'cases', value: true, multiple: true },
  { name: 'robots-dir', value: true },
  { name: 'urls', value: true },
  { name: 'urls-field', value: true },
  { name: 'count', value: true },
  { name: 'seed', value: true },
  { name: 'category', value: true },
  { name: 'multi-agent', value: false },
  { name: 'cmd', value: true },
  { name: 'batch', value: true },
  { name: 'module', value: true },
  { name: 'allowed-exit', value: true },
  { name: 'disallowed-exit', value: true },
  { name: 'allowed-pattern', value: true },
  { name: 'disallowed-pattern', value: true },
  { name: 'line-pattern', value: true },
  { name: 'concurrency', value: true },
  { name: 'timeout', value: true },
  { name: 'window', value: true },
  { name: 'batch-robots', value: true, choices: ['path', 'inline'] },
  { name: 'score', value: true, choices: [...SCORES] },
  { name: 'semantics', value: true, choices: [...SEMANTICS] },
  { name: 'baseline', value: true },
  { name: 'write-baseline', value: true },
  { name: 'repeat', value: true },
  { name: 'minimise', value: true },
  { name: 'minimise-calls', value: true },
  { name: 'show', value: true },
  { name: 'json', value: true },
  { name: 'html', value: true },
  { name: 'junit', value: true },
  { name: 'csv', value: true },
  { name: 'markdown', value: true },
  { name: 'format', value: true, choices: ['text', 'jsonl'] },
  { name: 'export', value: true },
  { name: 'min-agreement', value: true },
  { name: 'matrix', value: true },
  { name: 'diff', value: false },
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Options each mode takes (besides -q, -h, -V); the others are usage errors there. */
const DIFF_TAKES = new Set(['diff', 'score', 'semantics', 'show', 'format'])
const MATRIX_TAKES = new Set([
  'matrix', 'cases', 'count', 'seed', 'robots-dir', 'urls', 'urls-field', 'category', 'score', 'semantics', 'repeat', 'timeout', 'json', 'html', 'markdown', 'format',
])

/** The known category ids. */
const KNOWN_CATEGORIES: ReadonlySet<string> = new Set(CATEGORIES.map((c) => c.id))

/** `--category`: a filter; its names are checked unless a case file may carry its own. */
function categoryOption(args: ParsedArgs, check: boolean): CategoryFilter | undefined {
  const text = optionValue(args, 'category')
  if (text === undefined) return undefined
  return parseCategoryFilter(text, check ? KNOWN_CATEGORIES : undefined, (m) => new UsageError(`option '--category': ${m}`))
}

/** The command line's options as adapter-options.ts reads them. */
function cliOptions(args: ParsedArgs): OptionValues {
  return {
    value: (name) => {
      const v = args.options.get(name)
      return v === true ? 'true' : typeof v === 'string' ? v : undefined
    },
    named: (name) => `'--${name}'`,
    error: (message) => new UsageError(message),
  }
}

/** The options a mode does not take, as a usage error naming the first. */
function onlyOptions(args: ParsedArgs, takes: ReadonlySet<string>, mode: string): void {
  for (const name of args.options.keys()) {
    if (!takes.has(name) && name !== 'quiet') throw new UsageError(`option '--${name}' does not go with --${mode}`)
  }
}

/**
 * Checks the report paths before any work (an output path: replaced through
 * links, streamed to FIFOs): each its own file, none an input of the run
 * (`--baseline F --write-baseline F` updates the baseline: it is read first).
 */
function checkWritable(outputs: Record<string, string | undefined>, args: ParsedArgs): void {
  const named = Object.entries(outputs).map(([name, file]) => ({ option: `--${name}`, file: file === undefined ? undefined : outputFile(checkOutput(file, 'report')) }))
  const casesFiles = optionValues(args, 'cases')
    .filter((c) => c !== 'unit' && c !== 'corpus')
    .map((c) => ({ what: "'--cases' file", path: c.startsWith('spec-test:') ? c.slice('spec-test:'.length) : c }))
  const inputs = [
    ...casesFiles,
    ...(['module', 'urls', 'matrix'] as const).map((name) => ({ what: `'--${name}' file`, path: optionValue(args, name) })),
    { what: "'--baseline' file", path: optionValue(args, 'baseline'), replacedBy: '--write-baseline' },
  ]
  checkOutputsApart(named, inputs)
}

/**
 * Where the terminal report goes: stdout, unless an output file is `-`
 * (stdout is then that file's alone: the report goes to stderr, or nowhere
 * with --quiet). Two outputs named `-` are a usage error: their bytes
 * would be mixed on one stream.
 */
function terminalWriter(outputs: Record<string, string | undefined>, quiet: boolean): (text: string) => void {
  const onStdout = Object.entries(outputs).filter(([, f]) => f === '-').map(([k]) => `--${k}`)
  if (onStdout.length > 1) throw new UsageError(`options ${onStdout.join(' and ')} both name stdout ('-'): give each but one a file`)
  if (onStdout.length === 0) return (text) => void process.stdout.write(text)
  return quiet ? () => {} : (text) => void process.stderr.write(text)
}

/** Writes a matrix report; after an interrupt, one that cannot be written (a FIFO without a reader) is said, and the run goes on. */
async function writeOut(file: string, text: string, interrupted: boolean): Promise<void> {
  try {
    await writeReport(file, text)
  } catch (err) {
    if (!interrupted) throw err
    note((err as Error).message)
  }
}

/**
 * An abort signal fired by SIGINT, SIGTERM or SIGHUP while `run` runs (the
 * reports are then written with what was done, those to a FIFO only if it
 * has a reader: none waits for one any more, and a thread blocked opening
 * one is freed). A second signal exits at once, and as an exit, not a death
 * by the signal: the exit hooks still kill the implementation's process
 * groups (which a terminal's Ctrl-C or hang-up never reaches) and remove
 * the temporary folders.
 */
async function interruptible<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  waitForReaders()
  const handlers = (Object.keys(SIGNALS) as StopSignal[]).map((name) => {
    const handler = (): void => {
      signalled(name)
      if (controller.signal.aborted) exitProcess(SIGNALS[name])
      controller.abort(`interrupted by ${name}`)
      stopWaitingForReaders(`interrupted by ${name}`)
      stopWaitingForWriters()
    }
    process.on(name, handler)
    return [name, handler] as const
  })
  try {
    return await run(controller.signal)
  } finally {
    for (const [name, handler] of handlers) process.removeListener(name, handler)
  }
}

/** Runs `compare` with the arguments after the command name; resolves to the exit code. */
export async function runCompare(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, COMPARE_OPTIONS)
  if (helpOrVersion(args, COMPARE_HELP)) return 0
  if (flag(args, 'diff')) return compareDiff(args)
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`)
  if (optionValue(args, 'matrix') !== undefined) return compareMatrix(args, argv)
  if (optionValue(args, 'markdown') !== undefined) throw new UsageError("option '--markdown' goes with --matrix")
  return compareRun(args)
}

const score = (args: ParsedArgs): Score => (optionValue(args, 'score') as Score | undefined) ?? 'lines'
const semantics = (args: ParsedArgs): Semantics => (optionValue(args, 'semantics') as Semantics | undefined) ?? 'reference'

/** `--diff A.json B.json`: two runs case by case; exit 3 when a case that agreed in A disagrees in B. */
async function compareDiff(args: ParsedArgs): Promise<number> {
  onlyOptions(args, DIFF_TAKES, 'diff')
  if (args.positionals.length !== 2) throw new UsageError('option --diff compares two JSON reports: --diff A.json B.json')
  const [fa, fb] = args.positionals
  const d = diffRuns(await readRunReport(fa), await readRunReport(fb), score(args), [fa, fb], semantics(args))
  const show = intValue(cliOptions(args), 'show', 20, 0)
  const status = d.counts.broken > 0 ? EXIT.disagreement : EXIT.passed
  verdictFound(status)
  process.stdout.write(optionValue(args, 'format') === 'jsonl' ? runDiffLines(d) : renderRunDiff(d, show).split('\n').map(printable).join('\n'))
  return status
}

/** `--matrix ADAPTERS.json`: every implementation of the file on every set. */
async function compareMatrix(args: ParsedArgs, argv: readonly string[]): Promise<number> {
  onlyOptions(args, MATRIX_TAKES, 'matrix')
  const o = cliOptions(args)
  const file = optionValue(args, 'matrix')!
  const caseOptions: MatrixCaseOptions = {
    robotsDir: optionValue(args, 'robots-dir'),
    urls: optionValue(args, 'urls'),
    urlsField: optionValue(args, 'urls-field') !== undefined ? intValue(o, 'urls-field', 0, 1, MAX_URLS_FIELD) : undefined,
    count: optionValue(args, 'count') !== undefined ? intValue(o, 'count', 0, 1) : undefined,
    seed: optionValue(args, 'seed') !== undefined ? intValue(o, 'seed', 1, 0, 0xffffffff) : undefined,
    category: categoryOption(args, true),
  }
  const timeout = optionValue(args, 'timeout') !== undefined ? String(intValue(o, 'timeout', 0, 1, MAX_TIMEOUT_MS)) : undefined
  const repeat = intValue(o, 'repeat', 1, 1, 1000)
  const matrix = await readMatrixFile(file)
  const sets = optionValues(args, 'cases')
  const specs = matrixSets(matrix, { sets, caseOptions })
  // An option no set can honour is a usage error, never ignored.
  const corpusOnly = (['robots-dir', 'urls', 'urls-field'] as const).find((k) => optionValue(args, k) !== undefined)
  if (corpusOnly !== undefined && !specs.some((s) => s.cases === 'corpus')) {
    throw new UsageError(`option '--${corpusOnly}' goes with a corpus set, and the matrix has none (its sets: ${specs.map((s) => s.cases).join(', ') || 'none'})`)
  }
  for (const s of specs) {
    if (s.urlsField !== undefined && s.urls === undefined) throw new UsageError("option '--urls-field' needs --urls")
    if (s.urls !== undefined && s.robotsDir === undefined) throw new UsageError("option '--urls' needs --robots-dir")
    for (const path of [s.robotsDir, s.urls]) if (path !== undefined && !existsSync(path)) throw new CliError('ERR_READ', `cannot read '${path}' (a case set of the matrix): no such file or directory`)
  }
  const outputs = { json: optionValue(args, 'json'), html: optionValue(args, 'html'), markdown: optionValue(args, 'markdown') }
  checkWritable(outputs, args)
  const quiet = flag(args, 'quiet')
  const terminal = terminalWriter(outputs, quiet)
  const command = commandLine('compare', argv)
  const m = await interruptible((signal) =>
    runMatrix(matrix, {
      file,
      sets,
      caseOptions,
      score: score(args),
      semantics: semantics(args),
      repeat,
      adapterDefaults: new Map(timeout !== undefined ? [['timeout', timeout]] : []),
      tool: `${PROGRAM} ${version()}`,
      command,
      signal,
      onNote: quiet ? undefined : note,
      onRun: quiet ? undefined : (name, set) => note(`matrix: ${name} on ${set}`),
    }),
  )
  // A matrix a signal stopped did not run through: its status is the signal's, as a single run's is.
  const stoppedBy = (Object.keys(SIGNALS) as StopSignal[]).find((name) => m.interrupted?.endsWith(name))
  if (stoppedBy !== undefined) stopWaitingForReaders(`interrupted by ${stoppedBy}`)
  const cut = stoppedBy !== undefined
  if (outputs.json !== undefined) await writeOut(outputs.json, jsonLine(m, 2) + '\n', cut)
  if (outputs.html !== undefined) await writeOut(outputs.html, renderMatrixHtml(m), cut)
  if (outputs.markdown !== undefined) await writeOut(outputs.markdown, renderMatrixMarkdown(m), cut)
  const status = stoppedBy !== undefined ? SIGNALS[stoppedBy] : m.failed ? EXIT.adapterFailure : EXIT.passed
  verdictFound(status)
  terminal(optionValue(args, 'format') === 'jsonl' ? renderMatrixLines(m) : renderMatrixText(m).split('\n').map(printable).join('\n'))
  return status
}

/** Default of `--minimise` (`--cmd`: fewer, each try being a process). */
const MINIMISE_DEFAULT = 20
const MINIMISE_DEFAULT_CMD = 5

/** One implementation on one case set (or an export alone). */
async function compareRun(args: ParsedArgs): Promise<number> {
  const quiet = flag(args, 'quiet')
  const multiAgent = flag(args, 'multi-agent')
  const o = cliOptions(args)
  const adapter = adapterOf(o, multiAgent)
  const exportFile = optionValue(args, 'export')
  if (adapter === undefined) {
    if (exportFile === undefined) throw new UsageError('give the implementation to test (--cmd, --batch or --module), or --export FILE, or --matrix FILE')
    const needs = [
      ...Object.keys(ADAPTER_OPTIONS), 'score', 'semantics', 'repeat', 'json', 'html', 'junit', 'csv', 'minimise', 'minimise-calls', 'min-agreement', 'show', 'baseline', 'write-baseline',
    ].find((n) => args.options.has(n))
    if (needs !== undefined) throw new UsageError(`option '--${needs}' needs an implementation to test (--cmd, --batch or --module)`)
  }
  const sets = optionValues(args, 'cases')
  if (sets.length === 0) throw new UsageError("option '--cases' is required (unit, corpus, spec-test:PATH or FILE.jsonl)")
  if (sets.length > 1) throw new UsageError("option '--cases' is given more than once (several sets: --matrix FILE)")
  const baselineFile = optionValue(args, 'baseline')
  const minText = optionValue(args, 'min-agreement') ?? (baselineFile !== undefined ? '0' : '100')
  // Decimal digits only: Number() would read ' ' as 0 and '0x10' as 16.
  const minAgreement = /^[0-9]+(\.[0-9]+)?$/.test(minText) ? Number(minText) : NaN
  if (!(minAgreement >= 0 && minAgreement <= 100)) {
    throw new UsageError(`option '--min-agreement' must be a percentage from 0 to 100 (got '${optionValue(args, 'min-agreement')}')`)
  }
  const minimiseCap = intValue(o, 'minimise', adapter?.kind === 'cmd' ? MINIMISE_DEFAULT_CMD : MINIMISE_DEFAULT, 0)
  const minimiseCalls = intValue(o, 'minimise-calls', 200, 1)
  const show = intValue(o, 'show', 5, 0)
  const repeat = intValue(o, 'repeat', 1, 1, 1000)
  // A case file may carry categories of its own: their names are not checked.
  const categoryFilter = categoryOption(args, !sets[0].endsWith('.jsonl'))
  const outputs = {
    json: optionValue(args, 'json'),
    html: optionValue(args, 'html'),
    junit: optionValue(args, 'junit'),
    csv: optionValue(args, 'csv'),
    baseline: optionValue(args, 'write-baseline'),
  }
  checkWritable({ ...outputs, 'write-baseline': outputs.baseline, baseline: undefined, export: exportFile }, args)
  const terminal = terminalWriter({ ...outputs, 'write-baseline': outputs.baseline, baseline: undefined, export: exportFile }, quiet)
  const sem = semantics(args)
  const baseline = baselineFile !== undefined ? await readBaseline(baselineFile, sem) : undefined

  const oracle = new Oracle()
  const takesMulti = adapter === undefined ? multiAgent : adapter.multiAgent
  const set = await loadCaseSet(
    {
      cases: sets[0],
      count: optionValue(args, 'count') !== undefined ? intValue(o, 'count', 0, 1) : undefined,
      seed: intValue(o, 'seed', 1, 0, 0xffffffff),
      robotsDir: optionValue(args, 'robots-dir'),
      urls: optionValue(args, 'urls'),
      urlsField: optionValue(args, 'urls-field') !== undefined ? intValue(o, 'urls-field', 0, 1, MAX_URLS_FIELD) : undefined,
      multiAgent: takesMulti,
      onNote: quiet ? undefined : note,
    },
    oracle,
  )
  const exportTo = exportFile !== undefined ? new JsonlWriter(exportFile) : undefined
  const prepared = prepareCases(set.inputs, oracle, { multiAgent: takesMulti, categories: categoryFilter, exportTo })
  // compare writes stdout only once the run (and its bar) is over: a terminal stdout does not rule the bar out.
  const progress = adapter && progressWanted({ ...processProgressContext(quiet), stdoutIsTTY: false }) ? caseProgress(set.total) : undefined
  // The verdict comes at the end: a stdout closed while reports stream to it is no verdict.
  verdictPending()
  const s = await interruptible((signal) =>
    runSession({ set: set.set, name: set.name, blocks: prepared.blocks, counts: prepared.counts }, oracle, adapter, {
      score: score(args),
      semantics: sem,
      repeat,
      multiAgent: takesMulti,
      minimise: minimiseCap,
      minimiseCalls,
      minAgreement,
      baseline,
      progress,
      onNote: quiet ? undefined : note,
      outputs,
      signal,
      tool: `${PROGRAM} ${version()}`,
      ceiling: true,
    }),
  )
  if (exportTo) {
    try {
      await exportTo.close()
    } catch (err) {
      // An interrupted run does not wait for a reader of the file any more.
      if (s.status < 128) throw err
      note((err as Error).message)
    }
  }
  for (const u of s.unwritten) note(u.message)
  if (oracle.statedMismatchCount > 0 && !quiet) {
    note(`note: ${plural(oracle.statedMismatchCount, 'case')} ${oracle.statedMismatchCount === 1 ? 'states' : 'state'} an answer other than the reference's (first: ${oracle.statedMismatches[0].id}); the reference's is used`)
  }
  if (exportFile !== undefined && !quiet) {
    // The cases left out (several tokens, no --multi-agent) are not in the file either: said, never a set cut short in silence.
    const left = s.run.skipped
    const why = adapter?.kind === 'cmd' ? '--cmd passes one token' : 'add --multi-agent to keep them'
    note(`${plural(s.run.exported, 'case')} written to ${exportFile}${left > 0 ? `; ${plural(left, 'case')} whose crawler has several tokens left out (${why})` : ''}`)
  }
  if (outputs.baseline !== undefined && s.report && !quiet) {
    note(s.failure ? `--write-baseline: not written, the run stopped early` : `--write-baseline: ${plural(s.report.totals.disagreements, 'disagreement')} written to ${outputs.baseline}`)
  }
  const report = s.report
  if (report === undefined) return s.status
  if (s.failure === undefined && report.totals.cases === 0) throw new CliError('ERR_READ', `no cases to run${categoryFilter ? ' in the categories chosen' : ''}`)
  // The run's status stands when stdout is closed before the report is read whole.
  verdictFound(s.status)
  // Patterns and agent names in the report come from the cases: no control character reaches the terminal.
  terminal(optionValue(args, 'format') === 'jsonl' ? reportLines(report) : renderTerminal(report, show).split('\n').map(printable).join('\n'))
  if (s.failure) {
    note(s.failure.message)
    const written = Object.entries(outputs).filter(([k, f]) => f !== undefined && !s.unwritten.some((u) => u.output === k))
    // A report that could not be written (a full disk) holds nothing: none is said to hold the cases.
    if (written.length > 0 && !quiet && (s.failure as { code?: string }).code !== 'ERR_WRITE') note(`the ${written.map(([k]) => `--${k}`).join(', ')} output${written.length > 1 ? 's hold' : ' holds'} the ${count(report.totals.cases)} cases done`)
  }
  return s.status
}

/** The run as JSON lines: one object per category, then one for all cases (`category: null`) with the result. */
function reportLines(r: Report): string {
  const row = (category: string | null, t: Report['totals'] | Report['categories'][number]) =>
    jsonLine({
      category, cases: t.cases, agreed: t.agreed, verdict: t.verdict, line: t.line, errors: t.errors, agreement: t.scores, rfcAgreement: t.rfcScores,
      ...('only' in t && t.only !== undefined ? { only: t.only } : {}),
    })
  const total = jsonLine({
    category: null, cases: r.totals.cases, agreed: r.totals.agreed, verdict: r.totals.verdict, line: r.totals.line, errors: r.totals.errors,
    agreement: r.totals.scores, rfcAgreement: r.totals.rfcScores, score: r.score, semantics: r.semantics, passed: r.passed, explanation: r.explanation.map((e) => e.id),
    ...(r.baseline ? { baseline: { known: r.baseline.known, new: r.baseline.newCount, fixed: r.baseline.fixedCount } } : {}),
    ...(r.failure ? { failure: r.failure.message } : {}),
  })
  return [...r.categories.map((c) => row(c.id, c)), total].join('\n') + '\n'
}

const CASES: ProgressUnit = { measure: 'items', items: 'cases' }

/** The progress bar over a run's cases (`total` when the count is known), with the disagreements so far. */
function caseProgress(total: number | undefined): ProgressSink {
  const bar = new ProgressBar(process.stderr, total, escapesAllowed(process.env), CASES)
  return {
    update: (done, disagreements) => bar.update(done, done, plural(disagreements, 'disagreement')),
    clear: () => bar.done(),
  }
}
