/**
 * Where a line's URL and host are (`--field`, `--host-field`, `--delimiter`,
 * `--log-format`, `--host`): the options every command that reads URL lists
 * and logs takes ({@link INPUT_OPTIONS}, {@link INPUT_HELP}), read into one
 * {@link LineLayout} ({@link lineLayout}) that line-locator.ts applies.
 */
import { optionValue, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { RobotsInputError, UrlScan } from '../../index.js'
import { parseDelimiter, WHITESPACE } from './fields.js'
import { printable } from '../../tools/printable.js'
import { UsageError } from '../common/cli-error.js'

/** The log formats of `--log-format` (Apache's nicknames; nginx's `combined` is Apache's). */
export const LOG_FORMATS = ['common', 'combined', 'vhost_combined'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/**
 * The columns of each format, counted as findField counts them (a quoted or
 * bracketed field is one): `%h %l %u %t "%r" %>s %b` (common), the same then
 * `"%{Referer}i" "%{User-Agent}i"` (combined), and `%v[:%p]` in front
 * (vhost_combined: Debian's `%v:%p`, nginx's `$host` or `$server_name`).
 */
const FORMAT_COLUMNS: Record<LogFormat, { readonly url: number; readonly host: number }> = {
  common: { url: 5, host: 0 },
  combined: { url: 5, host: 0 },
  vhost_combined: { url: 6, host: 1 },
}

/** Where a line's URL and host are. Plain data: structured-clone-able (worker threads get it). */
export interface LineLayout {
  /** The URL column, from 1; 0: the whole line. */
  readonly url: number
  /** The host column, from 1; 0: none. */
  readonly host: number
  /** A separator byte, or `WHITESPACE`. */
  readonly delimiter: number
  /** The URL column must be a quoted HTTP request line (a log format); its target is the URL. */
  readonly request: boolean
  /** The `--log-format`, for messages. */
  readonly logFormat: LogFormat | undefined
  /** `--host`: the host of every line whose URL is a path. */
  readonly hostName: string | undefined
}

/** One URL per line, nothing else. */
export const WHOLE_LINES: LineLayout = { url: 0, host: 0, delimiter: WHITESPACE, request: false, logFormat: undefined, hostName: undefined }

/** The input options, for a command's OPTIONS list. */
export const INPUT_OPTIONS: readonly OptionSpec[] = [
  { name: 'field', value: true },
  { name: 'host-field', value: true },
  { name: 'delimiter', value: true },
  { name: 'log-format', value: true, choices: LOG_FORMATS },
  { name: 'host', value: true },
]

/** The input options' lines of a `--help` (the LOGS section), the same in every command. */
export const INPUT_HELP = `  --log-format F     an access log: common, combined (Apache, nginx) or
                     vhost_combined; the URL is the request line's target
  --field N          the URL is column N (from 1); the whole line is written
  --delimiter D      columns split at the byte D ('\\t': tab), not at blanks
  --host-field M     with --field: the host of paths is column M (host or
                     host:port)
  --host HOST        the host of paths, for a log of one site: a host,
                     host:port or an http(s) origin
                     (columns: blank-separated; "quoted" and [bracketed]
                     text is one column; a quoted request line gives its URL,
                     as sent: the server's \\" \\\\ \\xHH escapes undone)`

/** A column number option, or 0 when absent. */
function column(args: ParsedArgs, name: string): number {
  const value = optionValue(args, name)
  if (value === undefined) return 0
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN
  if (!(n >= 1 && n <= 1 << 20)) throw new UsageError(`option '--${name}' must be an integer from 1 to ${1 << 20} (got '${value}')`)
  return n
}

/** The layout the input options describe; a usage error for options that contradict each other. */
export function lineLayout(args: ParsedArgs): LineLayout {
  const format = optionValue(args, 'log-format') as LogFormat | undefined
  let url = column(args, 'field')
  let host = column(args, 'host-field')
  const delimiterValue = optionValue(args, 'delimiter')
  const hostName = optionValue(args, 'host')
  let delimiter = WHITESPACE
  if (format !== undefined) {
    if (url > 0 || host > 0) throw new UsageError(`'--log-format' sets the columns: give it without '--field' and '--host-field'`)
    if (delimiterValue !== undefined) throw new UsageError(`'--log-format' reads blank-separated columns: give it without '--delimiter'`)
    url = FORMAT_COLUMNS[format].url
    host = FORMAT_COLUMNS[format].host
  } else if (url === 0) {
    // '--log-format' sets the host column itself (vhost_combined's first): never named as what '--host-field' needs.
    if (host > 0) throw new UsageError(`'--host-field' needs '--field' (the URL column)`)
    if (delimiterValue !== undefined) throw new UsageError(`'--delimiter' needs '--field'`)
  }
  if (delimiterValue !== undefined) {
    const d = parseDelimiter(delimiterValue)
    if (d === undefined) throw new UsageError(`option '--delimiter' must be one byte, or '\\t' for a tab (got '${delimiterValue}')`)
    delimiter = d
  }
  if (hostName !== undefined) {
    if (host > 0) throw new UsageError(`'--host' names the host of every path: give it without a host column ('--host-field', --log-format vhost_combined)`)
    const bytes = new TextEncoder().encode(hostName)
    const scan = new UrlScan()
    let why = ''
    // '-' is a log's "no host", never a host given on purpose.
    if (hostName === '-' || !scan.scanHost(bytes, 0, bytes.length) || (scan.schemeEnd < 0 && scan.authorityEnd !== bytes.length)) why = ''
    else if (scan.port === UrlScan.BAD_PORT) why = ': its port is not a number from 0 to 65535'
    else if (scan.schemeEnd >= 0 && scan.scheme !== 'http' && scan.scheme !== 'https') why = ': robots.txt rules are for http and https origins'
    // An origin ends with its authority (a last '/' aside): a path, query or fragment would be dropped unsaid.
    else if (scan.schemeEnd >= 0 && bytes.length - scan.authorityEnd > (bytes[scan.authorityEnd] === 0x2f ? 1 : 0)) why = ': an origin has no path, query or fragment'
    else {
      try {
        scan.canonicalHost()
        why = 'ok'
      } catch (err) {
        if (!(err instanceof RobotsInputError)) throw err
        why = `: ${err.message.replace(/^UrlScan\.canonicalHost: /, '')}`
      }
    }
    if (why !== 'ok') throw new UsageError(`option '--host' must be a host, host:port or an origin such as https://example.com (got '${printable(hostName)}')${printable(why)}`)
  }
  return { url, host, delimiter, request: format !== undefined, logFormat: format, hostName }
}
