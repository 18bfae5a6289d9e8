/**
 * `robots-automaton lint ROBOTS`: every diagnostic with its line number, a
 * summary on stderr, exit 1 when there is an error (`--json`: one JSON object).
 */
import type { Diagnostic } from '../index.js'
import { flag, parseArgs, type OptionSpec } from './args.js'
import { BlockWriter } from './block-writer.js'
import { UsageError } from './errors.js'
import { LINT_HELP } from './help.js'
import { loadRobots } from './load-robots.js'
import { plural } from './stats.js'
import { note } from './stdio.js'
import { jsonLine, printable } from './escape.js'

const OPTIONS: readonly OptionSpec[] = [
  { name: 'json', value: false },
  { name: 'quiet', short: 'q', value: false },
  { name: 'help', short: 'h', value: false },
]

/** `FILE:LINE: SEVERITY: MESSAGE [CODE]` (no `:LINE` for diagnostics about the whole file, line 0). */
export function formatDiagnostic(name: string, d: Diagnostic): string {
  const where = d.line > 0 ? `${name}:${d.line}` : name
  return `${where}: ${d.severity}: ${d.message} [${d.code}]`
}

/** Runs `lint` with the arguments after the command name; resolves to the exit code. */
export async function runLint(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, OPTIONS)
  if (flag(args, 'help')) {
    process.stdout.write(LINT_HELP)
    return 0
  }
  const [source, ...extra] = args.positionals
  if (source === undefined) throw new UsageError('missing ROBOTS (a file, - or an http(s) URL)')
  if (extra.length > 0) throw new UsageError(`lint takes one ROBOTS, got also '${extra[0]}'`)
  const json = flag(args, 'json')
  const quiet = flag(args, 'quiet')
  const loaded = await loadRobots(source)
  if (loaded.fetchNote !== undefined && !quiet) note(`${loaded.name}: ${loaded.fetchNote}`)
  const { robots, name } = loaded
  const diagnostics = robots.diagnostics
  const tally = { error: 0, warning: 0, info: 0 }
  for (const d of diagnostics) tally[d.severity]++
  const out = new BlockWriter(process.stdout, 64 * 1024)
  if (json) {
    const report = {
      source: name,
      ...(loaded.fetched !== undefined ? { fetch: loaded.fetched, fetchNote: loaded.fetchNote } : {}),
      diagnostics,
      errors: tally.error,
      warnings: tally.warning,
      infos: tally.info,
      lines: robots.lineCount,
      bytes: robots.bytesRead,
      truncated: robots.truncated,
    }
    out.text(`${jsonLine(report)}\n`)
  } else {
    // Messages quote the file (user-agent values, patterns): escaped for the terminal.
    for (const d of diagnostics) out.text(`${printable(formatDiagnostic(name, d))}\n`)
  }
  await out.end()
  if (!quiet) {
    note(
      `${name}: ${plural(tally.error, 'error')}, ${plural(tally.warning, 'warning')}, ${plural(tally.info, 'info')}; ` +
        `${plural(robots.lineCount, 'line')}, ${plural(robots.bytesRead, 'byte')}${robots.truncated ? ' (truncated at the parsing limit)' : ''}`,
    )
  }
  return tally.error > 0 ? 1 : 0
}
