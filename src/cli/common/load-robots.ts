/**
 * Loads the ROBOTS argument of `check`, `lint`, `diff` and `filter
 * --robots`: a file path, `-` for stdin, or an `http(s)` URL fetched with
 * the access method of RFC 9309 (redirects; unavailable → allow all) over
 * the Node transport of the command's `--resolve`, `--connect-to` and
 * `--dns-server` (fetch/net-options.ts). A URL that cannot be fetched
 * (unreachable, or its address refused) is an error (ERR_FETCH, exit 1)
 * that says why, unless `--stand-in` asks for RFC 9309's stand-in rules
 * (disallow all) instead: a CI check of a site that is down must not pass.
 */
import { parseRobotsStream, type Robots } from '../../index.js'
import { DEFAULT_LIMIT } from '../../index.js'
import { createNodeTransport, type NodeTransport } from '../../node.js'
import { fetchRobots, describeFetchResult, robotsLocation, RobotsInputError } from '../../index.js'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { declaredWide, wideWords } from '../../tools/wide-text.js'
import { bodyKind, type BodyKind } from './body-kind.js'
import { CliError, readError, UsageError } from './cli-error.js'
import { flag, type OptionSpec, type ParsedArgs } from './args.js'
import { defaultUserAgent } from './version.js'
import { refuseStdinDirectory, refuseStdinTaken } from './stdio.js'
import { notRegular } from './not-regular.js'
import { connectRules, dnsServers, NET_HELP, NET_OPTIONS } from './net-options.js'

/** The options of the commands that take a ROBOTS URL: the network ones, and `--stand-in`. */
export const ROBOTS_URL_OPTIONS: readonly OptionSpec[] = [...NET_OPTIONS, { name: 'stand-in', value: false }]

/** Their help: a section of its own. */
export const ROBOTS_URL_HELP = `A ROBOTS URL
  --stand-in         when it cannot be fetched (5xx, 429, a time-out, a
                     network or DNS error, a refused address), judge by RFC
                     9309's stand-in, disallow all, instead of exit 1
${NET_HELP}`

/** How a command fetches a ROBOTS URL. */
export interface RobotsFetching {
  /** Makes the transport (routes, resolver), for the URL being fetched. */
  readonly transport: (url: string) => NodeTransport
  readonly standIn: boolean
}

/**
 * The fetching of a command's ROBOTS URLs from its options: the URL the
 * user typed is routed by the user (its address, whatever it is, is the
 * user's choice); its redirects are guarded by the address policy. Names
 * are resolved by the system's resolver (/etc/hosts included), or by the
 * `--dns-server`s given.
 */
export function robotsFetching(args: ParsedArgs, sources: readonly string[]): RobotsFetching {
  refuseUnusedUrlOptions(args, sources)
  const rules = connectRules(args)
  const servers = dnsServers(args)
  return {
    standIn: flag(args, 'stand-in'),
    transport(url: string): NodeTransport {
      const typed = new URL(url)
      const typedHost = typed.hostname.startsWith('[') ? typed.hostname.slice(1, -1) : typed.hostname
      const typedPort = typed.port === '' ? (typed.protocol === 'https:' ? 443 : 80) : Number(typed.port)
      return createNodeTransport({
        perAddress: 4,
        dns: servers.length > 0 ? { servers } : { system: true },
        route: (host, port) => {
          const routed = rules.route(host, port)
          if (routed !== undefined) return routed
          return host === typedHost && port === typedPort ? { hosts: [host], port, routed: true } : undefined
        },
      })
    },
  }
}

/**
 * The options of a ROBOTS URL (`--stand-in`, `--resolve`, `--connect-to`,
 * `--dns-server`) when no ROBOTS of the run is a URL (files, stdin, or
 * per-host rules: `sources` empty) are a usage error: they would be
 * ignored, and a command says so rather than run as if they applied.
 */
export function refuseUnusedUrlOptions(args: ParsedArgs, sources: readonly string[]): void {
  if (sources.some(isRobotsUrl)) return
  const given = ROBOTS_URL_OPTIONS.find((o) => args.options.has(o.name))
  if (given !== undefined) throw new UsageError(`'--${given.name}' applies only to a ROBOTS that is an http(s) URL, and no ROBOTS here is one`)
}

/** A loaded robots.txt with the name to show and, for a URL, how the fetch went. */
export interface LoadedRobots {
  readonly robots: Robots
  /** The path, `<stdin>` or the URL. */
  readonly name: string
  /** For a URL: one line on the fetch (e.g. `unreachable, disallow all: HTTP 503 from …`). */
  readonly fetchNote?: string
  /** For a URL: whether a file was obtained (`ok`), rather than a stand-in allow-all or disallow-all. */
  readonly fetched?: 'ok' | 'unavailable' | 'unreachable'
  /** The UTF-16 or UTF-32 its first bytes (or a URL's `Content-Type`) look like (`wideWords`): for the warning of a body the parser reads no text in. */
  readonly wide?: string
  /** What the body is when its first bytes say it is JSON or XML, not a robots.txt (`bodyKind`). */
  readonly kind?: BodyKind
}

/** Whether a ROBOTS argument is a URL to fetch. */
export function isRobotsUrl(source: string): boolean {
  return /^https?:\/\//i.test(source)
}

