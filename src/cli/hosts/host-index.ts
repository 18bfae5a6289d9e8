/**
 * A read-only set of host names ({@link HostIndex}), built once (from a
 * directory listing or a bundle's keys) and asked per URL line without making
 * a string: a host that has no entry costs one hash and one or two probes,
 * never a file-system call. Typed arrays only, on SharedArrayBuffers, so
 * worker threads share one copy (`data`, `fromData`).
 */

/** FNV-1a offset basis and prime (32-bit), as the store hashes keys (`RobotsStore.lookupHost` takes `hostHash` as its key hash). */
export const FNV_OFFSET = 0x811c9dc5 | 0
export const FNV_PRIME = 0x01000193

/** ASCII lower case of one byte. */
function lower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b | 0x20 : b
}

/** FNV-1a of `bytes[start, end)` ASCII-lowercased: the index's hash. */
export function hostHash(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET
  for (let i = start; i < end; i++) h = Math.imul(h ^ lower(bytes[i]), FNV_PRIME)
  return h
}

/** Per byte: its ASCII lower case (the second hash's table: no branch per byte). */
const LOWER = new Uint8Array(256)
for (let b = 0; b < 256; b++) LOWER[b] = lower(b)

/** Seed and multiplier of the second hash (a multiplicative hash independent of FNV-1a). */
const SECOND_SEED = 0x2545f491
const SECOND_PRIME = 0x5bd1e995

/**
 * The second hash of `bytes[start, end)` ASCII-lowercased: with `hostHash`,
 * a 64-bit fingerprint of a host (distinct.ts counts hosts by it). Four
 * bytes at a time (little-endian words, the last one padded with zeros):
 * `h = imul(h ^ word, SECOND_PRIME); h ^= h >>> 15`, then the length mixed
 * in and the bits spread.
 */
export function secondHash(bytes: Uint8Array, start: number, end: number): number {
  let h = SECOND_SEED
  let i = start
  for (; i + 4 <= end; i += 4) {
    const w = LOWER[bytes[i]] | (LOWER[bytes[i + 1]] << 8) | (LOWER[bytes[i + 2]] << 16) | (LOWER[bytes[i + 3]] << 24)
    h = Math.imul(h ^ w, SECOND_PRIME)
    h ^= h >>> 15
  }
  if (i < end) {
    let w = 0
    for (let k = 0; i < end; i++, k += 8) w |= LOWER[bytes[i]] << k
    h = Math.imul(h ^ w, SECOND_PRIME)
    h ^= h >>> 15
  }
  h = Math.imul(h ^ (end - start), SECOND_PRIME)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** Writes `bytes[start, end)` ASCII-lowercased to `out[0, end - start)` and returns its `hostHash`, in one pass. */
export function foldHost(bytes: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let a = FNV_OFFSET
  for (let i = start, o = 0; i < end; i++, o++) {
    let c = bytes[i]
    if (c >= 0x41 && c <= 0x5a) c |= 0x20
    out[o] = c
    a = Math.imul(a ^ c, FNV_PRIME)
  }
  return a
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
      const h = hostHash(names, starts[id], starts[id + 1])
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
 * - `hashes[id]`: the name's hash (`hostHash`), compared before the bytes.
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

  /** The id of the name equal to `bytes[start, end)` ASCII-lowercased, or -1. */
  find(bytes: Uint8Array, start: number, end: number, hash: number = hostHash(bytes, start, end)): number {
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

  /**
   * `find` for bytes already ASCII-lowercased, with their `hostHash`: no case folding.
   * A copy of `find`'s probe loop on purpose (the per-line hot path of `filter`); both are
   * tested against each other in test/cli/hosts/host-index.test.ts.
   */
  findLower(bytes: Uint8Array, start: number, end: number, hash: number): number {
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
      while (i < len && names[ns + i] === bytes[start + i]) i++
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
