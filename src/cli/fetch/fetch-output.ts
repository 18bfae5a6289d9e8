/**
 * The output of a `fetch` run, in the plan's order (fetch-plan.ts): each
 * key's entry kept from the bundle updated, or its record in the journal
 * (this run's fetch, or a run before it that was stopped), or, for an entry
 * due but not fetched (an interrupted run), the entry as it was. A bundle
 * is written entry by entry (`BundleWriter`, three passes over the same
 * entries), so memory stays that of the entry table whatever the number of
 * origins; JSON lines are the records themselves.
 */
import { Robots, RobotsFormatError, type RobotsStore, type StoreFetchInfo } from '../../index.js'
import { BundleWriter, CliError, type BundleEntryKind } from '../../internals.js'
import { OutputWriter, type OutputTarget } from '../common/output-file.js'
import { entryIn, type FetchedEntry } from './fetch-entry.js'
import type { FetchPlan } from './fetch-plan.js'
import { fetchRecord, recordInfo, recordRules } from './fetch-record.js'
import type { Journal } from './journal.js'

/** Where each key's record lies in the journal (offset −1: none). */
export interface RecordSpans {
  readonly offsets: Float64Array
  readonly lengths: Int32Array
}

/** Everything the output is made of. */
export interface OutputSource {
  readonly plan: FetchPlan
  readonly spans: RecordSpans
  readonly journal: Journal | undefined
  /** The bundle updated, if any. */
  readonly old: RobotsStore | undefined
}

/** One entry of the output: a journal record's text, or an entry held. */
type Item = { readonly record: string } | { readonly entry: FetchedEntry }

/** The entry of key `i`, if the output has one. */
function itemOf(src: OutputSource, i: number): Item | undefined {
  const key = src.plan.keys[i]!
  if (src.plan.kept[i] === 0 && src.spans.offsets[i]! >= 0) return { record: src.journal!.read({ offset: src.spans.offsets[i]!, length: src.spans.lengths[i]! }) }
  // Kept, or due and not fetched: as it was in the bundle updated.
  const entry = src.old === undefined ? undefined : entryIn(src.old, key)
  return entry === undefined ? undefined : { entry }
}

/** A journal record as JSON (an error names the journal: it was changed by hand, or the disk failed). */
function parsed(src: OutputSource, text: string): Record<string, unknown> {
  const fail = (why: string): never => {
    throw new CliError('ERR_READ', `cannot read the journal '${src.journal!.path}': a record is not one fetch wrote (${why})`)
  }
  let o: unknown
  try {
    o = JSON.parse(text)
  } catch {
    fail('not JSON')
  }
  if (typeof o !== 'object' || o === null) fail('not an object')
  return o as Record<string, unknown>
}

/** An entry's bundle fields: its kind, its form's length (and the form itself when `withForm`), its fetch info. */
function bundleFields(src: OutputSource, item: Item, withForm: boolean): { kind: BundleEntryKind; formLength: number; form?: Uint8Array; info: StoreFetchInfo | undefined } {
  if ('entry' in item) {
    const rules = item.entry.rules
    if (typeof rules === 'string') return { kind: rules, formLength: 0, info: item.entry.info }
    const form = rules.toBytes()
    return { kind: 'robots', formLength: form.length, form, info: item.entry.info }
  }
  const o = parsed(src, item.record)
  const fail = (why: string): never => {
    throw new CliError('ERR_READ', `cannot read the journal '${src.journal!.path}': ${why}`)
  }
  const { kind, formLength } = recordRules(o, fail)
  const info = recordInfo(o, fail)
  if (!withForm || kind !== 'robots') return { kind, formLength, info }
  // The form as toBytes() wrote it, checked whole as Robots.fromBytes checks one.
  const form = new Uint8Array(Buffer.from(o.rules_base64 as string, 'base64'))
  try {
    Robots.fromBytes(form)
  } catch (err) {
    if (err instanceof RobotsFormatError) fail(`"rules_base64" is not a robots-automaton form: ${err.message}`)
    throw err
  }
  return { kind, formLength, form, info }
}

/** Writes the output to `writer` as JSON lines, or as a bundle; the number of entries written. */
export async function writeFetchOutput(src: OutputSource, format: 'bundle' | 'jsonl', target: OutputTarget): Promise<number> {
  const n = src.plan.keys.length
  const writer = await OutputWriter.open(target)
  try {
    let written = 0
    if (format === 'jsonl') {
      for (let i = 0; i < n; i++) {
        const item = itemOf(src, i)
        if (item === undefined) continue
        await writer.write(`${'record' in item ? item.record : fetchRecord(src.plan.keys[i]!, item.entry)}\n`)
        written++
      }
    } else {
      // Which keys have an entry: known without reading any record.
      const present: number[] = []
      for (let i = 0; i < n; i++) {
        if (src.plan.kept[i] === 1 || src.spans.offsets[i]! >= 0 || (src.old !== undefined && src.old.has(src.plan.keys[i]!))) present.push(i)
      }
      const bundle = new BundleWriter(present.length)
      for (const i of present) {
        const f = bundleFields(src, itemOf(src, i)!, false)
        bundle.measure(src.plan.keys[i]!, f.kind, f.formLength, f.info)
      }
      for (const i of present) bundle.hash(src.plan.keys[i]!, bundleFields(src, itemOf(src, i)!, false).info)
      await writer.write(bundle.head())
      for (const i of present) {
        const f = bundleFields(src, itemOf(src, i)!, true)
        await writer.write(bundle.entry(src.plan.keys[i]!, f.form, f.info))
      }
      written = present.length
    }
    await writer.commit()
    return written
  } catch (err) {
    writer.abort()
    throw err
  }
}
