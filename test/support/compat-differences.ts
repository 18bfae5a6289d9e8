/**
 * Why robots-parser 3.0.1 and `robots-automaton/compat` answer differently.
 *
 * The compat layer gives the reference's answers; robots-parser reads files,
 * user agents and URLs its own way. For one difference this module finds the
 * cause by a ladder of counterfactuals: each step removes one known
 * discrepancy from robots-parser's input (a body rewrite that the reference
 * reads exactly as before, or a rule list / URL given to it as the reference
 * sees it), and the first step after which the two answers agree names the
 * class. Every body rewrite is checked to be neutral for the reference (its
 * answer on the rewritten body must equal its answer on the original); a
 * rewrite that is not is reported as `not-neutral`, which the tests require
 * to be empty, like `unclassified`.
 *
 * The classes are listed in {@link DIFFERENCE_CLASSES} (the table of
 * docs/migrating.md shows one example of each).
 */
import robotsParserJs from 'robots-parser'
import { compatToken, robotsParser, type Robot } from '../../src/compat.js'
import { parseRobots, type Robots } from '../../src/index.js'
import { LineFlag, parseInto, type ParseHandler } from '../../src/internals.js'
import { DEFAULT_LIMIT, MAX_LINE_BYTES } from '../../src/parse/reader.js'
import { readCrawlDelay, readHost } from '../../src/rules/extensions.js'

/** Every class of difference, with the reason (the table of docs/migrating.md says the same). */
export const DIFFERENCE_CLASSES = {
  'user-agent-token':
    'robots-parser keeps a whole User-Agent header up to its first "/" ("mozilla"); compat uses its product token (Googlebot)',
  'line-limits': 'the reference reads 16,663 bytes of a line, and this library 500 KiB of a file (RFC 9309 §2.5); robots-parser reads everything',
  bom: 'a partial UTF-8 byte order mark (EF BB) is skipped by the reference; robots-parser decodes it to U+FFFD, part of the first key (a whole BOM it trims)',
  nul: 'a NUL byte ends a line for the reference (a C string); robots-parser keeps what follows',
  'non-utf8': 'bytes that are not UTF-8 are percent-encoded as they are by the reference; robots-parser sees U+FFFD after decoding',
  'unicode-whitespace':
    'robots-parser trims keys and values with String.prototype.trim (no-break space, U+2000–U+200A, U+3000, …); the reference trims space, tab, VT and FF only',
  'key-variant': 'the reference accepts keys by prefix and common typos (Disallowed:, User-agents:, Dissallow:, useragent); robots-parser wants the exact key',
  'missing-colon': 'the reference reads "Disallow /path" (two tokens, no colon); robots-parser ignores the line',
  'user-agent-value':
    'the reference names a group by the leading [A-Za-z_-] of the value (MJ12bot names MJ, "Googlebot 2.1" names Googlebot, "* x" is *); robots-parser by the value up to "/"',
  'group-boundary': 'only an allow or disallow line ends a run of user-agent lines in the reference; in robots-parser any key line does (Crawl-delay, Sitemap, Host, …)',
  'empty-group': 'a group that names the crawler but holds no rule still hides the * group in the reference; robots-parser falls back to *',
  'pattern-encoding':
    'robots-parser re-encodes patterns with encodeURI (spaces, quotes, <, >, |, … become %XX, "%25" becomes "%"); the reference only escapes bytes >= 0x80 and uppercases %xx',
  'index-html': 'Allow: /d/index.html also allows /d/ exactly in the reference',
  'url-normalisation':
    'robots-parser matches the WHATWG serialisation of the URL (non-ASCII and spaces percent-encoded, dot segments resolved, %xx uppercased); the reference matches the URL as given',
  'empty-rule-line': 'when only an empty "Disallow:" or "Allow:" matched, the reference reports its line; robots-parser reports -1',
  'crawl-delay-value': 'this library reads a crawl-delay as a decimal number of seconds (negative or malformed ignored, above one day read as one day); robots-parser takes Number(value)',
  'crawl-delay-several': 'several crawl-delays for a crawler: this library takes the largest, robots-parser the last',
  'sitemap-not-absolute': 'this library keeps only absolute http(s) sitemap URLs; robots-parser keeps any value',
  'host-value': 'this library keeps a valid host name only (lowercased, trailing "/" removed); robots-parser keeps any value',
  'host-several': 'several Host lines: this library takes the first, robots-parser the last',
} as const

