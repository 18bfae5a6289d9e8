/**
 * {@link ruleText}: a deciding rule as people read it, the words the
 * command line (`check`, `diff`, `filter --format jsonl`) and the tester
 * page print. Most rules are lines of the file (`line 4: Disallow:
 * /private/`); two kinds are not, and are marked implied rather than
 * passed off as file lines.
 */
import { describeValue, RobotsInputError } from '../errors.js'
import type { RuleSet } from '../rules/rule-set.js'
import { AgentMatcher, type RuleRef } from './matcher.js'

/** A deciding rule in words ({@link ruleText}). */
export interface RuleText {
  /**
   * `line 4: Disallow: /private/` (a line of the file), `implied: Allow:
   * /d/$ (from line 3: Allow: /d/index.html)`, `implied: Disallow: /
   * (robots.txt unreachable)`, or `no matching rule`. An empty `Allow:` or
   * `Disallow:`, which the reference names when only it matched, is no rule
   * in effect (the URL is allowed), and says so: `line 2: Disallow: (empty:
   * no rule in effect)`.
   */
  readonly text: string
  /**
   * Why the rule is no line of the file, when it is not (absent otherwise):
   *
   * - `'index.html'`: the directory form of an `Allow:` whose last segment
   *   starts with `index.htm` (`Allow: /d/index.html` also allows `/d/$`, as
   *   the reference does); `from` holds the pattern written on its line;
   * - `'unreachable'`: the `Disallow: /` that stands for an unreachable
   *   robots.txt (RFC 9309 §2.3.1.4: a fetch that failed with 5xx or no
   *   answer disallows all); no file was read, so there is no line.
   */
  readonly implied?: 'index.html' | 'unreachable'
  /** For an `index.html` rule: the pattern of the `Allow:` line it comes from. */
  readonly from?: string
}

/** Per rule set: the written patterns of its allow lines that have an index.htm directory form, by line. */
const writtenByLine = new WeakMap<RuleSet, Map<number, string>>()

function indexLines(set: RuleSet): Map<number, string> {
  let map = writtenByLine.get(set)
  if (map !== undefined) return map
  map = new Map<number, string>()
  const withForm = new Set<number>()
  for (let r = 0; r < set.count; r++) {
    if (!set.allows(r)) continue
    if (set.isIndexDirectory(r)) withForm.add(set.line(r))
    else map.set(set.line(r), set.patternText(r))
  }
  for (const line of [...map.keys()]) if (!withForm.has(line)) map.delete(line)
  writtenByLine.set(set, map)
  return map
}

const NO_RULE: RuleText = { text: 'no matching rule' }

/**
 * The deciding rule `rule` (from `matcher.explain(url).rule`, or null) in
 * words: see {@link RuleText}. `matcher` is the one that decided (its
 * index.html rules' written patterns are read from it, once per rule set);
 * `unreachable`: its rules stand for an unreachable robots.txt (the
 * command line's `--robots URL` whose fetch failed), so every rule is
 * implied. A matcher that is not an AgentMatcher, or a rule that is not a
 * rule reference, is a RobotsInputError (ERR_INPUT).
 */
export function ruleText(matcher: AgentMatcher, rule: RuleRef | null, unreachable = false): RuleText {
  if (!(matcher instanceof AgentMatcher)) throw new RobotsInputError(`ruleText takes an AgentMatcher, got ${describeValue(matcher)}`)
  if (rule === null) return NO_RULE
  if (typeof rule !== 'object' || (rule.kind !== 'allow' && rule.kind !== 'disallow') || typeof rule.pattern !== 'string' || typeof rule.line !== 'number') {
    throw new RobotsInputError(`ruleText: rule must be a RuleRef ({ line, kind, pattern }) or null, got ${describeValue(rule)}`)
  }
  const directive = `${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`
  if (unreachable) return { text: `implied: ${directive} (robots.txt unreachable)`, implied: 'unreachable' }
  if (rule.pattern === '') return { text: `line ${rule.line}: ${directive}(empty: no rule in effect)` }
  if (rule.kind === 'allow' && rule.pattern.endsWith('$')) {
    const written = indexLines(matcher.rules).get(rule.line)
    if (written !== undefined && written !== rule.pattern) {
      return { text: `implied: ${directive} (from line ${rule.line}: Allow: ${written})`, implied: 'index.html', from: written }
    }
  }
  return { text: `line ${rule.line}: ${directive}` }
}
