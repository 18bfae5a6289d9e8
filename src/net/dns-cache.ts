/**
 * Name resolution a run controls: Node's `dns.Resolver` (c-ares, which asks
 * DNS servers itself, rather than `getaddrinfo` on libuv's four threads),
 * with its own servers (`servers`: `ADDRESS[:PORT]`), a time-out per try,
 * a bound on the look-ups in flight, and a cache keyed by name that keeps
 * answers for their TTL (within [minTtlMs, maxTtlMs]) and failures for
 * `negativeTtlMs`. Look-ups of one name in flight are shared. A (IPv4) is
 * asked first, AAAA only when the name has no A record. A look-up that
 * c-ares times out sooner than `timeoutMs` × `tries` is asked again: c-ares
 * cuts its time-outs to a few times the servers' usual latency (cache hits),
 * and a resolver still recursing answers a repeated question once done.
 *
 * Not read: `/etc/hosts` (route such names with `--resolve`). `localhost`
 * and `*.localhost` are the loopback addresses (RFC 6761), without a query.
 * A resolver whose servers cannot be reached (`ECONNREFUSED` from c-ares),
 * or that answer nothing at all, is a failure of this machine
 * (`localFailure`), not the name's: a look-up that timed out (`ETIMEOUT`),
 * was refused (`EREFUSED`: a resolver that does not serve this machine) or
 * failed (`ESERVFAIL`: also what a forwarding resolver answers to every
 * question when it reaches no upstream)
 * counts against the name only when the servers answer other questions
 * (one asked after it, or a probe then: the root's NS records); an answer
 * merely arriving after it, to a question asked before, does not count
 * (servers that stop answering still deliver what was on its way).
 * A caller whose deadline expires during a look-up asks {@link DnsCache.stalled}
 * whose failure that is, by the same rule, with a probe of at most a second.
 * A name said not to exist (NXDOMAIN) is this machine's failure when the
 * servers say so of the root too (asked once a `negativeTtlMs`): a broken
 * or captive resolver that denies every name. One that answers the root
 * and denies the rest cannot be told from names that do not exist.
 */
import type { Resolver } from 'node:dns'
import { dns } from './built-ins.js'
import { isIP } from 'node:net'
import { RobotsInputError } from '../index.js'
import { describeArgument, isStringArray, optionsObject, stringArgument, wholeOption } from './option-checks.js'

/** Options of {@link DnsCache}. */
export interface DnsOptions {
  /**
   * Ask the system's resolver (`getaddrinfo`: /etc/hosts, nsswitch) instead
   * of DNS servers directly: for a few names a user typed, where
   * /etc/hosts may name a staging server. No TTL is known: answers are
   * kept `minTtlMs`. Ignored when `servers` are given.
   */
  readonly system?: boolean
  /** Servers to ask, `ADDRESS` or `ADDRESS:PORT` (`[V6]:PORT`); default the system's (`/etc/resolv.conf`). */
  readonly servers?: readonly string[]
  /** Time-out of one try, ms (default 5,000). */
  readonly timeoutMs?: number
  /** Tries per server (default 2). */
  readonly tries?: number
  /** Look-ups in flight at most (default 256); the others wait their turn. */
  readonly concurrency?: number
  /** Names kept at most (default 65,536; the oldest go first). */
  readonly cacheSize?: number
  /** Shortest and longest time an answer is kept, ms (defaults 60,000 and 3,600,000). */
  readonly minTtlMs?: number
  readonly maxTtlMs?: number
  /** How long a failed look-up is kept, ms (default 60,000). */
  readonly negativeTtlMs?: number
}

interface CacheEntry {
  readonly expires: number
  readonly addresses?: readonly string[]
  readonly error?: Error
}

interface RecordWithTtl {
  address: string
  ttl: number
}

const LOOPBACK = ['127.0.0.1', '::1'] as const

/** The longest wait for the probe of {@link DnsCache.stalled}, ms: servers that answer anything answer the root's NS records sooner. */
const STALL_PROBE_MS = 1000

/** Special-use names no DNS look-up may resolve. */
const NOWHERE = /(?:^|\.)(?:invalid|onion)$/

/** A name as the cache keys it: lower case, no trailing dot. */
function keyOf(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1).toLowerCase() : name.toLowerCase()
}

