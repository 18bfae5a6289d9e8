/**
 * The `robots-automaton` command line without its process: dispatches to one
 * file per command (commands/) and resolves to the exit code; {@link
 * reportFailure} turns a failure into one line on stderr (`robots-automaton:
 * MESSAGE`) and its exit code: 0 success, 1 runtime failure, 2 usage error.
 * The process around it (stdio guards, signals, exit) is bin.ts.
 */
import { runAudit } from './commands/audit.js'
import { runCheck } from './commands/check.js'
import { runCompare } from './commands/compare.js'
import { runDiff } from './commands/diff.js'
import { runFetch } from './commands/fetch.js'
import { runFilter } from './commands/filter.js'
import { MAIN_HELP } from './main-help.js'
import { closest } from './common/args.js'
import { PROGRAM, versionLine } from './common/version.js'
import { runLint } from './commands/lint.js'
import { runPack } from './commands/pack.js'
import { runPlayground } from './commands/playground.js'
import { note } from './common/stdio.js'
import { CliError } from './common/cli-error.js'
import { CompareError } from '../compare/compare-error.js'

type Command = (argv: readonly string[]) => Promise<number>

const COMMANDS: Record<string, Command> = {
  check: runCheck,
  fetch: runFetch,
  filter: runFilter,
  lint: runLint,
  pack: runPack,
  diff: runDiff,
  audit: runAudit,
  compare: runCompare,
  playground: runPlayground,
}

/** Runs the command line `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined) throw new CliError('ERR_USAGE', `missing command (commands: ${Object.keys(COMMANDS).join(', ')}; see '${PROGRAM} --help')`, 2)
  if (first === '-h' || first === '--help' || first === 'help') {
    if (first === 'help' && rest[0] !== undefined) return commandNamed(rest[0])(['--help'])
    process.stdout.write(MAIN_HELP)
    return 0
  }
  if (first === '-V' || first === '--version') {
    process.stdout.write(`${versionLine()}\n`)
    return 0
  }
  const command = commandNamed(first)
  try {
    return await command(rest)
  } catch (err) {
    if ((err instanceof CliError || err instanceof CompareError) && err.exitCode === 2) {
      throw new CliError('ERR_USAGE', `${first}: ${err.message} (see '${PROGRAM} ${first} --help')`, 2)
    }
    throw err
  }
}

/** The command of that name (an own key of the table: `toString` is no command), or the usage error naming the closest. */
function commandNamed(name: string): Command {
  if (Object.hasOwn(COMMANDS, name)) return COMMANDS[name]
  const what = name.startsWith('-') ? `unknown option '${name}'` : `unknown command '${name}'`
  const near = name.startsWith('-') ? undefined : closest(name, Object.keys(COMMANDS))
  const hint = near === undefined ? '' : `; did you mean '${near}'?`
  throw new CliError('ERR_USAGE', `${what}${hint} (commands: ${Object.keys(COMMANDS).join(', ')}; see '${PROGRAM} --help')`, 2)
}

/** Prints the failure of {@link main} as one line (prefixed, as every stderr line: stdio.ts); returns its exit code. */
export function reportFailure(err: unknown): number {
  // The command line's errors and compare's: one line, and their exit status.
  if (err instanceof CliError || err instanceof CompareError) {
    note(err.message)
    return err.exitCode
  }
  const e = err as { message?: unknown; code?: unknown }
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0] : String(err)
  const code = typeof e?.code === 'string' ? ` (${e.code})` : ''
  note(`${message}${code}`)
  return 1
}
