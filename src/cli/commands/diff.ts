/**
 * `robots-automaton diff OLD NEW --agent A [FILE...]`: the URLs whose verdict
 * changes between two versions of a robots.txt, with the deciding rule on
 * each side (`now-disallowed|now-allowed<TAB>URL<TAB>OLD RULE<TAB>NEW RULE`,
 * or JSON lines); per host with two `--robots-dir` or `--bundle` sources
 * (diff-sides.ts). URLs are read as `filter` reads them. Exit 0 when no
 * verdict changes, 3 when some do, 4 when no line held a URL
 * (docs/diff.md).
 */
import { cacheBudget, type CacheBytes } from '../common/heap-room.js'
import { isUtf8 } from 'node:buffer'
import { COMMON_OPTIONS, helpOrVersion, flag, parseArgs, type OptionSpec } from '../common/args.js'
import { AGENT_OPTION, agentWarnings } from '../common/agent-option.js'
import { CRAWLERS_OPTION, crawlerTokens, crawlerWarnings, judgedOf } from '../common/crawlers-option.js'
import { crawlerList, type HostCrawlers } from '../hosts/host-rules.js'
import { BlockWriter } from '../common/block-writer.js'
import { loadedBodyWarning } from '../common/body-problems.js'
import { jsonLine, printableValue } from '../../tools/printable.js'
import { inputText, printableBytes } from '../../tools/input-text.js'
import { formatOption, outputFormat } from '../common/output-format.js'
import { INPUT_OPTIONS, lineLayout } from '../filter/line-layout.js'
import { LineFault, LineLocator } from '../filter/line-locator.js'
import { EXIT_NO_URL, faultNote, faultSample, noUrlMessage, warnedFault, type FaultSample } from '../filter/line-faults.js'
import { DIFF_HELP } from './diff-help.js'
import { refuseOutputAsInput, resolveInputs } from '../filter/input.js'
import { forEachInputLine } from '../filter/input-lines.js'
import { checkRobotsSource, loadRobots, refuseUnusedUrlOptions, robotsFetching, ROBOTS_URL_OPTIONS, type LoadedRobots } from '../common/load-robots.js'
import { count, plural } from '../common/numbers.js'
import { isStdin, note, verdictFound } from '../common/stdio.js'
import { openBundle, readBundle } from '../hosts/bundle-rules.js'
import { DEFAULT_CACHE_MB } from '../filter/host-judge.js'
import { HostTally } from '../hosts/host-tally.js'
import { DirectoryRules } from '../hosts/robots-dir.js'
import { FileSide, HostSide, type DiffSide } from './diff-sides.js'
import { CliError, UsageError } from '../common/cli-error.js'
import { OriginScope } from '../common/robots-origin.js'
import { ClientPaths } from '../common/client-path.js'

