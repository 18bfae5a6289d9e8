/**
 * The compact form of one parsed robots.txt: what `Robots` keeps after the
 * parse, and what `toBytes` writes.
 *
 * Layout:
 * - `patterns`: every allow/disallow pattern, escaped, concatenated.
 * - `events`: Int32Array, 4 integers per directive line, in file order:
 *   `[type, line, a, b]` with `type` one of {@link EventType}:
 *   - UaGlobal (`User-agent: *`): a = b = 0
 *   - UaName: a = index into `names` (the lowercased `[A-Za-z_-]` prefix)
 *   - Allow / Disallow: a, b = start and end of the pattern in `patterns`
 *   - Extension: a = index into `extensions`
 *   The list is all a crawler's matcher needs: replaying it gives the
 *   reference's group logic for any set of product tokens.
 */
import type { ExtensionValue } from './group-extensions.js'

/** Event types of {@link CompactRules.events}. */
export const EventType = {
  UaGlobal: 0,
  UaName: 1,
  Allow: 2,
  Disallow: 3,
  Extension: 4,
} as const

/** Ints per event. */
export const EVENT_STRIDE = 4

/** An extension directive's value, with its kind (index into EXTENSION_KEYS). */
export interface ExtensionEntry {
  kind: number
  value: ExtensionValue
}

/** The parsed, compact rules of one robots.txt. */
export interface CompactRules {
  patterns: Uint8Array
  events: Int32Array
  names: string[]
  extensions: ExtensionEntry[]
}
