/**
 * `robots-automaton fetch [FILE...] -o OUTPUT`: the robots.txt of every
 * distinct origin of a URL list or log (fetch/origin-input.ts), fetched
 * with the access method over the Node transport (its own resolver, the
 * address policy, at most `--per-ip` requests to one address) at bounded
 * concurrency (fetch/fetch-pool.ts), into one bundle whose entries keep
 * their fetch info, or JSON lines; `--update` refreshes what is due,
 * conditionally. Every finished origin goes to a journal beside the output
 * (fetch/journal.ts), so that the same command run again after a kill, an
 * interrupt or a crash goes on where it stopped; the output is written from
 * it in the plan's order (fetch/fetch-output.ts) and the journal removed
 * (kept, with exit 1, when origins this machine could not fetch were left
 * out: the same command run again fetches them).
 * The manual: docs/fetch.md.
 */
import { setMaxListeners } from 'node:events'
import { realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { RobotsFetchResult, RobotsStore } from '../../index.js'
import { COMMON_OPTIONS, flag, helpOrVersion, intOption, optionValue, optionValues, parseArgs, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { count, plural } from '../common/numbers.js'
import { checkOutput, OutputWriter, type OutputTarget } from '../common/output-file.js'
import { checkOutputsApart, outputFile } from '../common/output-clash.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted } from '../common/progress.js'
import { note } from '../common/stdio.js'
import { defaultUserAgent } from '../common/version.js'
import { commandLine, Interrupt } from '../common/interrupt.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'
import { readBundleStore } from '../fetch/bundle-file.js'
import { descriptorLimit, fittingConcurrency } from '../fetch/descriptors.js'
import { applyFetch, entryIn, previousFetch, type FetchedEntry } from '../fetch/fetch-entry.js'
import { checkRecord, writeFetchOutput, type RecordSpans } from '../fetch/fetch-output.js'
import { planFetch, type FetchPlan } from '../fetch/fetch-plan.js'
import { DEFAULT_CONCURRENCY, DEFAULT_PER_IP, DEFAULT_TIMEOUT_S, NoProgressError, runFetches } from '../fetch/fetch-pool.js'
import { fetchRecord, type FetchRun } from '../fetch/fetch-record.js'
import { FetchTally, leftOutError } from '../fetch/fetch-tally.js'
import { Journal, readBackWarnings } from '../fetch/journal.js'
import { NET_OPTIONS, netTransport } from '../common/net-options.js'
import { OriginList, originListLayout, readOrigins } from '../fetch/origin-input.js'
import { resolveInputs, type InputFile } from '../filter/input.js'
import { EXIT_NO_URL, faultNote, noUrlMessage } from '../filter/line-faults.js'
import { INPUT_OPTIONS, WHOLE_LINES, type LineLayout } from '../filter/line-layout.js'
import { FETCH_HELP } from './fetch-help.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options `fetch` accepts (its help, fetch-help.ts, names each of them). */
export const FETCH_OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', value: true },
  { name: 'format', value: true, choices: ['bundle', 'jsonl'] },
  { name: 'update', value: true },
  { name: 'refresh-older-than', value: true },
  { name: 'journal', value: true },
  { name: 'concurrency', value: true },
  { name: 'per-ip', value: true },
  { name: 'timeout', value: true },
  { name: 'give-up-after', value: true },
  { name: 'user-agent', value: true },
  { name: 'allow-private', value: false },
  ...NET_OPTIONS,
  ...INPUT_OPTIONS,
  { name: 'scheme', value: true, choices: ['https', 'http'] },
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Most requests in flight `--concurrency` accepts. */
export const MAX_CONCURRENCY = 65_536
/** Longest `--timeout`, in seconds. */
const MAX_TIMEOUT_S = 3600
/** Default `--give-up-after`: how long a run may see only failures of this machine before it stops (s; more with a long --timeout). */
const DEFAULT_GIVE_UP_S = 120

/** `--give-up-after SECONDS` in ms (default: DEFAULT_GIVE_UP_S, or 6 deadlines if longer). */
export function giveUpMs(args: ParsedArgs, timeout: number): number {
  const value = optionValue(args, 'give-up-after')
  if (value === undefined) return Math.max(DEFAULT_GIVE_UP_S * 1000, 6 * timeout)
  return secondsMs('give-up-after', value, 86_400)
}

/** `--timeout SECONDS` in ms. */
export function timeoutMs(args: ParsedArgs): number {
  const value = optionValue(args, 'timeout')
  if (value === undefined) return DEFAULT_TIMEOUT_S * 1000
  return secondsMs('timeout', value, MAX_TIMEOUT_S)
}

/** A time option's SECONDS in whole ms: at least 1 ms (a value that rounds to 0 ms is refused, not read as no time at all), at most `max` s. */
function secondsMs(option: string, value: string, max: number): number {
  const s = /^[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : NaN
  const ms = Math.round(s * 1000)
  if (!(ms >= 1 && s <= max)) throw new UsageError(`option '--${option}' must be a number of seconds from 0.001 (1 ms) to ${max} (got '${value}')`)
  return ms
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** `--refresh-older-than DURATION` in ms (`30s`, `90m`, `12h`, `7d`, `2w`; `0`: everything), Infinity without it. */
function olderThanMs(args: ParsedArgs, updating: boolean): number {
  const value = optionValue(args, 'refresh-older-than')
  if (value === undefined) return Infinity
  if (!updating) throw new UsageError(`option '--refresh-older-than' goes with '--update BUNDLE'`)
  if (value === '0') return 0
  const m = /^([0-9]+(?:\.[0-9]+)?)([smhdw])$/.exec(value)
  if (m === null) throw new UsageError(`option '--refresh-older-than' takes a duration: a number and a unit, s, m, h, d or w (30m, 12h, 7d), or 0 (got '${value}')`)
  return Number(m[1]) * UNITS[m[2]!]!
}

/**
 * `--user-agent`, checked as `fetchRobots` checks its `userAgent` (one header
 * value, at most 1,024 chars: a server answers a longer one with 431 or 400,
 * which would be written down as the site's robots.txt unavailable), or the
 * default.
 */
export function userAgentOption(args: ParsedArgs): string {
  const userAgent = optionValue(args, 'user-agent') ?? defaultUserAgent()
  if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(userAgent)) throw new UsageError(`option '--user-agent' must be a header value: one line of printable characters, none past U+00FF`)
  if (userAgent.length > 1024) throw new UsageError(`option '--user-agent' takes at most 1,024 characters (got ${userAgent.length}): servers refuse a longer header, which would read as every site's robots.txt unavailable`)
  return userAgent
}

/**
 * What a run is, for its journal: what decides the origins, their keys,
 * the output (`format`: `audit` for `audit --fetch`), and the options that
 * decide what a site answers or where it is asked (a journal's records are
 * outcomes under them).
 */
export function runIdentity(args: ParsedArgs, output: OutputTarget | undefined, format: string): unknown {
  const inputs = args.positionals
  const layout = ['field', 'host-field', 'delimiter', 'log-format', 'host', 'scheme'].map((n) => [n, optionValue(args, n) ?? null])
  const path = output === undefined ? null : output.kind === 'file' ? output.file : output.path
  return {
    output: path,
    format,
    update: optionValue(args, 'update') ?? null,
    inputs,
    layout,
    '--user-agent': optionValue(args, 'user-agent') ?? null,
    '--allow-private': flag(args, 'allow-private'),
    '--resolve': optionValues(args, 'resolve'),
    '--connect-to': optionValues(args, 'connect-to'),
    // A deadline missed is the site's outcome (unreachable); a DNS server decides the address asked.
    '--timeout': timeoutMs(args) / 1000,
    '--dns-server': optionValues(args, 'dns-server'),
  }
}

/** Keys of {@link runIdentity} that version-2 journals made before them lack: such a journal is taken as made with the values of now. */
export const LATER_IDENTITY_KEYS: readonly string[] = ['--timeout', '--dns-server']

/**
 * The journal's file: `--journal FILE` checked as an output (through a link
 * to its final target, so a dangling link is created where it points), or
 * beside an output file; none for a stream without `--journal`. A journal
 * is read back and appended to, so a FIFO, a device or stdout cannot be one.
 */
export function journalPathOf(option: string | undefined, output: OutputTarget | undefined): string | undefined {
  if (option === undefined) return output?.kind === 'file' ? `${output.file}.journal` : undefined
  const target = checkOutput(option, 'journal')
  if (target.kind !== 'file') throw new CliError('ERR_WRITE', `cannot use the journal '${option}': ${option === '-' ? 'stdout' : 'a FIFO or a device'} cannot be read back: name a regular file`)
  // The journal is removed once the output is written: the same file would be written, then removed.
  if (output?.kind === 'file' && canonicalPath(target.file) === canonicalPath(output.file)) {
    throw new UsageError(`option '--journal' names the output itself ('${option}'): the journal is removed once the output is written; name another file`)
  }
  return target.file
}

/** `file` with its folder's links resolved (the file itself may not be there yet). */
function canonicalPath(file: string): string {
  const full = resolve(file)
  try {
    return join(realpathSync(dirname(full)), basename(full))
  } catch {
    return full
  }
}

/** Runs `fetch` with the arguments after the command name; resolves to the exit code. */
export async function runFetch(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, FETCH_OPTIONS)
  if (helpOrVersion(args, FETCH_HELP)) return 0
  const outputPath = optionValue(args, 'output')
  if (outputPath === undefined) throw new UsageError(`option '--output' ('-o') is required`)
  const format = (optionValue(args, 'format') ?? 'bundle') as 'bundle' | 'jsonl'
  const requested = intOption(args, 'concurrency', 1, MAX_CONCURRENCY, DEFAULT_CONCURRENCY)
  const perIp = intOption(args, 'per-ip', 1, MAX_CONCURRENCY, DEFAULT_PER_IP)
  const timeout = timeoutMs(args)
  const stallMs = giveUpMs(args, timeout)
  const userAgent = userAgentOption(args)
  const transport = netTransport(args, { perAddress: perIp, connectTimeoutMs: timeout })
  const layout = originListLayout(args)
  const scheme = (optionValue(args, 'scheme') ?? 'https') as 'http' | 'https'
  const updatePath = optionValue(args, 'update')
  const refreshOlderThan = olderThanMs(args, updatePath !== undefined)
  const quiet = flag(args, 'quiet')
  const allowPrivate = flag(args, 'allow-private')
  const files = args.positionals
  if (files.filter((f) => f === '-').length > 1) throw new UsageError(`stdin ('-') is named more than once`)

  // The output (and the journal beside it) are checked before anything is read or fetched.
  const output = checkOutput(outputPath, format === 'bundle' ? 'bundle' : 'output')
  const journalPath = journalPathOf(optionValue(args, 'journal'), output)
  checkOutputsApart(
    [{ option: '--output', file: outputFile(output) }, { option: '--journal', file: journalPath }],
    [{ what: "'--update' bundle", path: updatePath, replacedBy: '--output' }, ...files.map((path) => ({ what: 'input file', path }))],
  )
  let spool: string | undefined
  let journal: Journal | undefined
  try {
    if (journalPath !== undefined) journal = Journal.open(journalPath, runIdentity(args, output, format), LATER_IDENTITY_KEYS)
    else if (format === 'bundle') {
      // A bundle to a stream is written once complete: its records wait on disk meanwhile, not in memory.
      spool = makeTempFolder('robots-fetch-')
      journal = Journal.open(join(spool, 'journal'), null)
    }
    return await fetchRun({ args, argv, output, journal, persistent: journalPath !== undefined, format, transport, layout, scheme, updatePath, refreshOlderThan, quiet, allowPrivate, requested, timeout, stallMs, userAgent, files })
  } finally {
    transport.close()
    if (spool !== undefined) {
      journal?.remove()
      removeTempFolder(spool)
    }
    // However the run ended, the journal is let go (its lock with it): a no-op once closed or removed.
    try {
      journal?.close()
    } catch {
      // its failure was the run's, thrown already
    }
  }
}

interface RunSettings {
  readonly args: ParsedArgs
  readonly argv: readonly string[]
  readonly output: OutputTarget
  readonly journal: Journal | undefined
  /** Whether the journal is kept for the next run (else it is a spool of this run only). */
  readonly persistent: boolean
  readonly format: 'bundle' | 'jsonl'
  readonly transport: ReturnType<typeof netTransport>
  /** The input's layout; undefined for a URL or a host alone a line. */
  readonly layout: LineLayout | undefined
  readonly scheme: 'http' | 'https'
  readonly updatePath: string | undefined
  readonly refreshOlderThan: number
  readonly quiet: boolean
  readonly allowPrivate: boolean
  readonly requested: number
  readonly timeout: number
  readonly stallMs: number
  readonly userAgent: string
  readonly files: readonly string[]
}

/**
 * Reads the inputs and makes the run's plan; the list of origins read is
 * not kept (memory holds the plan's keys, not the map that found them).
 */
async function readPlan(s: RunSettings, old: RobotsStore | undefined): Promise<FetchPlan> {
  // With --update, no FILE means no input (the bundle alone is refreshed); otherwise stdin, as filter reads.
  const inputs: InputFile[] = s.updatePath !== undefined && s.files.length === 0 ? [] : await resolveInputs(s.files)
  const list = new OriginList(s.scheme)
  await readOrigins(inputs, s.layout, list)
  if (!s.quiet) {
    const first = list.firstFault
    if (first !== undefined) {
      const why = [...list.faults].map(([reason, n]) => `${reason} ${count(n)}`).join(', ')
      note(faultNote(first, s.layout ?? WHOLE_LINES, `${plural(list.faulty, 'line')} without a URL or host give no origin (${why})`))
    }
    if (list.unusable > 0) note(list.unusableNote)
    if (list.conflicts > 0) note(list.conflictNote)
  }
  // Input that names no host is an error, with --update too: a log read without its --log-format refreshes nothing.
  // An empty list fetches nothing (an empty bundle written with exit 0 would look like a run done); --update alone refreshes the bundle's own hosts.
  if (list.lines === 0 && list.origins.size === 0 && s.updatePath === undefined) throw new CliError('ERR_NO_URL', 'the URL list is empty (0 lines read): no host to fetch, nothing written', EXIT_NO_URL)
  if (list.lines > 0 && list.origins.size === 0) throw new CliError('ERR_NO_URL', noUrlMessage(list.lines, true, list.firstFault, s.layout ?? WHOLE_LINES, !s.quiet, list.noOriginWhy), EXIT_NO_URL)
  return planFetch(list, old, s.scheme, Date.now(), s.refreshOlderThan)
}

async function fetchRun(s: RunSettings): Promise<number> {
  const { output, journal, format, quiet } = s
  // Every entry's rules checked before any fetch: one that is not valid refuses the file, naming it, instead of failing the run midway.
  const old = s.updatePath === undefined ? undefined : readBundleStore(s.updatePath, false)
  const plan = await readPlan(s, old)
  const tally = new FetchTally()
  tally.kept = plan.keys.size - plan.jobs.length
  const n = plan.keys.size
  const spans: RecordSpans = { offsets: new Float64Array(n).fill(-1), lengths: new Int32Array(n) }

  // A run taken up again: the origins its journal holds are not fetched again.
  if (journal?.resumed) {
    const found = journal.readBack((text, span) => {
      // Each record checked as the output reads it (its fields in any order): a damaged one is skipped (its origin fetched again), not met once the fetches are over.
      const record = checkRecord(text)
      if (record.problem !== undefined) return { kind: 'damaged', why: record.problem }
      const i = plan.keys.indexOf(record.origin)
      if (i < 0) return { kind: 'foreign', why: record.origin }
      // Kept from the bundle updated (written there by a run interrupted): not needed.
      if (plan.kept[i] === 1) return undefined
      const again = spans.offsets[i]! >= 0
      if (!again) tally.resumed++
      spans.offsets[i] = span.offset
      spans.lengths[i] = span.length
      return again ? { kind: 'repeated', why: record.origin } : undefined
    })
    if (!quiet) for (const warning of readBackWarnings(journal, found)) note(warning)
  }
  const jobs = plan.jobs.filter((i) => spans.offsets[i]! < 0)
  if (jobs.length > 0) journal?.begin()

  const limit = descriptorLimit()
  const fit = fittingConcurrency(s.requested, limit)
  if (fit.note !== undefined && !quiet && jobs.length > fit.concurrency) note(fit.note)
  const concurrency = fit.concurrency

  // JSON lines to a stream go out as they come (kept and resumed entries first); a file is written once complete.
  const live = format === 'jsonl' && output.kind !== 'file' ? await OutputWriter.open(output) : undefined
  const previous = (key: string): FetchedEntry | undefined => (old === undefined ? undefined : entryIn(old, key))
  const controller = new AbortController()
  // Each fetch in flight listens to the signal: not a leak.
  setMaxListeners(concurrency + 16, controller.signal)
  // A second signal ends the run at once, writing nothing more (the journal keeps what was fetched).
  const interrupt = new Interrupt(controller, (name) => {
    journal?.close()
    const left = output.kind === 'file' ? `'${output.path}' not written (left as it was)` : 'output cut short'
    if (!quiet) note(`stopped at once by a second ${name}: ${left}; ${s.persistent ? `the journal '${journal!.path}' keeps what was fetched` : 'nothing kept'}`)
  })
  const progress = progressWanted(processProgressContext(quiet))
    ? new ProgressBar(process.stderr, jobs.length, escapesAllowed(process.env), { measure: 'items', items: 'origins' })
    : undefined
  const started = performance.now()
  let done = 0
  try {
    if (live !== undefined) {
      for (let i = 0; i < n; i++) {
        if (plan.kept[i] === 1) await live.write(`${fetchRecord(plan.keys.key(i), previous(plan.keys.key(i))!)}\n`)
        else if (spans.offsets[i]! >= 0) await live.write(`${journal!.read({ offset: spans.offsets[i]!, length: spans.lengths[i]! })}\n`)
      }
    }
    try {
      await runFetches(jobs, (i) => plan.keys.origin(i), {
        concurrency,
        transport: s.transport,
        signal: controller.signal,
        stallMs: s.stallMs,
        options: (i) => ({
          timeoutMs: s.timeout,
          userAgent: s.userAgent,
          previous: previousFetch(previous(plan.keys.key(i))),
          privateAddresses: s.allowPrivate ? 'allow' : 'refuse',
        }),
        done: async (i, result: RobotsFetchResult, ms) => {
          const key = plan.keys.key(i)
          const origin = plan.keys.origin(i)
          const entry = applyFetch(previous(key), result, origin !== key ? origin : undefined)
          const run: FetchRun = { url: result.url, reason: result.reason, ms, ...(result.error !== undefined ? { error: result.error.message } : {}) }
          tally.add(entry, result)
          const line = fetchRecord(key, entry, run)
          if (journal !== undefined) {
            const span = journal.append(line)
            spans.offsets[i] = span.offset
            spans.lengths[i] = span.length
          }
          done++
          progress?.update(done, done, tally.progressText())
          if (live !== undefined) await live.write(`${line}\n`)
        },
        failed: (i, err, code) => {
          tally.failed++
          if (code !== undefined) tally.leave(code)
          if (!quiet) note(`warning: ${plan.keys.origin(i)}: not fetched: ${err instanceof Error ? err.message : String(err)}`)
        },
        local: (code) => tally.local(code),
      })
    } finally {
      progress?.done()
    }
  } catch (err) {
    interrupt.release()
    live?.abort()
    journal?.close()
    if (err instanceof NoProgressError && s.persistent) {
      throw new CliError('ERR_LOCAL', `${err.message}; the journal '${journal!.path}' keeps the ${plural(journal!.appended + tally.resumed, 'origin')} fetched: run the same command again to go on once this machine can (${remedyOf(err.localCode)})`)
    }
    if (err instanceof NoProgressError) {
      throw new CliError('ERR_LOCAL', `${err.message}; nothing was written: a streamed output keeps no journal unless --journal FILE is given`)
    }
    throw err
  }
  const seconds = (performance.now() - started) / 1000

  let written: string
  // The interrupt is released once the output is written: a signal meanwhile lets the write end (a second one ends the process at once).
  try {
    if (live !== undefined) {
      // Entries due for a refresh that was not made (interrupted): as they were.
      let records = tally.kept + tally.resumed + done
      for (const i of jobs) {
        if (spans.offsets[i]! >= 0 || old === undefined) continue
        const entry = previous(plan.keys.key(i))
        if (entry === undefined) continue
        await live.write(`${fetchRecord(plan.keys.key(i), entry)}\n`)
        records++
      }
      await live.commit()
      written = `wrote ${plural(records, 'record')} to ${output.path === '-' ? '<stdout>' : output.path}`
    } else {
      const entries = await writeFetchOutput({ plan, spans, journal, old }, format, output)
      const where = output.path === '-' ? '<stdout>' : output.path
      if (format === 'jsonl') written = `wrote ${plural(entries, 'record')} to ${where}`
      else written = `wrote ${where}: ${count(entries)} ${entries === 1 ? 'entry' : 'entries'}${output.kind === 'file' ? `, ${megabytes(output.file)}` : ''}`
    }
  } finally {
    interrupt.release()
  }
  const interrupted = interrupt.signal
  // Origins this machine left out: the output is not whole; the journal keeps the rest for the same command to fetch them.
  const leftOut = tally.leftOut.size > 0
  const keepJournal = (interrupted !== undefined || leftOut) && s.persistent
  if (keepJournal) journal!.close()
  else if (s.persistent) journal!.remove()
  if (!quiet) {
    note(tally.summary(seconds, written, interrupted === undefined ? undefined : { of: jobs.length + tally.resumed }))
    if (interrupted !== undefined) {
      const command = commandLine('fetch', s.argv)
      if (keepJournal) note(`the journal '${journal!.path}' keeps what was fetched: run the same command again to fetch the rest: ${command}`)
      else note(`to go on later, run it with --journal FILE: ${command} --journal FILE`)
    }
  }
  if (interrupted === undefined && leftOut) {
    const where = output.path === '-' ? '<stdout>' : output.path
    const kept = s.persistent ? `the journal '${journal!.path}' keeps what was fetched` : 'nothing was kept (--journal FILE keeps what is fetched)'
    // With --update, an entry of the bundle is kept as it was: not refreshed, rather than left out.
    const fate = old === undefined ? `left out of ${where}` : `not fetched into ${where} (an entry it held kept as it was)`
    throw leftOutError(tally.leftOut, 'origin', fate, kept, commandLine('fetch', s.argv))
  }
  return interrupt.status
}

/** What to mend before running again after failures of this machine of `code`. */
function remedyOf(code: string): string {
  if (code === 'EMFILE' || code === 'ENFILE') return 'ulimit -n, --concurrency'
  if (RESOLVER_CODES.has(code)) return 'the DNS servers, --dns-server'
  return '--concurrency'
}

/** Codes of the resolver's failures that DnsCache may mark as this machine's (its servers unreachable, silent, failing or denying every question). */
const RESOLVER_CODES = new Set(['ENOTFOUND', 'ETIMEOUT', 'EAI_AGAIN', 'EREFUSED', 'ESERVFAIL', 'ECONNREFUSED', 'ECANCELLED', 'EDESTRUCTION'])

/** The size of `file` in megabytes, as the summary gives it. */
function megabytes(file: string): string {
  try {
    return `${(statSync(file).size / 1e6).toFixed(1)} MB`
  } catch {
    return '? MB'
  }
}
