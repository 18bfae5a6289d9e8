import type { FetchFailure, FetchOutcome, FetchReason } from './outcome.js'

/** The redirect statuses RFC 9309 §2.3.1.2 asks crawlers to follow. */
export function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308
}

/**
 * Outcome of a final (non-redirect) status.
 *
 * 429 is `unreachable`, not `unavailable`: the server did not say the file is
 * absent, it refused to serve it for now. Treating it as "no robots.txt, crawl
 * everything" would let a site that is already shedding load receive the whole
 * crawl; disallow-all until the retry is what RFC 9309 §2.3.1.4 and the
 * major crawlers (Google treats 429 like 5xx) do.
 */
export function classifyStatus(status: number): { outcome: FetchOutcome; reason: FetchReason } {
  if (status >= 200 && status < 300) return { outcome: 'ok', reason: 'success' }
  if (status === 429) return { outcome: 'unreachable', reason: 'rate-limited' }
  if (status >= 400 && status < 500) return { outcome: 'unavailable', reason: 'client-error' }
  if (status >= 500 && status < 600) return { outcome: 'unreachable', reason: 'server-error' }
  if (status >= 300 && status < 400) return { outcome: 'unavailable', reason: 'unexpected-status' }
  return { outcome: 'unreachable', reason: 'unexpected-status' }
}

/** Name resolution failures: getaddrinfo's (`dns.lookup`, undici) and c-ares's (`dns.Resolver`). */
const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'ENODATA',
  'ESERVFAIL',
  'EREFUSED',
  'EBADRESP',
  'EFORMERR',
  'ETIMEOUT',
  'ENONAME',
  'EBADNAME',
  'ENOTIMP',
])

/**
 * Failures of this machine, not of the site: descriptors (EMFILE, ENFILE),
 * memory and buffers (ENOMEM, ENOBUFS, a decoder that could not get memory
 * or be made: zlib's Z_MEM_ERROR, brotli's ERR__ERROR_ALLOC_…, Node's
 * ERR_MEMORY_ALLOCATION_FAILED and ERR_ZLIB_INITIALIZATION_FAILED), local
 * ports and addresses (EADDRNOTAVAIL, EADDRINUSE, EAGAIN from `connect`:
 * the ephemeral ports exhausted). They are never an outcome: `fetchRobots`
 * rejects with ERR_LOCAL, and the caller retries later.
 */
const LOCAL_CODES = new Set([
  'EMFILE',
  'ENFILE',
  'ENOMEM',
  'ENOBUFS',
  'EADDRNOTAVAIL',
  'EADDRINUSE',
  'EAGAIN',
  'Z_MEM_ERROR',
  'ERR_MEMORY_ALLOCATION_FAILED',
  'ERR_ZLIB_INITIALIZATION_FAILED',
])

/** Whether `e` is a `connect` that failed on this machine before anything was sent: Node (and undici through it) tags it with the local address (src/net/node-transport.ts reads the same tag). */
function connectFailedHere(e: object): boolean {
  const o = e as { syscall?: unknown; message?: unknown }
  return o.syscall === 'connect' && typeof o.message === 'string' && o.message.includes(' - Local (')
}

/**
 * The code of the local failure behind `err` (along its cause chain), or
 * undefined when it is not one: a code of LOCAL_CODES, an error a
 * transport marks `localFailure: true` (its resolver's servers unreachable),
 * or a `connect` that failed on this machine before anything was sent (no
 * route, the address family off, a firewall rule), which Node's sockets,
 * undici's too, tag with the local address (` - Local (…)`).
 */
export function localFailureCode(err: unknown): string | undefined {
  let e: unknown = err
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    const o = e as { code?: unknown; cause?: unknown; localFailure?: unknown }
    if (typeof o.code === 'string' && (LOCAL_CODES.has(o.code) || o.code.startsWith('ERR__ERROR_ALLOC'))) return o.code
    if (o.localFailure === true) return typeof o.code === 'string' ? o.code : 'ELOCAL'
    if (connectFailedHere(o) && typeof o.code === 'string') return o.code
    e = o.cause
  }
  return undefined
}
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])

/** Codes for a body whose length differs from its `Content-Length` (undici's, the Node transport's). */
const LENGTH_CODES = new Set(['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_BODY_LENGTH'])

/** Codes of a content coding that ended early, is corrupt (zlib's `Z_BUF_ERROR`, `Z_DATA_ERROR`, …, brotli's `ERR__ERROR_FORMAT_…` as Node reports them) or is not decoded (`ERR_CONTENT_CODING`). */
function isDecodingCode(code: string): boolean {
  return code.startsWith('Z_') || code.startsWith('ERR_ZLIB') || code.startsWith('ERR__ERROR_') || code.startsWith('ERR_BROTLI') || code === 'ERR_CONTENT_CODING'
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('CERT_') ||
    code.includes('CERT') ||
    code.startsWith('SSL_') ||
    code === 'EPROTO'
  )
}

/**
 * Describes a transport error. Platforms report these differently: Node's
 * undici throws `TypeError('fetch failed')` with the socket error as `cause`
 * (its `code` tells DNS, TLS and connection failures apart); browsers give a
 * bare `TypeError`. The first `code` found along the cause chain is kept.
 * `length` and `decoding` are body failures (a `Content-Length` mismatch, a
 * gzip/deflate/br stream cut short or corrupt): `fetchRobots` reports them as
 * `incomplete-body`.
 */
export function describeFailure(err: unknown, phase: FetchFailure['phase']): FetchFailure {
  const messages: string[] = []
  let code: string | undefined
  let e: unknown = err
  for (let depth = 0; depth < 8 && e != null; depth++) {
    if (typeof e === 'object') {
      const o = e as { message?: unknown; code?: unknown; cause?: unknown }
      const msg = typeof o.message === 'string' ? o.message.trim() : ''
      if (msg !== '' && !messages.includes(msg)) messages.push(msg)
      if (code === undefined && typeof o.code === 'string') code = o.code
      e = o.cause
    } else {
      messages.push(String(e))
      break
    }
  }
  let kind: FetchFailure['kind'] = 'other'
  if (code !== undefined) {
    if (LENGTH_CODES.has(code)) kind = 'length'
    else if (isDecodingCode(code)) kind = 'decoding'
    else if (DNS_CODES.has(code)) kind = 'dns'
    else if (isTlsCode(code)) kind = 'tls'
    else if (CONNECTION_CODES.has(code)) kind = 'connection'
  }
  const failure: FetchFailure = { phase, kind, message: messages.join(': ') || 'unknown error' }
  if (code !== undefined) failure.code = code
  return failure
}
