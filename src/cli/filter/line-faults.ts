/**
 * Lines without a URL (or, where per-host rules need one, a host): never
 * counted as judged in silence. `--invalid keep|drop|fail` says what becomes
 * of them ({@link INVALID_OPTION}); the first one is named on stderr with a
 * hint ({@link faultNote}); a run where no line held a URL exits with
 * {@link EXIT_NO_URL}. `filter`, `diff` and `fetch` word them alike.
 */
import type { OptionSpec } from '../common/args.js'
import { isUtf8 } from 'node:buffer'
import { printable } from '../../tools/printable.js'
import { printableBytes } from '../../tools/input-text.js'
import { convertWords, encodingFamily, wideEncoding } from '../../tools/wide-text.js'
import type { LineLayout, LogFormat } from './line-layout.js'
import { LineFault, type LineLocator } from './line-locator.js'
import { fittingFormat } from './log-line.js'
import { count } from '../common/numbers.js'

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
  /** The line's first bytes as printable text (a byte that is not UTF-8 as `\xHH`, a BOM as `\u{feff}`). */
  readonly text: string
  /** For a {@link LineFault.BadHost}: why its host is refused; for a {@link LineFault.NoRequest} of a line that fits its log format: why its request's method makes it no request line. */
  readonly detail?: string
  /** The log format the line fits, when one does (for the hint). */
  readonly fits?: LogFormat
  /** What its bytes are when no text a line can be: `bom` (a UTF-8 byte order mark starts it: a file joined after another), `UTF-16`, `UTF-32` (the input is such text), or `binary` (control bytes in bytes that are not UTF-8: compressed data gzip's magic did not announce, such as raw deflate). */
  readonly encoding?: string
  /** When the line is a JSON object (a JSON log, filter's own JSON lines): how jq takes its URL out (`.url`, or `.FIELD` when no member holds one). */
  readonly json?: string
  /** The line holds nothing but blanks (spaces, tabs): no misread log or column. */
  readonly blank?: true
}

/** A {@link FaultSample} of the line `bytes[start, end)`, which `locator` found `fault` in. */
export function faultSample(fault: LineFault, input: string, line: number, bytes: Uint8Array, start: number, end: number, locator: LineLocator): FaultSample {
  const sample: { -readonly [K in keyof FaultSample]: FaultSample[K] } = { fault, input, line, text: sampleText(bytes, start, end) }
  if (fault === LineFault.BadHost || (fault === LineFault.NoRequest && locator.problem !== '')) sample.detail = locator.problem
  const fits = fittingFormat(bytes, start, end)
  if (fits !== undefined) sample.fits = fits
  const encoding = encodingOfLine(bytes, start, end)
  if (encoding !== undefined) sample.encoding = encoding
  const json = jsonUrlFilter(bytes, start, end)
  if (json !== undefined) sample.json = json
  let k = start
  while (k < end && (bytes[k] === 0x20 || bytes[k] === 0x09)) k++
  if (k === end) sample.blank = true
  return sample
}

/** Longest line read as JSON for a hint. */
const JSON_MAX = 1 << 20

/**
 * When the line `bytes[start, end)` is a JSON object, the jq filter that takes
 * its URL out: `.NAME` of the first member that holds a path or an http(s)
 * URL, `.NAME | split(" ")[1]` of one that holds a request line, else
 * `.FIELD`; undefined for any other line.
 */
function jsonUrlFilter(bytes: Uint8Array, start: number, end: number): string | undefined {
  while (start < end && (bytes[start] === 0x20 || bytes[start] === 0x09)) start++
  if (end - start > JSON_MAX || bytes[start] !== 0x7b) return undefined
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes.subarray(start, end)))
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const entries = Object.entries(value).filter(([name, v]) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) as [string, string][]
  const url = entries.find(([, v]) => /^(\/|https?:\/\/)/i.test(v))
  if (url !== undefined) return `.${url[0]}`
  const request = entries.find(([, v]) => /^[A-Z_-]+ \S+( HTTP\/\S+)?$/.test(v))
  return request !== undefined ? `.${request[0]} | split(" ")[1]` : '.FIELD'
}

