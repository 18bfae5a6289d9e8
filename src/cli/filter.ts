/**
 * `robots-automaton filter`: judges URL lists line by line, against one
 * robots.txt (`--robots`) or per host from a directory (`--robots-dir`), and
 * writes the chosen lines in input order. See FILTER_HELP for the interface
 * and emitter.ts for the output formats.
 */
import { flag, optionValue, parseArgs, requiredOption, type OptionSpec } from './args.js'
import { BlockWriter } from './block-writer.js'
import { LineEmitter, type PrintMode } from './emitter.js'
import { UsageError } from './errors.js'
import { FILTER_HELP } from './help.js'
import { openInput, resolveInputs, type ByteCounter } from './input.js'
import { judgeBlock, MatcherJudge, type LineJudge } from './judge-lines.js'
import { lineBlocks } from './line-blocks.js'
import { loadRobots } from './load-robots.js'
import { ProgressBar } from './progress.js'
import { RobotsDirectory } from './robots-dir.js'
import { newStats, summaryLine } from './stats.js'
import { note } from './stdio.js'
import { agentWarning } from './agent.js'

const OPTIONS: readonly OptionSpec[] = [
  { name: 'robots', value: true },
  { name: 'robots-dir', value: true },
  { name: 'agent', value: true },
  { name: 'print', value: true, choices: ['allowed', 'disallowed', 'verdicts'] },
  { name: 'missing', value: true, choices: ['allow', 'disallow'] },
  { name: 'quiet', short: 'q', value: false },
  { name: 'help', short: 'h', value: false },
]

/** Runs `filter` with the arguments after the command name; resolves to the exit code. */
export async function runFilter(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, OPTIONS)
  if (flag(args, 'help')) {
    process.stdout.write(FILTER_HELP)
    return 0
  }
  const robotsSource = optionValue(args, 'robots')
  const robotsDir = optionValue(args, 'robots-dir')
  if (robotsSource === undefined && robotsDir === undefined) throw new UsageError(`one of '--robots' or '--robots-dir' is required`)
  if (robotsSource !== undefined && robotsDir !== undefined) throw new UsageError(`'--robots' and '--robots-dir' cannot be used together`)
  const agent = requiredOption(args, 'agent')
  const mode = (optionValue(args, 'print') ?? 'allowed') as PrintMode
  const missing = optionValue(args, 'missing')
  if (missing !== undefined && robotsDir === undefined) throw new UsageError(`'--missing' applies only with '--robots-dir'`)
  const quiet = flag(args, 'quiet')
  const files = args.positionals
  const stdinFiles = files.filter((f) => f === '-').length
  if (stdinFiles > 1) throw new UsageError(`stdin ('-') is named more than once`)
  if (robotsSource === '-' && (files.length === 0 || stdinFiles > 0)) {
    throw new UsageError(`'--robots -' reads the robots.txt from stdin, so the URLs must come from FILE arguments`)
  }

  const inputs = await resolveInputs(files)
  if (!quiet) {
    const warning = agentWarning(agent)
    if (warning !== undefined) note(warning)
  }
  const stats = newStats()
  let judge: LineJudge
  if (robotsSource !== undefined) {
    const loaded = await loadRobots(robotsSource)
    if (loaded.fetchNote !== undefined && !quiet) note(`${loaded.name}: ${loaded.fetchNote}`)
    judge = new MatcherJudge(loaded.robots.agent(agent))
  } else {
    judge = new RobotsDirectory(robotsDir!, { agent, missingAllowed: missing !== 'disallow' }, stats)
  }

  const writer = new BlockWriter(process.stdout)
  const emitter = new LineEmitter(writer, mode)
  const counter: ByteCounter = { bytes: 0 }
  const sizes = inputs.map((i) => i.size)
  const total = sizes.every((s) => s !== undefined) ? sizes.reduce((a, b) => a! + b!, 0) : undefined
  const progress = !quiet && process.stderr.isTTY ? new ProgressBar(process.stderr, total) : undefined
  const started = performance.now()

  for (let i = 0; i < inputs.length; i++) {
    const reader = await openInput(inputs[i], counter)
    try {
      const terminateLast = i < inputs.length - 1
      for await (const block of lineBlocks(reader, inputs[i].name)) {
        judgeBlock(block.bytes, judge, emitter, stats, terminateLast)
        await writer.drain()
        progress?.update(counter.bytes, stats.lines)
      }
    } finally {
      await reader.close()
    }
  }
  await writer.end()
  progress?.clear()
  if (!quiet) note(summaryLine(stats, (performance.now() - started) / 1000, robotsDir !== undefined))
  return 0
}

