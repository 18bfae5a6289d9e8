/**
 * The one reading of an input line ({@link LineLocator}): where its URL is,
 * its scan (the core's `UrlScan`: host, port, path start, keyed hash), where
 * its host comes from (the URL's own, a host column, `--host`), or why the
 * line has none ({@link LineFault}). `filter`, `diff` and `fetch` read lines
 * through it, so they read a log alike.
 */
import { RobotsInputError, UrlScan } from '../../index.js'
import { FieldKind, findField, QUOTE, requestTarget, unquoteCsv, WHITESPACE } from './fields.js'
import type { LineLayout } from './line-layout.js'
import { unescapeLogged } from './log-escapes.js'
import { locateLogLine, LogFit, notRequestWords } from './log-line.js'

/** Why a line has no URL (or, where a host is needed, no host). */
export const enum LineFault {
  /** The line has a URL (and a host, where one is needed). */
  None = 0,
  /** The URL is empty (an empty line, or an empty column). */
  Empty = 1,
  /** The line has fewer columns than the URL column. */
  NoField = 2,
  /** The line does not fit its `--log-format`, or its request is not an HTTP request line. */
  NoRequest = 3,
  /** The URL is neither a path (`/…`) nor an http(s) URL with a host. */
  NotUrl = 4,
  /** The URL is a path, and no host column or `--host` gives its host. */
  NoHost = 5,
  /** Its host (or port) is not one the WHATWG URL parser takes (`LineLocator.problem` says why): it names no site. */
  BadHost = 6,
  /** A log line whose request is `-` or empty: the server received no request line (`"-" 408`, nginx's `"" 400`). Counted, never warned about. */
  EmptyRequest = 7,
  /** The line holds a CR that ends no line: an input whose lines end with CR alone reads as one line, never judged as one URL. */
  CarriageReturn = 8,
}

/** Each fault's code, as `--format jsonl` writes it in `reason` (by LineFault). */
export const FAULT_CODES: readonly string[] = ['', 'empty', 'no-field', 'no-request', 'not-url', 'no-host', 'bad-host', 'empty-request', 'cr']

/** Where the host of a line comes from. */
export const enum HostSource {
  None = 0,
  /** The URL's own authority: `host` is the URL's record. */
  Url = 1,
  /** The host column (`--host-field`, vhost_combined's first column). */
  Column = 2,
  /** `--host`. */
  Option = 3,
}

const ENCODER = new TextEncoder()
/** What {@link LineLocator} puts before a path that starts with `//`: a URL whose path is read whole. */
const HTTP_H = ENCODER.encode('http://h')
const DECODER = new TextDecoder()

/** Longest `scheme://authority/` remembered for the next line (longer ones are scanned every time). */
const PREFIX_MAX = 512

/**
 * Reads lines by a {@link LineLayout}: `locate(bytes, start, end)` takes one
 * line (without its line ending) and fills the locator's fields; they hold
 * until the next call. No allocation per line (but for a host that is not
 * plain, once per host change, and for a logged target or host column that
 * holds escapes).
 *
 * - The URL: the whole line, column `url`, or the target of the request
 *   line in that column (a quoted `"GET /a HTTP/1.1"`); with a log format,
 *   the request found by the line's structure (log-line.ts). A logged
 *   request's target is read as sent, the server's escapes undone
 *   (log-escapes.ts). It must be a path (`/…`) or an `http(s)://` URL
 *   with a host.
 * - The host, when the locator was made with `needHost`: the URL's own when
 *   it has one, else the host column's (`host`, `host:port`, a URL; `-` or
 *   empty: none; in a log, with the server's escapes undone as for the
 *   request), else `--host`. Its scan (`host`) points into `hostBytes`:
 *   the line's bytes (the column's, unescaped), or `--host`'s own. `key` and `keyBytes` are the
 *   host as the WHATWG URL parser gives it (the one host function of the
 *   core: `UrlScan.canonicalHost`): the host's own scan and bytes when it
 *   is plain, else a scan of its canonical form. A host (or port) that
 *   parser refuses is a {@link LineFault.BadHost}, `problem` says why.
 * - A line whose URL starts with the previous URL's `scheme://authority` and
 *   the byte after it is not scanned again: its scan is the previous one
 *   moved (`UrlScan.moveTo`), and `sameHost` says so.
 */
