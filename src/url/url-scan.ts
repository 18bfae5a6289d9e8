/**
 * One pass over a URL ({@link scanUrl} for bytes, {@link scanUrlString} for a
 * string) fills a small record of named offsets ({@link UrlField}): the
 * scheme's end, the host and port, where the authority ends, where the path
 * the rules match starts (the reference's GetPathParamsQuery), and the
 * host's keyed hash. The store's look-up, the command line's host index and
 * the matcher read the record; nothing goes over the authority again.
 */
import { JUST_SLASH_START, pathStartAt, pathStartBytes, pathStartString, PathStartCode, type PathStart } from './url-path.js'
import { hostHashes, hostHashString } from './keyed-hash.js'
import { isPlainHost } from './host.js'

/**
 * The record's fields: `record[UrlField.X]` of an `Int32Array(UrlField.Size)`.
 * Offsets are into the scanned bytes (or code units); -1 where a part is absent.
 */
export const enum UrlField {
  /** The `:` of the `://` after a scheme (`[A-Za-z][A-Za-z0-9+.-]*`), or -1 when there is none (a path, or not a URL). */
  SchemeEnd = 0,
  /** The host (userinfo left out, an IPv6 literal with its brackets): `[HostStart, HostEnd)`, -1 when the URL has none. */
  HostStart = 1,
  HostEnd = 2,
  /** The port as written (0–65535), {@link PortCode.None} when absent or empty, {@link PortCode.Bad} when not a port. */
  Port = 3,
  /** The `/`, `?`, `#` or `\` that ends the authority, or the URL's end; -1 without `://`. */
  AuthorityEnd = 4,
  /** Where the path the rules match starts: a {@link PathStart} (url/url-path.ts). */
  PathStart = 5,
  /** `hostHash` (keyed-hash.ts) of the host ASCII-lowercased; 0 without a host. */
  HostHash = 6,
  /** `secondHash` of the host (from the same pass): with HostHash, a 64-bit fingerprint; 0 without a host or when only HostHash was asked for. */
  HostHash2 = 7,
  /** {@link UrlFlag} bits. */
  Flags = 8,
  /** The URL's first byte (where the scan started). */
  Start = 9,
  Size = 10,
}

/** Values of `UrlField.Port` that are not a port number. */
export const enum PortCode {
  /** No port, or an empty one (`host:`): the scheme's default. */
  None = -1,
  /** Not a decimal number up to 65535. */
  Bad = -2,
}

/** Bits of `UrlField.Flags`. */
export const enum UrlFlag {
  /** The scheme is `http` (any case). */
  Http = 1,
  /** The scheme is `https` (any case). */
  Https = 2,
  /**
   * The host is plain (url/host.ts, `isPlainHost`: letters, digits, `.`,
   * `-`, `_` and ASCII punctuation the parser keeps, its last label starting
   * with a letter and no `xn--` label; or an IPv4 address in dotted decimal): its lowercased bytes are the WHATWG
   * URL parser's host, so it can be looked up without that parser.
   */
  PlainHost = 4,
  /** A userinfo (`user@`) comes before the host. */
  UserInfo = 8,
}

/** A record for {@link scanUrl}. */
export function newUrlRecord(): Int32Array {
  return new Int32Array(UrlField.Size)
}

/** What a byte means in the authority (AUTH[byte]). Plain bytes are letters, digits and the punctuation a plain host may hold (url/host.ts, PLAIN_BYTE). */
const enum Auth {
  Plain = 0,
  /** `/` or `?`: ends the authority; the path starts here. */
  PathStart = 1,
  /** `#`: ends the authority; the fragment starts (the path is `/` unless a `;` came first). */
  Hash = 2,
  /** `\`: ends the authority (as WHATWG reads it); the reference goes on looking for the path. */
  Backslash = 3,
  /** `;`: the reference's path starts here (a `/` in front), inside the authority. */
  Semi = 4,
  /** `@`: the userinfo ends; the host starts again after it. */
  At = 5,
  /** `:`: the host ends (unless inside an IPv6 literal); the port follows. */
  Colon = 6,
  /** `]`: ends an IPv6 literal. */
  Close = 7,
  Dot = 8,
  Dash = 9,
  /** Any other byte: the host is not plain. */
  Odd = 10,
}