/** A resolver with a cache (see the module comment). */
export class DnsCache {
  private readonly resolver: Resolver
  private readonly system: boolean
  private readonly cache = new Map<string, CacheEntry>()
  private readonly pending = new Map<string, Promise<readonly string[]>>()
  // When the look-ups in flight were asked of the servers, `performance.now()` (absent while one waits its turn).
  private readonly askedAt = new Map<string, number>()
  private readonly queue: (() => void)[] = []
  private running = 0
  private readonly concurrency: number
  private readonly cacheSize: number
  private readonly minTtlMs: number
  private readonly maxTtlMs: number
  private readonly negativeTtlMs: number
  private readonly waitMs: number
  /** Look-ups asked of the servers (not answered from the cache). */
  queries = 0
  // When the latest question answered (an address, or a name or record said not to exist) was asked, `performance.now()`.
  private answeredAt = -Infinity
  /** The probe of the servers in flight ({@link serversAnswer}). */
  private probe: Promise<boolean> | undefined
  /** The short probe in flight ({@link answersSoon}). */
  private shortProbe: Promise<boolean> | undefined
  /** Whether the servers deny the root ({@link rootDenied}), and until when that answer is kept. */
  private rootCheck: Promise<boolean> | undefined
  private rootCheckUntil = 0

  constructor(options?: DnsOptions) {
    const o = optionsObject<DnsOptions>(options, 'DnsCache', ['timeoutMs', 'tries', 'concurrency', 'cacheSize', 'minTtlMs', 'maxTtlMs', 'negativeTtlMs', 'system', 'servers'])
    const timeout = wholeOption(o.timeoutMs, 'DnsCache timeoutMs', 1) ?? 5000
    const tries = wholeOption(o.tries, 'DnsCache tries', 1) ?? 2
    this.concurrency = wholeOption(o.concurrency, 'DnsCache concurrency', 1) ?? 256
    this.cacheSize = wholeOption(o.cacheSize, 'DnsCache cacheSize', 0) ?? 65_536
    this.minTtlMs = wholeOption(o.minTtlMs, 'DnsCache minTtlMs', 0) ?? 60_000
    this.maxTtlMs = wholeOption(o.maxTtlMs, 'DnsCache maxTtlMs', 0) ?? 3_600_000
    this.negativeTtlMs = wholeOption(o.negativeTtlMs, 'DnsCache negativeTtlMs', 0) ?? 60_000
    if (o.system !== undefined && typeof o.system !== 'boolean') throw new RobotsInputError(`DnsCache system must be a boolean, got ${describeArgument(o.system)}`)
    if (o.servers !== undefined && !isStringArray(o.servers)) throw new RobotsInputError(`DnsCache servers must be an array of strings, got ${describeArgument(o.servers)}`)
    this.resolver = new (dns().Resolver)({ timeout, tries })
    this.waitMs = timeout * tries
    const servers = o.servers !== undefined && o.servers.length > 0
    if (servers) {
      try {
        this.resolver.setServers([...o.servers!])
      } catch (err) {
        throw new RobotsInputError(`DnsCache servers: ${(err as Error).message}`)
      }
    }
    this.system = o.system === true && !servers
  }

  /** The addresses of `name` (IPv4 first); rejects with the resolver's error (`code`: ENOTFOUND, ENODATA, ETIMEOUT, …). */
  resolve(name: string): Promise<readonly string[]> {
    if (typeof name !== 'string') return Promise.reject(new RobotsInputError(`DnsCache.resolve takes a host name, got ${describeArgument(name)}`))
    const host = keyOf(name)
    if (isIP(host) !== 0) return Promise.resolve([host])
    if (host === 'localhost' || host.endsWith('.localhost')) return Promise.resolve(LOOPBACK)
    // Names that resolve nowhere by definition (RFC 6761 §6.4 `.invalid`, RFC 7686 `.onion`): never sent to a DNS server.
    if (NOWHERE.test(host)) return Promise.reject(Object.assign(new Error(`${host} is a special-use name that DNS never resolves (.invalid, .onion): not looked up`), { code: 'ENOTFOUND', hostname: host }))
    const hit = this.cache.get(host)
    if (hit !== undefined) {
      if (hit.expires > Date.now()) return hit.error !== undefined ? Promise.reject(hit.error) : Promise.resolve(hit.addresses!)
      this.cache.delete(host)
    }
    const inFlight = this.pending.get(host)
    if (inFlight !== undefined) return inFlight
    const p = this.turn(() => this.lookup(host)).finally(() => {
      this.pending.delete(host)
      this.askedAt.delete(host)
    })
    this.pending.set(host, p)
    return p
  }

