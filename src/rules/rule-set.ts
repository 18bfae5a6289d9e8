/**
 * The rules that apply to one crawler ({@link selectRules}): the reference's
 * group logic, replayed over the compact event list ({@link GroupReplay}),
 * into a {@link RuleSet} in rank order. Every matcher engine (plain, direct,
 * automaton, thrash-proof) works from a RuleSet, so all see one reading of
 * the groups; the reference engine (match/reference-engine.ts) replays the
 * events on its own on purpose, as the independent oracle of the tests.
 */
import { grownInt32 } from './byte-buffer.js'
import { EventCursor, EventType, type CompactRules } from './compact-rules.js'
import { latin1 } from '../parse/escape.js'
import { SCRATCH_KEEP } from '../memory.js'

/**
 * The layout of a rule record: {@link RuleField.Width} ints per rule in
 * `RuleSet.records`, rule `r` at `r * RuleField.Width`:
 *
 * ```
 * records[r*W + Start]   first byte of the pattern in `RuleSet.bytes`
 * records[r*W + End]     end of the pattern's bytes, a final `$` excluded (RuleFlag.Anchored says it was there)
 * records[r*W + Line]    the rule's line in the robots.txt
 * records[r*W + Flags]   RuleFlag bits, and above them (flags >>> SecondByte.Shift) the path's
 *                        second byte the rule requires: a byte 0–255, SecondByte.Any, or SecondByte.Never
 * ```
 *
 * The priority is not stored: it is the pattern's length as written,
 * `End - Start` plus 1 for the `$` of an anchored rule (an index.htm
 * directory form's implied `$` included), see {@link rulePriority}.
 *
 * `const enum`s: the hot loops hold plain numbers (see match/automaton/state.ts).
 */
export const enum RuleField {
  Start = 0,
  End = 1,
  Line = 2,
  Flags = 3,
  /** Ints per record. */
  Width = 4,
}

/** The bits of a record's flags word (below {@link SecondByte.Shift}). */
export const enum RuleFlag {
  /** An `Allow:` rule (else `Disallow:`). */
  Allow = 1,
  /**
   * The path must end where the pattern ends: the pattern ended in `$`
   * (excluded from `[Start, End)`), or this is an index.htm directory form.
   */
  Anchored = 2,
  /** The pattern (its `$` aside) holds a `*`. */
  Star = 4,
  /**
   * The directory form of an `Allow: …/index.htm…` rule: `[Start, End)` is the
   * rule's own pattern up to its last `/`, and the `$` is implied (Anchored
   * is set). It shares its line with the rule it comes from.
   */
  IndexDirectory = 8,
  /** The RuleFlag bits. */
  Mask = 15,
}

/**
 * A quick test before a rule is tried on a path (which always starts with
 * `/`): the second byte the path must have, kept above the RuleFlag bits.
 */
export const enum SecondByte {
  /** `flags >>> Shift` is the byte (or Any, or Never). */
  Shift = 4,
  /** No constraint: the pattern starts with `*`, or `/*`, or is `/` alone. */
  Any = 256,
  /** The pattern cannot match any path: it starts with neither `/` nor `*`, or it is empty and anchored. */
  Never = 257,
}

/** The reference's priority of a rule from its record's end, start and flags. */
export function rulePriority(start: number, end: number, flags: number): number {
  return end - start + (flags & RuleFlag.Anchored ? 1 : 0)
}

/**
 * Rules of one crawler, in **rank order**: priority descending, then allow
 * before disallow, then the earlier line (an index.htm rule before its own
 * directory form, which is shorter). That is the reference's comparison
 * order, so the deciding rule of a URL is the first rule of the set that
 * matches it, and rule `a` beats rule `b` exactly when `a < b`.
 *
 * The pattern bytes are not copied: they stay in the parsed rules' buffer
 * (`bytes`), and one `Int32Array` holds a record per rule (`RuleField`).
 * Priority is the reference's: the escaped pattern's length in bytes, every
 * `*` and the `$` counted (for a directory form, that form's length).
 */
export class RuleSet {
  /** The buffer the patterns live in (shared with the parsed rules, not copied). */
  readonly bytes: Uint8Array
  /** `RuleField.Width` ints per rule, in rank order. */
  readonly records: Int32Array
  /** First line of an empty `Allow:` in the set (0 if none): the reference reports it as the matching line when nothing else matched. */
  readonly emptyAllowLine: number
  /** First line of an empty `Disallow:` in the set (0 if none). */
  readonly emptyDisallowLine: number
  /** True when a group named the crawler (the `*` groups are then ignored). */
  readonly specific: boolean