const AUTH = new Uint8Array(256).fill(Auth.Odd)
for (let b = 0x30; b <= 0x39; b++) AUTH[b] = Auth.Plain
for (let b = 0x41; b <= 0x5a; b++) AUTH[b] = AUTH[b | 0x20] = Auth.Plain
// The punctuation a plain host may hold (url/host.ts, PLAIN_BYTE).
for (const c of '_!"$&\'()*+,=`{}~') AUTH[c.charCodeAt(0)] = Auth.Plain
AUTH[0x2f] = AUTH[0x3f] = Auth.PathStart
AUTH[0x23] = Auth.Hash
AUTH[0x5c] = Auth.Backslash
AUTH[0x3b] = Auth.Semi
AUTH[0x40] = Auth.At
AUTH[0x3a] = Auth.Colon
AUTH[0x5d] = Auth.Close
AUTH[0x2e] = Auth.Dot
AUTH[0x2d] = Auth.Dash

/** Scheme bytes after the first (RFC 3986: ALPHA / DIGIT / "+" / "-" / "."): 1. */
const SCHEME = new Uint8Array(256)
for (let b = 0x30; b <= 0x39; b++) SCHEME[b] = 1
for (let b = 0x41; b <= 0x5a; b++) SCHEME[b] = SCHEME[b | 0x20] = 1
SCHEME[0x2b] = SCHEME[0x2d] = SCHEME[0x2e] = 1

/** Flags of the scheme `bytes[start, end)`: Http, Https or none. */
function schemeFlags(bytes: Uint8Array, start: number, end: number): number {
  const n = end - start
  if (n !== 4 && n !== 5) return 0
  if ((bytes[start] | 0x20) !== 0x68 || (bytes[start + 1] | 0x20) !== 0x74 || (bytes[start + 2] | 0x20) !== 0x74 || (bytes[start + 3] | 0x20) !== 0x70) return 0
  if (n === 4) return UrlFlag.Http
  return (bytes[start + 4] | 0x20) === 0x73 ? UrlFlag.Https : 0
}

/** {@link schemeFlags} of `s[0, end)`. */
function schemeFlagsString(s: string, end: number): number {
  if (end !== 4 && end !== 5) return 0
  if ((s.charCodeAt(0) | 0x20) !== 0x68 || (s.charCodeAt(1) | 0x20) !== 0x74 || (s.charCodeAt(2) | 0x20) !== 0x74 || (s.charCodeAt(3) | 0x20) !== 0x70) return 0
  if (end === 4) return UrlFlag.Http
  return (s.charCodeAt(4) | 0x20) === 0x73 ? UrlFlag.Https : 0
}

/** The port after the host (`bytes[hostEnd]` is its `:`) up to `to`: a number, {@link PortCode.None} when empty, {@link PortCode.Bad} when not a port. */
function portOf(bytes: Uint8Array, hostEnd: number, to: number): number {
  if (hostEnd >= to) return PortCode.None
  if (bytes[hostEnd] !== 0x3a) return PortCode.Bad
  let port = 0
  for (let i = hostEnd + 1; i < to; i++) {
    const d = bytes[i] - 0x30
    if (d < 0 || d > 9) return PortCode.Bad
    // Leading zeros are allowed (WHATWG: `:00080` is 80); past 65535 it stays Bad.
    port = port * 10 + d
    if (port > 65535) return PortCode.Bad
  }
  return hostEnd + 1 === to ? PortCode.None : port
}

/** {@link portOf} for a string. */
function portOfString(s: string, hostEnd: number, to: number): number {
  if (hostEnd >= to) return PortCode.None
  if (s.charCodeAt(hostEnd) !== 0x3a) return PortCode.Bad
  let port = 0
  for (let i = hostEnd + 1; i < to; i++) {
    const d = s.charCodeAt(i) - 0x30
    if (d < 0 || d > 9) return PortCode.Bad
    port = port * 10 + d
    if (port > 65535) return PortCode.Bad
  }
  return hostEnd + 1 === to ? PortCode.None : port
}

