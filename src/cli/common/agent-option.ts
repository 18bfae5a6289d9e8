/** The `--agent` option shared by the commands: repeatable, one crawler answering to every token given. */
import { isValidProductToken, productTokens } from '../../index.js'
import type { OptionSpec } from './args.js'

/**
 * `--agent A`, repeatable (`--agent Googlebot --agent Googlebot-Image`): a
 * crawler that answers to several tokens, judged with the reference's
 * multi-agent semantics (`Robots.agents`: the groups that name any of the
 * tokens, merged; the `*` groups only when none does). An empty token is
 * a token like any other (the reference's unit tests use one).
 */
export const AGENT_OPTION: OptionSpec = { name: 'agent', value: true, allowEmpty: true, multiple: true }

/**
 * A warning when `agent` is not a product token (`[A-Za-z_-]+`): the
 * reference compares the crawler's token whole with each User-agent value
 * read up to its first character outside `[A-Za-z_-]`. So a token holding
 * such a character names no group, and only the `*` groups apply; the empty
 * token names the groups whose value reads as empty (`User-agent:`,
 * `User-agent: *bot`, `User-agent: 123`), and the `*` groups only when the
 * file has none. `subject` names the token in the warning (the text is
 * built around it, never searched: a name may hold any character).
 */
export function agentWarning(agent: string, subject = `--agent '${agent}'`): string | undefined {
  if (isValidProductToken(agent)) return undefined
  if (agent === '') return `warning: ${subject} is not a product token ([A-Za-z_-]+): the empty token names the groups whose User-agent value reads as empty ('User-agent:', 'User-agent: *bot', 'User-agent: 123'); only '*' groups apply when none does`
  return `warning: ${subject} is not a product token ([A-Za-z_-]+), so it matches no User-agent line${tokenHint(agent)}; only '*' groups apply`
}

/**
 * The token to give instead of a full User-Agent header (words and
 * comments), in words: its crawler's product token as `productTokens` reads
 * it (`Mozilla/5.0 (compatible; Googlebot/2.1; …)`: `Googlebot`, not the
 * browser's `Mozilla`), cut to what a User-agent line is read up to (`MJ`
 * of `MJ12bot`); none for a browser's header.
 */
function tokenHint(agent: string): string {
  if (!/[\s(]/.test(agent)) return ''
  const token = /^[A-Za-z_-]+/.exec(productTokens(agent.slice(0, 1024))[0] ?? '')?.[0]
  return token === undefined ? '' : ` (give its product token instead: '${token}')`
}

/** The warnings of several `--agent` tokens (one per token that is not a product token; with several tokens, the others still apply). */
export function agentWarnings(tokens: readonly string[]): string[] {
  const out: string[] = []
  for (const t of new Set(tokens)) {
    const w = agentWarning(t)
    if (w === undefined) continue
    out.push(tokens.length > 1 ? w.replace(/; only '\*' groups apply( when none does)?$/, '') : w)
  }
  return out
}
