/**
 * `robots-automaton audit SNAPSHOT --crawlers LIST`: for each host of a
 * bundle, a directory of robots.txt files or a list fetched on the fly
 * (`--fetch`), and each crawler, whether it may fetch everything, some
 * paths or nothing (docs/audit.md defines the classes), by a group naming
 * it or by `*`, and the host's fetch outcome; a row each (CSV or JSON
 * lines) and a summary table per crawler. `audit OLD NEW`: the hosts whose
 * class changed, per crawler. The manual: docs/audit.md.
 */
import { setMaxListeners } from 'node:events'
import { COMMON_OPTIONS, flag, helpOrVersion, intOption, optionValue, optionValues, parseArgs, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { BlockWriter } from '../common/block-writer.js'
import { allowsEverything, BODY_PROBLEMS, bodyProblem, bodyWarning, PROBLEM_WORDS, type BodyProblem } from '../common/body-problems.js'
import { DEFAULT_MAX_WARNINGS } from '../hosts/host-tally.js'
import { CRAWLERS_OPTION, crawlerTokens, crawlerWarnings, parseCrawlers, type CrawlerSpec } from '../common/crawlers-option.js'
import { netTransport } from '../common/net-options.js'
import { count, plural } from '../common/numbers.js'
import { checkOutput, willWrite, writeOutput } from '../common/output-file.js'
import { checkOutputsApart, outputFile } from '../common/output-clash.js'
import { printable } from '../../tools/printable.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted } from '../common/progress.js'
import { note } from '../common/stdio.js'
import { descriptorLimit, fittingConcurrency } from '../fetch/descriptors.js'
import { DEFAULT_CONCURRENCY, DEFAULT_PER_IP, NoProgressError } from '../fetch/fetch-pool.js'
import { resolveInputs } from '../filter/input.js'
import { INPUT_OPTIONS, WHOLE_LINES } from '../filter/line-layout.js'
import { originListLayout } from '../fetch/origin-input.js'
import { EXIT_NO_URL, faultNote, noUrlMessage } from '../filter/line-faults.js'
import { fetchSnapshot, readFetchList } from '../audit/fetch-snapshot.js'
import { EXIT_CHANGED, writeChanges, writeRows } from '../audit/rows.js'
import { DirSnapshot, openSnapshot, type HostRecord, type Snapshot } from '../audit/snapshot.js'
import { AUDIT_HELP } from './audit-help.js'
import { FETCH_OPTIONS, giveUpMs, journalPathOf, LATER_IDENTITY_KEYS, MAX_CONCURRENCY, runIdentity, timeoutMs, userAgentOption } from './fetch.js'
import { Journal } from '../fetch/journal.js'
import { leftOutError } from '../fetch/fetch-tally.js'
import { commandLine, Interrupt } from '../common/interrupt.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options of `fetch` that `audit --fetch` takes too. */
const FETCHING = ['journal', 'concurrency', 'per-ip', 'timeout', 'give-up-after', 'user-agent', 'allow-private', 'resolve', 'connect-to', 'dns-server', 'scheme']

/** The options `audit` accepts (its help, audit-help.ts, names each of them). */
export const AUDIT_OPTIONS: readonly OptionSpec[] = [
  { ...CRAWLERS_OPTION },
  { name: 'format', value: true, choices: ['csv', 'jsonl', 'table', 'text'] },
  { name: 'robots-dir', value: true, multiple: true },
  { name: 'bundle', value: true, multiple: true },
  { name: 'fetch', value: false },
  { name: 'save', value: true },
  // How --fetch fetches: fetch's own options of these names.
  ...FETCH_OPTIONS.filter((o) => FETCHING.includes(o.name)),
  ...INPUT_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

export { EXIT_CHANGED }

/** The snapshots named by `--robots-dir` and `--bundle` (in command-line order) and positionals (a directory or a bundle file each). */
function snapshotPaths(argv: readonly string[], args: ParsedArgs): { path: string; kind?: 'dir' | 'bundle' }[] {
  const out: { path: string; kind?: 'dir' | 'bundle' }[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') break
    for (const [name, kind] of [['--robots-dir', 'dir'], ['--bundle', 'bundle']] as const) {
      if (a === name && i + 1 < argv.length) out.push({ path: argv[++i], kind })
      else if (a.startsWith(`${name}=`)) out.push({ path: a.slice(name.length + 1), kind })
    }
  }
  if (flag(args, 'fetch')) return out
  for (const p of args.positionals) out.push({ path: p })
  return out
}


/** Runs `audit` with the arguments after the command name; resolves to the exit code. */
export async function runAudit(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, AUDIT_OPTIONS)
  if (helpOrVersion(args, AUDIT_HELP)) return 0
  const lists = optionValues(args, 'crawlers')
  if (lists.length === 0) throw new UsageError(`option '--crawlers' is required (crawlers separated by ',', 'A+B' for one crawler of two tokens, or @FILE)`)
  const crawlers = parseCrawlers(lists)
  const formatGiven = optionValue(args, 'format')
  const format = formatGiven === 'text' ? 'table' : ((formatGiven ?? 'csv') as 'csv' | 'jsonl' | 'table')
  const quiet = flag(args, 'quiet')
  const fetching = flag(args, 'fetch')
  const paths = snapshotPaths(argv, args)
  const fetchOnly = ['save', ...FETCHING, ...INPUT_OPTIONS.map((o) => o.name)]
  if (!fetching) {
    const stray = fetchOnly.find((name) => args.options.has(name))
    if (stray !== undefined) throw new UsageError(`'--${stray}' applies only with '--fetch'`)
    if (paths.length === 0) throw new UsageError(`needs a SNAPSHOT (a bundle or a directory of robots.txt files), OLD and NEW, or --fetch [FILE...]`)
    if (paths.length > 2) throw new UsageError(`at most two snapshots, OLD and NEW (got ${paths.length})`)
  } else if (paths.length > 1) throw new UsageError(`--fetch makes NEW: give at most one snapshot, OLD, with '--robots-dir' or '--bundle'`)
  if (!quiet) for (const w of crawlerWarnings(crawlers)) note(w)

  const snapshots: Snapshot[] = paths.map((p) => openSnapshot(p.path, p.kind))
  for (const s of snapshots) {
    if (!quiet && s instanceof DirSnapshot && s.skipped.count > 0) {
      const first = s.skipped.names[0]!
      note(`warning: ${s.name}: ${plural(s.skipped.count, 'file')} skipped (e.g. '${printable(first.name)}': ${printable(first.reason)})`)
    }
  }
  let journal: Journal | undefined
  let leftOut: ReadonlyMap<string, number> = new Map()
  if (fetching) {
    const f = await fetched(args, argv, quiet)
    if (f.snapshot === undefined) return f.status
    snapshots.push(f.snapshot)
    journal = f.journal
    leftOut = f.leftOut ?? leftOut
  }
  try {
    const status = await report(snapshots, crawlers, format, quiet)
    // Hosts this machine could not fetch: the audit is not whole; the journal keeps the rest for the same command to fetch them.
    if (leftOut.size > 0) {
      const kept = journal === undefined ? 'nothing was kept (--save BUNDLE or --journal FILE keeps what is fetched)' : `the journal '${journal.path}' keeps what was fetched`
      throw leftOutError(leftOut, 'host', 'left out of the audit', kept, commandLine('audit', argv))
    }
    // The rows are out: what was fetched is no longer needed to go on.
    journal?.remove()
    return status
  } finally {
    journal?.close()
  }
}

/** The rows and summary of one snapshot, or of the changes between two; the exit status. */
async function report(snapshots: readonly Snapshot[], crawlers: readonly CrawlerSpec[], format: 'csv' | 'jsonl' | 'table', quiet: boolean): Promise<number> {
  const out = new BlockWriter(process.stdout)
  const tokens = crawlerTokens(crawlers)
  // A host whose file or bundle entry could not be read: a failure of this machine, never the
  // site's answer, so the run fails (as filter and pack do) once its rows and summary are out.
  let unreadable = 0
  let first = ''
  // A body that is no robots.txt (an HTML page, UTF-16, binary data) is classed as the reference reads it, and said.
  const problems: Record<BodyProblem, number> = { html: 0, utf16: 0, binary: 0, truncated: 0 }
  let shownProblems = 0
  const see = (r: HostRecord): void => {
    if (r.outcome === 'unreadable' && unreadable++ === 0) first = `'${r.key}': ${r.reason}`
    const problem = r.robots === undefined ? undefined : bodyProblem(r.robots)
    // Cut bodies have their own column and summary.
    if (problem === undefined || problem === 'truncated') return
    problems[problem]++
    if (!quiet && shownProblems++ < DEFAULT_MAX_WARNINGS) note(bodyWarning(r.key, problem, r.robots!, allowsEverything(r.robots!, tokens)))
  }
  const check = (): void => {
    const more = BODY_PROBLEMS.map((p) => problems[p]).reduce((a, b) => a + b, 0) - DEFAULT_MAX_WARNINGS
    if (!quiet && more > 0) note(`warning: ${plural(more, 'more host')} whose robots.txt is no robots.txt (${BODY_PROBLEMS.filter((p) => problems[p] > 0).map((p) => `${count(problems[p])} ${PROBLEM_WORDS[p]}`).join(', ')} in all), classed as the reference reads them`)
    checkUnreadable()
  }
  const checkUnreadable = (): void => {
    if (unreadable > 0) throw new CliError('ERR_READ', `${plural(unreadable, 'host')} could not be read (the first, ${first}): class unknown, not the site's answer`)
  }
  if (snapshots.length === 1) {
    const tally = await writeRows(snapshots[0], { crawlers, tokens, format, out, see })
    await out.end()
    if (format === 'table') process.stdout.write(tally.table())
    else if (!quiet) noteTable(`summary of ${snapshots[0].name}:`, tally.table())
    check()
    if (tally.hosts === 0) throw new CliError('ERR_NO_URL', `${snapshots[0].name} holds no host's robots.txt: nothing audited`, EXIT_NO_URL)
    return 0
  }
  const changes = await writeChanges(snapshots[0], snapshots[1], { crawlers, tokens, format, out, see })
  await out.end()
  if (format === 'table') process.stdout.write(changes.table())
  else if (!quiet) noteTable(`classes changed from ${snapshots[0].name} to ${snapshots[1].name}:`, changes.table())
  if (!quiet && changes.notCompared > 0) note(`warning: ${plural(changes.notCompared, 'host')} not compared: the class is unknown on both sides (${changes.notComparedWhy}); no row says so`)
  check()
  if (changes.hosts === 0) throw new CliError('ERR_NO_URL', `neither ${snapshots[0].name} nor ${snapshots[1].name} holds a host's robots.txt: nothing compared`, EXIT_NO_URL)
  return changes.any ? EXIT_CHANGED : 0
}

/** A table on stderr, after its title: a line each (every stderr line has the program's prefix). */
function noteTable(title: string, table: string): void {
  note(title)
  for (const line of table.trimEnd().split('\n')) note(line)
}

/** What `--fetch` gives: the snapshot fetched, or the exit status of a run interrupted first; the journal to remove once the rows are out. */
interface Fetched {
  readonly snapshot?: Snapshot
  readonly status: number
  readonly journal?: Journal
  /** Hosts this machine could not fetch, by code. */
  readonly leftOut?: ReadonlyMap<string, number>
}

/**
 * `--fetch`: the list's hosts fetched into a snapshot (and `--save`d), as
 * `fetch` fetches them. With `--save BUNDLE` (or `--journal FILE`) each host
 * fetched goes to a journal (`BUNDLE.journal`) as `fetch` keeps one, so
 * that the same command run again after a kill or an interrupt fetches only
 * the hosts it lacks. An interrupted run audits nothing.
 */
async function fetched(args: ParsedArgs, argv: readonly string[], quiet: boolean): Promise<Fetched> {
  const files = args.positionals
  if (files.filter((f) => f === '-').length > 1) throw new UsageError(`stdin ('-') is named more than once`)
  const layout = originListLayout(args)
  const requested = intOption(args, 'concurrency', 1, MAX_CONCURRENCY, DEFAULT_CONCURRENCY)
  const perIp = intOption(args, 'per-ip', 1, MAX_CONCURRENCY, DEFAULT_PER_IP)
  const timeout = timeoutMs(args)
  const stallMs = giveUpMs(args, timeout)
  const userAgent = userAgentOption(args)
  const scheme = (optionValue(args, 'scheme') ?? 'https') as 'http' | 'https'
  const savePath = optionValue(args, 'save')
  if (savePath === '-') throw new UsageError(`'--save' needs a file: stdout holds the rows`)
  // The bundle's path and the journal's are checked before anything is read or fetched.
  const save = savePath === undefined ? undefined : willWrite(checkOutput(savePath, 'bundle'))
  const journalPath = journalPathOf(optionValue(args, 'journal'), save)
  // The snapshot OLD is read whole first: --save may replace it with NEW.
  checkOutputsApart(
    [{ option: '--save', file: outputFile(save) }, { option: '--journal', file: journalPath }],
    [...snapshotPaths(argv, args).map((p) => ({ what: 'snapshot', path: p.path, replacedBy: '--save' })), ...files.map((path) => ({ what: 'input file', path }))],
  )

  const list = await readFetchList(await resolveInputs(files), layout, scheme)
  if (!quiet && list.faulty > 0) {
    // The first such line named with why, as fetch names it.
    const skipped = `${plural(list.faulty, 'line')} of the list without a host or URL skipped`
    note(list.firstFault === undefined ? `warning: ${skipped}` : faultNote(list.firstFault, layout ?? WHOLE_LINES, skipped))
  }
  if (!quiet && list.unusable > 0) note(list.unusableNote)
  if (!quiet && list.conflicts > 0) note(list.conflictNote)
  if (list.origins.size === 0) throw new CliError('ERR_NO_URL', list.lines === 0 ? 'the list is empty (0 lines read): no host to fetch, nothing audited' : noUrlMessage(list.lines, true, list.firstFault, layout ?? WHOLE_LINES, false, list.noOriginWhy), EXIT_NO_URL)

  const journal = journalPath === undefined ? undefined : Journal.open(journalPath, runIdentity(args, save, 'audit'), LATER_IDENTITY_KEYS)
  const fit = fittingConcurrency(requested, descriptorLimit())
  if (fit.note !== undefined && !quiet && list.origins.size > fit.concurrency) note(fit.note)
  const transport = netTransport(args, { perAddress: perIp, connectTimeoutMs: timeout })
  const controller = new AbortController()
  // Each fetch in flight listens to the signal: not a leak.
  setMaxListeners(fit.concurrency + 16, controller.signal)
  const interrupt = new Interrupt(controller, () => journal?.close())
  const progress = progressWanted(processProgressContext(quiet)) ? new ProgressBar(process.stderr, list.origins.size, escapesAllowed(process.env), { measure: 'items', items: 'hosts' }) : undefined
  let local = 0
  let result
  try {
    result = await fetchSnapshot(list, {
      concurrency: fit.concurrency,
      transport,
      timeoutMs: timeout,
      stallMs,
      userAgent,
      allowPrivate: flag(args, 'allow-private'),
      signal: controller.signal,
      progress: (done) => progress?.update(done, done),
      local: () => local++,
      journal,
      warn: quiet ? undefined : note,
    })
  } catch (err) {
    journal?.close()
    if (err instanceof NoProgressError) {
      const kept = journal === undefined ? 'nothing was audited' : `nothing was audited; the journal '${journal.path}' keeps the hosts fetched: run the same command again to go on once this machine can`
      throw new CliError('ERR_LOCAL', `${err.message}; ${kept} (--concurrency, ulimit -n)`)
    }
    throw err
  } finally {
    interrupt.release()
    progress?.done()
    transport.close()
  }
  const { store, snapshot } = result
  if (!quiet && local > 0) note(`${plural(local, 'failure')} of this machine retried (not the sites' outcomes)`)
  if (!quiet && result.resumed > 0) note(`${plural(result.resumed, 'host')} taken from the journal '${journal!.path}', not fetched again`)
  if (interrupt.signal !== undefined) {
    journal?.close()
    if (!quiet) {
      note(`interrupted: ${count(list.origins.size - result.missing)} of ${plural(list.origins.size, 'host')} fetched; nothing audited`)
      if (journal !== undefined) note(`the journal '${journal.path}' keeps what was fetched: run the same command again to fetch the rest: ${commandLine('audit', argv)}`)
      else note(`to go on later, run it with --save BUNDLE or --journal FILE: ${commandLine('audit', argv)} --journal FILE`)
    }
    return { status: interrupt.status }
  }
  if (save !== undefined) {
    await writeOutput(save, store.toBytes())
    if (!quiet) note(`wrote ${savePath}: ${count(store.size)} ${store.size === 1 ? 'entry' : 'entries'}`)
  }
  return { snapshot, status: 0, journal, leftOut: result.leftOut }
}
