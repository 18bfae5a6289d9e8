/**
 * The compact form of one parsed robots.txt: what `Robots` keeps after the
 * parse, and what `toBytes` writes.
 *
 * Layout:
 * - `patterns`: every allow/disallow pattern, escaped, concatenated in file
 *   order.
 * - `events`: one record per directive line, in file order, as a byte stream
 *   of unsigned LEB128 varints (2–3 bytes a record on real files, instead of
 *   an object per rule):
 *     header = (line - previous event's line) * 8 + type
 *   then, by `type` ({@link EventType}):
 *   - UaGlobal (`User-agent: *`): nothing
 *   - UaName: the index into `names` (the lowercased `[A-Za-z_-]` prefix)
 *   - Allow / Disallow: the pattern's length; it starts where the previous
 *     rule's pattern ended
 *   - Extension: the index into `extensions`
 *   `eventCount` records are in the stream. Replaying it gives the reference's
 *   group logic for any set of product tokens: it is all a crawler's matcher
 *   needs. {@link EventCursor} reads it.
 */
import type { ExtensionValue } from './extensions.js'
import { RobotsFormatError } from '../errors.js'

/**
 * An event's header is `lineDelta * HEADER_TYPES + type`: the type in the
 * low three bits, the line delta above (it may pass 2^31 on a foreign
 * buffer, hence multiplication and division, not shifts).
 */
const HEADER_TYPES = 8

/** Event types. */
export const EventType = {
  UaGlobal: 0,
  UaName: 1,
  Allow: 2,
  Disallow: 3,
  Extension: 4,
} as const

/** An extension directive's value, with its kind (index into EXTENSION_KEYS). */
export interface ExtensionEntry {
  kind: number
  value: ExtensionValue
}

/** The parsed, compact rules of one robots.txt. */
export interface CompactRules {
  patterns: Uint8Array
  events: Uint8Array
  eventCount: number
  names: string[]
  extensions: ExtensionEntry[]
}

/**
 * Reads the event stream: `while (c.next()) use(c.type, c.line, c.a, c.b)`,
 * where `a` is the name or extension index, or (with `b`) the pattern's start
 * and end in `patterns`. `index` counts events from 0.
 */
export class EventCursor {
  type = 0
  line = 0
  a = 0
  b = 0
  index = -1
  private at = 0
  private patternEnd = 0
  private readonly events: Uint8Array

  constructor(rules: CompactRules) {
    this.events = rules.events
  }

  /** Moves to the next event; false at the end. A stream cut short or corrupt is a RobotsFormatError (ERR_FORMAT). */
  next(): boolean {
    if (this.at >= this.events.length) return false
    const header = this.varint()
    this.type = header % HEADER_TYPES
    this.line += Math.floor(header / HEADER_TYPES)
    this.index++
    if (this.type === EventType.Allow || this.type === EventType.Disallow) {
      this.a = this.patternEnd
      this.patternEnd += this.varint()
      this.b = this.patternEnd
    } else if (this.type !== EventType.UaGlobal) {
      this.a = this.varint()
      this.b = 0
    } else {
      this.a = this.b = 0
    }
    return true
  }

  /** The pattern bytes of the current rule event. */
  pattern(rules: CompactRules): Uint8Array {
    return rules.patterns.subarray(this.a, this.b)
  }

  private varint(): number {
    const ev = this.events
    let value = 0
    let scale = 1
    for (;;) {
      if (this.at >= ev.length) throw new RobotsFormatError('ERR_FORMAT', 'truncated event stream')
      const byte = ev[this.at++]
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      scale *= 128
      if (scale > 2 ** 49) throw new RobotsFormatError('ERR_FORMAT', 'varint too long in event stream')
    }
  }
}

/** Appends events as varints (the builder's side of {@link EventCursor}). */
export class EventWriter {
  bytes = new Uint8Array(64)
  length = 0
  count = 0
  private lastLine = 0

  /** Adds one event; `value` is the name/extension index or the pattern length (unused for UaGlobal). */
  add(type: number, line: number, value: number): void {
    this.varint((line - this.lastLine) * HEADER_TYPES + type)
    this.lastLine = line
    if (type !== EventType.UaGlobal) this.varint(value)
    this.count++
  }

  private varint(v: number): void {
    if (this.length + 8 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2)
      grown.set(this.bytes)
      this.bytes = grown
    }
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 128) | 0x80
      v = Math.floor(v / 128)
    }
    this.bytes[this.length++] = v
  }
}
