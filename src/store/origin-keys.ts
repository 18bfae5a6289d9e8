/**
 * The keys of a `RobotsStore`, as ASCII bytes: an origin key,
 * `scheme://host[:port]` (scheme and host lowercased, the host as the WHATWG
 * URL parser writes it: punycode, canonical IPv4, bracketed IPv6; the port
 * only when it is not the scheme's default), or a bare-host key, `host`, which
 * applies to every scheme and port of that host. A URL is looked up by its
 * origin first, then by its bare host; keys compare ASCII-case-insensitively.
 * An http(s) URL with a plain host is looked up from its scan
 * (src/url/url-scan.ts) without a key made; any other by {@link slowOrigin}.
 */
import { describeValue, RobotsInputError } from '../errors.js'
import { canonicalHostOrNull, hostRefusal, isPlainHost, quoteHost } from '../url/host.js'
import { hostProblem } from '../url/url-scan-record.js'

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
  throw new RobotsInputError(`${what}: ${typeof key === 'string' ? quoteHost(key) : describeValue(key)} ${why}`)
}

/** The origin key of a parsed URL: `scheme://host[:port]`, lowercased. */
function originOf(u: URL): KeyParts {
  const scheme = u.protocol.toLowerCase()
  const name = u.hostname.toLowerCase()
  // A trailing dot dropped, as the one host function does.
  const host = name.endsWith('.') ? (canonicalHostOrNull(name) ?? '') : name
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
      // Say why when the authority is the cause (a host the parser refuses, a port that is none).
      const why = hostProblem(input)
      badKey(what, input, why === '' ? 'is not a URL' : `is not a URL of a site: ${why}`)
    }
    parts = originOf(u)
  } else {
    // A bare host: exactly a host, nothing around it, as the one host function (url/host.ts) reads it.
    const host = canonicalHostOrNull(input)
    if (host === null) {
      badKey(what, input, `is not an origin (scheme://host[:port]) or a bare host (host, no port): ${hostRefusal(input)}`)
    }
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

/** The FNV-1a prime of the bundle's checksum (store/bundle-codec.ts): checksums stay FNV-1a (src/url/keyed-hash.ts says why). */
export const FNV_PRIME = 0x01000193

const latin1Decoder = new TextDecoder('latin1')
const utf8Decoder = new TextDecoder('utf-8')

/**
 * The origin key of any URL (the slow path: `new URL()`), or null when it is
 * not an absolute URL with a host. Bytes are read as UTF-8. The key may be
 * longer than {@link MAX_KEY_BYTES} (then no entry has it, though its bare
 * host may have one).
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
  return originOf(u)
}

/**
 * Why the key `bytes[start, end)` (printable ASCII) is not in the form the
 * store writes keys (see the module comment), or undefined when it is: the
 * check of a loaded bundle's keys. An http(s) origin or a bare host whose
 * host is plain (url/host.ts) is checked byte by byte; any other key is
 * made again by {@link storeKey} and compared.
 */
export function keyFormProblem(bytes: Uint8Array, start: number, end: number): string | undefined {
  let sep = -1
  for (let i = start; i + 2 < end; i++) {
    if (bytes[i] === 0x3a && bytes[i + 1] === 0x2f && bytes[i + 2] === 0x2f) {
      sep = i
      break
    }
  }
  let fast = false
  if (sep < 0) fast = isPlainHost(bytes, start, end) && lowercase(bytes, start, end)
  else {
    const n = sep - start
    const http = n === 4 && bytes[start] === 0x68 && bytes[start + 1] === 0x74 && bytes[start + 2] === 0x74 && bytes[start + 3] === 0x70
    const https = n === 5 && bytes[start] === 0x68 && bytes[start + 1] === 0x74 && bytes[start + 2] === 0x74 && bytes[start + 3] === 0x70 && bytes[start + 4] === 0x73
    if (http || https) {
      const hs = sep + 3
      let he = hs
      while (he < end && bytes[he] !== 0x3a) he++
      fast = isPlainHost(bytes, hs, he) && lowercase(bytes, hs, he) && canonicalPort(bytes, he, end, https ? 443 : 80)
    }
  }
  if (fast) return undefined
  const text = String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[])
  let key: string
  try {
    key = storeKey(text, 'key').key
  } catch (err) {
    if (!(err instanceof RobotsInputError)) throw err
    return sep < 0 ? `${JSON.stringify(text)} is not a host: ${hostRefusal(text)}` : `${JSON.stringify(text)} is not an origin (scheme://host[:port])`
  }
  return key === text ? undefined : `${JSON.stringify(text)} is not in the form the store writes keys (${JSON.stringify(key)})`
}

/** Whether `bytes[start, end)` holds no ASCII capital letter. */
function lowercase(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] >= 0x41 && bytes[i] <= 0x5a) return false
  return true
}

/** Whether `bytes[colon, end)` is nothing, or `:` and a port as the store writes it: 0–65535, no leading zero, not the scheme's default. */
function canonicalPort(bytes: Uint8Array, colon: number, end: number, defaultPort: number): boolean {
  if (colon === end) return true
  const n = end - colon - 1
  if (n < 1 || n > 5 || (n > 1 && bytes[colon + 1] === 0x30)) return false
  let port = 0
  for (let i = colon + 1; i < end; i++) {
    const d = bytes[i] - 0x30
    if (d < 0 || d > 9) return false
    port = port * 10 + d
  }
  return port <= 65535 && port !== defaultPort
}
