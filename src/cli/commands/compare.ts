/**
 * `robots-automaton compare`: checks and times another robots.txt
 * implementation against the reference's answers (this library's), by
 * category. This file reads the arguments and runs the stages under
 * `compare/`: a case set (cases/), the oracle and categories, an adapter
 * (adapters/), the run and minimisation, and the reports (report/).
 */
import { closeSync, existsSync, openSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { COMMON_OPTIONS, helpOrVersion, flag, optionValue, parseArgs, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { CliError, describeSystemError, readError, UsageError } from '../../internals.js'
import { COMPARE_HELP } from './compare-help.js'
import { PROGRAM, version } from '../common/version.js'
import { count, plural } from '../common/numbers.js'
import { note } from '../common/stdio.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted, type ProgressUnit } from '../common/progress.js'
import type { Adapter } from '../../compare/adapters/adapter.js'
import { BatchAdapter } from '../../compare/adapters/batch-adapter.js'
import { CmdAdapter } from '../../compare/adapters/cmd-adapter.js'
import { ModuleAdapter } from '../../compare/adapters/module-adapter.js'
import type { CaseInput } from '../../compare/case.js'
import { corpusCaseStream } from '../../compare/cases/corpus-cases.js'
import { jsonlCaseStream, JsonlWriter } from '../../compare/cases/jsonl-cases.js'
import { specTestDirCases } from '../../compare/cases/spec-test.js'
import { unitCases } from '../../compare/cases/unit-vectors.js'
import { CATEGORIES, SET_CATEGORIES } from '../../compare/categories.js'
import { Oracle } from '../../compare/oracle.js'
import { Random } from '../../compare/random.js'
import { buildReport } from '../../compare/report/report-model.js'
import { writeHtmlReport } from '../../compare/report/html-report.js'
import { writeJsonReport } from '../../compare/report/json-report.js'
import { renderTerminal } from '../../compare/report/terminal-report.js'
import { printable } from '../common/printable.js'
import { minimiseAll, runSet, type ProgressSink } from '../../compare/run.js'

/** The options `compare` accepts (its help, compare-help.ts, names each of them). */
export const COMPARE_OPTIONS: readonly OptionSpec[] = [
  { name: 'cases', value: true },
  { name: 'robots-dir', value: true },
  { name: 'urls', value: true },
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
  { name: 'minimise', value: true },
  { name: 'minimise-calls', value: true },
  { name: 'show', value: true },
  { name: 'json', value: true },
  { name: 'html', value: true },
  { name: 'export', value: true },
  { name: 'min-agreement', value: true },
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Default number of corpus cases. */
export const DEFAULT_CORPUS_COUNT = 10_000

/** An integer option within [min, max], or its default. */
function intOption(args: ParsedArgs, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = optionValue(args, name)
  if (v === undefined) return fallback
  if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`option '--${name}' must be a whole number from ${count(min)}${max < Number.MAX_SAFE_INTEGER ? ` to ${count(max)}` : ''} (got '${v}')`)
  }
  return Number(v)
}

function regexOption(args: ParsedArgs, name: string): RegExp | undefined {
  const v = optionValue(args, name)
  if (v === undefined) return undefined
  try {
    return new RegExp(v, 'm')
  } catch (err) {
    throw new UsageError(`option '--${name}' is not a valid regular expression: ${(err as Error).message}`)
  }
}

/** The bundled corpus: beside dist/ when installed, at the repository root when run from source. */
function bundledCorpus(): string {
  for (const rel of ['../corpus', '../../../corpus']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url))
    if (existsSync(`${dir}/robots`)) return dir
  }
  throw new CliError('ERR_READ', 'the bundled corpus/ folder is missing from this installation: give --robots-dir DIR (and --urls FILE)')
}

/** A case set: its cases (read or generated as they are consumed), how many when known, and a description. */
interface CaseSet {
  readonly inputs: Iterable<CaseInput> | AsyncIterable<CaseInput>
  readonly total?: number
  readonly set: string
}

/** A seeded sample of `n` items of a stream, in stream order (memory: `n` items). */
async function reservoir(items: AsyncIterable<CaseInput>, n: number, rnd: Random): Promise<CaseInput[]> {
  const kept: { at: number; c: CaseInput }[] = []
  let seen = 0
  for await (const c of items) {
    if (kept.length < n) kept.push({ at: seen, c })
    else {
      const j = rnd.int(seen + 1)
      if (j < n) kept[j] = { at: seen, c }
    }
    seen++
  }
  return kept.sort((a, b) => a.at - b.at).map((k) => k.c)
}

