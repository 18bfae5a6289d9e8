/**
 * The RFC 9309 oracle of `compare`: the reference's matcher (robots.cc's
 * RobotsMatcher, replayed over the lines of one parse as the reference does)
 * with the differences of {@link RFC_DIFFERENCES} applied, and nothing else.
 * Where RFC 9309's text leaves a question open, its answer is the
 * reference's; where the text decides otherwise, it follows the text. With
 * no difference applied it gives the reference's answers (the tests check it
 * on every case set). docs/semantics.md quotes the RFC for each difference.
 */
import { patternMatches } from '../internals.js'
import { pathOf } from '../index.js'
import { agentNamesOf, asciiLower, LineKind, type AgentAnalysis, type AgentNames, type BodyAnalysis } from './analysis.js'
import type { Expected } from './case.js'

/** The differences between the reference's answers and RFC 9309's text that the RFC oracle applies. */
export type RfcDifferenceId = 'percent-unreserved' | 'non-ascii-uri' | 'special-characters' | 'index-html' | 'robots-txt-allowed'

/** One difference: its id, the RFC's section and words, and what the reference does instead. */
export interface RfcDifference {
  readonly id: RfcDifferenceId
  readonly section: string
  /** The RFC's words that decide it. */
  readonly rfc: string
  /** What the reference does. */
  readonly reference: string
}

/** Every difference the RFC oracle applies (docs/semantics.md lists them with the same words). */
export const RFC_DIFFERENCES: readonly RfcDifference[] = [
  {
    id: 'percent-unreserved',
    section: '2.2.2',
    rfc: 'If a percent-encoded ASCII octet is encountered in the URI, it MUST be unencoded prior to comparison, unless it is a reserved character in the URI as defined by RFC 3986 or the character is outside the unreserved character range.',
    reference: 'matches the URL as given: /foo/bar/%62%61%7A does not match a rule /foo/bar/baz (and a rule written /foo/bar/%62%61%7A does not match /foo/bar/baz)',
  },
  {
    id: 'non-ascii-uri',
    section: '2.2.2',
    rfc: 'Octets in the URI and robots.txt paths outside the range of the ASCII coded character set, and those in the reserved range defined by RFC 3986, MUST be percent-encoded as defined by RFC 3986 prior to comparison.',
    reference: 'percent-encodes the octets of the rules only: a URL holding /foo/bar/ツ unencoded does not match a rule /foo/bar/ツ',
  },
  {
    id: 'special-characters',
    section: '2.2.3',
    rfc: 'If crawlers match special characters verbatim in the URI, crawlers SHOULD use "%" encoding. (Example: the pattern /path/file-with-a-%2A.html matches https://www.example.com/path/file-with-a-*.html, and /path/foo-%24 matches https://www.example.com/path/foo-$.)',
    reference: 'compares %2A and %24 in a rule with the URL byte for byte: they never match a * or $ of the URL',
  },
  {
    id: 'index-html',
    section: '2.2.2',
    rfc: 'The match evaluates positively if and only if the end of the path from the rule is reached before a difference in octets is encountered.',
    reference: 'also reads Allow: /dir/index.htm… as allowing /dir/ exactly (google/robotstxt-spec-test marks it GOOGLE_SPECIFIC)',
  },
  {
    id: 'robots-txt-allowed',
    section: '2.2.2',
    rfc: 'The /robots.txt URI is implicitly allowed.',
    reference: 'judges /robots.txt by the rules like any path: Disallow: / disallows it',
  },
]

/** Every difference, applied by default. */
export const ALL_RFC_DIFFERENCES: ReadonlySet<RfcDifferenceId> = new Set(RFC_DIFFERENCES.map((d) => d.id))

/** One rule that applies to the crawler, as written (escaped) and as the RFC compares it. */
interface RfcRule {
  readonly line: number
  readonly allow: boolean
  /** The pattern as the reference matches it (escaped). */
  readonly pattern: Uint8Array
  /** The pattern as RFC 9309 compares it with every difference applied (made once). */
  readonly compared: Uint8Array
}

/** The rules of a body for one crawler, replayed as the reference's matcher groups them. */
export interface RfcRules {
  /** The rules of the groups naming the crawler when some group does, else those of the `*` groups, in file order. */
  readonly rules: readonly RfcRule[]
}

