/**
 * What a store keeps of the fetch behind an entry ({@link StoreFetchInfo}:
 * outcome, status, times, validators), as a record of bytes after the
 * entry's form in the arena and in bundles ({@link FetchInfoField} has the
 * layout). `robots-automaton fetch` writes it; `fetch --update`, `pack` and
 * `filter --bundle` read it.
 */
import { readU16, readU53, writeU16, writeU53 } from '../rules/byte-buffer.js'
import { describeValue, RobotsInputError } from '../errors.js'

/** The outcomes of a fetch (`FetchOutcome`'s values), in the order of their codes in a record. */
export const FETCH_OUTCOMES = ['ok', 'unavailable', 'unreachable', 'not-modified', 'refused'] as const

/** What a store keeps of the fetch behind an entry. All times are ms since the epoch. */
export interface StoreFetchInfo {
  /** The latest fetch's outcome (`fetchRobots`'s): the entry's rules may be older (a 304, or a refresh that was unreachable). */
  outcome: (typeof FETCH_OUTCOMES)[number]
  /** HTTP status of the latest fetch's last response; absent when none arrived. */
  status?: number
  /** When the latest fetch started. */
  fetchedAt: number
  /** Until when the entry may be used without a refresh (RFC 9309 §2.4). */
  expiresAt: number
  /**
   * From when the origin's unreachability is counted: the latest fetch that
   * reached the server (the one whose rules are held), or the first failed
   * one when none has.
   */
  reachableAt: number
  /** The `ETag` of the rules held, sent back as `If-None-Match` on a refresh. */
  etag?: string
  /** Their `Last-Modified`, sent back as `If-Modified-Since`. */
  lastModified?: string
  /** The origin fetched (`http://example.com`), when it is not the entry's key (a bare-host key: which scheme and port were fetched). */
  origin?: string
}

/**
 * Byte offsets in a fetch-info record (integers little-endian; a time is a
 * u53: u32 low, u32 high):
 *
 *   offset  size  field
 *   0       1     outcome: its index in {@link FETCH_OUTCOMES}
 *   1       1     flags (0)
 *   2       2     status (0: none)
 *   4       8     fetchedAt
 *   12      8     expiresAt
 *   20      8     reachableAt
 *   28      2     E = bytes of the ETag (0: none)
 *   30      2     M = bytes of the Last-Modified (0: none)
 *   32      2     O = bytes of the origin fetched (0: none)
 *   34      2     reserved (0)
 *   36      E     the ETag (ASCII)
 *   36+E    M     the Last-Modified (ASCII)
 *   36+E+M  O     the origin fetched (ASCII)
 */
export const FetchInfoField = {
  Outcome: 0,
  Flags: 1,
  Status: 2,
  FetchedAt: 4,
  ExpiresAt: 12,
  ReachableAt: 20,
  EtagLength: 28,
  LastModifiedLength: 30,
  OriginLength: 32,
  Reserved: 34,
  Size: 36,
} as const

/** Longest validator (that of `fetchRobots`, fetch/validators.ts) or origin in a record. */
export const MAX_INFO_VALIDATOR = 1024

/** Whether `b` may be a byte of a validator: visible ASCII, space or tab. */
function isValidatorByte(b: number): boolean {
  return (b >= 0x20 && b <= 0x7e) || b === 0x09
}

function checkTime(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= 2 ** 53) {
    throw new RobotsInputError(`fetch info: ${name} must be a time in ms since the epoch (a number from 0 to 2^53), got ${describeValue(v)}`)
  }
  return Math.floor(v)
}

function checkValidator(name: string, v: unknown): string {
  if (v === undefined) return ''
  let ok = typeof v === 'string' && v.length > 0 && v.length <= MAX_INFO_VALIDATOR
  for (let i = 0; ok && i < (v as string).length; i++) ok = isValidatorByte((v as string).charCodeAt(i))
  if (!ok) throw new RobotsInputError(`fetch info: ${name} must be 1 to ${MAX_INFO_VALIDATOR} visible ASCII characters, got ${describeValue(v)}`)
  return v as string
}

