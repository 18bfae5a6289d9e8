/**
 * `robots-automaton check ROBOTS --agent A URL...`: one line per URL with the
 * verdict and the rule that decided it (`--json`: one JSON object per line).
 */
import type { RuleRef } from '../index.js'
import { flag, parseArgs, requiredOption, type OptionSpec } from './args.js'
import { BlockWriter } from './block-writer.js'
import { UsageError } from './errors.js'
import { CHECK_HELP } from './help.js'
import { loadRobots } from './load-robots.js'
import { count, plural } from './stats.js'
import { note } from './stdio.js'
import { agentWarning } from './agent.js'

const OPTIONS: readonly OptionSpec[] = [
  { name: 'agent', value: true },
  { name: 'json', value: false },
  { name: 'quiet', short: 'q', value: false },
  { name: 'help', short: 'h', value: false },
]

/** `line 4: Disallow: /private/`, or `no matching rule`. */
export function describeRule(rule: RuleRef | null): string {
  if (rule === null) return 'no matching rule'
  return `line ${rule.line}: ${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`
}

/** Runs `check` with the arguments after the command name; resolves to the exit code. */
export async function runCheck(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, OPTIONS)
  if (flag(args, 'help')) {
    process.stdout.write(CHECK_HELP)
    return 0
  }
  const agent = requiredOption(args, 'agent')
  const [source, ...urls] = args.positionals
  if (source === undefined) throw new UsageError('missing ROBOTS (a file, - or an http(s) URL)')
  if (urls.length === 0) throw new UsageError('no URL given')
  const json = flag(args, 'json')
  const quiet = flag(args, 'quiet')
  if (!quiet) {
    const warning = agentWarning(agent)
    if (warning !== undefined) note(warning)
  }
  const loaded = await loadRobots(source)
  if (loaded.fetchNote !== undefined && !quiet) note(`${loaded.name}: ${loaded.fetchNote}`)
  const matcher = loaded.robots.agent(agent)
  const out = new BlockWriter(process.stdout, 64 * 1024)
  let allowed = 0
  for (const url of urls) {
    const { allowed: ok, rule } = matcher.explain(url)
    if (ok) allowed++
    if (json) out.text(`${JSON.stringify({ url, allowed: ok, rule })}\n`)
    else out.text(`${ok ? 'allowed' : 'disallowed'}\t${url}\t${describeRule(rule)}\n`)
  }
  await out.end()
  if (!quiet) note(`${plural(urls.length, 'URL')} checked: ${count(allowed)} allowed, ${count(urls.length - allowed)} disallowed`)
  return 0
}
