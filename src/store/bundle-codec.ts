/**
 * The bundle: a `RobotsStore` as one buffer (`store.toBytes()`,
 * `RobotsStore.fromBytes()`; the file `robots-automaton pack` writes and
 * `filter --bundle` reads). Loading keeps the buffer and adds its entries
 * without parsing any robots.txt again: the forms are compact forms
 * (rules/compact-rules.ts), used where they lie. Layout: {@link BundleHeader};
 * the checks of an untrusted bundle: {@link loadBundle}.
 */
import { readU16, readU32, readU53, writeU16, writeU32, writeU53 } from '../rules/byte-buffer.js'
import { FORMAT_VERSION, FORMAT_VERSION_2, Header, MIN_FORM_BYTES } from '../rules/compact-rules.js'
import { checkForm, fnv1a, formChecksum, sealForm } from '../rules/serialise.js'
import { asBytes, describeValue, RobotsFormatError, RobotsInputError, RobotsRangeError } from '../errors.js'
import { FNV_PRIME, keyFormProblem, MAX_KEY_BYTES } from './origin-keys.js'
import { EntryKind } from './entry.js'
import { fetchInfoProblem } from './fetch-info.js'

/**
 * Visits one entry: its key at `data[keyAt, keyAt + keyLength)`, its
 * {@link EntryKind}, its form at `form[formAt, formAt + formLength)` (length
 * 0 for outcomes), its fetch-info record at `data[infoAt, infoAt + infoLength)`
 * (length 0 when none).
 */
export type EntryVisitor = (
  data: Uint8Array,
  keyAt: number,
  keyLength: number,
  kind: number,
  form: Uint8Array,
  formAt: number,
  formLength: number,
  infoAt: number,
  infoLength: number,
) => void

/** What {@link encodeBundle} reads of a store: its entries, in table order. */
export interface BundleSource {
  forEachEntry(visit: EntryVisitor): void
}

/** What {@link loadBundle} fills: a store that adopts the data region as an arena chunk and adds entries lying in it. */
export interface BundleSink {
  /** Adopts `data` as an arena chunk; returns the chunk's number. */
  adoptChunk(data: Uint8Array): number
  /** Adds an entry whose key, form and fetch-info record lie at `chunk[offset…]`; false when the key is there already. */
  addLoaded(chunk: number, offset: number, keyLength: number, formLength: number, kind: number, checked: boolean, infoLength: number): boolean
}

/** The bundle format version written (3); version 2 is still read. */
export const BUNDLE_VERSION = 3

/** The version before fetch info (entry records of 12 bytes, no record after the forms): read, never written. */
const BUNDLE_VERSION_2 = 2

/** The magic bytes "RATB". */
const BUNDLE_MAGIC = [0x52, 0x41, 0x54, 0x42] as const

/**
 * Byte offsets of the header fields. The layout, version 3 (all integers
 * little-endian):
 *
 *   offset  size  field
 *   0       4     magic "RATB"
 *   4       2     bundle format version (3)
 *   6       2     flags (0)
 *   8       4     checksum ({@link bundleChecksum}): FNV-1a of the header (these 4 bytes
 *                 skipped) and the entry table, then of every key's and every
 *                 fetch-info record's bytes, in table order
 *   12      4     N = number of entries
 *   16      4     format version of the forms (2)
 *   20      4     D = start of the data: 32 + 16 N
 *   24      8     L = bytes of the data (u32 low, u32 high); the bundle is D + L bytes
 *   32      16 N  entry table: per entry, u32 key length, u32 form length, u32 kind
 *                 ({@link BundleKind}), u32 fetch-info length (0: none)
 *   D       L     data: per entry, in table order, its key (ASCII), its form, its
 *                 fetch-info record (store/fetch-info.ts), back to back
 *
 * Version 2 is version 3 without fetch info: records of 12 bytes (no
 * fetch-info length), D = 32 + 12 N, the checksum over the keys only. It is
 * still read. Version 1 (the first, of version 2's layout) left the keys out
 * of the checksum, so a flipped key byte moved a host's rules to another
 * host unseen; it is not read (ERR_VERSION). Forms carry their own checksums.
 */
