/**
 * Counters of a `filter` run: per block ({@link FilterStats}, counted in any
 * thread), added up in input order in the main thread ({@link FilterTotals},
 * which also numbers the first line without a URL in its input), and the
 * summary line written to stderr at the end.
 */
import { count, megabytes, plural, rate } from '../common/numbers.js'
import type { FaultSample, InvalidPolicy } from './line-faults.js'
import type { LogFormat } from './line-layout.js'
import { LineFault } from './line-locator.js'

/** What one block's judging counted (plain data: worker threads send it back). */
export interface FilterStats {
  /** Lines read. */
  lines: number
  allowed: number
  disallowed: number
  /** Lines without a URL (empty, no such column, no request line, not a URL): not judged. */
  noUrl: number
  /** Lines whose URL is a path without a host, under per-host rules: not judged. */
  noHost: number
  /** Lines whose host (or port) the WHATWG URL parser refuses, under per-host rules: not judged. */
  badHost: number
  /** Log lines whose request is `-` (no request line received): not judged, never warned about. */
  emptyRequest: number
  /** Bytes of lines read (after decompression). */
  bytes: number
  /** The block's first line without a URL or host: its index in the block (from 0), -1 when none; its fault and text. */
  faultIndex: number
  fault: LineFault
  faultText: string
  /** Why its host is refused (a BadHost), else ''. */
  faultDetail: string
  /** The log format it fits, else ''. */
  faultFits: string
  /** What its bytes are when no text a line can be (`FaultSample.encoding`), else ''. */
  faultEncoding: string
  /** How jq takes its URL out when it is a JSON object (`FaultSample.json`), else ''. */
  faultJson: string
  /** `--invalid fail` met a line without a URL: the block's output stops before it. */
  stopped: boolean
  /** `--crawlers`: per crawler, the lines it may fetch (empty otherwise). */
  crawlerAllowed: number[]
}

/** A zeroed `FilterStats`. */
export function newStats(): FilterStats {
  return { lines: 0, allowed: 0, disallowed: 0, noUrl: 0, noHost: 0, badHost: 0, emptyRequest: 0, bytes: 0, faultIndex: -1, fault: LineFault.None, faultText: '', faultDetail: '', faultFits: '', faultEncoding: '', faultJson: '', stopped: false, crawlerAllowed: [] }
}

/**
 * The run's totals, added block by block in input order: counts, the first
 * line without a URL (numbered in its input), and whether `--invalid fail`
 * stopped the run.
 */
export class FilterTotals {
  readonly stats: FilterStats = newStats()
  /** The first line without a URL or host, once met. */
  firstFault: FaultSample | undefined
  /** Called once with the first line without a URL or host (the note on stderr). */
  onFirstFault: ((sample: FaultSample) => void) | undefined
  private input: string | undefined
  private linesInInput = 0

  /** Adds a block's counts; `input` names the input it came from (blocks of one input come one after the other). */
  add(from: FilterStats, input: string): void {
    if (input !== this.input) {
      this.input = input
      this.linesInInput = 0
    }
    if (from.faultIndex >= 0 && this.firstFault === undefined) {
      const sample: FaultSample = { fault: from.fault, input, line: this.linesInInput + from.faultIndex + 1, text: from.faultText }
      this.firstFault = {
        ...sample,
        ...(from.faultDetail !== '' ? { detail: from.faultDetail } : {}),
        ...(from.faultFits !== '' ? { fits: from.faultFits as LogFormat } : {}),
        encoding: from.faultEncoding || undefined,
        ...(from.faultJson !== '' ? { json: from.faultJson } : {}),
      }
      this.onFirstFault?.(this.firstFault)
    }
    this.linesInInput += from.lines
    const s = this.stats
    s.lines += from.lines
    s.allowed += from.allowed
    s.disallowed += from.disallowed
    s.noUrl += from.noUrl
    s.noHost += from.noHost
    s.badHost += from.badHost
    s.emptyRequest += from.emptyRequest
    s.bytes += from.bytes
    if (from.stopped) s.stopped = true
    if (from.crawlerAllowed.length > 0) {
      if (s.crawlerAllowed.length < from.crawlerAllowed.length) s.crawlerAllowed = new Array<number>(from.crawlerAllowed.length).fill(0)
      from.crawlerAllowed.forEach((n, k) => (s.crawlerAllowed[k] += n))
    }
  }
}

/** What the summary of a `--crawlers` run names: the crawlers, `--require` and `--print`. */
export interface CrawlersSummary {
  readonly names: readonly string[]
  readonly require: 'all' | 'any'
  readonly print: 'allowed' | 'disallowed' | 'verdicts'
}

/**
 * The summary line: counts, then throughput over `seconds`; `hosts` appends
 * the per-host counts (../hosts/host-tally.ts). With `--crawlers`, the
 * lines every (or some) crawler may fetch, or may not, as `--print` and
 * `--require` select them, then each crawler's allowed lines.
 */
export function summaryLine(stats: FilterStats, seconds: number, policy: InvalidPolicy, hosts?: string, crawlers?: CrawlersSummary): string {
  const s = Math.max(seconds, 1e-6)
  const notJudged = stats.noUrl + stats.noHost + stats.badHost + stats.emptyRequest
  let unjudged = ''
  if (notJudged > 0) {
    const parts = [
      stats.noUrl > 0 ? `${count(stats.noUrl)} without a URL` : '',
      stats.noHost > 0 ? `${count(stats.noHost)} without a host` : '',
      stats.badHost > 0 ? `${count(stats.badHost)} with a host no URL can have` : '',
      stats.emptyRequest > 0 ? `${count(stats.emptyRequest)} with no request ("-")` : '',
    ].filter(Boolean)
    // With --invalid fail, a run that went on left its unjudged lines (a log's "-" requests) out: dropped, not stopped.
    unjudged = `, ${parts.join(', ')} (${policy === 'keep' ? 'kept' : policy === 'drop' || !stats.stopped ? 'dropped' : 'stopped'})`
  }
  let verdicts = `${count(stats.allowed)} allowed, ${count(stats.disallowed)} disallowed`
  if (crawlers !== undefined) {
    const judged = stats.allowed + stats.disallowed
    // The bit counted as allowed is the one --print selects on (crawler-codes.ts, needAllOf).
    const some = crawlers.require === 'any'
    const selected =
      crawlers.print === 'disallowed'
        ? `${count(stats.disallowed)} ${some ? 'disallowed for some crawler' : 'disallowed for every crawler'}`
        : `${count(stats.allowed)} ${some ? 'allowed for some crawler' : 'allowed for every crawler'}`
    const each = crawlers.names.map((n, k) => `${n} ${count(stats.crawlerAllowed[k] ?? 0)}`).join(', ')
    verdicts = `${count(judged)} judged, ${selected}; allowed per crawler: ${each}`
  }
  const line =
    `${plural(stats.lines, 'line')} read: ${verdicts}${unjudged}; ` +
    `${megabytes(stats.bytes)} in ${seconds.toFixed(2)} s ` +
    `(${(stats.bytes / 1e6 / s).toFixed(1)} MB/s, ${rate(stats.lines / s)} lines/s)`
  return hosts === undefined ? line : `${line}; ${hosts}`
}