export class LineLocator {
  /** The URL: `bytes[urlStart, urlEnd)` of the line located last (of {@link shownUrl}'s bytes when its request line was escaped). */
  urlStart = 0
  urlEnd = 0
  /** The URL's scan (`hostStart` -1 for a path). */
  readonly url = new UrlScan()
  /** Where the host came from. */
  hostSource: HostSource = HostSource.None
  /** The host's scan: `url`, or the host column's or `--host`'s. */
  host: UrlScan
  /** The bytes `host`'s offsets point into. */
  hostBytes: Uint8Array = new Uint8Array(0)
  /** With `needHost`: the canonical host's scan (`host` itself when plain) and the bytes its offsets point into. */
  key: UrlScan
  keyBytes: Uint8Array = new Uint8Array(0)
  /** With {@link HostSource.Column}: the host column as read (its escapes undone), `columnBytes[columnFrom, columnTo)`. */
  private columnBytes: Uint8Array = new Uint8Array(0)
  private columnFrom = 0
  private columnTo = 0
  /** The host is the previous line's, from the same source (the same `scheme://authority/` bytes, or `--host` again). */
  sameHost = false
  /** Why the last line was a {@link LineFault.BadHost}, or a log line's {@link LineFault.NoRequest} whose request's method says why it is no request line (else empty), in words. */
  problem = ''
  /** The URL is a logged request's target (`--log-format`, or a quoted column holding a request line): `//a/b` is a path. */
  target = false
  /**
   * For a path that starts with `//` on a host given apart (a log's request
   * line, a host column, `--host`): the URL judged, `http://h` + the path,
   * so that the path is read whole (the reference reads a URL that starts
   * with `//` as `//authority/path`); else undefined: the URL is the line's.
   */
  private absolute: Uint8Array | undefined
  /** A logged request target (or quoted column) with its escapes undone (`\"`, `\xHH`: log-escapes.ts), which `urlStart`, `urlEnd` point into; else undefined. */
  private unescaped: Uint8Array | undefined
  private readonly layout: LineLayout
  private readonly needHost: boolean
  private readonly column = new UrlScan()
  private readonly option = new UrlScan()
  private readonly optionBytes: Uint8Array
  /** The canonical form of a host that is not plain (scanned from fresh bytes: `keyBytes` is kept by the host judge). */
  private readonly canonical = new UrlScan()
  private optionKey: UrlScan
  private optionKeyBytes: Uint8Array
  private readonly range = new Int32Array(4)
  /**
   * The previous URL's `scheme://authority` and the byte after it:
   * `prefixBytes[prefixStart, prefixStart + prefixLength)`, in the block it
   * was read from (not copied: blocks are never written again once read, and
   * a block handed to another thread is detached here, so a compare with it
   * fails and the URL is scanned).
   */
  private prefixBytes: Uint8Array = new Uint8Array(0)
  private prefixLength = 0
  private prefixStart = 0

  constructor(layout: LineLayout, needHost: boolean) {
    this.layout = layout
    this.needHost = needHost
    this.host = this.url
    this.key = this.url
    this.optionBytes = ENCODER.encode(layout.hostName ?? '')
    this.optionKey = this.option
    this.optionKeyBytes = this.optionBytes
    if (layout.hostName !== undefined && this.option.scanHost(this.optionBytes, 0, this.optionBytes.length) && this.canonicalKey(this.option, this.optionBytes) === LineFault.None) {
      // lineLayout checked it: the one host of every path, made canonical once (a scan of its own, not the one reused per line).
      this.optionKeyBytes = this.keyBytes
      this.optionKey = this.key === this.option ? this.option : new UrlScan()
      if (this.optionKey !== this.option) this.optionKey.scanHost(this.optionKeyBytes, 0, this.optionKeyBytes.length)
      this.key = this.url
    }
  }

  /** The bytes whose next CR after the last line read (it started at `lastStart`) is at `crAt` (their length when none). */
  private crBytes: Uint8Array | undefined
  private lastStart = -1
  private crAt = 0

