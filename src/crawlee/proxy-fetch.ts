/**
 * Node's own `fetch` (undici) through an HTTP or HTTPS forward proxy, the
 * way Crawlee's HTTP client uses one: an `http:` URL is sent to the proxy in
 * absolute form (`GET http://host/robots.txt`), an `https:` URL through a
 * `CONNECT` tunnel. Credentials in the proxy URL become a
 * `Proxy-Authorization: Basic` header. Each request gets agents of its own,
 * closed once its answer is read: robots.txt is fetched once per origin.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { RobotsError, RobotsInputError, type FetchLike } from '../index.js'

/** `Symbol.for` key of undici's global dispatcher (as src/fetch/content-coding.ts reads it). */
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

/** The part of an undici dispatcher used here. */
interface Dispatcher {
  dispatch(options: DispatchOptions, handler: object): boolean
  close(): Promise<void>
}

/** The members of undici's dispatch options read or changed here (the rest passes through). */
interface DispatchOptions {
  origin?: string | URL
  path?: string
  headers?: unknown
}

/** What undici passes a `connect` function. */
interface ConnectOptions {
  hostname: string
  port: string
  protocol: string
  servername?: string | null
}

type ConnectCallback = (err: Error | null, socket: Socket | null) => void

/**
 * A failure of the proxy itself, not of the site behind it: the proxy could
 * not be reached (refused, no route, its name unknown) or refused our
 * credentials (407). A local failure (`localFailure`): `fetchRobots` throws
 * it (ERR_LOCAL) and no outcome is recorded for the site.
 */
export class ProxyFailure extends Error {
  readonly localFailure = true
  constructor(
    message: string,
    readonly code: string,
    options?: { cause: unknown },
  ) {
    super(message, options)
  }
}

/** The ProxyFailure along `err`'s cause chain (fetchRobots' ERR_LOCAL holds it), if any. */
export function proxyFailureOf(err: unknown): ProxyFailure | undefined {
  let e: unknown = err
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    if (e instanceof ProxyFailure) return e
    e = Reflect.get(e, 'cause')
  }
  return undefined
}

/** Codes of a connection to the proxy that was never made (timeouts are left out: the proxy may be waiting for the site). */
const NOT_REACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'])

/** `err` as a ProxyFailure when it says the proxy `proxy` could not be reached (along its cause chain), else `err`. */
function unreached(proxy: URL, err: unknown): unknown {
  let e: unknown = err
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    const code: unknown = Reflect.get(e, 'code')
    if (typeof code === 'string' && NOT_REACHED.has(code)) return new ProxyFailure(`proxy ${proxy.host} could not be reached (${code})`, code, { cause: err })
    e = Reflect.get(e, 'cause')
  }
  return err
}

function isDispatcher(value: unknown): value is Dispatcher {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'dispatch') === 'function' && typeof Reflect.get(value, 'close') === 'function'
}

/**
 * A new undici `Agent` with `options`: the class of the global dispatcher,
 * which Node creates on its first `fetch` (a `data:` URL, which touches no
 * network). Node exposes undici no other way.
 */
async function newAgent(options: Record<string, unknown>): Promise<Dispatcher> {
  if (Reflect.get(globalThis, UNDICI_GLOBAL_DISPATCHER) === undefined) await (await fetch('data:,')).arrayBuffer()
  const global: unknown = Reflect.get(globalThis, UNDICI_GLOBAL_DISPATCHER)
  const Agent: unknown = typeof global === 'object' && global !== null ? Reflect.get(global, 'constructor') : undefined
  const agent: unknown = typeof Agent === 'function' ? Reflect.construct(Agent, [options]) : undefined
  if (!isDispatcher(agent)) throw new RobotsError('ERR_FETCH', `this Node.js (${process.version}) has no undici agent for fetch: a proxy cannot be used`)
  return agent
}