const cache = new WeakMap<AgentAnalysis, RfcRules>()

/**
 * The rules that apply to a crawler answering to `view.tokens`, as the
 * reference's matcher sees them line by line: a user-agent line after a rule
 * starts a new group; rules before any user-agent line are ignored; a rule
 * counts for the crawler when its group names it (specific) or is `*`
 * (global); the global ones are used only when no group names the crawler.
 */
export function rfcRules(body: BodyAnalysis, view: AgentAnalysis): RfcRules {
  let r = cache.get(view)
  if (r !== undefined) return r
  const lower = new Set(view.tokens.map(asciiLower))
  const names = agentNamesOf(body)
  // The rules depend on the tokens only through the user-agent lines they name: crawlers naming the same lines share them.
  let key = ''
  for (let at = 0; at < names.length; at++) if (!body.agentLines[at].global && lower.has(names[at].name)) key += `${at},`
  let kept = bySelection.get(body)
  if (kept === undefined) bySelection.set(body, (kept = new Map()))
  r = kept.get(key)
  if (r === undefined) {
    r = replay(body, lower, names)
    if (kept.size >= KEPT_SELECTIONS) kept.delete(kept.keys().next().value!)
    kept.set(key, r)
  }
  cache.set(view, r)
  return r
}

/** Selections whose rules are kept per body (the oldest dropped first). */
const KEPT_SELECTIONS = 256
const bySelection = new WeakMap<BodyAnalysis, Map<string, RfcRules>>()

/** The replay of rfcRules for the lowercased tokens `lower`. */
function replay(body: BodyAnalysis, lower: ReadonlySet<string>, names: readonly AgentNames[]): RfcRules {
  const specific: RfcRule[] = []
  const global: RfcRule[] = []
  let seenGlobal = false
  let seenSpecific = false
  let everSpecific = false
  let seenSeparator = false
  let agentAt = 0
  for (const l of body.lines) {
    if (l.kind === LineKind.UserAgent) {
      if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false
      const at = agentAt++
      if (body.agentLines[at].global) seenGlobal = true
      else if (lower.has(names[at].name)) everSpecific = seenSpecific = true
      continue
    }
    if (l.kind !== LineKind.Allow && l.kind !== LineKind.Disallow) continue
    if (!seenGlobal && !seenSpecific) continue
    seenSeparator = true
    const pattern = new Uint8Array(l.value)
    const rule = { line: l.line, allow: l.kind === LineKind.Allow, pattern, compared: rfcBytes(pattern, false, ALL_RFC_DIFFERENCES) }
    ;(seenSpecific ? specific : global).push(rule)
  }
  return { rules: everSpecific ? specific : global }
}

const UNRESERVED = new Uint8Array(256)
for (let c = 0x30; c <= 0x39; c++) UNRESERVED[c] = 1
for (let c = 0x41; c <= 0x5a; c++) UNRESERVED[c] = UNRESERVED[c + 32] = 1
for (const c of '-._~') UNRESERVED[c.charCodeAt(0)] = 1

const HEX = '0123456789ABCDEF'

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 32
  return l >= 97 && l <= 102 ? l - 87 : -1
}

/** The octet a valid `%XX` at `i` stands for, or -1. */
function escapedOctet(b: Uint8Array, i: number): number {
  if (b[i] !== 37 || i + 2 >= b.length) return -1
  const h = hexValue(b[i + 1])
  const l = hexValue(b[i + 2])
  return h < 0 || l < 0 ? -1 : h * 16 + l
}

/**
 * Bytes as the RFC compares them. `uri`: the URI's path (octets ≥ 0x80
 * encoded; `*` and `$` encoded, so that a rule's `%2A` and `%24` match
 * them); otherwise a rule's pattern (a `$` that is not last encoded, as it
 * is no anchor). Both: `%XX` of an unreserved octet decoded.
 */
