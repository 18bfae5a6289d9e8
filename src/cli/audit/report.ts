/**
 * What `audit` writes: a row per host and crawler (CSV or JSON lines), a row
 * per host and crawler whose class changed between two snapshots, and the
 * summary tables: per crawler, the hosts (and their share) in each class
 * ({@link AuditTally}), or the changes from one class to another
 * ({@link ChangeTally}).
 */
import { jsonLine, printableValue } from '../../tools/printable.js'
import { csvField } from '../../tools/csv-field.js'
import { count, plural } from '../common/numbers.js'
import type { AuditClass, CrawlerClass } from './classify.js'
import type { HostOutcome, HostRecord } from './snapshot.js'

/** The classes, in the order the tables show them. */
const CLASSES: readonly AuditClass[] = ['everything', 'some', 'nothing', 'unknown']
const OUTCOMES: readonly HostOutcome[] = ['ok', 'no-file', 'unavailable', 'unreachable', 'refused', 'unreadable', 'error', 'absent']

/** The header of a one-snapshot CSV. */
export const ROW_HEADER = 'host,crawler,access,group,outcome,status,truncated,allowed_path,disallowed_path\n'

/** One host and crawler, as a CSV line or a JSON line. */
export function rowOf(record: HostRecord, crawler: string, c: CrawlerClass, format: 'csv' | 'jsonl'): string {
  const truncated = record.robots?.truncated ?? false
  if (format === 'jsonl') {
    const o: Record<string, unknown> = { host: record.key, crawler, access: c.access, group: c.group, outcome: record.outcome }
    if (record.status !== undefined) o.status = record.status
    o.truncated = truncated
    o.allowed_path = c.allowedPath
    o.disallowed_path = c.disallowedPath
    if (record.reason !== undefined) o.reason = record.reason
    return `${jsonLine(o)}\n`
  }
  return [record.key, crawler, c.access, c.group, record.outcome, record.status, truncated, c.allowedPath, c.disallowedPath].map(csvField).join(',') + '\n'
}

/** The header of a two-snapshot CSV. */
export const CHANGE_HEADER = 'host,crawler,old_access,new_access,old_group,new_group,old_outcome,new_outcome\n'

/** One host and crawler whose class changed, as a CSV line or a JSON line. */
export function changeOf(key: string, crawler: string, old: { r: HostRecord; c: CrawlerClass }, now: { r: HostRecord; c: CrawlerClass }, format: 'csv' | 'jsonl'): string {
  if (format === 'jsonl') {
    const side = (s: { r: HostRecord; c: CrawlerClass }): object => ({
      access: s.c.access,
      group: s.c.group,
      outcome: s.r.outcome,
      ...(s.r.status !== undefined && { status: s.r.status }),
      truncated: s.r.robots?.truncated ?? false,
      allowed_path: s.c.allowedPath,
      disallowed_path: s.c.disallowedPath,
      ...(s.r.reason !== undefined && { reason: s.r.reason }),
    })
    return `${jsonLine({ host: key, crawler, old: side(old), new: side(now) })}\n`
  }
  return [key, crawler, old.c.access, now.c.access, old.c.group, now.c.group, old.r.outcome, now.r.outcome].map(csvField).join(',') + '\n'
}

/** Widest a column is padded to: a longer cell (a crawler's name) is written whole and pushes its row's next cells right. */
export const MAX_COLUMN_WIDTH = 40

/**
 * Lays out rows of cells in columns (left-aligned, two spaces apart), each
 * as wide as its widest cell up to MAX_COLUMN_WIDTH, so that one long name
 * does not pad every other row to its length.
 */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, i) => Math.min(MAX_COLUMN_WIDTH, rows.reduce((w, r) => Math.max(w, r[i].length), 0)))
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n'
}

/** `n (share%)` of `of`. */
function share(n: number, of: number): string {
  return `${count(n)} (${of === 0 ? '0.0' : ((100 * n) / of).toFixed(1)}%)`
}

/** Per crawler, the hosts in each class and group; per host, the outcomes. */
export class AuditTally {
  hosts = 0
  truncated = 0
  readonly outcomes = new Map<HostOutcome, number>()
  private readonly classes: Map<AuditClass, number>[]
  private readonly named: number[]

