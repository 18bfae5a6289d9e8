/**
 * Bundles: the robots.txt of many hosts in one file (`pack` writes them,
 * `filter --bundle` reads them), a host index plus every host's parsed rules,
 * loaded without parsing any robots.txt again.
 *
 * PROVISIONAL: the project's `RobotsStore` (src/store/, DESIGN.md §3) will
 * own the bundle format (`store.toBytes()` / `RobotsStore.fromBytes()`); this
 * module is the CLI's stand-in until it lands, behind the same `HostRules`
 * interface (host-rules.ts) and the `BundleWriter` below, so that the store
 * replaces the codec without touching `pack` or `filter`.
 *
 * Keys are bare hosts (`example.com`: every scheme and port of the host, as
 * `--robots-dir DIR/<host>` applies a file) or origins
 * (`https://example.com:8443`, lowercased, default port dropped); a URL is
 * looked up by its origin first, then by its bare host.
 *
 * Format, version 1 (integers are unsigned 32-bit little-endian):
 *
 *   offset   size   field
 *   0        8      magic "RABNDL\r\n" (the CR LF catches text-mode mangling)
 *   8        4      version (1)
 *   12       4      flags: bit 0 = some keys are origins
 *   16       4      N = entries
 *   20       4      K = bytes of keys
 *   24       4      D = bytes of data
 *   28       4      checksum of every other byte (bundleChecksum)
 *   32       20 N   entries: keyOffset, keyLength, kind, dataOffset, dataLength
 *   ..       K      keys, back to back
 *   ..       D      data: each `robots` entry's `Robots.toBytes()`
 *
 * The file is exactly 32 + 20 N + K + D bytes (sections cannot overlap);
 * every length is checked against the real size in plain (non-wrapping)
 * arithmetic before anything is allocated; kinds are 0 robots, 1
 * unavailable (allow all), 2 unreachable (disallow all; no data for either).
 * The checksum detects corruption, not tampering: a bundle is parsed as
 * untrusted input all the same (each entry's rules are validated by
 * `Robots.fromBytes` when first used).
 */
import { Robots, RobotsError } from '../index.js'
import { bodyProblem } from './body-problems.js'
import { CliError } from './errors.js'
import { HostIndex, HostIndexBuilder, isIndexableName, type HostIndexData } from './host-index.js'
import type { HostEntry, HostQuery, HostRules, HostRulesDescriptor } from './host-rules.js'

const MAGIC = [0x52, 0x41, 0x42, 0x4e, 0x44, 0x4c, 0x0d, 0x0a]
/** Version of the bundle format written and read. */
export const BUNDLE_VERSION = 1
const HEADER = 32
const CHECKSUM_AT = 28
const RECORD = 20
const FLAG_ORIGINS = 1

/** What an entry holds. */
export const enum EntryKind {
  Robots = 0,
  Unavailable = 1,
  Unreachable = 2,
}

/** A coded error about a bundle file (exit 1). */
export class BundleError extends CliError {
  constructor(code: 'ERR_FORMAT' | 'ERR_VERSION', name: string, message: string) {
    super(code, `cannot read bundle '${name}': ${message} (${code})`)
    this.name = 'BundleError'
  }
}

/**
 * The bundle checksum: two multiply–xor lanes over the 32-bit words, then
 * the tail bytes, skipping the checksum field. Fast (it runs over every byte
 * at load), not cryptographic.
 */
export function bundleChecksum(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let a = 0x811c9dc5 | 0
  let b = 0x2545f491 | 0
  const words = bytes.length & ~3
  for (let i = 0; i < words; i += 4) {
    const w = i === CHECKSUM_AT ? 0 : view.getInt32(i, true)
    if (i & 4) {
      b = Math.imul(b ^ w, 0x5bd1e995)
      b ^= b >>> 15
    } else a = Math.imul(a ^ w, 0x01000193)
  }
  for (let i = words; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 0x01000193)
  a ^= Math.imul(b, 0x9e3779b1)
  a ^= a >>> 16
  return a >>> 0
}

