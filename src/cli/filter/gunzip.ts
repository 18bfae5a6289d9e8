/**
 * gzip decoding of an input, member by member (RFC 1952), as `zcat` reads
 * it: each member's header is read here, its deflate data inflated, its
 * CRC-32 and length checked, then the next member follows. Unlike Node's
 * `Gunzip`, which decodes what follows a member in the same call and drops
 * that call's output when it is not gzip, every byte of a good member is
 * handed out before the error about what follows it.
 */
import { zlib } from '../../tools/built-ins.js'

const EMPTY: Buffer = Buffer.alloc(0)

/** Header flags (RFC 1952 §2.3.1). */
const enum Flag {
  HeaderCrc = 2,
  Extra = 4,
  Name = 8,
  Comment = 16,
  Reserved = 0xe0,
}

/** {@link headerLength}: more bytes are needed. */
const MORE = -1
/** {@link headerLength}: not a gzip member header. */
const NOT_GZIP = -2

/** The length of the member header that starts `b`, {@link MORE} or {@link NOT_GZIP}. */
function headerLength(b: Buffer): number {
  const magic = [0x1f, 0x8b, 8]
  for (let i = 0; i < 3 && i < b.length; i++) if (b[i] !== magic[i]) return NOT_GZIP
  if (b.length < 10) return MORE
  const flags = b[3]
  if (flags & Flag.Reserved) return NOT_GZIP
  let p = 10
  if (flags & Flag.Extra) {
    if (b.length < p + 2) return MORE
    p += 2 + b.readUInt16LE(p)
  }
  for (const flag of [Flag.Name, Flag.Comment]) {
    if (!(flags & flag)) continue
    const z = p < b.length ? b.indexOf(0, p) : -1
    if (z < 0) return MORE
    p = z + 1
  }
  if (flags & Flag.HeaderCrc) p += 2
  return b.length < p ? MORE : p
}

/** Whether every byte of `b` is zero. */
function allZero(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false
  return true
}

/** An error worded as the command line words zlib's (`describeSystemError`). */
function gzipError(code: 'Z_DATA_ERROR' | 'Z_BUF_ERROR', message: string): Error {
  return Object.assign(new Error(message), { code })
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c
  }
  return t
})()

/** CRC-32 (gzip's) of `b` continuing `crc`, by table: where the platform has none. */
export function tableCrc32(b: Uint8Array, crc: number): number {
  let c = ~crc
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8)
  return ~c >>> 0
}

/** CRC-32 of `b` continuing `crc`: the platform's where it has one (Node ≥ 20.15), else {@link tableCrc32}. */
let platformCrc32: ((b: Buffer, crc: number) => number) | undefined
function crc32(b: Buffer, crc: number): number {
  const z = zlib() as unknown as { crc32?: (b: Buffer, crc: number) => number }
  platformCrc32 ??= typeof z.crc32 === 'function' ? z.crc32 : tableCrc32
  return platformCrc32(b, crc)
}

/** The longest member header read (its name, comment and extra field): gzip writes a few bytes. */
const HEADER_MAX = 1 << 20

/** A header held up to this many bytes is looked at again after each chunk; a longer one after its size again. */
const HEADER_SHORT = 256

/** Output chunks held before the inflater is paused. */
const HELD_MAX = 4

/**
 * The decoded bytes of the gzip stream `source` (whose first bytes are a
 * member's), in chunks. Zero bytes after a member are padding and ignored,
 * as by `zcat`, up to the end: a byte other than zero after them is an
 * error; anything else after a member must be another member. Throws
 * (after every byte decoded before) errors coded `Z_DATA_ERROR` (not gzip,
 * corrupt, a checksum that does not match) or `Z_BUF_ERROR` (cut short).
 */
