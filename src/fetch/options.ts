/**
 * The argument checks of `fetchRobots` that are about types, not numbers
 * (those are checked where they are read, in fetch-robots.ts): an options
 * argument that is not an object, an option it does not know, or a `fetch`,
 * `signal`, `now`, `userAgent` or `allowPrivateRedirects` of the wrong type
 * (a `now()` that returns no finite number, when called), is a RobotsInputError
 * (ERR_INPUT) before any request, instead of a crash or a request that fails
 * as a "network error".
 */
import { describeValue, optionsArgument, RobotsInputError } from '../errors.js'
import { describeNotRobots, Robots } from '../robots/robots.js'
import type { FetchOutcome } from './outcome.js'
import type { RedirectFilter } from './redirect-guard.js'
import type { PrivateAddressPolicy } from './address-policy.js'
import type { RobotsTransport } from './transport.js'
import { checkValidators, type FetchValidators } from './validators.js'
import { checkOptionNames, FETCH_OPTION_NAMES } from './option-names.js'

/**
 * What a refresh knows of the previous fetch of the same origin (a
 * `RobotsFetchResult` fits): its rules, reused when the server answers 304
 * Not Modified, and the validators that make the request conditional.
 */
export interface PreviousFetch {
  /** The rules the previous fetch gave. */
  robots: Robots
  /** Its validators (`ETag`, `Last-Modified`); without any, the request is not conditional. */
  validators?: FetchValidators
  /** Its outcome: validators are sent only after `ok` or `not-modified` (absent: taken as `ok`). */
  outcome?: FetchOutcome
  /** Its response headers (`cache-control`, `expires`, …), for the freshness of a 304 that carries none of its own. */
  headers?: Record<string, string>
}

/** The part of the Web `fetch` signature that {@link fetchRobots} uses. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/** Options of {@link fetchRobots}. All durations are in milliseconds. */
export interface FetchRobotsOptions {
  /** The `fetch` to use. Default `globalThis.fetch`. */
  fetch?: FetchLike
  /**
   * The HTTP client instead of a Web `fetch` (not both): an object with
   * `request(req)` (src/fetch/transport.ts). `robots-automaton/node`'s
   * `createNodeTransport()` is one: it resolves names itself (its own DNS
   * resolver and cache), so `privateAddresses` sees the addresses it
   * connects to, and it limits the requests in flight per address.
   */
  transport?: RobotsTransport
  /**
   * Which addresses may be reached, for the first request and every
   * redirect (SSRF): `'refuse'` (only public ones: for URLs from untrusted
   * input), `'origin'` (the default: as `'refuse'`, but an origin whose URL
   * itself names a loopback, private or local host is the caller's choice,
   * and its redirects may stay there) or `'allow'`. A refused origin is the
   * outcome `refused`, a refused redirect `redirect-blocked`. With a Web
   * `fetch` the hosts are checked as written (a name's addresses are not
   * visible there); with a transport that resolves names, the addresses it
   * connects to.
   */
  privateAddresses?: PrivateAddressPolicy
  /**
   * Deadline for the whole request: every redirect and the body. Default
   * 10,000. A finite number ≥ 0; values above {@link MAX_TIMEOUT_MS} (2³¹−1 ms,
   * about 24.8 days, the longest delay timers take) are clamped to it.
   * `Infinity`, NaN, negative numbers and non-numbers are a `RobotsInputError`.
   * A transport that finds at the deadline that this machine kept the
   * request (a silent resolver, a queue of its own) has a short grace to
   * say so: `ERR_LOCAL` then, not the outcome `timeout`.
   */
  timeoutMs?: number
  /** Consecutive redirects followed; one more makes the file unavailable (RFC 9309 §2.3.1.2). Default 5. */
  maxRedirects?: number
  /** Parsing limit in bytes, as for `parseRobots` (at least 512,000, the default). Bytes past it are not downloaded. */
  limit?: number
  /**
   * Sent as the `User-Agent` header (platforms that forbid setting it ignore
   * it). A value no HTTP stack can send (a control char such as CR or LF, a
   * char past U+00FF) or servers would refuse (more than 1,024 chars) is a
   * `RobotsInputError` before any request.
   */
  userAgent?: string
  /** Aborting it rejects the returned promise with the signal's reason (it is not an outcome). */
  signal?: AbortSignal
  /** Clock for `fetchedAt` / `expiresAt`. Default `Date.now`. */
  now?: () => number
  /** Longest reuse of an ok/unavailable result (RFC 9309 §2.4: 24 hours). Default 86,400,000. */
  maxTtlMs?: number
  /** Shortest reuse of any result, so that `no-cache`, `max-age=0` or `Retry-After: 0` cannot make a crawler refetch per URL. Default 60,000. */
  minTtlMs?: number
  /** Reuse of an unreachable result when the response gives no `Retry-After`. Default 600,000 (10 minutes). */
  unreachableTtlMs?: number
  /**
   * `true` is the older spelling of `privateAddresses: 'allow'` (when
   * `privateAddresses` is not given): follow redirects to loopback, private,
   * link-local and other non-public hosts even when the origin asked for is
   * public.
   */
  allowPrivateRedirects?: boolean
  /**
   * Asked for every redirect target that passed the address check; resolve to
   * `true` to follow it, anything else refuses it (`redirect-blocked`). For
   * callers that resolve names themselves (e.g. with `dns.lookup` and
   * `classifyHost` on each address). It gets a copy of the URL; it runs within
   * `timeoutMs`; an exception in it rejects `fetchRobots` with that exception.
   */
  redirectFilter?: RedirectFilter
  /**
   * The previous fetch of this origin, for a conditional refresh: its
   * validators are sent (`If-None-Match`, `If-Modified-Since`) and a 304
   * answer gives the outcome `not-modified` with `previous.robots`. Pass the
   * last `ok` or `not-modified` result; another outcome's validators are not
   * sent.
   */
  previous?: PreviousFetch
}

