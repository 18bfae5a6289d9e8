/**
 * Little-endian integers and unsigned LEB128 varints in byte buffers: the
 * encodings of the compact parsed form (compact-rules.ts) and of store
 * bundles (store/bundle-codec.ts), written through {@link ByteBuffer} and read
 * back with the functions below.
 */
import { RobotsFormatError } from '../errors.js'

/** Longest varint read: 7 bytes (values below 2^49, past any length or line a form can hold). */
export const MAX_VARINT_BYTES = 7

/** The unsigned 32-bit little-endian integer at `at` (the caller checks `at + 4 <= bytes.length`). */
export function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0
}

/** Writes `value` (an integer in [0, 2^32)) little-endian at `at`. */
export function writeU32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff
  bytes[at + 1] = (value >>> 8) & 0xff
  bytes[at + 2] = (value >>> 16) & 0xff
  bytes[at + 3] = (value >>> 24) & 0xff
}

/** The unsigned 16-bit little-endian integer at `at`. */
export function readU16(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8)
}

/** Writes `value` (an integer in [0, 2^16)) little-endian at `at`. */
export function writeU16(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff
  bytes[at + 1] = (value >>> 8) & 0xff
}

/** A safe integer below 2^53 stored as two u32 (low, high) at `at`. */
export function readU53(bytes: Uint8Array, at: number): number {
  return readU32(bytes, at) + readU32(bytes, at + 4) * 2 ** 32
}

/** Writes a safe integer as two u32 (low, high) at `at`. */
export function writeU53(bytes: Uint8Array, at: number, value: number): void {
  // `>>> 0` is the value modulo 2^32 (a `%` by 2 ** 32 is a floating-point remainder, far slower).
  const low = value >>> 0
  writeU32(bytes, at, low)
  writeU32(bytes, at + 4, (value - low) / 2 ** 32)
}

/** True when `b[x, x + n)` and `b[y, y + n)` hold the same bytes. */
export function sameBytes(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false
  return true
}

/** A copy of `a` in an array twice its length (the rest zero): a growing list's next room. */
export function grownInt32(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2)
  b.set(a)
  return b
}

/**
 * A varint reader over `bytes[at, end)` that never reads past `end`, never
 * returns a value of more than {@link MAX_VARINT_BYTES} bytes and takes
 * only the shortest encoding of each value: anything else is a
 * RobotsFormatError (ERR_FORMAT) naming `what`. After `read()`, `at`
 * is past the varint.
 */
export class VarintReader {
  at: number
  readonly end: number
  private readonly bytes: Uint8Array
  private readonly what: string
  private readonly section: string

  /** `what` and `section` name the reader in its errors (joined only when one is thrown). */
  constructor(bytes: Uint8Array, at: number, end: number, what: string, section = '') {
    this.bytes = bytes
    this.at = at
    this.end = end
    this.what = what
    this.section = section
  }

  private fail(why: string): never {
    throw new RobotsFormatError('ERR_FORMAT', `${this.what}${this.section ? `: ${this.section}` : ''}: ${why}`)
  }

  /** True while bytes are left. */
  get more(): boolean {
    return this.at < this.end
  }

  read(): number {
    const b = this.bytes
    let value = 0
    let scale = 1
    for (let n = 0; n < MAX_VARINT_BYTES; n++) {
      if (this.at >= this.end) this.fail('truncated varint')
      const byte = b[this.at++]
      value += (byte & 0x7f) * scale
      if (byte < 0x80) {
        // One encoding per value: a last byte of 0 after others is an overlong varint.
        if (byte === 0 && n > 0) this.fail('overlong varint')
        return value
      }
      scale *= 128
    }
    this.fail(`varint longer than ${MAX_VARINT_BYTES} bytes`)
  }

  /** Reads a varint length and skips that many bytes; returns the start of the skipped run (a length past `end` is ERR_FORMAT). */
  readRun(): number {
    const n = this.read()
    const start = this.at
    if (n > this.end - start) this.fail('length past the end of its section')
    this.at = start + n
    return start
  }
}

/** A growable byte buffer: `bytes[0, length)` is what was written. */
export class ByteBuffer {
  bytes: Uint8Array
  length = 0

  constructor(capacity = 64) {
    this.bytes = new Uint8Array(capacity)
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n))
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }

  byte(b: number): void {
    if (this.length === this.bytes.length) this.reserve(1)
    this.bytes[this.length++] = b
  }

  /** Appends `v` (an integer in [0, 2^49)) as an unsigned LEB128 varint. */
  varint(v: number): void {
    if (this.length + MAX_VARINT_BYTES > this.bytes.length) this.reserve(MAX_VARINT_BYTES)
    const out = this.bytes
    let at = this.length
    if (v < 0x80000000) {
      // The usual value, in int32 arithmetic (shifts); the same bytes as below.
      while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80
        v >>>= 7
      }
    } else {
      while (v >= 0x80) {
        out[at++] = (v % 128) | 0x80
        v = Math.floor(v / 128)
      }
    }
    out[at++] = v
    this.length = at
  }

  /** Appends `src[start, end)`. */
  append(src: Uint8Array, start: number, end: number): void {
    const n = end - start
    if (this.length + n > this.bytes.length) this.reserve(n)
    const out = this.bytes
    let at = this.length
    // Short runs (most values) copy faster by hand than through set(subarray()).
    if (n < 32) for (let i = start; i < end; i++) out[at++] = src[i]
    else {
      out.set(src.subarray(start, end), at)
      at += n
    }
    this.length = at
  }

  /** Appends a varint length and then `src[start, end)`. */
  run(src: Uint8Array, start: number, end: number): void {
    this.varint(end - start)
    this.append(src, start, end)
  }

  /** Forgets the content; a buffer grown past `keep` bytes is replaced by a small one (memory is given back). */
  reset(keep: number): void {
    this.length = 0
    if (this.bytes.length > keep) this.bytes = new Uint8Array(64)
  }
}