  /**
   * For a caller whose deadline expired while `name` was being resolved:
   * the failure of this machine that kept it (`localFailure`), or undefined
   * when the wait was the name's (or no look-up of it is in flight). This
   * machine's: the look-up still waits its turn (`concurrency`: code
   * `EDNSBUSY`), or the servers answered no question asked since, nor a
   * probe within a second (code `ETIMEOUT`).
   */
  async stalled(name: string): Promise<Error | undefined> {
    const host = keyOf(stringArgument(name, 'DnsCache.stalled name'))
    if (!this.pending.has(host)) return undefined
    const askedAt = this.askedAt.get(host)
    if (askedAt === undefined) {
      return Object.assign(new Error(`the look-up of ${host} waited its turn past the deadline (${this.concurrency} look-ups in flight)`), { code: 'EDNSBUSY', hostname: host, localFailure: true })
    }
    if (this.answeredAt >= askedAt || (await this.answersSoon())) return undefined
    return Object.assign(new Error(`the DNS servers are not answering (ETIMEOUT resolving ${host} until the deadline, and to a probe)`), { code: 'ETIMEOUT', hostname: host, localFailure: true })
  }

  /** Stops the look-ups in flight (they reject with ECANCELLED). */
  cancel(): void {
    this.resolver.cancel()
  }