/** The record of `info`, checked: anything out of place is a RobotsInputError (ERR_INPUT). */
export function encodeFetchInfo(info: StoreFetchInfo): Uint8Array {
  if (typeof info !== 'object' || info === null) throw new RobotsInputError(`fetch info must be an object, got ${describeValue(info)}`)
  const outcome = FETCH_OUTCOMES.indexOf(info.outcome)
  if (outcome < 0) throw new RobotsInputError(`fetch info: outcome must be one of ${FETCH_OUTCOMES.join(', ')}, got ${describeValue(info.outcome)}`)
  const status = info.status ?? 0
  if (!(Number.isInteger(status) && (status === 0 || (status >= 100 && status <= 999)))) {
    throw new RobotsInputError(`fetch info: status must be an HTTP status (100 to 999), got ${describeValue(info.status)}`)
  }
  const fetchedAt = checkTime('fetchedAt', info.fetchedAt)
  const expiresAt = checkTime('expiresAt', info.expiresAt)
  const reachableAt = checkTime('reachableAt', info.reachableAt)
  const etag = checkValidator('etag', info.etag)
  const lastModified = checkValidator('lastModified', info.lastModified)
  const origin = checkValidator('origin', info.origin)
  const out = new Uint8Array(FetchInfoField.Size + etag.length + lastModified.length + origin.length)
  out[FetchInfoField.Outcome] = outcome
  writeU16(out, FetchInfoField.Status, status)
  writeU53(out, FetchInfoField.FetchedAt, fetchedAt)
  writeU53(out, FetchInfoField.ExpiresAt, expiresAt)
  writeU53(out, FetchInfoField.ReachableAt, reachableAt)
  writeU16(out, FetchInfoField.EtagLength, etag.length)
  writeU16(out, FetchInfoField.LastModifiedLength, lastModified.length)
  writeU16(out, FetchInfoField.OriginLength, origin.length)
  let at = FetchInfoField.Size
  for (const text of [etag, lastModified, origin]) for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i)
  return out
}

/** The record at `bytes[at, at + length)` (checked by {@link fetchInfoProblem} first). */
export function decodeFetchInfo(bytes: Uint8Array, at: number): StoreFetchInfo {
  const info: StoreFetchInfo = {
    outcome: FETCH_OUTCOMES[bytes[at + FetchInfoField.Outcome]],
    fetchedAt: readU53(bytes, at + FetchInfoField.FetchedAt),
    expiresAt: readU53(bytes, at + FetchInfoField.ExpiresAt),
    reachableAt: readU53(bytes, at + FetchInfoField.ReachableAt),
  }
  const status = readU16(bytes, at + FetchInfoField.Status)
  if (status !== 0) info.status = status
  const e = readU16(bytes, at + FetchInfoField.EtagLength)
  const m = readU16(bytes, at + FetchInfoField.LastModifiedLength)
  const o = readU16(bytes, at + FetchInfoField.OriginLength)
  const text = (from: number, n: number): string => String.fromCharCode.apply(null, bytes.subarray(from, from + n) as unknown as number[])
  const p = at + FetchInfoField.Size
  if (e > 0) info.etag = text(p, e)
  if (m > 0) info.lastModified = text(p + e, m)
  if (o > 0) info.origin = text(p + e + m, o)
  return info
}

/**
 * Why the `length` bytes at `bytes[at…]` (an untrusted bundle's) are not a
 * fetch-info record, or undefined when they are one: the layout must add up
 * exactly, every code and time be in range, the validators be ASCII.
 */
export function fetchInfoProblem(bytes: Uint8Array, at: number, length: number): string | undefined {
  if (length < FetchInfoField.Size) return `a fetch-info record of ${length} bytes (at least ${FetchInfoField.Size})`
  if (bytes[at + FetchInfoField.Outcome] >= FETCH_OUTCOMES.length) return `unknown fetch outcome ${bytes[at + FetchInfoField.Outcome]}`
  if (bytes[at + FetchInfoField.Flags] !== 0) return 'unknown fetch-info flags'
  const status = readU16(bytes, at + FetchInfoField.Status)
  if (status !== 0 && (status < 100 || status > 999)) return `HTTP status ${status} out of range`
  for (const f of [FetchInfoField.FetchedAt, FetchInfoField.ExpiresAt, FetchInfoField.ReachableAt]) {
    // The high u32 below 2^21.
    if (bytes[at + f + 7] !== 0 || bytes[at + f + 6] >= 0x20) return 'a fetch time past 2^53'
  }
  const e = readU16(bytes, at + FetchInfoField.EtagLength)
  const m = readU16(bytes, at + FetchInfoField.LastModifiedLength)
  const o = readU16(bytes, at + FetchInfoField.OriginLength)
  if (readU16(bytes, at + FetchInfoField.Reserved) !== 0) return 'unknown fetch-info flags'
  if (e > MAX_INFO_VALIDATOR || m > MAX_INFO_VALIDATOR || o > MAX_INFO_VALIDATOR) return 'a validator or origin longer than 1,024 bytes'
  if (FetchInfoField.Size + e + m + o !== length) return 'fetch-info lengths do not add up'
  for (let p = at + FetchInfoField.Size, end = at + length; p < end; p++) if (!isValidatorByte(bytes[p])) return 'a validator or origin holds a byte outside printable ASCII'
  return undefined
}