function rfcBytes(b: Uint8Array, uri: boolean, d: ReadonlySet<RfcDifferenceId>): Uint8Array {
  const decode = d.has('percent-unreserved')
  const wide = uri && d.has('non-ascii-uri')
  const special = d.has('special-characters')
  // Most paths and patterns need no change: they are returned as they are.
  let first = -1
  for (let i = 0; i < b.length; i++) {
    const c = b[i]
    if ((c === 37 && decode) || (c >= 0x80 && wide) || (special && (c === 36 || (uri && c === 42)))) {
      first = i
      break
    }
  }
  if (first < 0) return b
  const out: number[] = Array.from(b.subarray(0, first))
  let changed = false
  for (let i = first; i < b.length; i++) {
    const c = b[i]
    if (c === 37 && decode) {
      const o = escapedOctet(b, i)
      if (o >= 0 && UNRESERVED[o]) {
        out.push(o)
        i += 2
        changed = true
        continue
      }
    }
    if ((c >= 0x80 && wide) || (special && ((uri && (c === 42 || c === 36)) || (!uri && c === 36 && i < b.length - 1)))) {
      out.push(37, HEX.charCodeAt(c >> 4), HEX.charCodeAt(c & 15))
      changed = true
      continue
    }
    out.push(c)
  }
  return changed ? Uint8Array.from(out) : b
}

const INDEX_TAIL = '/index.htm'

/** The reference's directory form of `Allow: /dir/index.htm…`: `/dir/$`, or null. */
function indexDirectory(p: Uint8Array): Uint8Array | null {
  let slash = p.length - 1
  while (slash >= 0 && p[slash] !== 47) slash--
  if (slash < 0 || p.length - slash < INDEX_TAIL.length) return null
  for (let k = 0; k < INDEX_TAIL.length; k++) if (p[slash + k] !== INDEX_TAIL.charCodeAt(k)) return null
  const out = new Uint8Array(slash + 2)
  out.set(p.subarray(0, slash + 1))
  out[slash + 1] = 36
  return out
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('latin1')
const ROBOTS_TXT = encoder.encode('/robots.txt')

/** Whether the path (up to its query) is exactly `/robots.txt`. */
function isRobotsTxt(path: Uint8Array): boolean {
  const q = path.indexOf(63)
  const end = q < 0 ? path.length : q
  if (end !== ROBOTS_TXT.length) return false
  for (let i = 0; i < end; i++) if (path[i] !== ROBOTS_TXT[i]) return false
  return true
}

interface Best {
  priority: number
  rule: RfcRule | null
  /** The pattern that matched (the directory form for an index rule). */
  matched: Uint8Array | null
}

/**
 * RFC 9309's answer for one URL: the reference's decision (the longest
 * pattern wins, a tie goes to allow, the first of equal rules gives the
 * line) with the differences `d` applied.
 */
export function rfcDecide(rules: RfcRules, url: string, d: ReadonlySet<RfcDifferenceId> = ALL_RFC_DIFFERENCES): Expected {
  const path = rfcBytes(encoder.encode(pathOf(url)), true, d)
  if (d.has('robots-txt-allowed') && isRobotsTxt(path)) return { allowed: true, line: 0, rule: null }
  const allow: Best = { priority: -1, rule: null, matched: null }
  const disallow: Best = { priority: -1, rule: null, matched: null }
  for (const r of rules.rules) {
    const pattern = d === ALL_RFC_DIFFERENCES ? r.compared : rfcBytes(r.pattern, false, d)
    const target = r.allow ? allow : disallow
    if (patternMatches(path, pattern)) {
      if (target.priority < pattern.length) Object.assign(target, { priority: pattern.length, rule: r, matched: pattern })
    } else if (r.allow && !d.has('index-html')) {
      const dir = indexDirectory(r.pattern)
      if (dir && patternMatches(path, dir) && target.priority < dir.length) Object.assign(target, { priority: dir.length, rule: r, matched: dir })
    }
  }
  const disallowed = (allow.priority > 0 || disallow.priority > 0) && disallow.priority > allow.priority
  const winner = disallow.priority > allow.priority ? disallow : allow
  if (winner.rule === null) return { allowed: !disallowed, line: 0, rule: null }
  return {
    allowed: !disallowed,
    line: winner.rule.line,
    rule: { line: winner.rule.line, kind: winner === disallow ? 'disallow' : 'allow', pattern: decoder.decode(winner.matched!) },
  }
}
