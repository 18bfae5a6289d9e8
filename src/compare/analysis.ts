/**
 * What a robots.txt body holds, seen the way the reference reads it, for
 * tagging cases (categories.ts) and deriving URLs (cases/corpus-cases.ts):
 * every physical line with its kind, flags, key and value; the groups; the
 * lines a lax implementation might read as directives although the reference
 * does not ("shadow" lines); and, per crawler, the rules that apply with what
 * each exercises. Built once per body and crawler, from one `parseInto`.
 */
import { DEFAULT_LIMIT, parseRobots, isValidProductToken, type AgentMatcher, type Robots } from '../index.js'
import { LineFlag, parseInto, type ParseHandler } from '../internals.js'

/** What a physical line was read as. */
export const LineKind = {
  /** Empty, a comment, or text that is no directive. */
  None: 0,
  UserAgent: 1,
  Allow: 2,
  Disallow: 3,
  Sitemap: 4,
  /** Another `key: value` line (crawl-delay, a misspelt key, ...). */
  Unknown: 5,
} as const

/** One physical line. */
export interface BodyLine {
  readonly line: number
  readonly kind: number
  /** {@link LineFlag} bits. */
  readonly flags: number
  /** The key as written, ASCII-lowercased ('' when the line has none). */
  readonly key: string
  /** The value: raw for user-agent and sitemap lines, escaped (as matched) for allow, disallow and unknown lines. */
  readonly value: Buffer
  /** The line's raw bytes (as read: cut at 16,663 bytes), without its line ending. */
  readonly raw: Buffer
  /** Group index (the reference's grouping), -1 before the first user-agent line. */
  readonly group: number
}

/** One user-agent line. */
export interface AgentLine {
  readonly line: number
  /** `*` (alone or followed by whitespace) names the global group. */
  readonly global: boolean
  /** The name the reference reads: the value up to the first byte outside [A-Za-z_-], as written. */
  readonly name: string
  /** The value as written (up to the comment), for lines whose name was cut from it. */
  readonly value: string
  readonly group: number
}

/** A line the reference does not apply but a lax implementation might. */
export interface ShadowLine {
  readonly line: number
  /** Why the reference ignores it. */
  readonly why: 'key-typo' | 'missing-colon' | 'rules-outside-group'
  /** Read as a rule (its value) or as a user-agent line (its name, lowercased). */
  readonly role: 'rule' | 'agent'
  readonly value: Buffer
}

/** A whole body. */
export interface BodyAnalysis {
  readonly robots: Robots
  readonly lines: readonly BodyLine[]
  readonly agentLines: readonly AgentLine[]
  /** Per group: its user-agent lines. */
  readonly groups: readonly (readonly AgentLine[])[]
  readonly shadows: readonly ShadowLine[]
  /** Some group is `*`. */
  readonly hasGlobal: boolean
  /** A UTF-8 BOM (or a prefix of one at the start) in the body. */
  readonly bom: boolean
  /** A CR in the body (CRLF or CR line endings). */
  readonly cr: boolean
  readonly nul: boolean
  /** A line longer than the reference keeps. */
  readonly longLine: boolean
  /** Longer than the parsing limit. */
  readonly truncated: boolean
  /** Allow and disallow patterns of every group, as written (for deriving URLs). */
  readonly patterns: readonly { readonly line: number; readonly allow: boolean; readonly raw: Buffer }[]
  /** Per-crawler analyses, by a key of the tokens. */
  readonly perAgents: Map<string, AgentAnalysis>
}

/** One rule that applies to a crawler (an entry of its RuleSet). */
export interface RuleInfo {
  readonly line: number
  readonly allow: boolean
  /** The pattern as matched (escaped). */
  readonly pattern: Buffer
  /** Written with a final `$`. */
  readonly userDollar: boolean
  /** The directory form `/d/$` the reference adds for an `Allow: /d/index.htm…`. */
  readonly dirForm: boolean
  /** An allow rule whose last segment starts with `index.htm`. */
  readonly indexRule: boolean
  readonly hasStar: boolean
  readonly hasPercent: boolean
  /** The pattern without a final `$`, split at `*`. */
  readonly segs: readonly Buffer[]
  /** The same without `$`, `*` taken literally. */
  readonly literal: Buffer
  /** {@link normalise}d segments. */
  readonly normSegs: readonly Buffer[]
  /** Segments percent-decoded only (no case folding). */
  readonly decodedSegs: readonly Buffer[]
  /** The pattern has no `%` and no upper-case letter: decoding and folding leave it unchanged. */
  readonly plain: boolean
  readonly bodyLine: BodyLine | undefined
  readonly group: number
}

