/**
 * The categories of `compare`: what a case exercises, tagged automatically
 * from the body's lines, the groups and rules that apply to the crawler, the
 * crawler's tokens and the URL (see analysis.ts). Rule categories are tagged
 * only from rules *in play* (`Play.inPlay`), so an implementation that gets
 * one feature wrong disagrees only on cases tagged with it: one that ignores
 * `$` can change an answer only where a `$` rule is in play.
 */
import { pathOf } from '../index.js'
import { LineFlag } from '../internals.js'
import { bytesAt, matchSegments, normalise, type AgentAnalysis, type BodyAnalysis, type RuleInfo } from './analysis.js'

/** A category: its id (used in reports and case files), a title and what it means. */
export interface Category {
  readonly id: string
  readonly family: string
  readonly description: string
}

/** Every automatic category, in report order. */
export const CATEGORIES: readonly Category[] = [
  { id: 'wildcard', family: 'patterns', description: 'a rule with * is in play for the URL' },
  { id: 'end-anchor', family: 'patterns', description: 'a rule ending in $ is in play for the URL' },
  { id: 'precedence', family: 'patterns', description: 'several rules match: the longest pattern wins, a tie goes to allow' },
  { id: 'index-html', family: 'patterns', description: 'an Allow of /dir/index.htm… (which also allows /dir/ exactly) is in play' },
  { id: 'empty-rules', family: 'patterns', description: 'an empty Allow:/Disallow: applies, or the crawler\'s group has no rules' },
  { id: 'absolute-url-rule', family: 'patterns', description: 'a rule written as an absolute URL (Disallow: https://host/path): it matches no path, yet its path would be in play' },
  { id: 'percent-encoding', family: 'encoding', description: '%-escapes in a rule or in the URL where a rule is in play' },
  { id: 'non-ascii', family: 'encoding', description: 'bytes ≥ 0x80 in a rule in play or in the URL' },
  { id: 'path-case', family: 'encoding', description: 'a rule matches the path only when case is ignored' },
  { id: 'comments', family: 'syntax', description: 'a rule in play has a # comment on its line' },
  { id: 'ua-case', family: 'user-agent', description: 'a group names the crawler in another letter case' },
  { id: 'ua-product-token', family: 'user-agent', description: 'a token with a digit or /version, or a user-agent value cut to its name' },
  { id: 'ua-prefix', family: 'user-agent', description: 'a group name and the token where one is a prefix of the other (Googlebot, Googlebot-News)' },
  { id: 'ua-global-fallback', family: 'user-agent', description: 'no group names the crawler: the * groups apply' },
  { id: 'ua-specific-hides-global', family: 'user-agent', description: 'a group names the crawler: the * groups are ignored' },
  { id: 'ua-multi', family: 'user-agent', description: 'a crawler answering to several tokens' },
  { id: 'group-merging', family: 'groups', description: 'rules from several groups, or a group with several user-agent lines' },
  { id: 'rules-outside-group', family: 'groups', description: 'a rule before any user-agent line (ignored) would be in play' },
  { id: 'key-typo', family: 'syntax', description: 'an accepted typo or prefix key (Dissallow, User-agents), or a look-alike key that is ignored' },
  { id: 'missing-colon', family: 'syntax', description: 'a directive without a colon (read when it has two tokens, ignored otherwise)' },
  { id: 'line-endings', family: 'syntax', description: 'CR or CRLF line endings' },
  { id: 'bom', family: 'syntax', description: 'a UTF-8 byte order mark (or part of one)' },
  { id: 'nul', family: 'syntax', description: 'a NUL byte (ends its line)' },
  { id: 'long-lines', family: 'syntax', description: 'a line longer than 16,663 bytes (cut)' },
  { id: 'parsing-limit', family: 'syntax', description: 'a body longer than 500 KiB (the rest is not read)' },
  { id: 'url-forms', family: 'url', description: 'a URL that is not scheme://host/path: no path, //host, ?/;/# first, a fragment, userinfo, a port, empty, …' },
  { id: 'line-convention', family: 'lines', description: 'the reference\'s deciding line is an empty Allow:/Disallow: that decided nothing (a convention: others report no line)' },
  { id: 'google-specific', family: 'standard', description: 'the answer rests on Google\'s behaviour beyond RFC 9309 (accepted typos, a missing colon, user-agent values cut to a name, tokens the RFC does not allow, the line-length cut, NUL, relative URLs; GOOGLE_SPECIFIC spec-test expectations)' },
  { id: 'rfc-differs', family: 'standard', description: 'RFC 9309\'s answer differs from the reference\'s (docs/semantics.md lists where and why)' },
]

/** Category ids in report order. */
export const CATEGORY_ORDER: ReadonlyMap<string, number> = new Map(CATEGORIES.map((c, i) => [c.id, i]))

/** Which standard a case's expected answer follows: RFC 9309 alone, Google's behaviour beyond it, or Google's where it differs from the RFC. */
export type Standard = 'rfc' | 'google-specific' | 'rfc-differs'

/** The standards, as cases carry them. */
export const STANDARDS: readonly Standard[] = ['rfc', 'google-specific', 'rfc-differs']