/** The case set of the options (see the help). */
async function loadSet(args: ParsedArgs, oracle: Oracle, multiAgent: boolean): Promise<CaseSet> {
  const spec = optionValue(args, 'cases')
  if (spec === undefined) throw new UsageError("option '--cases' is required (unit, corpus, spec-test:DIR or FILE.jsonl)")
  const seed = intOption(args, 'seed', 1, 0, 0xffffffff)
  const corpusOnly = ['robots-dir', 'urls'].filter((o) => args.options.has(o))
  if (spec !== 'corpus' && corpusOnly.length > 0) throw new UsageError(`option '--${corpusOnly[0]}' goes with --cases corpus`)
  const n = optionValue(args, 'count') !== undefined ? intOption(args, 'count', 0, 1) : undefined
  if (spec === 'corpus') {
    const total = n ?? DEFAULT_CORPUS_COUNT
    let robotsDir = optionValue(args, 'robots-dir')
    let urlsFile = optionValue(args, 'urls')
    if (robotsDir === undefined) {
      if (urlsFile !== undefined) throw new UsageError("option '--urls' needs --robots-dir")
      const dir = bundledCorpus()
      robotsDir = `${dir}/robots`
      urlsFile = `${dir}/urls.txt`
    }
    const inputs = corpusCaseStream({ robotsDir, urlsFile, count: total, seed, multiAgent }, oracle)
    return { inputs, total, set: `corpus: files of ${robotsDir}${urlsFile ? `, URLs of ${urlsFile}` : ''}, seed ${seed}` }
  }
  const sample = `, a sample of ${count(n ?? 0)} (seed ${seed})`
  if (spec.startsWith('spec-test:') || spec === 'unit') {
    let inputs: CaseInput[]
    let set: string
    if (spec === 'unit') {
      inputs = unitCases()
      set = "unit: google/robotstxt's unit-test vectors (commit 22b355ff)"
    } else {
      const dir = spec.slice('spec-test:'.length)
      if (dir === '') throw new UsageError("option '--cases spec-test:DIR' needs a folder")
      inputs = specTestDirCases(dir)
      set = `spec-test: the .textproto files under ${dir}`
    }
    if (n !== undefined && n < inputs.length) {
      const all = inputs
      inputs = new Random(seed).sample(all.length, n).map((i) => all[i])
      set += sample
    }
    return { inputs, total: inputs.length, set }
  }
  if (spec.endsWith('.jsonl') || existsSync(spec)) {
    try {
      closeSync(openSync(spec, 'r')) // fail before the adapter starts
    } catch (err) {
      throw readError('case file', spec, err)
    }
    if (n === undefined) return { inputs: jsonlCaseStream(spec), set: `cases of ${spec}` }
    const inputs = await reservoir(jsonlCaseStream(spec), n, new Random(seed))
    return { inputs, total: inputs.length, set: `cases of ${spec}${sample}` }
  }
  throw new UsageError(`option '--cases' must be unit, corpus, spec-test:DIR or a .jsonl file (got '${spec}')`)
}

/** Builds the adapter named by the options (or none). */
function makeAdapter(args: ParsedArgs, multiAgent: boolean): Adapter | undefined {
  const given = ['cmd', 'batch', 'module'].filter((o) => args.options.has(o))
  if (given.length > 1) throw new UsageError(`options '--${given[0]}' and '--${given[1]}' cannot be combined: choose one adapter`)
  const cmdOnly = ['allowed-exit', 'disallowed-exit', 'allowed-pattern', 'disallowed-pattern', 'line-pattern', 'concurrency'].filter((o) => args.options.has(o))
  if (given[0] !== 'cmd' && cmdOnly.length > 0) throw new UsageError(`option '--${cmdOnly[0]}' goes with --cmd`)
  const batchOnly = ['window', 'batch-robots'].filter((o) => args.options.has(o))
  if (given[0] !== 'batch' && batchOnly.length > 0) throw new UsageError(`option '--${batchOnly[0]}' goes with --batch`)
  const timeoutMs = intOption(args, 'timeout', 10_000, 1)
  switch (given[0]) {
    case 'cmd': {
      if (multiAgent) throw new UsageError("option '--multi-agent' does not go with --cmd (%user-agent% is one token)")
      const allowedExit = intOption(args, 'allowed-exit', 0, 0, 255)
      const disallowedExit = intOption(args, 'disallowed-exit', 1, 0, 255)
      if (allowedExit === disallowedExit) throw new UsageError("options '--allowed-exit' and '--disallowed-exit' must differ")
      return new CmdAdapter({
        template: optionValue(args, 'cmd')!,
        allowedExit,
        disallowedExit,
        allowedPattern: regexOption(args, 'allowed-pattern'),
        disallowedPattern: regexOption(args, 'disallowed-pattern'),
        linePattern: regexOption(args, 'line-pattern'),
        concurrency: intOption(args, 'concurrency', availableParallelism(), 1, 1024),
        timeoutMs,
      })
    }
    case 'batch':
      return new BatchAdapter({
        command: optionValue(args, 'batch')!,
        robotsVia: (optionValue(args, 'batch-robots') as 'path' | 'inline' | undefined) ?? 'path',
        multiAgent,
        window: intOption(args, 'window', 256, 1, 1 << 16),
        timeoutMs,
      })
    case 'module':
      return new ModuleAdapter({ path: optionValue(args, 'module')!, multiAgent })
    default:
      return undefined
  }
}

