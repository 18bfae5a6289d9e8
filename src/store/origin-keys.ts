/**
 * The keys of a `RobotsStore`, as ASCII bytes: an origin key,
 * `scheme://host[:port]` (scheme and host lowercased, the host as the WHATWG
 * URL parser writes it: punycode, canonical IPv4, bracketed IPv6; the port
 * only when it is not the scheme's default), or a bare-host key, `host`, which
 * applies to every scheme and port of that host. A URL is looked up by its
 * origin first, then by its bare host; keys compare ASCII-case-insensitively.
 */
import { describeValue, RobotsInputError } from '../errors.js'

/** Longest key kept (a host name is at most 253 bytes; a key has room for a scheme and a port). */
export const MAX_KEY_BYTES = 1024

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' }

const encoder = new TextEncoder()

/** The parts of a key: the key, and where its host starts and ends in it. */
export interface KeyParts {
  key: string
  hostStart: number
  hostEnd: number
}

function badKey(what: string, key: unknown, why: string): never {
  throw new RobotsInputError(`${what}: ${typeof key === 'string' ? JSON.stringify(key.slice(0, 200)) : describeValue(key)} ${why}`)
}

/** The origin key of a parsed URL: `scheme://host[:port]`, lowercased. */
function originOf(u: URL): KeyParts {
  const scheme = u.protocol.toLowerCase()
  const host = u.hostname.toLowerCase()
  const port = u.port && u.port !== DEFAULT_PORTS[scheme] ? `:${u.port}` : ''
  const key = `${scheme}//${host}${port}`
  return { key, hostStart: scheme.length + 2, hostEnd: scheme.length + 2 + host.length }
}

/**
 * The key of a `set`, `setOutcome`, `has`, `delete` or `get` argument: an
 * origin or any URL of the site (`https://example.com/a` → its origin), or
 * a bare host (`example.com`). Anything else is a RobotsInputError.
 */