export async function* gunzipMembers(source: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer = EMPTY
  let done = false
  /** Appends the next chunk of `source` to `pending`; false at its end. */
  const more = async (): Promise<boolean> => {
    if (done) return false
    const r = await source.next()
    if (r.done) {
      done = true
      return false
    }
    pending = pending.length === 0 ? r.value : Buffer.concat([pending, r.value])
    return true
  }
  /** Appends chunks of `source` to `pending`, copied once, until it holds `want` bytes or the source ends. */
  const fill = async (want: number): Promise<void> => {
    const parts = [pending]
    let total = pending.length
    while (total < want && !done) {
      const r = await source.next()
      if (r.done) done = true
      else {
        parts.push(r.value)
        total += r.value.length
      }
    }
    if (parts.length > 1) pending = Buffer.concat(parts, total)
  }
  for (let members = 0; ; members++) {
    if (pending.length === 0 && !(await more())) return
    if (members > 0 && pending[0] === 0) {
      // Padding: zeros to the end. Anything else after it is not read as nothing (zcat calls it trailing garbage).
      for (;;) {
        if (!allZero(pending)) throw gzipError('Z_DATA_ERROR', 'trailing garbage after a gzip member')
        pending = EMPTY
        if (!(await more())) return
      }
    }
    let h: number
    while ((h = headerLength(pending)) === MORE) {
      // A name or comment without end is no header (and is not held without bound).
      if (pending.length > HEADER_MAX) throw gzipError('Z_DATA_ERROR', 'header too long')
      // A short header waits for the next chunk; a long one for as many bytes again, so that however small
      // the chunks, each byte is copied and searched a few times only (time linear in the header).
      const before = pending.length
      await fill(before < HEADER_SHORT ? before + 1 : 2 * before)
      if (pending.length === before) throw gzipError('Z_BUF_ERROR', 'unexpected end of file')
    }
    if (h === NOT_GZIP) throw gzipError('Z_DATA_ERROR', members === 0 ? 'incorrect header check' : 'trailing garbage after a gzip member')
    pending = pending.subarray(h)

    // The member's deflate data: fed one chunk at a time, so that only the last one can be consumed in part.
    const inflater = zlib().createInflateRaw({ chunkSize: 1 << 18 })
    const held: Buffer[] = []
    let ended = false
    let failed: Error | undefined
    let inFlight = false
    let wake: (() => void) | undefined
    const signal = (): void => {
      const w = wake
      wake = undefined
      w?.()
    }
    inflater.on('data', (d: Buffer) => {
      held.push(d)
      if (held.length >= HELD_MAX) inflater.pause()
      signal()
    })
    inflater.on('end', () => {
      ended = true
      signal()
    })
    inflater.on('error', (err: Error) => {
      failed = err
      signal()
    })
    let last: Buffer = EMPTY
    let fedBefore = 0
    const feed = (b: Buffer): void => {
      fedBefore += last.length
      last = b
      inFlight = true
      inflater.write(b, () => {
        inFlight = false
        signal()
      })
    }
    let crc = 0
    let size = 0
    let ending = false
    try {
      if (pending.length > 0) feed(pending)
      pending = EMPTY
      for (;;) {
        while (held.length > 0) {
          const d = held.shift()!
          crc = crc32(d, crc)
          size += d.length
          yield d
        }
        if (inflater.isPaused()) inflater.resume()
        if (failed !== undefined) throw failed
        if (ended) break
        if (!inFlight && inflater.bytesWritten === fedBefore + last.length && !ending) {
          // All fed is consumed and the data goes on: the next chunk, or, at the end of the input, a flush (which fails if the member is cut short).
          if (await more()) {
            const b = pending
            pending = EMPTY
            feed(b)
          } else {
            ending = true
            inflater.end()
          }
          continue
        }
        await new Promise<void>((resolve) => (wake = resolve))
      }
    } finally {
      if (!ended) inflater.destroy()
    }
    // What the inflater did not consume follows the deflate data: the trailer, then the next member.
    const consumed = inflater.bytesWritten - fedBefore
    pending = pending.length === 0 ? last.subarray(consumed) : Buffer.concat([last.subarray(consumed), pending])
    while (pending.length < 8) if (!(await more())) throw gzipError('Z_BUF_ERROR', 'unexpected end of file')
    if (pending.readUInt32LE(0) !== crc >>> 0 || pending.readUInt32LE(4) !== size % 2 ** 32) throw gzipError('Z_DATA_ERROR', 'incorrect data check')
    pending = pending.subarray(8)
  }
}
