/**
 * The per-host side of `filter --robots-dir`/`--bundle`, added up in the main
 * thread over every judging thread: distinct hosts with a robots.txt, without
 * one, unreadable, with a fetch outcome; the warnings about entries, at most
 * `maxWarnings` of them on stderr and the rest counted in the summary.
 * Threads report each entry's first load (`EntryEvent`); an entry loaded by
 * several threads is counted and warned about once. A file read once that
 * could not be read again is reported too, and counted as unreadable. Entries used past their
 * expiry (a bundle of `fetch`) are counted for one warning at the end.
 */
import { BODY_PROBLEMS, bodyWarning, PROBLEM_WORDS, type BodyProblem } from '../common/body-problems.js'
import { DistinctCounter } from './distinct.js'
import { EntryState, type EntryEvent } from './host-rules.js'
import type { HostRules } from './host-rules.js'
import { count, duration, plural } from '../common/numbers.js'
import { PROGRAM } from '../common/version.js'
import { CliError } from '../common/cli-error.js'
import { printable } from '../../tools/printable.js'

/** Default most warnings about hosts' files printed; the rest are counted in the summary. */
export const DEFAULT_MAX_WARNINGS = 10

/** What the tally has seen of an entry (`HostTally.seen`, a byte per entry). */
const enum Seen {
  Unseen = 0,
  /** A load that read no rules (an outcome, unreadable). */
  Loaded = 1,
  /** A load that read rules. */
  Read = 2,
  /** Read once, then a load that could not read it again. */
  Lost = 3,
}

/** Options of a `HostTally`. */
export interface HostTallyOptions {
  /** Prints one warning line (the CLI's `note`); undefined when quiet. */
  readonly warn?: (line: string) => void
  readonly maxWarnings?: number
  /** Words for the `--missing` verdict, in warnings: `allow` or `disallow`. */
  readonly missing: string
  /** Exact limit of the distinct-host counter (tests lower it). */
  readonly exactHosts?: number
  /** The cache was lowered to fit the heap (heap-room.ts): more heap, not a larger `--cache-mb`, keeps more. */
  readonly heapBound?: boolean
}

/** Distinct-host counts and warnings over every thread (see the module comment). */
export class HostTally {
  withRobots = 0
  unreadable = 0
  outcomes = 0
  /** Entries whose fetch was refused by the address policy (judged disallow all). */
  refused = 0
  reloads = 0
  /** Warnings not printed (over the cap). */
  suppressed = 0
  /** Entries used that had expired when the run started, and the earliest fetch among them. */
  expired = 0
  oldestFetch = Infinity
  /** The first unreadable entry used: its name and why. */
  private firstUnreadable: string | undefined
  private readonly started = Date.now()
  readonly missing: DistinctCounter
  readonly problems: Record<BodyProblem, number> = { html: 0, utf16: 0, binary: 0, truncated: 0 }
  private readonly seen: Uint8Array
  private shown = 0

  constructor(
    private readonly rules: HostRules,
    private readonly options: HostTallyOptions,
  ) {
    this.seen = new Uint8Array(rules.size)
    this.missing = new DistinctCounter(options.exactHosts)
    // An empty directory or bundle (a wrong path, a fetch that wrote nothing) would judge every line by --missing alone.
    if (rules.size === 0) {
      const d = rules.descriptor()
      options.warn?.(`warning: '${printable(d.kind === 'dir' ? d.dir : d.path)}' holds no host's robots.txt: every line is judged as of a host without one (${options.missing})`)
    }
  }

