/**
 * `robots-automaton lint ROBOTS…`: every diagnostic of each robots.txt (a
 * file, `-`, an http(s) URL, or a directory, recursively) with its line
 * number on stdout, and a summary per file with the real totals on stderr.
 * Exit 1 when any file has an error or could not be read (docs/lint.md).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Diagnostic, DiagnosticTotals } from '../../index.js'
import { COMMON_OPTIONS, helpOrVersion, flag, parseArgs, type OptionSpec } from '../common/args.js'
import { BlockWriter } from '../common/block-writer.js'
import { LINT_HELP } from './lint-help.js'
import { notRegular } from '../common/not-regular.js'
import { formatOption, JSON_OPTION, outputFormat } from '../common/output-format.js'
import { bodyProblem } from '../common/body-problems.js'
import { BODY_KIND_WORDS, bodyKindCode } from '../common/body-kind.js'
import { checkRobotsSource, isRobotsUrl, LineTally, loadRobots, robotsFetching, ROBOTS_URL_OPTIONS } from '../common/load-robots.js'
import { count, plural } from '../common/numbers.js'
import { note } from '../common/stdio.js'
import { jsonLine, printable, printableValue } from '../../tools/printable.js'
import { printableBytes } from '../../tools/input-text.js'
import { CliError, readError, UsageError } from '../common/cli-error.js'

/** The options `lint` accepts (its help, lint-help.ts, names each of them). */
export const LINT_OPTIONS: readonly OptionSpec[] = [
  formatOption(),
  JSON_OPTION,
  ...ROBOTS_URL_OPTIONS,
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** `FILE:LINE: SEVERITY: MESSAGE [CODE]` (no `:LINE` for diagnostics about the whole file, line 0). */
export function formatDiagnostic(name: string, d: Diagnostic): string {
  const where = d.line > 0 ? `${name}:${d.line}` : name
  return `${where}: ${d.severity}: ${d.message} [${d.code}]`
}

/** `2 errors, 1 warning, 0 infos; 12 lines, 340 bytes` (lines: null for a fetched URL, whose raw body is not kept). */
export function summaryText(t: DiagnosticTotals, lines: number | null, bytes: number, truncated: boolean): string {
  const size = `${lines === null ? '' : `${plural(lines, 'line')}, `}${plural(bytes, 'byte')}`
  return `${plural(t.error, 'error')}, ${plural(t.warning, 'warning')}, ${plural(t.info, 'info')}; ${size}${truncated ? ' (truncated at the parsing limit)' : ''}`
}

/**
 * The files of a directory, recursively, in name order (symbolic links
 * followed); an entry that is no regular file is never opened, but its
 * error takes its place, to be said and counted. A directory met again through a link (a loop such
 * as `sub/up -> ..`) is walked once: its path goes to `loops`.
 */
function filesUnder(dir: string | Buffer, seen: Set<string>, loops: string[]): (string | Buffer | CliError)[] {
  let entries: Buffer[]
  try {
    entries = readdirSync(dir, { encoding: 'buffer' }).sort(Buffer.compare)
  } catch (err) {
    throw readError('directory', String(dir), err)
  }
  const out: (string | Buffer | CliError)[] = []
  for (const name of entries) {
    // A name that is not UTF-8 is kept as bytes (as text it would name no file), and so are the paths under it.
    const utf8 = typeof dir === 'string' && Buffer.from(`${name}`).equals(name)
    const path = utf8 ? join(dir as string, `${name}`) : Buffer.concat([typeof dir === 'string' ? Buffer.from(join(dir, '/')) : Buffer.concat([dir, Buffer.from('/')]), name])
    let info
    try {
      info = statSync(path)
    } catch {
      out.push(path) // reported as unreadable when linted
      continue
    }
    if (info.isDirectory()) {
      const id = `${info.dev}:${info.ino}`
      if (seen.has(id)) loops.push(String(path))
      else {
        seen.add(id)
        out.push(...filesUnder(path, seen, loops))
      }
    } else out.push(info.isFile() ? path : readError('robots.txt', String(path), new Error(notRegular(info))))
  }
  return out
}

/** The ROBOTS arguments with directories expanded; `loops` gets the directories met again through a link. */
function expand(sources: readonly string[], loops: string[]): (string | Buffer | CliError)[] {
  const out: (string | Buffer | CliError)[] = []
  for (const s of sources) {
    let info
    if (s !== '-' && !isRobotsUrl(s)) {
      try {
        info = statSync(s)
      } catch {
        // Reported when linted.
      }
    }
    if (info?.isDirectory()) out.push(...filesUnder(s, new Set([`${info.dev}:${info.ino}`]), loops))
    else out.push(s)
  }
  return out
}

/** Runs `lint` with the arguments after the command name; resolves to the exit code. */
export async function runLint(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, LINT_OPTIONS)
  if (helpOrVersion(args, LINT_HELP)) return 0
  const sources = args.positionals
  if (sources.length === 0) throw new UsageError('missing ROBOTS (a file, a directory, - or an http(s) URL)')
  if (sources.filter((s) => s === '-').length > 1) throw new UsageError(`stdin ('-') is named more than once`)
  for (const s of sources) checkRobotsSource(s)
  const json = outputFormat(args) === 'jsonl'
  const quiet = flag(args, 'quiet')
  const fetching = robotsFetching(args, sources)
  const loops: string[] = []
  const files = expand(sources, loops)
  if (!quiet && loops.length > 0) {
    const more = loops.length > 1 ? ` (and ${count(loops.length - 1)} more)` : ''
    note(`warning: skipped '${printable(loops[0])}'${more}: a link to a directory already linted`)
  }
  const out = new BlockWriter(process.stdout, 64 * 1024)
  const total: DiagnosticTotals = { error: 0, warning: 0, info: 0 }
  let lines = 0
  let bytes = 0
  let linted = 0
  let failed = 0
  let someLinesUnknown = false
  for (const file of files) {
    const tally = new LineTally()
    const source = String(file)
    let loaded
    try {
      if (file instanceof CliError) throw file
      loaded = await loadRobots(source, fetching, tally, file)
    } catch (err) {
      if (!(err instanceof CliError) || err.exitCode === 2 || files.length === 1) throw err
      // One unreadable file among several: said, counted, and the others still linted.
      out.flush()
      await out.drain()
      note(err.message)
      failed++
      continue
    }
    const { robots, name } = loaded
    // A path that is not UTF-8 (a name found under a directory) is shown byte for byte, `\xHH` for a byte that is not, never U+FFFD.
    const nameBytes = file instanceof Buffer ? file : undefined
    const shownName = nameBytes === undefined ? printableValue(name) : printableBytes(nameBytes)
    if (loaded.fetchNote !== undefined && !quiet) note(`${name}: ${loaded.fetchNote}`)
    const fileLines = isRobotsUrl(source) ? null : tally.lines
    const totals = { ...robots.diagnosticTotals }
    let diagnostics = robots.diagnostics
    // Binary data (gzip, an image) is no robots.txt: a whole-file error, as an HTML page is.
    const problem = bodyProblem(robots, loaded.wide)
    if (loaded.kind !== undefined) {
      // JSON or XML served as robots.txt named as what it is (an XML body also raises the library's html-body, which it replaces).
      const rest = diagnostics.filter((d) => d.code !== 'html-body')
      if (rest.length === diagnostics.length) totals.error++
      const code = bodyKindCode(loaded.kind) as Diagnostic['code']
      diagnostics = [{ line: 0, code, severity: 'error', message: `body is ${BODY_KIND_WORDS[loaded.kind]}, not a robots.txt` }, ...rest]
    } else if (problem === 'binary') {
      diagnostics = [{ line: 0, code: 'binary-body' as Diagnostic['code'], severity: 'error', message: `body is ${tally.gzip ? 'gzip' : 'binary'} data, not a robots.txt` }, ...diagnostics]
      totals.error++
    } else if (problem === 'utf16' && loaded.wide !== undefined) {
      // UTF-16 or UTF-32 named as it is, with a byte order mark (the library's utf16-body, which says UTF-16) or without one.
      const rest = diagnostics.filter((d) => d.code !== 'utf16-body')
      if (rest.length === diagnostics.length) totals.error++
      diagnostics = [{ line: 0, code: 'utf16-body', severity: 'error', message: `body is ${loaded.wide}, read as UTF-8 bytes by the reference: no rule` }, ...rest]
    }
    if (json) {
      const report = {
        source: name,
        ...(nameBytes !== undefined ? { source_base64: nameBytes.toString('base64') } : {}),
        ...(loaded.fetched !== undefined ? { fetch: loaded.fetched, fetchNote: loaded.fetchNote } : {}),
        diagnostics,
        errors: totals.error,
        warnings: totals.warning,
        infos: totals.info,
        lines: fileLines,
        bytes: robots.bytesRead,
        truncated: robots.truncated,
      }
      out.text(`${jsonLine(report)}\n`)
    } else {
      // Messages quote the file (user-agent values, patterns): escaped for the terminal.
      for (const d of diagnostics) out.text(`${shownName}${printableValue(formatDiagnostic('', d))}\n`)
    }
    // Each file's summary follows its diagnostics, also when stdout and stderr are one terminal.
    out.flush()
    await out.drain()
    if (!quiet) note(`${nameBytes === undefined ? name : printableBytes(nameBytes, false)}: ${summaryText(totals, fileLines, robots.bytesRead, robots.truncated)}`)
    linted++
    total.error += totals.error
    total.warning += totals.warning
    total.info += totals.info
    if (fileLines === null) someLinesUnknown = true
    else lines += fileLines
    bytes += robots.bytesRead
  }
  await out.end()
  if (!quiet && files.length > 1) {
    const unread = failed > 0 ? `; ${plural(failed, 'file')} not read` : ''
    note(`${plural(linted, 'file')} linted: ${summaryText(total, someLinesUnknown ? null : lines, bytes, false)}${unread}`)
  }
  if (files.length === 0) throw new CliError('ERR_READ', `no file to lint under ${sources.map((s) => `'${s}'`).join(', ')}`)
  return total.error > 0 || failed > 0 ? 1 : 0
}