/** A body as seen by one crawler. */
export interface AgentAnalysis {
  readonly tokens: readonly string[]
  readonly matcher: AgentMatcher
  readonly rules: readonly RuleInfo[]
  readonly specific: boolean
  /** Categories that hold for every URL (user-agent matching, groups, empty rules). */
  readonly categories: readonly string[]
  /** User-agent lines of the groups that apply (for typo and missing-colon tags). */
  readonly agentLines: readonly AgentLine[]
}

const NO_BYTES = Buffer.alloc(0)

function isSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13)
}

/** `s` with its ASCII capitals lowercased (as the reference compares user-agent names). */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase())
}

/** Trimmed content of a raw line: comment removed, whitespace around it stripped. */
function content(raw: Buffer): Buffer {
  let end = raw.indexOf(0x23)
  if (end < 0) end = raw.length
  const nul = raw.indexOf(0)
  if (nul >= 0 && nul < end) end = nul
  let start = 0
  while (start < end && isSpace(raw[start])) start++
  while (end > start && isSpace(raw[end - 1])) end--
  return raw.subarray(start, end)
}

/** The key of a raw directive line as written (up to `:` or whitespace), lowercased. */
function keyOf(raw: Buffer): string {
  const c = content(raw)
  let end = c.indexOf(0x3a)
  if (end < 0) {
    end = 0
    while (end < c.length && c[end] !== 32 && c[end] !== 9) end++
  }
  while (end > 0 && isSpace(c[end - 1])) end--
  return asciiLower(c.toString('latin1', 0, end))
}

const NAME_BYTE = new Uint8Array(256)
for (let b = 65; b <= 90; b++) NAME_BYTE[b] = NAME_BYTE[b + 32] = 1
NAME_BYTE[45] = NAME_BYTE[95] = 1

/** The reference's reading of a user-agent value. */
function agentLine(line: number, value: Buffer, group: number): AgentLine {
  const global = value.length > 0 && value[0] === 42 && (value.length === 1 || isSpace(value[1]))
  let n = 0
  while (n < value.length && NAME_BYTE[value[n]]) n++
  return { line, global, name: value.toString('latin1', 0, n), value: value.toString('utf8'), group }
}

/** Levenshtein distance, for look-alike keys (short strings only). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = cur
  }
  return prev[b.length]
}

/** A key that a lax implementation might read as allow, disallow or user-agent: 'rule', 'agent' or undefined. */
function lookAlike(key: string): 'rule' | 'agent' | undefined {
  if (key.length < 3 || key.length > 14) return undefined
  if (distance(key, 'user-agent') <= 2 || distance(key, 'useragent') <= 2) return 'agent'
  if (distance(key, 'disallow') <= 2 || distance(key, 'allow') <= 1) return 'rule'
  return undefined
}

/** Keys the reference knows by prefix (a key starting with one of these is read as it). */
const RULE_KEYS = ['allow', 'disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']
const AGENT_KEYS = ['user-agent', 'useragent', 'user agent']

/** Collects the lines of one parse. */
class LineCollector implements ParseHandler {
  readonly lines: BodyLine[] = []
  private kind: number = LineKind.None
  private value: Buffer = NO_BYTES
  userAgent(_line: number, bytes: Uint8Array, start: number, end: number): void {
    this.set(LineKind.UserAgent, bytes, start, end)
  }
  allow(_line: number, bytes: Uint8Array, start: number, end: number): void {
    this.set(LineKind.Allow, bytes, start, end)
  }
  disallow(_line: number, bytes: Uint8Array, start: number, end: number): void {
    this.set(LineKind.Disallow, bytes, start, end)
  }
  sitemap(_line: number, bytes: Uint8Array, start: number, end: number): void {
    this.set(LineKind.Sitemap, bytes, start, end)
  }
  unknown(_line: number, _k: Uint8Array, _ks: number, _ke: number, bytes: Uint8Array, start: number, end: number): void {
    this.set(LineKind.Unknown, bytes, start, end)
  }
  lineEnd(line: number, flags: number, bytes: Uint8Array, start: number, end: number): void {
    const raw = Buffer.from(bytes.subarray(start, end))
    const key = flags & LineFlag.hasDirective ? keyOf(raw) : ''
    this.lines.push({ line, kind: this.kind, flags, key, value: this.value, raw, group: -1 })
    this.kind = LineKind.None
    this.value = NO_BYTES
  }
  private set(kind: number, bytes: Uint8Array, start: number, end: number): void {
    this.kind = kind
    this.value = Buffer.from(bytes.subarray(start, end))
  }
}

