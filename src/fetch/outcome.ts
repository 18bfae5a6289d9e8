import type { HostClass } from './address.js'
import type { Robots } from '../robots/robots.js'
import type { FetchValidators } from './validators.js'

/**
 * What the fetch established (RFC 9309 §2.3.1):
 * - `ok`: a 2xx answer; `robots` is the parsed body.
 * - `unavailable`: the site says there is no file (4xx other than 429, too many,
 *   broken or refused redirects); `robots` allows everything.
 * - `unreachable`: the file could not be obtained (5xx, 429, network, DNS or TLS
 *   error, timeout, a body that did not arrive whole); `robots` disallows everything.
 * - `not-modified`: a conditional refresh (`previous` given) answered 304;
 *   `robots` is `previous.robots`, still valid (RFC 9110 §15.4.5).
 * - `refused`: not fetched: the origin's address is one the address policy
 *   refuses (`privateAddresses`: a loopback, private, link-local or other
 *   non-public address). This machine's decision, not the site's answer;
 *   `robots` disallows everything.
 */
export type FetchOutcome = 'ok' | 'unavailable' | 'unreachable' | 'not-modified' | 'refused'

/** Machine-readable reason behind the outcome. */
export type FetchReason =
  /** 2xx: the body was parsed (`ok`). */
  | 'success'
  /** 304 to a conditional refresh: the previous rules stand (`not-modified`). */
  | 'not-modified'
  /**
   * 304 to a request that carried no validators: not an answer about the
   * file. With `previous`, its rules stand (`not-modified`, kept only until
   * `unreachableTtlMs`); without, `unreachable`. Never allow-all.
   */
  | 'unexpected-not-modified'
  /** The origin's host, or the address its name resolves to, is refused by `privateAddresses` (`refused`). */
  | 'address-refused'
  /** 4xx other than 429 (`unavailable`). */
  | 'client-error'
  /** More than `maxRedirects` consecutive redirects (`unavailable`). */
  | 'too-many-redirects'
  /** A redirect back to a URL already visited in this chain (`unavailable`). */
  | 'redirect-loop'
  /** A redirect status without a `Location` header (`unavailable`). */
  | 'redirect-without-location'
  /** A `Location` that is not a valid http(s) URL (`unavailable`). */
  | 'redirect-invalid-location'
  /**
   * A redirect refused (`unavailable`): to a loopback, private, link-local or
   * other non-public host while the origin asked for was public, or by
   * `redirectFilter`. The refused hop is the last of `redirects`, with `blocked`.
   */
  | 'redirect-blocked'
  /** A status the protocol does not assign (1xx, 3xx other than 301/302/303/304/307/308, ≥ 600) (`unavailable` for 3xx, else `unreachable`). */
  | 'unexpected-status'
  /** 429 Too Many Requests (`unreachable`). */
  | 'rate-limited'
  /** 5xx (`unreachable`). */
  | 'server-error'
  /** Connection, TLS or protocol failure, before or while reading the body (`unreachable`). */
  | 'network-error'
  /** The host's name did not resolve: no such name, no address, or no answer from its DNS servers (`unreachable`). */
  | 'dns-error'
  /** `timeoutMs` elapsed before the body was read (`unreachable`). */
  | 'timeout'
  /**
   * A 2xx body that did not arrive whole (`unreachable`): fewer (or more) bytes
   * than its `Content-Length`, or a content coding (gzip, deflate, br) that
   * ended early or was corrupt, or one not decoded. `error` says which (`kind: 'length'` or `'decoding'`).
   */
  | 'incomplete-body'

/** One redirect followed (or refused) on the way to the file. */
export interface RedirectHop {
  /** The URL that answered with the redirect. */
  url: string
  /** Its status (301, 302, 303, 307 or 308; 0 when the platform hides it, as browsers do). */
  status: number
  /** The absolute target, resolved against `url`; absent when the Location header was missing or invalid. */
  location?: string
  /** Set on a hop that was refused (`redirect-blocked`): the class of its target's host, or `'filter'` when `redirectFilter` said no. */
  blocked?: HostClass | 'filter'
}

/** A transport failure, as far as the platform's `fetch` reports it. */
export interface FetchFailure {
  /** Whether the request failed before the response headers or while reading the body. */
  phase: 'request' | 'body'
  /**
   * Coarse class derived from `code`; for `incomplete-body`, `length` (the
   * body's length differs from its `Content-Length`) or `decoding` (a content
   * coding ended early or was corrupt); for `address-refused`, `address`
   * (`code` is then the refused class: `loopback`, `private`, …).
   */
  kind: 'dns' | 'tls' | 'connection' | 'timeout' | 'length' | 'decoding' | 'address' | 'other'
  /** The underlying error code when the platform gives one (e.g. `ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`). */
  code?: string
  /** The error message, with the messages of its causes. */
  message: string
}

/** The result of {@link fetchRobots}. `robots` always answers. */
export interface RobotsFetchResult {
  outcome: FetchOutcome
  reason: FetchReason
  /** The rules that apply to {@link origin}: the parsed file, allow-all or disallow-all. */
  robots: Robots
  /** The origin the rules apply to: that of the URL passed in, whatever the redirects. */
  origin: string
  /** `origin + '/robots.txt'`, the URL first requested. */
  url: string
  /** HTTP status of the last response, when one arrived. */
  status?: number
  /** Redirects in order; the last one is the refused one for `too-many-redirects`, `redirect-loop` and `redirect-blocked`. */
  redirects: RedirectHop[]
  /** The URL of the last response, when one arrived (differs from `url` after redirects). */
  finalUrl?: string
  /** Response headers of the last response worth keeping for explanations (content-type, content-encoding, content-length, cache-control, age, expires, retry-after, etag, last-modified, location), names lower-cased. */
  headers?: Record<string, string>
  /**
   * The validators to send on the next refresh (`previous`): the `ETag` and
   * `Last-Modified` of an `ok` answer, or of a `not-modified` one over the
   * previous ones. Absent for other outcomes and when the server sent none.
   */
  validators?: FetchValidators
  /** Set for `network-error`, `dns-error`, `timeout`, `incomplete-body` and `address-refused`. */
  error?: FetchFailure
  /** When the fetch started (ms since the epoch, by the `now` clock). */
  fetchedAt: number
  /** Until when the result may be reused (see `FetchRobotsOptions` for the rules). */
  expiresAt: number
}
