/**
 * How `check`, `diff` and `filter --format jsonl` write the rule that
 * decided a URL as JSON ({@link ruleJson}); the words are the core's
 * (`ruleText`), which the tester page prints too. An implied rule (no line
 * of the file) is marked: `"implied": "unreachable"` (with `"line": 0`) or
 * `"implied": "index.html"` (with the line it comes from and `"from"`, that
 * line's pattern).
 */
import { ruleText, type AgentMatcher, type RuleRef } from '../../index.js'

/** A deciding rule as JSON: the RuleRef, marked when implied. */
export interface RuleJson {
  line: number
  kind: 'allow' | 'disallow'
  pattern: string
  implied?: 'unreachable' | 'index.html'
  from?: string
}

/** The deciding rule `rule` of `matcher` as JSON (null: none); `unreachable` as for `ruleText`. */
export function ruleJson(matcher: AgentMatcher, rule: RuleRef | null, unreachable: boolean): RuleJson | null {
  if (rule === null) return null
  const t = ruleText(matcher, rule, unreachable)
  if (t.implied === 'unreachable') return { line: 0, kind: rule.kind, pattern: rule.pattern, implied: 'unreachable' }
  if (t.implied === 'index.html') return { line: rule.line, kind: rule.kind, pattern: rule.pattern, implied: 'index.html', from: t.from }
  return { line: rule.line, kind: rule.kind, pattern: rule.pattern }
}
