/**
 * The origin a ROBOTS URL's rules belong to. RFC 9309 §2.3 makes a
 * robots.txt govern its own scheme, host and port only, so a URL of another
 * origin judged by it gets an answer that is not that site's. Such a URL is
 * still judged (the reference judges any string, and outputs stay aligned
 * with inputs), but never in silence: the first is named in a warning and
 * the summary counts them. A path, or any text without a scheme or `//`, is
 * the origin's own.
 */
import { canonicalHost, robotsLocation } from '../../index.js'
import { printable } from '../../tools/printable.js'
import { count, plural } from './numbers.js'

/** `scheme://authority` at the start of a URL. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*/
const WHY = 'a robots.txt governs its own origin only (RFC 9309)'
/** A scheme at the start of a URL (`http:`, `mailto:`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/

/** Counts, and warns about the first of, the judged URLs of another origin than one ROBOTS URL's. */
export class OriginScope {
  /** URLs judged that are not of the origin. */
  outside = 0
  /** The last authority (`scheme://host:port`, as written) seen, and whether it is outside. */
  private lastAuthority: string | undefined
  private lastOutside = false
  /** `--host` is not of the origin: so are the paths. */
  private pathsOutside = false
  /** The last host column seen, and whether it is outside. */
  private lastColumn: string | undefined
  private lastColumnOutside = false
  private warned = false

  /** The origin's bytes and `/`: a URL that starts so is the origin's, with no more to check. */
  readonly prefix: Uint8Array
  /** The origin's scheme and its colon (`https:`). */
  private readonly scheme: string

  private constructor(
    /** `scheme://authority`, as WHATWG URL writes an origin. */
    readonly origin: string,
    private readonly warn: ((text: string) => void) | undefined,
    /** Where the URLs can be judged each by their own site's robots.txt, for the warning. */
    private readonly remedy: string,
  ) {
    this.prefix = new TextEncoder().encode(`${origin}/`)
    this.scheme = origin.slice(0, origin.indexOf(':') + 1)
  }

  /**
   * The scope of the ROBOTS sources: undefined unless some are URLs, all of
   * one origin (two sites compared with each other have no common one).
   */
  static of(sources: readonly string[], warn: ((text: string) => void) | undefined, remedy: string): OriginScope | undefined {
    const origins = new Set<string>()
    for (const s of sources) if (/^https?:\/\//i.test(s)) origins.add(robotsLocation(s).origin)
    return origins.size === 1 ? new OriginScope([...origins][0], warn, remedy) : undefined
  }

  /**
   * Sees `--host`, the host of a log's paths (an origin, or a host and
   * maybe a port, of any scheme): when it is not of the origin, says so
   * once, and the paths count as URLs of another origin.
   */
  seeHost(host: string): void {
    const given = /^https?:\/\//i.test(host)
    if (sameOrigin(given ? host : `${this.scheme}//${host}`, this.origin, !given && !/:\d+$/.test(host))) return
    this.pathsOutside = true
    this.warned = true
    this.warn?.(`warning: --host '${printable(host)}' is not of ${this.origin}, whose robots.txt judges its paths all the same: ${WHY}; ${this.remedy}`)
  }

  /**
   * Sees the host column (vhost_combined's, `--host-field`'s) of one judged
   * path, read as `--host` is: when it is not of the origin, the path counts
   * as a URL of another origin, and the first such column is named.
   */
  seeColumn(host: string): void {
    let outside: boolean
    if (host === this.lastColumn) outside = this.lastColumnOutside
    else {
      const given = /^https?:\/\//i.test(host)
      outside = !sameOrigin(given ? host : `${this.scheme}//${host}`, this.origin, !given && !/:\d+$/.test(host))
      this.lastColumn = host
      this.lastColumnOutside = outside
    }
    if (!outside) return
    this.outside++
    if (!this.warned) {
      this.warned = true
      this.warn?.(`warning: the host column '${printable(host)}' is not of ${this.origin}, whose robots.txt judges its paths all the same: ${WHY}; ${this.remedy}`)
    }
  }

  /**
   * Sees one judged URL: counts it when it names another origin, and warns
   * about the first. `//host/path` names a host (the reference reads it so),
   * unless it is a logged request's target (`target`), a path.
   */
  see(url: string, target = false): void {
    let absolute = url
    if (url.startsWith('//') && !target) absolute = this.scheme + url
    else if (!SCHEME.test(url)) {
      if (this.pathsOutside) this.outside++
      return
    }
    // An empty authority (`http:///host/`: the parser finds the host after the slashes) is not remembered.
    const authority = AUTHORITY.exec(absolute)?.[0].replace(/^.*\/\/$/, '') || undefined
    let outside: boolean
    if (authority !== undefined && authority === this.lastAuthority) outside = this.lastOutside
    else {
      outside = !sameOrigin(absolute, this.origin)
      if (authority !== undefined) {
        this.lastAuthority = authority
        this.lastOutside = outside
      }
    }
    if (!outside) return
    this.outside++
    if (!this.warned) {
      this.warned = true
      this.warn?.(`warning: '${printable(url)}' is not of ${this.origin}, whose robots.txt judges it all the same: ${WHY}; ${this.remedy}`)
    }
  }

  /** The summary's words for the URLs of other origins (` (2 of another origin than …)`), or '' when there were none. */
  summary(): string {
    return this.outside === 0 ? '' : ` (${count(this.outside)} of another origin than ${this.origin})`
  }

  /** The same as a clause of its own (`2 URLs of another origin than …`), or undefined. */
  clause(): string | undefined {
    return this.outside === 0 ? undefined : `${plural(this.outside, 'URL')} of another origin than ${this.origin}`
  }
}

/** Whether `url` is of `origin` (`anyPort`: whatever its port, for a `--host` that names none); hosts compared as everywhere, trailing dots dropped (`example.com..` and `0x7f.1..` are `example.com` and `127.0.0.1`). */
function sameOrigin(url: string, origin: string, anyPort = false): boolean {
  try {
    const a = new URL(url)
    const b = new URL(origin)
    if (canonicalHost(a.hostname) !== canonicalHost(b.hostname)) return false
    return anyPort || (a.protocol === b.protocol && a.port === b.port)
  } catch {
    return false
  }
}
