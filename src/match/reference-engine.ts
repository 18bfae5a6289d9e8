/**
 * The reference engine: a direct port of google/robotstxt's RobotsMatcher and
 * its LongestMatchRobotsMatchStrategy, replayed over the compact event list
 * for one path. Slow (every rule against the path) and simple on purpose: it
 * is the oracle the other engines are tested against (test/differential,
 * test/property, the budget tests). `AgentMatcher.explain` does not use it:
 * every engine reports its deciding rule itself.
 */
import { CompactRules, EventCursor, EventType } from '../rules/compact-rules.js'
import { latin1 } from '../parse/escape.js'
import { asciiLower } from '../parse/product-token.js'
import { indexDirectoryPattern } from '../rules/rule-set.js'
import { asBytes, describeValue, isStrings, RobotsInputError } from '../errors.js'
import { SCRATCH_KEEP } from '../memory.js'

/** The reference's Matches(): does `pattern` (with `*` and a final `$`) match a prefix of `path`? */
export function patternMatches(path: Uint8Array, pattern: Uint8Array): boolean {
  if (asBytes(path) === undefined || asBytes(pattern) === undefined) {
    throw new RobotsInputError(`patternMatches takes two Uint8Arrays, got ${describeValue(path)} and ${describeValue(pattern)}`)
  }
  const m = pattern.length
  const anchored = m > 0 && pattern[m - 1] === 36
  return patternRangeMatches(path, pattern, 0, anchored ? m - 1 : m, anchored)
}

/** Positions of {@link patternRangeMatches}: reused, and given back after a long path (see {@link SCRATCH_KEEP}). */
let positions = new Int32Array(SCRATCH_KEEP)

/**
 * The reference's Matches() for the pattern `bytes[start, end)`, followed by
 * a final `$` when `anchored` (a `$` inside the range is a literal byte):
 * the position-set algorithm of robots.cc, as written there.
 */
export function patternRangeMatches(path: Uint8Array, bytes: Uint8Array, start: number, end: number, anchored: boolean): boolean {
  const pathlen = path.length
  // A long path gets positions of its own, dropped after the call (SCRATCH_KEEP, memory.ts).
  const pos = pathlen < positions.length ? positions : new Int32Array(pathlen + 1)
  pos[0] = 0
  let numpos = 1
  let matched = true
  for (let k = start; k < end; k++) {
    const c = bytes[k]
    if (c === 42) {
      numpos = pathlen - pos[0] + 1
      for (let i = 1; i < numpos; i++) pos[i] = pos[i - 1] + 1
    } else {
      let next = 0
      for (let i = 0; i < numpos; i++) {
        if (pos[i] < pathlen && path[pos[i]] === c) pos[next++] = pos[i] + 1
      }
      numpos = next
      if (numpos === 0) {
        matched = false
        break
      }
    }
  }
  if (matched && anchored) matched = pos[numpos - 1] === pathlen
  return matched
}

/** The decision for one path: verdict and the reference's matching line (0 when none). */
export interface ReferenceDecision {
  allowed: boolean
  line: number
  kind: 'allow' | 'disallow' | null
  pattern: string | null
}

class Match {
  priority = -1
  line = 0
  pattern: Uint8Array | null = null
  set(priority: number, line: number, pattern: Uint8Array): void {
    this.priority = priority
    this.line = line
    this.pattern = pattern
  }
}

/**
 * Decides `path` (the bytes of `matchPath`: GetPathParamsQuery, ended at `#`
 * or NUL) for a crawler answering to `tokens`, exactly as the reference does.
 *
 * Kept apart on purpose: this replays the user-agent groups itself, as the
 * reference's RobotsMatcher does line by line, instead of sharing
 * rules/rule-set.ts's `assignGroups` and the RuleSet with the engines under
 * test. A bug in the shared replay would then show as a disagreement, not
 * hide in both sides of the comparison.
 */
export function referenceDecide(rules: CompactRules, tokens: readonly string[], path: Uint8Array): ReferenceDecision {
  if (!(rules instanceof CompactRules)) {
    throw new RobotsInputError(`referenceDecide: rules must be a Robots' rules (compactRulesOf(robots) from robots-automaton/internals), got ${describeValue(rules)}`)
  }
  if (!isStrings(tokens)) {
    throw new RobotsInputError(`referenceDecide: tokens must be an array of strings, got ${describeValue(tokens)}`)
  }
  if (asBytes(path) === undefined) throw new RobotsInputError(`referenceDecide: path must be a Uint8Array, got ${describeValue(path)}`)
  const lower = new Set(tokens.map(asciiLower))
  const allowS = new Match()
  const allowG = new Match()
  const disallowS = new Match()
  const disallowG = new Match()
  let seenGlobal = false
  let seenSpecific = false
  let everSpecific = false
  let seenSeparator = false

  const handleAllow = (line: number, value: Uint8Array): void => {
    if (patternMatches(path, value)) {
      const target = seenSpecific ? allowS : allowG
      if (target.priority < value.length) target.set(value.length, line, value)
    } else {
      const dir = indexDirectoryPattern(value)
      if (dir) handleAllow(line, dir)
    }
  }

  const names = rules.names
  for (const c = new EventCursor(rules); c.next(); ) {
    const type = c.type
    const line = c.line
    if (type === EventType.UaGlobal || type === EventType.UaName) {
      if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false
      if (type === EventType.UaGlobal) seenGlobal = true
      else if (lower.has(names[c.a])) everSpecific = seenSpecific = true
      continue
    }
    if (type === EventType.Extension) continue
    if (!seenGlobal && !seenSpecific) continue
    seenSeparator = true
    const value = c.pattern(rules)
    if (type === EventType.Allow) {
      handleAllow(line, value)
    } else if (patternMatches(path, value)) {
      const target = seenSpecific ? disallowS : disallowG
      if (target.priority < value.length) target.set(value.length, line, value)
    }
  }

  let disallowed: boolean
  if (allowS.priority > 0 || disallowS.priority > 0) disallowed = disallowS.priority > allowS.priority
  else if (everSpecific) disallowed = false
  else if (disallowG.priority > 0 || allowG.priority > 0) disallowed = disallowG.priority > allowG.priority
  else disallowed = false

  const [d, a] = everSpecific ? [disallowS, allowS] : [disallowG, allowG]
  const winner = d.priority > a.priority ? d : a
  const kind = winner.pattern === null ? null : winner === d ? 'disallow' : 'allow'
  return {
    allowed: !disallowed,
    line: winner.line,
    kind,
    pattern: winner.pattern === null ? null : latin1(winner.pattern),
  }
}
