/**
 * Which hosts only the local machine or network can reach: the address
 * classifier behind the redirect check of `fetchRobots` (SSRF). It parses
 * only the normal forms the WHATWG URL parser writes (`URL.hostname`), and
 * looks at the host as written: a name that resolves to a private address
 * (DNS rebinding) is not seen here ({@link classifyHost} says what to do).
 */
import { describeValue, RobotsInputError } from '../errors.js'

/**
 * Why a host is not a public one:
 * - `loopback`: 127.0.0.0/8, `::1`, `localhost` and `*.localhost` (RFC 6761).
 * - `unspecified`: 0.0.0.0/8 ("this network"; 0.0.0.0 reaches the local host
 *   on Linux and macOS) and `::`.
 * - `private`: 10/8, 172.16/12, 192.168/16 (RFC 1918), `fc00::/7` (unique
 *   local) and the deprecated site-local `fec0::/10`.
 * - `link-local`: 169.254/16 (cloud metadata services live at 169.254.169.254)
 *   and `fe80::/10`.
 * - `shared`: 100.64/10, carrier-grade NAT (RFC 6598).
 * - `reserved`: the rest of the special-purpose ranges that are not globally
 *   reachable (IANA registries): 192.0.0/24, the documentation ranges
 *   (192.0.2/24, 198.51.100/24, 203.0.113/24, `2001:db8::/32`, `3fff::/20`),
 *   benchmarking 198.18/15, multicast 224/4 and `ff00::/8`, 240/4 with the
 *   broadcast address, `2001::/23` (Teredo and other protocol assignments), the
 *   deprecated IPv4-compatible `::a.b.c.d`, and IPv6 outside the global
 *   unicast block `2000::/3`.
 * - `local-name`: names only a local resolver answers: a single label
 *   (`metadata`, `intranet`: resolved through the search list), `*.local`
 *   (mDNS, RFC 6762), `*.home.arpa` (RFC 8375) and `*.internal` (reserved by
 *   ICANN for private use).
 *
 * IPv6 forms that carry an IPv4 address are classified by that address:
 * IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d` and 6to4 `2002:AABB:CCDD::`.
 */
export type HostClass = 'loopback' | 'unspecified' | 'private' | 'link-local' | 'shared' | 'reserved' | 'local-name'

/** An IPv4 range: base address, prefix length, class. */
type Range4 = readonly [base: number, bits: number, cls: HostClass]

