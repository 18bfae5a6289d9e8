/**
 * `fetch --format jsonl`: one JSON object per origin ({@link fetchRecord}),
 * holding what its bundle entry would hold, which `pack` reads back
 * ({@link entryOfRecord}). The fields: docs/fetch.md.
 */
import { Robots, RobotsFormatError, RobotsInputError, RobotsStore, type FetchReason, type StoreFetchInfo } from '../../index.js'
import type { FetchedEntry } from './fetch-entry.js'

/** A store that checks fetch info as every store does when an entry is set (one entry, replaced each time). */
let checker: RobotsStore | undefined

/** What a record adds about this run's fetch of the origin (absent for an entry kept as it was). */
export interface FetchRun {
  /** The robots.txt URL fetched. */
  readonly url: string
  readonly reason: FetchReason
  /** How long the fetch took. */
  readonly ms: number
  /** For network errors, time-outs and incomplete bodies: what failed. */
  readonly error?: string
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** The JSON line (no newline) of `key`'s entry, with this run's fetch when there was one. */
export function fetchRecord(key: string, entry: FetchedEntry, run?: FetchRun): string {
  const rules = entry.rules
  const info = entry.info
  const o: Record<string, unknown> = { origin: key }
  if (run !== undefined) o.url = run.url
  o.outcome = info?.outcome ?? (typeof rules === 'string' ? rules : 'ok')
  if (run !== undefined) o.reason = run.reason
  if (info?.status !== undefined) o.status = info.status
  o.entry = typeof rules === 'string' ? rules : 'robots'
  o.bytes = typeof rules === 'string' ? 0 : rules.bytesRead
  if (run !== undefined) o.ms = Math.round(run.ms)
  if (info !== undefined) {
    o.fetched_at = iso(info.fetchedAt)
    o.expires_at = iso(info.expiresAt)
    o.reachable_at = iso(info.reachableAt)
    if (info.etag !== undefined) o.etag = info.etag
    if (info.lastModified !== undefined) o.last_modified = info.lastModified
    if (info.origin !== undefined) o.fetched_origin = info.origin
  }
  if (run?.error !== undefined) o.error = run.error
  if (typeof rules !== 'string') o.rules_base64 = Buffer.from(rules.toBytes()).toString('base64')
  return JSON.stringify(o)
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/

/** The rules a record holds, without decoding them: its kind and, for a robots.txt, its form's length (from the base64 text). */
export function recordRules(o: Record<string, unknown>, fail: (message: string) => never): { kind: 'robots' | 'unavailable' | 'unreachable'; formLength: number } {
  const entry = o.entry
  if (entry !== 'robots' && entry !== 'unavailable' && entry !== 'unreachable') fail(`"entry" must be "robots", "unavailable" or "unreachable"`)
  if (entry !== 'robots') {
    if (o.rules_base64 !== undefined) fail(`an "entry": "${entry}" record has no "rules_base64"`)
    return { kind: entry, formLength: 0 }
  }
  const b64 = o.rules_base64
  if (typeof b64 !== 'string' || b64.length % 4 !== 0) fail(`an "entry": "robots" record needs "rules_base64" (base64)`)
  const text = b64 as string
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  return { kind: 'robots', formLength: (text.length / 4) * 3 - padding }
}

/** The form of a `robots` record, checked as `Robots.fromBytes` checks one (`formLength`: from {@link recordRules}). */
export function recordForm(o: Record<string, unknown>, formLength: number, fail: (message: string) => never): Uint8Array {
  const form = new Uint8Array(Buffer.from(o.rules_base64 as string, 'base64'))
  // Characters outside base64 are skipped by the decoder: the length tells.
  if (form.length !== formLength) fail(`"rules_base64" is not base64`)
  try {
    Robots.fromBytes(form)
  } catch (err) {
    if (err instanceof RobotsFormatError) fail(`"rules_base64" is not a robots-automaton form: ${err.message}`)
    throw err
  }
  return form
}

/** The fetch info of a record (undefined for a record without `fetched_at`: an entry made without a fetch). */
export function recordInfo(o: Record<string, unknown>, fail: (message: string) => never): StoreFetchInfo | undefined {
  if (o.fetched_at === undefined) return undefined
  const time = (name: string): number => {
    const v = o[name]
    const t = typeof v === 'string' && ISO.test(v) ? Date.parse(v) : NaN
    if (!(t >= 0)) fail(`"${name}" must be a time as fetch writes it (2026-01-31T12:00:00.000Z)`)
    return t
  }
  const info = {
    outcome: o.outcome,
    fetchedAt: time('fetched_at'),
    expiresAt: time('expires_at'),
    reachableAt: time('reachable_at'),
  } as StoreFetchInfo
  if (o.status !== undefined) info.status = o.status as number
  if (o.etag !== undefined) info.etag = o.etag as string
  if (o.last_modified !== undefined) info.lastModified = o.last_modified as string
  if (o.fetched_origin !== undefined) info.origin = o.fetched_origin as string
  // The rest (outcome, status, validators) checked as the store checks them when the entry is set: a record it would refuse is named here.
  try {
    (checker ??= new RobotsStore()).setOutcome('fetch-info.invalid', 'unavailable', info)
  } catch (err) {
    if (err instanceof RobotsInputError) fail(err.message)
    throw err
  }
  return info
}

/**
 * The entry of a record `fetch --format jsonl` wrote (one with an `entry`
 * field); `fail(message)` for anything out of place (it throws). The rules
 * are checked as `Robots.fromBytes` checks them.
 */
export function entryOfRecord(o: Record<string, unknown>, fail: (message: string) => never): FetchedEntry {
  const { kind, formLength } = recordRules(o, fail)
  const rules: FetchedEntry['rules'] = kind === 'robots' ? Robots.fromBytes(recordForm(o, formLength, fail)) : kind
  const info = recordInfo(o, fail)
  return info === undefined ? { rules } : { rules, info }
}
