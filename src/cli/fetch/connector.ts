/**
 * The HTTP client of `fetch`: Node's own `fetch` (undici, bundled with Node)
 * with a dispatcher of its own ({@link installFetchAgent}) that closes each
 * connection after its answer (one request per origin: idle sockets would
 * only pile up), hands each batch of requests to a fresh agent (undici 6's
 * keeps a pool per origin for good), and, with `--resolve` / `--connect-to`,
 * makes the sockets itself where the rules say ({@link ConnectRules}).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { ConnectRules } from './connect-rules.js'
import { CliError } from '../common/cli-error.js'

/** `Symbol.for` key of undici's global dispatcher (as content-coding.ts reads it). */
const UNDICI_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1')

/** What undici passes a `connect` function. */
interface ConnectOptions {
  hostname: string
  port: string
  protocol: string
  servername?: string | null
}

type ConnectCallback = (err: Error | null, socket: Socket | null) => void

/** The part of undici's `Agent` used here. */
interface Dispatcher {
  dispatch(options: unknown, handler: object): boolean
  close(): Promise<void>
}
type AgentClass = new (options: Record<string, unknown>) => Dispatcher

/** Requests an agent takes before the next ones go to a fresh agent (the old one closes once its own are done). */
const REQUESTS_PER_AGENT = 1024

/**
 * A dispatcher that hands requests to an undici agent and, every
 * REQUESTS_PER_AGENT requests, to a fresh one, closing the old one (which
 * ends its requests first). undici 6's agent keeps a connection pool per
 * origin for as long as it lives; with one request per origin, memory would
 * grow with the origins, not with the requests in flight.
 */
class RotatingDispatcher implements Dispatcher {
  private current: Dispatcher
  private served = 0

  constructor(private readonly make: () => Dispatcher) {
    this.current = make()
  }

  dispatch(options: unknown, handler: object): boolean {
    if (this.served++ >= REQUESTS_PER_AGENT) {
      const old = this.current
      this.current = this.make()
      this.served = 1
      old.close().catch(() => {})
    }
    return this.current.dispatch(options, handler)
  }

  close(): Promise<void> {
    return this.current.close()
  }
}

/**
 * undici's `Agent` class, as Node bundles it: the constructor of the global
 * dispatcher, which Node creates when its `fetch` is first called (a `data:`
 * URL, which touches no network). Node exposes undici no other way; a
 * CliError (ERR_FETCH) if this Node has none.
 */
async function agentClass(): Promise<AgentClass> {
  const g = globalThis as Record<symbol, unknown>
  if (g[UNDICI_GLOBAL_DISPATCHER] === undefined) await (await fetch('data:,')).arrayBuffer()
  const ctor = (g[UNDICI_GLOBAL_DISPATCHER] as { constructor?: unknown } | undefined)?.constructor
  if (typeof ctor !== 'function') throw new CliError('ERR_FETCH', `this Node.js (${process.version}) has no undici dispatcher for fetch`)
  return ctor as AgentClass
}

/** Opens a socket to `host:port` (TLS with `servername` for https), calling back once connected or failed. */
function openSocket(host: string, port: number, tls: boolean, servername: string | undefined, timeoutMs: number, done: (err: Error | null, s?: Socket) => void): void {
  const socket = tls
    ? tlsConnect({ host, port, servername, ALPNProtocols: ['http/1.1'] })
    : netConnect({ host, port })
  const ready = tls ? 'secureConnect' : 'connect'
  const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`connect to ${host}:${port} timed out`), { code: 'UND_ERR_CONNECT_TIMEOUT' })), timeoutMs)
  const fail = (err: Error) => {
    clearTimeout(timer)
    socket.removeListener(ready, ok)
    done(err)
  }
  const ok = () => {
    clearTimeout(timer)
    socket.removeListener('error', fail)
    socket.setNoDelay(true)
    done(null, socket)
  }
  socket.once(ready, ok)
  socket.once('error', fail)
}

/** undici's `connect` option: sockets made where the rules say (the request's host otherwise), several addresses tried in order. */
function ruleConnector(rules: ConnectRules, timeoutMs: number) {
  return (options: ConnectOptions, callback: ConnectCallback): void => {
    const tls = options.protocol === 'https:'
    const requested = options.port === '' ? (tls ? 443 : 80) : Number(options.port)
    const target = rules.target(options.hostname, requested)
    const name = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname
    // TLS names the host of the URL (SNI, certificate), wherever the socket goes (curl does the same).
    const servername = options.servername ?? (isIP(name) === 0 ? name : undefined)
    let i = 0
    const attempt = (): void => {
      openSocket(target.hosts[i], target.port, tls, servername, timeoutMs, (err, socket) => {
        if (err === null) return callback(null, socket!)
        if (++i < target.hosts.length) return attempt()
        callback(err, null)
      })
    }
    attempt()
  }
}

/**
 * Makes Node's `fetch` (and so `fetchRobots`, whose strict gzip decoding
 * wraps the global dispatcher) use an agent that closes every connection
 * after its answer, and that follows `rules` when there are any. For the
 * life of the process (the command's own); `close()` ends its sockets.
 */
export async function installFetchAgent(rules: ConnectRules, connectTimeoutMs: number): Promise<Dispatcher> {
  const Agent = await agentClass()
  const options: Record<string, unknown> = { pipelining: 0 }
  if (rules.any) options.connect = ruleConnector(rules, connectTimeoutMs)
  const dispatcher = new RotatingDispatcher(() => new Agent(options))
  ;(globalThis as Record<symbol, unknown>)[UNDICI_GLOBAL_DISPATCHER] = dispatcher
  return dispatcher
}
