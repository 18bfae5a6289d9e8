/**
 * Loads the ROBOTS argument of `check`, `lint` and `filter --robots`: a file
 * path, `-` for stdin, or an `http(s)` URL fetched with the access method of
 * RFC 9309 (redirects, unavailable → allow all, unreachable → disallow all).
 */
import { parseRobotsStream, type Robots } from '../../index.js'
import { DEFAULT_LIMIT } from '../../index.js'
import { parseRobotsFile } from '../../node.js'
import { fetchRobots, describeFetchResult } from '../../index.js'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { CliError, readError, UsageError } from '../../internals.js'
import { defaultUserAgent } from './version.js'

/** A loaded robots.txt with the name to show and, for a URL, how the fetch went. */
export interface LoadedRobots {
  readonly robots: Robots
  /** The path, `<stdin>` or the URL. */
  readonly name: string
  /** For a URL: one line on the fetch (e.g. `unreachable, disallow all: HTTP 503 from …`). */
  readonly fetchNote?: string
  /** For a URL: whether a file was obtained (`ok`), rather than a stand-in allow-all or disallow-all. */
  readonly fetched?: 'ok' | 'unavailable' | 'unreachable' | 'refused'
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
 * still read as a file.
 */
export function checkRobotsSource(source: string): void {
  if (source === '-' || isRobotsUrl(source) || !SCHEME.test(source) || existsSync(source)) return
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
  private seen = 0

  /** Counts the LF bytes of `chunk` that fall within the limit. */
  see(chunk: Uint8Array): void {
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
 * stdin; not a fetched URL).
 */
export async function loadRobots(source: string, tally?: LineTally): Promise<LoadedRobots> {
  checkRobotsSource(source)
  if (source === '-') {
    try {
      return { robots: await parseRobotsStream(tally ? tally.tap(process.stdin) : process.stdin), name: '<stdin>' }
    } catch (err) {
      throw readError('robots.txt from', 'stdin', err)
    }
  }
  if (isRobotsUrl(source)) return fetchUrl(source)
  try {
    if (tally === undefined) return { robots: await parseRobotsFile(source), name: source }
    if (statSync(source).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    return { robots: await parseRobotsStream(tally.tap(createReadStream(source, { highWaterMark: 64 * 1024 }))), name: source }
  } catch (err) {
    throw readError('robots.txt', source, err)
  }
}

/** Fetches a robots.txt URL with the access method, as `robots-automaton/<version>`. */
async function fetchUrl(url: string): Promise<LoadedRobots> {
  let result
  try {
    result = await fetchRobots(url, { userAgent: defaultUserAgent() })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    throw new CliError('ERR_FETCH', `cannot fetch robots.txt for '${url}': ${message}`)
  }
  return { robots: result.robots, name: result.url, fetchNote: describeFetchResult(result), fetched: result.outcome === 'not-modified' ? 'ok' : result.outcome }
}
