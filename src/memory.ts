/**
 * The memory model behind every `memoryUsage()` and every byte budget: what a
 * JavaScript object, typed array, string, array or map entry costs, in one
 * place, so that the parsed rules, the matchers, the fetch cache and the CLI
 * count alike; and the rule for module-level scratch buffers
 * ({@link SCRATCH_KEEP}). An estimate for budgets, not an exact census.
 */

/*
 * The costs below are V8's on 64-bit Node 20 (no pointer compression), as
 * `node --expose-gc bench/memory-model.mjs` measures them: live copies of each
 * shape, and the difference of `heapUsed + arrayBuffers` around them after a
 * full GC, divided by the count (bench/history/design.md).
 * Other engines and builds differ (a V8 built with pointer compression, as in
 * Chrome, is smaller).
 */

/** Header of a JS object (map, properties and elements pointers). */
export const OBJECT_HEADER_BYTES = 24
/** One field (in-object property) of a JS object, or one array slot. */
export const FIELD_BYTES = 8
/** A typed array beyond its data: the view, its ArrayBuffer, the backing store's bookkeeping. */
export const TYPED_ARRAY_BYTES = 184
/** A typed array that views another array's buffer (`subarray`). */
export const TYPED_VIEW_BYTES = 96
/** Header of a sequential string. */
export const STRING_HEADER_BYTES = 16
/** A JS array beyond its slots: the JSArray and its elements' header. */
export const ARRAY_HEADER_BYTES = 48
/** An empty Map (its table has room for four entries). */
export const MAP_BYTES = 184
/** One Map entry, on average over the table's doublings (28 per slot, the table doubling as it fills). */
export const MAP_ENTRY_BYTES = 36

/** An object with `fields` properties. */
export function objectBytes(fields: number): number {
  return OBJECT_HEADER_BYTES + fields * FIELD_BYTES
}

/** A typed array with its own buffer: overhead plus data. */
export function typedArrayBytes(a: ArrayBufferView): number {
  return TYPED_ARRAY_BYTES + a.byteLength
}

/**
 * A string: header plus one byte per char, or two when a char is above
 * U+00FF, rounded up to 8. O(length): callers that are asked often keep
 * the result.
 */
export function stringBytes(s: string): number {
  let width = 1
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0xff) {
      width = 2
      break
    }
  }
  return STRING_HEADER_BYTES + ((s.length * width + 7) & ~7)
}

/** A JS array of `length` slots (the values it points to not included). */
export function arrayBytes(length: number): number {
  return ARRAY_HEADER_BYTES + length * FIELD_BYTES
}

/**
 * Scratch buffers. Some hot paths reuse a module-level buffer instead of
 * allocating one per call (JavaScript runs one call at a time, so every
 * matcher can share it). A module-level buffer lives as long as the program,
 * though: one grown once for a huge rule set or URL would stay (a hostile
 * file can need one: bench/history/design.md). So a shared buffer never holds more than
 * {@link SCRATCH_KEEP} elements between calls: a call that needs more uses a
 * buffer of its own, which goes when the call (or, for a DFA's position
 * sets, the matcher that needs it) goes.
 */

/** Elements a module-level scratch buffer keeps between calls (16 Ki: 16 KiB of bytes, 64 KiB of Int32). */
export const SCRATCH_KEEP = 1 << 14

/** Bytes a scratch byte buffer (the rule builder's) keeps between parses: the bytes of SCRATCH_KEEP Int32 elements. */
export const SCRATCH_KEEP_BYTES = SCRATCH_KEEP * 4

/** Bytes kept between parses by a scratch byte buffer that few files fill past a few hundred (the rule builder's names, extensions, sitemaps and diagnostics). */
export const SCRATCH_KEEP_SMALL_BYTES = 4096

