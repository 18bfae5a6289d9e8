import { describeValue, RobotsError, RobotsInputError } from '../errors.js'
import { checkLimit } from '../parse/reader.js'
import { lengthFailure } from './body.js'
import { freshnessLifetimeMs, retryAfterMs } from './cache-control.js'
import { classifyStatus, describeFailure, isRedirectStatus, localFailureCode } from './classify.js'
import { allowAll, disallowAll } from '../robots/fallback.js'
import type { Robots } from '../robots/robots.js'
import { parseRobotsStream } from '../robots/stream.js'
import { robotsLocation } from './origin.js'
import { checkFetchOptions, type FetchLike, type FetchRobotsOptions } from './options.js'
import { readClock } from './option-names.js'
import type { FetchFailure, FetchOutcome, FetchReason, RedirectHop, RobotsFetchResult } from './outcome.js'
import { redirectFilterOf } from './redirect-guard.js'
import { AddressRefusal, addressGuard, checkPrivateAddresses } from './address-policy.js'
import { conditionalHeaders, mergeValidators, validatorsOf, type FetchValidators } from './validators.js'
import type { HeaderSource } from './cache-control.js'
import { checkResponse, type RobotsTransport, type TransportResponse } from './transport.js'
import { raceAbort, webTransport } from './web-transport.js'

/** The longest `timeoutMs` honoured: 2³¹−1 ms (about 24.8 days). Timers fire at once for longer delays, so longer values are clamped to this. */
export const MAX_TIMEOUT_MS = 2_147_483_647

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_REDIRECTS = 5
const DAY_MS = 86_400_000
const DEFAULT_MIN_TTL_MS = 60_000
const DEFAULT_UNREACHABLE_TTL_MS = 600_000

const KEPT_HEADERS = [
  'content-type',
  'content-encoding',
  'content-length',
  'cache-control',
  'age',
  'expires',
  'retry-after',
  'etag',
  'last-modified',
  'location',
]

function nonNegative(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) {
    throw new RobotsInputError(`${name} must be a non-negative number, got ${describeValue(v)}`)
  }
  return v
}

/** Checks `timeoutMs`: a finite number ≥ 0, clamped to {@link MAX_TIMEOUT_MS}. */
function checkTimeout(v: unknown): number {
  if (v === undefined) return DEFAULT_TIMEOUT_MS
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new RobotsInputError(
      `timeoutMs must be a finite number of milliseconds >= 0 (at most ${MAX_TIMEOUT_MS} is honoured), got ${describeValue(v)}`,
    )
  }
  return Math.min(v, MAX_TIMEOUT_MS)
}

function keptHeaders(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of KEPT_HEADERS) {
    const v = headers.get(name)
    if (v !== null) out[name] = v
  }
  return out
}

/** How late the deadline may fire before the time-out is this process's (it did not run: stopped, asleep, too busy), ms. Browsers delay the timers of hidden pages to whole seconds: less is not a stall. */
const STALL_MS = 1000

/** How late the deadline may fire before the reads waiting are let go first, ms. */
const LATE_MS = 20

/** A clock that does not jump with the wall clock's settings, ms. */
const monotonic = (): number => (typeof globalThis.performance?.now === 'function' ? globalThis.performance.now() : Date.now())

/** How long past the deadline a transport's own error is awaited, ms (it may find then that this machine failed). */
const TRANSPORT_GRACE_MS = 2000

/** The error `pending` rejects with within {@link TRANSPORT_GRACE_MS} when it is a failure of this machine, else `err`. */
function ownError(pending: Promise<unknown>, err: unknown): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    pending.then(() => err, (own) => (localFailureCode(own) === undefined ? err : own)),
    new Promise((resolve) => (timer = setTimeout(resolve, TRANSPORT_GRACE_MS, err))),
  ]).finally(() => clearTimeout(timer))
}

