/**
 * Judging URL lines by their own host's robots.txt (`--robots-dir`,
 * `--bundle`): the host is found in the line's bytes, looked up in the
 * source's index (one hash look-up; a host without an entry stops there),
 * and judged by its entry's compiled matcher, kept in a byte-budget cache
 * ({@link HostJudge} has the policy).
 */
import type { AgentMatcher } from '../../index.js'
import { BYTE_LRU_ENTRY_BYTES, ByteLru } from '../../internals.js'
import type { BodyProblem } from '../common/body-problems.js'
import { DistinctCounter } from './distinct.js'
import { foldHost, secondHash } from './host-index.js'
import type { HostQuery, HostRules } from './host-rules.js'
import { scanHost, SCAN_OUT_TOO_SMALL } from '../filter/url-host.js'

/** How an entry turned out when first loaded (reported once per entry and thread). */
export const enum EntryState {
  Unseen = 0,
  /** Parsed rules: judged by its matcher. */
  Robots = 1,
  /** An outcome that allows everything (unavailable). */
  AllowAll = 2,
  /** An outcome that disallows everything (unreachable). */
  DisallowAll = 3,
  /** Could not be read: judged as a host without one (`--missing`). */
  Unreadable = 4,
}

/** The first load of an entry, as reported to `onEntry`. */
export interface EntryEvent {
  readonly id: number
  readonly state: EntryState
  /** For `Robots`: the body's problem (HTML, UTF-16, binary, truncated), if any. */
  readonly problem?: BodyProblem
  /** For `Unreadable`: why. For a problem: the bytes read (truncated files). */
  readonly reason?: string
  readonly bytesRead?: number
}

/** Options of a `HostJudge`. */
export interface HostJudgeOptions {
  /** The crawler's product tokens (one or more: `Robots.agents`). */
  readonly agent: readonly string[]
  /** Verdict for a host with no entry (or an unreadable one) and a line with no host. */
  readonly missingAllowed: boolean
  /** Bytes of compiled matchers kept (`--cache-mb`), as `memoryUsage()` counts them. */
  readonly cacheBytes: number
  /** Called on each entry's first load in this thread. */
  readonly onEntry: (event: EntryEvent) => void
  /** Exact limit of the distinct-host counter (tests lower it). */
  readonly exactHosts?: number
  /** Keep the fingerprints of new hosts for `missing.takeNew()` (worker threads). */
  readonly trackNewHosts?: boolean
  /** Count hosts without an entry into this counter (the main thread's tally) instead of one of its own. */
  readonly missing?: DistinctCounter
}

/** What decided the line judged last (for `--format jsonl`). */
export interface Decided {
  /** The matcher, or null when no robots.txt rules applied (no entry, unreadable, an outcome). */
  readonly matcher: AgentMatcher | null
  /** The entry's name (`DIR/<host>`, `BUNDLE#<key>`), or null when the host has none. */
  readonly source: string | null
  /** The host, lowercased, or null when the line has none. */
  readonly host: string | null
  /** For an outcome entry: which. */
  readonly outcome?: 'unavailable' | 'unreachable'
}

const NO_ENTRY = -1

/** Default budget of compiled matchers (`filter --cache-mb`), in MiB, for all judging threads together. */
export const DEFAULT_CACHE_MB = 256

/**
 * Judges lines by their host's rules.
 *
 * - Matchers are kept in a `ByteLru` under a byte budget (`--cache-mb`),
 *   keyed by entry id and sized by `memoryUsage()`, re-measured whenever the
 *   host comes back (matchers grow as they compile). An entry evicted and
 *   needed again is loaded again (`reloads` counts it: a sign the budget is
 *   too small). An entry alone over the budget is not kept; it still judges
 *   its own lines.
 * - Hosts without an entry cost nothing in the cache; they are only counted
 *   (distinct, in bounded memory: distinct.ts).
 * - Consecutive lines of one site skip the look-up: a line that starts with
 *   the previous line's `scheme://authority/` goes straight to its matcher,
 *   and a line with the same host (any case) as the previous one reuses it.
 * - Each entry's first load is reported to `onEntry` (counts, warnings);
 *   worker threads pass these on to the main thread, which counts distinct
 *   hosts across threads.
 */
