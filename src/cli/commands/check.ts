/**
 * `robots-automaton check ROBOTS --agent A [--agent B…] [URL…]`: one line per
 * URL with the verdict and the rule that decided it (`--format jsonl`, alias
 * `--json`: one JSON object per line). The URLs come from the arguments, or from stdin (one per
 * line, LF or CRLF, gzip or not) when none is given or where one is `-`.
 * `--exit-code` makes the verdict the exit status (0 all allowed, 3 some
 * disallowed, 4 no URL checked), for harnesses that read outcomes from exit codes.
 */
import { isUtf8 } from 'node:buffer'
import { ruleText, type AgentMatcher, type CrawlerSet } from '../../index.js'
import { COMMON_OPTIONS, helpOrVersion, flag, parseArgs, type OptionSpec } from '../common/args.js'
import { AGENT_OPTION, agentWarnings } from '../common/agent-option.js'
import { CRAWLERS_OPTION, crawlerTokens, crawlerWarnings, judgedOf, REQUIRE_OPTION, type CrawlerSpec, type Require } from '../common/crawlers-option.js'
import { BlockWriter } from '../common/block-writer.js'
import { loadedBodyWarning } from '../common/body-problems.js'
import { jsonLine, printableValue } from '../../tools/printable.js'
import { inputText, printableBytes } from '../../tools/input-text.js'
import { CHECK_HELP } from './check-help.js'
import { formatOption, JSON_OPTION, outputFormat } from '../common/output-format.js'
import { refuseOutputAsInput, resolveInputs } from '../filter/input.js'
import { forEachInputLine } from '../filter/input-lines.js'
import { WHOLE_LINES } from '../filter/line-layout.js'
import { LineFault, LineLocator } from '../filter/line-locator.js'
import { checkRobotsSource, loadRobots, robotsFetching, ROBOTS_URL_OPTIONS } from '../common/load-robots.js'
import { ruleJson } from '../common/rule-text.js'
import { count, plural } from '../common/numbers.js'
import { isStdin, note, verdictFound } from '../common/stdio.js'
import { CliError, UsageError } from '../common/cli-error.js'
import { EXIT_NO_URL, sampleText } from '../filter/line-faults.js'
import { fittingFormat } from '../filter/log-line.js'
import { OriginScope } from '../common/robots-origin.js'
import { ClientPaths } from '../common/client-path.js'

