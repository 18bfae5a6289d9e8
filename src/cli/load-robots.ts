/**
 * Loads the ROBOTS argument of `check`, `lint` and `filter --robots`: a file
 * path, `-` for stdin, or an `http(s)` URL fetched with the access method of
 * RFC 9309 (redirects, unavailable → allow all, unreachable → disallow all).
 */
import { parseRobotsStream, type Robots } from '../index.js'
import { parseRobotsFile } from '../node.js'
import { fetchRobots, describeFetchResult } from '../fetch/index.js'
import { CliError, readError } from './errors.js'
import { PROGRAM, version } from './help.js'

/** A loaded robots.txt with the name to show and, for a URL, how the fetch went. */
export interface LoadedRobots {
  readonly robots: Robots
  /** The path, `<stdin>` or the URL. */
  readonly name: string
  /** For a URL: one line on the fetch (e.g. `unreachable, disallow all: HTTP 503 from …`). */
  readonly fetchNote?: string
  /** For a URL: whether a file was obtained (`ok`), rather than a stand-in allow-all or disallow-all. */
  readonly fetched?: 'ok' | 'unavailable' | 'unreachable'
}

/** Whether a ROBOTS argument is a URL to fetch. */
export function isRobotsUrl(source: string): boolean {
  return /^https?:\/\//i.test(source)
}

/** Loads ROBOTS (see the module comment); a `CliError` (exit 1) when it cannot be read or fetched. */
export async function loadRobots(source: string): Promise<LoadedRobots> {
  if (source === '-') {
    try {
      return { robots: await parseRobotsStream(process.stdin), name: '<stdin>' }
    } catch (err) {
      throw readError('robots.txt from', 'stdin', err)
    }
  }
  if (isRobotsUrl(source)) return fetchUrl(source)
  try {
    return { robots: await parseRobotsFile(source), name: source }
  } catch (err) {
    throw readError('robots.txt', source, err)
  }
}

/** Fetches a robots.txt URL with the access method, as `robots-automaton/<version>`. */
async function fetchUrl(url: string): Promise<LoadedRobots> {
  let result
  try {
    result = await fetchRobots(url, { userAgent: `${PROGRAM}/${version()}` })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    throw new CliError('ERR_FETCH', `cannot fetch robots.txt for '${url}': ${message}`)
  }
  return { robots: result.robots, name: result.url, fetchNote: describeFetchResult(result), fetched: result.outcome }
}