export const BundleHeader = {
  Magic: 0,
  Version: 4,
  Flags: 6,
  Checksum: 8,
  Entries: 12,
  FormVersion: 16,
  DataStart: 20,
  DataLength: 24,
  Size: 32,
} as const

/** Bytes of an entry-table record (version 3). */
export const BUNDLE_RECORD = 16

/** Bytes of an entry-table record of version 2. */
const BUNDLE_RECORD_2 = 12

/** The entry-table record size of a bundle version (0: a version not read). */
function recordSize(version: number): number {
  return version === BUNDLE_VERSION ? BUNDLE_RECORD : version === BUNDLE_VERSION_2 ? BUNDLE_RECORD_2 : 0
}

/** What an entry is, in a bundle. */
export const BundleKind = {
  Robots: 0,
  Unavailable: 1,
  Unreachable: 2,
} as const

const KIND_TO_BUNDLE: Record<number, number> = {
  [EntryKind.Robots]: BundleKind.Robots,
  [EntryKind.Unavailable]: BundleKind.Unavailable,
  [EntryKind.Unreachable]: BundleKind.Unreachable,
}
const BUNDLE_TO_KIND = [EntryKind.Robots, EntryKind.Unavailable, EntryKind.Unreachable]

/** FNV-1a state `h` after the bytes `bytes[start, end)`. */
function fnvBytes(h: number, bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME)
  return h
}

/**
 * The bytes of the bundle `head` starts, as far as `head` tells: exact once
 * it holds the header (its first {@link BundleHeader.Size} bytes), that many
 * before; undefined when `head` does not start with the bundle magic.
 */
export function bundleSize(head: Uint8Array): number | undefined {
  for (let i = 0; i < BUNDLE_MAGIC.length && i < head.length; i++) if (head[i] !== BUNDLE_MAGIC[i]) return undefined
  if (head.length < BundleHeader.Size) return BundleHeader.Size
  return readU32(head, BundleHeader.DataStart) + readU32(head, BundleHeader.DataLength) + readU32(head, BundleHeader.DataLength + 4) * 2 ** 32
}

/**
 * The checksum a bundle's header holds (see {@link BundleHeader}), computed
 * over `bytes` as they are: a table whose lengths run past the buffer
 * contributes the keys that lie inside it (for tools and tests that mend
 * bundles; `fromBytes` checks the layout itself).
 */
export function bundleChecksum(bytes: Uint8Array): number {
  const start = readU32(bytes, BundleHeader.DataStart)
  const n = readU32(bytes, BundleHeader.Entries)
  const stride = recordSize(readU16(bytes, BundleHeader.Version)) || BUNDLE_RECORD
  if (start > bytes.length) return fnv1a(bytes, 0, bytes.length, BundleHeader.Checksum)
  let h = fnv1a(bytes, 0, start, BundleHeader.Checksum)
  let at = start
  for (let i = 0, rec = BundleHeader.Size; i < n && rec + stride <= start && at < bytes.length; i++, rec += stride) {
    const keyEnd = Math.min(bytes.length, at + readU32(bytes, rec))
    h = fnvBytes(h, bytes, at, keyEnd)
    at = keyEnd + readU32(bytes, rec + 4)
    if (stride === BUNDLE_RECORD && at < bytes.length) {
      const infoEnd = Math.min(bytes.length, at + readU32(bytes, rec + 12))
      h = fnvBytes(h, bytes, at, infoEnd)
      at = infoEnd
    }
  }
  return h >>> 0
}

