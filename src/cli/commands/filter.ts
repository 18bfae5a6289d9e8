/**
 * `robots-automaton filter`: judges URL lists and logs line by line, against
 * one robots.txt (`--robots`) or per host (`--robots-dir`, `--bundle`), and
 * writes the chosen lines in input order. See FILTER_HELP for the interface,
 * emitter.ts and jsonl.ts for the output formats, runner.ts and parallel.ts
 * for where blocks are judged.
 */
import { warmUpHostPath, worthWarmingUp } from '../hosts/warm-up.js'
import { availableParallelism } from 'node:os'
import { COMMON_OPTIONS, helpOrVersion, flag, intOption, optionValue, parseArgs, type OptionSpec } from '../common/args.js'
import { BlockWriter } from '../common/block-writer.js'
import { loadedBodyWarning } from '../common/body-problems.js'
import { openBundle, readBundle } from '../hosts/bundle-rules.js'
import { LineEmitter, type OutputFormat, type PrintMode } from '../filter/emitter.js'
import { UrlScan } from '../../index.js'
import { INPUT_OPTIONS, lineLayout } from '../filter/line-layout.js'
import { FILTER_HELP } from './filter-help.js'
import { cacheBudget } from '../common/heap-room.js'
import { DEFAULT_CACHE_MB, HostJudge } from '../filter/host-judge.js'
import type { HostRules } from '../hosts/host-rules.js'
import { HostTally } from '../hosts/host-tally.js'
import { openInput, refuseOutputAsInput, resolveInputs, type ByteCounter } from '../filter/input.js'
import type { JudgeSpec } from '../filter/judge-spec.js'
import { MatcherJudge } from '../filter/judge-lines.js'
import type { LineJudge } from '../filter/line-judge.js'
import { blockSizeFromEnv, lineBlocks } from '../filter/line-blocks.js'
import { countLines } from '../filter/block-lines.js'
import { checkRobotsSource, loadRobots, refuseUnusedUrlOptions, robotsFetching, ROBOTS_URL_OPTIONS } from '../common/load-robots.js'
import { defaultJobs, ParallelRunner } from '../filter/parallel.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted } from '../common/progress.js'
import { DirectoryRules } from '../hosts/robots-dir.js'
import { InlineRunner, type BlockRunner } from '../filter/runner.js'
import { FilterTotals, summaryLine } from '../filter/filter-stats.js'
import { EXIT_NO_URL, faultNote, faultWords, INVALID_OPTION, noUrlMessage, policyWords, type InvalidPolicy } from '../filter/line-faults.js'
import { printable } from '../../tools/printable.js'
import { formatOption, outputFormat } from '../common/output-format.js'
import type { BlockSource } from '../filter/runner.js'
import { isStdin, note } from '../common/stdio.js'
import { AGENT_OPTION, agentWarnings } from '../common/agent-option.js'
import { CRAWLERS_OPTION, crawlerTokens, crawlerWarnings, judgedOf, REQUIRE_OPTION } from '../common/crawlers-option.js'
import { CrawlerCodes, needAllOf } from '../filter/crawler-codes.js'
import { SetJudge } from '../filter/set-judge.js'
import { OriginScope } from '../common/robots-origin.js'
import { ClientPaths } from '../common/client-path.js'
import { seeBlockOrigins } from '../filter/origin-lines.js'
import { seeBlockPaths } from '../filter/path-lines.js'
import { LineLocator } from '../filter/line-locator.js'
import { recordCrawlers } from '../filter/block-chunks.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options `filter` accepts (its help, filter-help.ts, names each of them). */
export const FILTER_OPTIONS: readonly OptionSpec[] = [
  { name: 'robots', value: true },
  { name: 'robots-dir', value: true },
  { name: 'bundle', value: true },
  AGENT_OPTION,
  CRAWLERS_OPTION,
  REQUIRE_OPTION,
  { name: 'print', value: true, choices: ['allowed', 'disallowed', 'verdicts'] },
  formatOption(true),
  INVALID_OPTION,
  { name: 'missing', value: true, choices: ['allow', 'disallow'] },
  { name: 'cache-mb', value: true },
  { name: 'jobs', short: 'j', value: true },
  ...INPUT_OPTIONS,
  { name: 'line-buffered', value: false },
  ...ROBOTS_URL_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Most worker threads `--jobs` accepts. */
const MAX_JOBS = 256

/** Runs `filter` with the arguments after the command name; resolves to the exit code. */
export async function runFilter(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, FILTER_OPTIONS)
  if (helpOrVersion(args, FILTER_HELP)) return 0
  const robotsSource = optionValue(args, 'robots')
  const robotsDir = optionValue(args, 'robots-dir')
  const bundlePath = optionValue(args, 'bundle')
  const sources = [robotsSource, robotsDir, bundlePath].filter((s) => s !== undefined).length
  if (sources === 0) throw new UsageError(`one of '--robots', '--robots-dir' or '--bundle' is required`)
  if (sources > 1) throw new UsageError(`only one of '--robots', '--robots-dir' and '--bundle' may be given`)
  const perHost = robotsSource === undefined
  if (robotsSource !== undefined) checkRobotsSource(robotsSource)
  const judged = judgedOf(args)
  const agent = judged.kind === 'agent' ? judged.tokens : []
  const crawlers = judged.kind === 'crawlers' ? judged.crawlers : undefined
  const require = judged.kind === 'crawlers' ? judged.require : undefined
  const printGiven = optionValue(args, 'print') as PrintMode | undefined
  const format: OutputFormat = outputFormat(args)
  const invalid = (optionValue(args, 'invalid') ?? 'keep') as InvalidPolicy
  // JSON lines describe every line unless --print picks some.
  const mode: PrintMode = printGiven ?? (format === 'jsonl' ? 'verdicts' : 'allowed')
  const missing = optionValue(args, 'missing')
  if (missing !== undefined && !perHost) throw new UsageError(`'--missing' applies only with '--robots-dir' or '--bundle'`)
  if (perHost) refuseUnusedUrlOptions(args, [])
  if (optionValue(args, 'cache-mb') !== undefined && !perHost) throw new UsageError(`'--cache-mb' applies only with '--robots-dir' or '--bundle'`)
  const cacheMb = intOption(args, 'cache-mb', 0, 1 << 20, DEFAULT_CACHE_MB)
  const lineBuffered = flag(args, 'line-buffered')
  const jobs = intOption(args, 'jobs', 1, MAX_JOBS, defaultJobs(availableParallelism()))
  // --line-buffered judges each line in the main thread as it comes: more threads asked for would be ignored.
  if (lineBuffered && optionValue(args, 'jobs') !== undefined && jobs > 1) {
    throw new UsageError(`'--jobs ${jobs}' does not go with '--line-buffered', which judges each line in the main thread as it comes`)
  }
  const layout = lineLayout(args)
  const quiet = flag(args, 'quiet')
  const files = args.positionals
  const stdinFiles = files.filter(isStdin).length
  if (stdinFiles > 1) throw new UsageError(`stdin ('-') is named more than once`)
  if (isStdin(robotsSource ?? '') && (files.length === 0 || stdinFiles > 0)) {
    throw new UsageError(`'--robots -' reads the robots.txt from stdin, so the URLs must come from FILE arguments`)
  }

  const inputs = await resolveInputs(files)
  refuseOutputAsInput(inputs)
  if (!quiet) {
    for (const w of crawlers === undefined ? agentWarnings(agent) : crawlerWarnings(crawlers)) note(w)
  }
  const crawlerCodes = crawlers === undefined ? undefined : new CrawlerCodes(crawlers.length, needAllOf(mode, require!))
  const crawlerLists = crawlers === undefined ? undefined : crawlerTokens(crawlers)
  const missingAllowed = missing !== 'disallow'
  // Judging threads: the workers, or the main thread alone.
  const threads = lineBuffered ? 1 : jobs
  // Each thread's share, fitted to the heap a thread may have (a cache past it would crash, not evict).
  const budget = cacheBudget(cacheMb * 2 ** 20, threads, `${optionValue(args, 'cache-mb') === undefined ? 'the default ' : ''}--cache-mb ${cacheMb}`)
  const cacheBytes = budget.perThread
  let judge: LineJudge
  let spec: JudgeSpec['rules']
  let tally: HostTally | undefined
  let scope: OriginScope | undefined
  if (robotsSource !== undefined) {
    scope = OriginScope.of([robotsSource], quiet ? undefined : note, 'filter --robots-dir or --bundle judges each line by its own site')
    if (layout.hostName !== undefined) scope?.seeHost(layout.hostName)
    const loaded = await loadRobots(robotsSource, robotsFetching(args, [robotsSource]))
    if (!quiet) {
      if (loaded.fetchNote !== undefined) note(`${loaded.name}: ${loaded.fetchNote}`)
      const warning = loadedBodyWarning(loaded, crawlerLists ?? [agent])
      if (warning !== undefined) note(warning)
    }
    const outcome = loaded.fetched === 'unreachable' || loaded.fetched === 'unavailable' ? loaded.fetched : undefined
    judge =
      crawlerLists === undefined
        ? new MatcherJudge(loaded.robots.agents(agent), loaded.name, outcome)
        : new SetJudge(loaded.robots.crawlers(crawlerLists), crawlerCodes!, loaded.name, outcome)
    spec = { kind: 'robots', bytes: loaded.robots.toBytes(), name: loaded.name, outcome }
  } else {
    let rules: HostRules
    if (robotsDir !== undefined) {
      const dir = DirectoryRules.open(robotsDir)
      const skipped = dir.skippedWarning()
      if (!quiet && skipped !== undefined) note(skipped)
      rules = dir
    } else rules = openBundle(readBundle(bundlePath!), bundlePath!)
    if (!quiet && budget.warning !== undefined) note(budget.warning)
    tally = new HostTally(rules, { warn: quiet ? undefined : note, missing: missingAllowed ? 'allow' : 'disallow', heapBound: budget.warning !== undefined })
    const t = tally
    const who = crawlerLists === undefined ? { agent } : { crawlers: crawlerLists }
    const warmUp = worthWarmingUp(inputs.map((i) => i.size))
    if (warmUp) warmUpHostPath(who)
    judge = new HostJudge(rules, { who, crawlerCodes, missingAllowed, cacheBytes, onEntry: (e) => t.entry(e), missing: t.missing })
    spec = { kind: 'hosts', rules: rules.descriptor(), missingAllowed, cacheBytes, warmUp }
  }

  const writer = new BlockWriter(process.stdout)
  const output = { mode, format, layout, loop: { wholeLines: layout.url === 0, invalid }, crawlers, require }
  const emitter = new LineEmitter(writer, mode, format, lineBuffered, recordCrawlers(output, judge))
  const totals = new FilterTotals()
  const stats = totals.stats
  // The first line without a URL (or host) is named at once, so a misread log is seen early.
  if (!quiet) totals.onFirstFault = (sample) => note(faultNote(sample, layout, policyWords(invalid)))
  const loop = output.loop
  const inline = new InlineRunner(judge, emitter, writer, totals, layout, tally, perHost, loop)
  const runner: BlockRunner =
    threads > 1
      ? new ParallelRunner({ rules: spec, agent, crawlers, require, mode, format, layout, loop, hashKey: UrlScan.hashKey() }, threads, inline, writer, totals, tally, new URL('./filter-worker.js', import.meta.url))
      : inline
  const jsonl = format === 'jsonl'
  const several = inputs.length > 1
  const counter: ByteCounter = { bytes: 0 }
  const sizes = inputs.map((i) => i.size)
  const total = sizes.every((s) => s !== undefined) ? sizes.reduce((a, b) => a! + b!, 0) : undefined
  const progress = progressWanted(processProgressContext(quiet)) ? new ProgressBar(process.stderr, total, escapesAllowed(process.env)) : undefined
  const started = performance.now()
  // A ROBOTS URL's lines are located once more here, for their origin, before a block may leave for a worker;
  // so are the lines that may hold a URL that clients resolve to another path (a ';' only matters in a whole line's URL, without per-host rules;
  // a tab only in a column split at another byte).
  const locator = new LineLocator(layout, perHost)
  const paths = new ClientPaths(quiet)
  const marks = ['/.', '%2e', '%2E', 0x5c, ...(perHost || layout.url > 0 ? [] : [0x3b]), ...(layout.delimiter >= 0 && layout.delimiter !== 9 ? [9] : [])]

  try {
    for (let i = 0; i < inputs.length; i++) {
      const reader = await openInput(inputs[i], counter)
      try {
        const terminateLast = i < inputs.length - 1
        // JSON records carry their line numbers: the lines of each block are counted before it is handed out.
        let firstLine = 1
        for await (const block of lineBlocks(reader, inputs[i].name, blockSizeFromEnv(), undefined, { lineBuffered, allocate: runner.allocate })) {
          const source: BlockSource = { input: inputs[i].name, place: { firstLine, input: several ? inputs[i].name : undefined } }
          if (jsonl) firstLine += countLines(block.bytes)
          if (scope !== undefined) seeBlockOrigins(block.bytes, locator, scope)
          seeBlockPaths(block.bytes, locator, paths, marks)
          await runner.submit(block, terminateLast, source)
          progress?.update(counter.bytes, stats.lines)
          if (stats.stopped) break
        }
      } finally {
        await reader.close()
      }
      if (stats.stopped) break
    }
  } catch (err) {
    // What was judged before the failure is written out first: nothing read is lost.
    await runner.finish().catch(() => {})
    await writer.end()
    progress?.done()
    throw err
  }
  await runner.finish()
  await writer.end()
  progress?.done()
  const expired = bundlePath === undefined ? undefined : tally?.expiredWarning(bundlePath)
  if (!quiet && expired !== undefined) note(expired)
  const crawlersSummary = crawlers === undefined ? undefined : { names: crawlers.map((c) => c.name), require: require!, print: mode }
  if (!quiet) note(summaryLine(stats, (performance.now() - started) / 1000, invalid, tally?.summary() ?? scope?.clause(), crawlersSummary) + paths.tail())
  const sample = totals.firstFault
  if (stats.stopped && sample !== undefined) {
    throw new CliError('ERR_NO_URL', `stopped at line ${sample.line} of '${printable(sample.input)}' (--invalid fail): ${faultWords(sample.fault, layout, sample.detail)}: ${printable(sample.text)}`, EXIT_NO_URL)
  }
  if (stats.lines > 0 && stats.allowed + stats.disallowed === 0) throw new CliError('ERR_NO_URL', noUrlMessage(stats.lines, perHost, sample, layout, !quiet), EXIT_NO_URL)
  // Every line is written; an entry that could not be read still fails the run.
  const unreadable = tally?.unreadableError()
  if (unreadable !== undefined) throw unreadable
  return 0
}
