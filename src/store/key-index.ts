/**
 * The store's index from key bytes to entry ids ({@link KeyIndex}): an
 * open-addressing hash table in one `Int32Array` (linear probing), not a
 * `Map` of strings, so that nothing is left for the garbage collector to
 * trace.
 */
import { TYPED_ARRAY_BYTES } from '../memory.js'
import { keyHash } from '../url/keyed-hash.js'

/** Special id values of a slot. */
export const Slot = {
  Empty: -1,
  Deleted: -2,
} as const

/** The fields of a slot: `slots[s * SlotField.Width + field]`. */
export const SlotField = {
  Id: 0,
  /** The key's hash (`keyHash`, src/url/keyed-hash.ts). */
  Hash: 1,
  /** Two ints the owner gives with each id (where its key lies), handed back to its tests so that a probe need not read the entry. */
  LocA: 2,
  LocB: 3,
  Width: 4,
} as const

/** What the index needs to know of the entries it points to. */
export interface KeySource {
  /** Whether entry `id`'s key (at its location `a`, `b`) equals `bytes[start, end)` ASCII-case-insensitively. */
  keyEquals(id: number, a: number, b: number, bytes: Uint8Array, start: number, end: number): boolean
}

/**
 * The hash table. A slot holds an entry id (or {@link Slot.Empty} /
 * {@link Slot.Deleted}), its key's hash and its key's location, so that a
 * probe reads one cache line for the slot and then the key itself: slots
 * whose hash differs are passed without a look at the entry (so the table
 * can be fuller than one of bare ids). The table has a power-of-two number
 * of slots, at most three quarters used (deleted slots counted), so a probe
 * sequence ends at an empty slot; it is made again at most half full.
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
    this.slots = emptySlots(size)
  }

  /** Ids held. */
  get size(): number {
    return this.live
  }

  /** The id whose key is `bytes[start, end)` (hash `h`: its `keyHash`), or -1. */
  find(bytes: Uint8Array, start: number, end: number, h = keyHash(bytes, start, end)): number {
    const slots = this.slots
    const mask = slots.length / SlotField.Width - 1
    const source = this.source
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * SlotField.Width
      const id = slots[at]
      if (id === Slot.Empty) return -1
      if (id >= 0 && slots[at + SlotField.Hash] === h && source.keyEquals(id, slots[at + SlotField.LocA], slots[at + SlotField.LocB], bytes, start, end)) return id
    }
  }

  /**
   * The first id under hash `h` that `test` accepts (given the id and its
   * location), or -1: a look-up by something other than key bytes (a URL's
   * scanned parts). `test` is made once by the caller, not per call.
   */
  probe(h: number, test: (id: number, a: number, b: number) => boolean): number {
    const slots = this.slots
    const mask = slots.length / SlotField.Width - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * SlotField.Width
      const id = slots[at]
      if (id === Slot.Empty) return -1
      if (id >= 0 && slots[at + SlotField.Hash] === h && test(id, slots[at + SlotField.LocA], slots[at + SlotField.LocB])) return id
    }
  }

  /** Adds `id` under hash `h`, its key at location (`a`, `b`) (its key must not be in the table). */
  add(id: number, h: number, a: number, b: number): void {
    if (this.full()) this.rehash(this.live + 1)
    const slots = this.slots
    const mask = slots.length / SlotField.Width - 1
    let s = h & mask
    while (slots[s * SlotField.Width] >= 0) s = (s + 1) & mask
    if (slots[s * SlotField.Width] === Slot.Deleted) this.deleted--
    put(slots, s * SlotField.Width, id, h, a, b)
    this.live++
  }

  /** Records that `id`'s key (hash `h`) now lies at (`a`, `b`); false when `id` is not there. */
  relocate(id: number, h: number, a: number, b: number): boolean {
    const s = this.slotOf(id, h)
    if (s < 0) return false
    this.slots[s + SlotField.LocA] = a
    this.slots[s + SlotField.LocB] = b
    return true
  }

  /** Removes `id` (hash `h`); false when it is not there. */
  remove(id: number, h: number): boolean {
    const s = this.slotOf(id, h)
    if (s < 0) return false
    this.slots[s] = Slot.Deleted
    this.live--
    this.deleted++
    return true
  }

  /** Bytes held. */
  memoryUsage(): number {
    return TYPED_ARRAY_BYTES + this.slots.byteLength
  }

  /** Bytes held once one more id is added (`add` may first rehash into a larger table). */
  memoryUsageAfterAdd(): number {
    if (!this.full()) return this.memoryUsage()
    return TYPED_ARRAY_BYTES + slotsFor(this.live + 1) * SlotField.Width * 4
  }

  /** Whether `add` rehashes before it adds. */
  private full(): boolean {
    return (this.live + this.deleted + 1) * 4 > (this.slots.length / SlotField.Width) * 3
  }

  /** Where `id`'s slot starts in `slots` (hash `h`), or -1. */
  private slotOf(id: number, h: number): number {
    const slots = this.slots
    const mask = slots.length / SlotField.Width - 1
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const x = slots[s * SlotField.Width]
      if (x === Slot.Empty) return -1
      if (x === id) return s * SlotField.Width
    }
  }

  /** A table with room for `count` ids, every live id moved over (deleted slots dropped). */
  private rehash(count: number): void {
    const old = this.slots
    const size = slotsFor(count)
    const slots = emptySlots(size)
    const mask = size - 1
    for (let i = 0; i < old.length; i += SlotField.Width) {
      const id = old[i]
      if (id < 0) continue
      const h = old[i + SlotField.Hash]
      let s = h & mask
      while (slots[s * SlotField.Width] !== Slot.Empty) s = (s + 1) & mask
      put(slots, s * SlotField.Width, id, h, old[i + SlotField.LocA], old[i + SlotField.LocB])
    }
    this.slots = slots
    this.deleted = 0
  }
}

/** Slots of a table rehashed for `count` ids: a power of two, at least 16 and more than twice `count`. */
function slotsFor(count: number): number {
  let size = 16
  while (size < count * 2 + 2) size *= 2
  return size
}

function emptySlots(size: number): Int32Array {
  const slots = new Int32Array(size * SlotField.Width)
  for (let i = 0; i < slots.length; i += SlotField.Width) slots[i] = Slot.Empty
  return slots
}

function put(slots: Int32Array, at: number, id: number, h: number, a: number, b: number): void {
  slots[at] = id
  slots[at + SlotField.Hash] = h
  slots[at + SlotField.LocA] = a
  slots[at + SlotField.LocB] = b
}