/** The options `diff` accepts (its help, diff-help.ts, names each of them). */
export const DIFF_OPTIONS: readonly OptionSpec[] = [
  AGENT_OPTION,
  CRAWLERS_OPTION,
  formatOption(true),
  { name: 'robots-dir', value: true, multiple: true },
  { name: 'bundle', value: true, multiple: true },
  ...INPUT_OPTIONS,
  ...ROBOTS_URL_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Exit status when some verdict changes (as `check --exit-code` uses 3 for a disallowed URL). */
export const EXIT_CHANGED = 3

function warnProblem(loaded: LoadedRobots, who: HostCrawlers): void {
  if (loaded.fetchNote !== undefined) note(`${loaded.name}: ${loaded.fetchNote}`)
  const warning = loadedBodyWarning(loaded, crawlerList(who))
  if (warning !== undefined) note(warning)
}

/** The per-host sources in command-line order (`--robots-dir DIR`, `--bundle FILE`, also as `--x=V`): OLD, then NEW. */
function hostSources(argv: readonly string[]): { kind: 'dir' | 'bundle'; path: string }[] {
  const out: { kind: 'dir' | 'bundle'; path: string }[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') break
    for (const [name, kind] of [['--robots-dir', 'dir'], ['--bundle', 'bundle']] as const) {
      if (a === name && i + 1 < argv.length) out.push({ kind, path: argv[++i] })
      else if (a.startsWith(`${name}=`)) out.push({ kind, path: a.slice(name.length + 1) })
    }
  }
  return out
}

/** Runs `diff` with the arguments after the command name; resolves to the exit code. */
export async function runDiff(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, DIFF_OPTIONS)
  if (helpOrVersion(args, DIFF_HELP)) return 0
  const judged = judgedOf(args)
  const crawlers = judged.kind === 'crawlers' ? judged.crawlers : undefined
  const who: HostCrawlers = judged.kind === 'agent' ? { agent: judged.tokens } : { crawlers: crawlerTokens(judged.crawlers) }
  const perHost = hostSources(argv)
  const jsonl = outputFormat(args) === 'jsonl'
  const layout = lineLayout(args)
  const quiet = flag(args, 'quiet')
  let files: readonly string[]
  let sides: [DiffSide, DiffSide]
  // Each side's tally: an entry either side could not read fails the run.
  let tallies: HostTally[] = []
  if (perHost.length > 0) {
    if (perHost.length !== 2) throw new UsageError(`per-host rules need two sources, OLD then NEW ('--robots-dir' or '--bundle', twice; got ${perHost.length})`)
    files = args.positionals
    if (files.filter(isStdin).length > 1) throw new UsageError(`stdin ('-') is named more than once`)
  } else {
    const [oldSource, newSource, ...rest] = args.positionals
    if (oldSource === undefined || newSource === undefined) throw new UsageError('needs OLD and NEW (each a file, - or an http(s) URL), or two --robots-dir/--bundle sources')
    checkRobotsSource(oldSource)
    checkRobotsSource(newSource)
    files = rest
    const stdinRobots = [oldSource, newSource].filter(isStdin).length
    if (stdinRobots > 1) throw new UsageError(`only one of OLD and NEW can be stdin ('-')`)
    const stdinFiles = files.filter(isStdin).length
    if (stdinFiles > 1 || (stdinRobots > 0 && (files.length === 0 || stdinFiles > 0))) {
      throw new UsageError(stdinFiles > 1 ? `stdin ('-') is named more than once` : `a robots.txt read from stdin ('-') means the URLs must come from FILE arguments`)
    }
  }
  const inputs = await resolveInputs(files)
  refuseOutputAsInput(inputs)
  if (!quiet) {
    for (const w of judged.kind === 'agent' ? agentWarnings(judged.tokens) : crawlerWarnings(judged.crawlers)) note(w)
  }
  if (perHost.length === 2) {
    refuseUnusedUrlOptions(args, [])
    // One thread holds both sides' caches: together, fitted to its heap (a cache past it would crash, not evict).
    const budget = cacheBudget(DEFAULT_CACHE_MB * 2 ** 20, 1, `the cache of compiled rules (${DEFAULT_CACHE_MB} MiB)`)
    if (!quiet && budget.warning !== undefined) note(budget.warning)
    const cacheBytes = Math.floor(budget.perThread / 2) as CacheBytes
    const opened = perHost.map((p) => {
      if (p.kind !== 'dir') return openBundle(readBundle(p.path), p.path)
      const dir = DirectoryRules.open(p.path)
      const skipped = dir.skippedWarning()
      if (!quiet && skipped !== undefined) note(skipped)
      return dir
    })
    // Each side warns about its own files and has its part of the summary.
    tallies = opened.map((rules) => new HostTally(rules, { warn: quiet ? undefined : note, missing: 'allow', heapBound: budget.warning !== undefined }))
    sides = [new HostSide(opened[0], who, cacheBytes, tallies[0]), new HostSide(opened[1], who, cacheBytes, tallies[1])]
  } else {
    const [oldSource, newSource] = args.positionals
    const fetching = robotsFetching(args, [oldSource, newSource])
    const oldRobots = await loadRobots(oldSource, fetching)
    const newRobots = await loadRobots(newSource, fetching)
    if (!quiet) {
      warnProblem(oldRobots, who)
      warnProblem(newRobots, who)
    }
    sides = [new FileSide(oldRobots, who), new FileSide(newRobots, who)]
  }
  const [before, after] = sides
  const out = new BlockWriter(process.stdout)
  const locator = new LineLocator(layout, perHost.length > 0)
  // Two ROBOTS URLs of one site (or one URL and a file): the URLs judged should be that site's.
  const scope = perHost.length === 2 ? undefined : OriginScope.of(args.positionals.slice(0, 2), quiet ? undefined : note, 'diff --robots-dir or --bundle judges each URL by its own site')
  if (layout.hostName !== undefined) scope?.seeHost(layout.hostName)
  const paths = new ClientPaths(quiet)
  let lines = 0
  let compared = 0
  let withoutUrl = 0
  /** Log lines whose request is "-": counted apart, never warned about. */
  let emptyRequests = 0
  let nowAllowed = 0
  let nowDisallowed = 0
  let sample: FaultSample | undefined
  // --crawlers: each crawler's verdict on each side, and its changes.
  const k = crawlers?.length ?? 0
  const olds = new Int32Array(k)
  const news = new Int32Array(k)
  const changedTo = { allowed: new Float64Array(k), disallowed: new Float64Array(k) }
  let urlsChanged = 0
  await forEachInputLine(
    inputs,
    locator,
    (bytes, lineStart, lineEnd, fault, lineNumber, input) => {
      lines++
      if (fault !== LineFault.None) {
        if (fault === LineFault.EmptyRequest) emptyRequests++
        else withoutUrl++
        if (sample === undefined && warnedFault(fault)) {
          sample = faultSample(fault, input.name, lineNumber, bytes, lineStart, lineEnd, locator)
          if (!quiet) note(faultNote(sample, layout, 'such lines are not compared'))
        }
        return
      }
      compared++
      const shown = inputText(locator.shownUrl(bytes))
      if (scope !== undefined) {
        const column = locator.hostColumn()
        if (column !== undefined) scope.seeColumn(inputText(column))
        else scope.see(shown, locator.target)
      }
      paths.see(shown, locator.target)
      if (crawlers !== undefined) {
        before.judgeEach(bytes, locator, olds)
        after.judgeEach(bytes, locator, news)
        let changed = false
        for (let c = 0; c < k; c++) changed ||= (olds[c] & 1) !== (news[c] & 1)
        if (!changed) return
        urlsChanged++
        verdictFound(EXIT_CHANGED)
        const url = locator.shownUrl(bytes)
        const text = inputText(url)
        const each: Record<string, unknown> = {}
        for (let c = 0; c < k; c++) {
          const moved = (olds[c] & 1) !== (news[c] & 1)
          const change = !moved ? null : news[c] & 1 ? 'now-allowed' : 'now-disallowed'
          if (moved) changedTo[news[c] & 1 ? 'allowed' : 'disallowed'][c]++
          if (jsonl) Object.defineProperty(each, crawlers[c].name, { value: { change, old: before.jsonOf(c, olds[c]), new: after.jsonOf(c, news[c]) }, enumerable: true, writable: true, configurable: true })
          else if (moved) out.text(`${change}\t${printableValue(crawlers[c].name)}\t${printableBytes(url)}\t${printableValue(before.textOf(c))}\t${printableValue(after.textOf(c))}\n`)
        }
        if (jsonl) {
          const record: Record<string, unknown> = { url: text }
          if (!isUtf8(url)) record.url_base64 = Buffer.from(url.buffer, url.byteOffset, url.length).toString('base64')
          record.crawlers = each
          if (inputs.length > 1) record.input = input.name
          record.input_line = lineNumber
          if (perHost.length > 0) record.host = locator.hostText()
          out.text(`${jsonLine(record)}\n`)
        }
        return
      }
      const a = before.judge(bytes, locator)
      const b = after.judge(bytes, locator)
      if ((a & 1) === (b & 1)) return
      const url = locator.shownUrl(bytes)
      const change = b & 1 ? 'now-allowed' : 'now-disallowed'
      if (b & 1) nowAllowed++
      else nowDisallowed++
      verdictFound(EXIT_CHANGED)
      const text = inputText(url)
      if (jsonl) {
        const record: Record<string, unknown> = { url: text }
        if (!isUtf8(url)) record.url_base64 = Buffer.from(url.buffer, url.byteOffset, url.length).toString('base64')
        Object.assign(record, { change, old: before.json(a), new: after.json(b) })
        if (inputs.length > 1) record.input = input.name
        record.input_line = lineNumber
        if (perHost.length > 0) record.host = locator.hostText()
        out.text(`${jsonLine(record)}\n`)
      } else out.text(`${change}\t${printableBytes(url)}\t${printableValue(before.text())}\t${printableValue(after.text())}\n`)
    },
    async (pause) => {
      if (pause) out.flush()
      await out.drain()
    },
  )
  await out.end()
  if (crawlers !== undefined) {
    if (!quiet) {
      let without = withoutUrl > 0 ? `; ${count(withoutUrl)} without a URL${perHost.length > 0 ? ' or host' : ''}, not compared` : ''
      if (emptyRequests > 0) without += `; ${count(emptyRequests)} with no request ("-"), not compared`
      const hosts = sidesSummary(tallies)
      const each = crawlers.map((c, i) => `${c.name} ${count(changedTo.disallowed[i])}/${count(changedTo.allowed[i])}`).join(', ')
      note(`${plural(compared, 'URL')} compared${scope?.summary() ?? ''}: ${count(urlsChanged)} with a verdict that changes for some crawler; now disallowed/now allowed per crawler: ${each}${without}${hosts}${paths.tail()}`)
    }
    failIfUnreadable(tallies)
    if (urlsChanged > 0) return EXIT_CHANGED
    if (lines > 0 && compared === 0) throw new CliError('ERR_NO_URL', noUrlMessage(lines, perHost.length > 0, sample, layout, !quiet), EXIT_NO_URL)
    return 0
  }
  if (!quiet) {
    const unchanged = compared - nowAllowed - nowDisallowed
    let without = withoutUrl > 0 ? `; ${count(withoutUrl)} without a URL${perHost.length > 0 ? ' or host' : ''}, not compared` : ''
    if (emptyRequests > 0) without += `; ${count(emptyRequests)} with no request ("-"), not compared`
    const hosts = sidesSummary(tallies)
    note(`${plural(compared, 'URL')} compared${scope?.summary() ?? ''}: ${count(nowDisallowed)} now disallowed, ${count(nowAllowed)} now allowed, ${count(unchanged)} unchanged${without}${hosts}${paths.tail()}`)
  }
  failIfUnreadable(tallies)
  if (nowAllowed + nowDisallowed > 0) return EXIT_CHANGED
  if (lines > 0 && compared === 0) throw new CliError('ERR_NO_URL', noUrlMessage(lines, perHost.length > 0, sample, layout, !quiet), EXIT_NO_URL)
  return 0
}

/** Each side's hosts for the summary line: `; old hosts: …; new hosts: …` ('' without per-host rules). */
function sidesSummary(tallies: readonly HostTally[]): string {
  return tallies.map((t, i) => `; ${i === 0 ? 'old' : 'new'} ${t.summary()}`).join('')
}

/** Ends the run with exit 1 when either side used an entry it could not read (a comparison of it would not be the site's). */
function failIfUnreadable(tallies: readonly HostTally[]): void {
  for (const t of tallies) {
    const err = t.unreadableError()
    if (err !== undefined) throw err
  }
}
