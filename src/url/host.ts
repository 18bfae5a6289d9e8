/**
 * The one host function: a host as written (in a URL, a log's host column,
 * a file's name, a store key) to the host the WHATWG URL parser gives
 * (`new URL('http://' + host).hostname`): IDNA/UTS-46 to punycode,
 * lowercase, IPv4 number forms to dotted decimal, IPv6 compressed in
 * brackets, percent-encoded UTF-8 decoded first, a trailing dot dropped. A
 * plain host ({@link isPlainHost}) is its own lowercase and never reaches
 * the parser; any other goes through the platform's `URL` (browsers and
 * Node alike). A host the parser refuses is never judged as another: it is
 * refused, with the reason in words ({@link hostRefusal}).
 */
import { describeValue, RobotsInputError } from '../errors.js'

/**
 * What a plain host's bytes may hold (1): letters, digits, `-`, `.`, `_`
 * and the other printable ASCII that UTS-46 (without STD3 rules, as the
 * WHATWG parser runs it) keeps as it is and that is no forbidden host or
 * domain code point: `! " $ & ' ( ) * + , = \` { } ~`. Each maps to itself
 * (letters lowercased), none starts an escape. Left out: `%` (an escape),
 * `;` (the reference's path may start there), and what the parser refuses
 * or splits at (`# / : < > ? @ [ \ ] ^ |`, blanks, controls).
 */
export const PLAIN_BYTE = new Uint8Array(128)
for (let b = 0x30; b <= 0x39; b++) PLAIN_BYTE[b] = 1
for (let b = 0x41; b <= 0x5a; b++) PLAIN_BYTE[b] = PLAIN_BYTE[b | 0x20] = 1
for (const c of '-._!"$&\'()*+,=`{}~') PLAIN_BYTE[c.charCodeAt(0)] = 1

/**
 * Whether `s[start, end)` (a string, or bytes) is a plain host: the WHATWG
 * URL parser gives it back ASCII-lowercased and unchanged, so it needs no
 * parser. Either
 *
 * - a name of {@link PLAIN_BYTE}s (letters, digits, `-`, `.`, `_`, and
 *   ASCII punctuation the parser keeps), whose last label is not empty
 *   and starts with a letter (so the host does not end in a number, and is
 *   not read as IPv4), and where no label starts with `xn--` (punycode,
 *   which the parser must decode and check: `xn--a.com` is refused); or
 * - an IPv4 address in dotted decimal as the parser writes it: four parts,
 *   each 0–255 without a leading zero.
 *
 * Anything else (non-ASCII, `%`, a trailing dot, IPv4 in other forms, IPv6,
 * empty) is not plain: the parser decides.
 */
export function isPlainHost(s: string | Uint8Array, start = 0, end = s.length): boolean {
  if (end <= start) return false
  const text = typeof s === 'string'
  let label = start
  let digitsOnly = true
  for (let i = start; i < end; i++) {
    const c = text ? (s as string).charCodeAt(i) : (s as Uint8Array)[i]
    if (c >= 0x80 || PLAIN_BYTE[c] === 0) return false
    if (c === 0x2e) {
      label = i + 1
      continue
    }
    if (c < 0x30 || c > 0x39) digitsOnly = false
    // A label "xn--" (any case): punycode.
    if (c === 0x2d && i === label + 3 && at(s, i - 1) === 0x2d && (at(s, i - 2) | 0x20) === 0x6e && (at(s, i - 3) | 0x20) === 0x78) return false
  }
  if (label < end) {
    const l = at(s, label) | 0x20
    if (l >= 0x61 && l <= 0x7a) return true
  }
  return digitsOnly && isDottedDecimal(s, start, end)
}

function at(s: string | Uint8Array, i: number): number {
  return typeof s === 'string' ? s.charCodeAt(i) : s[i]
}

/** Whether `s[start, end)` (digits and dots only) is an IPv4 address as the parser writes one: four parts of 0–255, no leading zero. */
function isDottedDecimal(s: string | Uint8Array, start: number, end: number): boolean {
  let parts = 0
  let p = start
  while (p <= end) {
    let q = p
    let value = 0
    while (q < end && at(s, q) !== 0x2e) {
      value = value * 10 + at(s, q) - 0x30
      q++
    }
    const n = q - p
    if (n === 0 || n > 3 || value > 255 || (n > 1 && at(s, p) === 0x30)) return false
    if (++parts > 4) return false
    p = q + 1
  }
  return parts === 4
}

/** The ASCII lowercase of `s` (a plain host holds nothing else to fold). */
function asciiLower(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : s
}

/**
 * Bytes that end a host inside a URL (`/ ? # \ @`), and `:` outside an
 * IPv6 literal: text holding them is more than a host (a path, a userinfo,
 * a port), which the parser would split off, so it is no host.
 */
