/**
 * What `audit` reads: a snapshot of many hosts' robots.txt ({@link Snapshot}),
 * from a bundle (`pack`, `fetch`), a directory of files named by host, or a
 * store fetched on the fly (fetch-snapshot.ts); per host its fetch outcome
 * and, when a file was read, its parsed rules ({@link HostRecord}).
 */
import { statSync } from 'node:fs'
import { RobotsFormatError, RobotsStore, type Robots } from '../../index.js'
import { readBundleStore } from '../fetch/bundle-file.js'
import { DirectoryRules } from '../hosts/robots-dir.js'
import { readError } from '../common/cli-error.js'

/**
 * A host's fetch outcome in a snapshot: `ok` (a robots.txt was read),
 * `no-file` (HTTP 404 or 410: the site has none), `unavailable` (another 4xx,
 * or too many redirects: allow all), `unreachable` (5xx, a network error or
 * timeout: disallow all); and what is not the site's doing: `refused` (not
 * fetched: its address refused by fetch's address policy, a private one
 * without `--allow-private`), `unreadable` (a file of the directory could
 * not be read, or a bundle's rules are corrupt), `error` (not fetched: a
 * failure on this side), `absent` (the other snapshot has the host, this
 * one not).
 */
export type HostOutcome = 'ok' | 'no-file' | 'unavailable' | 'unreachable' | 'refused' | 'unreadable' | 'error' | 'absent'

/** One host of a snapshot. */
export interface HostRecord {
  readonly key: string
  readonly outcome: HostOutcome
  /** The HTTP status, when the snapshot kept it (a bundle written by `fetch`). */
  readonly status?: number
  /** For `ok`: the rules read. */
  readonly robots?: Robots
  /** For `unreadable` and `error`: why. */
  readonly reason?: string
}

/** A snapshot of many hosts' robots.txt. */
export interface Snapshot {
  /** The bundle's or directory's name, for messages. */
  readonly name: string
  /** Every host's key (an origin or a bare host, as the store writes it), sorted. */
  keys(): string[]
  /** The record of `key`: outcome `absent` when the snapshot has nothing for it. */
  record(key: string): HostRecord
}

/** The outcome of an entry that is not a file: 404 and 410 say there is none, any other status or none known is the stand-in's name. */
function standInOutcome(source: 'unavailable' | 'unreachable', status: number | undefined): HostOutcome {
  if (source === 'unavailable' && (status === 404 || status === 410)) return 'no-file'
  return source
}

/** A store as a snapshot: a bundle, or what `audit --fetch` fetched (with the origins it could not fetch). */
export class StoreSnapshot implements Snapshot {
  constructor(
    readonly name: string,
    private readonly store: RobotsStore,
    /** Keys not fetched, and why (a failure on this side: never a site's outcome). */
    private readonly failures: ReadonlyMap<string, string> = new Map(),
  ) {}

  keys(): string[] {
    return [...new Set([...this.store.keys(), ...this.failures.keys()])].sort()
  }

  record(key: string): HostRecord {
    const failure = this.failures.get(key)
    if (failure !== undefined && !this.store.has(key)) return { key, outcome: 'error', reason: failure }
    if (!this.store.has(key)) return { key, outcome: 'absent' }
    const info = this.store.fetchInfo(key)
    const status = info?.status
    // The policy's refusal is this side's decision, whatever rules an earlier fetch left: the site's answer is not known.
    if (info?.outcome === 'refused') return { key, outcome: 'refused', reason: 'not fetched: its address was refused by the address policy (a private address: --allow-private)' }
    try {
      // The entry's rules are checked on its first use, by source() as by get().
      const source = this.store.source(key)
      if (source === 'none') return { key, outcome: 'absent' }
      if (source !== 'robots') return { key, outcome: standInOutcome(source, status), status }
      return { key, outcome: 'ok', status, robots: this.store.get(key)! }
    } catch (err) {
      // A form well checksummed but malformed (checked on first use): not the site's outcome.
      if (err instanceof RobotsFormatError) return { key, outcome: 'unreadable', reason: `its rules in the bundle are not valid: ${err.message}` }
      throw err
    }
  }
}

/**
 * A directory of robots.txt files named by host (`DIR/example.com`), as
 * `filter --robots-dir` reads it: only a name that is a host as the URL
 * parser writes it (lowercase, IDN as punycode, canonical IP address) is a
 * host's file, keyed as the store keys a bare host; any other name is left
 * out (`skipped` counts them and names the first), as filter, diff and pack
 * leave it out.
 */
export class DirSnapshot implements Snapshot {
  /** Names that are no host as URLs write it: how many, and the first few with the name to give them. */
  readonly skipped: { readonly count: number; readonly names: readonly { readonly name: string; readonly reason: string }[] }
  private readonly ids = new Map<string, number>()

  private constructor(
    readonly name: string,
    private readonly rules: DirectoryRules,
  ) {
    this.skipped = rules.skipped
    // The directory's names are canonical hosts already (hosts/host-names.ts), each once.
    for (let id = 0; id < rules.size; id++) this.ids.set(rules.name(id), id)
  }

  static open(dir: string): DirSnapshot {
    return new DirSnapshot(dir, DirectoryRules.open(dir))
  }

  keys(): string[] {
    return [...this.ids.keys()].sort()
  }

  record(key: string): HostRecord {
    const id = this.ids.get(key)
    if (id === undefined) return { key, outcome: 'absent' }
    const read = this.rules.read(id)
    if ('robots' in read) return { key, outcome: 'ok', robots: read.robots }
    return { key, outcome: 'unreadable', reason: read.reason }
  }
}

/** A snapshot from a path: a directory of files, or a bundle file. */
export function openSnapshot(path: string, kind?: 'dir' | 'bundle'): Snapshot {
  if (kind === undefined) {
    try {
      kind = statSync(path).isDirectory() ? 'dir' : 'bundle'
    } catch (err) {
      throw readError('snapshot', path, err)
    }
  }
  if (kind === 'dir') return DirSnapshot.open(path)
  return new StoreSnapshot(path, readBundleStore(path))
}