/** The categories a case carries for a standard (one of them, or none for `rfc`). */
export const STANDARD_CATEGORIES: ReadonlySet<string> = new Set(['google-specific', 'rfc-differs'])

/**
 * A `--category` value: categories to keep (a case is kept when it carries
 * one of them; all when none is named) and, written `!id`, categories to
 * leave out (a case carrying one is dropped).
 */
export interface CategoryFilter {
  readonly include: readonly string[]
  readonly exclude: readonly string[]
}

/** Reads `a,b,!c`; `known` (when given) checks the names, `error` words the problem. */
export function parseCategoryFilter(text: string, known: ReadonlySet<string> | undefined, error: (message: string) => Error): CategoryFilter {
  const include: string[] = []
  const exclude: string[] = []
  for (const raw of text.split(',')) {
    const item = raw.trim()
    if (item === '') continue
    const not = item.startsWith('!')
    const id = not ? item.slice(1).trim() : item
    if (id === '') throw error(`'!' names no category in '${text}'`)
    if (known && !known.has(id)) throw error(`unknown category '${id}' (categories: ${[...known].join(', ')})`)
    ;(not ? exclude : include).push(id)
  }
  if (include.length === 0 && exclude.length === 0) throw error(`'${text}' names no category`)
  return { include, exclude }
}

/** Whether a case with these categories passes the filter. */
export function keeps(filter: CategoryFilter, categories: readonly string[]): boolean {
  if (filter.exclude.some((id) => categories.includes(id))) return false
  return filter.include.length === 0 || filter.include.some((id) => categories.includes(id))
}

/** The filter as written on the command line. */
export function filterText(filter: CategoryFilter): string {
  return [...filter.include, ...filter.exclude.map((id) => `!${id}`)].join(',')
}