  /** Runs `job` when fewer than `concurrency` look-ups are in flight. */
  private async turn<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve))
    this.running++
    try {
      return await job()
    } finally {
      this.running--
      this.queue.shift()?.()
    }
  }

  private async lookup(host: string): Promise<readonly string[]> {
    this.queries++
    // Asked again when c-ares times out sooner (see the module comment).
    const until = performance.now() + this.waitMs
    let records: RecordWithTtl[]
    for (;;) {
      try {
        records = await this.ask(host, 4)
        if (records.length === 0) records = await this.ask(host, 6)
        break
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ETIMEOUT' && performance.now() < until) continue
        const e =
          code === 'ENOTFOUND' && !this.system && (await this.rootDenied())
            ? Object.assign(new Error(`the DNS servers deny every name (NXDOMAIN for ${host}, and for the root): a broken or captive resolver`), { code, hostname: host, localFailure: true })
            : dnsError(err, host, await this.silent(err, this.askedAt.get(host)!))
        if (!(e as { localFailure?: boolean }).localFailure) this.keep(host, { expires: Date.now() + this.negativeTtlMs, error: e })
        throw e
      }
    }
    if (records.length === 0) {
      const e = Object.assign(new Error(`no address for ${host} (no A or AAAA record)`), { code: 'ENODATA', hostname: host })
      this.keep(host, { expires: Date.now() + this.negativeTtlMs, error: e })
      throw e
    }
    const ttl = Math.min(...records.map((r) => r.ttl)) * 1000
    const addresses = records.map((r) => r.address)
    this.keep(host, { expires: Date.now() + Math.min(Math.max(ttl, this.minTtlMs), this.maxTtlMs), addresses })
    return addresses
  }

  /** A or AAAA records of `host`; none (not an error) when the name exists without that kind. */
  private ask(host: string, family: 4 | 6): Promise<RecordWithTtl[]> {
    const sent = performance.now()
    this.askedAt.set(host, sent)
    if (this.system) {
      if (family === 6) return Promise.resolve([])
      return new Promise((resolve, reject) => {
        dns().lookup(host, { all: true, verbatim: true }, (err, addresses) => {
          if (err) return reject(err)
          // IPv4 first, as the DNS path orders them.
          const sorted = [...addresses].sort((a, b) => a.family - b.family)
          resolve(sorted.map((a) => ({ address: a.address, ttl: 0 })))
        })
      })
    }
    return new Promise((resolve, reject) => {
      const done = (err: NodeJS.ErrnoException | null, records: RecordWithTtl[]): void => {
        if (err === null || !SILENCE.has(err.code!)) this.answered(sent)
        if (err === null) return resolve(records)
        if (err.code === 'ENODATA') return resolve([])
        reject(err)
      }
      if (family === 4) this.resolver.resolve4(host, { ttl: true }, done)
      else this.resolver.resolve6(host, { ttl: true }, done)
    })
  }

  /** Whether the failure `err` of a look-up asked at `askedAt` is the servers' silence (no answer to anything), not the name's. */
  private async silent(err: unknown, askedAt: number): Promise<boolean> {
    const code = (err as { code?: unknown }).code
    if (this.system || (code !== 'ETIMEOUT' && code !== 'EREFUSED' && code !== 'ESERVFAIL')) return false
    if (this.answeredAt >= askedAt) return false
    return !(await this.serversAnswer())
  }

  /** Asks the servers a question any resolver answers (the root's NS records), once at a time: whether they answer at all. */
  private serversAnswer(): Promise<boolean> {
    this.probe ??= new Promise<boolean>((resolve) => {
      const sent = performance.now()
      this.resolver.resolveNs('.', (err) => {
        const answered = err === null || !SILENCE.has(err.code!)
        if (answered) this.answered(sent)
        resolve(answered)
      })
    }).finally(() => (this.probe = undefined))
    return this.probe
  }

  /** Whether the servers say that the root does not exist (NXDOMAIN to its NS records), asked at most once a `negativeTtlMs`. */
  private rootDenied(): Promise<boolean> {
    const now = Date.now()
    if (this.rootCheck === undefined || now > this.rootCheckUntil) {
      this.rootCheckUntil = now + this.negativeTtlMs
      this.rootCheck = new Promise((resolve) => this.resolver.resolveNs('.', (err) => resolve(err?.code === 'ENOTFOUND')))
    }
    return this.rootCheck
  }

  /**
   * Whether the servers answer the root's NS records within
   * {@link STALL_PROBE_MS} (each server tried once, in turn), once at a time.
   */
  private answersSoon(): Promise<boolean> {
    this.shortProbe ??= new Promise<boolean>((resolve) => {
      const servers = this.resolver.getServers()
      if (servers.length === 0) return resolve(false)
      const probe = new (dns().Resolver)({ timeout: Math.max(1, Math.floor(STALL_PROBE_MS / servers.length)), tries: 1 })
      probe.setServers(servers)
      // c-ares may take longer than its time-outs add up to: cancelled then, as silent.
      const timer = setTimeout(() => probe.cancel(), STALL_PROBE_MS + 100)
      const sent = performance.now()
      probe.resolveNs('.', (err) => {
        clearTimeout(timer)
        const answered = err === null || !SILENCE.has(err.code!)
        if (answered) this.answered(sent)
        resolve(answered)
      })
    }).finally(() => (this.shortProbe = undefined))
    return this.shortProbe
  }

  private answered(sent: number): void {
    // Answers arrive out of order.
    this.answeredAt = Math.max(this.answeredAt, sent)
  }

  private keep(host: string, entry: CacheEntry): void {
    if (this.cache.size >= this.cacheSize) {
      // The oldest name first (a Map iterates in insertion order).
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
    this.cache.set(host, entry)
  }
}

/** Codes of a look-up that got no answer about the name from any server (a refusal is about the client, a server failure may be the resolver's own). */
const SILENCE = new Set(['ETIMEOUT', 'EREFUSED', 'ESERVFAIL', 'ECONNREFUSED', 'ECANCELLED', 'EDESTRUCTION'])

/**
 * The resolver's error as a look-up failure of `host`; unreachable servers
 * marked as this machine's failure, and so are a time-out, a refusal and a server failure when
 * `unanswered` (the servers answer nothing: see {@link DnsCache}).
 */
function dnsError(err: unknown, host: string, unanswered: boolean): Error {
  const e = err instanceof Error ? err : new Error(String(err))
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'ECONNREFUSED' || code === 'ECANCELLED' || code === 'EDESTRUCTION') {
    return Object.assign(new Error(`the DNS servers could not be reached to resolve ${host} (${code})`), { code, hostname: host, localFailure: true })
  }
  if (unanswered) {
    return Object.assign(new Error(`the DNS servers are not answering (${code} resolving ${host}, and to a probe)`), { code, hostname: host, localFailure: true })
  }
  return e
}
