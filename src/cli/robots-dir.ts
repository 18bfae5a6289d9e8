/**
 * `--robots-dir DIR`: each URL is judged by the robots.txt named after its
 * host in DIR: `DIR/<host>`, one file per host holding that host's robots.txt
 * as served (`DIR/www.example.com`, `DIR/[::1]`).
 * The host is the URL's host lowercased (ASCII), without userinfo or port; an
 * IPv6 literal keeps its brackets. A file is parsed on first use and its
 * compiled matcher kept in a bounded LRU cache (hosts with no file are cached
 * too). A host with no file, or a line with no host, gets the `--missing`
 * verdict (allow by default, as for an unavailable robots.txt) and rule line 0.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseRobots, type AgentMatcher } from '../index.js'
import { BYTE_LRU_ENTRY_BYTES, ByteLru } from '../byte-lru.js'
import { stringBytes } from '../memory.js'
import { CliError, readError } from './errors.js'
import { findHost } from './url-host.js'
import type { FilterStats } from './stats.js'

/** Options of `RobotsDirectory`. */
export interface RobotsDirectoryOptions {
  /** The crawler's product token. */
  readonly agent: string
  /** Verdict for a host with no file and a line with no host. */
  readonly missingAllowed: boolean
  /** Most hosts kept (default 10,000). */
  readonly maxHosts?: number
  /** Most bytes of compiled matchers kept, as `memoryUsage()` reports them (default 256 MiB). */
  readonly maxBytes?: number
}

/**
 * Bytes read from a host's file: the parser stops at its limit (512,000 bytes
 * by default) and needs at most one byte past it to see that the file goes
 * on, so reading more would change nothing.
 */
const READ_CAP = 1 << 20

/** Errors that mean "no robots.txt for this host". */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG', 'EINVAL', 'ELOOP'])

/** Bytes of a cache entry besides its matcher: the host key and the LRU's bookkeeping (src/memory.ts). */
function hostBytes(host: string): number {
  return BYTE_LRU_ENTRY_BYTES + stringBytes(host)
}

/** Judges URL lines by the robots.txt of their host, from a directory. */
export class RobotsDirectory {
  private readonly dir: string
  /** `DIR/` as bytes: host names are appended byte for byte. */
  private readonly dirPrefix: Buffer
  private readonly agent: string
  private readonly missingCode: number
  private readonly stats: FilterStats
  /** Host → its matcher (null: no file), LRU under `maxHosts` and `maxBytes`. */
  private readonly cache: ByteLru<string, AgentMatcher | null>
  private readonly range = new Int32Array(3)
  /** `scheme://authority` and its terminator, as in the previous line with a host. */
  private prefix = new Uint8Array(256)
  private prefixLength = 0
  private last = new Uint8Array(256)
  private lastLength = -1
  private lastMatcher: AgentMatcher | null = null
  private readonly chunk = Buffer.allocUnsafe(READ_CAP)

  /** Checks that `dir` is a directory (a `CliError` otherwise). */
  constructor(dir: string, options: RobotsDirectoryOptions, stats: FilterStats) {
    let isDir: boolean
    try {
      isDir = statSync(dir).isDirectory()
    } catch (err) {
      throw readError('robots directory', dir, err)
    }
    if (!isDir) throw new CliError('ERR_READ', `cannot read robots directory '${dir}': not a directory`)
    this.dir = dir
    this.dirPrefix = Buffer.from(dir.endsWith('/') ? dir : `${dir}/`)
    this.agent = options.agent
    this.missingCode = options.missingAllowed ? 1 : 0
    this.cache = new ByteLru({ maxBytes: options.maxBytes ?? 256 << 20, maxEntries: options.maxHosts ?? 10_000 })
    this.stats = stats
  }

