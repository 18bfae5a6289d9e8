/**
 * The store's arenas ({@link Arena}): large `Uint8Array` chunks that hold each
 * entry's key and compact form back to back, instead of one buffer (and its
 * fixed V8 cost) per entry. Space is bump-allocated in the newest chunk;
 * deleting an entry leaves a hole, counted as garbage, which
 * `RobotsStore.compact` reclaims. A chunk may be a loaded bundle (zero copy).
 */
import { TYPED_ARRAY_BYTES, TYPED_VIEW_BYTES } from '../memory.js'

/** The first chunk's size. */
export const FIRST_CHUNK = 64 * 1024
/** Chunks grow by doubling up to this size. */
export const MAX_CHUNK = 16 * 1024 * 1024

/**
 * Chunks and their fill. Chunks grow from {@link FIRST_CHUNK} to
 * {@link MAX_CHUNK} bytes as the store fills (a record larger than that gets
 * a chunk of its own); `RobotsStore.compact` copies the live records into
 * new chunks.
 */
export class Arena {
  /** The chunks; `chunks[c]` is null once freed by compaction. */
  readonly chunks: Uint8Array[] = []
  /** Bytes allocated so far (holes included). */
  used = 0
  /** Bytes of deleted records (holes). */
  garbage = 0
  private fill = 0
  private nextSize: number

  constructor(firstChunk = FIRST_CHUNK) {
    this.nextSize = firstChunk
  }

  /** Adds an existing buffer as a full chunk (a loaded bundle's data); returns its index. */
  adopt(bytes: Uint8Array): number {
    this.chunks.push(bytes)
    this.used += bytes.length
    this.fill = Infinity // never allocate into an adopted chunk
    return this.chunks.length - 1
  }

  /**
   * Room for `n` bytes: returns the chunk index; the record starts at
   * {@link at} in it. The caller writes the bytes at once.
   */
  allocate(n: number): number {
    let c = this.chunks.length - 1
    if (c < 0 || this.fill + n > this.chunks[c].length) {
      const size = Math.max(this.nextSize, n)
      this.nextSize = Math.min(this.nextSize * 2, MAX_CHUNK)
      this.chunks.push(new Uint8Array(size))
      this.fill = 0
      c++
    }
    this.at = this.fill
    this.fill += n
    this.used += n
    return c
  }

  /** Where the last allocated record starts in its chunk. */
  at = 0

  /** Marks `n` bytes of a record as garbage. */
  free(n: number): void {
    this.garbage += n
  }

  /** Bytes held: every chunk with its overhead (a view of a bundle is counted whole: it keeps the bundle alive). */
  memoryUsage(): number {
    let bytes = 0
    for (const c of this.chunks) {
      if (c === null) continue
      bytes += (c.byteLength === c.buffer.byteLength ? TYPED_ARRAY_BYTES : TYPED_VIEW_BYTES) + c.buffer.byteLength
    }
    return bytes
  }

  /** Bytes of the chunks (their capacity). */
  get capacity(): number {
    let bytes = 0
    for (const c of this.chunks) if (c !== null) bytes += c.length
    return bytes
  }
}
