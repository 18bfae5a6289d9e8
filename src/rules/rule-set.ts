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
 * Every matcher engine (reference and automaton) works from a RuleSet or from
 * the same replay, so both see one interpretation of the groups.
 */
import { EventCursor, EventType, type CompactRules } from './compact-rules.js'
import { asciiLower } from '../parse/product-token.js'

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

/** Which name indices equal one of the tokens (ASCII case-insensitive, whole token). */
function matchingNames(rules: CompactRules, tokens: readonly string[]): Uint8Array {
  const lower = new Set(tokens.map(asciiLower))
  const hit = new Uint8Array(rules.names.length)
  for (let i = 0; i < rules.names.length; i++) if (lower.has(rules.names[i])) hit[i] = 1
  return hit
}

/** Group slot per event: 2 = specific, 1 = global, 0 = not for this crawler; plus "ever seen specific". */
export function assignGroups(rules: CompactRules, tokens: readonly string[]): { slots: Uint8Array; specific: boolean } {
  const hit = matchingNames(rules, tokens)
  const slots = new Uint8Array(rules.eventCount)
  let seenGlobal = false
  let seenSpecific = false
  let everSpecific = false
  let seenSeparator = false
  for (const c = new EventCursor(rules); c.next(); ) {
    const type = c.type
    if (type === EventType.UaGlobal || type === EventType.UaName) {
      if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false
      if (type === EventType.UaGlobal) seenGlobal = true
      else if (hit[c.a]) everSpecific = seenSpecific = true
      continue
    }
    if (!seenGlobal && !seenSpecific) continue
    if (type !== EventType.Extension) seenSeparator = true
    slots[c.index] = seenSpecific ? 2 : 1
  }
  return { slots, specific: everSpecific }
}

/**
 * Group slot per extension event (crawl-delay, request-rate, visit-time,
 * host): 2 = the crawler's own group, 1 = a `*` group, 0 = neither; plus
 * "some group names the crawler" (then only slot 2 counts, as for rules).
 *
 * Rules follow the reference, where only allow/disallow close a user-agent
 * list. The reference ignores extensions, so their groups are ours to define:
 * an extension belongs to the run of user-agent lines right above it, and any
 * directive (rule or extension) ends that run. So
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
export function assignExtensionGroups(rules: CompactRules, tokens: readonly string[]): { slots: Uint8Array; specific: boolean } {
  const hit = matchingNames(rules, tokens)
  const slots = new Uint8Array(rules.eventCount)
  let global = false
  let specific = false
  let everSpecific = false
  let afterDirective = false
  for (const c = new EventCursor(rules); c.next(); ) {
    const type = c.type
    if (type === EventType.UaGlobal || type === EventType.UaName) {
      if (afterDirective) global = specific = afterDirective = false
      if (type === EventType.UaGlobal) global = true
      else if (hit[c.a]) everSpecific = specific = true
      continue
    }
    afterDirective = true
    if (type === EventType.Extension) slots[c.index] = specific ? 2 : global ? 1 : 0
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

/** Builds the RuleSet of a crawler answering to `tokens`. */
export function selectRules(rules: CompactRules, tokens: readonly string[]): RuleSet {
  const { slots, specific } = assignGroups(rules, tokens)
  const want = specific ? 2 : 1
  const chunks: Uint8Array[] = []
  const meta: number[] = [] // allow, line, priority per rule
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
    set.allow[r] = meta[r * 3]
    set.lines[r] = meta[r * 3 + 1]
    set.priority[r] = meta[r * 3 + 2]
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