/** The options `check` accepts (its help, check-help.ts, names each of them). */
export const CHECK_OPTIONS: readonly OptionSpec[] = [
  AGENT_OPTION,
  CRAWLERS_OPTION,
  REQUIRE_OPTION,
  formatOption(),
  JSON_OPTION,
  { name: 'exit-code', value: false },
  ...ROBOTS_URL_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/**
 * Exit status of `check --exit-code` when at least one URL is disallowed. Not
 * 1 or 2, which keep their meaning (runtime failure, usage error), so that a
 * harness never reads a failure as a verdict.
 */
export const EXIT_DISALLOWED = 3

/** `--crawlers`: the set, its crawlers, how their verdicts combine, and each one's allowed count. */
interface CheckCrawlers {
  readonly set: CrawlerSet
  readonly specs: readonly CrawlerSpec[]
  readonly require: Require
  readonly allowed: number[]
}

/** Judges URLs and writes one line each; counts them. */
class Checker {
  checked = 0
  allowed = 0
  /** Empty lines of stdin: judged (the reference judges any string), and said so. */
  emptyLines = 0
  /** Lines of stdin holding a CR that ends no line (an input whose lines end with CR alone): judged whole, and said so. */
  crLines = 0
  /** URLs that are neither a path nor an http(s) URL with a host (a log line, `example.com/x`): judged as the reference reads them, and said so. */
  notUrls = 0

  constructor(
    private readonly matcher: AgentMatcher,
    /** The rules stand for an unreachable robots.txt: every rule is implied. */
    private readonly unreachable: boolean,
    private readonly out: BlockWriter,
    private readonly json: boolean,
    private readonly crawlers?: CheckCrawlers,
    /** `--exit-code`: the status of a disallowed URL, kept for a stdout closed early. */
    private readonly disallowedStatus?: number,
    private readonly quiet = false,
    /** For a ROBOTS URL: the URLs of other origins, counted. */
    private readonly scope?: OriginScope,
    /** The URLs that clients resolve to another path, counted. */
    private readonly paths?: ClientPaths,
  ) {}

  /**
   * `--crawlers`: one line per crawler (`allowed<TAB>CRAWLER<TAB>URL<TAB>RULE`),
   * or one JSON object per URL whose `crawlers` holds each one's verdict,
   * line and rule; the URL counts as allowed by `--require`.
   */
  private urlForCrawlers(c: CheckCrawlers, url: string | Uint8Array, text: string, shown: string): void {
    const each = c.set.explain(url)
    let all = true
    let any = false
    each.forEach((e, k) => {
      all &&= e.allowed
      any ||= e.allowed
      if (e.allowed) c.allowed[k]++
    })
    const allowed = c.require === 'all' ? all : any
    this.checked++
    if (allowed) this.allowed++
    else if (this.disallowedStatus !== undefined) verdictFound(this.disallowedStatus)
    if (this.json) {
      const record: Record<string, unknown> = { url: text }
      if (typeof url !== 'string' && !isUtf8(url)) record.url_base64 = Buffer.from(url.buffer, url.byteOffset, url.length).toString('base64')
      record.allowed = allowed
      const crawlers: Record<string, unknown> = {}
      each.forEach((e, k) => {
        const rule = ruleJson(c.set.matcher(k), e.rule, this.unreachable)
        const value = { allowed: e.allowed, line: rule === null ? 0 : rule.line, rule }
        Object.defineProperty(crawlers, c.specs[k].name, { value, enumerable: true, writable: true, configurable: true })
      })
      record.crawlers = crawlers
      this.out.text(`${jsonLine(record)}\n`)
      return
    }
    each.forEach((e, k) => {
      const rule = ruleText(c.set.matcher(k), e.rule, this.unreachable).text
      this.out.text(`${e.allowed ? 'allowed' : 'disallowed'}\t${printableValue(c.specs[k].name)}\t${shown}\t${printableValue(rule)}\n`)
    })
  }

  /**
   * Counts a URL (`where`: `line N of stdin`, or the argument) that `filter`
   * would not judge, neither a path nor an http(s) URL with a host: the
   * reference reads any string, its path from the first `/`, `?` or `;`, so it
   * is judged, but the first is warned about (a log's line names the format
   * `filter` reads it by).
   */
  notUrl(where: string, bytes: Uint8Array, line: boolean): void {
    if (this.notUrls++ > 0 || this.quiet) return
    const fits = fittingFormat(bytes, 0, bytes.length)
    const hint = fits !== undefined ? `; it is a log line: filter --log-format ${fits} judges a log's requests` : ''
    const shown = line ? `: ${printableValue(sampleText(bytes, 0, bytes.length))};` : ':'
    note(`warning: ${where} is neither a path (/…) nor an http(s) URL with a host${shown} judged as the reference reads any string, its path from the first '/', '?' or ';'${hint}`)
  }

  /** Judges one URL, given as a string (an argument) or as the bytes of a line. */
  url(url: string | Uint8Array): void {
    const text = typeof url === 'string' ? url : inputText(url)
    // The URL as printed: lossless, a byte that is not UTF-8 as `\xHH` rather than U+FFFD.
    const shown = this.json ? '' : typeof url === 'string' ? printableValue(url) : printableBytes(url)
    this.scope?.see(text)
    this.paths?.see(text)
    if (this.crawlers !== undefined) return this.urlForCrawlers(this.crawlers, url, text, shown)
    const { allowed, rule } = this.matcher.explain(url)
    this.checked++
    if (allowed) this.allowed++
    else if (this.disallowedStatus !== undefined) verdictFound(this.disallowedStatus)
    if (this.json) {
      const record: Record<string, unknown> = { url: text }
      if (typeof url !== 'string' && !isUtf8(url)) record.url_base64 = Buffer.from(url.buffer, url.byteOffset, url.length).toString('base64')
      record.allowed = allowed
      record.rule = ruleJson(this.matcher, rule, this.unreachable)
      this.out.text(`${jsonLine(record)}\n`)
    } else {
      // The URL and the pattern come from input: escaped, so that no control character reaches a terminal.
      this.out.text(`${allowed ? 'allowed' : 'disallowed'}\t${shown}\t${printableValue(ruleText(this.matcher, rule, this.unreachable).text)}\n`)
    }
  }

  /** Judges every line of stdin (as filter reads lines); output is written as the input pauses. */
  async stdin(): Promise<void> {
    // A copy of each URL: the block's buffer is reused once its lines are done. Every line is
    // judged, as the reference judges any string; an empty one (a blank line, a list's last
    // line ending twice) is no URL a user meant, so the first gets a warning and the count says how many.
    await forEachInputLine(
      await resolveInputs(['-']),
      new LineLocator(WHOLE_LINES, false),
      (bytes, start, end, fault, line) => {
        if (start === end && this.emptyLines++ === 0 && !this.quiet) {
          note(`warning: line ${count(line)} of stdin is empty: judged as the empty URL (the reference reads it as the path /), as every empty line is`)
        }
        if (fault === LineFault.CarriageReturn && this.crLines++ === 0 && !this.quiet) {
          note(`warning: line ${count(line)} of stdin holds a CR that ends no line: judged whole, as one URL (lines that end with CR alone? convert them: tr '\\r' '\\n')`)
        }
        const url = bytes.slice(start, end)
        if (fault === LineFault.NotUrl) this.notUrl(`line ${count(line)} of stdin`, url, true)
        this.url(url)
      },
      async (pause) => {
        if (pause) this.out.flush()
        await this.out.drain()
      },
    )
  }
}

/** Runs `check` with the arguments after the command name; resolves to the exit code. */
export async function runCheck(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, CHECK_OPTIONS)
  if (helpOrVersion(args, CHECK_HELP)) return 0
  const judged = judgedOf(args)
  const [source, ...urls] = args.positionals
  if (source === undefined) throw new UsageError('missing ROBOTS (a file, - or an http(s) URL)')
  checkRobotsSource(source)
  const stdinUrls = urls.length === 0 ? 1 : urls.filter(isStdin).length
  if (stdinUrls > 1) throw new UsageError(`stdin ('-') is named more than once`)
  if (stdinUrls > 0 && isStdin(source)) throw new UsageError(`'-' reads the robots.txt from stdin, so the URLs must be arguments`)
  const json = outputFormat(args) === 'jsonl'
  const quiet = flag(args, 'quiet')
  if (!quiet) for (const w of judged.kind === 'agent' ? agentWarnings(judged.tokens) : crawlerWarnings(judged.crawlers)) note(w)
  // Node hands over arguments as UTF-8, a byte that is not as U+FFFD: such a URL is judged as other bytes than were typed.
  const lossy = urls.find((u) => u.includes('\uFFFD'))
  if (!quiet && lossy !== undefined) {
    note(`warning: URL '${lossy}' holds U+FFFD, which stands for bytes that were not UTF-8 if the shell passed such: it is judged as U+FFFD's bytes (EF BF BD); give such URLs on stdin to judge their own bytes`)
  }
  const loaded = await loadRobots(source, robotsFetching(args, [source]))
  if (!quiet) {
    if (loaded.fetchNote !== undefined) note(`${loaded.name}: ${loaded.fetchNote}`)
    const list = judged.kind === 'agent' ? [judged.tokens] : crawlerTokens(judged.crawlers)
    const warning = loadedBodyWarning(loaded, list)
    if (warning !== undefined) note(warning)
  }
  const out = new BlockWriter(process.stdout, 64 * 1024)
  let crawlers: CheckCrawlers | undefined
  let matcher: AgentMatcher
  if (judged.kind === 'crawlers') {
    const set = loaded.robots.crawlers(crawlerTokens(judged.crawlers))
    crawlers = { set, specs: judged.crawlers, require: judged.require, allowed: judged.crawlers.map(() => 0) }
    matcher = set.matcher(0)
  } else matcher = loaded.robots.agents(judged.tokens)
  const scope = OriginScope.of([source], quiet ? undefined : note, 'check each site against its own robots.txt')
  const paths = new ClientPaths(quiet)
  const checker = new Checker(matcher, loaded.fetched === 'unreachable', out, json, crawlers, flag(args, 'exit-code') ? EXIT_DISALLOWED : undefined, quiet, scope, paths)
  // Checked before any URL is written.
  if (urls.length === 0 || urls.includes('-')) refuseOutputAsInput(await resolveInputs(['-']))
  if (urls.length === 0) await checker.stdin()
  const locator = new LineLocator(WHOLE_LINES, false)
  for (const url of urls) {
    if (url === '-') await checker.stdin()
    else {
      const bytes = Buffer.from(url, 'utf8')
      if (locator.locate(bytes, 0, bytes.length) === LineFault.NotUrl) checker.notUrl(`URL '${printableValue(url)}'`, bytes, false)
      checker.url(url)
    }
  }
  await out.end()
  const { checked, allowed, emptyLines, notUrls } = checker
  const empties = (emptyLines === 0 ? '' : ` (${plural(emptyLines, 'empty line')} of stdin among them)`) + (scope?.summary() ?? '')
  const tail = paths.tail() + (notUrls === 0 ? '' : `; ${count(notUrls)} neither a path nor an http(s) URL`)
  if (!quiet && crawlers !== undefined) {
    const each = crawlers.specs.map((c, k) => `${c.name} ${count(crawlers!.allowed[k])}`).join(', ')
    const words = crawlers.require === 'all' ? 'allowed for every crawler' : 'allowed for some crawler'
    note(`${plural(checked, 'URL')} checked${empties}: ${count(allowed)} ${words}, ${count(checked - allowed)} not; allowed per crawler: ${each}${tail}`)
  } else if (!quiet) note(`${plural(checked, 'URL')} checked${empties}: ${count(allowed)} allowed, ${count(checked - allowed)} disallowed${tail}`)
  if (!flag(args, 'exit-code')) return 0
  // No URL judged: "every URL allowed" would be a verdict on nothing.
  if (checked === 0) throw new CliError('ERR_NO_URL', 'no URL was checked (stdin held none): --exit-code has no verdict to give', EXIT_NO_URL)
  return allowed < checked ? EXIT_DISALLOWED : 0
}
