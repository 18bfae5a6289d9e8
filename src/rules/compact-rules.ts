/**
 * The compact parsed form: one `Uint8Array` per parsed robots.txt holding
 * everything `Robots` keeps, a header of named fields and then its sections
 * back to back (layout: {@link Header}). It is also the serialised format
 * (rules/serialise.ts) and what a store keeps in its arenas (src/store/).
 * Nothing of the form is decoded into JS strings or arrays until asked for.
 */
import { ByteBuffer, readU16, readU32, readU53, VarintReader, writeU16, writeU32 } from './byte-buffer.js'
import { RobotsFormatError } from '../errors.js'

/** Current format version of the form (and of `toBytes()`). */
export const FORMAT_VERSION = 4

/**
 * The form's layout, version 4 (integers little-endian; offsets from the
 * start of the form). Fixed fields first:
 *
 *   offset  size  field
 *   0       4     magic "RATX"
 *   4       2     version (4: {@link FORMAT_VERSION})
 *   6       1     flags ({@link FormFlag}; other bits are 0)
 *   7       1     bytes of the header (the patterns start here)
 *   8       4     checksum: FNV-1a of the form with these 4 bytes skipped;
 *                 0 in memory, written by toBytes (rules/serialise.ts)
 *   12            unsigned LEB128 varints, in this order: the length of the
 *                 whole form, the number of events, the bytes of the
 *                 patterns, of the events, of the names (only when the
 *                 flags say HasNames), of the extensions (HasExtensions), of
 *                 the sitemaps (HasSitemaps), the bytes of the body read,
 *                 the physical lines read. The diagnostics take the rest.
 *
 * Then the sections, in this order, back to back:
 *
 * - patterns: every allow/disallow pattern, escaped, concatenated in file
 *   order; a pattern that repeats the one at its place in the previous
 *   block of rules is not written again (a repeat event points back to it:
 *   rules/pattern-table.ts).
 * - events: one record per directive line, in file order, as unsigned
 *   LEB128 varints (a few bytes a record): `header = (line - previous
 *   event's line) * 8 + type`, then by type ({@link EventType}): nothing for
 *   UaGlobal (`User-agent: *`); for UaName the index into the names (the
 *   lowercased `[A-Za-z_-]` prefix); for Allow / Disallow the pattern's
 *   length (it starts where the previous written pattern ended); for
 *   AllowRepeat / DisallowRepeat the pattern's length and then how far back
 *   from the end of the patterns written so far the equal, written pattern
 *   starts (read as Allow / Disallow); for Extension the index into the
 *   extensions. Replaying the events gives the
 *   reference's group logic for any set of product tokens: it is all a
 *   crawler's matcher needs ({@link EventCursor}).
 * - names: per distinct user-agent name, in order of first use: a varint
 *   length and the name's bytes (`[a-z_-]`).
 * - extensions: per crawl-delay, request-rate, visit-time or host line that
 *   gave a value: its kind (one byte, an ExtensionKind of rules/extensions.ts), a varint
 *   length and the value's text; values are read from the text on demand.
 * - sitemaps: per absolute sitemap URL, front-coded (rules/sitemap-list.ts):
 *   a varint count of the bytes it shares with the previous one (the first
 *   with "https://www."), a varint length and the rest of its bytes as
 *   served (decoded as UTF-8 on demand).
 * - diagnostics: per diagnostic: varint `code * 2 + hasDetail`, varint line,
 *   and when `hasDetail` a varint length and the detail's bytes (the raw
 *   bytes the message quotes, formatted on demand: rules/diagnostics.ts).
 *
 * Versions 2 and 3 (still read: a store's bundle may hold them) have the
 * same sections after a fixed header of u32 fields ({@link HeaderV3}); their
 * sitemaps are not front-coded (each a varint length and its bytes), and
 * version 2 has no repeat events. Read a header only through
 * {@link formLayout} and {@link formLength}, which know every version.
 */