  /** Reads the line `bytes[start, end)` (without its line ending): the fields above, and why it has no URL or host. */
  locate(bytes: Uint8Array, start: number, end: number): LineFault {
    if (this.crBytes !== bytes || this.crAt < start || start <= this.lastStart) {
      // The next CR at or after this line, found once for the lines before it (one search per block
      // without CR); searched again for other bytes, or for the same bytes read again (refilled).
      this.crBytes = bytes
      const at = bytes.indexOf(13, start)
      this.crAt = at < 0 ? bytes.length : at
    }
    this.lastStart = start
    if (this.crAt < end) return this.fault(start, end, LineFault.CarriageReturn)
    const layout = this.layout
    const range = this.range
    let us = start
    let ue = end
    const previous = this.hostSource
    this.sameHost = false
    this.absolute = undefined
    this.unescaped = undefined
    this.target = layout.logFormat !== undefined
    /** The bytes the URL is in: the line's, or its request target unescaped. */
    let src = bytes
    /** The host column, when the log format found it. */
    let columnStart = -1
    let columnEnd = -1
    if (layout.logFormat !== undefined) {
      const fit = locateLogLine(bytes, start, end, layout.logFormat, range, 0)
      if (fit === LogFit.Misfit) {
        this.problem = ''
        return this.fault(start, start, LineFault.NoRequest)
      }
      if (fit === LogFit.NotRequest) {
        this.problem = notRequestWords(bytes, range[0], range[1])
        return this.fault(range[0], range[1], LineFault.NoRequest)
      }
      if (fit === LogFit.EmptyRequest) return this.fault(range[0], range[1], LineFault.EmptyRequest)
      us = range[0]
      ue = range[1]
      columnStart = range[2]
      columnEnd = range[3]
      src = this.unescape(bytes, us, ue)
    } else if (layout.url > 0) {
      const kind = findField(bytes, start, end, layout.url, layout.delimiter, range, 0)
      if (kind === FieldKind.None) return this.fault(start, start, LineFault.NoField)
      us = range[0]
      ue = range[1]
      // A log's quoted column (`"%r"`, `"%{Referer}i"`) is escaped as the server wrote it; a --delimiter column is CSV's (`""`).
      const quoted = kind === FieldKind.Quoted && bytes[us - 1] === QUOTE
      if (kind === FieldKind.Quoted && requestTarget(bytes, us, ue, range, 2)) {
        us = range[2]
        ue = range[3]
        this.target = true
      }
      if (quoted) src = layout.delimiter === WHITESPACE ? this.unescape(bytes, us, ue) : this.unquote(bytes, us, ue)
    }
    if (src !== bytes) {
      us = 0
      ue = src.length
    }
    this.urlStart = us
    this.urlEnd = ue
    if (us === ue) return this.fault(us, ue, LineFault.Empty)
    const url = this.url
    const hasHost = this.scan(src, us, ue, previous === HostSource.Url)
    if (hasHost) {
      // The previous line's scheme and authority again (sameHost): an http(s) URL already, its host already checked.
      if (!this.sameHost) {
        const scheme = url.scheme
        if (scheme !== 'http' && scheme !== 'https') return this.fault(us, ue, LineFault.NotUrl)
      }
      this.host = url
      this.hostBytes = src
      this.hostSource = HostSource.Url
      if (this.needHost && !this.sameHost) {
        // `http://u;p@host/x`: the reference's path starts at the ';', so the host is text of the path.
        if (url.pathStart >= 0 && url.pathStart < url.hostEnd) {
          this.problem = 'its host is in the path the reference matches'
          return this.fault(us, ue, LineFault.BadHost)
        }
        // A plain host is its own key (the usual case, kept inline); any other is made canonical.
        this.key = url
        this.keyBytes = src
        if (!url.plainHost || url.port === UrlScan.BAD_PORT) {
          const f = this.canonicalKey(url, src)
          if (f !== LineFault.None) return this.fault(us, ue, f)
        }
      }
      return LineFault.None
    }
    if (src[us] !== 0x2f) return this.fault(us, ue, LineFault.NotUrl)
    this.hostSource = HostSource.None
    // A request target `//a/b` is the path `//a/b` of the line's host, never a host `a` (RFC 9112's origin-form).
    if (ue - us >= 2 && src[us + 1] === 0x2f && (this.target || layout.host > 0 || layout.hostName !== undefined)) this.judgeAsPath(src, us, ue)
    if (layout.host > 0 && columnStart < 0 && layout.logFormat === undefined) {
      const kind = findField(bytes, start, end, layout.host, layout.delimiter, range, 0)
      if (kind !== FieldKind.None) {
        columnStart = range[0]
        columnEnd = range[1]
        // A bracketed column keeps its brackets: `[::1]` is an IPv6 host.
        if (kind === FieldKind.Quoted && bytes[columnStart - 1] === 0x5b) {
          columnStart--
          columnEnd++
        }
      }
    }
    if (columnStart >= 0) {
      // A column of '-' or nothing names no host.
      if (columnEnd > columnStart && !(columnEnd - columnStart === 1 && bytes[columnStart] === 0x2d)) {
        const column = this.column
        // A log's host column (`%v`, `%{Host}i`, nginx's `$host`) is escaped as the server wrote it (`b\xc3\xbccher.de`); no host holds a backslash.
        // A quoted CSV column's `""` is one quote.
        let cb = bytes
        const csv = layout.logFormat === undefined && layout.delimiter !== WHITESPACE
        if (!csv || bytes[columnStart - 1] === QUOTE) {
          const u = csv ? unquoteCsv(bytes, columnStart, columnEnd) : unescapeLogged(bytes, columnStart, columnEnd)
          if (u !== undefined) {
            cb = u
            columnStart = 0
            columnEnd = u.length
          }
        }
        const named = column.scanHost(cb, columnStart, columnEnd)
        this.columnBytes = cb
        this.columnFrom = columnStart
        this.columnTo = columnEnd
        if (!this.needHost) {
          if (named) {
            this.host = column
            this.hostBytes = cb
            this.hostSource = HostSource.Column
          }
          return LineFault.None
        }
        if (!named || (column.schemeEnd < 0 && column.authorityEnd !== columnEnd)) {
          this.problem = 'its host column is not host[:port]'
          return this.fault(us, ue, LineFault.BadHost)
        }
        if (column.scheme === 'other') {
          this.problem = 'its host column is a URL of a scheme other than http and https'
          return this.fault(us, ue, LineFault.BadHost)
        }
        this.host = column
        this.hostBytes = cb
        this.hostSource = HostSource.Column
        this.key = column
        this.keyBytes = cb
        if (!column.plainHost || column.port === UrlScan.BAD_PORT) {
          const f = this.canonicalKey(column, cb)
          if (f !== LineFault.None) return this.fault(us, ue, f)
        }
      }
    } else if (layout.hostName !== undefined) {
      this.host = this.option
      this.hostBytes = this.optionBytes
      this.key = this.optionKey
      this.keyBytes = this.optionKeyBytes
      this.hostSource = HostSource.Option
      // The one host of every path.
      this.sameHost = previous === HostSource.Option
    }
    if (this.hostSource === HostSource.None && this.needHost) return LineFault.NoHost
    return LineFault.None
  }