  /** Rule sets come from `selectRules` (`Robots.rulesFor`, a matcher's `rules`), which checks what this takes as given. */
  constructor(bytes: Uint8Array, records: Int32Array, emptyAllowLine: number, emptyDisallowLine: number, specific: boolean) {
    this.bytes = bytes
    this.records = records
    this.emptyAllowLine = emptyAllowLine
    this.emptyDisallowLine = emptyDisallowLine
    this.specific = specific
  }

  /** Number of (non-empty) rules, an index.htm rule's directory form counted as one more. */
  get count(): number {
    return this.records.length / RuleField.Width
  }

  /** First pattern byte of rule `r` in `bytes`. */
  start(r: number): number {
    return this.records[r * RuleField.Width + RuleField.Start]
  }

  /** End of rule `r`'s pattern bytes in `bytes` (a final `$` excluded). */
  end(r: number): number {
    return this.records[r * RuleField.Width + RuleField.End]
  }

  /** Line of rule `r`. */
  line(r: number): number {
    return this.records[r * RuleField.Width + RuleField.Line]
  }

  /** The `RuleFlag` bits of rule `r`. */
  flags(r: number): number {
    return this.records[r * RuleField.Width + RuleField.Flags] & RuleFlag.Mask
  }

  /** True for an allow rule. */
  allows(r: number): boolean {
    return (this.records[r * RuleField.Width + RuleField.Flags] & RuleFlag.Allow) !== 0
  }

  /** The reference's priority of rule `r`. */
  priority(r: number): number {
    const at = r * RuleField.Width
    return rulePriority(this.records[at + RuleField.Start], this.records[at + RuleField.End], this.records[at + RuleField.Flags])
  }

  /** True for the directory form of an index.htm rule. */
  isIndexDirectory(r: number): boolean {
    return (this.records[r * RuleField.Width + RuleField.Flags] & RuleFlag.IndexDirectory) !== 0
  }

  /** Rule `r`'s pattern as matched (escaped; ending in `$` when anchored). A new array. */
  pattern(r: number): Uint8Array {
    const s = this.start(r)
    const e = this.end(r)
    const anchored = (this.flags(r) & RuleFlag.Anchored) !== 0
    const out = new Uint8Array(e - s + (anchored ? 1 : 0))
    out.set(this.bytes.subarray(s, e))
    if (anchored) out[e - s] = DOLLAR
    return out
  }

  /** {@link pattern} as a string (one char per byte). */
  patternText(r: number): string {
    return latin1(this.pattern(r))
  }

  /** The rule indices in file order: by line, an index.htm rule right before its directory form. */
  fileOrder(): number[] {
    const order = Array.from({ length: this.count }, (_, r) => r)
    return order.sort((a, b) => this.line(a) - this.line(b) || Number(this.isIndexDirectory(a)) - Number(this.isIndexDirectory(b)))
  }
}

const DOLLAR = 36
const STAR = 42
const SLASH = 47


/** Group slots per event (see {@link GroupReplay}). */
export const enum GroupSlot {
  /** The event's group does not apply to the crawler. */
  None = 0,
  /** The event is in a `*` group. */
  Global = 1,
  /** The event is in a group that names the crawler. */
  Specific = 2,
}

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
 * The group replay, the one home of the reference's group logic: walks the
 * events and gives each directive (the user-agent lines themselves are
 * skipped) its {@link GroupSlot} for a crawler whose names are `hit`.
 * Consecutive user-agent lines share a group; a directive in `closers`
 * closes the list, and the next user-agent line starts a new group.
 * `specific` turns true once a group named the crawler (then only Specific
 * counts, as in the reference; known for sure at the end).
 *
 *     for (const g = new GroupReplay(rules, hit, closers); g.next(); ) use(g.cursor, g.slot)
 */
export class GroupReplay {
  /** The current event (the cursor over the event stream). */
  readonly cursor: EventCursor
  /** The current directive's slot. */
  slot: number = GroupSlot.None
  /** Some group so far named the crawler. */
  specific = false
  private readonly hit: Uint8Array
  private readonly closers: number
  private global = false
  private named = false
  private closed = false

  constructor(rules: CompactRules, hit: Uint8Array, closers: number) {
    this.cursor = new EventCursor(rules)
    this.hit = hit
    this.closers = closers
  }

  /** Moves to the next directive (not a user-agent line); false at the end. */
  next(): boolean {
    const c = this.cursor
    while (c.next()) {
      const type = c.type
      if (type === EventType.UaGlobal || type === EventType.UaName) {
        if (this.closed) this.global = this.named = this.closed = false
        if (type === EventType.UaGlobal) this.global = true
        else if (this.hit[c.a]) this.specific = this.named = true
        continue
      }
      if ((this.closers >> type) & 1) this.closed = true
      this.slot = this.named ? GroupSlot.Specific : this.global ? GroupSlot.Global : GroupSlot.None
      return true
    }
    return false
  }
}