  /** An entry's first load in some thread, or a load that failed after one that did not (see `lost`). */
  entry(event: EntryEvent): void {
    const seen = this.seen[event.id]
    if (seen !== Seen.Unseen) {
      if (seen === Seen.Read && event.state === EntryState.Unreadable) this.lost(event)
      return
    }
    this.seen[event.id] = event.state === EntryState.Robots ? Seen.Read : Seen.Loaded
    const fresh = this.rules.freshness?.(event.id)
    if (fresh !== undefined && fresh.expiresAt <= this.started) {
      this.expired++
      this.oldestFetch = Math.min(this.oldestFetch, fresh.fetchedAt)
    }
    const name = this.rules.sourceName(event.id)
    switch (event.state) {
      case EntryState.Robots:
        this.withRobots++
        if (event.problem !== undefined) {
          this.problems[event.problem]++
          this.warn(bodyWarning(name, event.problem, { bytesRead: event.bytesRead ?? 0 }, event.allowsAll === true, event.wide))
        }
        break
      case EntryState.AllowAll:
      case EntryState.DisallowAll:
        this.outcomes++
        if (event.refused === true) {
          this.refused++
          this.warn(`warning: '${name}' was not fetched: fetch refused its address (a loopback, private or other non-public one); its URLs are judged disallowed (fetch it again with --allow-private, --resolve or --connect-to)`)
        }
        break
      case EntryState.Unreadable:
        this.unreadable++
        this.firstUnreadable ??= `'${name}': ${event.reason}`
        this.warn(`warning: skipped '${name}': ${event.reason}; the host is judged as one without a robots.txt (--missing ${this.options.missing})`)
        break
    }
  }

  /**
   * An entry read once that could not be read again (its rules evicted, or
   * loaded by another thread, after the file was removed or replaced): its
   * host's lines judged then were judged by --missing, so it counts as
   * unreadable (no longer as read), once, and the run fails.
   */
  private lost(event: EntryEvent): void {
    this.seen[event.id] = Seen.Lost
    this.withRobots--
    this.unreadable++
    const name = this.rules.sourceName(event.id)
    this.firstUnreadable ??= `'${name}': ${event.reason}`
    this.warn(`warning: skipped '${name}' when read again: ${event.reason}; its host's lines judged then were judged as of a host without one (--missing ${this.options.missing})`)
  }

  /** The one warning about expired entries used, with their count, or undefined when none was. */
  expiredWarning(bundle: string): string | undefined {
    if (this.expired === 0) return undefined
    const age = duration(this.started - this.oldestFetch)
    return `warning: ${plural(this.expired, 'host')} judged by expired entries of '${bundle}' (the oldest fetched ${age} ago); refresh them with '${PROGRAM} fetch --update ${bundle} -o NEW'`
  }

  /**
   * The error a run ends with when it used an entry that could not be read:
   * a failure of this machine, never the site's answer, so the verdicts of
   * its hosts (judged as hosts without a robots.txt) are not complete.
   * Undefined when every entry used was read.
   */
  unreadableError(): CliError | undefined {
    if (this.unreadable === 0) return undefined
    const one = this.unreadable === 1
    const what = one ? `a robots.txt file this run used could not be read (${this.firstUnreadable})` : `${count(this.unreadable)} robots.txt files this run used could not be read (the first: ${this.firstUnreadable})`
    return new CliError('ERR_READ', `${what}; the URLs of ${one ? 'its host were' : 'their hosts were'} judged as those of a host without one (--missing ${this.options.missing}), which may not be the site's answer: make ${one ? 'the file' : 'the files'} readable or remove ${one ? 'it' : 'them'}`)
  }

  /** The per-host part of the summary line. */
  summary(): string {
    const without = `${this.missing.exact ? '' : 'about '}${count(this.missing.count)}`
    let text = `hosts: ${count(this.withRobots)} with a robots.txt, ${without} without one, ${count(this.unreadable)} unreadable`
    if (this.outcomes > 0) text += `, ${count(this.outcomes)} with a fetch outcome instead${this.refused > 0 ? ` (${count(this.refused)} refused by fetch's address policy: disallow all)` : ''}`
    const problems = BODY_PROBLEMS.filter((p) => this.problems[p] > 0).map((p) => `${count(this.problems[p])} ${PROBLEM_WORDS[p]}`)
    if (problems.length > 0) text += `; files with problems: ${problems.join(', ')}`
    if (this.suppressed > 0) text += `; ${plural(this.suppressed, 'more warning')} not shown`
    if (this.reloads > 0) text += `; ${count(this.reloads)} robots.txt loaded again after eviction (${this.options.heapBound === true ? 'give node more heap: --max-old-space-size' : 'raise --cache-mb'})`
    return text
  }

  private warn(line: string): void {
    if (this.options.warn === undefined) return
    if (this.shown >= (this.options.maxWarnings ?? DEFAULT_MAX_WARNINGS)) {
      this.suppressed++
      return
    }
    this.shown++
    this.options.warn(line)
  }
}