/** Lower-cases ASCII letters of `s` (keys are compared so). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (c) => c.toLowerCase())
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' }

const DECODER = new TextDecoder()

/** Whether a key is an origin (`scheme://…`) rather than a bare host. */
function isOriginKey(key: Uint8Array): boolean {
  for (let i = 0; i + 2 < key.length; i++) if (key[i] === 0x3a && key[i + 1] === 0x2f && key[i + 2] === 0x2f) return true
  return false
}

/**
 * The key of an origin or host as written by the user (`pack` input):
 * `https://Example.com:443/` → `https://example.com`, `Example.com` →
 * `example.com`. Undefined when it is neither (a path, a port without a
 * scheme, an empty host, a control character).
 */
export function bundleKey(origin: string): string | undefined {
  if (/[\u0000-\u0020\u007f]/.test(origin)) return undefined
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::([0-9]*))?(?:[/?#].*)?$/.exec(origin)
  if (m === null) {
    if (/[/?#:@]/.test(origin) && !/^\[[^\]]*\]$/.test(origin)) return undefined
    return origin === '' ? undefined : asciiLower(origin)
  }
  const scheme = m[1].toLowerCase()
  const host = asciiLower(m[2])
  if (host === '' || host === '[]') return undefined
  const port = m[3] === undefined || m[3] === '' || m[3] === DEFAULT_PORTS[scheme] ? '' : `:${String(Number(m[3]))}`
  return `${scheme}://${host}${port}`
}

/** One entry to write: its key's bytes (a host, or an origin from `bundleKey`), and a parsed robots.txt or a fetch outcome. */
export type BundleEntry =
  | { readonly key: Uint8Array; readonly robots: Robots }
  | { readonly key: Uint8Array; readonly outcome: 'unavailable' | 'unreachable' }

/**
 * What `pack` needs of a bundle format, and `filter --bundle` (with
 * `openBundle` and `bundleFromDescriptor` below): the seam where
 * `RobotsStore` plugs in (`store.setRobots`/`setOutcome`, `store.toBytes()`).
 */
export interface BundleWriterLike {
  /** Adds an entry; a key given twice keeps its last entry. */
  add(entry: BundleEntry): void
  /** Entries (distinct keys). */
  readonly size: number
  /** Entries replaced by a later one with the same key. */
  readonly replaced: number
  /** Entries holding rules, and entries holding a fetch outcome. */
  counts(): { robots: number; outcomes: number }
  /** The bundle's bytes. */
  toBytes(): Uint8Array
}

/** A writer of the bundle format `filter --bundle` reads. */
export function newBundleWriter(): BundleWriterLike {
  return new BundleWriter()
}

/** Validates a bundle and opens it as per-host rules (a `BundleError` otherwise); `bytes` may be shared with worker threads. */
export function openBundle(bytes: Uint8Array, name: string): HostRules {
  return BundleRules.fromBytes(bytes, name)
}

/** Reopens, in a worker thread, a bundle the main thread has opened. */
export function bundleFromDescriptor(d: Extract<HostRulesDescriptor, { kind: 'bundle' }>): HostRules {
  return BundleRules.fromDescriptor(d)
}

/** What an entry of this format stores: the key's bytes, its kind, and for rules `Robots.toBytes()`. */
type StoredEntry = { readonly key: Uint8Array; readonly kind: EntryKind; readonly rules?: Uint8Array }

/**
 * Collects entries and writes a bundle (format version 1, above). A key given
 * twice keeps its last entry (`replaced` counts the others).
 */
export class BundleWriter implements BundleWriterLike {
  private readonly entries = new Map<string, StoredEntry>()
  replaced = 0

  /** Adds an entry (its key a host, or an origin normalised by `bundleKey`); a key must be `isIndexableName`. */
  add(entry: BundleEntry): void {
    if (!isIndexableName(entry.key)) throw new CliError('ERR_FORMAT', `'${DECODER.decode(entry.key)}' cannot be a bundle key`)
    const id = Buffer.from(entry.key.buffer, entry.key.byteOffset, entry.key.length).toString('latin1')
    if (this.entries.has(id)) {
      this.replaced++
      this.entries.delete(id)
    }
    const stored: StoredEntry =
      'robots' in entry
        ? { key: entry.key, kind: EntryKind.Robots, rules: entry.robots.toBytes() }
        : { key: entry.key, kind: entry.outcome === 'unreachable' ? EntryKind.Unreachable : EntryKind.Unavailable }
    this.entries.set(id, stored)
  }

  get size(): number {
    return this.entries.size
  }

  /** Entries holding rules, and entries holding a fetch outcome. */
  counts(): { robots: number; outcomes: number } {
    let robots = 0
    for (const e of this.entries.values()) if (e.kind === EntryKind.Robots) robots++
    return { robots, outcomes: this.entries.size - robots }
  }

  /** The bundle's bytes. */
  toBytes(): Uint8Array {
    const list = [...this.entries.values()]
    const keys = list.map((e) => e.key)
    const keyBytes = keys.reduce((n, k) => n + k.length, 0)
    const dataBytes = list.reduce((n, e) => n + (e.rules?.length ?? 0), 0)
    const total = HEADER + RECORD * list.length + keyBytes + dataBytes
    if (total > 0xffffffff) throw new CliError('ERR_WRITE', `a bundle of ${total} bytes is larger than the format's 4 GiB`)
    const out = new Uint8Array(total)
    const view = new DataView(out.buffer)
    out.set(MAGIC, 0)
    view.setUint32(8, BUNDLE_VERSION, true)
    view.setUint32(12, list.some((e) => isOriginKey(e.key)) ? FLAG_ORIGINS : 0, true)
    view.setUint32(16, list.length, true)
    view.setUint32(20, keyBytes, true)
    view.setUint32(24, dataBytes, true)
    let keyAt = 0
    let dataAt = 0
    const keysStart = HEADER + RECORD * list.length
    const dataStart = keysStart + keyBytes
    for (let i = 0; i < list.length; i++) {
      const e = list[i]
      const r = HEADER + RECORD * i
      view.setUint32(r, keyAt, true)
      view.setUint32(r + 4, keys[i].length, true)
      view.setUint32(r + 8, e.kind, true)
      out.set(keys[i], keysStart + keyAt)
      keyAt += keys[i].length
      if (e.rules !== undefined) {
        view.setUint32(r + 12, dataAt, true)
        view.setUint32(r + 16, e.rules.length, true)
        out.set(e.rules, dataStart + dataAt)
        dataAt += e.rules.length
      }
    }
    view.setUint32(CHECKSUM_AT, bundleChecksum(out), true)
    return out
  }
}

/** A validated bundle: its entry table, keys and data, over the file's bytes. */
interface BundleView {
  readonly bytes: Uint8Array
  readonly count: number
  readonly originKeys: boolean
  readonly keysStart: number
  readonly dataStart: number
}

/** Validates the header and every entry's ranges (see the module comment); a `BundleError` otherwise. */
function checkBundle(bytes: Uint8Array, name: string, verifyChecksum: boolean): BundleView {
  const fail = (message: string): never => {
    throw new BundleError('ERR_FORMAT', name, message)
  }
  if (bytes.length < HEADER) fail(bytes.length === 0 ? 'the file is empty' : `truncated: ${bytes.length} bytes, shorter than the header`)
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) fail('not a robots-automaton bundle (bad magic)')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(8, true)
  if (version !== BUNDLE_VERSION) throw new BundleError('ERR_VERSION', name, `format version ${version}, this build reads version ${BUNDLE_VERSION}`)
  const flags = view.getUint32(12, true)
  if ((flags & ~FLAG_ORIGINS) !== 0) fail(`unknown flags ${flags}`)
  const count = view.getUint32(16, true)
  const keyBytes = view.getUint32(20, true)
  const dataBytes = view.getUint32(24, true)
  // Plain (double) arithmetic: no 32-bit wrap.
  const total = HEADER + RECORD * count + keyBytes + dataBytes
  if (total !== bytes.length) {
    fail(total > bytes.length ? `truncated: the header says ${total} bytes, the file has ${bytes.length}` : `${bytes.length - total} bytes after the end the header gives`)
  }
  if (verifyChecksum && view.getUint32(CHECKSUM_AT, true) !== bundleChecksum(bytes)) fail('checksum mismatch: the file is corrupt')
  const keysStart = HEADER + RECORD * count
  const dataStart = keysStart + keyBytes
  for (let i = 0; i < count; i++) {
    const r = HEADER + RECORD * i
    const keyAt = view.getUint32(r, true)
    const keyLength = view.getUint32(r + 4, true)
    const kind = view.getUint32(r + 8, true)
    const dataAt = view.getUint32(r + 12, true)
    const dataLength = view.getUint32(r + 16, true)
    if (keyLength === 0 || keyAt + keyLength > keyBytes) fail(`entry ${i}: key outside the key section`)
    if (kind > EntryKind.Unreachable) fail(`entry ${i}: unknown kind ${kind}`)
    if (kind === EntryKind.Robots ? dataAt + dataLength > dataBytes : dataAt !== 0 || dataLength !== 0) fail(`entry ${i}: rules outside the data section`)
  }
  return { bytes, count, originKeys: (flags & FLAG_ORIGINS) !== 0, keysStart, dataStart }
}

/** The host index of a validated bundle (a `BundleError` on a key that is not one, or given twice). */
function indexBundle(b: BundleView, name: string): HostIndex {
  const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength)
  const builder = new HostIndexBuilder()
  for (let i = 0; i < b.count; i++) {
    const r = HEADER + RECORD * i
    const key = b.bytes.subarray(b.keysStart + view.getUint32(r, true), b.keysStart + view.getUint32(r, true) + view.getUint32(r + 4, true))
    if (!isIndexableName(key) || builder.add(key) !== i) throw new BundleError('ERR_FORMAT', name, `entry ${i}: not a valid key`)
  }
  const index = builder.build()
  if (builder.duplicates > 0) throw new BundleError('ERR_FORMAT', name, `${builder.duplicates} keys given twice`)
  return index
}

/** A bundle's entries as per-host rules for `filter --bundle`. */
export class BundleRules implements HostRules {
  readonly originKeys: boolean
  private readonly view: BundleView
  private readonly index: HostIndex
  private readonly name: string
  private readonly table: DataView
  /** Scratch for an origin key built from a URL line. */
  private key = new Uint8Array(256)

  private constructor(view: BundleView, index: HostIndex, name: string) {
    this.view = view
    this.index = index
    this.name = name
    this.originKeys = view.originKeys
    this.table = new DataView(view.bytes.buffer, view.bytes.byteOffset, view.bytes.byteLength)
  }

  /**
   * Validates a bundle's bytes (header, lengths, checksum, entries, keys) and
   * indexes its keys; a `BundleError` (ERR_FORMAT, ERR_VERSION) otherwise.
   * `bytes` may live on a SharedArrayBuffer, to be shared with worker threads.
   */
  static fromBytes(bytes: Uint8Array, name: string): BundleRules {
    const view = checkBundle(bytes, name, true)
    return new BundleRules(view, indexBundle(view, name), name)
  }

  /** Rebuilds, in a worker thread, a bundle the main thread has validated (shared bytes and index). */
  static fromDescriptor(d: Extract<HostRulesDescriptor, { kind: 'bundle' }>): BundleRules {
    const view = checkBundle(d.bytes, d.path, false)
    return new BundleRules(view, HostIndex.fromData(d.index as HostIndexData), d.path)
  }

  descriptor(): HostRulesDescriptor {
    return { kind: 'bundle', path: this.name, bytes: this.view.bytes, index: this.index.data }
  }

  get size(): number {
    return this.view.count
  }

  find(q: HostQuery): number {
    if (this.originKeys && q.urlStart >= 0) {
      const id = this.findOrigin(q.url, q.urlStart, q.hostStart, q.hostEnd, q.authorityEnd)
      if (id >= 0) return id
    }
    return this.index.findLower(q.host, 0, q.hostLength, q.hash)
  }

  /** Looks up `scheme://host[:port]` of the URL (lowercased, default port dropped). */
  private findOrigin(bytes: Uint8Array, urlStart: number, hostStart: number, hostEnd: number, authorityEnd: number): number {
    let schemeEnd = urlStart
    while (schemeEnd < hostStart && bytes[schemeEnd] !== 0x3a) schemeEnd++
    let portStart = hostEnd
    const portEnd = authorityEnd
    if (portStart < portEnd && bytes[portStart] === 0x3a) portStart++
    else portStart = portEnd
    // Leading zeros of the port do not count.
    while (portStart < portEnd - 1 && bytes[portStart] === 0x30) portStart++
    const scheme = schemeEnd - urlStart
    const length = scheme + 4 + (hostEnd - hostStart) + (portEnd - portStart)
    if (this.key.length < length) this.key = new Uint8Array(length * 2)
    const key = this.key
    let p = 0
    for (let i = urlStart; i < schemeEnd; i++) {
      const c = bytes[i]
      key[p++] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c
    }
    const http = scheme === 4 && key[0] === 0x68 && key[1] === 0x74 && key[2] === 0x74 && key[3] === 0x70
    const https = scheme === 5 && key[0] === 0x68 && key[1] === 0x74 && key[2] === 0x74 && key[3] === 0x70 && key[4] === 0x73
    const port = portEnd - portStart
    const isDefault =
      port === 0 ||
      (http && port === 2 && bytes[portStart] === 0x38 && bytes[portStart + 1] === 0x30) ||
      (https && port === 3 && bytes[portStart] === 0x34 && bytes[portStart + 1] === 0x34 && bytes[portStart + 2] === 0x33)
    key[p++] = 0x3a
    key[p++] = 0x2f
    key[p++] = 0x2f
    for (let i = hostStart; i < hostEnd; i++) key[p++] = bytes[i]
    if (!isDefault) {
      key[p++] = 0x3a
      for (let i = portStart; i < portEnd; i++) key[p++] = bytes[i]
    }
    return this.index.find(key, 0, p)
  }

  load(id: number, agent: string, first: boolean): HostEntry {
    const r = HEADER + RECORD * id
    const kind = this.table.getUint32(r + 8, true) as EntryKind
    if (kind === EntryKind.Unavailable) return { kind: 'outcome', outcome: 'unavailable' }
    if (kind === EntryKind.Unreachable) return { kind: 'outcome', outcome: 'unreachable' }
    const at = this.view.dataStart + this.table.getUint32(r + 12, true)
    const rules = this.view.bytes.subarray(at, at + this.table.getUint32(r + 16, true))
    try {
      const robots = Robots.fromBytes(rules.slice())
      return { kind: 'rules', matcher: robots.agent(agent), problem: first ? bodyProblem(robots) : undefined, bytesRead: robots.bytesRead }
    } catch (err) {
      if (err instanceof RobotsError) return { kind: 'unreadable', reason: `its rules in the bundle are not valid: ${err.message}` }
      throw err
    }
  }

  sourceName(id: number): string {
    return `${this.name}#${this.index.name(id)}`
  }
}