export class HostJudge {
  /** Lines without a host. */
  noHost = 0
  /** Entries loaded again after their matcher was evicted. */
  reloads = 0
  /** Distinct hosts without an entry. */
  readonly missing: DistinctCounter
  private readonly rules: HostRules
  /** The source has entries for whole origins (scheme and port): a host alone does not decide the entry. */
  private readonly originKeys: boolean
  private readonly agent: readonly string[]
  private readonly missingCode: number
  private readonly onEntry: (event: EntryEvent) => void
  /** Entry id → its matcher, under the byte budget. */
  private readonly cache: ByteLru<number, AgentMatcher>
  /** Per entry id: `EntryState`. */
  private readonly states: Uint8Array
  /** `scanHost`'s answer for the current line: host start, host end, authority end, `hostHash`. */
  private readonly scan = new Int32Array(4)
  /** `scanHost` writes the line's host here, lowercased; swapped with `query.host` when the host changes. */
  private scratch: Uint8Array = new Uint8Array(256)
  /** `scheme://authority/` of the previous line with a host (the fast path): `prefixBytes[prefixStart, +prefixLength)`, a block the loop has read (blocks never change). */
  private prefixBytes: Uint8Array = new Uint8Array(0)
  private prefixStart = 0
  private prefixLength = 0
  /** The previous host (`query.host`, lowercased; `lastLength` -1 when none) and what it decided. */
  private readonly query: HostQuery = {
    host: new Uint8Array(256),
    hostLength: 0,
    hash: 0,
    url: new Uint8Array(0),
    urlStart: -1,
    hostStart: 0,
    hostEnd: 0,
    authorityEnd: 0,
  }
  private lastLength = -1
  private lastId = NO_ENTRY
  private lastMatcher: AgentMatcher | null = null
  private lastCode = 0

  constructor(rules: HostRules, options: HostJudgeOptions) {
    this.rules = rules
    this.originKeys = rules.originKeys
    this.agent = options.agent
    this.missingCode = options.missingAllowed ? 1 : 0
    this.onEntry = options.onEntry
    this.cache = new ByteLru({ maxBytes: options.cacheBytes })
    this.states = new Uint8Array(rules.size)
    this.missing = options.missing ?? new DistinctCounter(options.exactHosts, options.trackNewHosts)
  }

  /** Judges the URL `bytes[start, end)` by its own host: `ruleLine * 2 + (allowed ? 1 : 0)`. */
  judge(bytes: Uint8Array, start: number, end: number): number {
    // Fast path: the line starts with the same `scheme://authority/` as the previous one.
    const k = this.prefixLength
    if (k > 0 && end - start >= k) {
      const prefix = this.prefixBytes
      const p = this.prefixStart
      // From the end: the terminator's position tells most other hosts apart at once, and a
      // host's last letters differ more often than its first ones (`https://www.`).
      let i = k - 1
      while (i >= 0 && bytes[start + i] === prefix[p + i]) i--
      if (i < 0) return this.current(bytes, start, end)
    }
    // One pass finds the host, lowercases it into `scratch` and hashes it (../filter/url-host.ts).
    const scan = this.scan
    let len = scanHost(bytes, start, end, this.scratch, scan)
    if (len === SCAN_OUT_TOO_SMALL) {
      this.scratch = new Uint8Array(end - start)
      len = scanHost(bytes, start, end, this.scratch, scan)
    }
    if (len === 0) {
      this.prefixLength = 0
      this.noHost++
      this.forget()
      return this.missingCode
    }
    if (this.originKeys || !this.sameAsScratch(len, scan[3])) {
      // The new host becomes `query.host`; the old buffer is the next line's scratch.
      const q = this.query
      const folded = this.scratch
      this.scratch = q.host
      q.host = folded
      this.lookUp(bytes, start, len, scan[0], scan[1], scan[2], scan[3])
    }
    this.rememberPrefix(bytes, start, scan[2], end)
    return this.current(bytes, start, end)
  }

  /** Judges the URL `bytes[start, end)` by the host `hostBytes[hostStart, hostEnd)` (a host column's, or `--host`'s). */
  judgeOnHost(bytes: Uint8Array, start: number, end: number, hostBytes: Uint8Array, hostStart: number, hostEnd: number): number {
    this.prefixLength = 0
    if (!this.sameHost(hostBytes, hostStart, hostEnd)) this.switchHost(hostBytes, -1, hostStart, hostEnd, -1)
    return this.current(bytes, start, end)
  }

  /** What decided the line judged last. */
  decided(): Decided {
    const host = this.lastLength < 0 ? null : DECODER.decode(this.query.host.subarray(0, this.lastLength))
    const id = this.lastId
    if (id === NO_ENTRY) return { matcher: null, source: null, host }
    const state = this.states[id]
    const source = this.rules.sourceName(id)
    if (state === EntryState.Unreadable) return { matcher: null, source: null, host }
    if (state === EntryState.AllowAll) return { matcher: null, source, host, outcome: 'unavailable' }
    if (state === EntryState.DisallowAll) return { matcher: null, source, host, outcome: 'unreachable' }
    return { matcher: this.lastMatcher, source, host }
  }

  /** Bytes of compiled matchers held now. */
  get cacheBytes(): number {
    return this.cache.bytes
  }

