/**
 * A read-only set of host names ({@link HostIndex}), built once (from a
 * directory listing) and asked per URL line without making a string: a host
 * that has no entry costs one probe with the hash the URL scan made (the
 * keyed `hostHash` of the core's `UrlScan`), never a file-system call. Typed arrays
 * only, on SharedArrayBuffers, so worker threads share one copy (`data`,
 * `fromData`; they hash with the main thread's key).
 */
import { UrlScan } from '../../index.js'


/** ASCII lower case of one byte. */
function lower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b | 0x20 : b
}

/** The arrays of a `HostIndex`, as passed to a worker thread (the buffers are shared, not copied). */
export interface HostIndexData {
  readonly names: Uint8Array
  readonly starts: Int32Array
  readonly hashes: Int32Array
  readonly slots: Int32Array
}

/** Whether a name can be a key: not empty, no ASCII capital letter, no LF, no NUL. */
export function isIndexableName(name: Uint8Array): boolean {
  if (name.length === 0) return false
  for (let i = 0; i < name.length; i++) {
    const b = name[i]
    if ((b >= 0x41 && b <= 0x5a) || b === 0 || b === 10) return false
  }
  return true
}

/** A shared (or, where SharedArrayBuffer is missing, plain) buffer of `bytes` bytes. */
function sharedBuffer(bytes: number): ArrayBufferLike {
  return typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes)
}

/** Collects names, then builds a `HostIndex`. Ids are given in the order names are added. */
export class HostIndexBuilder {
  private bytes = new Uint8Array(1 << 12)
  private length = 0
  private starts: number[] = [0]
  /** Names that were already in the index when `build` met them (the first one added wins). */
  duplicates = 0

  /** Adds a name (see `isIndexableName`; others are skipped); returns its id, or -1 when skipped. */
  add(name: Uint8Array): number {
    if (!isIndexableName(name)) return -1
    if (this.length + name.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + name.length))
      grown.set(this.bytes.subarray(0, this.length))
      this.bytes = grown
    }
    this.bytes.set(name, this.length)
    this.length += name.length
    this.starts.push(this.length)
    return this.starts.length - 2
  }

  /** Names added so far. */
  get count(): number {
    return this.starts.length - 1
  }

  /** The index (duplicate names: the first one added wins). */
  build(): HostIndex {
    const count = this.count
    const names = new Uint8Array(sharedBuffer(this.length))
    names.set(this.bytes.subarray(0, this.length))
    const starts = new Int32Array(sharedBuffer((count + 1) * 4))
    starts.set(this.starts)
    const hashes = new Int32Array(sharedBuffer(count * 4))
    let size = 8
    while (size < count * 2) size *= 2
    const slots = new Int32Array(sharedBuffer(size * 4))
    const index = new HostIndex({ names, starts, hashes, slots })
    for (let id = 0; id < count; id++) {
      const h = UrlScan.hostHash(names, starts[id], starts[id + 1])
      hashes[id] = h
      if (index.find(names, starts[id], starts[id + 1]) >= 0) {
        this.duplicates++
        continue
      }
      let s = h & (size - 1)
      while (slots[s] !== 0) s = (s + 1) & (size - 1)
      slots[s] = id + 1
    }
    return index
  }
}

/**
 * The host set. Layout:
 * - `names`: every name's bytes back to back; name `id` is
 *   `names[starts[id], starts[id + 1])`.
 * - `hashes[id]`: the name's hash (`hostHash`, keyed), compared before the bytes.
 * - `slots`: open addressing with linear probing over a power-of-two table of
 *   at least twice the names; a slot holds `id + 1`, or 0 when empty.
 *
 * Names are matched byte for byte after ASCII-lowercasing the bytes asked
 * for: the names themselves are stored as given, so a name with an ASCII
 * capital letter can never be found (a URL's host is always looked up in
 * lower case) and is left out by the builder.
 */
export class HostIndex {
  private readonly names: Uint8Array
  private readonly starts: Int32Array
  private readonly hashes: Int32Array
  private readonly slots: Int32Array
  private readonly mask: number

  constructor(data: HostIndexData) {
    this.names = data.names
    this.starts = data.starts
    this.hashes = data.hashes
    this.slots = data.slots
    this.mask = data.slots.length - 1
  }

  /** Rebuilds an index from `data` (in a worker thread: the same shared arrays). */
  static fromData(data: HostIndexData): HostIndex {
    return new HostIndex(data)
  }

  /** The arrays, to send to a worker thread. */
  get data(): HostIndexData {
    return { names: this.names, starts: this.starts, hashes: this.hashes, slots: this.slots }
  }

  /** Names in the index (ids are `0 .. count - 1`). */
  get count(): number {
    return this.starts.length - 1
  }

  /** The id of the name equal to `bytes[start, end)` ASCII-lowercased (`hash`: its `hostHash`, when known), or -1. */
  find(bytes: Uint8Array, start: number, end: number, hash: number = UrlScan.hostHash(bytes, start, end)): number {
    const { slots, names, starts, hashes, mask } = this
    const len = end - start
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const slot = slots[s]
      if (slot === 0) return -1
      const id = slot - 1
      if (hashes[id] !== hash) continue
      const ns = starts[id]
      if (starts[id + 1] - ns !== len) continue
      let i = 0
      while (i < len && names[ns + i] === lower(bytes[start + i])) i++
      if (i === len) return id
    }
  }

  /** The bytes of name `id` (a view, not a copy). */
  nameBytes(id: number): Uint8Array {
    return this.names.subarray(this.starts[id], this.starts[id + 1])
  }

  /** Name `id` as a string (UTF-8; invalid bytes as U+FFFD), for messages. */
  name(id: number): string {
    return DECODER.decode(this.nameBytes(id).slice())
  }

  /** Bytes held (for the summary and budgets). */
  get byteLength(): number {
    return this.names.byteLength + this.starts.byteLength + this.hashes.byteLength + this.slots.byteLength
  }
}

const DECODER = new TextDecoder()
