/**
 * `robots-automaton diff OLD NEW --agent A [FILE...]`: the URLs whose verdict
 * changes between two versions of a robots.txt, with the deciding rule on
 * each side (`now-disallowed|now-allowed<TAB>URL<TAB>OLD RULE<TAB>NEW RULE`,
 * or JSON lines). URLs are read as `filter` reads them. Exit 0 when no verdict
 * changes, 3 when some do (docs/cli.md#diff).
 */
import { isUtf8 } from 'node:buffer'
import type { AgentMatcher, Explanation } from '../../index.js'
import { COMMON_OPTIONS, helpOrVersion, flag, optionValue, parseArgs, requiredValues, type OptionSpec } from '../common/args.js'
import { AGENT_OPTION, agentWarnings } from '../common/agent-option.js'
import { BlockWriter } from '../common/block-writer.js'
import { bodyProblem, bodyWarning } from '../common/body-problems.js'
import { UsageError } from '../../internals.js'
import { jsonLine, printable } from '../common/printable.js'
import { INPUT_OPTIONS, lineLayout } from '../filter/line-layout.js'
import { LineLocator } from '../filter/line-locator.js'
import { DIFF_HELP } from './diff-help.js'
import { resolveInputs } from '../filter/input.js'
import { forEachInputLine } from '../filter/input-lines.js'
import { checkRobotsSource, loadRobots, type LoadedRobots } from '../common/load-robots.js'
import { RuleDescriber, type RuleJson } from '../common/rule-text.js'
import { count, plural } from '../common/numbers.js'
import { note } from '../common/stdio.js'

/** The options `diff` accepts (its help, diff-help.ts, names each of them). */
export const DIFF_OPTIONS: readonly OptionSpec[] = [
  AGENT_OPTION,
  { name: 'format', value: true, choices: ['lines', 'jsonl'] },
  ...INPUT_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Exit status when some verdict changes (as `check --exit-code` uses 3 for a disallowed URL). */
export const EXIT_CHANGED = 3

const DECODER = new TextDecoder()

function side(e: Explanation, line: number, rules: RuleDescriber): { allowed: boolean; line: number; rule: Omit<RuleJson, 'line'> | null } {
  const json = rules.json(e.rule)
  if (json === null) return { allowed: e.allowed, line, rule: null }
  const { line: ruleLine, ...rule } = json
  return { allowed: e.allowed, line: ruleLine, rule }
}

function warnProblem(loaded: LoadedRobots): void {
  if (loaded.fetchNote !== undefined) note(`${loaded.name}: ${loaded.fetchNote}`)
  const problem = bodyProblem(loaded.robots)
  if (problem !== undefined) note(bodyWarning(loaded.name, problem, loaded.robots))
}

/** Runs `diff` with the arguments after the command name; resolves to the exit code. */
export async function runDiff(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, DIFF_OPTIONS)
  if (helpOrVersion(args, DIFF_HELP)) return 0
  const agent = requiredValues(args, 'agent')
  const [oldSource, newSource, ...files] = args.positionals
  if (oldSource === undefined || newSource === undefined) throw new UsageError('needs OLD and NEW (each a file, - or an http(s) URL)')
  checkRobotsSource(oldSource)
  checkRobotsSource(newSource)
  const jsonl = optionValue(args, 'format') === 'jsonl'
  const layout = lineLayout(args)
  const quiet = flag(args, 'quiet')
  const stdinRobots = [oldSource, newSource].filter((s) => s === '-').length
  if (stdinRobots > 1) throw new UsageError(`only one of OLD and NEW can be stdin ('-')`)
  const stdinFiles = files.filter((f) => f === '-').length
  if (stdinFiles > 1 || (stdinRobots > 0 && (files.length === 0 || stdinFiles > 0))) {
    throw new UsageError(stdinFiles > 1 ? `stdin ('-') is named more than once` : `a robots.txt read from stdin ('-') means the URLs must come from FILE arguments`)
  }
  const inputs = await resolveInputs(files)
  if (!quiet) {
    for (const w of agentWarnings(agent)) note(w)
  }
  const oldRobots = await loadRobots(oldSource)
  const newRobots = await loadRobots(newSource)
  if (!quiet) {
    warnProblem(oldRobots)
    warnProblem(newRobots)
  }
  const before: AgentMatcher = oldRobots.robots.agents(agent)
  const after: AgentMatcher = newRobots.robots.agents(agent)
  const oldRules = new RuleDescriber(oldRobots.robots, agent, oldRobots.fetched === 'unreachable')
  const newRules = new RuleDescriber(newRobots.robots, agent, newRobots.fetched === 'unreachable')
  const out = new BlockWriter(process.stdout)
  const locator = new LineLocator(layout, false)
  let lines = 0
  let nowAllowed = 0
  let nowDisallowed = 0
  await forEachInputLine(
    inputs,
    locator,
    (bytes) => {
      const start = locator.urlStart
      const end = locator.urlEnd
      lines++
      const a = before.matchRange(bytes, start, end)
      const b = after.matchRange(bytes, start, end)
      if ((a & 1) === (b & 1)) return
      const url = bytes.subarray(start, end)
      const was = before.explain(url)
      const now = after.explain(url)
      const change = b & 1 ? 'now-allowed' : 'now-disallowed'
      if (b & 1) nowAllowed++
      else nowDisallowed++
      const text = DECODER.decode(url)
      if (jsonl) {
        const record: Record<string, unknown> = { url: text }
        if (!isUtf8(url)) record.url_base64 = Buffer.from(url.buffer, url.byteOffset, url.length).toString('base64')
        Object.assign(record, { change, old: side(was, a >>> 1, oldRules), new: side(now, b >>> 1, newRules) })
        out.text(`${jsonLine(record)}\n`)
      } else out.text(`${change}\t${printable(text)}\t${printable(oldRules.text(was.rule))}\t${printable(newRules.text(now.rule))}\n`)
    },
    async (pause) => {
      if (pause) out.flush()
      await out.drain()
    },
  )
  await out.end()
  if (!quiet) {
    note(`${plural(lines, 'URL')} compared: ${count(nowDisallowed)} now disallowed, ${count(nowAllowed)} now allowed, ${count(lines - nowAllowed - nowDisallowed)} unchanged`)
  }
  return nowAllowed + nowDisallowed > 0 ? EXIT_CHANGED : 0
}
