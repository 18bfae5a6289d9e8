/**
 * A guard for tests that run Crawlee: every TCP connection and name lookup
 * of the process is checked, and one that would leave the machine (an
 * address other than 127.0.0.1 or ::1, any name) is refused and recorded,
 * so that a test can assert that nothing tried.
 */
import dns from 'node:dns'
import net from 'node:net'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

export interface LoopbackGuard {
  /** What was refused: `connect host:port` or `lookup name`. */
  readonly refused: string[]
  restore(): void
}

export function loopbackOnly(): LoopbackGuard {
  const refused: string[] = []
  const connect = net.Socket.prototype.connect
  const lookup = dns.lookup
  const promisesLookup = dns.promises.lookup
  // Socket#connect(options[, cb]) | (port[, host][, cb]) | (path[, cb]) | (args array, as net.connect passes them).
  function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    let first: unknown = args[0]
    if (Array.isArray(first)) first = first[0]
    let host: unknown
    let port: unknown
    let path: unknown
    if (typeof first === 'object' && first !== null) {
      const o = first as { host?: unknown; port?: unknown; path?: unknown }
      host = o.host ?? 'localhost'
      port = o.port
      path = o.path
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
      port = first
      host = typeof args[1] === 'string' ? args[1] : 'localhost'
    } else path = first
    if (path === undefined && !(typeof host === 'string' && LOOPBACK.has(host))) {
      refused.push(`connect ${String(host)}:${String(port)}`)
      process.nextTick(() => this.destroy(new Error(`test guard: connection to ${String(host)}:${String(port)} refused (loopback only)`)))
      return this
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args)
  }
  net.Socket.prototype.connect = guardedConnect as typeof connect
  const guardedLookup = function (this: unknown, hostname: string, ...rest: unknown[]): unknown {
    if (!LOOPBACK.has(hostname)) {
      refused.push(`lookup ${hostname}`)
      const cb = rest[rest.length - 1]
      if (typeof cb === 'function') process.nextTick(() => cb(Object.assign(new Error(`test guard: lookup of ${hostname} refused`), { code: 'ENOTFOUND' })))
      return undefined
    }
    return (lookup as (...a: unknown[]) => unknown).call(this, hostname, ...rest)
  }
  dns.lookup = guardedLookup as typeof dns.lookup
  dns.promises.lookup = (async (hostname: string, ...rest: unknown[]) => {
    if (!LOOPBACK.has(hostname)) {
      refused.push(`lookup ${hostname}`)
      throw Object.assign(new Error(`test guard: lookup of ${hostname} refused`), { code: 'ENOTFOUND' })
    }
    return (promisesLookup as (...a: unknown[]) => Promise<unknown>)(hostname, ...rest)
  }) as typeof dns.promises.lookup
  return {
    refused,
    restore() {
      net.Socket.prototype.connect = connect
      dns.lookup = lookup
      dns.promises.lookup = promisesLookup
    },
  }
}
