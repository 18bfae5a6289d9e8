/**
 * The store's index from key bytes to entry ids ({@link KeyIndex}): an
 * open-addressing hash table of `Int32Array` slots (linear probing), not a
 * `Map` of strings, so that a million origins cost 8–16 bytes of table each
 * and nothing for the garbage collector to trace.
 */
import { TYPED_ARRAY_BYTES } from '../memory.js'
import { keyHash } from '../url/keyed-hash.js'

/** Special slot values. */
export const Slot = {
  Empty: -1,
  Deleted: -2,
} as const

/** What the index needs to know of the entries it points to. */
export interface KeySource {
  /** The hash of entry `id`'s key (`keyHash`, src/url/keyed-hash.ts). */
  hashOf(id: number): number
  /** Whether entry `id`'s key equals `bytes[start, end)` ASCII-case-insensitively. */
  keyEquals(id: number, bytes: Uint8Array, start: number, end: number): boolean
}

/**
 * The hash table. Layout: `slots[s]` is an entry id, or {@link Slot.Empty} /
 * {@link Slot.Deleted}; the table has a power-of-two size and is kept at most
 * half full (deleted slots counted), so a probe sequence ends at an empty
 * slot. The keys themselves live in the store's arenas; the index asks the
 * store for an entry's hash and compares its key bytes through
 * {@link KeySource}.
 */
export class KeyIndex {
  private slots: Int32Array
  /** Ids in the table. */
  private live = 0
  /** Deleted slots (they lengthen probes until the next rehash). */
  private deleted = 0
  private readonly source: KeySource

  constructor(source: KeySource, capacity = 16) {
    this.source = source
    let size = 16
    while (size < capacity * 2) size *= 2
    this.slots = new Int32Array(size).fill(Slot.Empty)
  }

  /** Ids held. */
  get size(): number {
    return this.live
  }

  /** The id whose key is `bytes[start, end)` (hash `h`: its `keyHash`), or -1. */
  find(bytes: Uint8Array, start: number, end: number, h = keyHash(bytes, start, end)): number {
    const slots = this.slots
    const mask = slots.length - 1
    const source = this.source
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = slots[s]
      if (id === Slot.Empty) return -1
      if (id >= 0 && source.hashOf(id) === h && source.keyEquals(id, bytes, start, end)) return id
    }
  }

  /**
   * The first id under hash `h` that `test` accepts, or -1: a look-up by
   * something other than key bytes (a URL's scanned parts). `test` is made
   * once by the caller, not per call.
   */
  probe(h: number, test: (id: number) => boolean): number {
    const slots = this.slots
    const mask = slots.length - 1
    const source = this.source
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = slots[s]
      if (id === Slot.Empty) return -1
      if (id >= 0 && source.hashOf(id) === h && test(id)) return id
    }
  }

  /** Adds `id` under hash `h` (its key must not be in the table). */
  add(id: number, h: number): void {
    if ((this.live + this.deleted + 1) * 2 > this.slots.length) this.rehash(this.live + 1)
    const slots = this.slots
    const mask = slots.length - 1
    let s = h & mask
    while (slots[s] >= 0) s = (s + 1) & mask
    if (slots[s] === Slot.Deleted) this.deleted--
    slots[s] = id
    this.live++
  }

  /** Removes `id` (hash `h`); false when it is not there. */
  remove(id: number, h: number): boolean {
    const slots = this.slots
    const mask = slots.length - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const x = slots[s]
      if (x === Slot.Empty) return false
      if (x === id) {
        slots[s] = Slot.Deleted
        this.live--
        this.deleted++
        return true
      }
    }
  }

  /** Bytes held. */
  memoryUsage(): number {
    return TYPED_ARRAY_BYTES + this.slots.byteLength
  }

  /** A table with room for `count` ids, every live id moved over (deleted slots dropped). */
  private rehash(count: number): void {
    const old = this.slots
    let size = 16
    while (size < count * 2 + 2) size *= 2
    const slots = new Int32Array(size).fill(Slot.Empty)
    const mask = size - 1
    for (let i = 0; i < old.length; i++) {
      const id = old[i]
      if (id < 0) continue
      let s = this.source.hashOf(id) & mask
      while (slots[s] !== Slot.Empty) s = (s + 1) & mask
      slots[s] = id
    }
    this.slots = slots
    this.deleted = 0
  }
}