const NOT_IN_HOST = /[/?#\\@]/

/**
 * Hosts that are not plain, as the parser read them lately (text → host, or
 * null when refused): a list of URLs or a log names the same hosts again and
 * again, and the parser costs microseconds a call. Small, and forgotten all
 * at once when full, so its memory is bounded whatever the input.
 */
let recent = new Map<string, string | null>()
const RECENT_LIMIT = 256
/** Longest text kept in `recent` (a host is at most 253 bytes once parsed). */
const RECENT_TEXT = 256

/**
 * The host the WHATWG URL parser gives for the host `text` as written, or
 * null when the parser refuses it ({@link hostRefusal} says why) or `text`
 * is more than a host (a port, a path, a userinfo).
 */
export function canonicalHostOrNull(text: string): string | null {
  if (isPlainHost(text)) return asciiLower(text)
  const hit = recent.get(text)
  if (hit !== undefined) return hit
  const host = parsedHost(text)
  if (text.length <= RECENT_TEXT) {
    if (recent.size >= RECENT_LIMIT) recent = new Map()
    recent.set(text, host)
  }
  return host
}

/** {@link canonicalHostOrNull} of a host that is not plain: the parser's answer. */
function parsedHost(text: string): string | null {
  if (text === '' || NOT_IN_HOST.test(text)) return null
  const v6 = text.charCodeAt(0) === 0x5b
  if (!v6 && text.includes(':')) return null
  let u: URL
  try {
    u = new URL(`http://${text}/`)
  } catch {
    return null
  }
  const host = u.hostname
  // The DNS root's dot dropped (`example.com.` is `example.com` for DNS and every server), then parsed again (`0x7f..`).
  const cut = host.replace(/([^.])\.+$/, '$1')
  if (cut !== host) return parsedHost(cut)
  // An IPv6 literal is the whole text or nothing ("[::1]:80" is a port more).
  if (v6 && (host.charCodeAt(0) !== 0x5b || u.port !== '')) return null
  return host === '' ? null : host
}

/** Why the parser refuses the host `text` (for one that {@link canonicalHostOrNull} refused), in words. */
export function hostRefusal(text: string): string {
  if (text === '') return 'it is empty'
  if (text.charCodeAt(0) === 0x5b) {
    return text.endsWith(']') ? 'it is not a valid IPv6 address' : 'an IPv6 address must be the whole host, in brackets'
  }
  // An IPv6 address written without its brackets (a file named `::1`).
  if (/^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/.test(text) && canonicalHostOrNull(`[${text}]`) !== null) return `it is an IPv6 address, which a host writes in brackets: [${text}]`
  const more = /[/?#\\@:]/.exec(text)
  if (more !== null) return `it holds ${charWords(more[0])}: a host ends before it (a ${more[0] === ':' ? 'port' : more[0] === '@' ? 'user name' : 'path'} is not part of it)`
  let decoded = text.replace(/[\t\n\r]/g, '')
  if (decoded.includes('%')) {
    const bytes = percentDecode(decoded)
    const utf8 = new TextDecoder('utf-8', { fatal: true })
    try {
      decoded = utf8.decode(bytes)
    } catch {
      return 'its percent-encoded bytes are not UTF-8'
    }
  }
  const forbidden = /[\u0000-\u0020#%/:<>?@[\\\]^|\u007f]/.exec(decoded)
  if (forbidden !== null) return `it holds ${charWords(forbidden[0])}, which no host name may hold`
  if (endsInNumber(decoded)) return 'it ends in a number but is not a valid IPv4 address'
  return 'it is not a valid international domain name: UTS-46 processing refuses it'
}

/** A character in words for a message: `U+0020 (space)`, `'%'`. */
function charWords(c: string): string {
  const code = c.codePointAt(0)!
  if (code === 0x20) return 'a space'
  if (code < 0x20 || code === 0x7f) return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  return `'${c}'`
}

/** WHATWG percent-decoding: `%XX` to its byte, anything else as its UTF-8 bytes. */
function percentDecode(s: string): Uint8Array {
  const bytes = new TextEncoder().encode(s)
  const out = new Uint8Array(bytes.length)
  let n = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16)
      i += 2
    } else out[n++] = b
  }
  return out.subarray(0, n)
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66))
}

/** WHATWG's "ends in a number" of `s` without its trailing dots (dropped as {@link parsedHost} drops them): its last label is digits, or `0x` and hex digits. */
function endsInNumber(s: string): boolean {
  return /(^|\.)([0-9]+|0[xX][0-9A-Fa-f]*)\.*$/.test(s)
}

/**
 * The host as the WHATWG URL parser gives it for `host`, a host as written
 * (`Bücher.DE`, `b%C3%BCcher.de`, `0x7f.1`, `[0:0::1]`, `EXAMPLE.com.`):
 * punycode, lowercase, IPv4 in dotted decimal, IPv6 compressed in brackets,
 * a trailing dot dropped. A plain ASCII name costs no parse. A host the parser
 * refuses (`xn--a.com`, `a b`, `%00`, `1.2.3.256`, an empty one), or text
 * that is more than a host (`example.com:80`, `user@host`, `host/path`), is
 * a RobotsInputError (ERR_INPUT) saying why; so is anything but a string.
 */
export function canonicalHost(host: string): string {
  if (typeof host !== 'string') throw new RobotsInputError(`canonicalHost takes a string, got ${describeValue(host)}`)
  const canonical = canonicalHostOrNull(host)
  if (canonical === null) throw new RobotsInputError(`canonicalHost: ${quoteHost(host)} is not a host: ${hostRefusal(host)}`)
  return canonical
}

/** A host (or a URL, a key) for a message: JSON-quoted, cut at 200 chars, controls and invisible characters (a BOM, zero-width and bidirectional ones) escaped as `\u` escapes. */
export function quoteHost(host: string): string {
  const cut = host.length > 200 ? `${host.slice(0, 200)}…` : host
  return JSON.stringify(cut).replace(/[\u007f-\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
