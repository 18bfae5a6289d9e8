/**
 * A bundle written entry by entry, without the store in memory: for a
 * writer whose entries live elsewhere (a file on disk, read back in order),
 * so that memory stays that of the entry table (16 bytes an entry) however
 * many entries there are. The bytes are exactly those `RobotsStore.toBytes()`
 * writes for the same entries in the same order (bundle-codec.ts has the
 * layout).
 *
 * The header's checksum covers the header, the table, then every key and
 * fetch-info record, so the entries are visited three times, in the same
 * order each time: {@link BundleWriter.measure} (their sizes: the table),
 * {@link BundleWriter.hash} (their keys and records: the checksum), then
 * {@link BundleWriter.head} and {@link BundleWriter.entry} give the bytes.
 * Forms are needed in the last pass only.
 */
import { writeU16, writeU32, writeU53 } from '../rules/byte-buffer.js'
import { FORMAT_VERSION, Header } from '../rules/compact-rules.js'
import { fnv1a } from '../rules/serialise.js'
import { RobotsInputError } from '../errors.js'
import { BUNDLE_RECORD, BUNDLE_VERSION, BundleHeader, BundleKind } from './bundle-codec.js'
import { encodeFetchInfo, type StoreFetchInfo } from './fetch-info.js'
import { FNV_PRIME, MAX_KEY_BYTES, storeKey } from './origin-keys.js'

/** What an entry holds: a robots.txt's form, or an outcome without one. */
export type BundleEntryKind = 'robots' | 'unavailable' | 'unreachable'

const KINDS: Record<BundleEntryKind, number> = { robots: BundleKind.Robots, unavailable: BundleKind.Unavailable, unreachable: BundleKind.Unreachable }

const ascii = (key: string): Uint8Array => {
  const out = new Uint8Array(key.length)
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i)
  return out
}

/** A bundle of `count` entries, written in three passes (see the module comment). */
export class BundleWriter {
  private readonly table: Uint8Array
  private measured = 0
  private hashed = 0
  private written = 0
  private dataLength = 0
  private h = 0

  constructor(readonly count: number) {
    if (!Number.isSafeInteger(count) || count < 0 || count > 0xffffffff) throw new RobotsInputError(`BundleWriter: count must be an entry count, got ${count}`)
    this.table = new Uint8Array(BundleHeader.Size + BUNDLE_RECORD * count)
  }

  /**
   * First pass: an entry's key (in the store's canonical form), kind, its
   * form's length (`Robots.toBytes().length`; 0 for an outcome) and its
   * fetch info. Anything out of place is a RobotsInputError.
   */
  measure(key: string, kind: BundleEntryKind, formLength: number, info: StoreFetchInfo | undefined): void {
    if (this.measured >= this.count) throw new RobotsInputError(`BundleWriter: more than ${this.count} entries measured`)
    if (storeKey(key, 'BundleWriter').key !== key || key.length > MAX_KEY_BYTES) throw new RobotsInputError(`BundleWriter: key ${JSON.stringify(key)} is not in the store's form`)
    const k = KINDS[kind]
    if (k === undefined) throw new RobotsInputError(`BundleWriter: unknown kind ${String(kind)}`)
    if (kind === 'robots' ? !(formLength >= Header.Size) : formLength !== 0) throw new RobotsInputError(`BundleWriter: form length ${formLength} does not fit kind ${kind}`)
    const infoLength = info === undefined ? 0 : encodeFetchInfo(info).length
    const rec = BundleHeader.Size + BUNDLE_RECORD * this.measured++
    writeU32(this.table, rec, key.length)
    writeU32(this.table, rec + 4, formLength)
    writeU32(this.table, rec + 8, k)
    writeU32(this.table, rec + 12, infoLength)
    this.dataLength += key.length + formLength + infoLength
  }

  /** Second pass: the same entries' keys and fetch info, in the same order. */
  hash(key: string, info: StoreFetchInfo | undefined): void {
    if (this.hashed === 0) this.h = this.headerHash()
    this.check(this.hashed++, key, undefined, info)
    let h = this.h
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME)
    if (info !== undefined) {
      const record = encodeFetchInfo(info)
      for (let i = 0; i < record.length; i++) h = Math.imul(h ^ record[i]!, FNV_PRIME)
    }
    this.h = h
  }

  /** The header and the entry table, with the checksum: the bundle's first bytes, once every entry is hashed. */
  head(): Uint8Array {
    if (this.measured !== this.count || this.hashed !== this.count) throw new RobotsInputError(`BundleWriter: ${this.measured} entries measured and ${this.hashed} hashed of ${this.count}`)
    if (this.count === 0) this.h = this.headerHash()
    const out = this.table
    writeU32(out, BundleHeader.Checksum, this.h >>> 0)
    return out
  }

  /** Third pass: an entry's bytes (key, form, fetch-info record), in the same order. */
  entry(key: string, form: Uint8Array | undefined, info: StoreFetchInfo | undefined): Uint8Array {
    const record = info === undefined ? undefined : encodeFetchInfo(info)
    this.check(this.written++, key, form, info)
    const formLength = form?.length ?? 0
    const out = new Uint8Array(key.length + formLength + (record?.length ?? 0))
    out.set(ascii(key), 0)
    if (form !== undefined) out.set(form, key.length)
    if (record !== undefined) out.set(record, key.length + formLength)
    return out
  }

  /** The header's fields, and the checksum's state after the header and the table. */
  private headerHash(): number {
    const out = this.table
    out.set([0x52, 0x41, 0x54, 0x42], 0)
    writeU16(out, BundleHeader.Version, BUNDLE_VERSION)
    writeU16(out, BundleHeader.Flags, 0)
    writeU32(out, BundleHeader.Entries, this.count)
    writeU32(out, BundleHeader.FormVersion, FORMAT_VERSION)
    writeU32(out, BundleHeader.DataStart, out.length)
    writeU53(out, BundleHeader.DataLength, this.dataLength)
    return fnv1a(out, 0, out.length, BundleHeader.Checksum)
  }

  /** Entry `i` of a later pass must be the one measured. */
  private check(i: number, key: string, form: Uint8Array | undefined, info: StoreFetchInfo | undefined): void {
    if (i >= this.measured) throw new RobotsInputError(`BundleWriter: entry ${i} was not measured`)
    const rec = BundleHeader.Size + BUNDLE_RECORD * i
    const t = this.table
    const same =
      (t[rec]! | (t[rec + 1]! << 8) | (t[rec + 2]! << 16) | (t[rec + 3]! << 24)) === key.length &&
      (form === undefined || (t[rec + 4]! | (t[rec + 5]! << 8) | (t[rec + 6]! << 16) | (t[rec + 7]! << 24)) === form.length) &&
      ((t[rec + 12]! | (t[rec + 13]! << 8)) === 0) === (info === undefined)
    if (!same) throw new RobotsInputError(`BundleWriter: entry ${i} (${JSON.stringify(key)}) is not the one measured`)
  }
}