/**
 * A User-Agent every HTTP stack sends as is and servers read: no control
 * char (CR, LF and NUL included), none past U+00FF, at most 1,024 chars (a
 * server answers a longer header, past its limit, with 431 or 400, which
 * would read as the site's robots.txt unavailable: allow all).
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,1024}$/

function mustBe(ok: boolean, name: string, what: string, value: unknown): void {
  if (!ok) throw new RobotsInputError(`fetchRobots: ${name} must be ${what}, got ${describeValue(value)}`)
}

/** The options of `names` that `o` gives (its own or inherited), each read once, in a plain object. */
function readOnce(o: object, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) {
    const value = (o as Record<string, unknown>)[name]
    if (value !== undefined) out[name] = value
  }
  return out
}

/** Checks the options of `fetchRobots` (see the module comment); returns them (`{}` for undefined). */
export function checkFetchOptions(options: unknown): FetchRobotsOptions {
  const given = optionsArgument<FetchRobotsOptions>(options, 'fetchRobots')
  checkOptionNames(given, FETCH_OPTION_NAMES, 'fetchRobots')
  // Each option read once, into a copy that is checked and then used: a getter that gave another value
  // at the next read would otherwise slip an unchecked one (a user-agent with a CR LF) past the checks.
  const o = readOnce(given, FETCH_OPTION_NAMES) as FetchRobotsOptions
  mustBe(o.fetch === undefined || typeof o.fetch === 'function', 'fetch', 'a function', o.fetch)
  const t = o.transport as unknown as { request?: unknown } | null | undefined
  mustBe(t === undefined || (typeof t === 'object' && t !== null && typeof t.request === 'function'), 'transport', 'an object with a request function', t)
  mustBe(o.fetch === undefined || t === undefined, 'fetch', 'absent when a transport is given', o.fetch)
  mustBe(o.now === undefined || typeof o.now === 'function', 'now', 'a function', o.now)
  mustBe(o.userAgent === undefined || (typeof o.userAgent === 'string' && HEADER_VALUE.test(o.userAgent)), 'userAgent', 'a string that can be a header value (tab, space, visible ASCII and U+0080–U+00FF; at most 1,024 chars)', o.userAgent)
  mustBe(o.allowPrivateRedirects === undefined || typeof o.allowPrivateRedirects === 'boolean', 'allowPrivateRedirects', 'a boolean', o.allowPrivateRedirects)
  const p = o.previous as unknown as Record<string, unknown> | null | undefined
  if (p !== undefined) {
    mustBe(typeof p === 'object' && p !== null, 'previous', 'an object (a previous result)', p)
    const previous = readOnce(p!, ['robots', 'validators', 'outcome', 'headers'])
    if (!(previous.robots instanceof Robots)) throw new RobotsInputError(`fetchRobots: previous.robots must be a Robots of this build, got ${describeNotRobots(previous.robots)}`)
    const validators = checkValidators(previous.validators, 'fetchRobots: previous.validators')
    if (validators === undefined) delete previous.validators
    else previous.validators = validators
    o.previous = previous as unknown as PreviousFetch
  }
  const s = o.signal as unknown as Record<string, unknown> | null | undefined
  mustBe(
    s === undefined || (typeof s === 'object' && s !== null && typeof s.aborted === 'boolean' && typeof s.throwIfAborted === 'function' && typeof s.addEventListener === 'function'),
    'signal',
    'an AbortSignal',
    s,
  )
  return o
}
