/**
 * Bundles for `filter --bundle`: a `RobotsStore` written by `pack` with
 * `store.toBytes()` (the format is the store's: src/store/bundle-codec.ts),
 * loaded with `RobotsStore.fromBytes()` (no robots.txt parsed again; the
 * file's buffer is the store's arena) and asked per line through the store's
 * byte-level look-ups ({@link StoreRules}; loading and its checks:
 * {@link loadStore}).
 */
import { RobotsFormatError, RobotsInputError, RobotsStore, type EntryId, type StoreCrawlers } from '../../index.js'
import { allowsEverything, bodyProblem } from '../common/body-problems.js'
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { crawlerList, FILTER_MATCHER_OPTIONS, type HostCrawlers, type HostEntry, type HostQuery, type HostRules, type HostRulesDescriptor } from './host-rules.js'
import { CliError, readError } from '../common/cli-error.js'

const DECODER = new TextDecoder()

/** A coded error about a bundle file (exit 1). */
export class BundleError extends CliError {
  constructor(code: 'ERR_FORMAT' | 'ERR_VERSION', name: string, message: string) {
    super(code, `cannot read bundle '${name}': ${message} (${code})`)
    this.name = 'BundleError'
  }
}

/** The store's error, as the CLI tells it: the store's reason without its `RobotsStore.fromBytes:` prefix, and a gzip file said to be one. */
export function bundleError(err: RobotsFormatError, name: string, bytes: Uint8Array): BundleError {
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b ? ': it is gzip, so decompress it first' : ''
  return new BundleError(err.code, name, err.message.replace(/^RobotsStore\.fromBytes: /, '') + gzip)
}

/**
 * The bundle's store, loaded lazily; a `BundleError` when the file is not one.
 *
 * Every thread loads the bundle lazily (`fromBytes(bytes, { lazy: true })`):
 * the layout, keys and every checksum are checked before the first line is
 * read, so a truncated or corrupted file is one coded error (`BundleError`:
 * ERR_FORMAT, ERR_VERSION) and nothing is written; each form's structure is
 * checked when its host is first judged, and a well-checksummed but
 * malformed one (a crafted file) makes its entry unreadable: a warning, and
 * the host judged as one without a robots.txt, as for an unreadable
 * `--robots-dir` file. Worker threads map the same bytes (a
 * SharedArrayBuffer). Compiled matchers are kept by the judge
 * (host-judge.ts, under `--cache-mb`), not by the store: the store is made
 * with no matcher budget of its own.
 */
function loadStore(bytes: Uint8Array, name: string): RobotsStore {
  try {
    return RobotsStore.fromBytes(bytes, { matcherBudget: 0, matcherOptions: FILTER_MATCHER_OPTIONS, lazy: true })
  } catch (err) {
    if (err instanceof RobotsFormatError) throw bundleError(err, name, bytes)
    throw err
  }
}

/** Loads and checks a bundle (a `BundleError` otherwise); `bytes` may live on a SharedArrayBuffer, shared with worker threads. */
export function openBundle(bytes: Uint8Array, name: string): HostRules {
  const store = loadStore(bytes, name)
  return new StoreRules(store, bytes, name, store.hasOriginKeys())
}

/** Reopens, in a worker thread, a bundle the main thread has opened (the same bytes). */
export function bundleFromDescriptor(d: Extract<HostRulesDescriptor, { kind: 'bundle' }>): HostRules {
  return new StoreRules(loadStore(d.bytes, d.path), d.bytes, d.path, d.originKeys)
}

/**
 * A loaded bundle as per-host rules for `filter --bundle`.
 *
 * Keys are the store's: bare hosts (`example.com`: every scheme and port of
 * the host, as `--robots-dir DIR/<host>` applies a file) and origins
 * (`https://example.com:8443`: that scheme and port only). A URL line is
 * looked up as `--robots-dir` looks it up, by its host's bytes
 * (ASCII-lowercased); when the bundle holds origin keys, by its origin first
 * (`RobotsStore.lookup`: origin, then the host in the store's canonical form).
 * Entries are a robots.txt or a fetch outcome (`unavailable`: allow all,
 * `unreachable`: disallow all; one whose fetch was refused by the address
 * policy disallows all too, and is warned about); a host without an entry
 * gets `--missing`.
 */
