/**
 * Node-only entry point (`robots-automaton/node`): robots.txt files from disk
 * and Node readable streams. The core (`robots-automaton`) stays free of Node
 * built-ins; this module adds what needs `node:fs`.
 *
 * @module robots-automaton/node
 */
import { open } from 'node:fs/promises'
import { hasLoneSurrogate } from './files/output-file.js'
import { parseRobotsStream, RobotsInputError, type ParseOptions, type Robots, type StreamParseOptions } from './index.js'

export { parseRobotsStream, type ByteSource, type ParseOptions } from './index.js'

/** Read size when streaming a robots.txt file from disk. */
const FILE_CHUNK = 64 * 1024

/** Node's codes for a path argument it cannot take (a NUL byte in it, a URL of another scheme than file:). */
const BAD_PATH = new Set(['ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_INVALID_URL_SCHEME', 'ERR_INVALID_FILE_URL_PATH', 'ERR_INVALID_FILE_URL_HOST'])

/**
 * Opens `path` for reading; a path that cannot be one is a RobotsInputError, not Node's TypeError:
 * one Node refuses by code, and any other failure that is no system call's (reading the argument
 * threw: a detached Buffer, a getter, a revoked Proxy).
 */
async function openPath(path: string | URL) {
  if (typeof path === 'string' && hasLoneSurrogate(path)) {
    throw new RobotsInputError('parseRobotsFile takes a path (a string, a file: URL or a Buffer): this one holds a lone surrogate, which no file name has')
  }
  try {
    return await open(path, 'r')
  } catch (err) {
    const e = err as { code?: unknown; syscall?: unknown }
    if (BAD_PATH.has(e.code as string) || typeof e.syscall !== 'string') {
      throw new RobotsInputError(`parseRobotsFile takes a path (a string, a file: URL or a Buffer): ${(err as Error).message}`)
    }
    throw err
  }
}

/**
 * Parses a robots.txt file. The file is streamed and reading stops at the
 * parsing limit, so a huge file costs no more than the limit. Rejects with
 * the system error (`code` `ENOENT`, `EISDIR`, …) when the file cannot be
 * read, and with a RobotsInputError when `path` cannot be a path.
 */
export async function parseRobotsFile(path: string | URL, options: ParseOptions | StreamParseOptions = {}): Promise<Robots> {
  // Each option read once, so that the values checked are the values used; then their own checks
  // (ERR_INPUT, ERR_LIMIT, ERR_BUDGET, …) before the file is touched: an empty source.
  const o = onceEach(options)
  await parseRobotsStream(noChunks(), o)
  const signal = (o as StreamParseOptions).signal
  const handle = await untilAborted(openPath(path), signal, (late) => void late.close().catch(() => {}))
  try {
    const info = await handle.stat()
    if (info.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${String(path)}'`), {
        code: 'EISDIR',
        errno: -21,
        syscall: 'read',
      })
    }
    const stream = handle.createReadStream({ highWaterMark: FILE_CHUNK, autoClose: false })
    return await parseRobotsStream(stream, o)
  } finally {
    // A read in flight (a FIFO whose writer is silent) holds close() until it ends: after an abort, closed behind.
    if (signal?.aborted === true) void handle.close().catch(() => {})
    else await handle.close()
  }
}

/**
 * `p`, or the reason of `signal` as soon as it aborts (opening a FIFO waits
 * for its writer); what `p` gives after the abort goes to `drop`.
 */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, drop: (late: T) => void): Promise<T> {
  if (signal === undefined) return p
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason)
      p.then(drop, () => {})
    }
    if (signal.aborted) return onAbort()
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

/** The options of an object, each read once (anything else as it is, for parseRobotsStream to refuse). */
function onceEach(options: ParseOptions | StreamParseOptions): ParseOptions | StreamParseOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return options
  const { limit, matcherBudget, hotThreshold, engine, tier, signal } = options as StreamParseOptions
  return { limit, matcherBudget, hotThreshold, engine, tier, signal }
}

/** A source without chunks. */
async function* noChunks(): AsyncGenerator<Uint8Array> {}

export { describeSystemError } from './files/system-error.js'

// The Node transport of `fetchRobots` (its `transport` option): its own DNS
// resolver and cache, routes, the address policy on resolved addresses, and
// at most `perAddress` connections in flight to one address.
export {
  createNodeTransport,
  type NodeTransport,
  type NodeTransportOptions,
  type AddressLease,
  type RouteFunction,
  type RouteTarget,
} from './net/node-transport.js'
export { DnsCache, type DnsOptions } from './net/dns-cache.js'
export type { RobotsTransport, TransportRequest, TransportResponse } from './fetch/transport.js'

// Output paths as the tools write them: checked before any work, a file (or
// a link to one) replaced atomically through the link, a FIFO, a device or
// '-' streamed in place.
export { checkOutput, writeOutput, writeFileAtomic, OutputWriter, OutputError, type OutputTarget, type OutputKind } from './files/output-file.js'
