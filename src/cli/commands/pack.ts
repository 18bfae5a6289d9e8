/**
 * `robots-automaton pack (DIR | FILE.jsonl | BUNDLE | -)... -o BUNDLE`:
 * many hosts' robots.txt in one bundle (`store.toBytes()`,
 * src/store/bundle-codec.ts) for `filter --bundle`; several inputs are
 * merged, the newest fetch winning per key. Inputs and their rules (names,
 * keys, JSON lines): docs/pack.md. Every body is parsed once here; the
 * file is written beside BUNDLE and renamed into place.
 */
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { lineEnd, parseRobots, RobotsFormatError, RobotsInputError, RobotsStore, urlEnd, type Robots } from '../../index.js'
import { checkOutput, willWrite, writeOutput, type OutputTarget } from '../common/output-file.js'
import { checkOutputsApart, outputFile } from '../common/output-clash.js'
import { bundleOrLines, readBundleStore } from '../fetch/bundle-file.js'
import { BUNDLE_MAGIC_BYTES, isBundle } from '../hosts/bundle-rules.js'
import { entryIn, putEntry, type FetchedEntry } from '../fetch/fetch-entry.js'
import { entryOfRecord } from '../fetch/fetch-record.js'
import { COMMON_OPTIONS, helpOrVersion, flag, optionValue, parseArgs, type OptionSpec } from '../common/args.js'
import { bodyProblem, bodyWarning, BODY_PROBLEMS, PROBLEM_WORDS, type BodyProblem } from '../common/body-problems.js'
import { wideRefusal, wideWords } from '../../tools/wide-text.js'
import { PACK_HELP } from './pack-help.js'
import { DEFAULT_MAX_WARNINGS } from '../hosts/host-tally.js'
import { openInput, resolveInputs, type ByteReader } from '../filter/input.js'
import { blockSizeFromEnv, lineBlocks } from '../filter/line-blocks.js'
import { DirectoryRules } from '../hosts/robots-dir.js'
import { printable } from '../../tools/printable.js'
import { count, megabytes, plural } from '../common/numbers.js'
import { note } from '../common/stdio.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options `pack` accepts (its help, pack-help.ts, names each of them). */
export const PACK_OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', value: true },
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** What a pack run counted, and its warnings. */
class PackReport {
  skipped = 0
  /** Files naming a host that could not be read, and the first of them with why. */
  unreadable = 0
  firstUnreadable: string | undefined
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

  /** Counts a parsed file and warns about its problem, if any (`body`: its bytes, or their start, when at hand: UTF-16 or UTF-32 text is named so). */
  parsed(name: string, robots: Robots, body: Uint8Array | undefined): void {
    let problem = bodyProblem(robots)
    if (problem === undefined) return
    const wide = problem === 'binary' || problem === 'utf16' ? wideWords(body) : undefined
    if (wide !== undefined) problem = bodyProblem(robots, wide)!
    this.problems[problem]++
    this.warn(bodyWarning(name, problem, robots, undefined, wide))
  }
}

/** The store being packed, with the counts `pack` reports. */
class Packer {
  readonly store = new RobotsStore()
  /** Entries added, a key given twice counted twice. */
  private added = 0

  /**
   * Stores `entry` under `key` (as `RobotsStore` takes keys). A key given
   * twice keeps the newest fetch (by fetch info's `fetchedAt`; an entry
   * without fetch info counts as older than any with it), the later one
   * when neither is newer. A RobotsInputError for fetch info out of range.
   */
  add(key: string, entry: FetchedEntry): void {
    this.added++
    const held = this.store.fetchInfo(key)
    if (held !== undefined && (entry.info?.fetchedAt ?? -Infinity) < held.fetchedAt) return
    putEntry(this.store, key, entry)
  }

  /** Entries replaced by a later one with the same key. */
  get replaced(): number {
    return this.added - this.store.size
  }

  /** Entries holding a robots.txt, and entries holding a fetch outcome (nothing is deleted: ids are `0 .. size - 1`). */
  counts(): { robots: number; outcomes: number } {
    let robots = 0
    for (const id of this.store.ids()) if (this.store.entrySource(id) === 'robots') robots++
    return { robots, outcomes: this.store.size - robots }
  }
}

