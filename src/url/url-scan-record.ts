/**
 * {@link UrlScan}: the public face of the one scan of a URL (url-scan.ts):
 * named, read-only fields over its record, filled from bytes or a string,
 * which the batch calls (`AgentMatcher.matchScan`, `RobotsStore.lookupScan`,
 * `RobotsStore.lookupHost`) read instead of going over the URL again. The
 * keyed hash of host names it carries is url/keyed-hash.ts's.
 */
import { asBytes, describeValue, isIndex, RobotsInputError, RobotsRangeError } from '../errors.js'
import { adoptHashKey, hashKeyWords, hostHash, hostHashes, hostHashString } from './keyed-hash.js'
import { pathIndex, PathStartCode, type PathStart } from './url-path.js'
import { scanHostField, scanUrl, scanUrlString, UrlField, UrlFlag } from './url-scan.js'
import { provideScanAccess, SCAN_END, scanHashed, scanOffsets } from './scan-access.js'
import { canonicalHostOrNull, hostRefusal, quoteHost } from './host.js'

/** The record: url-scan.ts's fields, then where the URL ends (SCAN_END). */
const RECORD_SIZE = SCAN_END + 1
const END = SCAN_END

const EMPTY = new Uint8Array(0)
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * One URL's parts from one pass over it, for judging URLs in bulk straight
 * from byte buffers: `scan.scan(bytes, start, end)` (or `scanString(url)`,
 * or `scanHost` for a host column) fills the fields below, and
 * `matcher.matchScan(scan)`, `store.lookupScan(scan)` and
 * `store.lookupHost(scan)` read them instead of going over the URL again.
 * Reuse one `UrlScan` for every URL: scanning allocates nothing.
 *
 * Offsets are into what was scanned (bytes, or a string's code units); a
 * part that is absent is -1. The host is found as the WHATWG URL parser
 * splits an authority (`scheme://[userinfo@]host[:port]`, ended by
 * `/ ? # \`; the last `@` wins; an IPv6 literal with its brackets); the path
 * start is the reference's (GetPathParamsQuery). The scan keeps a reference
 * to what it scanned: do not change those bytes while its fields are in use.
 *
 * **Hosts.** A scan does not canonicalise the host: `plainHost` says
 * whether the host's bytes, ASCII-lowercased, already are the host the
 * WHATWG parser gives (letters, digits, `.`, `-`, `_` and ASCII
 * punctuation it keeps, a last label starting with a letter, no `xn--`
 * label; or an IPv4 address in dotted decimal). Any other host (international names, percent-encoding, IPv4
 * number forms, IPv6, a trailing dot) needs that parser: `canonicalHost()`
 * gives the parser's host (once per scan), and `store.lookupScan` and
 * `store.lookupHost` defer to it for such hosts.
 *
 * **The host hash.** `hostHash` (and `hostHash2`, for a 64-bit fingerprint)
 * is a keyed hash of the host, ASCII case ignored: equal hosts have equal
 * hashes within one JavaScript realm, and the key is random per realm, so
 * that names that collide cannot be built offline. Tables over hosts
 * (yours, or the store's) can be keyed with it; `UrlScan.hostHash` hashes
 * any name the same way, and `UrlScan.hashKey()`/`UrlScan.useHashKey()`
 * carry a realm's key to a worker thread that shares such tables.
 */
export class UrlScan {
  /** `port` when the URL has no port (or an empty one: `host:`), so the scheme's default applies. */
  static readonly NO_PORT = -1
  /** `port` when the port is not a decimal number up to 65535. */
  static readonly BAD_PORT = -2

  /** The fields (url-scan.ts's UrlField layout, then END). */
  private readonly record = new Int32Array(RECORD_SIZE).fill(-1)
  /** What was scanned. */
  private source: Uint8Array | string = EMPTY
  /** Whether `HostHash` and `HostHash2` hold the host's hash (computed on first need). */
  private hashed = true
  /** The last buffer found to be a Uint8Array (the lines of one block are scanned from one buffer: checked once). */
  private checked: Uint8Array = EMPTY
  /** For `moveTo`: the length of `scheme://authority` and the byte after it, 0 when the scan cannot move, -1 until first asked. */
  private prefix = -1
  /** The host as the WHATWG parser gives it, once asked (`canonicalHost`); undefined until then, and for a host it refuses. */
  private canonical: string | undefined = undefined

  static {
    provideScanAccess({
      offsets: (scan) => (scan instanceof UrlScan ? scan.record : undefined),
      hashed: (scan) => {
        if (!(scan instanceof UrlScan)) return undefined
        if (!scan.hashed) scan.hash()
        return scan.record
      },
      source: (scan) => (scan as UrlScan).source,
    })
  }

  /**
   * Scans the URL `bytes[start, end)` (a full URL or a path; default: all of
   * `bytes`); returns whether it has a host. Linear in the URL's length.
   * Bytes that are not a Uint8Array are a RobotsInputError (ERR_INPUT),
   * offsets outside them a RobotsRangeError (ERR_RANGE).
   */
  scan(bytes: Uint8Array, start = 0, end: number = bytesLength(bytes)): boolean {
    this.checkRange('UrlScan.scan', bytes, start, end)
    return scanUrl(bytes, start, end, this.begin(bytes, end, false), false)
  }

  /** {@link scan} for a string (offsets in code units). Anything but a string is a RobotsInputError (ERR_INPUT). */
  scanString(url: string): boolean {
    if (typeof url !== 'string') throw new RobotsInputError(`UrlScan.scanString takes a string, got ${describeValue(url)}`)
    return scanUrlString(url, this.begin(url, url.length, true))
  }

  /** Forgets the last scan's derived values and starts the record for `source` ending at `end`; `hashed`: the scan hashes its host itself. */
  private begin(source: Uint8Array | string, end: number, hashed: boolean): Int32Array {
    this.canonical = undefined
    this.source = source
    this.hashed = hashed
    this.prefix = -1
    const r = this.record
    r[END] = end
    return r
  }

  /**
   * Scans a host column (a log's virtual host, a CSV's host field):
   * `host`, `host:port`, `[v6]:port`, `user@host`, or a URL (then as
   * {@link scan}); `schemeEnd` is -1 unless it is a URL. Returns whether it
   * names a host. Arguments as for {@link scan}.
   */
  scanHost(bytes: Uint8Array, start = 0, end: number = bytesLength(bytes)): boolean {
    this.checkRange('UrlScan.scanHost', bytes, start, end)
    return scanHostField(bytes, start, end, this.begin(bytes, end, false), false)
  }

  /**
   * Makes this the scan of the URL `bytes[start, end)`, which the caller has
   * found to start with the same `scheme://authority` and the byte after it
   * as the URL scanned last (a list sorted by site: consecutive URLs of one
   * site are not scanned again). Every offset moves to the new URL; host,
   * port and hash stay. The scan must have scanned a URL whose path starts
   * right after its authority (`pathStart === authorityEnd`), and the new URL
   * must be at least that long: otherwise a RobotsRangeError (ERR_RANGE), as
   * for offsets outside `bytes`.
   */
  moveTo(bytes: Uint8Array, start: number, end: number): void {
    if (bytes !== this.checked) {
      checkBytes('UrlScan.moveTo', bytes)
      this.checked = bytes
    }
    const r = this.record
    let k = this.prefix
    if (k < 0) k = this.prefix = movablePrefix(r)
    if (!(k > 0 && isIndex(start) && isIndex(end) && end <= bytes.length && end - start >= k)) {
      throw new RobotsRangeError('ERR_RANGE', `UrlScan.moveTo: [${describeValue(start)}, ${describeValue(end)}) of a ${bytes.length}-byte buffer is not a URL of the scanned URL's authority`)
    }
    const shift = start - r[UrlField.Start]
    // A hash not computed yet is computed from the new bytes, which hold the same host.
    if (this.source !== bytes) this.source = bytes
    r[UrlField.Start] = start
    r[END] = end
    r[UrlField.SchemeEnd] += shift
    r[UrlField.HostStart] += shift
    r[UrlField.HostEnd] += shift
    r[UrlField.AuthorityEnd] += shift
    // The path starts at the byte after the authority, inside the prefix compared.
    r[UrlField.PathStart] += shift * PathStartCode.IndexScale
  }

  /** Where the URL scanned starts (-1 before the first scan). */
  get start(): number {
    return this.record[UrlField.Start]
  }

  /** Where the URL scanned ends. */
  get end(): number {
    return this.record[END]
  }

  /** The `:` of the `://` after a scheme (`[A-Za-z][A-Za-z0-9+.-]*`), or -1 when there is none (a path, a host column, or not a URL). */
  get schemeEnd(): number {
    return this.record[UrlField.SchemeEnd]
  }

  /** The scheme: `'http'` or `'https'` (any case), `'other'`, or null when there is none. */
  get scheme(): 'http' | 'https' | 'other' | null {
    const r = this.record
    if (r[UrlField.SchemeEnd] < 0) return null
    const f = r[UrlField.Flags]
    return (f & UrlFlag.Https) !== 0 ? 'https' : (f & UrlFlag.Http) !== 0 ? 'http' : 'other'
  }

  /** The host, `[hostStart, hostEnd)`: userinfo left out, an IPv6 literal with its brackets, case as written; -1 when there is none. */
  get hostStart(): number {
    return this.record[UrlField.HostStart]
  }

  get hostEnd(): number {
    return this.record[UrlField.HostEnd]
  }

  /** The port as written (0–65535), {@link UrlScan.NO_PORT} when absent or empty, {@link UrlScan.BAD_PORT} when not a port. */
  get port(): number {
    return this.record[UrlField.Port]
  }

  /** The `/`, `?`, `#` or `\` that ends the authority, or the URL's end; -1 without `scheme://`. */
  get authorityEnd(): number {
    return this.record[UrlField.AuthorityEnd]
  }

  /**
   * Where the path the rules match starts (the reference's
   * GetPathParamsQuery): the index of its `/`, or of the `?` or `;` that
   * gets a `/` in front; -1 when the path is just `/` (none written, or a
   * fragment first).
   */
  get pathStart(): number {
    const ps = this.record[UrlField.PathStart] as PathStart
    return ps === PathStartCode.JustSlash ? -1 : pathIndex(ps)
  }

  /** The host's bytes, ASCII-lowercased, are the host the WHATWG URL parser gives (see the class comment); false without a host. */
  get plainHost(): boolean {
    return (this.record[UrlField.Flags] & UrlFlag.PlainHost) !== 0
  }

  /**
   * The host as the WHATWG URL parser gives it (`new URL(url).hostname`):
   * punycode, lowercase, IPv4 in dotted decimal, IPv6 compressed in
   * brackets, percent-encoded UTF-8 decoded, a trailing dot dropped; null when
   * the scan has no host. A plain host is its own lowercase (no parse);
   * any other is parsed once per scan (a moved scan keeps it). A host the
   * parser refuses (`xn--a.com`, `a b`, `%00`, `1.2.3.256`), or bytes that
   * are not UTF-8, is a RobotsInputError (ERR_INPUT) saying why: such a
   * URL names no site, and is never judged as another.
   */
  canonicalHost(): string | null {
    const r = this.record
    const hs = r[UrlField.HostStart]
    if (hs < 0 || r[UrlField.Start] < 0) return null
    if (this.canonical !== undefined) return this.canonical
    const he = r[UrlField.HostEnd]
    const src = this.source
    const plain = (r[UrlField.Flags] & UrlFlag.PlainHost) !== 0
    let text: string
    if (typeof src === 'string') text = src.slice(hs, he)
    else if (he > src.length) throw new RobotsRangeError('ERR_RANGE', 'UrlScan.canonicalHost: the scanned bytes were transferred away')
    else if (plain) text = String.fromCharCode.apply(null, src.subarray(hs, he) as unknown as number[])
    else {
      try {
        text = UTF8.decode(src.subarray(hs, he))
      } catch {
        throw new RobotsInputError(`UrlScan.canonicalHost: the host's bytes are not UTF-8, so it is no host name`)
      }
    }
    if (plain) return (this.canonical = text.toLowerCase())
    const host = canonicalHostOrNull(text)
    if (host === null) throw new RobotsInputError(`UrlScan.canonicalHost: the host ${quoteHost(text)} is refused: ${hostRefusal(text)}`)
    return (this.canonical = host)
  }

  /** A userinfo (`user@`) comes before the host. */
  get userInfo(): boolean {
    return (this.record[UrlField.Flags] & UrlFlag.UserInfo) !== 0
  }

  /** The host's keyed hash (see the class comment), ASCII case ignored; 0 without a host. */
  get hostHash(): number {
    if (!this.hashed) this.hash()
    return this.record[UrlField.HostHash]
  }

  /** A second keyed hash of the host, independent of {@link hostHash}: the two make a 64-bit fingerprint. 0 without a host. */
  get hostHash2(): number {
    if (!this.hashed) this.hash()
    const r = this.record
    if (r[UrlField.HostHash2] === 0 && r[UrlField.HostStart] >= 0 && typeof this.source === 'string') {
      // A string scan hashes the first word only: the pair from the host's code units, as bytes (a host is ASCII where it matters).
      const s = this.source
      const bytes = new Uint8Array(r[UrlField.HostEnd] - r[UrlField.HostStart])
      for (let i = 0; i < bytes.length; i++) bytes[i] = s.charCodeAt(r[UrlField.HostStart] + i)
      hostHashes(bytes, 0, bytes.length, r, UrlField.HostHash)
    }
    return r[UrlField.HostHash2]
  }

  /**
   * The hash a scan of the host `bytes[start, end)` holds in `hostHash`
   * (ASCII case ignored): for tables over host names built from a list,
   * probed with scans. Arguments as for {@link UrlScan.scan}.
   */
  static hostHash(bytes: Uint8Array, start = 0, end: number = bytesLength(bytes)): number {
    checkRange('UrlScan.hostHash', bytes, start, end)
    return hostHash(bytes, start, end)
  }

  /** This realm's hash key (a copy of its four words), for a worker thread that must hash hosts as this one does ({@link UrlScan.useHashKey}). */
  static hashKey(): Int32Array {
    return hashKeyWords()
  }

  /**
   * Makes `key` (from {@link UrlScan.hashKey} in another realm) this
   * realm's hash key, so that tables built there and shared here (on
   * SharedArrayBuffers) are probed with the same hashes. Call it first
   * thing, before anything is hashed: a `RobotsStore` (or any table keyed by
   * host hashes) built in this realm before the call no longer finds its
   * keys. Anything but four words in an Int32Array is a RobotsInputError
   * (ERR_INPUT).
   */
  static useHashKey(key: Int32Array): void {
    if (!(key instanceof Int32Array) || key.length !== 4) throw new RobotsInputError(`UrlScan.useHashKey takes the four words of UrlScan.hashKey(), got ${describeValue(key)}`)
    adoptHashKey(key)
  }

  /** A RobotsInputError unless `bytes` is a Uint8Array, a RobotsRangeError (ERR_RANGE) unless `[start, end)` is a range of it. */
  private checkRange(what: string, bytes: Uint8Array, start: number, end: number): void {
    if (bytes !== this.checked) {
      checkBytes(what, bytes)
      this.checked = bytes
    }
    if (!(isIndex(start) && isIndex(end) && start <= end && end <= bytes.length)) rangeError(what, bytes, start, end)
  }

  /** Fills the host's hash from what was scanned. */
  private hash(): void {
    const r = this.record
    this.hashed = true
    const hs = r[UrlField.HostStart]
    if (hs < 0) {
      r[UrlField.HostHash] = r[UrlField.HostHash2] = 0
      return
    }
    const src = this.source
    if (typeof src === 'string') r[UrlField.HostHash] = hostHashString(src, hs, r[UrlField.HostEnd])
    else hostHashes(src, hs, r[UrlField.HostEnd], r, UrlField.HostHash)
  }
}

/**
 * Why the URL `url` names no site, in words, when its authority is the
 * cause: its port is no port, or the WHATWG URL parser refuses its host
 * (`http://xn--a.com/`); '' otherwise (no `scheme://` host, or a host and
 * port that parser takes). For messages that say why a URL was refused.
 */
export function hostProblem(url: string): string {
  const scan = new UrlScan()
  if (!scan.scanString(url)) return ''
  if (scan.port === UrlScan.BAD_PORT) return 'its port is not a number from 0 to 65535'
  try {
    scan.canonicalHost()
  } catch (err) {
    if (err instanceof RobotsInputError) return err.message.replace(/^UrlScan\.canonicalHost: /, '')
    throw err
  }
  return ''
}

/**
 * The record of `scan` (url-scan.ts's UrlField layout, then SCAN_END), its
 * host hashed when `hashed`, for the core's batch calls: a RobotsInputError
 * naming `what` unless it is a UrlScan that has scanned something.
 */
export function checkedRecord(scan: unknown, what: string, hashed: boolean): Int32Array {
  const rec = hashed ? scanHashed(scan) : scanOffsets(scan)
  if (rec === undefined) throw new RobotsInputError(`${what} takes a UrlScan, got ${describeValue(scan)}`)
  if (rec[UrlField.Start] < 0) throw new RobotsInputError(`${what}: the UrlScan has scanned no URL yet`)
  return rec
}

function bytesLength(bytes: unknown): number {
  return asBytes(bytes)?.length ?? 0
}

/**
 * The length of `scheme://authority` and the byte after it, for a scan
 * whose path starts right at its authority's end (its index there, with or
 * without a '/' put in front); 0 for any other scan (no host, no path, a
 * path elsewhere: it cannot move).
 */
function movablePrefix(r: Int32Array): number {
  const authorityEnd = r[UrlField.AuthorityEnd]
  const ps = r[UrlField.PathStart]
  if (r[UrlField.HostStart] < 0 || ps === PathStartCode.JustSlash || ps - (ps & PathStartCode.SlashPrepended) !== authorityEnd * PathStartCode.IndexScale) return 0
  return authorityEnd + 1 - r[UrlField.Start]
}

/** A RobotsInputError unless `bytes` is a Uint8Array (of any realm: the scan only indexes it). */
function checkBytes(what: string, bytes: unknown): void {
  if (asBytes(bytes) === undefined) throw new RobotsInputError(`${what}: bytes must be a Uint8Array, got ${describeValue(bytes)}`)
}

function rangeError(what: string, bytes: Uint8Array, start: number, end: number): never {
  throw new RobotsRangeError('ERR_RANGE', `${what}: [${describeValue(start)}, ${describeValue(end)}) is not a range of a ${bytes.length}-byte buffer`)
}

/** {@link checkBytes}, then a RobotsRangeError (ERR_RANGE) unless `[start, end)` is a range of `bytes`. */
function checkRange(what: string, bytes: Uint8Array, start: number, end: number): void {
  checkBytes(what, bytes)
  if (!(isIndex(start) && isIndex(end) && start <= end && end <= bytes.length)) rangeError(what, bytes, start, end)
}
