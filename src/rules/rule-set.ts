/**
 * The rules that apply to one crawler: the reference's group logic, replayed
 * over the compact event list.
 *
 * As in the reference's RobotsMatcher: consecutive user-agent lines share a
 * group; only an allow/disallow line (in a group) closes the user-agent list;
 * a rule goes to the crawler's "specific" set when its group names one of the
 * crawler's tokens, else to the "global" set when its group is `*`, else
 * nowhere. If any group names the crawler, only the specific set counts.
 *
 * Every matcher engine (plain and automaton) works from a RuleSet, so all see
 * one interpretation of the groups; the reference engine
 * (match/reference-engine.ts) replays the events on its own on purpose, as
 * the independent oracle the tests compare against.
 */
import { EventCursor, EventType, type CompactRules } from './compact-rules.js'

/** Rules of one crawler. Rule `i` is `patterns[starts[i], ends[i])`; rules are in file order. */
export interface RuleSet {
  /** Number of (non-empty) rules. */
  count: number
  patterns: Uint8Array
  starts: Int32Array
  ends: Int32Array
  /** 1 for allow, 0 for disallow. */
  allow: Uint8Array
  /** Line number of each rule. */
  lines: Int32Array
  /** Priority of each rule: its escaped pattern's length (for an index.htm rule's directory form, that form's length). */
  priority: Int32Array
  /** First line of an empty `Allow:` in the set (0 if none): the reference reports it as the matching line when nothing else matched. */
  emptyAllowLine: number
  /** First line of an empty `Disallow:` in the set (0 if none). */
  emptyDisallowLine: number
  /** True when a group named the crawler (the `*` groups are then ignored). */
  specific: boolean
}


/** Group slots per event (see {@link assignGroups}). */
export const GroupSlot = {
  /** The event's group does not apply to the crawler. */
  None: 0,
  /** The event is in a `*` group. */
  Global: 1,
  /** The event is in a group that names the crawler. */
  Specific: 2,
} as const

/**
 * Which directives close a user-agent list (the next user-agent line starts
 * a new group), as a bit set over {@link EventType}s.
 */
export const ListClosers = {
  /**
   * For allow/disallow rules, as in the reference: only a rule closes the
   * list; sitemap, unknown and extension lines do not.
   */
  Rules: (1 << EventType.Allow) | (1 << EventType.Disallow),
  /**
   * For extensions (crawl-delay, request-rate, visit-time, host), which the
   * reference ignores, so that their groups are ours to define: any
   * directive, rule or extension, closes the list. An extension thus belongs
   * to the run of user-agent lines right above it:
   *
   *     User-agent: *
   *     Crawl-delay: 5
   *
   *     User-agent: slowbot
   *     Crawl-delay: 20
   *
   * gives `*` 5 and `slowbot` 20, as the author meant (and as Python's
   * urllib.robotparser reads it), instead of handing slowbot's 20 to every
   * crawler through the still-open `*` list.
   */
  AnyDirective: (1 << EventType.Allow) | (1 << EventType.Disallow) | (1 << EventType.Extension),
} as const

/**
 * The group replay: a {@link GroupSlot} per event for a crawler answering to
 * `tokens` (the user-agent lines themselves get None), plus "some group
 * names the crawler" (then only Specific counts, as in the reference).
 * Consecutive user-agent lines share a group; a directive in `closers`
 * closes the list, and the next user-agent line starts a new group.
 */
export function assignGroups(
  rules: CompactRules,
  tokens: readonly string[],
  closers: number = ListClosers.Rules,
): { slots: Uint8Array; specific: boolean } {
  const hit = rules.nameMatches(tokens)
  const slots = new Uint8Array(rules.eventCount)
  let global = false
  let specific = false
  let everSpecific = false
  let closed = false
  for (const c = new EventCursor(rules); c.next(); ) {
    const type = c.type
    if (type === EventType.UaGlobal || type === EventType.UaName) {
      if (closed) global = specific = closed = false
      if (type === EventType.UaGlobal) global = true
      else if (hit[c.a]) everSpecific = specific = true
      continue
    }
    if ((closers >> type) & 1) closed = true
    slots[c.index] = specific ? GroupSlot.Specific : global ? GroupSlot.Global : GroupSlot.None
  }
  return { slots, specific: everSpecific }
}

/** `/index.htm...` as the last segment: the reference also allows the directory, exactly. */
export function indexDirectoryPattern(p: Uint8Array): Uint8Array | null {
  const slash = p.lastIndexOf(47)
  if (slash < 0) return null
  const tail = '/index.htm'
  if (p.length - slash < tail.length) return null
  for (let k = 0; k < tail.length; k++) if (p[slash + k] !== tail.charCodeAt(k)) return null
  const out = new Uint8Array(slash + 2)
  out.set(p.subarray(0, slash + 1))
  out[slash + 1] = 36 // '$'
  return out
}

/** Numbers per rule in selectRules' build-time `meta` list: allow, line, priority. */
const META_WIDTH = 3

/** Builds the RuleSet of a crawler answering to `tokens`. */
export function selectRules(rules: CompactRules, tokens: readonly string[]): RuleSet {
  const { slots, specific } = assignGroups(rules, tokens, ListClosers.Rules)
  const want = specific ? GroupSlot.Specific : GroupSlot.Global
  const chunks: Uint8Array[] = []
  const meta: number[] = [] // per rule, META_WIDTH numbers: allow, line, priority
  let emptyAllowLine = 0
  let emptyDisallowLine = 0
  for (const c = new EventCursor(rules); c.next(); ) {
    if (slots[c.index] !== want) continue
    const type = c.type
    if (type !== EventType.Allow && type !== EventType.Disallow) continue
    const line = c.line
    const p = c.pattern(rules)
    const allow = type === EventType.Allow ? 1 : 0
    if (p.length === 0) {
      if (allow && !emptyAllowLine) emptyAllowLine = line
      if (!allow && !emptyDisallowLine) emptyDisallowLine = line
      continue
    }
    chunks.push(p)
    meta.push(allow, line, p.length)
    if (allow) {
      const dir = indexDirectoryPattern(p)
      if (dir) {
        chunks.push(dir)
        meta.push(1, line, dir.length)
      }
    }
  }
  const count = chunks.length
  let total = 0
  for (const c of chunks) total += c.length
  const set: RuleSet = {
    count,
    patterns: new Uint8Array(total),
    starts: new Int32Array(count),
    ends: new Int32Array(count),
    allow: new Uint8Array(count),
    lines: new Int32Array(count),
    priority: new Int32Array(count),
    emptyAllowLine,
    emptyDisallowLine,
    specific,
  }
  let at = 0
  for (let r = 0; r < count; r++) {
    set.patterns.set(chunks[r], at)
    set.starts[r] = at
    at += chunks[r].length
    set.ends[r] = at
    set.allow[r] = meta[r * META_WIDTH]
    set.lines[r] = meta[r * META_WIDTH + 1]
    set.priority[r] = meta[r * META_WIDTH + 2]
  }
  return set
}

/** Line the reference reports when no non-empty rule matched (0 if none). */
export function noMatchLine(set: RuleSet): number {
  // HigherPriorityMatch(disallow, allow): an empty Allow (priority 0) ties an
  // empty Disallow and wins; an empty Disallow beats "no match" (-1).
  if (set.emptyAllowLine) return set.emptyAllowLine
  return set.emptyDisallowLine
}