/** The name in `dir` of the output file, when it lies there (a bundle `pack DIR -o DIR/x` wrote before), else undefined. */
function outputNameIn(dir: string, output: OutputTarget): string | undefined {
  if (output.kind !== 'file') return undefined
  try {
    return realpathSync(dirname(output.file)) === realpathSync(dir) ? basename(output.file) : undefined
  } catch {
    return undefined
  }
}

/** Packs a directory laid out as `--robots-dir` reads it (but the output's own file, when it lies there). */
function packDirectory(dir: string, pack: Packer, report: PackReport, output: OutputTarget): void {
  const rules = DirectoryRules.open(dir)
  const own = outputNameIn(dir, output)
  // Names that are not a host as URLs give it: each named, with the name to give it.
  report.skipped += rules.skipped.count
  for (const s of rules.skipped.names) report.warn(`warning: skipped '${printable(rules.dirPrefix + s.name)}': ${printable(s.reason)}`)
  report.suppressed += rules.skipped.count - rules.skipped.names.length
  for (let id = 0; id < rules.size; id++) {
    const key = rules.name(id)
    if (rules.fileName(id) === own) {
      report.skipped++
      report.warn(`warning: skipped '${printable(rules.sourceName(id))}': it is the output (-o), not a host's robots.txt`)
      continue
    }
    const read = rules.read(id)
    if ('robots' in read) {
      report.parsed(rules.sourceName(id), read.robots, read.head)
      pack.add(key, { rules: read.robots })
    } else {
      report.skipped++
      report.unreadable++
      report.firstUnreadable ??= `'${rules.sourceName(id)}': ${read.reason}`
      report.warn(`warning: skipped '${rules.sourceName(id)}': ${read.reason}`)
    }
  }
}

/**
 * The bytes of a base64 text (blanks and line breaks allowed, padding
 * optional, the URL-safe alphabet too), or undefined when it is not base64:
 * Node's decoder would skip what is not and decode the rest.
 */
function base64Bytes(text: string): Uint8Array | undefined {
  const s = text.replace(/[\t\n\r ]+/g, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1) return undefined
  return Buffer.from(s, 'base64')
}

/**
 * Packs an input that is not a directory nor a bundle file: JSON lines (see
 * the module comment), or a bundle that comes through a pipe, stdin or gzip
 * (told by its first bytes, as decoded).
 */
async function packStream(name: string, pack: Packer, report: PackReport): Promise<void> {
  const [input] = await resolveInputs([name])
  const read = await bundleOrLines(await openInput(input, { bytes: 0 }), input.name)
  if (read instanceof RobotsStore) addBundle(read, input.name, pack, report)
  else await packJsonLines(input.name, read, pack, report)
}

