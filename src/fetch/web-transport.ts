/**
 * The Web `fetch` API as a transport of the access method (transport.ts):
 * the default of `fetchRobots`, in Node, browsers, Deno, Bun and workers.
 * Redirects are asked for `manual`; where the platform hides them (browsers
 * answer an `opaqueredirect`), the request is repeated with `follow` and the
 * URL reached is reported. With the platform's own `fetch` on Node, gzip
 * bodies come through still encoded and are decoded strictly here
 * (content-coding.ts).
 */
import { openBody } from './body.js'
import { CODING_HEADER, encodedBodyRequest, STRICT_ACCEPT_ENCODING, type EncodedBodyState } from './content-coding.js'
import type { FetchLike } from './options.js'
import { checkResponse, type RobotsTransport, type TransportRequest, type TransportResponse } from './transport.js'

/** Rejects as soon as `signal` aborts, so a `fetch` that ignores its signal cannot outlive the deadline. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

/** Cancels `stream` unless it is over, or being read (its reader cancels it). */
function discard(stream: ReadableStream<Uint8Array> | null | undefined): void {
  if (stream && !stream.locked) stream.cancel().catch(() => {})
}

/** The header fields of `res`, `Content-Encoding` read from where the dispatcher moved it when the body came through encoded. */
function headersOf(res: Response, undecoded: boolean): { get(name: string): string | null } {
  if (!undecoded) return res.headers
  return { get: (name) => res.headers.get(name.toLowerCase() === 'content-encoding' ? CODING_HEADER : name) }
}

/**
 * A transport over `fetchImpl`; `strict`: ask Node's undici for gzip bodies
 * still encoded and decode them here (only with the platform's own `fetch`).
 */
export function webTransport(fetchImpl: FetchLike, strict: boolean): RobotsTransport {
  const init = (req: TransportRequest, redirect: RequestRedirect): { init: RequestInit; state: EncodedBodyState | undefined } => {
    const encoded = strict ? encodedBodyRequest() : undefined
    const init: RequestInit = { method: 'GET', headers: { ...req.headers }, redirect, signal: req.signal }
    if (encoded) {
      init.headers = { ...req.headers, 'accept-encoding': STRICT_ACCEPT_ENCODING }
      Object.assign(init, encoded.init)
    }
    return { init, state: encoded?.state }
  }
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      let r = init(req, 'manual')
      let res = checkResponse(await raceAbort(Promise.resolve(fetchImpl(req.url, r.init)), req.signal), 'fetch')
      let followedTo: string | undefined
      if (res.type === 'opaqueredirect') {
        // Browsers hide manual redirects; let the platform follow them (its own limit applies).
        r = init(req, 'follow')
        res = checkResponse(await raceAbort(Promise.resolve(fetchImpl(req.url, r.init)), req.signal), 'fetch')
        if (res.redirected && res.url) followedTo = res.url
      }
      const undecoded = r.state?.renamed === true
      const headers = headersOf(res, undecoded)
      const status = res.status
      // Only a 2xx body is read; the others are not wanted.
      const body = status >= 200 && status < 300 ? openBody(res, undecoded) : null
      if (body === null) discard(res.body)
      const out: { -readonly [K in keyof TransportResponse]: TransportResponse[K] } = {
        status,
        headers,
        body: body?.stream ?? null,
        cancel: () => discard(body?.stream ?? res.body),
      }
      if (body?.expectedLength !== undefined) out.expectedLength = body.expectedLength
      if (followedTo !== undefined) out.followedTo = followedTo
      return out
    },
  }
}