  /** The host column of the line located last as read (`host:port`, a host, an origin), when the line's host is that column's; else undefined. */
  hostColumn(): Uint8Array | undefined {
    return this.hostSource === HostSource.Column ? this.columnBytes.subarray(this.columnFrom, this.columnTo) : undefined
  }

  /** The bytes of the URL judged for the line located last (`bytes` is its line's block): what `url` scanned. */
  judgedUrl(bytes: Uint8Array): Uint8Array {
    return this.absolute ?? this.shownUrl(bytes)
  }

  /** The URL of the line located last as its input gives it (`bytes` is its line's block): a logged request target with its escapes undone. */
  shownUrl(bytes: Uint8Array): Uint8Array {
    return (this.unescaped ?? bytes).subarray(this.urlStart, this.urlEnd)
  }

  /** `bytes[us, ue)`, a quoted CSV column's text, with each `""` made one `"` (kept in `unescaped`), or `bytes` when it has none. */
  private unquote(bytes: Uint8Array, us: number, ue: number): Uint8Array {
    this.unescaped = unquoteCsv(bytes, us, ue)
    return this.unescaped ?? bytes
  }

  /** `bytes[us, ue)` with its log escapes undone (kept in `unescaped`), or `bytes` when it has none. */
  private unescape(bytes: Uint8Array, us: number, ue: number): Uint8Array {
    this.unescaped = unescapeLogged(bytes, us, ue)
    return this.unescaped ?? bytes
  }

