import { describeValue, RobotsInputError } from '../errors.js'

/**
 * The transport of the access method: what `fetchRobots` asks of an HTTP
 * client. One GET at a time, no redirects followed (the access method
 * follows them, RFC 9309 §2.3.1.2), the body handed over as it streams.
 * The Web `fetch` API is one transport (web-transport.ts, the default);
 * `robots-automaton/node` offers another that resolves names itself, so
 * that the address policy sees the addresses it connects to
 * (`createNodeTransport`). Every rule of the access method (status
 * classes, redirects, the limit while streaming, validators, the address
 * policy) stays in fetch-robots.ts, whatever the transport.
 */
/** One GET as the access method sends it. */
export interface TransportRequest {
  /** The absolute http(s) URL to get (no fragment). */
  readonly url: string
  /** Header fields to send, names lower-cased (`user-agent`, `if-none-match`, …); the transport adds `Host` and its own framing. */
  readonly headers: Readonly<Record<string, string>>
  /**
   * Aborted at the deadline or by the caller: the transport stops, and
   * rejects (or errors the body) with the signal's reason or its own error.
   * At the deadline, an error of its own that is a failure of this machine
   * (`localFailure: true`, or a code such as EMFILE), given within a short
   * grace, makes the fetch `ERR_LOCAL` instead of the outcome `timeout`.
   */
  readonly signal: AbortSignal
  /**
   * For transports that resolve names (`checksAddresses: true`): called with
   * every address before a connection to it, and whether the user routed
   * the connection there (a mapping such as curl's `--resolve`). It throws
   * when the address policy refuses the address; the transport must then
   * not connect, and must reject with that same error (tried on other
   * addresses of the name first, when it has several).
   */
  readonly checkAddress: (address: string, routed: boolean) => void
}

/** A response's status, header fields and body. */
export interface TransportResponse {
  readonly status: number
  /** Header fields by lower-cased name (a Web `Headers` fits); several of one name joined with `, `. */
  readonly headers: { get(name: string): string | null }
  /**
   * The body, decoded of its content codings (strictly: a coding cut short
   * or corrupt errors the stream); null when there is none. A connection
   * lost while reading errors it.
   */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null
  /** The bytes the body must have, when known (the `Content-Length` of a body without content coding). */
  readonly expectedLength?: number
  /** When the transport followed redirects itself (browsers hide them): the URL this response came from. */
  readonly followedTo?: string
  /** Stops reading the body and frees the connection (a body not wanted, or read up to the limit). */
  cancel(): void
}

/** An HTTP client for the access method. */
export interface RobotsTransport {
  /** Sends one GET; resolves once the status line and header fields have arrived. */
  request(req: TransportRequest): Promise<TransportResponse>
  /**
   * True when the transport resolves names and calls `checkAddress` for
   * every address it connects to; otherwise the access method checks each
   * request's host as written in its URL (what a Web `fetch` lets it see).
   */
  readonly checksAddresses?: boolean
}

/**
 * `res` when it can be a response that `what` resolved to: a status number,
 * header fields with `get`, and a `cancel()` (a transport's) or a body that
 * is null or a stream (a `fetch`'s); else a RobotsInputError: the caller's
 * `fetch` or transport is at fault, not the site.
 */
export function checkResponse<T>(res: T, what: 'fetch' | 'transport.request'): T {
  const r = res as { status?: unknown; headers?: { get?: unknown } | null; body?: { getReader?: unknown } | null; cancel?: unknown } | null
  const ok =
    typeof r === 'object' && r !== null && typeof r.status === 'number' && typeof r.headers?.get === 'function' &&
    (what === 'fetch' ? r.body == null || typeof r.body.getReader === 'function' : typeof r.cancel === 'function')
  if (!ok) {
    const parts = what === 'fetch' ? 'a status number, headers.get, a body stream or null' : 'a status number, headers.get, cancel()'
    throw new RobotsInputError(`${what} resolved to ${describeValue(res)}, not a response (${parts})`)
  }
  return res
}
