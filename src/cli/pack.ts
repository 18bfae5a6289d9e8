/**
 * `robots-automaton pack (DIR | FILE.jsonl | -) -o BUNDLE`: many hosts'
 * robots.txt in one bundle file (bundle.ts), read by `filter --bundle`
 * with the answers `filter --robots-dir DIR` gives.
 *
 * - DIR: laid out as `--robots-dir` reads it, one file per host
 *   (`DIR/<host>`), listed and read the same way (regular files only; names
 *   that can never be a host, with capital letters, are skipped and counted).
 * - JSON lines (a file or stdin, gzip or not): one object per line,
 *   `{"origin": "https://example.com", "body": "User-agent: *\n…"}` (or
 *   `"body_base64"` for bytes that are not UTF-8), or
 *   `{"origin": …, "outcome": "unavailable" | "unreachable"}` for a fetch
 *   that gave no file (allow all / disallow all). `origin` is an origin
 *   (`https://example.com:8443`: that scheme and port only) or a bare host
 *   (`example.com`: every scheme and port); a key given twice keeps its last
 *   line. Empty lines are skipped; anything else is an error naming the line.
 *
 * Every robots.txt is parsed once here; the bundle holds the parsed rules.
 * The file is written next to BUNDLE and renamed into place, so a reader
 * never sees half a bundle.
 */
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname, basename, join } from 'node:path'
import { parseRobots, type Robots } from '../index.js'
import { flag, optionValue, parseArgs, type OptionSpec } from './args.js'
import { bodyProblem, bodyWarning, BODY_PROBLEMS, PROBLEM_WORDS, type BodyProblem } from './body-problems.js'
import { bundleKey, newBundleWriter, type BundleWriterLike } from './bundle.js'
import { CliError, describeSystemError, UsageError } from './errors.js'
import { PACK_HELP } from './help.js'
import { DEFAULT_MAX_WARNINGS } from './host-tally.js'
import { openInput, resolveInputs } from './input.js'
import { blockSizeFromEnv, lineBlocks } from './line-blocks.js'
import { lineEnd, urlEnd } from '../match/lines.js'
import { DirectoryRules } from './robots-dir.js'
import { count, megabytes, plural } from './stats.js'
import { note } from './stdio.js'

const OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', value: true },
  { name: 'quiet', short: 'q', value: false },
  { name: 'help', short: 'h', value: false },
]

/** What a pack run counted, and its warnings. */
class PackReport {
  skipped = 0
  readonly problems: Record<BodyProblem, number> = { html: 0, utf16: 0, binary: 0, truncated: 0 }
  private shown = 0
  suppressed = 0

  constructor(private readonly quiet: boolean) {}

  warn(line: string): void {
    if (this.quiet) return
    if (this.shown >= DEFAULT_MAX_WARNINGS) {
      this.suppressed++
      return
    }
    this.shown++
    note(line)
  }

  /** Counts a parsed file and warns about its problem, if any. */
  parsed(name: string, robots: Robots): void {
    const problem = bodyProblem(robots)
    if (problem !== undefined) {
      this.problems[problem]++
      this.warn(bodyWarning(name, problem, robots))
    }
  }
}

/** Packs a directory laid out as `--robots-dir` reads it. */
function packDirectory(dir: string, writer: BundleWriterLike, report: PackReport): void {
  const rules = DirectoryRules.open(dir)
  report.skipped += rules.skippedNames
  if (rules.skippedNames > 0) report.warn(`warning: ${plural(rules.skippedNames, 'name')} in '${dir}' skipped: a host's file is named in lower case`)
  for (let id = 0; id < rules.size; id++) {
    const read = rules.read(id)
    if ('robots' in read) {
      report.parsed(rules.sourceName(id), read.robots)
      writer.add({ key: rules.keyBytes(id), robots: read.robots })
    } else {
      report.skipped++
      report.warn(`warning: skipped '${rules.sourceName(id)}': ${read.reason}`)
    }
  }
}