/** Analyses a body (see the module comment). */
export function analyseBody(body: Uint8Array): BodyAnalysis {
  const collector = new LineCollector()
  parseInto(body, collector)
  const lines: BodyLine[] = []
  const agentLines: AgentLine[] = []
  const groups: AgentLine[][] = []
  const shadows: ShadowLine[] = []
  const patterns: { line: number; allow: boolean; raw: Buffer }[] = []
  let group = -1
  let afterRule = true
  let longLine = false
  for (const l of collector.lines) {
    if (l.flags & LineFlag.isLineTooLong) longLine = true
    if (l.kind === LineKind.UserAgent) {
      if (afterRule) {
        group++
        groups.push([])
        afterRule = false
      }
      const a = agentLine(l.line, l.value, group)
      agentLines.push(a)
      groups[group].push(a)
    } else if (l.kind === LineKind.Allow || l.kind === LineKind.Disallow) {
      if (group >= 0) afterRule = true
      const c = content(l.raw)
      const sep = c.indexOf(0x3a)
      let v = sep >= 0 ? sep + 1 : c.findIndex((b) => b === 32 || b === 9)
      while (v >= 0 && v < c.length && isSpace(c[v])) v++
      if (l.value.length > 0) patterns.push({ line: l.line, allow: l.kind === LineKind.Allow, raw: v < 0 ? NO_BYTES : c.subarray(v) })
      if (group < 0 && l.value.length > 0) shadows.push({ line: l.line, why: 'rules-outside-group', role: 'rule', value: l.value })
    } else if (l.kind === LineKind.Unknown) {
      const like = lookAlike(l.key)
      if (like) {
        shadows.push({ line: l.line, why: 'key-typo', role: like, value: like === 'agent' ? Buffer.from(agentLine(l.line, l.value, -1).name.toLowerCase(), 'latin1') : l.value })
      }
    } else if (l.kind === LineKind.None && !(l.flags & (LineFlag.isEmpty | LineFlag.isComment))) {
      // No colon and more than two tokens: `Disallow /a /b`, `User-agent foo bar`.
      const tokens = content(l.raw).toString('latin1').split(/[ \t]+/)
      const key = asciiLower(tokens[0])
      const role = RULE_KEYS.some((k) => key.startsWith(k)) ? 'rule' : AGENT_KEYS.some((k) => key.startsWith(k)) ? 'agent' : undefined
      if (role && tokens.length > 2) {
        const value = Buffer.from(tokens[1], 'latin1')
        shadows.push({ line: l.line, why: 'missing-colon', role, value: role === 'agent' ? Buffer.from(agentLine(l.line, value, -1).name.toLowerCase(), 'latin1') : value })
      }
    }
    lines.push({ ...l, group })
  }
  const limited = body.length > DEFAULT_LIMIT ? body.subarray(0, DEFAULT_LIMIT) : body
  const b = Buffer.from(limited.buffer, limited.byteOffset, limited.byteLength)
  // The reader skips a BOM, or any prefix of one, at the very start; elsewhere a BOM is text.
  const bom = b[0] === 0xef || b.indexOf(Buffer.from([0xef, 0xbb, 0xbf])) >= 0
  return {
    robots: parseRobots(body),
    lines,
    agentLines,
    groups,
    shadows,
    hasGlobal: agentLines.some((a) => a.global),
    bom,
    cr: b.indexOf(13) >= 0,
    nul: b.indexOf(0) >= 0,
    longLine,
    truncated: body.length > DEFAULT_LIMIT,
    patterns,
    perAgents: new Map(),
  }
}

