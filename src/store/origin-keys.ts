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

/** The FNV-1a prime of the bundle's checksum (store/bundle-codec.ts): checksums stay FNV-1a (src/url/keyed-hash.ts says why). */
export const FNV_PRIME = 0x01000193

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