export const Header = {
  Magic: 0,
  Version: 4,
  Flags: 6,
  /** Version 4: bytes of the header, where the patterns start. */
  HeaderBytes: 7,
  Checksum: 8,
  /** Version 4: the varint fields start here. */
  Fields: 12,
} as const

/** Byte offsets of the fixed header of versions 2 and 3 (flags: u16 at 6). */
export const HeaderV3 = {
  Length: 12,
  EventCount: 16,
  EventsStart: 20,
  NamesStart: 24,
  ExtensionsStart: 28,
  SitemapsStart: 32,
  DiagnosticsStart: 36,
  BytesRead: 40,
  LineCount: 48,
  /** Bytes of the header: the patterns start here. */
  Size: 56,
} as const

/** Version 3 (read, no longer written): version 4 with a fixed header and sitemaps written whole. */
export const FORMAT_VERSION_3 = 3

/** Version 2 (read, no longer written): version 3 without repeat events. */
export const FORMAT_VERSION_2 = 2

/** Fewest bytes a form of any version holds: version 4's fixed fields and six one-byte varints. */
export const MIN_FORM_BYTES = Header.Fields + 6

/** Most bytes of a version 4 header (fixed fields and nine varints of at most 7 bytes; it must fit its one-byte field). */
export const MAX_HEADER_BYTES = 255

/** The magic bytes "RATX". */
export const FORM_MAGIC = [0x52, 0x41, 0x54, 0x58] as const

/** Bits of the header's flags field. */
export const FormFlag = {
  /** The body was longer than the parsing limit. */
  Truncated: 1,
  /** Version 4: the names section is not empty (its length is in the header). */
  HasNames: 2,
  /** Version 4: the extensions section is not empty. */
  HasExtensions: 4,
  /** Version 4: the sitemaps section is not empty. */
  HasSitemaps: 8,
} as const

/** The flags a form of `version` may have set. */
export function knownFlags(version: number): number {
  return version === FORMAT_VERSION ? 15 : FormFlag.Truncated
}

/**
 * A form's header, decoded: its version and figures, and where each section
 * starts (offsets from the start of the form; each section ends where the
 * next starts, the diagnostics at `length`).
 */
export interface FormLayout {
  version: number
  flags: number
  length: number
  eventCount: number
  patternsStart: number
  eventsStart: number
  namesStart: number
  extensionsStart: number
  sitemapsStart: number
  diagnosticsStart: number
  bytesRead: number
  lineCount: number
}

/**
 * The header of the well-formed form at `b[at…]` (built here, or checked by
 * rules/serialise.ts), of any version read: the one reader of headers.
 */
export function formLayout(b: Uint8Array, at = 0): FormLayout {
  const version = readU16(b, at + Header.Version)
  const flags = b[at + Header.Flags]
  let length, eventCount, patternsStart, eventsStart, namesStart, extensionsStart, sitemapsStart, diagnosticsStart, bytesRead, lineCount
  if (version !== FORMAT_VERSION) {
    length = readU32(b, at + HeaderV3.Length)
    eventCount = readU32(b, at + HeaderV3.EventCount)
    patternsStart = HeaderV3.Size
    eventsStart = readU32(b, at + HeaderV3.EventsStart)
    namesStart = readU32(b, at + HeaderV3.NamesStart)
    extensionsStart = readU32(b, at + HeaderV3.ExtensionsStart)
    sitemapsStart = readU32(b, at + HeaderV3.SitemapsStart)
    diagnosticsStart = readU32(b, at + HeaderV3.DiagnosticsStart)
    bytesRead = readU53(b, at + HeaderV3.BytesRead)
    lineCount = readU53(b, at + HeaderV3.LineCount)
  } else {
    const r = new HeaderFields(b, at + Header.Fields)
    length = r.next()
    eventCount = r.next()
    patternsStart = b[at + Header.HeaderBytes]
    eventsStart = patternsStart + r.next()
    namesStart = eventsStart + r.next()
    extensionsStart = namesStart + (flags & FormFlag.HasNames ? r.next() : 0)
    sitemapsStart = extensionsStart + (flags & FormFlag.HasExtensions ? r.next() : 0)
    diagnosticsStart = sitemapsStart + (flags & FormFlag.HasSitemaps ? r.next() : 0)
    bytesRead = r.next()
    lineCount = r.next()
  }
  return { version, flags, length, eventCount, patternsStart, eventsStart, namesStart, extensionsStart, sitemapsStart, diagnosticsStart, bytesRead, lineCount }
}