/** What {@link FaultSample.encoding} says of the line `bytes[start, end)`. */
function encodingOfLine(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) return 'bom'
  // A line past the first may start with a code unit's second byte: the byte order is not told.
  const wide = wideEncoding(bytes.subarray(start, end))
  if (wide !== undefined) return encodingFamily(wide.name)
  const line = bytes.subarray(start, end)
  return !isUtf8(line) && line.some((b) => (b < 0x20 && b !== 0x09) || b === 0x7f) ? 'binary' : undefined
}

/** Whether a fault is warned about: every kind but a log's `"-"` request, an ordinary line that is only counted. */
export function warnedFault(fault: LineFault): boolean {
  return fault !== LineFault.EmptyRequest
}

/** The first bytes of the line `bytes[start, end)` as printable text, for a {@link FaultSample}: what makes it no URL (a BOM, bytes that are not UTF-8) shown, not hidden. */
export function sampleText(bytes: Uint8Array, start: number, end: number): string {
  let cut = Math.min(end, start + QUOTE_MAX)
  // Cut between characters, not inside one.
  for (let k = 0; k < 3 && cut > start && cut < end && (bytes[cut] & 0xc0) === 0x80; k++) cut--
  return printableBytes(bytes.subarray(start, cut), false) + (cut < end ? '…' : '')
}

/** Why a line was not judged, in words, with its {@link FaultSample.detail} when it has one. */
export function faultWords(fault: LineFault, layout: LineLayout, detail?: string): string {
  // A log line that fits its format, whose request is no request line: the detail says why.
  if (fault === LineFault.NoRequest && detail !== undefined) return printable(detail)
  const why = fault === LineFault.BadHost && detail !== undefined ? ` (${printable(detail)})` : ''
  return reasonWords(fault, layout) + why
}

function reasonWords(fault: LineFault, layout: LineLayout): string {
  switch (fault) {
    case LineFault.Empty:
      return layout.url > 0 ? `its URL column (${layout.url}) is empty` : 'it is empty'
    case LineFault.NoField:
      return `it has fewer than ${layout.url} columns`
    case LineFault.NoRequest:
      return `it is not a ${layout.logFormat ?? 'log'} line (${FORMAT_WORDS[layout.logFormat ?? 'combined']}) with a request line ("GET /path HTTP/1.1")`
    case LineFault.BadHost:
      return 'the URL parser refuses its host or port'
    case LineFault.EmptyRequest:
      return 'its request is "-" (no request line was received)'
    case LineFault.CarriageReturn:
      return 'it holds a CR that ends no line (lines end with LF or CRLF: are they ended by CR alone?)'
    case LineFault.NotUrl:
      if (layout.logFormat !== undefined) return 'its request target is neither a path (/…) nor an http(s) URL'
      return layout.url > 0 ? `its column ${layout.url} holds no URL or path` : 'it holds no URL (http:// or https://) or path (/…)'
    case LineFault.NoHost:
      return 'its URL is a path, and per-host rules need its host'
    default:
      return 'it holds no URL'
  }
}

/** The fields of each log format, as a reminder in messages. */
const FORMAT_WORDS: Record<LogFormat, string> = {
  common: 'host ident user [time] "request" status size',
  combined: 'host ident user [time] "request" status size "referrer" "agent"',
  vhost_combined: 'vhost[:port] host ident user [time] "request" status size "referrer" "agent"',
}