  constructor(private readonly names: readonly string[]) {
    this.classes = names.map(() => new Map())
    this.named = names.map(() => 0)
  }

  /** Counts one host and its crawlers' classes. */
  add(record: HostRecord, classes: readonly CrawlerClass[]): void {
    this.hosts++
    if (record.robots?.truncated) this.truncated++
    this.outcomes.set(record.outcome, (this.outcomes.get(record.outcome) ?? 0) + 1)
    classes.forEach((c, k) => {
      this.classes[k].set(c.access, (this.classes[k].get(c.access) ?? 0) + 1)
      if (c.group === 'named') this.named[k]++
    })
  }

  /** The summary table: a row per crawler, the hosts (and share) per class, and those that name it; then a line on the outcomes. */
  table(): string {
    const unknown = this.classes.some((m) => (m.get('unknown') ?? 0) > 0)
    const shown = CLASSES.filter((c) => c !== 'unknown' || unknown)
    const rows: string[][] = [['crawler', ...shown, 'named by a group']]
    this.names.forEach((name, k) => {
      rows.push([printableValue(name), ...shown.map((c) => share(this.classes[k].get(c) ?? 0, this.hosts)), share(this.named[k], this.hosts)])
    })
    const outcomes = OUTCOMES.filter((o) => (this.outcomes.get(o) ?? 0) > 0).map((o) => `${count(this.outcomes.get(o)!)} ${o}`)
    const cut = this.truncated > 0 ? `; ${count(this.truncated)} cut at the parsing limit (their rules read are classed)` : ''
    return `${columns(rows)}${plural(this.hosts, 'host')}: ${outcomes.join(', ') || 'none'}${cut}\n`
  }
}

/** Per crawler, the hosts whose class changed between two snapshots, by change. */
export class ChangeTally {
  /** Hosts of either snapshot. */
  hosts = 0
  /** Hosts whose class is unknown on both sides (unreadable, not fetched, absent): not compared, by their two outcomes (`unreadable → absent`). */
  readonly unknownBoth = new Map<string, number>()
  private readonly changes: Map<string, number>[]
  private readonly changed: number[]

  constructor(private readonly names: readonly string[]) {
    this.changes = names.map(() => new Map())
    this.changed = names.map(() => 0)
  }

  /** Counts crawler `k`'s change on a host from `from` to `to`. */
  add(k: number, from: AuditClass, to: AuditClass): void {
    this.changed[k]++
    const key = `${from} → ${to}`
    this.changes[k].set(key, (this.changes[k].get(key) ?? 0) + 1)
  }

  /** Counts a host whose class is unknown on both sides, by its outcomes there. */
  addUnknown(old: HostOutcome, now: HostOutcome): void {
    const key = `${old} → ${now}`
    this.unknownBoth.set(key, (this.unknownBoth.get(key) ?? 0) + 1)
  }

  /** Hosts not compared: their class is unknown on both sides. */
  get notCompared(): number {
    let n = 0
    for (const v of this.unknownBoth.values()) n += v
    return n
  }

  /** What the hosts not compared were, `1 unreadable → unreadable`. */
  get notComparedWhy(): string {
    return [...this.unknownBoth].map(([what, n]) => `${count(n)} ${what}`).join(', ')
  }

  /** Whether any crawler's class changed anywhere. */
  get any(): boolean {
    return this.changed.some((n) => n > 0)
  }

  /** The summary table: a row per crawler, the hosts whose class changed, and each change with its count. */
  table(): string {
    const rows: string[][] = [['crawler', 'changed', 'changes']]
    this.names.forEach((name, k) => {
      const each = [...this.changes[k]].sort((a, b) => b[1] - a[1]).map(([what, n]) => `${what} ${count(n)}`)
      rows.push([printableValue(name), share(this.changed[k], this.hosts), each.join(', ') || '-'])
    })
    const skipped = this.notCompared
    const tail = skipped === 0 ? `${plural(this.hosts, 'host')} compared` : `${plural(this.hosts, 'host')}: ${count(this.hosts - skipped)} compared, ${count(skipped)} not (class unknown on both sides: ${this.notComparedWhy})`
    return `${columns(rows)}${tail}\n`
  }
}
