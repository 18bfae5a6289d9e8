/**
 * URLs that clients resolve to another path than the reference judges. The
 * reference reads a URL as written: dot segments (`.`, `..`, `%2e`) kept, a
 * backslash no slash, a `;` in the authority or a slash too many or too few
 * after `http:` starting the path, a tab, CR or LF kept (clients strip them;
 * a logged target holds what the server got). A WHATWG client (browsers, fetch) and
 * most servers resolve them (`/a/../x` is `/x`). Such a URL is still judged
 * as the reference judges it (outputs stay aligned with inputs), but never in
 * silence: the first is named in a warning with the path clients resolve it
 * to, and the summary counts them.
 */
import { printable } from '../../tools/printable.js'
import { plural } from './numbers.js'
import { note } from './stdio.js'

/** An http(s) scheme or none, the slashes after it (or that start the URL), the rest before any query. */
const PARTS = /^(?:(https?):|(?![a-z][a-z0-9+.-]*:))([/\\]*)([^?#]*)/i
/** A tab, CR or LF before any fragment: WHATWG clients strip them. */
const STRIPPED = /^[^#]*[\t\n\r]/
/** A dot segment. */
const DOTS = /[/\\](?:\.|%2e){1,2}(?=[/\\]|$)/i

/**
 * The path and query a WHATWG client requests for `url`, and a server
 * serves for a logged request's `target` (a path, `//a` too), when it is not
 * the path the reference reads; else undefined.
 */
export function clientPath(url: string, target = false): string | undefined {
  const parts = PARTS.exec(url)
  if (parts === null) return undefined
  const [, scheme, slashes, rest] = parts
  const path = scheme === undefined && slashes !== '' && (target || slashes.length < 2)
  const head = path ? slashes + rest : rest
  // From the path on (the host left out), for the characters clients strip.
  const fromPath = path ? url : url.slice(parts[0].length - rest.length).replace(/^[^/\\?#]*/, '')
  const stripped = !target && STRIPPED.test(fromPath)
  const authority = !path && ((slashes !== '' && slashes !== '//') || /^[^/\\]*;/.test(rest))
  if (!(DOTS.test(head) || head.includes('\\') || stripped || authority)) return undefined
  try {
    const u = new URL(scheme !== undefined ? url : path ? `http://h${url}` : `http://${url.slice(slashes.length)}`)
    return u.pathname + u.search
  } catch {
    return undefined
  }
}

/** Counts, and warns about the first of, the judged URLs that clients resolve to another path. */
export class ClientPaths {
  count = 0

  constructor(private readonly quiet: boolean) {}

  /** Sees one judged URL (`target`: a logged request's target). */
  see(url: string, target = false): void {
    const path = clientPath(url, target)
    if (path !== undefined && this.count++ === 0 && !this.quiet) note(`warning: '${printable(url)}' is judged as written; clients and servers resolve it to '${printable(path)}'`)
  }

  /** The summary's last clause (`; 2 URLs that clients resolve to another path`), or ''. */
  tail(): string {
    return this.count === 0 ? '' : `; ${plural(this.count, 'URL')} that clients resolve to another path`
  }
}