/** The length of the well-formed form at `b[at…]`, of any version (its first header field). */
export function formLength(b: Uint8Array, at = 0): number {
  if (readU16(b, at + Header.Version) !== FORMAT_VERSION) return readU32(b, at + HeaderV3.Length)
  return new HeaderFields(b, at + Header.Fields).next()
}

/** Bytes of the body read by the well-formed form at `b[at…]`, of any version (without decoding the rest of its header). */
export function formBytesRead(b: Uint8Array, at = 0): number {
  if (readU16(b, at + Header.Version) !== FORMAT_VERSION) return readU53(b, at + HeaderV3.BytesRead)
  return figuresOf(b, at).next()
}

/** Physical lines read by the well-formed form at `b[at…]`, of any version. */
export function formLineCount(b: Uint8Array, at = 0): number {
  if (readU16(b, at + Header.Version) !== FORMAT_VERSION) return readU53(b, at + HeaderV3.LineCount)
  const r = figuresOf(b, at)
  r.next()
  return r.next()
}

/** A version 4 header's fields from its bytes read on (past the four fields every form has and one per flagged section). */
function figuresOf(b: Uint8Array, at: number): HeaderFields {
  const flags = b[at + Header.Flags]
  let skip = 4 + ((flags >> 1) & 1) + ((flags >> 2) & 1) + ((flags >> 3) & 1)
  let p = at + Header.Fields
  while (skip > 0) if (b[p++] < 0x80) skip--
  return new HeaderFields(b, p)
}

/** Reads a well-formed header's varints one after another (the form check reads them with bounds: rules/serialise.ts). */
class HeaderFields {
  constructor(
    private readonly b: Uint8Array,
    private at: number,
  ) {}

  next(): number {
    const b = this.b
    let byte = b[this.at++]
    if (byte < 0x80) return byte
    let value = byte & 0x7f
    let scale = 128
    do {
      byte = b[this.at++]
      value += (byte & 0x7f) * scale
      scale *= 128
    } while (byte >= 0x80)
    return value
  }
}

/**
 * An event's header is `lineDelta * HEADER_TYPES + type`: the type in the
 * low three bits, the line delta above (multiplication and division, not
 * shifts: a delta may pass 2^28).
 */
export const HEADER_TYPES = 8

/** Event types. */
export const EventType = {
  UaGlobal: 0,
  UaName: 1,
  Allow: 2,
  Disallow: 3,
  Extension: 4,
  /** An Allow whose pattern repeats a written one (see {@link Header}); the cursor reports it as Allow. */
  AllowRepeat: 5,
  /** A Disallow whose pattern equals an earlier rule's; the cursor reports it as Disallow. */
  DisallowRepeat: 6,
} as const

/** Shortest pattern written as a repeat (a shorter one costs no fewer bytes). */
export const MIN_REPEAT = 3

/** AllowRepeat - Allow, DisallowRepeat - Disallow. */
export const REPEAT_SHIFT = EventType.AllowRepeat - EventType.Allow

/** Bytes of `value` as a varint. */
export function varintSize(value: number): number {
  let n = 1
  while (value >= 0x80) {
    value = Math.floor(value / 0x80)
    n++
  }
  return n
}

/** A view over one form: what the matchers and `Robots` read. Holds nothing but the bytes. */
export class CompactRules {
  /** The form (its own buffer, or a view of a store's arena). */
  readonly bytes: Uint8Array