export function storeKey(input: unknown, what: string): KeyParts {
  let parts: KeyParts
  if (typeof URL === 'function' && input instanceof URL) parts = originOf(input)
  else if (typeof input !== 'string') badKey(what, input, 'is not an origin or host (a string or a URL)')
  else if (input.includes('://')) {
    let u: URL
    try {
      u = new URL(input)
    } catch {
      badKey(what, input, 'is not a URL')
    }
    parts = originOf(u)
  } else {
    // A bare host: exactly a host, nothing around it.
    let u: URL | undefined
    try {
      u = new URL(`http://${input}`)
    } catch {
      u = undefined
    }
    const ipv6 = input.startsWith('[') && input.endsWith(']')
    if (u === undefined || /[/?#@\\\s]/.test(input) || (!ipv6 && input.includes(':'))) {
      badKey(what, input, 'is not an origin (scheme://host[:port]) or a bare host (host, no port)')
    }
    const host = u.hostname.toLowerCase()
    parts = { key: host, hostStart: 0, hostEnd: host.length }
  }
  if (parts.hostEnd === parts.hostStart) badKey(what, input, 'has no host')
  if (parts.key.length > MAX_KEY_BYTES) badKey(what, input, `makes a key longer than ${MAX_KEY_BYTES} bytes`)
  return parts
}

/** The key's bytes (keys are ASCII). */
export function keyBytes(key: string): Uint8Array {
  return encoder.encode(key)
}

/** FNV-1a offset basis and prime (store/key-index.ts hashes keys the same way). */
const FNV_BASIS = 0x811c9dc5
export const FNV_PRIME = 0x01000193

/** FNV-1a state after the bytes of `text`. */
function fnvOf(text: string): number {
  let h = FNV_BASIS
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  return h
}
const HTTP_STATE = fnvOf('http://')
const HTTPS_STATE = fnvOf('https://')

/** Where {@link fastOrigin} leaves the host's range and the two keys' hashes. */
export const OriginOut = {
  HostStart: 0,
  HostEnd: 1,
  /** hashKey of the origin key. */
  OriginHash: 2,
  /** hashKey of the bare host (the host's range of the key). */
  HostHash: 3,
  Size: 4,
} as const

/**
 * Writes the origin key of the URL in `url` into `out` and returns its
 * length, with the host's range and both keys' hashes in `range`
 * ({@link OriginOut}); 0 when the URL is not on the fast path. `url` is a
 * string or bytes.
 *
 * The fast path makes no string, the usual case: an http(s) URL whose
 * authority is a plain ASCII host name (letters, digits, `.` and `-`, its
 * last label starting with a letter, no `xn--` label, no user info) and an
 * optional decimal port is reduced to its key bytes directly; any other URL
 * goes through `new URL()` ({@link slowOrigin}).
 */
export function fastOrigin(url: string | Uint8Array, start: number, end: number, out: Uint8Array, range: Int32Array): number {
  // One test per char on a local, not a typeof per char.
  const text = typeof url === 'string' ? url : null
  const bytes = text === null ? (url as Uint8Array) : null
  const at = (k: number): number => (text !== null ? text.charCodeAt(k) : bytes![k])
  // "http" or "https", any case, then "://".
  let i = start
  if (end - i < 8) return 0
  if ((at(i) | 0x20) !== 0x68 || (at(i + 1) | 0x20) !== 0x74 || (at(i + 2) | 0x20) !== 0x74 || (at(i + 3) | 0x20) !== 0x70) return 0
  i += 4
  const https = (at(i) | 0x20) === 0x73
  if (https) i++
  if (at(i) !== 0x3a || at(i + 1) !== 0x2f || at(i + 2) !== 0x2f) return 0
  i += 3
  let n = 0
  const scheme = https ? 'https://' : 'http://'
  for (let k = 0; k < scheme.length; k++) out[n++] = scheme.charCodeAt(k)
  const hostStart = n
  let labelStart = n
  // Both hashes as the bytes go by: the origin's (after the scheme) and the bare host's.
  let ho = https ? HTTPS_STATE : HTTP_STATE
  let hh = FNV_BASIS
  for (; i < end; i++) {
    let c = at(i)
    if (c >= 65 && c <= 90) c += 32
    else if (c === 0x2e) labelStart = n + 1
    else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) break
    if (n === MAX_KEY_BYTES) return 0
    out[n++] = c
    ho = Math.imul(ho ^ c, FNV_PRIME)
    hh = Math.imul(hh ^ c, FNV_PRIME)
    if (c === 45 && n - labelStart === 4 && out[labelStart + 2] === 45 && out[labelStart] === 120 && out[labelStart + 1] === 110) return 0
  }
  const hostEnd = n
  // A last label that starts with a letter: a host name, not an IPv4 address.
  if (hostEnd === hostStart || labelStart >= hostEnd || out[labelStart] < 97) return 0
  if (i < end) {
    const c = at(i)
    if (c === 0x3a) {
      // A port: decimal digits up to the end of the authority.
      let port = 0
      let digits = 0
      for (i++; i < end; i++) {
        const d = at(i)
        if (d < 48 || d > 57) break
        port = port * 10 + (d - 48)
        if (++digits > 5) return 0
      }
      if (port > 65535) return 0
      if (i < end && !isAuthorityEnd(at(i))) return 0
      if (digits > 0 && port !== (https ? 443 : 80)) {
        const text = String(port)
        if (n + 1 + text.length > MAX_KEY_BYTES) return 0
        out[n++] = 0x3a
        ho = Math.imul(ho ^ 0x3a, FNV_PRIME)
        for (let k = 0; k < text.length; k++) {
          out[n++] = text.charCodeAt(k)
          ho = Math.imul(ho ^ text.charCodeAt(k), FNV_PRIME)
        }
      }
    } else if (!isAuthorityEnd(c)) return 0
  }
  range[OriginOut.HostStart] = hostStart
  range[OriginOut.HostEnd] = hostEnd
  range[OriginOut.OriginHash] = ho
  range[OriginOut.HostHash] = hh
  return n
}

/** `/`, `?`, `#` or `\` (which special URLs read as `/`) end the authority. */
function isAuthorityEnd(c: number): boolean {
  return c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c
}

const latin1Decoder = new TextDecoder('latin1')
const utf8Decoder = new TextDecoder('utf-8')

/**
 * The origin key of any URL (the slow path: `new URL()`), or null when it is
 * not an absolute URL with a host. Bytes are read as UTF-8.
 */
export function slowOrigin(url: string | Uint8Array): KeyParts | null {
  let text = typeof url === 'string' ? url : ''
  if (typeof url !== 'string') {
    let ascii = true
    for (let i = 0; i < url.length && ascii; i++) if (url[i] >= 0x80) ascii = false
    text = ascii ? latin1Decoder.decode(url) : utf8Decoder.decode(url)
  }
  let u: URL
  try {
    u = new URL(text)
  } catch {
    return null
  }
  if (u.hostname === '') return null
  const parts = originOf(u)
  return parts.key.length > MAX_KEY_BYTES ? null : parts
}
