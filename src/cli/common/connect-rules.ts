/**
 * `fetch --resolve` and `--connect-to`, curl's conventions, parsed
 * ({@link parseResolve}, {@link parseConnectTo}) and applied to a
 * connection's host and port ({@link ConnectRules.target}). Pure: the
 * sockets are made by the Node transport (src/net/node-transport.ts).
 */
import { isIP } from 'node:net'
import { canonicalHost } from '../../index.js'
import { UsageError } from './cli-error.js'

/** `--resolve [+]HOST:PORT:ADDRESS[,ADDRESS]…`: connections to HOST:PORT go to ADDRESS (HOST `*`: every host). */
export interface ResolveRule {
  /** Lowercased, IPv6 without brackets; `*` for every host. */
  readonly host: string
  readonly port: number
  /** Numeric addresses, tried in order. */
  readonly addresses: readonly string[]
}

/** `--connect-to HOST1:PORT1:HOST2:PORT2`: a request to HOST1:PORT1 connects to HOST2:PORT2 (empty: any, or the request's own). */
export interface ConnectToRule {
  /** Lowercased, IPv6 without brackets; '' matches any host. */
  readonly host: string
  /** 0 matches any port. */
  readonly port: number
  /** '' keeps the request's host. */
  readonly toHost: string
  /** 0 keeps the request's port. */
  readonly toPort: number
}

/** Where one connection goes. */
export interface ConnectTarget {
  /** Numeric addresses to try in order, or one host name to resolve as usual. */
  readonly hosts: readonly string[]
  readonly port: number
  /** Whether a rule chose it (the user's choice), rather than the request's own host and port. */
  readonly mapped: boolean
}

/** A host as written in a rule or URL: lowercased, an IPv6 literal without its brackets, a name without its final dot (`a.test.` is `a.test` in DNS). */
export function normalHost(host: string): string {
  const h = host.toLowerCase()
  if (h.startsWith('[') && h.endsWith(']')) return h.slice(1, -1)
  return h.length > 1 && h.endsWith('.') ? h.slice(0, -1) : h
}

/** `HOST:PORT:REST` split at the colons outside brackets (IPv6 literals are bracketed). */
function splitColons(value: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < value.length; i++) {
    const c = value[i]
    if (c === '[') depth++
    else if (c === ']') depth--
    else if (c === ':' && depth === 0) {
      parts.push(value.slice(start, i))
      start = i + 1
    }
  }
  parts.push(value.slice(start))
  return parts
}

function port(text: string, option: string, value: string, allowEmpty: boolean): number {
  if (text === '' && allowEmpty) return 0
  const n = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN
  if (!(n >= 1 && n <= 65535)) throw new UsageError(`option '--${option}' takes a port from 1 to 65535 (got '${text}' in '${value}')`)
  return n
}

/**
 * A rule's host in the form a URL's host takes (the one host function,
 * `canonicalHost`: `Bücher.de` is `xn--bcher-kva.de`, `0x7f.1` is
 * `127.0.0.1`), so that a rule names the host it reads as; IPv6 without
 * its brackets. A host the URL parser refuses is a usage error: a rule that
 * could never match would let the name be looked up where the user meant
 * to route it.
 */
function hostPart(text: string, option: string, value: string): string {
  const bad = (why: string) => new UsageError(`option '--${option}': '${text}' is not a host${why} (in '${value}')`)
  if (/\s/.test(text)) throw bad('')
  let h: string
  try {
    h = canonicalHost(text)
  } catch (err) {
    throw bad(err instanceof Error ? `: ${err.message.replace(/^canonicalHost: .* is not a host: /s, '')}` : '')
  }
  return normalHost(h)
}

/** Parses one `--resolve` value (a usage error when it is not `[+]HOST:PORT:ADDRESS[,ADDRESS]…` with numeric addresses). */
export function parseResolve(value: string): ResolveRule {
  const v = value.startsWith('+') ? value.slice(1) : value
  const parts = splitColons(v)
  if (parts.length !== 3 || parts[0] === '') throw new UsageError(`option '--resolve' takes HOST:PORT:ADDRESS[,ADDRESS...] (got '${value}')`)
  const host = parts[0] === '*' ? '*' : hostPart(parts[0], 'resolve', value)
  const addresses = parts[2].split(',').map((a) => normalHost(a.trim()))
  for (const a of addresses) {
    if (isIP(a) === 0) throw new UsageError(`option '--resolve': '${a}' is not a numeric IPv4 or IPv6 address (in '${value}')`)
  }
  return { host, port: port(parts[1], 'resolve', value, false), addresses }
}

/** Parses one `--connect-to` value (`HOST1:PORT1:HOST2:PORT2`, any part empty). */
export function parseConnectTo(value: string): ConnectToRule {
  const parts = splitColons(value)
  if (parts.length !== 4) throw new UsageError(`option '--connect-to' takes HOST1:PORT1:HOST2:PORT2, any of them empty (got '${value}')`)
  return {
    host: parts[0] === '' ? '' : hostPart(parts[0], 'connect-to', value),
    port: port(parts[1], 'connect-to', value, true),
    toHost: parts[2] === '' ? '' : hostPart(parts[2], 'connect-to', value),
    toPort: port(parts[3], 'connect-to', value, true),
  }
}

/**
 * The rules of one run. As in curl: the first `--connect-to` rule that
 * matches the request's host and port picks where to connect; then a
 * `--resolve` rule for that host and port (a named host before `*`) gives
 * its addresses; without one the host is resolved as usual.
 */
export class ConnectRules {
  constructor(
    readonly resolve: readonly ResolveRule[],
    readonly connectTo: readonly ConnectToRule[],
  ) {}

  /** Whether there is any rule (else connections are made as usual). */
  get any(): boolean {
    return this.resolve.length > 0 || this.connectTo.length > 0
  }

  /** The route of the Node transport: where a connection goes when a rule says, else undefined. */
  route(hostname: string, portNumber: number): { hosts: readonly string[]; port: number; routed: boolean } | undefined {
    if (!this.any) return undefined
    const t = this.target(hostname, portNumber)
    return t.mapped ? { hosts: t.hosts, port: t.port, routed: true } : undefined
  }

  /** Where a connection for `hostname` (as in the URL) and `portNumber` goes. */
  target(hostname: string, portNumber: number): ConnectTarget {
    let host = normalHost(hostname)
    let p = portNumber
    let mapped = false
    for (const r of this.connectTo) {
      if ((r.host === '' || r.host === host) && (r.port === 0 || r.port === p)) {
        if (r.toHost !== '') host = r.toHost
        if (r.toPort !== 0) p = r.toPort
        mapped = r.toHost !== '' || r.toPort !== 0
        break
      }
    }
    // As curl's, `*` fills in for names looked up: an address written as such is routed only by a rule naming it.
    const named = this.resolve.find((r) => r.host === host && r.port === p) ?? (isIP(host) === 0 ? this.resolve.find((r) => r.host === '*' && r.port === p) : undefined)
    if (named !== undefined) return { hosts: named.addresses, port: p, mapped: true }
    return { hosts: [host], port: p, mapped }
  }
}