  /** Scans `http://h` + the path `bytes[us, ue)` into `url`, so that the path is read from its first byte. */
  private judgeAsPath(bytes: Uint8Array, us: number, ue: number): void {
    const absolute = new Uint8Array(8 + ue - us)
    absolute.set(HTTP_H)
    absolute.set(bytes.subarray(us, ue), 8)
    this.absolute = absolute
    this.prefixLength = 0
    this.url.scan(absolute, 0, absolute.length)
  }

  /** The host of the line located last, as the WHATWG URL parser gives it (ASCII-lowercased when a host it refuses is not checked), or null when it has none. */
  hostText(): string | null {
    if (this.hostSource === HostSource.None) return null
    if (this.needHost) return DECODER.decode(this.keyBytes.subarray(this.key.hostStart, this.key.hostEnd)).replace(/[A-Z]+/g, (c) => c.toLowerCase())
    const h = this.host
    try {
      return h.canonicalHost()
    } catch {
      return DECODER.decode(this.hostBytes.subarray(h.hostStart, h.hostEnd)).replace(/[A-Z]+/g, (c) => c.toLowerCase())
    }
  }

  /**
   * Sets `key` and `keyBytes` to the host of `h` (over `bytes`) as the
   * WHATWG URL parser gives it: `h` itself when plain, else a scan of its
   * canonical form (made once per host change); a {@link LineFault.BadHost}
   * (`problem` says why) for a port or host that parser refuses.
   */
  private canonicalKey(h: UrlScan, bytes: Uint8Array): LineFault {
    if (h.port === UrlScan.BAD_PORT) {
      this.problem = 'its port is not a number from 0 to 65535'
      return LineFault.BadHost
    }
    if (h.plainHost) {
      this.key = h
      this.keyBytes = bytes
      return LineFault.None
    }
    let host: string
    try {
      host = h.canonicalHost()!
    } catch (err) {
      if (!(err instanceof RobotsInputError)) throw err
      this.problem = err.message.replace(/^UrlScan\.canonicalHost: /, '')
      return LineFault.BadHost
    }
    const kb = ENCODER.encode(host)
    this.canonical.scanHost(kb, 0, kb.length)
    this.key = this.canonical
    this.keyBytes = kb
    return LineFault.None
  }

  /** Scans the URL `bytes[us, ue)` into `url`, or moves the previous record when the URL starts with the previous authority. */
  private scan(bytes: Uint8Array, us: number, ue: number, hadUrlHost: boolean): boolean {
    const url = this.url
    const k = this.prefixLength
    if (k > 0 && ue - us >= k) {
      const prefix = this.prefixBytes
      const p = this.prefixStart
      // From the end: the byte after the authority tells most other hosts apart at once.
      let i = k - 1
      while (i >= 0 && bytes[us + i] === prefix[p + i]) i--
      if (i < 0) {
        // The same scheme://authority and the byte after it: the scan moves, not scanned again.
        this.prefixBytes = bytes
        this.prefixStart = us
        url.moveTo(bytes, us, ue)
        this.sameHost = hadUrlHost
        return true
      }
    }
    // The host's hash is computed only where the host is looked up (on first read).
    const hasHost = url.scan(bytes, us, ue)
    this.prefixLength = 0
    const authorityEnd = url.authorityEnd
    // Remembered when the authority ends at a '/' or '?' that starts the path (no ';' or '\' in it).
    if (hasHost && authorityEnd < ue && authorityEnd + 1 - us <= PREFIX_MAX && url.pathStart === authorityEnd && (bytes[authorityEnd] === 0x2f || bytes[authorityEnd] === 0x3f)) {
      this.prefixBytes = bytes
      this.prefixLength = authorityEnd + 1 - us
      this.prefixStart = us
    }
    return hasHost
  }

  private fault(us: number, ue: number, fault: LineFault): LineFault {
    this.urlStart = us
    this.urlEnd = ue
    this.hostSource = HostSource.None
    this.prefixLength = 0
    return fault
  }
}
