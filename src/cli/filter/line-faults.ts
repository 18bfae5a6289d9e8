/**
 * Lines without a URL (or, where per-host rules need one, a host): never
 * counted as judged in silence. `--invalid keep|drop|fail` says what becomes
 * of them ({@link INVALID_OPTION}); the first one is named on stderr with a
 * hint ({@link faultNote}); a run where no line held a URL exits with
 * {@link EXIT_NO_URL}. `filter`, `diff` and `fetch` word them alike.
 */
import type { OptionSpec } from '../common/args.js'
import { printable } from '../common/printable.js'
import type { LineLayout } from './line-layout.js'
import { LineFault } from './line-locator.js'

/** What becomes of a line without a URL or host. */
export type InvalidPolicy = 'keep' | 'drop' | 'fail'

/** `--invalid keep|drop|fail` (default keep). */
export const INVALID_OPTION: OptionSpec = { name: 'invalid', value: true, choices: ['keep', 'drop', 'fail'] }

/** Exit status when no line of the input held a URL (with a host, per host), or `--invalid fail` met a line without one. */
export const EXIT_NO_URL = 4

/** Longest piece of a line quoted in a note. */
const QUOTE_MAX = 120

/** The first line without a URL (or host) of a run: where it is and what it holds (cut, for the note). */
export interface FaultSample {
  readonly fault: LineFault
  /** Its input's name (`<stdin>` for stdin) and its line number there, from 1. */
  readonly input: string
  readonly line: number
  /** The line's first bytes as text (UTF-8, invalid bytes as U+FFFD). */
  readonly text: string
}

const DECODER = new TextDecoder()

/** The first bytes of the line `bytes[start, end)` as text, for a {@link FaultSample}. */
export function sampleText(bytes: Uint8Array, start: number, end: number): string {
  const cut = Math.min(end, start + QUOTE_MAX)
  return DECODER.decode(bytes.subarray(start, cut)) + (cut < end ? '…' : '')
}

/** Why a line was not judged, in words. */
export function faultWords(fault: LineFault, layout: LineLayout): string {
  switch (fault) {
    case LineFault.Empty:
      return layout.url > 0 ? `its URL column (${layout.url}) is empty` : 'it is empty'
    case LineFault.NoField:
      return `it has fewer than ${layout.url} columns`
    case LineFault.NoRequest:
      return `it is not a ${layout.logFormat ?? 'log'} line with a quoted request ("GET /path HTTP/1.1")`
    case LineFault.NotUrl:
      return layout.url > 0 ? `its column ${layout.url} holds no URL or path` : 'it holds no URL (http:// or https://) or path (/…)'
    case LineFault.NoHost:
      return 'its URL is a path, and per-host rules need its host'
    default:
      return 'it holds no URL'
  }
}

/** What to try instead, for the first line without a URL. */
function hint(fault: LineFault, layout: LineLayout): string {
  if (fault === LineFault.NoHost) return 'give the host: --host HOST, --host-field M, or --log-format vhost_combined'
  if (layout.logFormat !== undefined) return 'check --log-format (common, combined, vhost_combined), or pick the URL column with --field N'
  if (layout.url > 0) return 'check --field and --delimiter, or try --log-format combined'
  return 'is this a log? try --log-format combined, or --field N'
}

/** What `--invalid` does with such lines, in words (the end of a {@link faultNote}). */
export function policyWords(policy: InvalidPolicy): string {
  return policy === 'keep' ? 'lines without a URL are written out unjudged (--invalid keep)' : policy === 'drop' ? 'lines without a URL are left out (--invalid drop)' : 'stopped (--invalid fail)'
}

/** The warning naming the first line without a URL (or host), with a hint and what becomes of such lines (`effect`: `policyWords`, or the command's own words). */
export function faultNote(sample: FaultSample, layout: LineLayout, effect: string): string {
  const where = `line ${sample.line} of '${printable(sample.input)}'`
  return `warning: ${where} was not judged: ${faultWords(sample.fault, layout)}: ${printable(sample.text)}; ${hint(sample.fault, layout)}; ${effect}`
}

/** The error when no line of the input held a URL (exit status {@link EXIT_NO_URL}). */
export function noUrlMessage(lines: number, perHost: boolean): string {
  return `no line of the input held a URL${perHost ? ' with a host' : ''} (${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'} read); see the warning above`
}
