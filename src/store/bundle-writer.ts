/**
 * A bundle written entry by entry, without the store in memory: for a
 * writer whose entries live elsewhere (a file on disk, read back in order),
 * so that memory stays that of the entry table (16 bytes an entry) however
 * many entries there are. The bytes are exactly those `RobotsStore.toBytes()`
 * writes for the same entries in the same order (bundle-codec.ts has the
 * layout).
 *
 * The writer goes once over the entries ({@link BundleWriter.entry}: each
 * one's bytes, written after room left for the head), then gives the head
 * ({@link BundleWriter.head}: header and entry table). The header's
 * checksum covers the head, then every key and fetch-info record in the
 * data: the data written is read back through
 * {@link BundleWriter.checksum}, whose value goes in the header's checksum
 * field. So a bundle is written in one pass
 * over its entries and one over its own bytes.
 */
import { writeU16, writeU32, writeU53 } from '../rules/byte-buffer.js'
import { FORMAT_VERSION, MIN_FORM_BYTES } from '../rules/compact-rules.js'
import { checkForm, fnv1a } from '../rules/serialise.js'
import { asBytes, describeValue, RobotsInputError, RobotsRangeError } from '../errors.js'
import { BUNDLE_RECORD, BUNDLE_VERSION, BundleHeader, BundleKind } from './bundle-codec.js'
import { encodeFetchInfo, type StoreFetchInfo } from './fetch-info.js'
import { FNV_PRIME, MAX_KEY_BYTES, storeKey } from './origin-keys.js'

/** What an entry holds: a robots.txt's form, or an outcome without one. */
export type BundleEntryKind = 'robots' | 'unavailable' | 'unreachable'

const KINDS: Record<BundleEntryKind, number> = { robots: BundleKind.Robots, unavailable: BundleKind.Unavailable, unreachable: BundleKind.Unreachable }

/** Whether `key` can be a store key at a glance: 1 to MAX_KEY_BYTES printable ASCII characters, no upper case, no space. */
function plausibleKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_BYTES) return false
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c <= 0x20 || c >= 0x7f || (c >= 0x41 && c <= 0x5a)) return false
  }
  return true
}

/** The checksum of a bundle's data, read back in order ({@link BundleWriter.checksum}). */
export interface BundleChecksum {
  /** Where the checksum goes in the bundle: the offset of the header's field. */
  readonly offset: number
  /** The data's next bytes (any split). */
  update(chunk: Uint8Array): void
  /** The checksum, as the header's 4 bytes at `offset` (little-endian); once all the data was given. */
  digest(): Uint8Array
}

/** A bundle of `count` entries (see the module comment). */
export class BundleWriter {
  private readonly table: Uint8Array
  private added = 0
  private dataLength = 0

  constructor(readonly count: number) {
    if (!Number.isSafeInteger(count) || count < 0 || count > 0xffffffff) throw new RobotsInputError(`BundleWriter: count must be an entry count, got ${describeValue(count)}`)
    try {
      this.table = new Uint8Array(BundleHeader.Size + BUNDLE_RECORD * count)
    } catch {
      // Past what a typed array may hold here (2^32 bytes in Node, less in some browsers).
      throw new RobotsRangeError('ERR_RANGE', `BundleWriter: an entry table of ${count} entries (${BUNDLE_RECORD} bytes each) cannot be allocated`)
    }
  }

  /** Bytes of the head (header and entry table): where the data starts. */
  get headSize(): number {
    return this.table.length
  }