/** Packs the JSON lines of `reader` (see the module comment), read from `name`; closes `reader`. */
async function packJsonLines(name: string, reader: ByteReader, pack: Packer, report: PackReport): Promise<void> {
  // JSON is UTF-8: a line that is not would be read with U+FFFD, another body than the one written.
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let lineNumber = 0
  try {
    for await (const block of lineBlocks(reader, name, blockSizeFromEnv())) {
      const bytes = block.bytes
      for (let pos = 0; pos < bytes.length; ) {
        const lf = lineEnd(bytes, pos)
        const line = bytes.subarray(pos, urlEnd(bytes, pos, lf))
        pos = lf + 1
        lineNumber++
        const fail = (message: string): never => {
          // UTF-16 or UTF-32 text (a file saved so) is named, with the conversion to make, rather than each line's symptom.
          throw new CliError('ERR_FORMAT', `cannot read '${name}' line ${lineNumber}: ${wideRefusal(line, 'JSON') ?? message}`)
        }
        let text = ''
        try {
          text = decoder.decode(line)
        } catch {
          fail('not valid UTF-8 (a body that is not UTF-8 goes in "body_base64")')
        }
        if (text.trim() === '') continue
        let value: unknown
        try {
          value = JSON.parse(text)
        } catch (err) {
          fail(`not JSON (${(err as Error).message})`)
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not a JSON object')
        const o = value as Record<string, unknown>
        if (typeof o.origin !== 'string') fail(`no "origin" string`)
        let key = ''
        try {
          key = RobotsStore.keyOf(o.origin as string)
        } catch (err) {
          if (!(err instanceof RobotsInputError)) throw err
          // The store's reason, after the key it names (a host refused, a port that is none).
          const rest = err.message.replace(/^[^"]*"(?:[^"\\]|\\.)*" /s, '')
          const why = /^(?:is not an origin \(scheme:\/\/host\[:port\]\) or a bare host \(host, no port\)|is not a URL of a site): (.*)$/s.exec(rest)?.[1]
          fail(`"origin" is not an origin or a host: ${JSON.stringify(o.origin)}${why === undefined ? '' : ` (${why})`}`)
        }
        const where = `${name}:${lineNumber} (${key})`
        if (o.entry !== undefined) {
          // A record of `fetch --format jsonl`: the entry's rules and its fetch info.
          const entry = entryOfRecord(o, fail)
          if (typeof entry.rules !== 'string') report.parsed(where, entry.rules, undefined)
          try {
            pack.add(key, entry)
          } catch (err) {
            if (err instanceof RobotsInputError) fail(err.message)
            throw err
          }
          continue
        }
        if (o.outcome !== undefined && o.outcome !== 'ok') {
          if (o.outcome !== 'unavailable' && o.outcome !== 'unreachable') fail(`"outcome" must be "ok", "unavailable" or "unreachable"`)
          if (o.body !== undefined || o.body_base64 !== undefined) fail(`an "${o.outcome}" outcome has no body`)
          pack.add(key, { rules: o.outcome as 'unavailable' | 'unreachable' })
          continue
        }
        let body: Uint8Array
        if (typeof o.body === 'string' && o.body_base64 === undefined) body = new TextEncoder().encode(o.body)
        else if (typeof o.body_base64 === 'string' && o.body === undefined) body = base64Bytes(o.body_base64) ?? fail(`"body_base64" is not base64 (a text body goes in "body")`)
        else if (o.outcome === 'ok') body = fail(`an "ok" outcome needs one of "body" (a string) or "body_base64"`)
        else body = fail(`needs one of "body" (a string) or "body_base64", or an "unavailable" or "unreachable" outcome`)
        const robots = parseRobots(body)
        report.parsed(where, robots, body)
        pack.add(key, { rules: robots })
      }
    }
  } finally {
    await reader.close()
  }
}

/** Adds every entry of the bundle at `path`, with its fetch info. */
function packBundle(path: string, pack: Packer, report: PackReport): void {
  addBundle(readBundleStore(path), path, pack, report)
}

/**
 * Adds every entry of a bundle's store, read from `path`, with its fetch
 * info. An entry whose rules are not valid (a crafted file: checked on first
 * use) is skipped and counted as an unreadable file is.
 */
function addBundle(store: RobotsStore, path: string, pack: Packer, report: PackReport): void {
  for (const key of store.keys()) {
    let entry: FetchedEntry
    try {
      entry = entryIn(store, key)!
    } catch (err) {
      if (!(err instanceof RobotsFormatError)) throw err
      const reason = `its rules in the bundle are not valid: ${err.message}`
      report.skipped++
      report.unreadable++
      report.firstUnreadable ??= `'${printable(`${path}#${key}`)}': ${reason}`
      report.warn(`warning: skipped '${printable(`${path}#${key}`)}': ${reason}`)
      continue
    }
    if (typeof entry.rules !== 'string') report.parsed(`${path}#${key}`, entry.rules, undefined)
    pack.add(key, entry)
  }
}

/** Whether the regular file `path` starts as a bundle does; a FIFO or device is not opened here (its bytes would be taken, or its open wait for a writer): the stream reader tells. */
function startsAsBundle(path: string): boolean {
  let fd = -1
  try {
    if (!statSync(path).isFile()) return false
    fd = openSync(path, 'r')
    const head = new Uint8Array(BUNDLE_MAGIC_BYTES)
    return isBundle(head.subarray(0, readSync(fd, head, 0, head.length, 0)))
  } catch {
    return false // read again below, which names the file in its error
  } finally {
    if (fd >= 0) closeSync(fd)
  }
}

/** Runs `pack` with the arguments after the command name; resolves to the exit code. */
export async function runPack(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, PACK_OPTIONS)
  if (helpOrVersion(args, PACK_HELP)) return 0
  const sources = args.positionals
  if (sources.length === 0) throw new UsageError('missing the input: a directory of robots.txt files (one per host), a JSON lines file or bundles to merge')
  if (sources.filter((s) => s === '-').length > 1) throw new UsageError(`stdin ('-') is named more than once`)
  const output = optionValue(args, 'output')
  if (output === undefined) throw new UsageError(`option '--output' ('-o') is required`)
  // Checked before any input is read: a bad path is found at once.
  const target = willWrite(checkOutput(output, 'bundle'))
  // A bundle merged into itself is read whole first, then replaced; any other input is the user's data.
  checkOutputsApart([{ option: '--output', file: outputFile(target) }], sources.map((path) => ({ what: 'input file', path, replacedBy: startsAsBundle(path) ? '--output' : undefined })))
  const quiet = flag(args, 'quiet')
  const started = performance.now()
  const pack = new Packer()
  const report = new PackReport(quiet)
  for (const source of sources) {
    let isDir = false
    if (source !== '-') {
      try {
        isDir = statSync(source).isDirectory()
      } catch {
        // resolveInputs names the file in its error.
      }
    }
    if (isDir) packDirectory(source, pack, report, target)
    else if (source !== '-' && startsAsBundle(source)) packBundle(source, pack, report)
    else await packStream(source, pack, report)
  }
  // An empty bundle would judge every URL as one of a host without a robots.txt: an input with no host is an error.
  if (!pack.store.size) throw new CliError('ERR_READ', 'no host to pack: no bundle written')
  // A host's file that could not be read is a local failure, not the site's answer: a bundle without
  // it would judge its host as one without a robots.txt, so none is written and the output stays as it was.
  if (report.unreadable > 0) {
    const one = report.unreadable === 1
    const kept = target.kind === 'file' ? ` ('${printable(output)}' left as it was)` : ''
    throw new CliError('ERR_READ', `${one ? 'a robots.txt file' : `${count(report.unreadable)} robots.txt files`} could not be read (${one ? '' : 'the first: '}${report.firstUnreadable}): no bundle written${kept}; make ${one ? 'it' : 'them'} readable or remove ${one ? 'it' : 'them'}, and pack again`)
  }
  let bytes: Uint8Array
  try {
    bytes = pack.store.toBytes()
  } catch (err) {
    throw new CliError('ERR_WRITE', `cannot write bundle '${output}': ${(err as Error).message}`)
  }
  await writeOutput(target, bytes)
  if (!quiet) {
    const packed = pack.counts()
    let line =
      `${plural(pack.store.size, 'host')} packed into ${output === '-' ? '<stdout>' : output}: ${count(packed.robots)} robots.txt` +
      `${packed.outcomes > 0 ? `, ${plural(packed.outcomes, 'fetch outcome')}` : ''}; ${megabytes(bytes.length)} in ${((performance.now() - started) / 1000).toFixed(2)} s`
    if (report.skipped > 0) line += `; ${count(report.skipped)} skipped`
    if (pack.replaced > 0) line += `; ${plural(pack.replaced, 'key')} given more than once (the newest fetch kept, else the last)`
    const problems = BODY_PROBLEMS.filter((p) => report.problems[p] > 0).map((p) => `${count(report.problems[p])} ${PROBLEM_WORDS[p]}`)
    if (problems.length > 0) line += `; files with problems: ${problems.join(', ')}`
    if (report.suppressed > 0) line += `; ${plural(report.suppressed, 'more warning')} not shown`
    note(line)
  }
  return 0
}
