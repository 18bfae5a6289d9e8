/**
 * The Node transport of the access method (`robots-automaton/node`'s
 * `createNodeTransport`): `node:http` and `node:https` requests, a new
 * connection for each (one request per origin: nothing to reuse), names
 * resolved by its own resolver (dns-cache.ts) or routed by the caller
 * (curl's `--resolve` and `--connect-to`: {@link RouteFunction}), every
 * address shown to the address policy before a connection is made to it,
 * the addresses of a name raced (Happy Eyeballs: the next one tried beside
 * one still connecting, the first connected used),
 * at most `perAddress` connections in flight to one address
 * (address-gate.ts), and bodies decoded strictly (gzip, deflate, br: a
 * coding cut short is an error, not a shorter file). The access method's
 * rules stay in src/fetch/; this file only moves bytes.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import { tls, zlib } from './built-ins.js'
import { exchange } from './http1.js'
import type { RobotsTransport, TransportRequest, TransportResponse } from '../fetch/transport.js'
import { AddressGate } from './address-gate.js'
import { DnsCache, type DnsOptions } from './dns-cache.js'
import { RobotsInputError } from '../index.js'
import { describeArgument, isStringArray, optionsObject, wholeOption } from './option-checks.js'

/** Where a connection for a host and port goes, as the caller routes it. */
export interface RouteTarget {
  /** Numeric addresses to try in order, or one host name to resolve. */
  readonly hosts: readonly string[]
  readonly port: number
  /** Whether the caller chose this target (then the address policy does not refuse it). */
  readonly routed: boolean
}

/** Routes a request's host (as in its URL, IPv6 without brackets) and port; undefined: no route, the host itself. */
export type RouteFunction = (host: string, port: number) => RouteTarget | undefined

/** Options of {@link createNodeTransport}. */
export interface NodeTransportOptions {
  /** Connections in flight to one address at most (default 4). */
  readonly perAddress?: number
  /** The resolver's options (servers, time-out, concurrency, cache). */
  readonly dns?: DnsOptions
  /** The caller's routes (curl's `--resolve`, `--connect-to`). */
  readonly route?: RouteFunction
  /** Time-out of a connection attempt to one address when a name has others to try next, ms (default 10,000); the fetch's own deadline always applies, and the next address is tried beside an attempt still connecting after 250 ms. */
  readonly connectTimeoutMs?: number
}

/** A slot held on one address ({@link NodeTransport.lease}): its first request connects there without waiting. */
export interface AddressLease {
  readonly address: string
  /** The transport to fetch with: it uses the slot for its first connection to `address`. */
  readonly transport: RobotsTransport
  /** Gives the slot back if its request has not (idempotent). */
  release(): void
}

/** What {@link createNodeTransport} makes: a transport, and the scheduling help of a crawler. */
export interface NodeTransport extends RobotsTransport {
  readonly checksAddresses: true
  /**
   * The first address a request for `url` would connect to (routes applied,
   * its name resolved), or undefined when it has none; rejects only when
   * this machine fails (the resolver's servers unreachable or silent: a
   * `localFailure`), as a request would. `signal` is a deadline: when it
   * aborts during the look-up, undefined (the name's wait), or the
   * rejection of this machine's failure that kept it.
   */
  addressOf(url: string, signal?: AbortSignal): Promise<string | undefined>
  /** A slot of `address` when one is free now, else undefined. */
  tryLease(address: string): AddressLease | undefined
  /** A slot of `address`, waiting for one in turn (no deadline). */
  lease(address: string): Promise<AddressLease>
  /** The resolver (its cache and counts). */
  readonly dns: DnsCache
  /** Stops look-ups in flight. */
  close(): void
}

const DEFAULT_PER_ADDRESS = 4
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

/** Codings decoded here, strictly. */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib().createGunzip(),
  'x-gzip': () => zlib().createGunzip(),
  deflate: () => zlib().createInflate(),
  br: () => zlib().createBrotliDecompress(),
}

/** A host as written in a URL: IPv6 without brackets. */
function bare(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
}

