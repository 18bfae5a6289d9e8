/**
 * `robots-automaton fetch [FILE...] -o BUNDLE`: the robots.txt of every
 * distinct origin of a URL list or log (fetch/origin-input.ts), fetched
 * with the access method at bounded concurrency (fetch/fetch-pool.ts) into
 * one bundle whose entries keep their fetch info, or JSON lines; `--update`
 * refreshes what expired, conditionally. Interrupted (SIGINT, SIGTERM), it
 * writes what it fetched. The manual: docs/cli.md#fetch.
 */
import { setMaxListeners } from 'node:events'
import { RobotsStore } from '../../index.js'
import { AtomicLines, writeFileAtomic } from '../common/atomic-file.js'
import { COMMON_OPTIONS, flag, helpOrVersion, intOption, optionValue, optionValues, parseArgs, type OptionSpec, type ParsedArgs } from '../common/args.js'
import { count, megabytes, plural } from '../common/numbers.js'
import { escapesAllowed, processProgressContext, ProgressBar, progressWanted } from '../common/progress.js'
import { note } from '../common/stdio.js'
import { defaultUserAgent, PROGRAM } from '../common/version.js'
import { readBundleStore } from '../fetch/bundle-file.js'
import { ConnectRules, parseConnectTo, parseResolve } from '../fetch/connect-rules.js'
import { installFetchAgent } from '../fetch/connector.js'
import { entryIn, isDue, putEntry, type FetchedEntry } from '../fetch/fetch-entry.js'
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_S, runFetches, type FetchJob } from '../fetch/fetch-pool.js'
import { fetchRecord } from '../fetch/fetch-record.js'
import { FetchTally } from '../fetch/fetch-tally.js'
import { OriginList, readOrigins } from '../fetch/origin-input.js'
import { resolveInputs, type InputFile } from '../filter/input.js'
import { EXIT_NO_URL, faultNote, noUrlMessage } from '../filter/line-faults.js'
import { INPUT_OPTIONS, lineLayout } from '../filter/line-layout.js'
import { FETCH_HELP } from './fetch-help.js'
import { CliError, UsageError } from '../common/cli-error.js'

/** The options `fetch` accepts (its help, fetch-help.ts, names each of them). */
export const FETCH_OPTIONS: readonly OptionSpec[] = [
  { name: 'output', short: 'o', value: true },
  { name: 'format', value: true, choices: ['bundle', 'jsonl'] },
  { name: 'update', value: true },
  { name: 'concurrency', value: true },
  { name: 'timeout', value: true },
  { name: 'user-agent', value: true },
  { name: 'resolve', value: true, multiple: true },
  { name: 'connect-to', value: true, multiple: true },
  ...INPUT_OPTIONS,
  { name: 'scheme', value: true, choices: ['https', 'http'] },
  { name: 'quiet', short: 'q', value: false },
  ...COMMON_OPTIONS,
]

/** Most requests in flight `--concurrency` accepts. */
const MAX_CONCURRENCY = 4096
/** Longest `--timeout`, in seconds. */
const MAX_TIMEOUT_S = 3600