/** A proxy URL, checked: `http:` or `https:`, with a host, and credentials (if any) that decode. */
export function parseProxyUrl(proxyUrl: string): URL {
  let url: URL
  try {
    url = new URL(proxyUrl)
  } catch {
    // What comes before an `@` may be a password: not repeated.
    const at = proxyUrl.lastIndexOf('@')
    const shown = at < 0 ? proxyUrl : '…' + proxyUrl.slice(at)
    throw new RobotsInputError(`proxy URL is not a URL: ${JSON.stringify(shown.length > 200 ? shown.slice(0, 200) + '…' : shown)}`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new RobotsInputError(`proxy URL must be an http: or https: URL with a host (robots.txt is fetched through HTTP proxies only), got ${url.protocol}//${url.host}`)
  }
  try {
    proxyAuthorization(url)
  } catch {
    throw new RobotsInputError(`proxy URL ${url.protocol}//…@${url.host}: its user name or password is not percent-encoded UTF-8 (write a literal % as %25)`)
  }
  return url
}

/** The `Proxy-Authorization` value for the credentials of `proxy`, if it has any. */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80
}

/** `headers` (undici passes an object, or a flat array of names and values) with `extra` set, names compared case-insensitively. */
function withHeaders(headers: unknown, extra: Record<string, string>): unknown {
  const names = new Set(Object.keys(extra))
  if (Array.isArray(headers)) {
    const out: unknown[] = []
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name: unknown = headers[i]
      if (!(typeof name === 'string' && names.has(name.toLowerCase()))) out.push(headers[i], headers[i + 1])
    }
    for (const [k, v] of Object.entries(extra)) out.push(k, v)
    return out
  }
  const out: Record<string, unknown> = {}
  if (typeof headers === 'object' && headers !== null) {
    for (const [k, v] of Object.entries(headers)) if (!names.has(k.toLowerCase())) out[k] = v
  }
  return Object.assign(out, extra)
}

/**
 * The `connect` function of the tunnel agent: a socket to the target through
 * `CONNECT host:port` at the proxy, wrapped in TLS for an https target.
 */