/** The bundle of a store ({@link BundleHeader}); a store too large for one buffer is a RobotsRangeError (ERR_RANGE). */
export function encodeBundle(store: BundleSource): Uint8Array {
  let n = 0
  let data = 0
  store.forEachEntry((_data, _keyAt, keyLength, _kind, _form, _formAt, formLength, _infoAt, infoLength) => {
    n++
    data += keyLength + formLength + infoLength
  })
  const start = BundleHeader.Size + BUNDLE_RECORD * n
  let out: Uint8Array
  try {
    out = new Uint8Array(start + data)
  } catch {
    throw new RobotsRangeError('ERR_RANGE', `RobotsStore.toBytes: a bundle of ${start + data} bytes is larger than a buffer can be`)
  }
  let rec = BundleHeader.Size
  let at = start
  // The keys' and records' part of the checksum, where they are written; the header's and table's part is put in front at the end.
  const keyStates: number[] = []
  store.forEachEntry((src, keyAt, keyLength, kind, form, formAt, formLength, infoAt, infoLength) => {
    writeU32(out, rec, keyLength)
    writeU32(out, rec + 4, formLength)
    writeU32(out, rec + 8, KIND_TO_BUNDLE[kind])
    writeU32(out, rec + 12, infoLength)
    rec += BUNDLE_RECORD
    for (let i = 0; i < keyLength; i++) out[at + i] = src[keyAt + i]
    keyStates.push(at, keyLength)
    at += keyLength
    if (formLength) {
      out.set(form.subarray(formAt, formAt + formLength), at)
      sealForm(out, at, formLength)
      at += formLength
    }
    if (infoLength) {
      out.set(src.subarray(infoAt, infoAt + infoLength), at)
      keyStates.push(at, infoLength)
      at += infoLength
    }
  })
  out.set(BUNDLE_MAGIC, 0)
  writeU16(out, BundleHeader.Version, BUNDLE_VERSION)
  writeU16(out, BundleHeader.Flags, 0)
  writeU32(out, BundleHeader.Entries, n)
  writeU32(out, BundleHeader.FormVersion, FORMAT_VERSION)
  writeU32(out, BundleHeader.DataStart, start)
  writeU53(out, BundleHeader.DataLength, data)
  let h = fnv1a(out, 0, start, BundleHeader.Checksum)
  for (let i = 0; i < keyStates.length; i += 2) h = fnvBytes(h, out, keyStates[i], keyStates[i] + keyStates[i + 1])
  writeU32(out, BundleHeader.Checksum, h >>> 0)
  return out
}

/**
 * Adds the entries of `bytes` to an empty `store`, keeping `bytes` (its
 * data region becomes an arena chunk). With `lazy`, forms are checked on
 * their entry's first use instead of here, but for their checksums.
 *
 * A bundle is untrusted input: every length is checked in plain arithmetic
 * against the buffer's size before anything is allocated; the records must
 * tile the data exactly (no gap, no overlap); keys must be distinct, of
 * printable lowercase ASCII, each in the form the store writes keys (an
 * origin `scheme://host[:port]` without the default port, or a bare host,
 * the host as the WHATWG URL parser writes it: store/origin-keys.ts), so
 * that no two keys name one origin and none is a key no URL can find; fetch-info records must be well formed
 * (store/fetch-info.ts, checked at load either way); each form is checked as `Robots.fromBytes`
 * checks one (rules/serialise.ts, its own checksum included), at load or,
 * with `lazy`, on the entry's first use — except its checksum, which is
 * checked at load either way (one cheap pass over the data), so a corrupted
 * bundle is always refused whole. Anything wrong is a RobotsFormatError
 * (ERR_FORMAT; ERR_VERSION for another version).
 */