/** No host: the record of a path or of text that is not a URL with `scheme://`. */
function noHost(out: Int32Array, start: number, schemeEnd: number, authorityEnd: number, ps: PathStart): false {
  out[UrlField.Start] = start
  out[UrlField.SchemeEnd] = schemeEnd
  out[UrlField.HostStart] = -1
  out[UrlField.HostEnd] = -1
  out[UrlField.Port] = PortCode.None
  out[UrlField.AuthorityEnd] = authorityEnd
  out[UrlField.PathStart] = ps
  out[UrlField.HostHash] = 0
  out[UrlField.HostHash2] = 0
  out[UrlField.Flags] = 0
  return false
}

/**
 * Scans the URL `bytes[start, end)` into `out` ({@link UrlField}); returns
 * whether it has a host. The host is found as the WHATWG parser splits an
 * authority (`scheme://[userinfo@]host[:port]`, ended by `/ ? # \`; the last
 * `@` wins; case kept in the bytes, hashed lowercased); the path start is the
 * reference's, which may differ inside odd authorities (a `;` starts the
 * path there). Linear in the URL's length; no allocation. `hash` false
 * leaves `HostHash` 0 (for callers that only ask whether there is a host).
 */
export function scanUrl(bytes: Uint8Array, start: number, end: number, out: Int32Array, hash = true): boolean {
  // The scheme: a letter, then scheme bytes, then "://".
  let p = start
  const first = p < end ? bytes[p] | 0x20 : 0
  if (first >= 0x61 && first <= 0x7a) {
    p++
    while (p < end && SCHEME[bytes[p]] === 1) p++
  }
  if (p === start || p + 3 > end || bytes[p] !== 0x3a || bytes[p + 1] !== 0x2f || bytes[p + 2] !== 0x2f) {
    return noHost(out, start, -1, -1, pathStartBytes(bytes, start, end))
  }
  return scanAuthority(bytes, start, p + 3, end, p, schemeFlags(bytes, start, p), out, hash)
}

/**
 * Scans the authority `bytes[a, …)` (up to `/ ? # \` or `end`) into `out`
 * ({@link scanUrl}'s second half): the host, port, authority end, path start
 * and hash; `schemeEnd` and `schemeBits` (Http, Https) are recorded as given.
 * Returns whether there is a host.
 */