/** A plain absolute http(s) URL with a path, or a plain path: everything else is an odd URL form. */
const PLAIN_URL = /^(?:https?:\/\/[A-Za-z0-9.-]+\/[^#]*|\/(?!\/)[^#]*)$/

/** Whether a URL takes an unusual form (see the `url-forms` category). */
export function isOddUrl(url: string): boolean {
  return !PLAIN_URL.test(url)
}

const encoder = new TextEncoder()

/** How a rule relates to a path. */
interface Play {
  /** Matches as the reference matches. */
  matches: boolean
  /**
   * In play under some reading: the rule could decide the URL under a reading
   * a real implementation might have: it matches as the reference matches, or
   * its pattern matches as a prefix with `$` ignored, or taken literally (`*`
   * and `$` as plain bytes), or after percent-decoding and case folding both
   * sides.
   */
  inPlay: boolean
  /** In play only once case is ignored. */
  caseOnly: boolean
}

const NOT_IN_PLAY: Play = { matches: false, inPlay: false, caseOnly: false }
const MATCHES: Play = { matches: true, inPlay: true, caseOnly: false }
const IN_PLAY: Play = { matches: false, inPlay: true, caseOnly: false }
const CASE_ONLY: Play = { matches: false, inPlay: true, caseOnly: true }

/** How `rule` relates to `path`; `plainPath`: the path has no `%` and no upper-case letter. */
function play(rule: RuleInfo, path: Buffer, decoded: Buffer, folded: Buffer, plainPath: boolean): Play {
  const anchored = rule.userDollar || rule.dirForm
  if (matchSegments(path, rule.segs, anchored)) return MATCHES
  if ((anchored && matchSegments(path, rule.segs, false)) || (rule.hasStar && bytesAt(path, rule.literal, 0))) return IN_PLAY
  if (plainPath && rule.plain) return NOT_IN_PLAY
  if (matchSegments(decoded, rule.decodedSegs, false)) return IN_PLAY
  if (matchSegments(folded, rule.normSegs, false)) return CASE_ONLY
  return NOT_IN_PLAY
}

/** Whether a shadow rule's value is in play for the path (prefix, wildcard or folded). */
function shadowInPlay(value: Buffer, path: Buffer, folded: Buffer): boolean {
  const bare = value.length > 0 && value[value.length - 1] === 36 ? value.subarray(0, value.length - 1) : value
  if (bare.length === 0) return false
  const segs = bare.toString('latin1').split('*').map((s) => Buffer.from(s, 'latin1'))
  return matchSegments(path, segs, false) || matchSegments(folded, segs.map((s) => normalise(s)), false)
}

/** A URL the reference reads a path from although RFC 3986 gives it none to match: empty, or relative without a leading `/`. */
const NO_RFC_PATH = /^(?:$|[^/A-Za-z]|[A-Za-z][A-Za-z0-9+.-]*(?:[^A-Za-z0-9+.:-]|$))/

/** A rule written as an absolute URL: the scheme and host, then the path part (group 1). */
const ABSOLUTE_RULE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*(\/.*)?$/s

const absoluteRules = new WeakMap<readonly RuleInfo[], readonly { segs: Buffer[]; folded: Buffer[] }[]>()

/** The path parts of the crawler's rules written as absolute URLs, split at `*` (and case-folded); made once per rule list (shared by crawlers of one selection). */
function absolutePaths(view: AgentAnalysis): readonly { segs: Buffer[]; folded: Buffer[] }[] {
  let list = absoluteRules.get(view.rules)
  if (list === undefined) {
    const found: { segs: Buffer[]; folded: Buffer[] }[] = []
    for (const rule of view.rules) {
      // Only a pattern starting with a letter can be one (a path starts with '/' or '*').
      const c = rule.literal[0] | 0x20
      const m = c >= 0x61 && c <= 0x7a ? ABSOLUTE_RULE.exec(rule.literal.toString('latin1')) : null
      if (m === null) continue
      const segs = (m[1] ?? '/').split('*').map((x) => Buffer.from(x, 'latin1'))
      found.push({ segs, folded: segs.map((x) => normalise(x)) })
    }
    absoluteRules.set(view.rules, (list = found))
  }
  return list
}

/**
 * The categories of one case, and whether its answer rests on the
 * reference's behaviour beyond RFC 9309 (`beyond`): a rule in play read from
 * an accepted typo, a prefix key, a line without a colon or a line cut at
 * the reference's length limit; a user-agent line that counts read the same
 * ways; a user-agent value cut to its name or a product token the RFC does
 * not allow (`ua-product-token`); a NUL byte; a URL the RFC gives no path
 * (empty, or relative without a leading `/`).
 */
export function categoriseCase(body: BodyAnalysis, view: AgentAnalysis, url: string): { categories: string[]; beyond: boolean } {
  const tags = new Set<string>(view.categories)
  let beyond = false
  const path = Buffer.from(encoder.encode(pathOf(url)))
  const decoded = normalise(path, false)
  const folded = normalise(path)
  const firstPercent = path.indexOf(37)
  let firstNonAscii = -1
  for (let i = 0; i < path.length; i++) {
    if (path[i] >= 0x80) {
      firstNonAscii = i
      break
    }
  }
  const plainPath = folded === path
  let matching = 0
  for (const rule of view.rules) {
    const p = play(rule, path, decoded, folded, plainPath)
    if (p.matches) matching++
    if (!p.inPlay) continue
    if (rule.hasStar) tags.add('wildcard')
    if (rule.userDollar) tags.add('end-anchor')
    if (rule.indexRule || rule.dirForm) tags.add('index-html')
    if (p.caseOnly) tags.add('path-case')
    const reach = rule.hasStar ? Infinity : rule.literal.length
    if (rule.hasPercent || (firstPercent >= 0 && reach > firstPercent)) tags.add('percent-encoding')
    const line = rule.bodyLine
    if ((line && line.flags & LineFlag.hasNonAscii) || (firstNonAscii >= 0 && reach > firstNonAscii)) tags.add('non-ascii')
    if (line) {
      if (line.flags & LineFlag.hasComment) tags.add('comments')
      if (line.flags & LineFlag.isAcceptableTypo || (line.key !== 'allow' && line.key !== 'disallow')) {
        tags.add('key-typo')
        beyond = true
      }
      if (line.flags & LineFlag.isMissingColonSeparator) {
        tags.add('missing-colon')
        beyond = true
      }
      if (line.flags & LineFlag.isLineTooLong) {
        tags.add('long-lines')
        beyond = true
      }
    }
  }
  for (const a of absolutePaths(view)) {
    if (matchSegments(path, a.segs, false) || matchSegments(folded, a.folded, false)) {
      tags.add('absolute-url-rule')
      break
    }
  }
  if (matching >= 2) tags.add('precedence')
  for (const a of view.agentLines) {
    const line = body.lines[a.line - 1]
    if (!line) continue
    if (line.flags & LineFlag.isAcceptableTypo || line.key !== 'user-agent') {
      tags.add('key-typo')
      beyond = true
    }
    if (line.flags & LineFlag.isMissingColonSeparator) {
      tags.add('missing-colon')
      beyond = true
    }
  }
  if (body.shadows.length > 0) {
    for (const s of body.shadows) {
      if (tags.has(s.why)) continue
      if (s.role === 'rule' ? shadowInPlay(s.value, path, folded) : agentNamed(s.value, view)) tags.add(s.why)
    }
  }
  if (body.bom) tags.add('bom')
  if (body.cr) tags.add('line-endings')
  if (body.nul) tags.add('nul')
  if (body.longLine) tags.add('long-lines')
  if (body.truncated) tags.add('parsing-limit')
  if (isOddUrl(url)) tags.add('url-forms')
  if (tags.has('ua-product-token') || body.nul || NO_RFC_PATH.test(url)) beyond = true
  return { categories: sortCategories(tags), beyond }
}

/** Category ids in report order (unknown ones last, by name). */
export function sortCategories(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => (CATEGORY_ORDER.get(a) ?? 999) - (CATEGORY_ORDER.get(b) ?? 999) || (a < b ? -1 : a > b ? 1 : 0))
}

/** Whether a shadow user-agent name (lowercased) names the crawler. */
function agentNamed(name: Buffer, view: AgentAnalysis): boolean {
  const n = name.toString('latin1')
  return n.length > 0 && view.tokens.some((t) => t.toLowerCase() === n)
}