  /** A view of `bytes`, which must be a well-formed form (built here, or checked by rules/serialise.ts): the core makes these. */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  /** Number of events. */
  get eventCount(): number {
    return formLayout(this.bytes).eventCount
  }

  /** Where the patterns live: events' `a`/`b` are offsets into this buffer (the form itself). */
  get patternBytes(): Uint8Array {
    return this.bytes
  }

  /** The patterns section (every pattern, concatenated in file order). */
  get patterns(): Uint8Array {
    const l = formLayout(this.bytes)
    return this.bytes.subarray(l.patternsStart, l.eventsStart)
  }

  /** The event stream (varints; layout: `Header` in rules/compact-rules.ts). */
  get events(): Uint8Array {
    const l = formLayout(this.bytes)
    return this.bytes.subarray(l.eventsStart, l.namesStart)
  }

  /** The user-agent names as strings, by index (decoded on each call: for tests and tools). */
  get names(): string[] {
    const b = this.bytes
    const out: string[] = []
    const l = formLayout(b)
    const r = new VarintReader(b, l.namesStart, l.extensionsStart, 'names')
    while (r.more) {
      const start = r.readRun()
      out.push(String.fromCharCode.apply(null, b.subarray(start, r.at) as unknown as number[]))
    }
    return out
  }

  /**
   * The index of the name equal to `token` (ASCII-case-insensitively, whole
   * token), or -1. Names are distinct, so at most one matches.
   */
  nameIndexOf(token: string): number {
    return nameIndexIn(this.bytes, 0, token)
  }

  /** 1 per name index equal to one of `tokens` (ASCII-case-insensitively, whole token). */
  nameMatches(tokens: readonly string[]): Uint8Array {
    const b = this.bytes
    const l = formLayout(b)
    const r = new VarintReader(b, l.namesStart, l.extensionsStart, 'names')
    const hits: number[] = []
    while (r.more) {
      const start = r.readRun()
      let hit = 0
      for (let t = 0; t < tokens.length && !hit; t++) {
        if (tokens[t].length === r.at - start && sameLower(tokens[t], b, start)) hit = 1
      }
      hits.push(hit)
    }
    return Uint8Array.from(hits)
  }

  /** Bytes of the body read. */
  get bytesRead(): number {
    return formLayout(this.bytes).bytesRead
  }

  /** Physical lines read. */
  get lineCount(): number {
    return formLayout(this.bytes).lineCount
  }

  /** True when the body was longer than the parsing limit. */
  get truncated(): boolean {
    return (this.bytes[Header.Flags] & FormFlag.Truncated) !== 0
  }
}

/**
 * The index of the name equal to `token` in the form at `b[form…]`
 * (ASCII-case-insensitively, whole token), or -1: `nameIndexOf` for a form
 * inside a larger buffer (a store's arena), without a view.
 */
export function nameIndexIn(b: Uint8Array, form: number, token: string): number {
  const l = formLayout(b, form)
  let at = form + l.namesStart
  const end = form + l.extensionsStart
  const n = token.length
  for (let i = 0; at < end; i++) {
    let len = 0
    let scale = 1
    let byte: number
    do {
      byte = b[at++]
      len += (byte & 0x7f) * scale
      scale *= 128
    } while (byte >= 0x80)
    if (len === n && sameLower(token, b, at)) return i
    at += len
  }
  return -1
}

/** `token` (a string) equals `b[at, at + token.length)` with ASCII letters of the token lowercased. */
function sameLower(token: string, b: Uint8Array, at: number): boolean {
  for (let k = 0; k < token.length; k++) {
    let c = token.charCodeAt(k)
    if (c >= 65 && c <= 90) c += 32
    if (c !== b[at + k]) return false
  }
  return true
}

/**
 * Reads the event stream: `while (c.next()) use(c.type, c.line, c.a, c.b)`,
 * where `a` is the name or extension index, or (with `b`) the pattern's
 * start and end in {@link patternBytes} (the form). `index` counts events
 * from 0.
 */