export type DifferenceClass = keyof typeof DIFFERENCE_CLASSES | 'unclassified' | 'not-neutral'

/** What robots-parser's module exports: its `Robots` object, with the internals the ladder rewrites. */
interface RpRule {
  pattern: string
  allow: boolean
  lineNumber: number
}
type RpRules = RpRule[] & { crawlDelay?: number }
interface RpRobot {
  isAllowed(url: string, ua?: string): boolean | undefined
  getMatchingLineNumber(url: string, ua?: string): number
  getCrawlDelay(ua?: string): number | undefined
  getSitemaps(): string[]
  getPreferredHost(): string | null
  _rules: Record<string, RpRules | undefined>
}
const rpParse = robotsParserJs as unknown as (url: string, body: string) => RpRobot

/** An answer of isAllowed + getMatchingLineNumber. */
export interface Verdict {
  allowed: boolean | undefined
  line: number
}

/**
 * robots-parser gets the body as text decoded as UTF-8 with a BOM kept, as
 * `readFileSync(file, 'utf8')` and `Buffer#toString()` give it (`fetch().text()`
 * drops a BOM: then the `bom` class does not arise).
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const enc = new TextEncoder()

// ---------------------------------------------------------------------------
// Body rewrites. A body is a list of physical lines (line i + 1 is lines[i]),
// joined with LF; both parsers number lines the same way, so a rewrite keeps
// every line number.

type Lines = Uint8Array[]

/** The reference's view of each line: the key kind it was read as, and its flags. */
interface LineInfo {
  tag: 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown' | null
  key: string
  flags: number
}

class LineCollector implements ParseHandler {
  readonly info: LineInfo[] = []
  private tag: LineInfo['tag'] = null
  private key = ''
  userAgent(): void {
    this.tag = 'user-agent'
  }
  allow(): void {
    this.tag = 'allow'
  }
  disallow(): void {
    this.tag = 'disallow'
  }
  sitemap(): void {
    this.tag = 'sitemap'
  }
  unknown(_l: number, key: Uint8Array, ks: number, ke: number): void {
    this.tag = 'unknown'
    this.key = utf8.decode(key.subarray(ks, ke)).toLowerCase()
  }
  lineEnd(line: number, flags: number): void {
    this.info[line - 1] = { tag: this.tag, key: this.key, flags }
    this.tag = null
    this.key = ''
  }
}

function join(lines: Lines): Uint8Array {
  let n = Math.max(0, lines.length - 1)
  for (const l of lines) n += l.length
  const out = new Uint8Array(n)
  let at = 0
  lines.forEach((l, i) => {
    if (i > 0) out[at++] = 10
    out.set(l, at)
    at += l.length
  })
  return out
}

function lineInfo(lines: Lines): LineInfo[] {
  const c = new LineCollector()
  parseInto(join(lines), c)
  return c.info
}

const isRefSpace = (b: number): boolean => b === 32 || b === 9 || b === 11 || b === 12

/** The reference's line content: up to the first `#`. */
function contentEnd(l: Uint8Array): number {
  const hash = l.indexOf(35)
  return hash < 0 ? l.length : hash
}

