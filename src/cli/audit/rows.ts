/**
 * `audit`'s rows, written as they are made: a row per host and crawler of
 * one snapshot, or per host and crawler whose class changed between two.
 * The writer is waited for after each host whenever the output is full, so
 * memory stays bounded however many hosts and crawlers there are.
 */
import type { BlockWriter } from '../common/block-writer.js'
import { verdictFound } from '../common/stdio.js'
import { classify, type CrawlerClass } from './classify.js'
import { pairKeys } from './pair-keys.js'
import { AuditTally, CHANGE_HEADER, changeOf, ChangeTally, ROW_HEADER, rowOf } from './report.js'
import type { HostRecord, Snapshot } from './snapshot.js'
import type { CrawlerSpec } from '../common/crawlers-option.js'

/** The exit status of `audit OLD NEW` when some class changed (as `diff` uses 3 for a changed verdict). */
export const EXIT_CHANGED = 3

/** What the row writers take: the crawlers (names and tokens), the format, the output, and each record seen (for unreadable hosts). */
export interface RowsOptions {
  readonly crawlers: readonly CrawlerSpec[]
  readonly tokens: readonly (readonly string[])[]
  readonly format: 'csv' | 'jsonl' | 'table'
  readonly out: BlockWriter
  readonly see: (r: HostRecord) => void
}

/** A row per host and crawler of one snapshot (unless `table`); resolves to the tally. */
export async function writeRows(snapshot: Snapshot, o: RowsOptions): Promise<AuditTally> {
  const { crawlers, format, out } = o
  const tally = new AuditTally(crawlers.map((c) => c.name))
  if (format === 'csv') out.text(ROW_HEADER)
  for (const key of snapshot.keys()) {
    const record = snapshot.record(key)
    o.see(record)
    const classes = classify(record, o.tokens)
    tally.add(record, classes)
    if (format === 'table') continue
    classes.forEach((c, k) => out.text(rowOf(record, crawlers[k].name, c, format)))
    await out.drain()
  }
  return tally
}

/** A row per host and crawler whose class differs between `old` and `now` (unless `table`); resolves to the tally. */
export async function writeChanges(old: Snapshot, now: Snapshot, o: RowsOptions): Promise<ChangeTally> {
  const { crawlers, format, out } = o
  const tally = new ChangeTally(crawlers.map((c) => c.name))
  if (format === 'csv') out.text(CHANGE_HEADER)
  for (const { key, old: a, now: b } of pairKeys(old, now)) {
    tally.hosts++
    o.see(a.outcome === 'unreadable' ? a : b)
    const ca: CrawlerClass[] = classify(a, o.tokens)
    const cb: CrawlerClass[] = classify(b, o.tokens)
    // Unknown on both sides: not compared, and said so (an unknown class is not known to be the same).
    if (ca[0].access === 'unknown' && cb[0].access === 'unknown') tally.addUnknown(a.outcome, b.outcome)
    for (let k = 0; k < crawlers.length; k++) {
      if (ca[k].access === cb[k].access) continue
      tally.add(k, ca[k].access, cb[k].access)
      verdictFound(EXIT_CHANGED)
      if (format !== 'table') out.text(changeOf(key, crawlers[k].name, { r: a, c: ca[k] }, { r: b, c: cb[k] }, format))
    }
    await out.drain()
  }
  return tally
}
