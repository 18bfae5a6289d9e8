/**
 * `robots-automaton check ROBOTS --agent A URL...`: one line per URL with the
 * verdict and the rule that decided it (`--json`: one JSON object per line).
 * `--exit-code` makes the verdict the exit status (0 all allowed, 3 some
 * disallowed), for harnesses that read outcomes from exit codes.
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
import { jsonLine, printable } from './escape.js'
import { bodyProblem, bodyWarning } from './body-problems.js'

const OPTIONS: readonly OptionSpec[] = [
  // An empty token is a token like any other (the reference's unit tests use one).
  { name: 'agent', value: true, allowEmpty: true },
  { name: 'json', value: false },
  { name: 'exit-code', value: false },
  { name: 'quiet', short: 'q', value: false },
  { name: 'help', short: 'h', value: false },
]

/** `line 4: Disallow: /private/`, or `no matching rule`. */
export function describeRule(rule: RuleRef | null): string {
  if (rule === null) return 'no matching rule'
  return `line ${rule.line}: ${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}`
}

/**
 * Exit status of `check --exit-code` when at least one URL is disallowed. Not
 * 1 or 2, which keep their meaning (runtime failure, usage error), so that a
 * harness never reads a failure as a verdict.
 */
export const EXIT_DISALLOWED = 3

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
  if (!quiet) {
    if (loaded.fetchNote !== undefined) note(`${loaded.name}: ${loaded.fetchNote}`)
    const problem = bodyProblem(loaded.robots)
    if (problem !== undefined) note(bodyWarning(loaded.name, problem, loaded.robots))
  }
  const matcher = loaded.robots.agent(agent)
  const out = new BlockWriter(process.stdout, 64 * 1024)
  let allowed = 0
  for (const url of urls) {
    const { allowed: ok, rule } = matcher.explain(url)
    if (ok) allowed++
    // The URL and the pattern come from input: escaped, so that no control character reaches a terminal.
    if (json) out.text(`${jsonLine({ url, allowed: ok, rule })}\n`)
    else out.text(`${ok ? 'allowed' : 'disallowed'}\t${printable(url)}\t${printable(describeRule(rule))}\n`)
  }
  await out.end()
  if (!quiet) note(`${plural(urls.length, 'URL')} checked: ${count(allowed)} allowed, ${count(urls.length - allowed)} disallowed`)
  return flag(args, 'exit-code') && allowed < urls.length ? EXIT_DISALLOWED : 0
}