export class EventCursor {
  type = 0
  line = 0
  a = 0
  b = 0
  index = -1
  /** The buffer the patterns' `[a, b)` offsets point into. */
  readonly patternBytes: Uint8Array
  private at: number
  private readonly end: number
  private patternEnd: number

  constructor(rules: CompactRules) {
    const f = rules.bytes
    this.patternBytes = f
    const l = formLayout(f)
    this.at = l.eventsStart
    this.end = l.namesStart
    this.patternEnd = l.patternsStart
  }

  /** Moves to the next event; false at the end. A stream cut short or corrupt is a RobotsFormatError (ERR_FORMAT). */
  next(): boolean {
    if (this.at >= this.end) return false
    const header = this.varint()
    const type = header % HEADER_TYPES
    this.type = type
    this.line += (header - type) / HEADER_TYPES
    this.index++
    if (type === EventType.Allow || type === EventType.Disallow) {
      this.a = this.patternEnd
      this.patternEnd += this.varint()
      this.b = this.patternEnd
    } else if (type === EventType.AllowRepeat || type === EventType.DisallowRepeat) {
      this.type = type - REPEAT_SHIFT
      const n = this.varint()
      this.a = this.patternEnd - this.varint()
      this.b = this.a + n
    } else if (type !== EventType.UaGlobal) {
      this.a = this.varint()
      this.b = 0
    } else {
      this.a = this.b = 0
    }
    return true
  }

  /** The pattern bytes of the current rule event (a view of the form). */
  pattern(_rules?: CompactRules): Uint8Array {
    return this.patternBytes.subarray(this.a, this.b)
  }

  private varint(): number {
    const ev = this.patternBytes
    let byte = this.at < this.end ? ev[this.at++] : -1
    if (byte >= 0 && byte < 0x80) return byte
    let value = 0
    let scale = 1
    for (let n = 0; ; n++) {
      if (byte < 0) throw new RobotsFormatError('ERR_FORMAT', 'truncated event stream')
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      if (n === 6) throw new RobotsFormatError('ERR_FORMAT', 'varint too long in event stream')
      scale *= 128
      byte = this.at < this.end ? ev[this.at++] : -1
    }
  }
}

/** Appends events as varints (the builder's side of {@link EventCursor}). */
export class EventWriter {
  readonly out: ByteBuffer
  count = 0
  private lastLine = 0

  constructor(out: ByteBuffer = new ByteBuffer()) {
    this.out = out
  }

  /** Adds one event; `value` is the name/extension index or the pattern length (unused for UaGlobal). */
  add(type: number, line: number, value: number): void {
    const header = (line - this.lastLine) * HEADER_TYPES + type
    this.lastLine = line
    this.count++
    const out = this.out
    // The usual event: a one-byte header and a one-byte value.
    if (header < 0x80 && value < 0x80 && out.length + 2 <= out.bytes.length) {
      out.bytes[out.length++] = header
      if (type !== EventType.UaGlobal) out.bytes[out.length++] = value
      return
    }
    out.varint(header)
    if (type !== EventType.UaGlobal) out.varint(value)
  }

  /** Adds a rule event (Allow or Disallow) whose `n`-byte pattern repeats the one starting `back` bytes before the end of the patterns written so far. */
  repeat(type: number, line: number, n: number, back: number): void {
    const out = this.out
    out.varint((line - this.lastLine) * HEADER_TYPES + type + REPEAT_SHIFT)
    out.varint(n)
    out.varint(back)
    this.lastLine = line
    this.count++
  }

  /** Starts over (see ByteBuffer.reset). */
  reset(keep: number): void {
    this.out.reset(keep)
    this.count = 0
    this.lastLine = 0
  }
}

/** A section's content: `bytes[0, length)` (a ByteBuffer, or `{ bytes, length }` over a Uint8Array). */
export interface Section {
  readonly bytes: Uint8Array
  readonly length: number
}