/** The codings of a `Content-Encoding` value in the order applied, `identity` and `none` (what servers that send it mean) left out. */
function codingsOf(value: string | null): string[] {
  if (value === null) return []
  return value.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity' && c !== 'none')
}

/** An error of a connection that could not be made in time. */
function connectTimeout(address: string, port: number): Error {
  return Object.assign(new Error(`connect to ${address}:${port} timed out`), { code: 'ETIMEDOUT' })
}

/** A connection attempt to one address ({@link createNodeTransport}'s `attempt`). */
interface Attempt {
  readonly address: string
  /** The socket once its TCP handshake completes; the slot then passes to the caller. */
  readonly connected: Promise<Socket>
  /** Gives the address's slot back (idempotent). */
  release(): void
  /** Stops the attempt unless it has settled: its socket closed, its slot given back. */
  abandon(): void
}

/** How long an attempt has to connect before the next address is tried beside it (RFC 8305's Connection Attempt Delay), ms. */
const ATTEMPT_DELAY_MS = 250

/** Errors for which the next address of a name is worth trying. */
const NEXT_ADDRESS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EADDRNOTAVAIL_REMOTE'])

/** What `route` gave for `host:port`, when it is a target (or undefined); else a RobotsInputError: the caller's routes are at fault, not the site. */
function checkedRoute(t: RouteTarget | undefined, host: string, port: number): RouteTarget | undefined {
  if (t === undefined) return t
  const r = t as { hosts?: unknown; port?: unknown; routed?: unknown } | null
  if (typeof r !== 'object' || r === null || !isStringArray(r.hosts) || r.hosts.length === 0 || !(Number.isInteger(r.port) && (r.port as number) > 0 && (r.port as number) < 65536) || typeof r.routed !== 'boolean') {
    throw new RobotsInputError(`route(${JSON.stringify(host)}, ${port}) gave ${describeArgument(t)}, not a target ({ hosts: [names or addresses], port, routed }) or undefined`)
  }
  return t
}

