/**
 * How `check` and `diff` show the rule that decided a URL
 * ({@link RuleDescriber}). Most rules are lines of the file:
 * `line 4: Disallow: /private/`. Two are not, and are marked `implied`
 * ({@link Implied}) rather than passed off as file lines.
 */
import type { RuleRef } from '../../index.js'
import type { RuleSet } from '../../internals.js'

/**
 * Why a rule is implied rather than a line of the file:
 *
 * - `unreachable`: the `Disallow: /` that stands for an unreachable
 *   robots.txt (RFC 9309 §2.3.1.4: a fetch that failed with 5xx or no answer
 *   disallows all); no file was read, so there is no line: `implied:
 *   Disallow: / (robots.txt unreachable)`;
 * - `index.html`: the directory form of an `Allow:` whose last segment starts
 *   with `index.htm` (`Allow: /d/index.html` also allows `/d/$`, as the
 *   reference does): `implied: Allow: /d/$ (from line 3: Allow: /d/index.html)`.
 *
 * In JSON the rule object gets `"implied": "unreachable"` (with `"line": 0`)
 * or `"implied": "index.html"` (with the line it comes from and `"from"`,
 * that line's pattern).
 */
export type Implied = 'unreachable' | 'index.html'

/** A deciding rule as JSON: the RuleRef, marked when implied. */
export interface RuleJson {
  line: number
  kind: 'allow' | 'disallow'
  pattern: string
  implied?: Implied
  from?: string
}


/** Describes the deciding rules of one robots.txt for one crawler (its RuleSet: `robots.rulesFor(tokens)`, or a matcher's `rules`). */
export class RuleDescriber {
  /** The written patterns of the allow lines that have an index.htm directory form, by line; built on first need. */
  private allowByLine: Map<number, string> | undefined

  constructor(
    private readonly set: RuleSet,
    /** The robots.txt stands for an unreachable fetch: every rule is implied. */
    private readonly unreachable: boolean,
  ) {}

  /** The file line an index.htm rule comes from, when `rule` is its implied directory form. */
  private indexSource(rule: RuleRef | null): string | undefined {
    if (rule === null || rule.kind !== 'allow' || !rule.pattern.endsWith('$')) return undefined
    if (this.allowByLine === undefined) {
      // The written pattern of each allow line that has a directory form (RuleSet.isIndexDirectory).
      const set = this.set
      const map = new Map<number, string>()
      const withForm = new Set<number>()
      for (let r = 0; r < set.count; r++) {
        if (!set.allows(r)) continue
        if (set.isIndexDirectory(r)) withForm.add(set.line(r))
        else map.set(set.line(r), set.patternText(r))
      }
      for (const line of [...map.keys()]) if (!withForm.has(line)) map.delete(line)
      this.allowByLine = map
    }
    const written = this.allowByLine.get(rule.line)
    return written !== undefined && written !== rule.pattern ? written : undefined
  }

  /** `line 4: Disallow: /private/`, `implied: …` (see {@link Implied}), or `no matching rule`. */
  text(rule: RuleRef | null): string {
    if (rule === null) return 'no matching rule'
    const directive = `${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`
    if (this.unreachable) return `implied: ${directive} (robots.txt unreachable)`
    const from = this.indexSource(rule)
    if (from !== undefined) return `implied: ${directive} (from line ${rule.line}: Allow: ${from})`
    return `line ${rule.line}: ${directive}`
  }

  /** The rule as JSON (see {@link Implied}), or null. */
  json(rule: RuleRef | null): RuleJson | null {
    if (rule === null) return null
    if (this.unreachable) return { line: 0, kind: rule.kind, pattern: rule.pattern, implied: 'unreachable' }
    const from = this.indexSource(rule)
    if (from !== undefined) return { line: rule.line, kind: rule.kind, pattern: rule.pattern, implied: 'index.html', from }
    return { line: rule.line, kind: rule.kind, pattern: rule.pattern }
  }
}