function scanAuthority(bytes: Uint8Array, start: number, a: number, end: number, schemeEnd: number, schemeBits: number, out: Int32Array, hash: boolean): boolean {
  // The usual authority, a plain name without userinfo, port or odd bytes: a tight loop finds its end.
  let e = a
  let odd = false
  let puny = false
  let label = a
  for (; e < end; e++) {
    const k = AUTH[bytes[e]]
    if (k === Auth.Plain) continue
    if (k <= Auth.Backslash) break
    if (k === Auth.Dot) label = e + 1
    else if (k === Auth.Dash) puny ||= e === label + 3 && bytes[e - 1] === 0x2d && (bytes[e - 2] | 0x20) === 0x6e && (bytes[e - 3] | 0x20) === 0x78
    else odd = true
  }
  // Plain when its last label starts with a letter and no label is "xn--"; a last label that does not start with a
  // letter (an IPv4 address, a trailing dot) is left to the loop below, which checks it apart.
  const l = label < e ? bytes[label] | 0x20 : 0
  if (!odd && e > a && (puny || (l >= 0x61 && l <= 0x7a))) {
    const k = e < end ? AUTH[bytes[e]] : Auth.Plain
    if (k === Auth.PathStart || e === end) {
      const plain = !puny
      out[UrlField.Start] = start
      out[UrlField.SchemeEnd] = schemeEnd
      out[UrlField.HostStart] = a
      out[UrlField.HostEnd] = e
      out[UrlField.Port] = PortCode.None
      out[UrlField.AuthorityEnd] = e
      out[UrlField.PathStart] = e === end ? PathStartCode.JustSlash : e * PathStartCode.IndexScale + (bytes[e] === 0x3f ? PathStartCode.SlashPrepended : 0)
      if (hash) hostHashes(bytes, a, e, out, UrlField.HostHash)
      else out[UrlField.HostHash] = out[UrlField.HostHash2] = 0
      out[UrlField.Flags] = schemeBits | (plain ? UrlFlag.PlainHost : 0)
      return true
    }
  }
  // Anything else, byte by byte.
  let hostStart = a
  /** Where the host ended (-1: still in it). */
  let hostEnd = -1
  let bracket = a < end && bytes[a] === 0x5b
  let plain = !bracket
  let labelStart = a
  let userInfo = false
  /** The reference's path start when a ';' came first (else the authority's end decides). */
  let semi = PathStartCode.JustSlash as PathStart
  let q = a
  let kind: number = Auth.Plain
  for (; q < end; q++) {
    kind = AUTH[bytes[q]]
    if (kind === Auth.Plain) continue
    if (kind <= Auth.Backslash) break
    switch (kind) {
      case Auth.Semi:
        if (semi === PathStartCode.JustSlash) semi = (q * PathStartCode.IndexScale + PathStartCode.SlashPrepended) as PathStart
        if (hostEnd < 0) plain = false
        break
      case Auth.At:
        userInfo = true
        hostStart = q + 1
        hostEnd = -1
        bracket = hostStart < end && bytes[hostStart] === 0x5b
        plain = !bracket
        labelStart = hostStart
        break
      case Auth.Colon:
        if (hostEnd < 0 && !bracket) hostEnd = q
        break
      case Auth.Close:
        if (hostEnd < 0) {
          if (bracket) hostEnd = q + 1
          else plain = false
        }
        break
      case Auth.Dot:
        if (hostEnd < 0) labelStart = q + 1
        break
      case Auth.Dash:
        // An "xn--" label: punycode, which the WHATWG parser checks.
        if (hostEnd < 0 && q === labelStart + 3 && bytes[q - 1] === 0x2d && (bytes[q - 2] | 0x20) === 0x6e && (bytes[q - 3] | 0x20) === 0x78) plain = false
        break
      default:
        if (hostEnd < 0) plain = false
    }
  }
  if (q === end) kind = Auth.Plain
  // The reference's path start: a ';' before the authority's end, else where the authority ends.
  let ps: PathStart = semi
  if (semi === PathStartCode.JustSlash) {
    if (kind === Auth.PathStart) ps = (q * PathStartCode.IndexScale + (bytes[q] === 0x3f ? PathStartCode.SlashPrepended : 0)) as PathStart
    else if (kind === Auth.Backslash) ps = pathAfterAuthority(bytes, q + 1, end)
  }
  if (hostEnd < 0) {
    // An IPv6 literal without its closing bracket is no host.
    if (bracket) return noHost(out, start, schemeEnd, q, ps)
    hostEnd = q
  }
  if (hostEnd === hostStart) return noHost(out, start, schemeEnd, q, ps)
  const port = portOf(bytes, hostEnd, q)
  // A plain name's last label starts with a letter (else it may be an IPv4 address: plain only in dotted decimal).
  const last = labelStart < hostEnd ? bytes[labelStart] | 0x20 : 0
  if (plain && !(last >= 0x61 && last <= 0x7a)) plain = isPlainHost(bytes, hostStart, hostEnd)
  out[UrlField.Start] = start
  out[UrlField.SchemeEnd] = schemeEnd
  out[UrlField.HostStart] = hostStart
  out[UrlField.HostEnd] = hostEnd
  out[UrlField.Port] = port
  out[UrlField.AuthorityEnd] = q
  out[UrlField.PathStart] = ps
  if (hash) hostHashes(bytes, hostStart, hostEnd, out, UrlField.HostHash)
  else out[UrlField.HostHash] = out[UrlField.HostHash2] = 0
  out[UrlField.Flags] = schemeBits | (plain ? UrlFlag.PlainHost : 0) | (userInfo ? UrlFlag.UserInfo : 0)
  return true
}

