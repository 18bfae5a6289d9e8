/**
 * URLs a client requests as another path than the reference judges. The
 * reference reads a URL as written: dot segments (`.`, `..`, `%2e`) kept, a
 * backslash no slash, a `;` in the authority or a slash too many or too few
 * after `http:` starting the path. A WHATWG client (browsers, fetch) and
 * most servers resolve them (`/a/../x` is `/x`). Such a URL is still judged
 * as the reference judges it (outputs stay aligned with inputs), but never in
 * silence: the first is named in a warning with the path a client requests,
 * and the summary counts them.
 */
import { printable } from './printable.js'
import { count, plural } from './numbers.js'

/** A scheme and the slashes after it. */
const SCHEME = /^([a-z][a-z0-9+.-]*):([/\\]*)/i
/** A dot segment; in a logged request's target, a backslash is no separator. */
const DOTS = /[/\\](?:\.|%2e){1,2}(?=[/\\]|$)/i
const TARGET_DOTS = /\/(?:\.|%2e){1,2}(?=\/|$)/i
/** What any such URL holds: a cheap test before a closer look. */
const MARK = /[\\;]|\/(?:\.|%2e)|^[^/]*:(?!\/\/[^/])/i

/**
 * The path and query a WHATWG client requests for `url`, when it is not the
 * path the reference reads; else undefined (`target`: a logged request's
 * target, whose backslashes are bytes of the path, and `//a` a path).
 */
export function clientPath(url: string, target = false): string | undefined {
  if (!MARK.test(url)) return undefined
  const s = SCHEME.exec(url)
  if (s !== null && !/^https?$/i.test(s[1])) return undefined
  const path = s === null && /^[/\\]/.test(url) && (target || !/^[/\\]{2}/.test(url))
  const slashes = s !== null ? s[2] : path ? '' : /^[/\\]*/.exec(url)![0]
  const rest = url.slice((s?.[1].length ?? -1) + 1 + slashes.length)
  // The path (a path's own, or what follows the authority) and the authority, before any query.
  const head = rest.replace(/[?#].*/s, '')
  const differs =
    (target ? TARGET_DOTS : DOTS).test(head) ||
    (!target && head.includes('\\')) ||
    (!path && ((slashes !== '' && slashes !== '//') || /^[^/\\?#]*;/.test(head)))
  if (!differs) return undefined
  const bytes = target ? url.replace(/\\/g, '%5C') : url
  try {
    const u = path ? new URL(target ? `http://h${bytes}` : bytes, 'http://h') : new URL(s !== null ? bytes : `http://${rest}`)
    return u.pathname + u.search
  } catch {
    return undefined
  }
}

/** Whether the bytes of a URL as filter and diff locate it (an http(s) URL or a path) hold what {@link clientPath} looks for: `\`, `;`, `/.`, `/%`. */
export function hasMark(u: Uint8Array): boolean {
  for (let i = 0; i < u.length; i++) {
    const c = u[i]
    if (c === 0x5c || c === 0x3b || (c === 0x2f && (u[i + 1] === 0x2e || u[i + 1] === 0x25))) return true
  }
  return false
}

/** Counts, and warns about the first of, the judged URLs a client requests as another path. */
export class ClientPaths {
  count = 0

  constructor(private readonly warn: ((text: string) => void) | undefined) {}

  /** Sees one judged URL (`target`: a logged request's target). */
  see(url: string, target = false): void {
    const path = clientPath(url, target)
    if (path !== undefined && this.count++ === 0) this.warn?.(clientPathWarning(url, path, target))
  }

  /** The summary's words (` (2 a client requests as another path)`), or ''. */
  summary(): string {
    return this.count === 0 ? '' : ` (${count(this.count)} a client requests as another path)`
  }

  /** The same as a clause of its own, or undefined. */
  clause(): string | undefined {
    return this.count === 0 ? undefined : `${plural(this.count, 'URL')} a client requests as another path`
  }
}

/** The warning about `url`, whose path a client requests (a logged `target`: a server serves) as `path`. */
function clientPathWarning(url: string, path: string, target = false): string {
  return `warning: '${printable(url)}' is judged as the reference reads it, but ${target ? 'a server serves' : 'a client (WHATWG URL) requests'} '${printable(path)}': the reference reads dot segments, '\\' and the authority as written; judge URLs as a crawler requests them`
}