/** `[keyStart, keyEnd, colon]` of a `key: value` line (colon -1 when there is none). */
function keyOf(l: Uint8Array): [number, number, number] {
  const end = contentEnd(l)
  let s = 0
  while (s < end && isRefSpace(l[s])) s++
  const colon = l.subarray(0, end).indexOf(58)
  let ke = colon < 0 ? s : colon
  if (colon < 0) while (ke < end && l[ke] !== 32 && l[ke] !== 9) ke++
  else while (ke > s && isRefSpace(l[ke - 1])) ke--
  return [s, ke, colon]
}

const CANONICAL: Record<string, string> = { 'user-agent': 'User-agent', allow: 'Allow', disallow: 'Disallow', sitemap: 'Sitemap' }

/**
 * 'line-limits': what the reader keeps of the raw body, as lines: at most
 * 500 KiB (the line crossing the limit dropped whole) and 16,663 bytes of a
 * line (counted after a byte order mark). CR, LF and CRLF all end a line.
 */
function readLines(raw: Uint8Array): Lines {
  const truncated = raw.length > DEFAULT_LIMIT
  const n = Math.min(raw.length, DEFAULT_LIMIT)
  let bom = 0
  while (bom < 3 && bom < n && raw[bom] === [0xef, 0xbb, 0xbf][bom]) bom++
  const lines: Lines = []
  let i = 0
  let prevCR = false
  for (;;) {
    let j = i
    while (j < n && raw[j] !== 10 && raw[j] !== 13) j++
    if (j === n && truncated) break // the line crossing the limit is dropped whole
    if (!(prevCR && j === i && raw[j] === 10)) {
      const from = lines.length === 0 ? Math.max(i, bom) : i
      const cut = Math.min(j, from + MAX_LINE_BYTES)
      lines.push(raw.slice(i, cut))
    }
    if (j === n) break
    prevCR = raw[j] === 13
    i = j + 1
  }
  return lines
}

/** 'bom': the first line without its (partial) byte order mark. */
function stripBom(lines: Lines): Lines {
  if (!lines.length) return lines
  const l = lines[0]
  let k = 0
  while (k < 3 && k < l.length && l[k] === [0xef, 0xbb, 0xbf][k]) k++
  return k ? [l.subarray(k), ...lines.slice(1)] : lines
}

/** 'nul': every line up to its first NUL. */
function cutNul(lines: Lines): Lines {
  return lines.map((l) => {
    const z = l.indexOf(0)
    return z < 0 ? l : l.subarray(0, z)
  })
}

/** 'non-utf8': in a line that is not UTF-8, every byte >= 0x80 percent-encoded. */
function encodeNonUtf8(lines: Lines): Lines {
  return lines.map((l) => {
    try {
      strictUtf8.decode(l)
      return l
    } catch {
      let s = ''
      for (const b of l) s += b >= 0x80 ? '%' + b.toString(16).toUpperCase() : String.fromCharCode(b)
      return enc.encode(s)
    }
  })
}

/** Whitespace to String.prototype.trim that the reference does not trim (all of JS's \s but space, tab, VT, FF, CR, LF). */
const JS_ONLY_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g

/** 'unicode-whitespace': such characters next to a key or value edge percent-encoded, so robots-parser keeps them too. */
function encodeJsSpaces(lines: Lines): Lines {
  const edge = new RegExp(`^${JS_ONLY_SPACE.source}+|${JS_ONLY_SPACE.source}+$`, 'g')
  return lines.map((l) => {
    const text = utf8.decode(l)
    JS_ONLY_SPACE.lastIndex = 0
    if (!JS_ONLY_SPACE.test(text)) return l
    const hash = text.indexOf('#')
    const content = hash < 0 ? text : text.slice(0, hash)
    const colon = content.indexOf(':')
    const parts = colon < 0 ? [content] : [content.slice(0, colon), content.slice(colon + 1)]
    const fixed = parts.map((p) => {
      const inner = p.replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '')
      const at = p.indexOf(inner)
      return p.slice(0, at) + inner.replace(edge, (m) => encodeURIComponent(m)) + p.slice(at + inner.length)
    })
    return enc.encode(fixed.join(':') + (hash < 0 ? '' : text.slice(hash)))
  })
}

