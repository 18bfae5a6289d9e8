/** The `--agent` check shared by the commands. */
import { isValidProductToken } from '../index.js'

/**
 * A warning when `agent` is not a product token (`[A-Za-z_-]+`): the
 * reference compares the crawler's token whole, so such a token never names
 * a group and only the `*` groups apply.
 */
export function agentWarning(agent: string): string | undefined {
  if (isValidProductToken(agent)) return undefined
  return `warning: --agent '${agent}' is not a product token ([A-Za-z_-]+), so it matches no User-agent line; only '*' groups apply`
}