/** Percent-decodes valid `%XX` escapes and lowercases ASCII letters. */
export function normalise(bytes: Buffer, fold = true): Buffer {
  let needed = false
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    if (c === 37 || (fold && c >= 65 && c <= 90)) {
      needed = true
      break
    }
  }
  if (!needed) return bytes
  const out = Buffer.allocUnsafe(bytes.length)
  let n = 0
  for (let i = 0; i < bytes.length; i++) {
    let c = bytes[i]
    if (c === 37 && i + 2 < bytes.length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
      c = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2])
      i += 2
    }
    out[n++] = fold && c >= 65 && c <= 90 ? c + 32 : c
  }
  return out.subarray(0, n)
}

function hex(c: number | undefined): number {
  if (c === undefined) return -1
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 32
  return l >= 97 && l <= 102 ? l - 87 : -1
}

/** `pattern` (no `$`) split at `*`. */
function segments(pattern: Buffer): Buffer[] {
  const out: Buffer[] = []
  let from = 0
  for (let i = pattern.indexOf(42); i >= 0; i = pattern.indexOf(42, from)) {
    out.push(pattern.subarray(from, i))
    from = i + 1
  }
  out.push(pattern.subarray(from))
  return out
}

/**
 * Whether a pattern given as `*`-separated segments matches `path` from its
 * start: as a prefix, or the whole path when `anchored` (a final `$`).
 * Leftmost placement of each segment is optimal, so this is exact.
 */
export function matchSegments(path: Uint8Array, segs: readonly Uint8Array[], anchored: boolean): boolean {
  const first = segs[0]
  if (!bytesAt(path, first, 0)) return false
  const last = segs.length - 1
  if (last === 0) return !anchored || path.length === first.length
  let pos = first.length
  for (let i = 1; i < last; i++) {
    const s = segs[i]
    if (s.length === 0) continue
    const at = (path as Buffer).indexOf(s, pos)
    if (at < 0) return false
    pos = at + s.length
  }
  const tail = segs[last]
  if (!anchored) return tail.length === 0 || (path as Buffer).indexOf(tail, pos) >= 0
  return path.length - tail.length >= pos && bytesAt(path, tail, path.length - tail.length)
}

/** Whether `bytes` occur in `path` at `at`. */
export function bytesAt(path: Uint8Array, bytes: Uint8Array, at: number): boolean {
  const n = bytes.length
  if (at + n > path.length) return false
  for (let k = 0; k < n; k++) if (path[at + k] !== bytes[k]) return false
  return true
}

/** `/index.htm…` as the last segment (the reference's index.html rule). */
function isIndexPattern(p: Buffer): boolean {
  const slash = p.lastIndexOf(47)
  return slash >= 0 && p.subarray(slash, slash + 10).toString('latin1') === '/index.htm'
}

/** `short` is a proper prefix of `long` and the rest of `long` goes on with a name byte (`googlebot` / `googlebot-news`, not `bot/2.1`). */
function isNamePrefix(short: string, long: string): boolean {
  return short.length > 0 && long.length > short.length && long.startsWith(short) && NAME_BYTE[long.charCodeAt(short.length)] === 1
}

/** Crawler analyses kept per body (the oldest dropped first). */
const KEPT_AGENTS = 256

/** The analysis of a body for a crawler answering to `agents` (cached on the body). */
export function analyseAgents(body: BodyAnalysis, agents: readonly string[]): AgentAnalysis {
  const key = agents.length === 1 ? agents[0] : JSON.stringify(agents)
  let a = body.perAgents.get(key)
  if (a === undefined) {
    a = buildAgentAnalysis(body, agents)
    if (body.perAgents.size >= KEPT_AGENTS) body.perAgents.delete(body.perAgents.keys().next().value!)
    body.perAgents.set(key, a)
  }
  return a
}

/** Rule infos per rule set: crawlers that select the same groups share one matcher, so one set, and its infos. */
const ruleInfos = new WeakMap<object, readonly RuleInfo[]>()