/** Runs `compare` with the arguments after the command name; resolves to the exit code. */
export async function runCompare(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, COMPARE_OPTIONS)
  if (helpOrVersion(args, COMPARE_HELP)) return 0
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`)
  const quiet = flag(args, 'quiet')
  const multiAgent = flag(args, 'multi-agent')
  const adapter = makeAdapter(args, multiAgent)
  const exportFile = optionValue(args, 'export')
  if (adapter === undefined && exportFile === undefined) throw new UsageError('give the implementation to test (--cmd, --batch or --module), or --export FILE')
  const minAgreement = Number(optionValue(args, 'min-agreement') ?? '100')
  if (!(minAgreement >= 0 && minAgreement <= 100)) {
    throw new UsageError(`option '--min-agreement' must be a percentage from 0 to 100 (got '${optionValue(args, 'min-agreement')}')`)
  }
  const minimiseCap = intOption(args, 'minimise', 20, 0)
  const minimiseCalls = intOption(args, 'minimise-calls', 200, 1)
  const show = intOption(args, 'show', 5, 0)
  const categoryFilter = optionValue(args, 'category')?.split(',').filter((c) => c !== '')
  if (categoryFilter) {
    const known = new Set([...CATEGORIES, ...SET_CATEGORIES].map((c) => c.id))
    const unknown = categoryFilter.filter((c) => !known.has(c))
    if (unknown.length > 0 && !optionValue(args, 'cases')?.endsWith('.jsonl')) {
      throw new UsageError(`option '--category': unknown category '${unknown[0]}' (categories: ${[...known].join(', ')})`)
    }
  }

  // Report files must be writable before a long run starts (created empty if missing, else left as they are).
  const htmlFile = optionValue(args, 'html')
  const jsonFile = optionValue(args, 'json')
  for (const file of [htmlFile, jsonFile]) {
    if (file === undefined) continue
    try {
      closeSync(openSync(file, 'a'))
    } catch (err) {
      throw new CliError('ERR_WRITE', `cannot write '${file}': ${describeSystemError(err)}`)
    }
  }

  // Cases: read or generate, answer with the oracle, tag, export, run: block by block.
  const oracle = new Oracle()
  const takesMulti = adapter === undefined ? multiAgent : adapter.multiAgent
  const t0 = performance.now()
  const { inputs, total, set } = await loadSet(args, oracle, takesMulti)
  const loadMs = performance.now() - t0
  const exportTo = exportFile !== undefined ? new JsonlWriter(exportFile) : undefined
  let report
  try {
    if (adapter) await adapter.start()
    // compare writes stdout only once the run (and its bar) is over: a terminal stdout does not rule the bar out.
    const progress = adapter && progressWanted({ ...processProgressContext(quiet), stdoutIsTTY: false }) ? caseProgress(total) : undefined
    const run = await runSet(inputs, oracle, { adapter, multiAgent: takesMulti, categories: categoryFilter, exportTo, progress })
    if (exportTo) await exportTo.close()
    if (oracle.statedMismatchCount > 0 && !quiet) {
      const first = oracle.statedMismatches[0].id
      note(`note: ${count(oracle.statedMismatchCount)} cases state an answer other than the reference's (first: ${first}); the reference's is used`)
    }
    if (exportFile !== undefined && !quiet) note(`${count(run.exported)} cases written to ${exportFile}`)
    if (adapter === undefined) return 0
    if (run.tally.total.cases === 0) throw new CliError('ERR_READ', `no cases to run${categoryFilter ? ' in the categories chosen' : ''}`)
    const order = run.tally.order()
    const m0 = performance.now()
    const minimised = await minimiseAll(order, adapter, minimiseCap, minimiseCalls)
    const minimiseMs = performance.now() - m0
    const r0 = performance.now()
    const skipped = run.skipped
    report = buildReport(
      {
        set: `${set}; ${count(run.tally.total.cases)} cases`,
        adapter: adapter.description,
        tally: run.tally,
        order,
        minimised,
        skipped,
        skippedWhy: skipped ? `multi-agent cases (${adapter.kind === 'cmd' ? '--cmd passes one token' : 'add --multi-agent to send them'})` : undefined,
        statedMismatches: oracle.statedMismatches,
        statedMismatchCount: oracle.statedMismatchCount,
        adapterTimings: adapter.timings(),
        runWallMs: run.runWallMs,
        harness: { casesMs: loadMs + run.casesMs, runCpuMs: run.runCpuMs, minimiseMs, reportMs: 0 },
        minAgreement,
      },
      `${PROGRAM} ${version()}`,
    )
    renderTerminal(report, show)
    report.timings.harness.reportMs = performance.now() - r0
    // Patterns and agent names in the report come from the cases: no control character reaches the terminal.
    process.stdout.write(renderTerminal(report, show).split('\n').map(printable).join('\n'))
  } finally {
    await adapter?.close()
  }
  if (htmlFile !== undefined) await writeHtmlReport(report, htmlFile)
  if (jsonFile !== undefined) await writeJsonReport(report, jsonFile)
  return report.passed ? 0 : 1
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
