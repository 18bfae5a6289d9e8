/**
 * The keys of a `fetch` run, in the order first seen, each once: packed as
 * bytes in one growing buffer (a key is ASCII, as the store writes keys)
 * with an open-addressing index over them, probed by the process's keyed
 * hash (`UrlScan.hostHash`: names cannot be made to collide offline). A
 * million origins take tens of megabytes here where strings in a `Map` take
 * hundreds. Each key may carry the origin fetched for it when that is not
 * the key itself (a bare-host key).
 */
import { UrlScan } from '../../index.js'

const EMPTY = -1

const NOT_ASCII = /[^\x00-\x7f]/

/** ASCII keys, each once, numbered in the order added. */
export class KeySet {
  private bytes: Uint8Array = new Uint8Array(1 << 16)
  private used = 0
  /** Where key i starts in `bytes` (key i ends where key i + 1 starts). */
  private starts: Int32Array = new Int32Array(1024)
  private count = 0
  /** Open addressing: key number, or EMPTY; its size a power of two, at most half full. */
  private slots: Int32Array = new Int32Array(1024).fill(EMPTY)
  /** Origins that are not their key, by key number. */
  private readonly origins = new Map<number, string>()

  /** Keys held. */
  get size(): number {
    return this.count
  }

  /** Key `i`. */
  key(i: number): string {
    return latin1(this.bytes, this.starts[i]!, i + 1 < this.count ? this.starts[i + 1]! : this.used)
  }

  /** The origin fetched for key `i` (the key itself unless another was given). */
  origin(i: number): string {
    return this.origins.get(i) ?? this.key(i)
  }

  /** The number of `key`, or -1 when it is not held. */
  indexOf(key: string): number {
    // Keys are ASCII: another character, staged as its low byte, could name another key.
    if (NOT_ASCII.test(key)) return -1
    const at = this.stage(key)
    return this.find(at, key.length, UrlScan.hostHash(this.bytes, at, at + key.length))
  }

  /** Whether `key` is held. */
  has(key: string): boolean {
    return this.indexOf(key) >= 0
  }

  /** The origin fetched for `key`, or undefined when it is not held. */
  get(key: string): string | undefined {
    const i = this.indexOf(key)
    return i < 0 ? undefined : this.origin(i)
  }

  /** [key, origin] of every key, in order. */
  *[Symbol.iterator](): IterableIterator<[string, string]> {
    for (let i = 0; i < this.count; i++) yield [this.key(i), this.origin(i)]
  }

  /** Adds `key` (and the origin fetched for it, if not the key itself) unless held; its number. */
  add(key: string, origin: string = key): number {
    const at = this.stage(key)
    const hash = UrlScan.hostHash(this.bytes, at, at + key.length)
    const had = this.find(at, key.length, hash)
    if (had >= 0) return had
    // The key staged past the end stays: it is the new key's bytes.
    const i = this.count++
    if (i >= this.starts.length) this.starts = grow(this.starts, this.starts.length * 2)
    this.starts[i] = at
    this.used = at + key.length
    if (origin !== key) this.origins.set(i, origin)
    if (this.count * 2 > this.slots.length) this.rehash()
    else this.insert(i, hash)
    return i
  }

  /** Writes `key`'s bytes after the last key (where a new key would go); their start. */
  private stage(key: string): number {
    const at = this.used
    if (at + key.length > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, at + key.length))
      bigger.set(this.bytes.subarray(0, this.used))
      this.bytes = bigger
    }
    for (let k = 0; k < key.length; k++) this.bytes[at + k] = key.charCodeAt(k)
    return at
  }

  /** The key whose bytes equal `bytes[at, at + length)`, or -1. */
  private find(at: number, length: number, hash: number): number {
    const mask = this.slots.length - 1
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const i = this.slots[s]!
      if (i === EMPTY) return -1
      const start = this.starts[i]!
      const end = i + 1 < this.count ? this.starts[i + 1]! : this.used
      if (end - start !== length) continue
      let same = true
      for (let k = 0; k < length && same; k++) same = this.bytes[start + k] === this.bytes[at + k]
      if (same) return i
    }
  }

  private insert(i: number, hash: number): void {
    const mask = this.slots.length - 1
    let s = hash & mask
    while (this.slots[s] !== EMPTY) s = (s + 1) & mask
    this.slots[s] = i
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY)
    for (let i = 0; i < this.count; i++) {
      const start = this.starts[i]!
      const end = i + 1 < this.count ? this.starts[i + 1]! : this.used
      this.insert(i, UrlScan.hostHash(this.bytes, start, end))
    }
  }
}

function grow(a: Int32Array, length: number): Int32Array {
  const b = new Int32Array(length)
  b.set(a)
  return b
}

/** Bytes as a Latin-1 string (keys are ASCII). */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')
}