/** The infos of a set's rules, in file order (made once per set: they depend on the set and its body alone). */
function rulesOf(body: BodyAnalysis, set: AgentMatcher['rules']): readonly RuleInfo[] {
  let rules = ruleInfos.get(set)
  if (rules !== undefined) return rules
  const made: RuleInfo[] = []
  // In file order, as the report lists them (the RuleSet is in rank order).
  for (const r of set.fileOrder()) {
    const pattern = Buffer.from(set.pattern(r))
    const line = set.line(r)
    const allow = set.allows(r)
    const dirForm = set.isIndexDirectory(r)
    const anchored = pattern.length > 0 && pattern[pattern.length - 1] === 36
    const bare = anchored ? pattern.subarray(0, pattern.length - 1) : pattern
    const bodyLine = body.lines[line - 1]
    made.push({
      line,
      allow,
      pattern,
      userDollar: anchored && !dirForm,
      dirForm,
      indexRule: allow && !dirForm && isIndexPattern(pattern),
      hasStar: bare.indexOf(42) >= 0,
      hasPercent: pattern.indexOf(37) >= 0,
      segs: segments(bare),
      literal: bare,
      normSegs: segments(normalise(bare)),
      decodedSegs: segments(normalise(bare, false)),
      plain: normalise(bare) === bare,
      bodyLine,
      group: bodyLine?.group ?? -1,
    })
  }
  ruleInfos.set(set, (rules = made))
  return rules
}

/** What the crawler tags read of a user-agent line: its name lowercased, and the first word of its value lowercased. */
export interface AgentNames {
  readonly name: string
  /** The value trimmed is other than the name (the name was cut from it). */
  readonly cut: boolean
  readonly full: string
}

const agentNames = new WeakMap<BodyAnalysis, readonly AgentNames[]>()

/** AgentNames of each of a body's user-agent lines, in file order (made once per body). */
export function agentNamesOf(body: BodyAnalysis): readonly AgentNames[] {
  let names = agentNames.get(body)
  if (names === undefined) {
    names = body.agentLines.map((a) => ({ name: asciiLower(a.name), cut: a.value.trim() !== a.name, full: asciiLower(a.value.split(/[\s/]/)[0]) }))
    agentNames.set(body, names)
  }
  return names
}

function buildAgentAnalysis(body: BodyAnalysis, agents: readonly string[]): AgentAnalysis {
  const matcher = agents.length === 1 ? body.robots.agent(agents[0]) : body.robots.agents(agents)
  const set = matcher.rules
  const rules = rulesOf(body, set)
  const lower = new Set(agents.map((t) => asciiLower(t)))
  const names = agentNamesOf(body)
  /** The lines (not `*`) naming one of the tokens. */
  const namedLines = new Set<AgentLine>()
  const named = (a: AgentLine): boolean => namedLines.has(a)
  const categories = new Set<string>()
  const tokens = agents.map((t) => ({ t, tl: asciiLower(t), head: asciiLower(t).split('/')[0] }))
  for (let i = 0; i < body.agentLines.length; i++) {
    const a = body.agentLines[i]
    if (a.global) continue
    const { name, cut, full } = names[i]
    if (lower.has(name)) namedLines.add(a)
    for (const { t, tl, head } of tokens) {
      if (name === tl && a.name !== t) categories.add('ua-case')
      if (name === tl && cut) categories.add('ua-product-token')
      if (isNamePrefix(name, tl) || isNamePrefix(tl, name)) categories.add('ua-prefix')
      if (full !== name && full === head) categories.add('ua-product-token')
    }
  }
  if (agents.some((t) => !isValidProductToken(t))) categories.add('ua-product-token')
  if (agents.length > 1) categories.add('ua-multi')
  if (body.hasGlobal) categories.add(set.specific ? 'ua-specific-hides-global' : 'ua-global-fallback')
  if (set.emptyAllowLine || set.emptyDisallowLine || (set.specific && set.count === 0)) categories.add('empty-rules')
  // The groups that apply: those naming the crawler, else the `*` groups.
  const applying = body.groups.filter((g) => g.some((a) => (set.specific ? !a.global && named(a) : a.global)))
  if (applying.length >= 2 || applying.some((g) => g.length >= 2)) categories.add('group-merging')
  const agentLines = applying.flatMap((g) => g.filter((a) => (set.specific ? !a.global && named(a) : a.global)))
  return { tokens: agents, matcher, rules, specific: set.specific, categories: [...categories], agentLines }
}