/** 'key-variant': user-agent, allow, disallow and sitemap lines with the exact key. */
function canonicalKeys(lines: Lines): Lines {
  const info = lineInfo(lines)
  return lines.map((l, i) => {
    const t = info[i]?.tag
    if (!t || t === 'unknown' || info[i].flags & LineFlag.isMissingColonSeparator) return l
    const [s, ke, colon] = keyOf(l)
    if (utf8.decode(l.subarray(s, ke)).toLowerCase() === t) return l
    return Buffer.concat([enc.encode(CANONICAL[t]), l.subarray(colon)])
  })
}

/** 'missing-colon': `Key value` lines as `Key: value` (the exact key when the reference knows it). */
function addColons(lines: Lines): Lines {
  const info = lineInfo(lines)
  return lines.map((l, i) => {
    if (!info[i] || !(info[i].flags & LineFlag.isMissingColonSeparator)) return l
    const [s, ke] = keyOf(l)
    const t = info[i].tag
    const key = t && t !== 'unknown' ? enc.encode(CANONICAL[t]) : l.subarray(s, ke)
    return Buffer.concat([key, enc.encode(':'), l.subarray(ke)])
  })
}

/** The group name the reference reads from a user-agent value. */
export function referenceAgentName(value: string): string {
  if (value[0] === '*' && (value.length === 1 || isRefSpace(value.charCodeAt(1)))) return '*'
  return /^[A-Za-z_-]*/.exec(value)![0]
}

/** robots-parser's formatUserAgent. */
function rpAgentName(value: string): string {
  const lower = value.toLowerCase()
  const slash = lower.indexOf('/')
  return (slash < 0 ? lower : lower.slice(0, slash)).trim()
}

/** 'user-agent-value': user-agent values rewritten to the name the reference reads. */
function agentNames(lines: Lines): Lines {
  const info = lineInfo(lines)
  return lines.map((l, i) => {
    if (info[i]?.tag !== 'user-agent') return l
    const [, , colon] = keyOf(l)
    const value = utf8.decode(l.subarray(colon + 1, contentEnd(l)))
    const ref = referenceAgentName(refTrim(value))
    const rpValue = value.trim()
    if (rpValue && rpAgentName(rpValue) === ref.toLowerCase()) return l
    return enc.encode(`User-agent: ${ref}`)
  })
}

/** 'group-boundary': every line that is not a user-agent, allow or disallow line made empty. */
function onlyGroupLines(lines: Lines): Lines {
  const info = lineInfo(lines)
  return lines.map((l, i) => {
    const t = info[i]?.tag
    return t === 'user-agent' || t === 'allow' || t === 'disallow' ? l : new Uint8Array(0)
  })
}

/** The body rewrites, cumulative, in ladder order. */
const BODY_STEPS = [
  ['bom', stripBom],
  ['nul', cutNul],
  ['non-utf8', encodeNonUtf8],
  ['unicode-whitespace', encodeJsSpaces],
  ['key-variant', canonicalKeys],
  ['missing-colon', addColons],
  ['user-agent-value', agentNames],
  ['group-boundary', onlyGroupLines],
] as const

type BodyStep = 'line-limits' | (typeof BODY_STEPS)[number][0]

/** One rung of the body ladder: the rewritten lines and both parses of them. */
interface BodyStepResult {
  name: BodyStep
  lines: Lines
  body: Uint8Array
  rp: RpRobot
  compat: Robot
  robots: Robots
}

/** One robots.txt under comparison: the original and every rewrite, parsed by both sides on demand. */
export class Subject {
  readonly rp: RpRobot
  readonly compat: Robot
  private readonly steps: { name: BodyStep; lines: Lines; body: Uint8Array; rp?: RpRobot; compat?: Robot; robots?: Robots }[] = []