/** Creates a Node transport (see the module comment). */
export function createNodeTransport(options?: NodeTransportOptions): NodeTransport {
  const o = optionsObject<NodeTransportOptions>(options, 'createNodeTransport', ['perAddress', 'dns', 'route', 'connectTimeoutMs'])
  const gate = new AddressGate(wholeOption(o.perAddress, 'createNodeTransport perAddress', 1) ?? DEFAULT_PER_ADDRESS)
  const connectTimeoutMs = wholeOption(o.connectTimeoutMs, 'createNodeTransport connectTimeoutMs', 1) ?? DEFAULT_CONNECT_TIMEOUT_MS
  const route = o.route
  if (route !== undefined && typeof route !== 'function') throw new RobotsInputError(`createNodeTransport route must be a function, got ${describeArgument(route)}`)
  const dns = new DnsCache(o.dns)

  /**
   * The addresses to try for `host:port` and whether the caller routed them
   * there. `signal` aborting during the look-up rejects with the failure of
   * this machine that kept it (DnsCache's `stalled`), else the signal's reason.
   */
  const targetOf = async (host: string, port: number, signal?: AbortSignal): Promise<{ addresses: readonly string[]; port: number; routed: boolean }> => {
    // A URL may name port 0 (a site's redirect can): nothing listens there, and no route may keep it (the site's failure, not the caller's routes).
    if (port === 0) throw Object.assign(new Error(`connect ECONNREFUSED ${host}:0: port 0 cannot be connected to`), { code: 'ECONNREFUSED' })
    const t = route === undefined ? undefined : checkedRoute(route(host, port), host, port)
    const hosts = t?.hosts ?? [host]
    const to = t?.port ?? port
    const routed = t?.routed ?? false
    if (hosts.every((h) => isIP(h) !== 0)) return { addresses: hosts, port: to, routed }
    const name = hosts[0]!
    return { addresses: await (signal === undefined ? dns.resolve(name) : resolveWithin(name, signal)), port: to, routed }
  }

  /** `name` resolved, given up when `signal` aborts (see `targetOf`). */
  const resolveWithin = (name: string, signal: AbortSignal): Promise<readonly string[]> =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason)
      const onAbort = (): void => {
        dns.stalled(name).then((local) => reject(local ?? signal.reason), () => reject(signal.reason))
      }
      signal.addEventListener('abort', onAbort, { once: true })
      dns.resolve(name).then(
        (addresses) => {
          signal.removeEventListener('abort', onAbort)
          resolve(addresses)
        },
        (err) => {
          signal.removeEventListener('abort', onAbort)
          reject(err)
        },
      )
    })

  /**
   * A connection to one address: a slot of it taken (`held`: taken already),
   * then the socket, settled once its TCP handshake completes; `timed`: given
   * up after `connectTimeoutMs`. `onDialing` runs once the socket is made.
   * Abandoned before it settles, it closes and gives its slot back; once
   * connected, the slot passes to the exchange.
   */
  const attempt = (req: TransportRequest, u: URL, address: string, port: number, held: boolean, timed: boolean, onDialing: () => void): Attempt => {
    let socket: Socket | undefined
    let abandoned = false
    let settled = false
    let stop = (): void => {}
    let released = false
    const release = (): void => {
      if (released) return
      released = true
      gate.release(address)
    }
    const connected = new Promise<Socket>((resolve, reject) => {
      const dialNow = (): void => {
        if (abandoned) return release()
        if (req.signal.aborted) {
          release()
          return reject(req.signal.reason)
        }
        const name = bare(u.hostname)
        let s: Socket
        try {
          s =
            u.protocol === 'https:'
              ? tls().connect({
                  host: address,
                  port,
                  ALPNProtocols: ['http/1.1'],
                  // TLS names the URL's host (SNI, the certificate), wherever the socket goes.
                  ...(isIP(name) === 0 ? { servername: name } : {}),
                  checkServerIdentity: (_host, cert) => tls().checkServerIdentity(name, cert),
                })
              : netConnect({ host: address, port })
        } catch (err) {
          release()
          return reject(err)
        }
        socket = s
        s.setNoDelay(true)
        const timer = timed ? setTimeout(() => s.destroy(connectTimeout(address, port)), connectTimeoutMs) : undefined
        const onAbort = (): void => {
          s.destroy(req.signal.reason instanceof Error ? req.signal.reason : new Error(String(req.signal.reason)))
        }
        stop = (): void => {
          settled = true
          clearTimeout(timer)
          req.signal.removeEventListener('abort', onAbort)
        }
        req.signal.addEventListener('abort', onAbort, { once: true })
        // Kept once connected: an error before the exchange listens is its, not a crash.
        s.on('error', (err) => {
          // connect() failed on this machine, nothing sent (no route, family off): Node tags it with the local address, none being bound here.
          if (err.message.includes(' - Local (')) Object.assign(err, { localFailure: true })
          if (settled) return
          stop()
          release()
          reject(err)
        })
        s.once('connect', () => {
          stop()
          resolve(s)
        })
        onDialing()
      }
      if (held) dialNow()
      else
        gate
          .acquire(address, req.signal, () =>
            Object.assign(new Error(`no free connection to ${address} before the deadline (${gate.perAddress} in flight to it)`), { code: 'EADDRBUSY', localFailure: true }),
          )
          .then(dialNow, reject)
    })
    return {
      address,
      connected,
      release,
      abandon() {
        if (abandoned || settled) return
        abandoned = true
        if (socket === undefined) return // still waiting for a slot: given back once granted
        stop()
        socket.destroy()
        release()
      },
    }
  }

  /**
   * Connects to the first of the addresses to answer (Happy Eyeballs, RFC
   * 8305): each address in turn, the next one started when the one before
   * fails or is still connecting after {@link ATTEMPT_DELAY_MS}; the first
   * connected wins, the others are abandoned. An address that drops packets
   * thus never keeps the fetch from one that answers. A failure other than
   * one worth the next address (a failure of this machine, the deadline)
   * ends it: when the deadline ends several attempts, a failure of this
   * machine among them is the one given.
   */
  const dial = (req: TransportRequest, u: URL, target: { addresses: readonly string[]; port: number; routed: boolean }, lease?: { address: string; used: boolean }): Promise<{ socket: Socket; attempt: Attempt }> =>
    new Promise((resolve, reject) => {
      const { addresses, port, routed } = target
      const live = new Set<Attempt>()
      let next = 0
      let tried = 0
      let refusal: unknown
      let last: unknown
      let over = false
      let delay: ReturnType<typeof setTimeout> | undefined
      const fail = (err: unknown): void => {
        over = true
        clearTimeout(delay)
        for (const a of live) a.abandon()
        reject(err)
      }
      const startNext = (): void => {
        clearTimeout(delay)
        delay = undefined
        while (next < addresses.length) {
          const address = addresses[next++]!
          try {
            req.checkAddress(address, routed)
          } catch (err) {
            refusal ??= err
            continue
          }
          tried++
          const held = lease !== undefined && !lease.used && lease.address === address
          if (held) lease!.used = true
          const more = next < addresses.length
          const a = attempt(req, u, address, port, held, more, () => {
            if (more && !over) delay = setTimeout(startNext, ATTEMPT_DELAY_MS)
          })
          live.add(a)
          a.connected.then(
            (socket) => {
              live.delete(a)
              if (over) {
                socket.destroy()
                return a.release()
              }
              over = true
              clearTimeout(delay)
              for (const other of live) other.abandon()
              resolve({ socket, attempt: a })
            },
            (err: unknown) => {
              live.delete(a)
              if (over) return
              const code = (err as NodeJS.ErrnoException).code
              if (req.signal.aborted) {
                // Each attempt ends with the deadline: a failure of this machine among them is the one given.
                if ((last as { localFailure?: unknown } | undefined)?.localFailure !== true) last = err
                if (live.size === 0) fail(last)
                return
              }
              // This machine failing one address (no route to its family, …): the next is tried, and a site's own answer on another outweighs it.
              const here = (err as { localFailure?: unknown }).localFailure === true
              if (!here || !last) last = err
              if (!here && (code === undefined || !NEXT_ADDRESS.has(code))) return fail(err)
              startNext()
            },
          )
          return
        }
        if (live.size === 0) fail(tried === 0 ? refusal : last)
      }
      startNext()
    })

  /** A request through the routes, the resolver, the policy and the gate; `lease`: a slot held on one address. */
  const request = async (req: TransportRequest, lease?: { address: string; used: boolean }): Promise<TransportResponse> => {
    const u = new URL(req.url)
    const tls = u.protocol === 'https:'
    const port = u.port === '' ? (tls ? 443 : 80) : Number(u.port)
    // gzip is asked for, as the Web transport asks (deflate and br are decoded as strictly when a server sends them anyway).
    let head = `GET ${u.pathname}${u.search} HTTP/1.1\r\nhost: ${u.host}\r\n`
    for (const field in req.headers) {
      const value = req.headers[field]!
      if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(field)) {
        throw Object.assign(new TypeError(`header ${JSON.stringify(field)} has a value that cannot be sent`), { code: 'ERR_INVALID_CHAR' })
      }
      if (field !== 'host' && field !== 'connection' && field !== 'accept-encoding') head += `${field}: ${value}\r\n`
    }
    head += 'accept-encoding: gzip\r\nconnection: close\r\n\r\n'
    const target = await targetOf(bare(u.hostname), port, req.signal)
    const { socket, attempt: won } = await dial(req, u, target, lease)
    return new Promise<TransportResponse>((resolve, reject) => {
      const onAbort = (): void => {
        socket.destroy(req.signal.reason instanceof Error ? req.signal.reason : new Error(String(req.signal.reason)))
      }
      req.signal.addEventListener('abort', onAbort, { once: true })
      const x = exchange(socket, tls ? 'secureConnect' : undefined, head, () => {
        req.signal.removeEventListener('abort', onAbort)
        won.release()
      })
      if (req.signal.aborted) onAbort()
      x.head.then((h) => {
        const headers = { get: (field: string) => h.fields.get(field.toLowerCase()) ?? null }
        const codings = codingsOf(headers.get('content-encoding'))
        const decodable = codings.length > 0 && codings.length <= 5 && codings.every((c) => DECODERS[c] !== undefined)
        const wanted = h.status >= 200 && h.status < 300
        if (!wanted) x.cancel()
        const out: { -readonly [K in keyof TransportResponse]: TransportResponse[K] } = {
          status: h.status,
          headers,
          body: !wanted ? null : decodable ? decodeStrictly(x.body, codings, () => x.cancel()) : codings.length > 0 ? undecodable(x.body, codings) : x.body,
          cancel: () => x.cancel(),
        }
        const expected = codings.length === 0 ? x.contentLength() : undefined
        if (expected !== undefined) out.expectedLength = expected
        resolve(out)
      }, reject)
    })
  }

  const leaseOf = (address: string): AddressLease => {
    const state = { address, used: false }
    let given = false
    return {
      address,
      transport: { checksAddresses: true, request: (req) => request(req, state) },
      release() {
        if (state.used || given) return
        given = true
        gate.release(address)
      },
    }
  }

  return {
    checksAddresses: true,
    request: (req) => request(req),
    dns,
    async addressOf(url: string, signal?: AbortSignal): Promise<string | undefined> {
      try {
        const u = new URL(url)
        const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port)
        return (await targetOf(bare(u.hostname), port, signal)).addresses[0]
      } catch (err) {
        if ((err as { localFailure?: unknown }).localFailure === true) throw err
        return undefined
      }
    },
    tryLease(address: string): AddressLease | undefined {
      return gate.tryAcquire(address) ? leaseOf(address) : undefined
    },
    async lease(address: string): Promise<AddressLease> {
      await gate.acquire(address)
      return leaseOf(address)
    },
    close(): void {
      dns.cancel()
    },
  }
}