/** A URL scheme and its colon at the start of a ROBOTS (`ftp:`, `file:`, `data:`; two letters or more, so `C:` stays a path). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/

/**
 * Rejects a ROBOTS that is a URL of another scheme than http(s) (`ftp://…`,
 * `file:///…`): a usage error (exit 2), "only http(s) URLs are supported",
 * rather than "no such file". A file that exists under such a name is
 * still read as a file. An http(s) URL that names no site (its host refused
 * by the URL parser, `http://xn--a.com/`, or its port no port) is a usage
 * error too, saying why.
 */
export function checkRobotsSource(source: string): void {
  if (isRobotsUrl(source)) {
    // A URL that names no site (a host the URL parser refuses, a port that is none) is the user's mistake, said before any work.
    try {
      robotsLocation(source)
    } catch (err) {
      if (err instanceof RobotsInputError) throw new UsageError(`ROBOTS '${source}' cannot be fetched: ${err.message.replace(`not a URL of a site: ${JSON.stringify(source)}: `, 'it names no site: ')}`)
      throw err
    }
    return
  }
  if (source === '-' || !SCHEME.test(source) || existsSync(source)) return
  throw new UsageError(`only http(s) URLs are supported (ROBOTS is '${source}')`)
}

/**
 * Counts lines as `wc -l` does (LF bytes) among the bytes the parser reads:
 * the first DEFAULT_LIMIT bytes of a body at most, which is all of them
 * unless the body is truncated at the limit (the parser then reads exactly
 * that many). A final line without LF is not counted, a CR alone ends no line.
 */
export class LineTally {
  /** LF bytes seen within the limit. */
  lines = 0
  /** The body starts as gzip does (1f 8b). */
  gzip = false
  /** The first chunk's first bytes: enough to tell UTF-16 text (tools/wide-text.ts). */
  head: Uint8Array | undefined
  private seen = 0

  /** Counts the LF bytes of `chunk` that fall within the limit. */
  see(chunk: Uint8Array): void {
    if (this.seen === 0) {
      this.gzip = chunk[0] === 0x1f && chunk[1] === 0x8b
      this.head = chunk.slice(0, 64)
    }
    const room = DEFAULT_LIMIT - this.seen
    if (room <= 0) return
    const end = Math.min(chunk.length, room)
    for (let i = chunk.indexOf(10); i >= 0 && i < end; i = chunk.indexOf(10, i + 1)) this.lines++
    this.seen += chunk.length
  }

  /** `source`'s chunks, unchanged, counted on their way. */
  async *tap(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      this.see(chunk)
      yield chunk
    }
  }
}

/**
 * Loads ROBOTS (see the module comment); a `CliError` (exit 1) when it cannot
 * be read or fetched, a usage error (exit 2) for another URL scheme. With
 * `tally`, the body's lines are counted as `wc -l` counts them (a file or
 * stdin; not a fetched URL). `fetching`: how a URL is fetched ({@link robotsFetching}).
 * `path`: with `tally`, the file's own bytes when its name is not UTF-8 (`source` then shows it).
 */
export async function loadRobots(source: string, fetching: RobotsFetching, tally?: LineTally, path: string | Buffer = source): Promise<LoadedRobots> {
  checkRobotsSource(source)
  refuseStdinTaken(`the robots.txt '${source}'`, source)
  if (source === '-') {
    refuseStdinDirectory(`robots.txt from 'stdin'`)
    const t = tally ?? new LineTally()
    try {
      const robots = await parseRobotsStream(t.tap(process.stdin))
      return { robots, name: '<stdin>', wide: wideWords(t.head), kind: bodyKind(t.head) }
    } catch (err) {
      throw readError('robots.txt from', 'stdin', err)
    }
  }
  if (isRobotsUrl(source)) return fetchUrl(source, fetching)
  // Counted or not, the body's first bytes are kept (`head`): UTF-16 text is named so.
  const t = tally ?? new LineTally()
  let robots: Robots
  try {
    const info = statSync(path)
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    // A socket cannot be opened as a file: named as --robots-dir and lint DIR name one, not by the system's error.
    if (info.isSocket()) throw new Error(notRegular(info))
    robots = await parseRobotsStream(t.tap(createReadStream(path, { highWaterMark: 64 * 1024 })))
  } catch (err) {
    throw readError('robots.txt', source, err)
  }
  return { robots, name: source, wide: wideWords(t.head), kind: bodyKind(t.head) }
}

/** Fetches a robots.txt URL with the access method, as `robots-automaton/<version>`; unreachable or refused is an error unless `standIn`. */
async function fetchUrl(url: string, fetching: RobotsFetching): Promise<LoadedRobots> {
  let result
  let transport: NodeTransport | undefined
  try {
    transport = fetching.transport(url)
    result = await fetchRobots(url, { userAgent: defaultUserAgent(), transport })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    throw new CliError('ERR_FETCH', `cannot fetch robots.txt for '${url}': ${message}`)
  } finally {
    transport?.close()
  }
  const fetchNote = describeFetchResult(result)
  if ((result.outcome === 'unreachable' || result.outcome === 'refused') && !fetching.standIn) {
    throw new CliError('ERR_FETCH', `cannot fetch robots.txt for '${url}': ${fetchNote}; pass --stand-in to judge by RFC 9309's stand-in (disallow all) instead`)
  }
  const fetched = result.outcome === 'not-modified' ? 'ok' : result.outcome === 'refused' ? 'unreachable' : result.outcome
  return { robots: result.robots, name: result.url, fetchNote, fetched, wide: fetched === 'ok' ? declaredWide(result.headers?.['content-type']) : undefined }
}