/**
 * A {@link GroupSlot} per event for a crawler answering to `tokens` (the
 * user-agent lines themselves get None), plus "some group names the
 * crawler": {@link GroupReplay} into an array, for extensions.
 */
export function assignGroups(
  rules: CompactRules,
  tokens: readonly string[],
  closers: number = ListClosers.Rules,
): { slots: Uint8Array; specific: boolean } {
  const slots = new Uint8Array(rules.eventCount)
  const g = new GroupReplay(rules, rules.nameMatches(tokens), closers)
  while (g.next()) slots[g.cursor.index] = g.slot
  return { slots, specific: g.specific }
}

const INDEX_TAIL = '/index.htm'

/**
 * `…/index.htm…` as the last segment of `bytes[start, end)`: the reference
 * also allows the directory, exactly. Returns the end of the directory
 * (just past its last `/`), or -1 when the pattern is not such a rule.
 */
export function indexDirectoryEnd(bytes: Uint8Array, start: number, end: number): number {
  let slash = end - 1
  while (slash >= start && bytes[slash] !== SLASH) slash--
  if (slash < start || end - slash < INDEX_TAIL.length) return -1
  for (let k = 0; k < INDEX_TAIL.length; k++) if (bytes[slash + k] !== INDEX_TAIL.charCodeAt(k)) return -1
  return slash + 1
}

/** {@link indexDirectoryEnd} as a pattern: the directory plus `$` (a new array), or null. */
export function indexDirectoryPattern(p: Uint8Array): Uint8Array | null {
  const end = indexDirectoryEnd(p, 0, p.length)
  if (end < 0) return null
  const out = new Uint8Array(end + 1)
  out.set(p.subarray(0, end))
  out[end] = DOLLAR
  return out
}

/**
 * A growable list of rule records (build time), with the first empty
 * allow/disallow lines of its slot. selectRules reuses one; grown past
 * SCRATCH_KEEP ints for a big file, it is given back after the call
 * (memory.ts).
 */
class RecordList {
  records = new Int32Array(RECORD_LIST_START)
  length = 0
  emptyAllowLine = 0
  emptyDisallowLine = 0
  /** The replay that filled it found a group naming the crawler. */
  specific = false

  reset(): void {
    this.length = this.emptyAllowLine = this.emptyDisallowLine = 0
    this.specific = false
  }

  release(): void {
    if (this.records.length > SCRATCH_KEEP) this.records = new Int32Array(RECORD_LIST_START)
  }

  add(bytes: Uint8Array, start: number, end: number, line: number, flags: number): void {
    if (this.length + RuleField.Width > this.records.length) this.records = grownInt32(this.records)
    let second: number = SecondByte.Any
    if (end === start) {
      if (flags & RuleFlag.Anchored) second = SecondByte.Never
    } else if (bytes[start] !== STAR) {
      if (bytes[start] !== SLASH) second = SecondByte.Never
      else if (end - start > 1 && bytes[start + 1] !== STAR) second = bytes[start + 1]
    }
    const at = this.length
    this.records[at + RuleField.Start] = start
    this.records[at + RuleField.End] = end
    this.records[at + RuleField.Line] = line
    this.records[at + RuleField.Flags] = flags | (second << SecondByte.Shift)
    this.length = at + RuleField.Width
  }

  /** Adds the rule `bytes[a, b)` (non-empty), and its directory form for an index.htm allow rule. */
  addRule(bytes: Uint8Array, a: number, b: number, line: number, allow: boolean): void {
    let end = b
    let flags = allow ? RuleFlag.Allow : 0
    if (bytes[b - 1] === DOLLAR) {
      end--
      flags |= RuleFlag.Anchored
    }
    const star = firstStar(bytes, a, end)
    if (star < end) flags |= RuleFlag.Star
    this.add(bytes, a, end, line, flags)
    if (allow) {
      const dir = indexDirectoryEnd(bytes, a, b)
      // The directory keeps the rule's `*` only if one lies before its end.
      if (dir >= 0) this.add(bytes, a, dir, line, RuleFlag.Allow | RuleFlag.Anchored | RuleFlag.IndexDirectory | (star < dir ? RuleFlag.Star : 0))
    }
  }
}

