/**
 * Counters of a `filter` run and the summary line written to stderr at its end.
 */
import { count, megabytes, plural, rate } from '../common/numbers.js'

/** What a `filter` run counted of its lines (per thread, then added up). */
export interface FilterStats {
  /** Lines read (each one a URL, judged). */
  lines: number
  allowed: number
  disallowed: number
  /** Lines that are not an absolute http(s) URL or a path (judged all the same). */
  invalid: number
  /** Bytes of URL lines read (after decompression). */
  bytes: number
}

/** A zeroed `FilterStats`. */
export function newStats(): FilterStats {
  return { lines: 0, allowed: 0, disallowed: 0, invalid: 0, bytes: 0 }
}

/** Adds `from` into `into`. */
export function addStats(into: FilterStats, from: FilterStats): void {
  into.lines += from.lines
  into.allowed += from.allowed
  into.disallowed += from.disallowed
  into.invalid += from.invalid
  into.bytes += from.bytes
}

/** The summary line: counts, then throughput over `seconds`; `hosts` appends the per-host counts (../hosts/host-tally.ts). */
export function summaryLine(stats: FilterStats, seconds: number, hosts?: string): string {
  const s = Math.max(seconds, 1e-6)
  const line =
    `${plural(stats.lines, 'URL')} read: ${count(stats.allowed)} allowed, ${count(stats.disallowed)} disallowed, ` +
    `${count(stats.invalid)} invalid; ${megabytes(stats.bytes)} in ${seconds.toFixed(2)} s ` +
    `(${(stats.bytes / 1e6 / s).toFixed(1)} MB/s, ${rate(stats.lines / s)} URLs/s)`
  return hosts === undefined ? line : `${line}; ${hosts}`
}