export class StoreRules implements HostRules {
  readonly originKeys: boolean
  private readonly store: RobotsStore
  private readonly bytes: Uint8Array
  private readonly name: string
  /** The store's crawler set for `--crawlers`, and the list it was made for. */
  private handle: StoreCrawlers | undefined
  private handleOf: readonly (readonly string[])[] | undefined

  constructor(store: RobotsStore, bytes: Uint8Array, name: string, originKeys: boolean) {
    this.store = store
    this.bytes = bytes
    this.name = name
    this.originKeys = originKeys
  }

  descriptor(): HostRulesDescriptor {
    return { kind: 'bundle', path: this.name, bytes: this.bytes, originKeys: this.originKeys }
  }

  /**
   * Entries; a loaded store numbers them `0 .. store.size - 1`. With origin
   * keys, `store.size + id` stands for entry `id` found for a host given
   * without a scheme (see {@link originOnly}): never judged by, reported.
   */
  get size(): number {
    return this.originKeys ? 2 * this.store.size : this.store.size
  }

  find(q: HostQuery): number {
    if (this.originKeys && q.url !== null) {
      try {
        // From the line's scan (origin, then bare host): no second pass over the URL.
        return this.store.lookupScan(q.url)
      } catch (err) {
        // Not a URL with a host for the WHATWG parser: only its host's bytes can name an entry.
        if (!(err instanceof RobotsInputError)) throw err
      }
    }
    // The host as written (the scan's keyed hash is the store's hash of a bare-host key).
    const id = this.store.lookupHost(q.host)
    if (id >= 0 || !this.originKeys || q.url !== null) return id
    const origin = this.originOnly(q)
    return origin < 0 ? -1 : this.store.size + origin
  }

  /**
   * For a host given without a scheme (a host column, `--host`) that has no
   * bare-host entry: an entry of one of its origins (`http://` and
   * `https://`, at its port, or at 80 and 443 when it has none), else -1.
   * Such a host names no origin, so that entry is not its rules; but its
   * paths are then not "a host without a robots.txt" either: the entry is
   * reported as unreadable, naming the origin to give instead.
   */
  private originOnly(q: HostQuery): number {
    const host = DECODER.decode(q.bytes.subarray(q.hostStart, q.hostEnd)).replace(/[A-Z]+/g, (c) => c.toLowerCase())
    const port = q.host.port
    const origins = port === 80 ? [`http://${host}`] : port === 443 ? [`https://${host}`] : port >= 0 ? [`http://${host}:${port}`, `https://${host}:${port}`] : [`http://${host}`, `https://${host}`]
    for (const origin of origins) {
      let id: number
      try {
        id = this.store.lookup(`${origin}/`)
      } catch (err) {
        if (!(err instanceof RobotsInputError)) throw err
        continue
      }
      if (id >= 0 && this.store.entryKey(id as EntryId).includes('://')) return id
    }
    return -1
  }

  load(n: number, who: HostCrawlers, first: boolean): HostEntry {
    if (n >= this.store.size) {
      const key = this.store.entryKey((n - this.store.size) as EntryId)
      return {
        kind: 'unreadable',
        reason: `the bundle holds this host's robots.txt for the origin ${key} only, and a host given without a scheme (a host column, --host) names no origin: give the host as that origin, or pack an entry for the bare host`,
      }
    }
    // A loaded store numbers its entries 0 … size − 1: the source's ids are the store's.
    const id = n as EntryId
    try {
      const source = this.store.entrySource(id)
      if (source === 'unavailable' || source === 'unreachable') {
        const refused = source === 'unreachable' && this.store.entryFetchInfo(id)?.outcome === 'refused'
        return refused ? { kind: 'outcome', outcome: source, refused } : { kind: 'outcome', outcome: source }
      }
      const judge = 'agent' in who ? this.store.matcher(id, who.agent) : this.crawlersOf(who.crawlers).forEntry(id)
      if (!first) return { kind: 'rules', judge }
      // The body's problems are in the form's diagnostics, read once per entry.
      const robots = this.store.get(this.store.entryKey(id))!
      const problem = bodyProblem(robots)
      if (problem === undefined) return { kind: 'rules', judge, bytesRead: robots.bytesRead }
      return { kind: 'rules', judge, problem, bytesRead: robots.bytesRead, allowsAll: allowsEverything(robots, crawlerList(who)) }
    } catch (err) {
      // A form well checksummed but malformed (checked on first use): judged as an unreadable file.
      if (err instanceof RobotsFormatError) return { kind: 'unreadable', reason: `its rules in the bundle are not valid: ${err.message}` }
      throw err
    }
  }