/** `--timeout SECONDS` in ms. */
function timeoutMs(args: ParsedArgs): number {
  const value = optionValue(args, 'timeout')
  if (value === undefined) return DEFAULT_TIMEOUT_S * 1000
  const s = /^[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : NaN
  if (!(s > 0 && s <= MAX_TIMEOUT_S)) throw new UsageError(`option '--timeout' must be a number of seconds above 0, at most ${MAX_TIMEOUT_S} (got '${value}')`)
  return Math.round(s * 1000)
}

/** One origin of the output, in output order: its key and its job (-1: kept from the bundle updated, not fetched). */
interface Planned {
  readonly key: string
  readonly job: number
}

/** What to fetch and in which order the output lists the entries: the updated bundle's keys first, then the input's new origins. */
function plan(list: OriginList, old: RobotsStore | undefined, scheme: string, now: number, tally: FetchTally): { order: Planned[]; jobs: FetchJob[] } {
  const order: Planned[] = []
  const jobs: FetchJob[] = []
  if (old !== undefined) {
    for (const key of old.keys()) {
      const info = old.fetchInfo(key)
      if (!isDue(info, now)) {
        order.push({ key, job: -1 })
        tally.kept++
        continue
      }
      // The origin fetched last time, else the input's, else the key's own (a bare host: over --scheme).
      const origin = info?.origin ?? list.origins.get(key) ?? (key.includes('://') ? key : `${scheme}://${key}`)
      order.push({ key, job: jobs.length })
      jobs.push({ key, origin })
    }
  }
  for (const [key, origin] of list.origins) {
    if (old?.has(key)) continue
    order.push({ key, job: jobs.length })
    jobs.push({ key, origin })
  }
  return { order, jobs }
}

/** The signals that interrupt a run, and their exit statuses (128 + the signal's number). */
const SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const

/** Runs `fetch` with the arguments after the command name; resolves to the exit code. */
export async function runFetch(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, FETCH_OPTIONS)
  if (helpOrVersion(args, FETCH_HELP)) return 0
  const output = optionValue(args, 'output')
  if (output === undefined) throw new UsageError(`option '--output' ('-o') is required`)
  const format = (optionValue(args, 'format') ?? 'bundle') as 'bundle' | 'jsonl'
  const concurrency = intOption(args, 'concurrency', 1, MAX_CONCURRENCY, DEFAULT_CONCURRENCY)
  const timeout = timeoutMs(args)
  const userAgent = optionValue(args, 'user-agent') ?? defaultUserAgent()
  const rules = new ConnectRules(optionValues(args, 'resolve').map(parseResolve), optionValues(args, 'connect-to').map(parseConnectTo))
  const layout = lineLayout(args)
  const scheme = (optionValue(args, 'scheme') ?? 'https') as 'http' | 'https'
  const updatePath = optionValue(args, 'update')
  const quiet = flag(args, 'quiet')
  const files = args.positionals
  if (files.filter((f) => f === '-').length > 1) throw new UsageError(`stdin ('-') is named more than once`)

  // With --update, no FILE means no input (the bundle alone is refreshed); otherwise stdin, as filter reads.
  const inputs: InputFile[] = updatePath !== undefined && files.length === 0 ? [] : await resolveInputs(files)
  const old = updatePath === undefined ? undefined : readBundleStore(updatePath)
  const list = new OriginList(scheme)
  await readOrigins(inputs, layout, list)
  if (!quiet) {
    const first = list.firstFault
    if (first !== undefined) {
      const why = [...list.faults].map(([reason, n]) => `${reason} ${count(n)}`).join(', ')
      note(faultNote(first, layout, `${plural(list.faulty, 'line')} without a URL or host give no origin (${why})`))
    }
    if (list.unusable > 0) note(`warning: ${plural(list.unusable, 'line')} skipped: a host that cannot be fetched from (a bad port, not a host name)`)
  }
  if (list.lines > 0 && list.origins.size === 0 && old === undefined) throw new CliError('ERR_NO_URL', noUrlMessage(list.lines, true), EXIT_NO_URL)

  const tally = new FetchTally()
  const { order, jobs } = plan(list, old, scheme, Date.now(), tally)
  const results: (FetchedEntry | undefined)[] = new Array(jobs.length)
  const lines = format === 'jsonl' ? new AtomicLines(output, 'output') : undefined
  const previous = (key: string): FetchedEntry | undefined => (old === undefined ? undefined : entryIn(old, key))
  try {
    // Kept entries first: a JSON lines output holds every entry the bundle would.
    if (lines !== undefined && old !== undefined) for (const p of order) if (p.job < 0) await lines.line(fetchRecord(p.key, previous(p.key)!))

    const agent = await installFetchAgent(rules, timeout)
    const controller = new AbortController()
    // Each fetch in flight listens to the signal: not a leak.
    setMaxListeners(concurrency + 16, controller.signal)
    let interrupted: keyof typeof SIGNALS | undefined
    const onSignal = (signal: keyof typeof SIGNALS): void => {
      // A second signal ends the run at once, writing nothing more (the output file is left as it was).
      if (interrupted !== undefined) process.exit(SIGNALS[signal])
      interrupted = signal
      controller.abort(new Error(`interrupted by ${signal}`))
    }
    const handlers = Object.keys(SIGNALS).map((s) => {
      const signal = s as keyof typeof SIGNALS
      const handler = () => onSignal(signal)
      process.on(signal, handler)
      return [signal, handler] as const
    })
    const progress = progressWanted(processProgressContext(quiet))
      ? new ProgressBar(process.stderr, jobs.length, escapesAllowed(process.env), { measure: 'items', items: 'origins' })
      : undefined
    const started = performance.now()
    let done = 0
    try {
      await runFetches(jobs, {
        concurrency,
        timeoutMs: timeout,
        userAgent,
        signal: controller.signal,
        previous,
        done: async (index, job, entry, run) => {
          results[index] = entry
          tally.add(entry, run.reason)
          done++
          const failures = tally.outcomes.unreachable
          progress?.update(done, done, failures > 0 ? `${count(failures)} unreachable` : undefined)
          if (lines !== undefined) await lines.line(fetchRecord(job.key, entry, run))
        },
        failed: (job, err) => {
          tally.failed++
          if (!quiet) note(`warning: ${job.origin}: not fetched: ${err instanceof Error ? err.message : String(err)}`)
        },
      })
    } finally {
      for (const [signal, handler] of handlers) process.off(signal, handler)
      progress?.done()
      void agent.close().catch(() => {})
    }
    const seconds = (performance.now() - started) / 1000

    let written: string
    if (lines !== undefined) {
      // Entries due for a refresh that was not made (interrupted): as they were.
      let records = done + tally.kept
      if (old !== undefined) {
        for (const p of order) {
          if (p.job >= 0 && results[p.job] === undefined) {
            const entry = previous(p.key)
            if (entry !== undefined) {
              await lines.line(fetchRecord(p.key, entry))
              records++
            }
          }
        }
      }
      lines.commit()
      written = `wrote ${plural(records, 'record')} to ${output === '-' ? '<stdout>' : output}`
    } else {
      const store = new RobotsStore()
      for (const p of order) {
        const entry = (p.job >= 0 ? results[p.job] : undefined) ?? previous(p.key)
        if (entry !== undefined) putEntry(store, p.key, entry)
      }
      let bytes: Uint8Array
      try {
        bytes = store.toBytes()
      } catch (err) {
        throw new CliError('ERR_WRITE', `cannot write bundle '${output}': ${(err as Error).message}`)
      }
      await writeFileAtomic(output, bytes, 'bundle')
      written = `wrote ${output === '-' ? '<stdout>' : output}: ${`${count(store.size)} ${store.size === 1 ? 'entry' : 'entries'}`}, ${megabytes(bytes.length)}`
    }
    if (!quiet) {
      note(tally.summary(seconds, written, interrupted === undefined ? undefined : { of: jobs.length }))
      if (interrupted !== undefined && output !== '-') note(`continue with: ${PROGRAM} fetch --update ${output} [FILE...] -o NEW`)
    }
    return interrupted === undefined ? 0 : SIGNALS[interrupted]
  } catch (err) {
    lines?.abort()
    throw err
  }
}