  private parsed: Robots | undefined

  constructor(
    readonly body: Uint8Array,
    readonly robotsUrl: string,
  ) {
    this.rp = rpParse(robotsUrl, utf8.decode(body))
    this.compat = robotsParser(robotsUrl, body)
  }

  /** The original body parsed by the core API (for explanations). */
  get robots(): Robots {
    return (this.parsed ??= parseRobots(this.body))
  }

  /** The bodies of the ladder, computed once. */
  private ladder(): typeof this.steps {
    if (this.steps.length) return this.steps
    let lines = readLines(this.body)
    this.steps.push({ name: 'line-limits', lines, body: join(lines) })
    for (const [name, step] of BODY_STEPS) {
      lines = step(lines)
      this.steps.push({ name, lines, body: join(lines) })
    }
    return this.steps
  }

  /** Steps up to and including `last`. */
  bodySteps(last: BodyStep = 'group-boundary'): BodyStepResult[] {
    const out = []
    for (const s of this.ladder()) {
      s.rp ??= rpParse(this.robotsUrl, utf8.decode(s.body))
      s.compat ??= robotsParser(this.robotsUrl, s.body)
      s.robots ??= parseRobots(s.body)
      out.push(s as BodyStepResult)
      if (s.name === last) break
    }
    return out
  }
}

function verdictOf(r: { isAllowed(u: string, ua?: string): boolean | undefined; getMatchingLineNumber(u: string, ua?: string): number }, url: string, ua: string): Verdict {
  return { allowed: r.isAllowed(url, ua), line: r.getMatchingLineNumber(url, ua) }
}

const same = (a: Verdict, b: Verdict): boolean => a.allowed === b.allowed && a.line === b.line

/** robots-parser's view of a URL's path: the WHATWG serialisation, %xx uppercased. */
export function rpUrl(url: string): string {
  const u = new URL(url, 'http://robots-relative.samclarke.com/')
  return u.origin + (u.pathname + u.search).replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase())
}

/** robots-parser's rule list for a token (its own lookup: the token's rules, else `*`'s). */
function rpList(rp: RpRobot, token: string): RpRules | undefined {
  return rp._rules[rpAgentName(token)] ?? rp._rules['*']
}

/** The reference's rules for a token as robots-parser rule objects; `derived` adds the index.htm directory rules. */
function referenceList(robots: Robots, token: string, derived: boolean): RpRule[] {
  const set = robots.rulesFor(token)
  const out: RpRule[] = []
  for (const r of set.fileOrder()) {
    const pattern = utf8.decode(set.pattern(r))
    if (set.isIndexDirectory(r) && !derived) continue
    out.push({ pattern, allow: set.allows(r), lineNumber: set.line(r) })
  }
  return out
}

/** A robots-parser object whose rules for `token` are `rules` (its matching engine, our rules). */
function withRules(rp: RpRobot, token: string, rules: RpRule[]): RpRobot {
  const copy = Object.create(Object.getPrototypeOf(rp) as object) as RpRobot
  Object.assign(copy, rp)
  copy._rules = { ...rp._rules, [rpAgentName(token)]: Object.assign(rules, { crawlDelay: undefined }) }
  return copy
}

/**
 * The class of the difference between robots-parser and compat on one
 * (robots.txt, URL, user agent), or null when they agree.
 */