  /** The store's crawler set of `crawlers` (made once: its entries' sets are kept in the store's LRU). */
  private crawlersOf(crawlers: readonly (readonly string[])[]): StoreCrawlers {
    if (this.handle === undefined || this.handleOf !== crawlers) {
      this.handle = this.store.crawlers(crawlers)
      this.handleOf = crawlers
    }
    return this.handle
  }

  freshness(id: number): { readonly fetchedAt: number; readonly expiresAt: number } | undefined {
    return id >= this.store.size ? undefined : this.store.entryFetchInfo(id as EntryId)
  }

  sourceName(id: number): string {
    return `${this.name}#${this.store.entryKey((id >= this.store.size ? id - this.store.size : id) as EntryId)}`
  }
}

/** Bytes of the bundle magic: the first bytes, which tell a bundle from JSON lines. */
export const BUNDLE_MAGIC_BYTES = 4

/** Whether `bytes` start as a bundle does (its magic): how `pack` tells a bundle from JSON lines. */
export function isBundle(bytes: Uint8Array): boolean {
  return bytes.length >= BUNDLE_MAGIC_BYTES && RobotsStore.bundleSize(bytes) !== undefined
}

/** Bytes of a bundle's header: its size as far as no bytes tell. */
const HEADER_BYTES = RobotsStore.bundleSize(new Uint8Array(0))!

/** Most bytes of a bundle read from a stream: what one buffer holds. */
export const MAX_BUNDLE_BYTES = 2 ** 31 - 1

/**
 * The bytes of the bundle file `path`, in memory that worker threads can
 * share (a SharedArrayBuffer), for every command that reads one: a regular
 * file, or a pipe (`<(zcat b.gz)`, a FIFO) read up to the size its header
 * gives. Opened without blocking, so that a FIFO no process writes to is
 * refused at once (as are a device, a socket, a directory) instead of
 * waiting for a writer.
 */
export function readBundle(path: string): Uint8Array {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (err) {
    throw readError('bundle', path, err)
  }
  const fail = (why: string) => new CliError('ERR_READ', `cannot read bundle '${path}': ${why}`)
  try {
    const info = fstatSync(fd)
    if (info.isDirectory()) throw fail('is a directory')
    if (!info.isFile() && !info.isFIFO()) throw fail('not a regular file')
    const piped = info.isFIFO() ? readPipe(fd, fail) : undefined
    if (piped?.length === 0) throw fail('a FIFO no process writes to')
    const size = piped ? piped.length : info.size
    const bytes = new Uint8Array(new SharedArrayBuffer(size))
    if (piped) bytes.set(piped)
    let n = piped ? size : 0
    while (n < size) {
      const got = readSync(fd, bytes, n, size - n, null)
      if (got === 0) break
      n += got
    }
    return n === size ? bytes : bytes.subarray(0, n)
  } catch (err) {
    throw err instanceof CliError ? err : readError('bundle', path, err)
  } finally {
    closeSync(fd)
  }
}

/** A pause while a pipe, opened without blocking, has nothing yet. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/**
 * A pipe's bytes, up to the size a bundle's header gives: a stream that is
 * no bundle stops there, and one longer than its header says is refused, so
 * that neither is read without end.
 */
function readPipe(fd: number, fail: (why: string) => CliError): Buffer {
  const chunks: Buffer[] = []
  let size = 0
  let limit = HEADER_BYTES
  let headerRead = false
  // Kept while the pipe has nothing yet: one buffer per read that gets bytes.
  let chunk: Buffer | undefined
  for (;;) {
    chunk ??= Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - size))
    let k
    try {
      k = readSync(fd, chunk)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err
      Atomics.wait(PAUSE, 0, 0, 5)
      continue
    }
    if (k === 0) break
    chunks.push(chunk.subarray(0, k))
    chunk = undefined
    size += k
    if (!headerRead && size >= HEADER_BYTES) {
      const announced = RobotsStore.bundleSize(Buffer.concat(chunks))
      if (announced === undefined) break
      limit = Math.min(announced, MAX_BUNDLE_BYTES)
      headerRead = true
    }
    if (size > limit) throw fail(limit < MAX_BUNDLE_BYTES ? 'longer than its header says' : 'larger than one buffer holds')
  }
  return Buffer.concat(chunks, size)
}