/**
 * Scans a host column (`--host-field`, `--host`): `host`, `host:port`,
 * `[v6]:port`, `user@host`, or a URL (then as {@link scanUrl}); the record's
 * `SchemeEnd` is -1 unless it is a URL. Returns whether it names a host.
 * `hash` as for {@link scanUrl}.
 */
export function scanHostField(bytes: Uint8Array, start: number, end: number, out: Int32Array, hash = true): boolean {
  for (let p = start; p + 2 < end; p++) {
    if (bytes[p] === 0x3a && bytes[p + 1] === 0x2f && bytes[p + 2] === 0x2f) return scanUrl(bytes, start, end, out, hash)
  }
  return scanAuthority(bytes, start, start, end, -1, 0, out, hash)
}

/** The reference's path start after `\` ended the authority: the first `/`, `?` or `;` from `from`, unless a `#` comes first. */
function pathAfterAuthority(bytes: Uint8Array, from: number, end: number): PathStart {
  for (let i = from; i < end; i++) {
    const b = bytes[i]
    if (b === 0x2f) return pathStartAt(i, false)
    if (b === 0x3f || b === 0x3b) return pathStartAt(i, true)
    if (b === 0x23) return JUST_SLASH_START
  }
  return JUST_SLASH_START
}

/** {@link pathAfterAuthority} for a string. */
function pathAfterAuthorityString(s: string, from: number): PathStart {
  for (let i = from; i < s.length; i++) {
    const b = s.charCodeAt(i)
    if (b === 0x2f) return pathStartAt(i, false)
    if (b === 0x3f || b === 0x3b) return pathStartAt(i, true)
    if (b === 0x23) return JUST_SLASH_START
  }
  return JUST_SLASH_START
}

/**
 * {@link scanUrl} for a string (offsets in code units). A code unit above
 * 0x7f in the host makes it not plain; the host's hash is then that of its
 * code units' low bytes, which callers do not use (such a host goes through
 * the WHATWG parser).
 *
 * The scan is written twice on purpose, for bytes and for strings, as the
 * path-start scan is (url/url-path.ts): test/url/url-scan.test.ts runs one
 * set of cases through both.
 */