export function classifyVerdict(subject: Subject, url: string, ua: string): DifferenceClass | null {
  const want = verdictOf(subject.compat, url, ua)
  if (same(verdictOf(subject.rp, url, ua), want)) return null
  const token = compatToken(ua)
  if (same(verdictOf(subject.rp, url, token), want)) return 'user-agent-token'
  const steps = subject.bodySteps()
  for (const step of steps) {
    if (!same(verdictOf(step.compat, url, ua), want)) return 'not-neutral'
    if (same(verdictOf(step.rp, url, token), want)) return step.name
  }
  const final = steps[steps.length - 1]
  let last = final.rp
  const robots = final.robots
  // 'empty-group': the reference names the crawler in a group without rules.
  const named = robots.rulesFor(token)
  if (last._rules[rpAgentName(token)] === undefined && namesAgent(final.lines, token)) {
    last = withRules(last, token, [])
    if (same(verdictOf(last, url, token), want)) return 'empty-group'
  }
  // 'pattern-encoding': the same rules (lines and kinds), robots-parser given the reference's patterns.
  const mine = rpList(last, token) ?? []
  const ref = referenceList(robots, token, false)
  const sameRules = mine.length === ref.length && mine.every((r, i) => r.lineNumber === ref[i].lineNumber && r.allow === ref[i].allow)
  if (!sameRules) return 'unclassified'
  if (mine.some((r, i) => r.pattern !== ref[i].pattern)) {
    last = withRules(last, token, ref)
    if (same(verdictOf(last, url, token), want)) return 'pattern-encoding'
  }
  if (named.count > ref.length) {
    last = withRules(last, token, referenceList(robots, token, true))
    if (same(verdictOf(last, url, token), want)) return 'index-html'
  }
  const got = verdictOf(last, url, token)
  const asRp = verdictOf(subject.compat, rpUrl(url), ua)
  if (same(got, asRp)) return 'url-normalisation'
  if (got.allowed === want.allowed && got.line === -1 && emptyRuleLine(subject, url, ua)) return 'empty-rule-line'
  if (same(got, asRp.allowed === got.allowed && emptyRuleLine(subject, rpUrl(url), ua) ? { ...asRp, line: -1 } : asRp)) {
    return 'url-normalisation'
  }
  return 'unclassified'
}

/** True when the reference's matching line for the URL is an empty Allow/Disallow (no rule in effect). */
function emptyRuleLine(subject: Subject, url: string, ua: string): boolean {
  return subject.robots.agent(compatToken(ua)).explain(url).rule?.pattern === ''
}

/** True when a user-agent line of `lines` names `token` as the reference reads it (so it ignores `*`). */
function namesAgent(lines: Lines, token: string): boolean {
  const info = lineInfo(lines)
  const t = token.toLowerCase()
  return lines.some((l, i) => {
    if (info[i]?.tag !== 'user-agent') return false
    const value = utf8.decode(l.subarray(keyOf(l)[2] + 1, contentEnd(l))).replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '')
    const name = referenceAgentName(value)
    return name !== '*' && name.toLowerCase() === t
  })
}

/** Trims the reference's whitespace (space, tab, VT, FF). */
function refTrim(s: string): string {
  return s.replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '')
}

/** The class of a crawl-delay difference, or null when they agree. */
export function classifyCrawlDelay(subject: Subject, ua: string): DifferenceClass | null {
  const want = subject.compat.getCrawlDelay(ua)
  if (subject.rp.getCrawlDelay(ua) === want) return null
  const token = compatToken(ua)
  if (subject.rp.getCrawlDelay(token) === want) return 'user-agent-token'
  const steps = subject.bodySteps('user-agent-value')
  for (const step of steps) {
    if (step.compat.getCrawlDelay(ua) !== want) return 'not-neutral'
    if (step.rp.getCrawlDelay(token) === want) return step.name
  }
  const final = steps[steps.length - 1]
  if (final.rp._rules[rpAgentName(token)] === undefined && namesAgent(final.lines, token)) {
    if (withRules(final.rp, token, []).getCrawlDelay(token) === want) return 'empty-group'
  }
  // 'crawl-delay-value': every crawl-delay value rewritten to what this library reads.
  const lines = final.lines
  const info = lineInfo(lines)
  let delays = 0
  const rewritten = join(
    lines.map((l, i) => {
      if (info[i]?.tag !== 'unknown' || info[i].key !== 'crawl-delay') return l
      delays++
      const text = refTrim(utf8.decode(l.subarray(keyOf(l)[2] + 1, contentEnd(l))))
      return enc.encode(`Crawl-delay: ${readCrawlDelay(text).value ?? 'none'}`)
    }),
  )
  if (robotsParser(subject.robotsUrl, rewritten).getCrawlDelay(ua) !== want) return 'not-neutral'
  if (rpParse(subject.robotsUrl, utf8.decode(rewritten)).getCrawlDelay(token) === want) return 'crawl-delay-value'
  if (delays > 1) return 'crawl-delay-several'
  return 'unclassified'
}