export function loadBundle(given: Uint8Array, store: BundleSink, lazy: boolean): void {
  const what = 'RobotsStore.fromBytes'
  const bytes = asBytes(given)
  if (bytes === undefined) throw new RobotsInputError(`${what} takes a Uint8Array, got ${describeValue(given)}`)
  const fail = (why: string): never => {
    throw new RobotsFormatError('ERR_FORMAT', `${what}: ${why}`)
  }
  const size = bytes.length
  if (size < BundleHeader.Size || BUNDLE_MAGIC.some((m, i) => bytes[i] !== m)) fail('not a robots-automaton bundle (bad magic or too short)')
  const version = readU16(bytes, BundleHeader.Version)
  const stride = recordSize(version)
  if (stride === 0) {
    throw new RobotsFormatError(
      'ERR_VERSION',
      `${what}: bundle format version ${version} is not supported (this build reads ${BUNDLE_VERSION_2} and ${BUNDLE_VERSION})`,
    )
  }
  const formVersion = readU32(bytes, BundleHeader.FormVersion)
  if (!(formVersion >= FORMAT_VERSION_2 && formVersion <= FORMAT_VERSION)) {
    throw new RobotsFormatError('ERR_VERSION', `${what}: forms of format version ${formVersion} are not supported (this build reads ${FORMAT_VERSION_2} to ${FORMAT_VERSION})`)
  }
  if (readU16(bytes, BundleHeader.Flags) !== 0) fail('unknown flags')
  const n = readU32(bytes, BundleHeader.Entries)
  const start = readU32(bytes, BundleHeader.DataStart)
  if (readU32(bytes, BundleHeader.DataLength + 4) >= 2 ** 21) fail('data length past 2^53')
  const dataLength = readU53(bytes, BundleHeader.DataLength)
  // Plain arithmetic: none of these sums can wrap.
  if (start !== BundleHeader.Size + stride * n) fail('the entry table and the data do not meet')
  if (start + dataLength !== size) fail(`${size} bytes where the header says ${start + dataLength} (truncated or padded)`)
  // The records must tile the data exactly, before anything is kept; the keys' bytes go into the checksum on the way.
  let h = fnv1a(bytes, 0, start, BundleHeader.Checksum)
  let at = 0
  for (let i = 0, rec = BundleHeader.Size; i < n; i++, rec += stride) {
    const keyLength = readU32(bytes, rec)
    const formLength = readU32(bytes, rec + 4)
    const kind = readU32(bytes, rec + 8)
    const infoLength = stride === BUNDLE_RECORD ? readU32(bytes, rec + 12) : 0
    if (!(kind < BUNDLE_TO_KIND.length)) fail(`entry ${i}: unknown kind ${kind}`)
    if (keyLength < 1 || keyLength > MAX_KEY_BYTES) fail(`entry ${i}: key length ${keyLength} out of range`)
    if (kind === BundleKind.Robots ? formLength < MIN_FORM_BYTES : formLength !== 0) fail(`entry ${i}: form length ${formLength} does not fit its kind`)
    if (keyLength + formLength + infoLength > dataLength - at) fail(`entry ${i}: past the end of the data`)
    for (let k = start + at; k < start + at + keyLength; k++) {
      const c = bytes[k]
      if (c < 0x21 || c > 0x7e || (c >= 65 && c <= 90)) fail(`entry ${i}: a key holds a byte outside lowercase printable ASCII`)
      h = Math.imul(h ^ c, FNV_PRIME)
    }
    if (infoLength > 0) {
      const infoAt = start + at + keyLength + formLength
      const problem = fetchInfoProblem(bytes, infoAt, infoLength)
      if (problem !== undefined) fail(`entry ${i}: ${problem}`)
      h = fnvBytes(h, bytes, infoAt, infoAt + infoLength)
    }
    at += keyLength + formLength + infoLength
  }
  if (at !== dataLength) fail('the entries do not fill the data')
  if (readU32(bytes, BundleHeader.Checksum) !== h >>> 0) fail('checksum mismatch (corrupt header, entry table, keys or fetch info)')
  const data = bytes.constructor === Uint8Array ? bytes.subarray(start) : new Uint8Array(bytes.buffer, bytes.byteOffset + start, dataLength)
  const chunk = store.adoptChunk(data)
  at = 0
  for (let i = 0, rec = BundleHeader.Size; i < n; i++, rec += stride) {
    const keyLength = readU32(bytes, rec)
    const formLength = readU32(bytes, rec + 4)
    const kind = BUNDLE_TO_KIND[readU32(bytes, rec + 8)]
    const infoLength = stride === BUNDLE_RECORD ? readU32(bytes, rec + 12) : 0
    const keyProblem = keyFormProblem(data, at, at + keyLength)
    if (keyProblem !== undefined) fail(`entry ${i}: the key ${keyProblem}`)
    if (formLength && !lazy) checkForm(data, at + keyLength, formLength, `${what}: entry ${i}`)
    else if (formLength && readU32(data, at + keyLength + Header.Checksum) !== formChecksum(data, at + keyLength, formLength)) {
      fail(`entry ${i}: checksum mismatch (corrupt buffer)`)
    }
    if (!store.addLoaded(chunk, at, keyLength, formLength, kind, lazy ? formLength === 0 : true, infoLength)) fail(`entry ${i}: the key ${JSON.stringify(String.fromCharCode.apply(null, data.subarray(at, at + keyLength) as unknown as number[]))} is listed twice`)
    at += keyLength + formLength + infoLength
  }
}