function ipv4(dotted: string): number {
  const p = dotted.split('.').map(Number)
  return ((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0
}

const IPV4_RANGES: readonly Range4[] = (
  [
    ['0.0.0.0', 8, 'unspecified'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'shared'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'],
    ['192.0.2.0', 24, 'reserved'],
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'reserved'],
    ['198.51.100.0', 24, 'reserved'],
    ['203.0.113.0', 24, 'reserved'],
    ['224.0.0.0', 4, 'reserved'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([base, bits, cls]) => [ipv4(base), bits, cls] as const)

/** The class of an IPv4 address (a 32-bit unsigned integer), or undefined when it is public. */
export function classifyIpv4(addr: number): HostClass | undefined {
  for (const [base, bits, cls] of IPV4_RANGES) {
    const shift = 32 - bits
    if (addr >>> shift === base >>> shift) return cls
  }
  return undefined
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** A dotted-decimal IPv4 address as an unsigned integer, or -1. */
function parseIpv4(host: string): number {
  const m = DOTTED.exec(host)
  if (!m) return -1
  let addr = 0
  for (let i = 1; i <= 4; i++) {
    const octet = Number(m[i])
    if (octet > 255) return -1
    addr = addr * 256 + octet
  }
  return addr
}

/**
 * An IPv6 address (without brackets) as 8 groups of 16 bits, or undefined.
 * Accepts `::` compression and a dotted IPv4 tail, though `URL` never writes one.
 */
export function parseIpv6(text: string): number[] | undefined {
  let s = text
  const lastColon = s.lastIndexOf(':')
  if (lastColon < 0) return undefined
  if (s.includes('.', lastColon)) {
    // A dotted IPv4 tail is the last two groups.
    const v4 = parseIpv4(s.slice(lastColon + 1))
    if (v4 < 0) return undefined
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const groups = (part: string): number[] | undefined => {
    if (part === '') return []
    const out: number[] = []
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
      out.push(parseInt(g, 16))
    }
    return out
  }
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !rest) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  const explicit = head.length + rest.length
  if (explicit > 7) return undefined
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest]
}

/** Whether the first `bits` bits of `g` equal those of `prefix` (both 8 groups of 16 bits). */
function hasPrefix(g: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const take = Math.min(bits, 16)
    const mask = (0xffff << (16 - take)) & 0xffff
    if ((g[i]! & mask) !== (prefix[i]! & mask)) return false
  }
  return true
}

const V6 = (text: string): number[] => parseIpv6(text)!

const MAPPED = V6('::ffff:0:0') // ::ffff:a.b.c.d
const TRANSLATED = V6('::ffff:0:0:0') // ::ffff:0:a.b.c.d (RFC 2765)
const NAT64 = V6('64:ff9b::') // RFC 6052 well-known prefix
const SIX_TO_FOUR = V6('2002::')
const GLOBAL_UNICAST = V6('2000::')

const IPV6_RANGES: readonly (readonly [prefix: number[], bits: number, cls: HostClass])[] = [
  [V6('fc00::'), 7, 'private'],
  [V6('fec0::'), 10, 'private'],
  [V6('fe80::'), 10, 'link-local'],
  [V6('ff00::'), 8, 'reserved'],
  [V6('2001::'), 23, 'reserved'],
  [V6('2001:db8::'), 32, 'reserved'],
  [V6('3fff::'), 20, 'reserved'],
]

const embeddedV4 = (hi: number, lo: number): number => ((hi << 16) | lo) >>> 0

/** The class of an IPv6 address (8 groups of 16 bits), or undefined when it is public. */
export function classifyIpv6(g: readonly number[]): HostClass | undefined {
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroTo(7) && g[7] === 0) return 'unspecified'
  if (zeroTo(7) && g[7] === 1) return 'loopback'
  if (hasPrefix(g, MAPPED, 96) || hasPrefix(g, TRANSLATED, 96) || hasPrefix(g, NAT64, 96)) {
    return classifyIpv4(embeddedV4(g[6]!, g[7]!))
  }
  if (zeroTo(6)) return classifyIpv4(embeddedV4(g[6]!, g[7]!)) ?? 'reserved' // deprecated IPv4-compatible
  for (const [prefix, bits, cls] of IPV6_RANGES) if (hasPrefix(g, prefix, bits)) return cls
  if (!hasPrefix(g, GLOBAL_UNICAST, 3)) return 'reserved'
  if (hasPrefix(g, SIX_TO_FOUR, 16)) return classifyIpv4(embeddedV4(g[1]!, g[2]!))
  return undefined
}

const LOCAL_SUFFIXES = ['.local', '.home.arpa', '.internal']

/**
 * A name or IPv4 address without the DNS root's trailing dots: the URL parser
 * keeps them past the first (`localhost..`, `127.0.0.1..`), and the store
 * keys such a host as the one without them, so it is classified as that one.
 */
function withoutRootDots(host: string): string {
  return host.replace(/([^.])\.+$/, '$1')
}

/** The class of a host name that is not an address literal (its trailing dots dropped), or undefined. */
function classifyName(n: string): HostClass | undefined {
  if (n === 'localhost' || n.endsWith('.localhost')) return 'loopback'
  if (!n.includes('.')) return 'local-name'
  for (const suffix of LOCAL_SUFFIXES) if (n.endsWith(suffix)) return 'local-name'
  return undefined
}

/** A string that starts as a URL does (`scheme://`), not as a host. */
const URL_STRING = /^[a-z][a-z0-9+.-]*:\/\//i

/** `URL.hostname` of `url`, or undefined when it is not a valid URL. */
function urlHostname(url: string): string | undefined {
  try {
    return new URL(url).hostname
  } catch {
    return undefined
  }
}

/**
 * `URL.hostname` of `http://host/` (IPv6 given without brackets put in
 * them), or undefined when that is not a valid URL. A host with a port or a
 * userinfo (`127.0.0.1:8080`, `u:p@localhost`), no IPv6 address, is the host it names.
 */
function normalise(host: string): string | undefined {
  if (host.includes(':') && !host.startsWith('[')) return urlHostname(`http://[${host}]/`) ?? urlHostname(`http://${host}/`)
  return urlHostname(`http://${host}/`)
}

/**
 * The class of a host already in the URL parser's normal form
 * (`URL.hostname`: IPv6 in brackets) or of a numeric address as a resolver
 * gives it (IPv6 without brackets), without parsing it again: the address
 * policy's check per connection.
 */
export function classifyNormalHost(hostname: string): HostClass | undefined {
  if (hostname === '') return undefined
  if (hostname.startsWith('[')) {
    const g = parseIpv6(hostname.slice(1, -1))
    return g ? classifyIpv6(g) : undefined
  }
  if (hostname.includes(':')) {
    const g = parseIpv6(hostname)
    return g ? classifyIpv6(g) : undefined
  }
  const host = withoutRootDots(hostname)
  const v4 = parseIpv4(host)
  if (v4 >= 0) return classifyIpv4(v4)
  return classifyName(host.toLowerCase())
}

/**
 * Whether `host` (a `URL`, or a string that starts as one does, `scheme://`,
 * whose `hostname` is used; or a host string in any spelling `URL` accepts,
 * IPv6 with or without brackets, an authority with a port or userinfo by its
 * host, trailing dots dropped) is a loopback,
 * private, link-local or otherwise non-public address or name — see
 * {@link HostClass} — or `undefined` for a public one (or a string that is not
 * a valid host).
 *
 * Hosts are taken as the WHATWG URL parser normalises them: it already turns
 * every IPv4 spelling (`0x7f000001`, `127.1`, `2130706433`, `0177.0.0.1`,
 * `127.0.0.1.`, percent-encoded or full-width digits) into dotted decimal,
 * lower-cases names and compresses IPv6 (`[::ffff:7f00:1]`), so only those
 * normal forms are parsed here; a string that is not yet normalised goes
 * through `new URL` first.
 *
 * This looks at the host as written. A name that resolves to a private
 * address (a DNS record pointing at 127.0.0.1, or one that changes between
 * two lookups: DNS rebinding) is not seen here; callers that resolve names
 * themselves pass `redirectFilter` to `fetchRobots` and may classify the
 * resolved address with this function.
 */
export function classifyHost(host: URL | string): HostClass | undefined {
  if (typeof host !== 'string' && typeof (host as URL | null)?.hostname !== 'string') {
    throw new RobotsInputError(`classifyHost takes a host string or a URL, got ${describeValue(host)}`)
  }
  // A URL as a string is classified by its host, as a URL object is: read as a host, it would be no host, and undefined (public).
  const hostname = typeof host !== 'string' ? host.hostname : URL_STRING.test(host) ? urlHostname(host) : normalise(host)
  if (hostname === undefined || hostname === '') return undefined
  if (hostname.startsWith('[')) {
    const g = parseIpv6(hostname.slice(1, -1))
    return g ? classifyIpv6(g) : undefined
  }
  const name = withoutRootDots(hostname)
  const v4 = parseIpv4(name)
  if (v4 >= 0) return classifyIpv4(v4)
  return classifyName(name.toLowerCase())
}