/** The class of a sitemap-list difference, or null when they agree. */
export function classifySitemaps(subject: Subject): DifferenceClass | null {
  const want = JSON.stringify(subject.compat.getSitemaps())
  if (JSON.stringify(subject.rp.getSitemaps()) === want) return null
  const steps = subject.bodySteps('missing-colon')
  for (const step of steps) {
    if (JSON.stringify(step.compat.getSitemaps()) !== want) return 'not-neutral'
    if (JSON.stringify(step.rp.getSitemaps()) === want) return step.name
  }
  const absolute = steps[steps.length - 1].rp.getSitemaps().filter((s) => /^https?:\/\/[^\s/?#]/i.test(s) && URL.canParse(s))
  return JSON.stringify(absolute) === want ? 'sitemap-not-absolute' : 'unclassified'
}

/** The class of a preferred-host difference, or null when they agree. */
export function classifyHost(subject: Subject): DifferenceClass | null {
  const want = subject.compat.getPreferredHost()
  if (subject.rp.getPreferredHost() === want) return null
  const steps = subject.bodySteps('missing-colon')
  for (const step of steps) {
    if (step.compat.getPreferredHost() !== want) return 'not-neutral'
    if (step.rp.getPreferredHost() === want) return step.name
  }
  const final = steps[steps.length - 1]
  const info = lineInfo(final.lines)
  if (info.filter((i) => i?.tag === 'unknown' && i.key === 'host').length > 1) return 'host-several'
  const rpHost = final.rp.getPreferredHost()
  const read = rpHost === null ? null : (readHost(rpHost).value as string | undefined) ?? null
  if (read === want) return 'host-value'
  return 'unclassified'
}

/** One example of each class: docs/migrating.md shows these, and the tests check that each is classified as listed. */
export interface ClassExample {
  cls: keyof typeof DIFFERENCE_CLASSES
  /** The robots.txt body (bytes where it is not UTF-8). */
  body: string | Uint8Array
  /** The method compared. */
  method: 'isAllowed' | 'getMatchingLineNumber' | 'getCrawlDelay' | 'getSitemaps' | 'getPreferredHost'
  url?: string
  ua?: string
}

const latin1Bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0))