/** The sections and header figures of a form, for {@link writeForm}. */
export interface FormParts {
  patterns: Section
  events: Section
  eventCount: number
  names: Section
  extensions: Section
  sitemaps: Section
  diagnostics: Section
  truncated: boolean
  bytesRead: number
  lineCount: number
}

/** The flags of the form of `parts`. */
function formFlags(parts: FormParts): number {
  return (
    (parts.truncated ? FormFlag.Truncated : 0) |
    (parts.names.length > 0 ? FormFlag.HasNames : 0) |
    (parts.extensions.length > 0 ? FormFlag.HasExtensions : 0) |
    (parts.sitemaps.length > 0 ? FormFlag.HasSitemaps : 0)
  )
}

/** The varint header fields of `parts` but the length (see {@link Header}), in {@link FIELDS}; returns their count. */
function headerFields(parts: FormParts): number {
  const f = FIELDS
  let n = 0
  f[n++] = parts.eventCount
  f[n++] = parts.patterns.length
  f[n++] = parts.events.length
  if (parts.names.length > 0) f[n++] = parts.names.length
  if (parts.extensions.length > 0) f[n++] = parts.extensions.length
  if (parts.sitemaps.length > 0) f[n++] = parts.sitemaps.length
  f[n++] = parts.bytesRead
  f[n++] = parts.lineCount
  return n
}

/** The header fields being written (reused: a form is written in one call). */
const FIELDS = new Float64Array(8)

/** Bytes of the form of `parts`. */
export function formSize(parts: FormParts): number {
  return sizeOf(parts, headerFields(parts))
}

/** Bytes of the form of `parts`, whose `count` header fields are in FIELDS. */
function sizeOf(parts: FormParts, count: number): number {
  let head = Header.Fields
  for (let i = 0; i < count; i++) head += varintSize(FIELDS[i])
  const body = parts.patterns.length + parts.events.length + parts.names.length + parts.extensions.length + parts.sitemaps.length + parts.diagnostics.length
  // The length counts its own varint.
  let length = head + 1 + body
  while (head + varintSize(length) + body !== length) length = head + varintSize(length) + body
  return length
}

/** Lays out the form of `parts` at `target[at, at + formSize(parts))` (checksum 0: see rules/serialise.ts). */
export function writeForm(target: Uint8Array, at: number, parts: FormParts): void {
  const count = headerFields(parts)
  let p = writeVarint(target, at + Header.Fields, sizeOf(parts, count))
  for (let i = 0; i < count; i++) p = writeVarint(target, p, FIELDS[i])
  target[at + Header.HeaderBytes] = p - at
  p = putSection(target, p, parts.patterns)
  p = putSection(target, p, parts.events)
  p = putSection(target, p, parts.names)
  p = putSection(target, p, parts.extensions)
  p = putSection(target, p, parts.sitemaps)
  putSection(target, p, parts.diagnostics)
  // By hand: set() from an array is slow.
  for (let i = 0; i < 4; i++) target[at + i] = FORM_MAGIC[i]
  writeU16(target, at + Header.Version, FORMAT_VERSION)
  target[at + Header.Flags] = formFlags(parts)
  writeU32(target, at + Header.Checksum, 0)
}

/** Writes `value` as a varint at `target[p…]`; returns where it ends. */
function writeVarint(target: Uint8Array, p: number, value: number): number {
  while (value >= 0x80) {
    // `& 0x7f` is `% 0x80` for any safe integer (ToInt32 keeps the low bits), without a floating-point remainder.
    target[p++] = (value & 0x7f) | 0x80
    value = Math.floor(value / 0x80)
  }
  target[p++] = value
  return p
}

/** Copies a section to `target[p…]`; returns where it ends. */
function putSection(target: Uint8Array, p: number, section: Section): number {
  const n = section.length
  const b = section.bytes
  // Short sections copy faster by hand than through set().
  if (n < 64) for (let i = 0; i < n; i++) target[p + i] = b[i]
  else target.set(n === b.length ? b : b.subarray(0, n), p)
  return p + n
}