  /**
   * The next entry's bytes: its key (in the store's canonical form), its
   * form (`Robots.toBytes()`, for `robots`; none for an outcome) and its
   * fetch-info record. Anything out of place is a RobotsInputError; a form
   * that is not one `Robots.fromBytes` reads is a RobotsFormatError
   * (ERR_FORMAT, ERR_VERSION), so that no bundle written is one its loader
   * refuses.
   */
  entry(key: string, kind: BundleEntryKind, form: Uint8Array | undefined, info: StoreFetchInfo | undefined): Uint8Array {
    if (this.added >= this.count) throw new RobotsInputError(`BundleWriter: more than ${this.count} entries`)
    if (!plausibleKey(key) || storeKey(key, 'BundleWriter').key !== key) throw new RobotsInputError(`BundleWriter: key ${typeof key === 'string' ? JSON.stringify(key) : describeValue(key)} is not in the store's form (RobotsStore.keyOf)`)
    // Own kinds only: `toString`, `constructor` are no kind.
    const k = typeof kind === 'string' && Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined
    if (k === undefined) throw new RobotsInputError(`BundleWriter: unknown kind ${describeValue(kind)}`)
    if (form !== undefined && asBytes(form) === undefined) throw new RobotsInputError(`BundleWriter: a form is a Uint8Array (Robots.toBytes()), got ${describeValue(form)}`)
    const formLength = form?.length ?? 0
    if (kind === 'robots' ? !(formLength >= MIN_FORM_BYTES) : formLength !== 0) throw new RobotsInputError(`BundleWriter: a form of ${formLength} bytes does not fit kind ${kind}`)
    if (form !== undefined) checkForm(form, 0, form.length, `BundleWriter: the form of ${key}`)
    const record = info === undefined ? undefined : encodeFetchInfo(info)
    const infoLength = record?.length ?? 0
    const rec = BundleHeader.Size + BUNDLE_RECORD * this.added++
    writeU32(this.table, rec, key.length)
    writeU32(this.table, rec + 4, formLength)
    writeU32(this.table, rec + 8, k)
    writeU32(this.table, rec + 12, infoLength)
    const out = new Uint8Array(key.length + formLength + infoLength)
    for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i)
    if (form !== undefined) out.set(form, key.length)
    if (record !== undefined) out.set(record, key.length + formLength)
    this.dataLength += out.length
    return out
  }

  /** The head, once every entry was given; its checksum field is 0 until the data is read back ({@link checksum}). */
  head(): Uint8Array {
    if (this.added !== this.count) throw new RobotsInputError(`BundleWriter: ${this.added} entries given of ${this.count}`)
    const out = this.table
    out.set([0x52, 0x41, 0x54, 0x42], 0)
    writeU16(out, BundleHeader.Version, BUNDLE_VERSION)
    writeU16(out, BundleHeader.Flags, 0)
    writeU32(out, BundleHeader.Checksum, 0)
    writeU32(out, BundleHeader.Entries, this.count)
    writeU32(out, BundleHeader.FormVersion, FORMAT_VERSION)
    writeU32(out, BundleHeader.DataStart, out.length)
    writeU53(out, BundleHeader.DataLength, this.dataLength)
    return out
  }

  /** The checksum of the bundle: feed it the data (the bytes of every entry, in order) once {@link head} is made. */
  checksum(): BundleChecksum {
    const head = this.head()
    const table = this.table
    let h = fnv1a(head, 0, head.length, BundleHeader.Checksum)
    let entry = 0
    /** Bytes left in the current part; parts go key, form, info per entry. */
    let part = 0
    let left = 0
    const partLength = (i: number, p: number): number => {
      const rec = BundleHeader.Size + BUNDLE_RECORD * i + (p === 0 ? 0 : p === 1 ? 4 : 12)
      return (table[rec]! | (table[rec + 1]! << 8) | (table[rec + 2]! << 16)) + table[rec + 3]! * 2 ** 24
    }
    const advance = (): void => {
      while (left === 0 && entry < this.count) {
        part++
        if (part > 2) {
          part = 0
          entry++
          if (entry >= this.count) return
        }
        left = partLength(entry, part)
      }
    }
    if (this.count > 0) {
      left = partLength(0, 0)
      advance()
    }
    let fed = 0
    return {
      offset: BundleHeader.Checksum,
      update: (chunk: Uint8Array): void => {
        let at = 0
        while (at < chunk.length) {
          if (entry >= this.count) throw new RobotsInputError('BundleWriter: more data than the entries hold')
          const take = Math.min(left, chunk.length - at)
          if (part !== 1) for (let i = at; i < at + take; i++) h = Math.imul(h ^ chunk[i]!, FNV_PRIME)
          at += take
          left -= take
          advance()
        }
        fed += chunk.length
      },
      digest: (): Uint8Array => {
        if (fed !== this.dataLength) throw new RobotsInputError(`BundleWriter: ${fed} data bytes read back of ${this.dataLength}`)
        const out = new Uint8Array(4)
        writeU32(out, 0, h >>> 0)
        return out
      },
    }
  }
}