/** The transport of a fetch: the one given, else the Web `fetch` given or the platform's. */
function transportOf(options: FetchRobotsOptions): RobotsTransport {
  if (options.transport !== undefined) return options.transport
  const fetchImpl: FetchLike | undefined =
    options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined)
  if (!fetchImpl) throw new RobotsError('ERR_FETCH', 'no fetch available: pass options.fetch')
  // With the platform's own fetch, ask it for gzip bodies still encoded, to decode them strictly (content-coding.ts).
  return webTransport(fetchImpl, options.fetch === undefined)
}

/**
 * The values of the options `checkFetchOptions` passed, read and checked
 * (ERR_INPUT, ERR_LIMIT): a bad one throws here, before any request (and
 * at `RobotsCache`'s construction).
 */
export function readFetchOptions(options: FetchRobotsOptions) {
  const maxTtlMs = nonNegative('maxTtlMs', options.maxTtlMs, DAY_MS)
  return {
    limit: checkLimit(options.limit),
    timeoutMs: checkTimeout(options.timeoutMs),
    maxRedirects: Math.floor(nonNegative('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS)),
    maxTtlMs,
    minTtlMs: Math.min(nonNegative('minTtlMs', options.minTtlMs, DEFAULT_MIN_TTL_MS), maxTtlMs),
    unreachableTtlMs: nonNegative('unreachableTtlMs', options.unreachableTtlMs, DEFAULT_UNREACHABLE_TTL_MS),
    filter: redirectFilterOf(options.allowPrivateRedirects, options.redirectFilter),
    policy: checkPrivateAddresses(options.privateAddresses, options.allowPrivateRedirects),
  }
}

/**
 * Fetches `scheme://authority/robots.txt` for any URL of a site and applies
 * RFC 9309 §2.3.1:
 *
 * - 2xx → `ok`: the body is parsed while it streams; reading stops at `limit`
 *   and the rest is never downloaded (the body is cancelled).
 * - 301/302/303/307/308 are followed (also to other hosts) up to
 *   `maxRedirects` times; the rules found apply to the origin asked for. One
 *   redirect more, a loop, a missing or non-http(s) `Location`, a redirect
 *   to an address the policy refuses (`privateAddresses`) or one
 *   `redirectFilter` refuses → `unavailable`.
 * - 4xx → `unavailable` (allow all), except 429 → `unreachable`.
 * - 304 to a conditional refresh (`previous` with validators) →
 *   `not-modified`: `previous.robots` stand, with a new expiry. A 304 to a
 *   request that carried no validators keeps `previous.robots` too (reason
 *   `unexpected-not-modified`, until `unreachableTtlMs`), or is
 *   `unreachable` without `previous`: never allow-all.
 * - 5xx, network / DNS / TLS errors, a reset while reading the body, a body
 *   that does not arrive whole (shorter than its `Content-Length`, a gzip
 *   stream cut short), and the `timeoutMs` deadline → `unreachable` (disallow all).
 * - An origin whose address the policy refuses → `refused` (disallow all;
 *   nothing was sent).
 *
 * Throws only for bad arguments (`ERR_INPUT`, `ERR_LIMIT`), a missing `fetch`
 * (`ERR_FETCH`), a failure of this machine (`ERR_LOCAL`: descriptors,
 * memory, local ports, a silent resolver; not the site's outcome), or when
 * `signal` aborts.
 * `expiresAt` is `fetchedAt` plus the response's `Cache-Control: max-age` /
 * `Expires` (minus `Age`) for ok and unavailable results, or its
 * `Retry-After` (else `unreachableTtlMs`) for unreachable ones, always
 * within [`minTtlMs`, `maxTtlMs`].
 */
export async function fetchRobots(url: string | URL, options: FetchRobotsOptions = {}): Promise<RobotsFetchResult> {
  options = checkFetchOptions(options)
  const { origin, robotsUrl } = robotsLocation(url)
  const { limit, timeoutMs, maxRedirects, maxTtlMs, minTtlMs, unreachableTtlMs, filter, policy } = readFetchOptions(options)
  const first = new URL(robotsUrl)
  const guard = addressGuard(policy, first)
  const transport = transportOf(options)
  // A transport that resolves names checks the addresses it connects to; for any other, the hosts as written are checked here.
  const checkWritten = guard.active && transport.checksAddresses !== true
  const now = options.now ?? Date.now
  const previous = options.previous
  // Validators describe a representation: only an ok (or not-modified) result has one.
  const sent: FetchValidators | undefined =
    previous !== undefined && (previous.outcome === undefined || previous.outcome === 'ok' || previous.outcome === 'not-modified')
      ? previous.validators
      : undefined
  const conditional = conditionalHeaders(sent)
  const isConditional = Object.keys(conditional).length > 0
  const userSignal = options.signal
  userSignal?.throwIfAborted()

  const fetchedAt = readClock(now, 'fetchRobots')
  const redirects: RedirectHop[] = []
  const controller = new AbortController()
  let timedOut = false
  /** How late the deadline fired, ms: more than {@link STALL_MS}, this process did not run meanwhile (an answer may have been waiting unread). */
  let lateMs = 0
  const startedAt = monotonic()
  const expire = (): void => {
    timedOut = true
    lateMs = monotonic() - startedAt - timeoutMs
    controller.abort(new RobotsError('ERR_FETCH', `robots.txt fetch timed out after ${timeoutMs} ms`))
  }
  let timer = setTimeout(() => {
    // Fired late, this process did not run: timers run before reads, so the reads waiting go first (an answer that came in time is the answer).
    if (monotonic() - startedAt - timeoutMs > LATE_MS) timer = setTimeout(expire, 0)
    else expire()
  }, timeoutMs)
  const onUserAbort = () => controller.abort(userSignal?.reason)
  userSignal?.addEventListener('abort', onUserAbort, { once: true })

  const clamp = (ms: number) => Math.min(Math.max(ms, minTtlMs), maxTtlMs)
  const result = (
    outcome: FetchOutcome,
    reason: FetchReason,
    extra: { res?: TransportResponse; robots?: Robots; error?: FetchFailure; freshness?: HeaderSource; shortLived?: boolean } = {},
  ): RobotsFetchResult => {
    const { res } = extra
    let ttl: number
    if (outcome === 'unreachable' || outcome === 'refused' || extra.shortLived) {
      ttl = clamp((res && retryAfterMs(res.headers, fetchedAt)) ?? unreachableTtlMs)
    } else {
      const headers = extra.freshness ?? res?.headers
      ttl = clamp((headers && freshnessLifetimeMs(headers, fetchedAt)) ?? maxTtlMs)
    }
    const r: RobotsFetchResult = {
      outcome,
      reason,
      robots: extra.robots ?? (outcome === 'unreachable' || outcome === 'refused' ? disallowAll() : allowAll()),
      origin,
      url: robotsUrl,
      redirects,
      fetchedAt,
      expiresAt: fetchedAt + ttl,
    }
    if (res) {
      r.status = res.status
      r.finalUrl = current
      // A 304's fields update the stored ones (RFC 9111 §4.3.4): kept merged, so the next refresh still has them.
      r.headers = keptHeaders(outcome === 'not-modified' && extra.freshness ? extra.freshness : res.headers)
      const validators =
        outcome === 'ok' ? validatorsOf(res.headers) : outcome === 'not-modified' && !extra.shortLived ? mergeValidators(validatorsOf(res.headers), sent) : undefined
      if (validators !== undefined) r.validators = validators
    }
    if (extra.error) r.error = extra.error
    return r
  }
  /** The outcome of a refusal of the address policy: `refused` for the origin itself, else the redirect that led there is blocked. */
  const refusal = (err: AddressRefusal): RobotsFetchResult => {
    const error: FetchFailure = { phase: 'request', kind: 'address', code: err.hostClass, message: err.message }
    const hop = redirects[redirects.length - 1]
    if (hop === undefined) return result('refused', 'address-refused', { error })
    hop.blocked = err.hostClass
    current = hop.url
    return result('unavailable', 'redirect-blocked', { res: lastRedirect })
  }
  const failure = (err: unknown, phase: FetchFailure['phase'], res?: TransportResponse): RobotsFetchResult => {
    if (userSignal?.aborted) throw userSignal.reason
    if (err instanceof AddressRefusal) return refusal(err)
    // The caller's fetch or transport answered what is no response: its fault, never the site's outcome.
    if (err instanceof RobotsInputError) throw err
    const local = localFailureCode(err)
    if (local !== undefined) {
      const e = new RobotsError('ERR_LOCAL', `robots.txt of ${origin} not fetched: this machine failed (${local}): ${describeFailure(err, phase).message}`)
      throw Object.assign(e, { cause: err })
    }
    if (timedOut && lateMs > STALL_MS) {
      const why = `this process did not run for ${Math.round(lateMs)} ms past the deadline of ${timeoutMs} ms (stopped, asleep or too busy)`
      const e = new RobotsError('ERR_LOCAL', `robots.txt of ${origin} not fetched: this machine failed (ESTALLED): ${why}`)
      throw Object.assign(e, { cause: Object.assign(new Error(why), { code: 'ESTALLED' }) })
    }
    if (timedOut) {
      return result('unreachable', 'timeout', {
        res,
        error: { phase, kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` },
      })
    }
    const error = describeFailure(err, phase)
    if (phase === 'body' && (error.kind === 'length' || error.kind === 'decoding')) {
      return result('unreachable', 'incomplete-body', { res, error })
    }
    return result('unreachable', error.kind === 'dns' ? 'dns-error' : 'network-error', { res, error })
  }
  /**
   * The result when the redirect `hop` to `target` is refused (its host as
   * written is refused by the address policy, or `redirectFilter` says no),
   * else undefined. The filter runs within the deadline; its own exceptions propagate.
   */
  const refuseRedirect = async (hop: RedirectHop, target: URL, res: TransportResponse): Promise<RobotsFetchResult | undefined> => {
    let blocked: RedirectHop['blocked'] = checkWritten ? guard.refused(target.hostname, undefined, false) : undefined
    if (!blocked && filter) {
      let allowed: unknown
      try {
        allowed = await raceAbort(Promise.resolve().then(() => filter(new URL(target.href))), controller.signal)
      } catch (err) {
        if (timedOut || userSignal?.aborted) return failure(err, 'request', res)
        throw err
      }
      if (allowed !== true) blocked = 'filter'
    }
    if (!blocked) return undefined
    hop.blocked = blocked
    return result('unavailable', 'redirect-blocked', { res })
  }

  let current = robotsUrl
  /** `current`'s host as the URL parser writes it. */
  let currentHost = first.hostname
  /** The redirect response that led to the request in flight (a refused address blames it). */
  let lastRedirect: TransportResponse | undefined
  const seen = new Set<string>([current])
  try {
    if (checkWritten) {
      const cls = guard.refused(first.hostname, undefined, false)
      if (cls !== undefined) return refusal(new AddressRefusal(cls, first.hostname, undefined))
    }
    const headers: Record<string, string> = { ...conditional }
    if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent
    for (;;) {
      let res: TransportResponse
      const hostname = currentHost
      const pending = transport.request({
        url: current,
        headers,
        signal: controller.signal,
        checkAddress: (address, routed) => {
          const cls = guard.refused(hostname, address, routed)
          if (cls !== undefined) throw new AddressRefusal(cls, hostname, address)
        },
      })
      if (typeof (pending as { then?: unknown } | null)?.then !== 'function') {
        throw new RobotsInputError(`transport.request returned ${describeValue(pending)}, not a promise`)
      }
      try {
        res = await raceAbort(pending, controller.signal)
      } catch (err) {
        // A transport that ignored the signal may still answer: its response is not wanted.
        pending.then((late) => late?.cancel?.(), () => {}).catch(() => {})
        return failure(timedOut && !userSignal?.aborted ? await ownError(pending, err) : err, 'request')
      }
      checkResponse(res, 'transport.request')
      if (res.followedTo !== undefined) {
        // The platform has followed it already; the file it reached is still refused.
        const hop: RedirectHop = { url: current, status: 0, location: res.followedTo }
        current = res.followedTo
        const reached = new URL(current)
        currentHost = reached.hostname
        redirects.push(hop)
        const refused = await refuseRedirect(hop, reached, res)
        if (refused) {
          res.cancel()
          return refused
        }
      }

      const status = res.status
      if (isRedirectStatus(status)) {
        const location = res.headers.get('location')
        res.cancel()
        if (location === null || location.trim() === '') {
          redirects.push({ url: current, status })
          return result('unavailable', 'redirect-without-location', { res })
        }
        let next: URL | undefined
        try {
          next = new URL(locationText(oneLocation(location.trim())), current)
        } catch {
          next = undefined
        }
        if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          redirects.push({ url: current, status })
          return result('unavailable', 'redirect-invalid-location', { res })
        }
        next.hash = ''
        const hop: RedirectHop = { url: current, status, location: next.href }
        redirects.push(hop)
        if (seen.has(next.href)) return result('unavailable', 'redirect-loop', { res })
        if (redirects.length > maxRedirects) return result('unavailable', 'too-many-redirects', { res })
        const refused = await refuseRedirect(hop, next, res)
        if (refused) return refused
        seen.add(next.href)
        current = next.href
        currentHost = next.hostname
        lastRedirect = res
        continue
      }

      if (status === 304) {
        res.cancel()
        if (isConditional) {
          // RFC 9111 §4.3.4: the 304's fields update the stored ones; freshness from the merged set.
          const stored = previous!.headers
          // Not the stored `Age`: it counted the stored response's time in caches, not this one's.
          const freshness: HeaderSource = { get: (name) => res.headers.get(name) ?? (name === 'age' ? null : stored?.[name]) ?? null }
          return result('not-modified', 'not-modified', { res, robots: previous!.robots, freshness })
        }
        // Not an answer about the file (nothing was asked to be validated): the rules held stand, until asked again soon.
        if (previous !== undefined) return result('not-modified', 'unexpected-not-modified', { res, robots: previous.robots, shortLived: true })
        return result('unreachable', 'unexpected-not-modified', { res })
      }
      const { outcome, reason } = classifyStatus(status)
      if (outcome !== 'ok') {
        res.cancel()
        return result(outcome, reason, { res })
      }
      const body = res.body
      if (!body) return result('ok', 'success', { res, robots: allowAll() })
      let robots: Robots
      try {
        robots = await parseRobotsStream(body, { limit, signal: controller.signal })
      } catch (err) {
        res.cancel()
        return failure(err, 'body', res)
      }
      const short = lengthFailure(robots, res.expectedLength)
      if (short) return result('unreachable', 'incomplete-body', { res, error: short })
      return result('ok', 'success', { res, robots })
    }
  } finally {
    clearTimeout(timer)
    userSignal?.removeEventListener('abort', onUserAbort)
  }
}

/**
 * One `Location` of a value a platform joined from repeated fields
 * (`/a, /a`: a proxy that added it again). A URL holds no space, so such a
 * value is a list; equal members are one target.
 */
function oneLocation(value: string): string {
  const parts = value.split(', ')
  return parts.length > 1 && parts.every((p) => p === parts[0]) ? parts[0]! : value
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * A `Location` value as browsers read it: header values reach us one char
 * per byte, and a server that writes a URL's non-ASCII characters raw sends
 * them as UTF-8 (`http://bücher.de/`), which read as Latin-1 would name
 * another host (`bÃ¼cher.de`). Bytes that are valid UTF-8 are decoded so;
 * any other value is kept as it came.
 */
function locationText(value: string): string {
  let high = false
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c > 0xff) return value
    if (c > 0x7f) high = true
  }
  if (!high) return value
  const bytes = new Uint8Array(value.length)
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i)
  try {
    return UTF8.decode(bytes)
  } catch {
    return value
  }
}