/** Packs JSON lines (see the module comment). */
async function packJsonLines(name: string, writer: BundleWriterLike, report: PackReport): Promise<void> {
  const [input] = await resolveInputs([name])
  const reader = await openInput(input, { bytes: 0 })
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let lineNumber = 0
  try {
    for await (const block of lineBlocks(reader, input.name, blockSizeFromEnv())) {
      const bytes = block.bytes
      for (let pos = 0; pos < bytes.length; ) {
        const lf = lineEnd(bytes, pos)
        const text = decoder.decode(bytes.subarray(pos, urlEnd(bytes, pos, lf)))
        pos = lf + 1
        lineNumber++
        if (text.trim() === '') continue
        const fail = (message: string): never => {
          throw new CliError('ERR_FORMAT', `cannot read '${input.name}' line ${lineNumber}: ${message}`)
        }
        let value: unknown
        try {
          value = JSON.parse(text)
        } catch (err) {
          fail(`not JSON (${(err as Error).message})`)
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not a JSON object')
        const o = value as Record<string, unknown>
        if (typeof o.origin !== 'string') fail(`no "origin" string`)
        const key = bundleKey(o.origin as string)
        if (key === undefined) fail(`"origin" is not an origin or a host: ${JSON.stringify(o.origin)}`)
        const keyBytes = encoder.encode(key)
        const where = `${input.name}:${lineNumber} (${key})`
        if (o.outcome !== undefined && o.outcome !== 'ok') {
          if (o.outcome !== 'unavailable' && o.outcome !== 'unreachable') fail(`"outcome" must be "ok", "unavailable" or "unreachable"`)
          if (o.body !== undefined || o.body_base64 !== undefined) fail(`an "${o.outcome}" outcome has no body`)
          writer.add({ key: keyBytes, outcome: o.outcome as 'unavailable' | 'unreachable' })
          continue
        }
        let body: Uint8Array
        if (typeof o.body === 'string' && o.body_base64 === undefined) body = encoder.encode(o.body)
        else if (typeof o.body_base64 === 'string' && o.body === undefined) body = Buffer.from(o.body_base64, 'base64')
        else body = fail(`needs one of "body" (a string) or "body_base64", or an "outcome"`)
        const robots = parseRobots(body)
        report.parsed(where, robots)
        writer.add({ key: keyBytes, robots })
      }
    }
  } finally {
    await reader.close()
  }
}

/** Writes `bytes` to `path` through a temporary file renamed into place (or to stdout for `-`). */
async function writeBundle(path: string, bytes: Uint8Array): Promise<void> {
  if (path === '-') {
    await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (err) => (err ? reject(err) : resolve())))
    return
  }
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  let fd = -1
  try {
    fd = openSync(temporary, 'w')
    for (let n = 0; n < bytes.length; ) n += writeSync(fd, bytes, n, bytes.length - n)
    closeSync(fd)
    fd = -1
    renameSync(temporary, path)
  } catch (err) {
    if (fd >= 0) closeSync(fd)
    rmSync(temporary, { force: true })
    throw new CliError('ERR_WRITE', `cannot write bundle '${path}': ${describeSystemError(err)}`)
  }
}

/** Runs `pack` with the arguments after the command name; resolves to the exit code. */
export async function runPack(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, OPTIONS)
  if (flag(args, 'help')) {
    process.stdout.write(PACK_HELP)
    return 0
  }
  const [source, ...extra] = args.positionals
  if (source === undefined) throw new UsageError('missing the input: a directory of robots.txt files (one per host) or a JSON lines file')
  if (extra.length > 0) throw new UsageError(`pack takes one input, got also '${extra[0]}'`)
  const output = optionValue(args, 'output')
  if (output === undefined) throw new UsageError(`option '--output' ('-o') is required`)
  const quiet = flag(args, 'quiet')
  const started = performance.now()
  const writer = newBundleWriter()
  const report = new PackReport(quiet)
  let isDir = false
  if (source !== '-') {
    try {
      isDir = statSync(source).isDirectory()
    } catch {
      // resolveInputs names the file in its error.
    }
  }
  if (isDir) packDirectory(source, writer, report)
  else await packJsonLines(source, writer, report)
  const bytes = writer.toBytes()
  await writeBundle(output, bytes)
  if (!quiet) {
    const packed = writer.counts()
    let line =
      `${plural(writer.size, 'host')} packed into ${output === '-' ? '<stdout>' : output}: ${count(packed.robots)} robots.txt` +
      `${packed.outcomes > 0 ? `, ${plural(packed.outcomes, 'fetch outcome')}` : ''}; ${megabytes(bytes.length)} in ${((performance.now() - started) / 1000).toFixed(2)} s`
    if (report.skipped > 0) line += `; ${count(report.skipped)} skipped`
    if (writer.replaced > 0) line += `; ${plural(writer.replaced, 'key')} given more than once (the last kept)`
    const problems = BODY_PROBLEMS.filter((p) => report.problems[p] > 0).map((p) => `${count(report.problems[p])} ${PROBLEM_WORDS[p]}`)
    if (problems.length > 0) line += `; files with problems: ${problems.join(', ')}`
    if (report.suppressed > 0) line += `; ${plural(report.suppressed, 'more warning')} not shown`
    note(line)
  }
  return 0
}