/**
 * What selectRules knows of the `*`s in the buffer of the patterns being
 * selected: the first `*` at or after `starFrom` is at `starAt` (the
 * buffer's length: none). Patterns are read in file order, so after a
 * pattern without `*` the engine's native `indexOf` finds the next one once
 * for the run of patterns up to it; a pattern past the last `*` found is
 * scanned by hand. A pattern before `starFrom` (read again: a repeat) is
 * scanned by hand and leaves the memo where it was, so `starFrom` only moves
 * forward and no byte is searched twice by `indexOf`. Cleared for each
 * selection.
 */
let starFrom = 0
let starAt = -1

/** The first `*` of the pattern `bytes[a, end)`, or `end` when it has none (see {@link starAt}). */
function firstStar(bytes: Uint8Array, a: number, end: number): number {
  if (a >= starFrom && a <= starAt) return starAt < end ? starAt : end
  let k = a
  while (k < end && bytes[k] !== STAR) k++
  if (a < starFrom) return k
  starFrom = a
  if (k < end) return (starAt = k)
  starAt = bytes.indexOf(STAR, end)
  if (starAt < 0) starAt = bytes.length
  return end
}

/** Ints a RecordList starts with. */
const RECORD_LIST_START = RuleField.Width * 64

/** selectRules' list (reused). */
const LIST = new RecordList()

/** Sort keys of rankOrder (reused; a larger set gets its own). */
const sortKeys = new Float64Array(SCRATCH_KEEP / RuleField.Width)

/** Rules a packed sort key can index (see rankOrder). */
const PACKED_INDEX = 2 ** 21

/**
 * Rank keys (`priority * 2 + allow`) below which rankOrder sorts by
 * counting (one count per key, in a reused Int32Array); patterns are
 * rarely longer than a few hundred bytes.
 */
const COUNTING_KEYS = 4096
const keyCounts = new Int32Array(COUNTING_KEYS + 1)

/**
 * The records of `list` (file order) in rank order, in a new array of
 * their exact size: priority descending, allow before disallow, then file
 * order (the earlier line first). Each rule's key, `-(priority * 2 + allow)
 * * 2^21 + index`, is exact in a double and sorts in that order, so a
 * numeric sort of the keys (insertion sort for a handful, the engine's
 * typed-array sort beyond) needs no comparator; beyond a handful, when
 * every `priority * 2 + allow` is below COUNTING_KEYS, a stable counting
 * sort on it gives the same order in O(rules + keys) (the typed-array
 * sort it replaced: bench/history/tiers.md).
 */
function rankOrder(list: RecordList): Int32Array {
  const n = list.length / RuleField.Width
  const src = list.records
  const out = new Int32Array(list.length)
  if (n > 16) {
    let maxKey = 0
    for (let at = 0; at < list.length; at += RuleField.Width) {
      const flags = src[at + RuleField.Flags]
      const key = rulePriority(src[at + RuleField.Start], src[at + RuleField.End], flags) * 2 + (flags & RuleFlag.Allow)
      if (key > maxKey) maxKey = key
    }
    if (maxKey < COUNTING_KEYS) return rankOrderCounting(src, n, maxKey, out)
  }
  if (n >= PACKED_INDEX) return rankOrderLarge(list, out)
  const keys = n <= sortKeys.length ? sortKeys : new Float64Array(n)
  for (let r = 0; r < n; r++) {
    const at = r * RuleField.Width
    const flags = src[at + RuleField.Flags]
    const k = -(rulePriority(src[at + RuleField.Start], src[at + RuleField.End], flags) * 2 + (flags & RuleFlag.Allow)) * PACKED_INDEX + r
    if (n <= 16) {
      let j = r - 1
      while (j >= 0 && keys[j] > k) {
        keys[j + 1] = keys[j]
        j--
      }
      keys[j + 1] = k
    } else keys[r] = k
  }
  if (n > 16) keys.subarray(0, n).sort()
  for (let i = 0; i < n; i++) {
    const k = keys[i]
    const from = (k - Math.floor(k / PACKED_INDEX) * PACKED_INDEX) * RuleField.Width
    const to = i * RuleField.Width
    out[to + RuleField.Start] = src[from + RuleField.Start]
    out[to + RuleField.End] = src[from + RuleField.End]
    out[to + RuleField.Line] = src[from + RuleField.Line]
    out[to + RuleField.Flags] = src[from + RuleField.Flags]
  }
  return out
}

/**
 * rankOrder by a stable counting sort on `priority * 2 + allow` (all below
 * `maxKey + 1` ≤ COUNTING_KEYS), highest key first: rules of one key keep
 * their file order, as the packed keys' index part orders them.
 */