export function scanUrlString(url: string, out: Int32Array): boolean {
  const start = 0
  const end = url.length
  let p = 0
  const first = p < end ? url.charCodeAt(p) | 0x20 : 0
  if (first >= 0x61 && first <= 0x7a) {
    p++
    for (let c = url.charCodeAt(p); p < end && c < 0x80 && SCHEME[c] === 1; c = url.charCodeAt(++p));
  }
  if (p === 0 || p + 3 > end || url.charCodeAt(p) !== 0x3a || url.charCodeAt(p + 1) !== 0x2f || url.charCodeAt(p + 2) !== 0x2f) {
    return noHost(out, 0, -1, -1, pathStartString(url))
  }
  const schemeEnd = p
  const a = p + 3
  // The usual authority, a plain name without userinfo, port or odd chars: a tight loop finds its end.
  // COPY of scanAuthority's for chars (this file keeps one scan for bytes and one for strings; one data suite runs both).
  let e = a
  let odd = false
  let puny = false
  let label = a
  for (; e < end; e++) {
    const c = url.charCodeAt(e)
    const k = c < 0x80 ? AUTH[c] : Auth.Odd
    if (k === Auth.Plain) continue
    if (k <= Auth.Backslash) break
    if (k === Auth.Dot) label = e + 1
    else if (k === Auth.Dash) puny ||= e === label + 3 && url.charCodeAt(e - 1) === 0x2d && (url.charCodeAt(e - 2) | 0x20) === 0x6e && (url.charCodeAt(e - 3) | 0x20) === 0x78
    else odd = true
  }
  // As for bytes: a last label that does not start with a letter is left to the loop below.
  const l = label < e ? url.charCodeAt(label) | 0x20 : 0
  if (!odd && e > a && (puny || (l >= 0x61 && l <= 0x7a)) && (e === end || AUTH[url.charCodeAt(e)] === Auth.PathStart)) {
    const plain = !puny
    out[UrlField.Start] = start
    out[UrlField.SchemeEnd] = schemeEnd
    out[UrlField.HostStart] = a
    out[UrlField.HostEnd] = e
    out[UrlField.Port] = PortCode.None
    out[UrlField.AuthorityEnd] = e
    out[UrlField.PathStart] = e === end ? PathStartCode.JustSlash : e * PathStartCode.IndexScale + (url.charCodeAt(e) === 0x3f ? PathStartCode.SlashPrepended : 0)
    out[UrlField.HostHash] = hostHashString(url, a, e)
    out[UrlField.HostHash2] = 0
    out[UrlField.Flags] = schemeFlagsString(url, schemeEnd) | (plain ? UrlFlag.PlainHost : 0)
    return true
  }
  // Anything else, char by char.
  let hostStart = a
  let hostEnd = -1
  let bracket = a < end && url.charCodeAt(a) === 0x5b
  let plain = !bracket
  let labelStart = a
  let userInfo = false
  let semi = PathStartCode.JustSlash as PathStart
  let q = a
  let kind: number = Auth.Plain
  for (; q < end; q++) {
    const c = url.charCodeAt(q)
    kind = c < 0x80 ? AUTH[c] : Auth.Odd
    if (kind === Auth.Plain) continue
    if (kind <= Auth.Backslash) break
    switch (kind) {
      case Auth.Semi:
        if (semi === PathStartCode.JustSlash) semi = (q * PathStartCode.IndexScale + PathStartCode.SlashPrepended) as PathStart
        if (hostEnd < 0) plain = false
        break
      case Auth.At:
        userInfo = true
        hostStart = q + 1
        hostEnd = -1
        bracket = hostStart < end && url.charCodeAt(hostStart) === 0x5b
        plain = !bracket
        labelStart = hostStart
        break
      case Auth.Colon:
        if (hostEnd < 0 && !bracket) hostEnd = q
        break
      case Auth.Close:
        if (hostEnd < 0) {
          if (bracket) hostEnd = q + 1
          else plain = false
        }
        break
      case Auth.Dot:
        if (hostEnd < 0) labelStart = q + 1
        break
      case Auth.Dash:
        if (hostEnd < 0 && q === labelStart + 3 && url.charCodeAt(q - 1) === 0x2d && (url.charCodeAt(q - 2) | 0x20) === 0x6e && (url.charCodeAt(q - 3) | 0x20) === 0x78) plain = false
        break
      default:
        if (hostEnd < 0) plain = false
    }
  }
  if (q === end) kind = Auth.Plain
  let ps: PathStart = semi
  if (semi === PathStartCode.JustSlash) {
    if (kind === Auth.PathStart) ps = (q * PathStartCode.IndexScale + (url.charCodeAt(q) === 0x3f ? PathStartCode.SlashPrepended : 0)) as PathStart
    else if (kind === Auth.Backslash) ps = pathAfterAuthorityString(url, q + 1)
  }
  if (hostEnd < 0) {
    if (bracket) return noHost(out, start, schemeEnd, q, ps)
    hostEnd = q
  }
  if (hostEnd === hostStart) return noHost(out, start, schemeEnd, q, ps)
  const port = portOfString(url, hostEnd, q)
  const last = labelStart < hostEnd ? url.charCodeAt(labelStart) | 0x20 : 0
  if (plain && !(last >= 0x61 && last <= 0x7a)) plain = isPlainHost(url, hostStart, hostEnd)
  out[UrlField.Start] = start
  out[UrlField.SchemeEnd] = schemeEnd
  out[UrlField.HostStart] = hostStart
  out[UrlField.HostEnd] = hostEnd
  out[UrlField.Port] = port
  out[UrlField.AuthorityEnd] = q
  out[UrlField.PathStart] = ps
  out[UrlField.HostHash] = hostHashString(url, hostStart, hostEnd)
  out[UrlField.HostHash2] = 0
  out[UrlField.Flags] = schemeFlagsString(url, schemeEnd) | (plain ? UrlFlag.PlainHost : 0) | (userInfo ? UrlFlag.UserInfo : 0)
  return true
}
