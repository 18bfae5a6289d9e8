/**
 * Where `filter` finds the robots.txt of each host ({@link HostRules}): a
 * directory (`--robots-dir`, robots-dir.ts) or a bundle (`--bundle`,
 * bundle-rules.ts: a `RobotsStore` loaded from `pack`'s file); opened by
 * open-host-rules.ts; what an entry turned out to be on its first load
 * ({@link EntryEvent}: filter/host-judge.ts reports them, host-tally.ts
 * counts them).
 */
import type { AgentMatcher, CrawlerSet, UrlScan } from '../../index.js'
import type { BodyProblem } from '../common/body-problems.js'

/** A host to look up, as the per-line loop has it (one object, refilled for every host). */
export interface HostQuery {
  /** The host as the WHATWG URL parser gives it (ASCII case as written when plain): `bytes[hostStart, hostEnd)`. */
  bytes: Uint8Array
  hostStart: number
  hostEnd: number
  /** The host's keyed hash (the scan's `hostHash`). */
  hash: number
  /** The scan of the host as written (the line's, a host column's or `--host`'s: `store.lookupHost` takes it). */
  host: UrlScan
  /**
   * For sources with origin keys: the scan of the URL the host is the
   * authority of (then `host` itself); null when the host came from a host
   * column or `--host`.
   */
  url: UrlScan | null
}

/**
 * The matcher options of the entries `filter` loads: each host's lazy DFA
 * from its first URL (a threshold of 0; the thrash-proof guard stays). One
 * process judges a list once, so the code of every tier a host passes
 * through must first warm up in it; with one engine for every host, its
 * code warms up once, and the answers are the same in every tier.
 */
export const FILTER_MATCHER_OPTIONS: { readonly hotThreshold: number } = { hotThreshold: 0 }

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

/** The first load of an entry (or a load again that could not read it), as reported to `onEntry` (filter/host-judge.ts). */
export interface EntryEvent {
  readonly id: number
  readonly state: EntryState
  /** For `Robots`: the body's problem (HTML, UTF-16, binary, truncated), if any. */
  readonly problem?: BodyProblem
  /** For `Unreadable`: why. For a problem: the bytes read (truncated files). */
  readonly reason?: string
  readonly bytesRead?: number
  /** For a problem: every crawler may fetch every path (`allowsEverything`), which its warning may then say. */
  readonly allowsAll?: boolean
  /** For a `utf16` problem: the UTF-16 or UTF-32 the body looks like (`wideWords`), when its bytes were at hand. */
  readonly wide?: string
  /** For `DisallowAll`: the entry's fetch was refused by the address policy (not the site's outcome). */
  readonly refused?: boolean
}

/** Who entries are loaded for: one crawler (its tokens: `--agent`), or several (`--crawlers`: each one's tokens). */
export type HostCrawlers = { readonly agent: readonly string[] } | { readonly crawlers: readonly (readonly string[])[] }

/** The crawlers of `who`, each its tokens (one crawler for `--agent`). */
export function crawlerList(who: HostCrawlers): readonly (readonly string[])[] {
  return 'agent' in who ? [who.agent] : who.crawlers
}

/** What one entry holds, loaded for a crawler (or a crawler set). */
export type HostEntry =
  /**
   * A robots.txt: its compiled matcher for the crawler, or its crawler set;
   * on the entry's first load also its body's problem, if any (HTML,
   * UTF-16, binary, truncated), and the bytes read.
   */
  | { readonly kind: 'rules'; readonly judge: AgentMatcher | CrawlerSet; readonly problem?: BodyProblem; readonly bytesRead?: number; readonly allowsAll?: boolean; readonly wide?: string }
  /**
   * No file but a fetch outcome (bundles from JSON lines): unavailable allows
   * all, unreachable disallows all; `refused`: not fetched at all, its
   * address refused by fetch's address policy (disallows all, and is said).
   */
  | { readonly kind: 'outcome'; readonly outcome: 'unavailable' | 'unreachable'; readonly refused?: boolean }
  /** An entry that could not be read (not a regular file, permission denied, …): judged as a host without one. */
  | { readonly kind: 'unreadable'; readonly reason: string }

/**
 * Per-host rules for `filter`: an index of entries, built once, that the
 * per-line loop asks without making strings, and each entry's rules, loaded
 * on demand. A source can be rebuilt in a worker thread from its
 * `descriptor()` (structured-clone-able; arrays on SharedArrayBuffers, the
 * directory's index and the bundle's bytes, are shared, not copied).
 */
export interface HostRules {
  /** Entries in the index (ids are `0 .. size - 1`). */
  readonly size: number
  /** Whether some entries are for one origin (`https://host:port`) rather than every scheme and port of a host. */
  readonly originKeys: boolean
  /** The entry for a URL line's host (see `HostQuery`), or -1 when there is none. */
  find(query: HostQuery): number
  /**
   * Loads entry `id` for `who`: the crawler answering to its tokens, or its
   * crawler set (a file read and parsed, or a bundle's rules decoded);
   * `first`: its first load in this thread, when the body's problems are
   * looked for.
   */
  load(id: number, who: HostCrawlers, first: boolean): HostEntry
  /** The entry's name for `--format jsonl`'s `source` and for warnings: `DIR/<host>`, `BUNDLE#<key>`. */
  sourceName(id: number): string
  /** When entry `id` was fetched and until when it may be used (a bundle written by `fetch`), or undefined when the source does not say. */
  freshness?(id: number): { readonly fetchedAt: number; readonly expiresAt: number } | undefined
  /** A structured-clone-able description to rebuild this source in a worker thread. */
  descriptor(): HostRulesDescriptor
}

/** What a worker thread needs to rebuild a `HostRules` (see `openHostRules` in open-host-rules.ts). */
export type HostRulesDescriptor =
  | {
      readonly kind: 'dir'
      readonly dir: string
      readonly index: import('./host-index.js').HostIndexData
      readonly kinds: Uint8Array
      /** Entries whose file is named by another spelling of their host: id, the names. */
      readonly spellings: readonly (readonly [number, readonly Uint8Array[]])[]
    }
  | {
      readonly kind: 'bundle'
      readonly path: string
      /** The bundle file's bytes (on a SharedArrayBuffer: mapped by every thread, not copied). */
      readonly bytes: Uint8Array
      /** Whether some keys are origins (found once by the main thread). */
      readonly originKeys: boolean
    }