function rankOrderCounting(src: Int32Array, n: number, maxKey: number, out: Int32Array): Int32Array {
  const counts = keyCounts
  counts.fill(0, 0, maxKey + 2)
  const keyOf = (at: number): number => {
    const flags = src[at + RuleField.Flags]
    return rulePriority(src[at + RuleField.Start], src[at + RuleField.End], flags) * 2 + (flags & RuleFlag.Allow)
  }
  // counts[maxKey - key + 1]: rules per key, highest key first; then the start of each key's run.
  for (let r = 0; r < n; r++) counts[maxKey - keyOf(r * RuleField.Width) + 1]++
  for (let k = 1; k <= maxKey + 1; k++) counts[k] += counts[k - 1]
  for (let r = 0; r < n; r++) {
    const from = r * RuleField.Width
    const to = counts[maxKey - keyOf(from)]++ * RuleField.Width
    out[to + RuleField.Start] = src[from + RuleField.Start]
    out[to + RuleField.End] = src[from + RuleField.End]
    out[to + RuleField.Line] = src[from + RuleField.Line]
    out[to + RuleField.Flags] = src[from + RuleField.Flags]
  }
  return out
}

/** rankOrder for more rules than a packed key indexes (a raised limit): a stable sort by comparator. */
function rankOrderLarge(list: RecordList, out: Int32Array): Int32Array {
  const src = list.records
  const n = list.length / RuleField.Width
  const key = (r: number): number => {
    const flags = src[r * RuleField.Width + RuleField.Flags]
    return rulePriority(src[r * RuleField.Width + RuleField.Start], src[r * RuleField.Width + RuleField.End], flags) * 2 + (flags & RuleFlag.Allow)
  }
  const order = Array.from({ length: n }, (_, r) => r).sort((a, b) => key(b) - key(a)) // stable
  order.forEach((r, i) => out.set(src.subarray(r * RuleField.Width, (r + 1) * RuleField.Width), i * RuleField.Width))
  return out
}

/**
 * Builds the RuleSet of a crawler answering to `tokens`. As in the
 * reference's RobotsMatcher: consecutive user-agent lines share a group; only
 * an allow/disallow line (in a group) closes the user-agent list; a rule goes
 * to the crawler's "specific" set when its group names one of the crawler's
 * tokens, else to the "global" set when its group is `*`, else nowhere. If
 * any group names the crawler, only the specific set counts.
 */
export function selectRules(rules: CompactRules, tokens: readonly string[]): RuleSet {
  const hit = rules.nameMatches(tokens)
  // A name of the file is one of the crawler's: some group names it (each name comes from a user-agent line), so only its groups count.
  const specific = hit.indexOf(1) >= 0
  const list = LIST
  collect(rules, hit, specific ? GroupSlot.Specific : GroupSlot.Global, list)
  // A form whose names table holds a name no line uses (not one the builder writes): the replay decides.
  if (list.specific !== specific) collect(rules, hit, list.specific ? GroupSlot.Specific : GroupSlot.Global, list)
  const set = new RuleSet(rules.patternBytes, list.length ? rankOrder(list) : NO_RECORDS, list.emptyAllowLine, list.emptyDisallowLine, list.specific)
  list.release()
  return set
}

/** Fills `list` with the rules of one slot (GroupSlot.Global or Specific) of a crawler whose names are `hit`, in file order; `list.specific` says whether a group named it. */
function collect(rules: CompactRules, hit: Uint8Array, slot: number, list: RecordList): void {
  const bytes = rules.patternBytes
  list.reset()
  starFrom = 0
  starAt = -1
  const g = new GroupReplay(rules, hit, ListClosers.Rules)
  while (g.next()) {
    const c = g.cursor
    const type = c.type
    if (g.slot !== slot || (type !== EventType.Allow && type !== EventType.Disallow)) continue
    const allow = type === EventType.Allow
    if (c.b === c.a) {
      if (allow && !list.emptyAllowLine) list.emptyAllowLine = c.line
      if (!allow && !list.emptyDisallowLine) list.emptyDisallowLine = c.line
      continue
    }
    list.addRule(bytes, c.a, c.b, c.line, allow)
  }
  list.specific = g.specific
}

/** The records of a set without rules (shared: an empty array holds nothing to change). */
const NO_RECORDS = new Int32Array(0)

/** Line the reference reports when no non-empty rule matched (0 if none). */
export function noMatchLine(set: RuleSet): number {
  // HigherPriorityMatch(disallow, allow): an empty Allow (priority 0) ties an
  // empty Disallow and wins; an empty Disallow beats "no match" (-1).
  if (set.emptyAllowLine) return set.emptyAllowLine
  return set.emptyDisallowLine
}