/**
 * The body of a coding not decoded here (zstd, compress, more than five):
 * its bytes are not the file, so the first one errors the stream. Without a
 * byte it is an empty file, as in {@link decodeStrictly}.
 */
async function* undecodable(raw: AsyncIterable<Uint8Array>, codings: readonly string[]): AsyncGenerator<Uint8Array> {
  for await (const chunk of raw) {
    if (chunk.length > 0) throw Object.assign(new Error(`a content coding ${codings.join(', ').slice(0, 80)} not decoded`), { code: 'ERR_CONTENT_CODING' })
  }
}

/**
 * `raw` decoded of `codings` (in the order applied), strictly: a coding cut
 * short or corrupt errors the stream, except that an encoded body without a
 * single byte is an empty file (servers send `Content-Encoding` on empty
 * answers). Stopping early (the limit) or failing runs `cancel`: the
 * connection closes at once, though `raw` may be waiting for bytes.
 */
async function* decodeStrictly(raw: AsyncIterable<Uint8Array>, codings: readonly string[], cancel: () => void): AsyncGenerator<Uint8Array> {
  let sawBytes = false
  let rawDone = false
  const it = raw[Symbol.asyncIterator]()
  /** The first bytes (`raw` has no empty chunk), read before the decoders are made. */
  let step!: IteratorResult<Uint8Array>
  const source = Readable.from(
    (async function* () {
      for (; !step.done; step = await it.next()) {
        sawBytes = true
        yield step.value
      }
      rawDone = true
    })(),
    { objectMode: false },
  )
  const decoders: Readable[] = []
  let finished = false
  try {
    step = await it.next()
    let from: Readable = source
    for (let i = codings.length - 1; i >= 0; i--) {
      // The outer deflate may be raw (no zlib header), as browsers, curl and undici read it: told by its first byte (a zlib header's method, 8).
      const headless = codings[i] === 'deflate' && i === codings.length - 1 && ((step.value?.[0] ?? 8) & 15) !== 8
      const decoder = (headless ? zlib().createInflateRaw() : DECODERS[codings[i]!]!()) as unknown as Readable & NodeJS.WritableStream
      const upstream = from
      upstream.on('error', (err) => decoder.destroy(err))
      upstream.pipe(decoder)
      decoders.push(decoder)
      from = decoder
    }
    for await (const chunk of from) yield chunk as Uint8Array
    finished = true
  } catch (err) {
    if (!sawBytes && rawDone) {
      finished = true
      return
    }
    throw err
  } finally {
    if (!finished) {
      cancel()
      source.destroy()
      for (const d of decoders) d.destroy()
    }
  }
}