function tunnelConnector(proxy: URL, authorization: string | undefined, timeoutMs: number) {
  return (options: ConnectOptions, callback: ConnectCallback): void => {
    let done = false
    const finish = (err: Error | null, socket: Socket | null): void => {
      if (done) {
        socket?.destroy()
        return
      }
      done = true
      callback(err, socket)
    }
    const port = options.port === '' ? defaultPort(options.protocol) : Number(options.port)
    const authority = `${options.hostname}:${port}`
    const headers: Record<string, string> = { host: authority }
    if (authorization !== undefined) headers['proxy-authorization'] = authorization
    const requestOptions = {
      host: proxy.hostname.startsWith('[') ? proxy.hostname.slice(1, -1) : proxy.hostname,
      port: proxy.port === '' ? defaultPort(proxy.protocol) : Number(proxy.port),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    }
    // A 407 refuses our credentials (the proxy's failure); any other status speaks for the site (502: the proxy could not reach it).
    const refusal = (res: IncomingMessage): Error => {
      const message = `proxy ${proxy.host} refused CONNECT ${authority}: HTTP ${res.statusCode} ${res.statusMessage ?? ''}`.trim()
      return res.statusCode === 407 ? new ProxyFailure(message, 'ERR_PROXY_AUTH') : Object.assign(new Error(message), { code: 'ERR_PROXY_CONNECT' })
    }
    const req: ClientRequest = proxy.protocol === 'https:' ? httpsRequest(requestOptions) : httpRequest(requestOptions)
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`proxy ${proxy.host}: no answer to CONNECT ${authority} within ${timeoutMs} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' })))
    req.once('error', (err) => finish(err, null))
    req.once('response', (res: IncomingMessage) => {
      // A proxy that answers CONNECT with an ordinary response refused the tunnel.
      res.resume()
      req.destroy()
      finish(refusal(res), null)
    })
    req.once('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      req.setTimeout(0)
      if (res.statusCode !== 200 || head.length > 0) {
        socket.destroy()
        return finish(refusal(res), null)
      }
      if (options.protocol !== 'https:') return finish(null, socket)
      const name = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname
      const servername = options.servername ?? (isIP(name) === 0 ? name : undefined)
      const secure = tlsConnect({ socket, host: name, servername, ALPNProtocols: ['http/1.1'] })
      secure.once('secureConnect', () => {
        secure.removeAllListeners('error')
        finish(null, secure)
      })
      secure.once('error', (err) => finish(err, null))
    })
    req.end()
  }
}

/**
 * A dispatcher for one request through `proxy`: http targets in absolute form
 * to the proxy, https targets through a tunnel.
 */
class ProxyDispatcher implements Dispatcher {
  /** The status of the last response that came from the proxy in absolute form (undici turns a 407 into a bare "fetch failed"). */
  status: number | undefined

  constructor(
    private readonly proxy: URL,
    private readonly forward: Dispatcher,
    private readonly tunnel: Dispatcher,
  ) {}

  dispatch(options: DispatchOptions, handler: object): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin))
    if (origin === undefined || origin.protocol !== 'http:') return this.tunnel.dispatch(options, handler)
    const extra: Record<string, string> = { host: origin.host }
    const authorization = proxyAuthorization(this.proxy)
    if (authorization !== undefined) extra['proxy-authorization'] = authorization
    return this.forward.dispatch(
      { ...options, origin: this.proxy.origin, path: new URL(options.path ?? '/', origin).href, headers: withHeaders(options.headers, extra) },
      this.watchStatus(handler),
    )
  }

  /** `handler`, noting the response's status on the way (undici 6 calls `onHeaders(status, …)`, undici 7 `onResponseStart(controller, status, …)`). */
  private watchStatus(handler: object): object {
    const watched: object = Object.create(handler)
    const onHeaders: unknown = Reflect.get(handler, 'onHeaders')
    const onResponseStart: unknown = Reflect.get(handler, 'onResponseStart')
    const self = this
    if (typeof onHeaders === 'function') {
      Reflect.set(watched, 'onHeaders', function (this: unknown, status: unknown, ...rest: unknown[]): unknown {
        if (typeof status === 'number') self.status = status
        return Reflect.apply(onHeaders, this, [status, ...rest])
      })
    }
    if (typeof onResponseStart === 'function') {
      Reflect.set(watched, 'onResponseStart', function (this: unknown, controller: unknown, status: unknown, ...rest: unknown[]): unknown {
        if (typeof status === 'number') self.status = status
        return Reflect.apply(onResponseStart, this, [controller, status, ...rest])
      })
    }
    return watched
  }

  close(): Promise<void> {
    return Promise.all([this.forward.close(), this.tunnel.close()]).then(() => undefined)
  }
}

/**
 * A `fetch` (for `fetchRobots`) that sends every request through `proxyUrl`.
 * It asks for an uncompressed body (`Accept-Encoding: identity`): the
 * access method decodes gzip strictly only on the platform's own path, and a
 * compressed body cut short must not read as a shorter file.
 */
export function proxyFetch(proxyUrl: string, connectTimeoutMs: number): FetchLike {
  const proxy = parseProxyUrl(proxyUrl)
  const authorization = proxyAuthorization(proxy)
  return async (input, init) => {
    const forward = await newAgent({ pipelining: 0 })
    const tunnel = await newAgent({ pipelining: 0, connect: tunnelConnector(proxy, authorization, connectTimeoutMs) })
    const dispatcher = new ProxyDispatcher(proxy, forward, tunnel)
    const headers = new Headers(init.headers)
    headers.set('accept-encoding', 'identity')
    // The proxy's own refusal is no answer of the site (as a 4xx it would read as "no robots.txt, allow all").
    const refused = (): Error => new ProxyFailure(`proxy ${proxy.host} refused the request: HTTP 407 Proxy Authentication Required`, 'ERR_PROXY_AUTH')
    try {
      let res: Response
      try {
        res = await fetch(input, Object.assign({}, init, { headers, dispatcher }))
      } catch (err) {
        throw dispatcher.status === 407 ? refused() : dispatcher.status === undefined ? unreached(proxy, err) : err
      }
      if (res.status === 407) {
        res.body?.cancel().catch(() => {})
        throw refused()
      }
      return res
    } finally {
      // Closing waits for the request in flight: its body is still read in full.
      dispatcher.close().catch(() => {})
    }
  }
}
