/**
 * Serialisation of a parsed robots.txt, so a frontier can store it and load it
 * back without re-parsing. Compiled automaton states are not stored: they are
 * rebuilt lazily from the rules on first use.
 *
 * Format, version 1 (all integers little-endian):
 *
 *   offset  size  field
 *   0       4     magic "RATX"
 *   4       2     version (1)
 *   6       2     flags: bit 0 = truncated
 *   8       4     bytesRead
 *   12      4     lineCount
 *   16      4     P = byte length of the patterns
 *   20      4     E = byte length of the event stream
 *   24      4     N = number of events in it
 *   28      4     D = number of Int32 in the diagnostic pairs
 *   32      4     J = byte length of the JSON section
 *   36      4     FNV-1a 32-bit checksum of every other byte (offsets 0–35 and 40 on),
 *                 so a flipped byte anywhere, header included, is detected
 *   40      P     patterns
 *   ..      E     event stream (varints, see compact-rules.ts), then zero padding
 *                 so that P + E is a multiple of 4
 *   ..      4D    diagnostics: [codeIndex, line] pairs
 *   ..      J     UTF-8 JSON: { names, sitemaps, extensions, details }
 */
import type { CompactRules } from './compact-rules.js'
import { EventCursor, EventType } from './compact-rules.js'
import { DiagnosticList } from './diagnostics.js'
import { describeValue, RobotsFormatError, RobotsInputError } from '../errors.js'

/** What a serialised robots.txt holds. */
export interface RobotsParts {
  rules: CompactRules
  sitemaps: readonly string[]
  diagnostics: DiagnosticList
  truncated: boolean
  bytesRead: number
  lineCount: number
}

const MAGIC = [0x52, 0x41, 0x54, 0x58] // "RATX"
/** Current format version. */
export const FORMAT_VERSION = 1
const HEADER = 40
const CHECKSUM_AT = 36