  private current(bytes: Uint8Array, start: number, end: number): number {
    const m = this.lastMatcher
    return m === null ? this.lastCode : m.matchRange(bytes, start, end)
  }

  /** No host: the next line cannot reuse the previous host. */
  private forget(): void {
    this.lastLength = -1
    this.lastId = NO_ENTRY
    this.lastMatcher = null
    this.lastCode = this.missingCode
  }

  /** Whether `bytes[hs, he)` is the previous host (ASCII case ignored). */
  private sameHost(bytes: Uint8Array, hs: number, he: number): boolean {
    const len = he - hs
    if (len !== this.lastLength) return false
    const last = this.query.host
    for (let i = 0; i < len; i++) {
      let b = bytes[hs + i]
      if (b >= 0x41 && b <= 0x5a) b |= 0x20
      if (b !== last[i]) return false
    }
    return true
  }

  /** Whether the host `scanHost` left in `scratch` (`len` bytes, `hostHash` `hash`) is the previous host. */
  private sameAsScratch(len: number, hash: number): boolean {
    if (len !== this.lastLength || hash !== this.query.hash) return false
    const last = this.query.host
    const folded = this.scratch
    for (let i = 0; i < len; i++) if (folded[i] !== last[i]) return false
    return true
  }

  /** Keeps `bytes[start, authorityEnd]` (terminator included) for the fast path; none when the authority ends the line. */
  private rememberPrefix(bytes: Uint8Array, start: number, authorityEnd: number, end: number): void {
    if (authorityEnd >= end) {
      this.prefixLength = 0
      return
    }
    this.prefixBytes = bytes
    this.prefixStart = start
    this.prefixLength = authorityEnd + 1 - start
  }

  /** For a host column: folds and hashes the host `bytes[hs, he)` into `query.host`, then looks it up. */
  private switchHost(bytes: Uint8Array, urlStart: number, hs: number, he: number, authorityEnd: number): void {
    const len = he - hs
    const q = this.query
    if (q.host.length < len) q.host = new Uint8Array(len * 2)
    this.lookUp(bytes, urlStart, len, hs, he, authorityEnd, foldHost(bytes, hs, he, q.host))
  }

  /**
   * Makes the host now in `query.host` (`len` bytes, lowercased; `bytes[hs, he)`
   * in the line, `hostHash` `hash`) the current one: its entry, or counted
   * as a host without one.
   */
  private lookUp(bytes: Uint8Array, urlStart: number, len: number, hs: number, he: number, authorityEnd: number, hash: number): void {
    const q = this.query
    q.hostLength = len
    q.hash = hash
    q.url = bytes
    q.urlStart = urlStart
    q.hostStart = hs
    q.hostEnd = he
    q.authorityEnd = authorityEnd
    this.lastLength = len
    const id = this.rules.find(q)
    this.lastId = id
    this.lastMatcher = null
    if (id < 0) {
      this.missing.addFingerprint(hash, secondHash(q.host, 0, len))
      this.lastCode = this.missingCode
      return
    }
    this.enter(id)
  }

  /** Makes entry `id` the current one: loads it on first use or after eviction. */
  private enter(id: number): void {
    let state = this.states[id] as EntryState
    if (state === EntryState.Robots) {
      const m = this.cache.get(id)
      if (m !== undefined) {
        // Now the most recently used; re-measured, as matchers grow as they compile.
        this.cache.resize(id, BYTE_LRU_ENTRY_BYTES + m.memoryUsage())
        this.lastMatcher = m
        return
      }
      this.reloads++
    }
    const entry = this.rules.load(id, this.agent, state === EntryState.Unseen)
    let matcher: AgentMatcher | null = null
    let event: EntryEvent
    if (entry.kind === 'rules') {
      matcher = entry.matcher
      event = { id, state: EntryState.Robots, problem: entry.problem, bytesRead: entry.bytesRead }
      state = EntryState.Robots
      // Evicts least recently used hosts down to the budget. An entry alone
      // over it is not kept; its matcher still judges this host's lines.
      this.cache.set(id, matcher, BYTE_LRU_ENTRY_BYTES + matcher.memoryUsage())
    } else if (entry.kind === 'outcome') {
      state = entry.outcome === 'unreachable' ? EntryState.DisallowAll : EntryState.AllowAll
      event = { id, state }
    } else {
      state = EntryState.Unreadable
      event = { id, state, reason: entry.reason }
    }
    const first = this.states[id] === EntryState.Unseen
    this.states[id] = state
    this.lastMatcher = matcher
    this.lastCode = state === EntryState.AllowAll ? 1 : state === EntryState.DisallowAll ? 0 : this.missingCode
    if (first) this.onEntry(event)
  }
}

const DECODER = new TextDecoder()