export const CLASS_EXAMPLES: ClassExample[] = [
  {
    cls: 'user-agent-token',
    body: 'User-agent: Googlebot\nDisallow: /private\n',
    method: 'isAllowed',
    url: 'https://example.com/private',
    ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  },
  { cls: 'line-limits', body: `User-agent: *\n${'#'.repeat(600_000)}\nDisallow: /private\n`, method: 'isAllowed', url: 'https://example.com/private' },
  { cls: 'bom', body: latin1Bytes('\xef\xbbUser-agent: *\nDisallow: /private\n'), method: 'isAllowed', url: 'https://example.com/private' },
  { cls: 'nul', body: 'User-agent: *\nDisallow: /private\0/x\n', method: 'isAllowed', url: 'https://example.com/private/y' },
  { cls: 'non-utf8', body: latin1Bytes('User-agent: *\nDisallow: /caf\xe9\n'), method: 'isAllowed', url: 'https://example.com/caf%E9' },
  { cls: 'unicode-whitespace', body: 'User-agent: *\nDisallow:\u00a0/private\n', method: 'isAllowed', url: 'https://example.com/private' },
  { cls: 'key-variant', body: 'User-agent: *\nDissallow: /private\n', method: 'isAllowed', url: 'https://example.com/private' },
  { cls: 'missing-colon', body: 'User-agent: *\nDisallow /private\n', method: 'isAllowed', url: 'https://example.com/private' },
  { cls: 'user-agent-value', body: 'User-agent: MJ12bot\nDisallow: /\n', method: 'isAllowed', url: 'https://example.com/page', ua: 'MJ12bot' },
  {
    cls: 'group-boundary',
    body: 'User-agent: FooBot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /private\n',
    method: 'isAllowed',
    url: 'https://example.com/private',
    ua: 'FooBot',
  },
  { cls: 'empty-group', body: 'User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\n', method: 'isAllowed', url: 'https://example.com/private', ua: 'FooBot' },
  { cls: 'pattern-encoding', body: 'User-agent: *\nDisallow: /a|b\n', method: 'isAllowed', url: 'https://example.com/a%7Cb' },
  { cls: 'index-html', body: 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n', method: 'isAllowed', url: 'https://example.com/d/' },
  { cls: 'url-normalisation', body: 'User-agent: *\nDisallow: /caf%C3%A9\n', method: 'isAllowed', url: 'https://example.com/café' },
  { cls: 'empty-rule-line', body: 'User-agent: *\nDisallow:\n', method: 'getMatchingLineNumber', url: 'https://example.com/page' },
  { cls: 'crawl-delay-value', body: 'User-agent: *\nCrawl-delay: -5\n', method: 'getCrawlDelay' },
  { cls: 'crawl-delay-several', body: 'User-agent: *\nCrawl-delay: 10\nCrawl-delay: 5\n', method: 'getCrawlDelay' },
  { cls: 'sitemap-not-absolute', body: 'Sitemap: /sitemap.xml\n', method: 'getSitemaps' },
  { cls: 'host-value', body: 'User-agent: *\nHost: https://Example.com/\n', method: 'getPreferredHost' },
  { cls: 'host-several', body: 'Host: a.example.com\nHost: b.example.com\n', method: 'getPreferredHost' },
]

/** The robots.txt URL of the examples. */
export const EXAMPLE_ROBOTS_URL = 'https://example.com/robots.txt'

/** What each side answers for an example: `[robots-parser, compat]`. */
export function exampleAnswers(e: ClassExample): [unknown, unknown] {
  const bytes = typeof e.body === 'string' ? enc.encode(e.body) : e.body
  const subject = new Subject(bytes, EXAMPLE_ROBOTS_URL)
  const call = (r: RpRobot | Robot): unknown => {
    switch (e.method) {
      case 'isAllowed':
        return r.isAllowed(e.url!, e.ua)
      case 'getMatchingLineNumber':
        return r.getMatchingLineNumber(e.url!, e.ua)
      case 'getCrawlDelay':
        return r.getCrawlDelay(e.ua)
      case 'getSitemaps':
        return r.getSitemaps()
      case 'getPreferredHost':
        return r.getPreferredHost()
    }
  }
  return [call(subject.rp), call(subject.compat)]
}

/** The class the ladder gives an example. */
export function classifyExample(e: ClassExample): DifferenceClass | null {
  const bytes = typeof e.body === 'string' ? enc.encode(e.body) : e.body
  const subject = new Subject(bytes, EXAMPLE_ROBOTS_URL)
  switch (e.method) {
    case 'isAllowed':
    case 'getMatchingLineNumber':
      return classifyVerdict(subject, e.url!, e.ua ?? '*')
    case 'getCrawlDelay':
      return classifyCrawlDelay(subject, e.ua ?? '*')
    case 'getSitemaps':
      return classifySitemaps(subject)
    case 'getPreferredHost':
      return classifyHost(subject)
  }
}