  /** Judges the URL `bytes[start, end)`: `ruleLine * 2 + (allowed ? 1 : 0)`. */
  judge(bytes: Uint8Array, start: number, end: number): number {
    // Fast path: the line starts with the same `scheme://authority/` as the previous one.
    const k = this.prefixLength
    if (k > 0 && end - start >= k) {
      const prefix = this.prefix
      let i = 0
      while (i < k && bytes[start + i] === prefix[i]) i++
      if (i === k) {
        const m = this.lastMatcher
        return m === null ? this.missingCode : m.matchRange(bytes, start, end)
      }
    }
    const range = this.range
    if (!findHost(bytes, start, end, range)) {
      this.prefixLength = 0
      this.stats.noHost++
      return this.missingCode
    }
    const hs = range[0]
    const len = range[1] - hs
    let same = len === this.lastLength
    if (same) {
      const last = this.last
      for (let i = 0; i < len; i++) {
        let b = bytes[hs + i]
        if (b >= 0x41 && b <= 0x5a) b |= 0x20
        if (b !== last[i]) {
          same = false
          break
        }
      }
    }
    if (!same) this.switchHost(bytes, hs, len)
    this.rememberPrefix(bytes, start, range[2], end)
    const m = this.lastMatcher
    return m === null ? this.missingCode : m.matchRange(bytes, start, end)
  }

  /** Keeps `bytes[start, authorityEnd]` (terminator included) for the fast path; none when the authority ends the line. */
  private rememberPrefix(bytes: Uint8Array, start: number, authorityEnd: number, end: number): void {
    if (authorityEnd >= end) {
      this.prefixLength = 0
      return
    }
    const k = authorityEnd + 1 - start
    if (this.prefix.length < k) this.prefix = new Uint8Array(k * 2)
    this.prefix.set(bytes.subarray(start, start + k))
    this.prefixLength = k
  }

  private switchHost(bytes: Uint8Array, hs: number, len: number): void {
    if (this.last.length < len) this.last = new Uint8Array(len * 2)
    const last = this.last
    for (let i = 0; i < len; i++) {
      let b = bytes[hs + i]
      if (b >= 0x41 && b <= 0x5a) b |= 0x20
      last[i] = b
    }
    const key = Buffer.from(last.buffer, last.byteOffset, len).toString('latin1')
    this.lastLength = len
    let matcher = this.cache.get(key)
    if (matcher !== undefined) {
      // Now the most recently used; re-measured, as matchers grow as they compile.
      if (matcher !== null) this.cache.resize(key, hostBytes(key) + matcher.memoryUsage())
    } else {
      matcher = this.load(key)
      // Evicts least recently used hosts down to the budget. An entry alone
      // over it is not kept; its matcher still judges this host's lines.
      this.cache.set(key, matcher, hostBytes(key) + (matcher === null ? 0 : matcher.memoryUsage()))
    }
    this.lastMatcher = matcher
  }

  /** Reads and compiles `DIR/<host>`; null when there is no such file. */
  private load(host: string): AgentMatcher | null {
    if (host === '.' || host === '..' || host.includes('\0') || host.length > 255) {
      this.stats.hostsMissing++
      return null
    }
    const path = join(this.dir, host)
    let body: Uint8Array
    let fd = -1
    try {
      fd = openSync(Buffer.concat([this.dirPrefix, Buffer.from(host, 'latin1')]), 'r')
      if (!fstatSync(fd).isFile()) {
        this.stats.hostsMissing++
        return null
      }
      let n = 0
      for (;;) {
        const got = readSync(fd, this.chunk, n, READ_CAP - n, null)
        if (got === 0) break
        n += got
        if (n === READ_CAP) break
      }
      // A copy: the read buffer is reused for the next host, the parsed rules must not depend on it.
      body = new Uint8Array(this.chunk.subarray(0, n))
    } catch (err) {
      const code = (err as { code?: unknown }).code
      if (typeof code === 'string' && ABSENT.has(code)) {
        this.stats.hostsMissing++
        return null
      }
      throw readError('robots.txt', path, err)
    } finally {
      if (fd >= 0) closeSync(fd)
    }
    const matcher = parseRobots(body).agent(this.agent)
    this.stats.robotsLoaded++
    return matcher
  }
}