/** What to try instead, for the first line without a URL (`fits`: the log format the line fits, if any). */
function hint(fault: LineFault, layout: LineLayout, fits: LogFormat | undefined, encoding?: string, json?: string, detail?: string): string {
  if (encoding === 'bom') return "a byte order mark starts it (files joined with cat?): remove it (sed 's/^\\xEF\\xBB\\xBF//')"
  if (encoding === 'binary') return 'its bytes are no text: binary data, or compressed in a format whose start says nothing (raw deflate?): decompress it first'
  if (encoding !== undefined) return `the input looks like ${encoding} text, but lines are read as UTF-8: ${convertWords(encoding)}`
  if (json !== undefined && fault !== LineFault.BadHost && fault !== LineFault.NoHost) return `it is a JSON object: take its URL out first (jq -r '${json}')`
  if (fault === LineFault.BadHost) return 'no site has such a name, so no rules can judge it'
  if (fault === LineFault.CarriageReturn) return 'end its lines with LF (tr "\\r" "\\n")'
  if (fault === LineFault.NoHost) return noHostHint(layout, fits)
  // The line fits its log format: its request is what holds no URL.
  if (fault === LineFault.NoRequest && detail !== undefined) return 'nothing to judge: the client sent no whole HTTP request line (METHOD target HTTP/x.y)'
  if (fault === LineFault.NotUrl && layout.logFormat !== undefined) {
    return 'robots.txt rules judge paths: a request for * (OPTIONS *) or for host:port (CONNECT) names none'
  }
  const other = fits !== undefined && fits !== layout.logFormat ? fits : undefined
  if (layout.logFormat !== undefined) {
    return other !== undefined ? `this line fits --log-format ${other}` : 'check --log-format (common, combined, vhost_combined), or pick the URL column with --field N'
  }
  if (layout.url > 0) return `check --field and --delimiter, or try --log-format ${other ?? 'combined'}`
  return other !== undefined ? `is this a log? try --log-format ${other}` : 'is this a log? try --log-format combined, or --field N'
}

/**
 * What to try for a path without a host: only options that go with those
 * given (lineLayout refuses `--host-field` without `--field`, and a host
 * column or `--log-format` beside one another or `--host`).
 */
function noHostHint(layout: LineLayout, fits: LogFormat | undefined): string {
  if (fits === 'vhost_combined' && layout.logFormat !== 'vhost_combined') return 'this line fits --log-format vhost_combined, which gives each path its host'
  if (layout.logFormat === 'vhost_combined') return 'its virtual host column (the first) is "-" or empty: no host names it'
  if (layout.host > 0) return `its host column (${layout.host}) is "-", empty or missing: check --host-field`
  if (layout.logFormat !== undefined) return 'give the host: --host HOST, or --log-format vhost_combined for a log that writes it first'
  if (layout.url > 0) return 'give the host: --host HOST or --host-field M'
  return 'give the host: --host HOST, --field N with --host-field M, or --log-format vhost_combined'
}

/** What `--invalid` does with such lines, in words (the end of a {@link faultNote}). */
export function policyWords(policy: InvalidPolicy): string {
  return policy === 'keep' ? 'lines without a URL are written out unjudged (--invalid keep)' : policy === 'drop' ? 'lines without a URL are left out (--invalid drop)' : 'stopped (--invalid fail)'
}

/** The first line without a URL (or host) in words: where, why, what it holds, and a hint. */
function faultReport(sample: FaultSample, layout: LineLayout): string {
  const where = `line ${sample.line} of '${printable(sample.input)}'`
  // A blank line is no misread log or column: nothing to quote, nothing to try.
  if (sample.blank === true) return `${where} was not judged: it is blank`
  return `${where} was not judged: ${faultWords(sample.fault, layout, sample.detail)}: ${printable(sample.text)}; ${hint(sample.fault, layout, sample.fits, sample.encoding, sample.json, sample.detail)}`
}

/** The warning naming the first line without a URL (or host), with a hint and what becomes of such lines (`effect`: `policyWords`, or the command's own words). */
export function faultNote(sample: FaultSample, layout: LineLayout, effect: string): string {
  return `warning: ${faultReport(sample, layout)}; ${effect}`
}

/** Why no line gave a URL when none was a line a warning names: every request was `-`. */
export const EVERY_REQUEST_EMPTY = 'every request was "-" (no request line received)'

/**
 * The error when no line of the input held a URL (exit status
 * {@link EXIT_NO_URL}). `first` is the first line a warning names (none
 * when every line was one never warned about: then `otherwise` says why),
 * `shown` whether a {@link faultNote} named it; when none did (`--quiet`),
 * the error names it itself, never a warning that was not shown.
 */
export function noUrlMessage(lines: number, perHost: boolean, first: FaultSample | undefined, layout: LineLayout, shown: boolean, otherwise = EVERY_REQUEST_EMPTY): string {
  const read = `${count(lines)} ${lines === 1 ? 'line' : 'lines'} read`
  const head = `no line of the input held a URL${perHost ? ' with a host' : ''} (${read})`
  if (first === undefined) return `${head}: ${otherwise}`
  return shown ? `${head}; see the warning above` : `${head}: ${faultReport(first, layout)}`
}
