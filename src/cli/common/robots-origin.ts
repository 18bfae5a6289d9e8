/**
 * The origin a ROBOTS URL's rules belong to. RFC 9309 §2.3 makes a
 * robots.txt govern its own scheme, host and port only, so a URL of another
 * origin judged by it gets an answer that is not that site's. Such a URL is
 * still judged (the reference judges any string, and outputs stay aligned
 * with inputs), but never in silence: the first is named in a warning and
 * the summary counts them. A path, or any text without a scheme or `//`, is
 * the origin's own.
 */
import { robotsLocation } from '../../index.js'
import { printable } from './printable.js'
import { count, plural } from './numbers.js'

/** `scheme://authority` at the start of a URL. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*/
/** A scheme at the start of a URL (`http:`, `mailto:`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/

/** Counts, and warns about the first of, the judged URLs of another origin than one ROBOTS URL's. */
export class OriginScope {
  /** URLs judged that are not of the origin. */
  outside = 0
  private lastAuthority: string | undefined
  private lastOutside = false

  private constructor(
    /** `scheme://authority`, as WHATWG URL writes an origin. */
    readonly origin: string,
    private readonly warn: ((text: string) => void) | undefined,
    /** Where the URLs can be judged each by their own site's robots.txt, for the warning. */
    private readonly remedy: string,
  ) {}

  /**
   * The scope of the ROBOTS sources: undefined unless some are URLs, all of
   * one origin (two sites compared with each other have no common one).
   */
  static of(sources: readonly string[], warn: ((text: string) => void) | undefined, remedy: string): OriginScope | undefined {
    const origins = new Set<string>()
    for (const s of sources) if (/^https?:\/\//i.test(s)) origins.add(robotsLocation(s).origin)
    return origins.size === 1 ? new OriginScope([...origins][0], warn, remedy) : undefined
  }

  /** Sees one judged URL: counts it when it names another origin, and warns about the first. */
  see(url: string): void {
    // `//host/path` names a host (the reference reads it so), in the origin's scheme.
    if (url.startsWith('//')) url = this.origin.slice(0, this.origin.indexOf(':') + 1) + url
    else if (!SCHEME.test(url)) return
    const authority = AUTHORITY.exec(url)?.[0]
    let outside: boolean
    if (authority !== undefined && authority === this.lastAuthority) outside = this.lastOutside
    else {
      outside = !sameOrigin(url, this.origin)
      if (authority !== undefined) {
        this.lastAuthority = authority
        this.lastOutside = outside
      }
    }
    if (!outside) return
    if (this.outside++ === 0 && this.warn !== undefined) {
      this.warn(`warning: '${printable(url)}' is not of ${this.origin}, whose robots.txt judges it all the same: a robots.txt governs its own origin only (RFC 9309); ${this.remedy}`)
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

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin
  } catch {
    return false
  }
}