/**
 * Kept bytes: a small buffer that outlives the call that makes it (a parsed
 * file's compact form) is cut from a shared slab of {@link SLAB_BYTES}, a
 * view of {@link TYPED_VIEW_BYTES} (or no view at all: {@link keptSlot})
 * instead of an array with a buffer of its own ({@link TYPED_ARRAY_BYTES},
 * and a slower allocation outside the heap); {@link keptSlot} cuts one of up
 * to {@link MID_SHARE_MAX} bytes from a slab of {@link MID_SLAB_BYTES}, and
 * one of more gets its own. The price: a slab stays as long as any form in
 * it, so a program that keeps one file of each slab's eight or more holds up
 * to a slab per file kept (files parsed one after another share slabs, and
 * are usually kept or dropped alike).
 */
export const SLAB_BYTES = 4096
/** See {@link SLAB_BYTES}. */
export const SLAB_SHARE_MAX = 512
/** Bytes of the slabs {@link keptSlot} cuts buffers of more than {@link SLAB_SHARE_MAX} bytes from. */
export const MID_SLAB_BYTES = 32768
/** See {@link MID_SLAB_BYTES}. */
export const MID_SHARE_MAX = 4096

/** The slab of one size buffers are being cut from. */
class Slab {
  buffer: ArrayBuffer | null = null
  /** The slab as a whole (one array shared by every slot cut from it: see {@link keptSlot}). */
  array: Uint8Array | null = null
  used: number

  constructor(readonly size: number) {
    this.used = size
  }

  /** Where `n` more bytes start (a new slab when this one is full). */
  cut(n: number): number {
    if (this.used + n > this.size || this.buffer === null) {
      this.buffer = new ArrayBuffer(this.size)
      this.array = null
      this.used = 0
    }
    const at = this.used
    this.used += n
    return at
  }
}

const small = new Slab(SLAB_BYTES)
const mid = new Slab(MID_SLAB_BYTES)
/** The slab of the last {@link keptSlot}. */
let lastCut = small
/** The slabs {@link keptBytes} cut views from, to tell those apart from views of other buffers (a store's arenas); a slab cut only by {@link keptSlot} pays no entry. */
const slabs = new WeakSet<ArrayBuffer>()

/** `n` zeroed bytes to keep (see {@link SLAB_BYTES}). */
export function keptBytes(n: number): Uint8Array {
  if (n > SLAB_SHARE_MAX) return new Uint8Array(n)
  const at = small.cut(n)
  slabs.add(small.buffer!)
  return new Uint8Array(small.buffer!, at, n)
}

/**
 * Where `n` zeroed bytes to keep start in {@link keptSlab}'s array (read it
 * right after this call), or -1 when `n` is more than a slab shares: then
 * the caller makes a buffer of its own. {@link keptBytes} without the view:
 * an owner that keeps the slab's array and the offset (a parsed file) saves
 * a view object per form.
 */
export function keptSlot(n: number): number {
  if (n > MID_SHARE_MAX) return -1
  lastCut = n > SLAB_SHARE_MAX ? mid : small
  return lastCut.cut(n)
}

/** The array of the slab the last {@link keptSlot} was cut from, shared by every slot cut from that slab. */
export function keptSlab(): Uint8Array {
  return (lastCut.array ??= new Uint8Array(lastCut.buffer!))
}

/**
 * Bytes held by `n` bytes at an offset of the shared array of a slab of
 * `slab` bytes ({@link keptSlot}): the bytes and their share of the array's
 * overhead.
 */
export function slotBytes(n: number, slab = SLAB_BYTES): number {
  return n + Math.ceil((TYPED_ARRAY_BYTES * n) / slab)
}

/**
 * Bytes held by `a`: an array with its own buffer, a view of a slab (its
 * bytes are its own: {@link keptBytes}), or a view of another buffer, whose
 * bytes belong to that buffer's owner (a store's arena).
 */
export function viewBytes(a: Uint8Array): number {
  if (a.byteLength === a.buffer.byteLength) return typedArrayBytes(a)
  return slabs.has(a.buffer as ArrayBuffer) ? TYPED_VIEW_BYTES + a.byteLength : TYPED_VIEW_BYTES
}