/** FNV-1a over the whole buffer except the checksum field itself (offsets 36–39). */
function checksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) {
    if (i === CHECKSUM_AT) i = HEADER
    if (i >= bytes.length) break
    h ^= bytes[i]
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Serialises the parts of a Robots (compact rules, sitemaps, diagnostics and read info). */
export function encodeRobots(robots: RobotsParts): Uint8Array {
  const r = robots.rules
  const diag = robots.diagnostics.pack()
  const json = new TextEncoder().encode(
    JSON.stringify({ names: r.names, sitemaps: robots.sitemaps, extensions: r.extensions, details: diag.details }),
  )
  const P = r.patterns.length
  const E = r.events.length
  const padded = (P + E + 3) & ~3
  const size = HEADER + padded + diag.pairs.length * 4 + json.length
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  out.set(MAGIC, 0)
  view.setUint16(4, FORMAT_VERSION, true)
  view.setUint16(6, robots.truncated ? 1 : 0, true)
  view.setUint32(8, robots.bytesRead, true)
  view.setUint32(12, robots.lineCount, true)
  view.setUint32(16, P, true)
  view.setUint32(20, E, true)
  view.setUint32(24, r.eventCount, true)
  view.setUint32(28, diag.pairs.length, true)
  view.setUint32(32, json.length, true)
  out.set(r.patterns, HEADER)
  out.set(r.events, HEADER + P)
  let at = HEADER + padded
  for (let i = 0; i < diag.pairs.length; i++, at += 4) view.setInt32(at, diag.pairs[i], true)
  out.set(json, at)
  view.setUint32(CHECKSUM_AT, checksum(out), true)
  return out
}

/** An extension entry as the builder writes it: a kind (0..3) and a value of that kind's shape. */
function validExtension(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false
  const { kind, value } = e as { kind: unknown; value: unknown }
  const v = value as Record<string, unknown>
  switch (kind) {
    case 0:
      return typeof value === 'number' && value >= 0 && Number.isFinite(value)
    case 1:
      return typeof v === 'object' && v !== null && typeof v.requests === 'number' && typeof v.seconds === 'number'
    case 2:
      return typeof v === 'object' && v !== null && typeof v.from === 'string' && typeof v.to === 'string'
    case 3:
      return typeof value === 'string'
    default:
      return false
  }
}

function fail(message: string): never {
  throw new RobotsFormatError('ERR_FORMAT', `Robots.fromBytes: ${message}`)
}

/** Reads what {@link encodeRobots} wrote. A corrupt or foreign buffer is a RobotsFormatError; another type a RobotsInputError. */
export function decodeRobots(bytes: Uint8Array): RobotsParts {
  if (!(bytes instanceof Uint8Array)) throw new RobotsInputError(`Robots.fromBytes takes a Uint8Array, got ${describeValue(bytes)}`)
  if (bytes.length < HEADER || MAGIC.some((b, i) => bytes[i] !== b)) fail('not a serialised robots.txt (bad magic)')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint16(4, true)
  if (version !== FORMAT_VERSION) {
    throw new RobotsFormatError('ERR_VERSION', `Robots.fromBytes: format version ${version} is not supported (this build reads ${FORMAT_VERSION})`)
  }
  const P = view.getUint32(16, true)
  const E = view.getUint32(20, true)
  const N = view.getUint32(24, true)
  const D = view.getUint32(28, true)
  const J = view.getUint32(32, true)
  const padded = (P + E + 3) & ~3
  if (HEADER + padded + 4 * D + J !== bytes.length) fail('length does not match its header (truncated or padded buffer)')
  if (view.getUint32(CHECKSUM_AT, true) !== checksum(bytes)) fail('checksum mismatch (corrupt buffer)')
  if (D % 2 !== 0) fail('bad section sizes')
  const patterns = bytes.slice(HEADER, HEADER + P)
  const events = bytes.slice(HEADER + P, HEADER + P + E)
  let at = HEADER + padded
  const pairs = new Int32Array(D)
  for (let i = 0; i < D; i++, at += 4) pairs[i] = view.getInt32(at, true)
  let meta: { names: string[]; sitemaps: string[]; extensions: CompactRules['extensions']; details: [number, string][] }
  try {
    meta = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at, at + J)))
  } catch {
    fail('bad metadata section')
  }
  if (!Array.isArray(meta?.names) || !Array.isArray(meta.sitemaps) || !Array.isArray(meta.extensions) || !Array.isArray(meta.details)) {
    fail('bad metadata section')
  }
  if (!meta.names.every((n) => typeof n === 'string') || !meta.sitemaps.every((u) => typeof u === 'string')) fail('bad metadata section')
  if (!meta.extensions.every(validExtension)) fail('bad extension entry')
  const rules: CompactRules = { patterns, events, eventCount: N, names: meta.names, extensions: meta.extensions }
  // Every event must decode and point inside the tables; the patterns must add up.
  let count = 0
  let patternEnd = 0
  try {
    for (const c = new EventCursor(rules); c.next(); count++) {
      const t = c.type
      const ok =
        t === EventType.UaGlobal ||
        (t === EventType.UaName && c.a < meta.names.length) ||
        ((t === EventType.Allow || t === EventType.Disallow) && c.b <= P) ||
        (t === EventType.Extension && c.a < meta.extensions.length)
      if (!ok) fail(`bad event ${count}`)
      if (t === EventType.Allow || t === EventType.Disallow) patternEnd = c.b
    }
  } catch (e) {
    if (e instanceof RobotsFormatError) throw e
    fail('bad event stream')
  }
  if (count !== N || patternEnd !== P) fail('event stream does not match its header')
  let diagnostics: DiagnosticList
  try {
    diagnostics = DiagnosticList.unpack(pairs, meta.details)
  } catch {
    fail('bad diagnostics section')
  }
  return {
    rules,
    sitemaps: meta.sitemaps,
    diagnostics,
    truncated: (view.getUint16(6, true) & 1) === 1,
    bytesRead: view.getUint32(8, true),
    lineCount: view.getUint32(12, true),
  }
}
