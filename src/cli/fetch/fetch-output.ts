/**
 * The output of a `fetch` run, in the plan's order (fetch-plan.ts): each
 * key's entry kept from the bundle updated, or its record in the journal
 * (this run's fetch, or a run before it that was stopped), or, for an entry
 * due but not fetched (an interrupted run), the entry as it was. A bundle
 * is written entry by entry (`BundleWriter`: one pass over the entries,
 * then one over the file written, for its checksum), so memory stays that
 * of the entry table whatever the number of origins; JSON lines are the
 * records themselves.
 */
import { join } from 'node:path'
import type { RobotsStore, StoreFetchInfo } from '../../index.js'
import { BundleWriter, RobotsFormatError, type BundleEntryKind } from '../../index.js'
import { CliError } from '../common/cli-error.js'
import { checkOutput, OutputWriter, type OutputTarget } from '../common/output-file.js'
import { makeTempFolder, removeTempFolder } from '../../tools/temp-folders.js'
import { entryIn, type FetchedEntry } from './fetch-entry.js'
import type { FetchPlan } from './fetch-plan.js'
import { fetchRecord, recordForm, recordInfo, recordRules } from './fetch-record.js'
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
  const key = src.plan.keys.key(i)
  if (src.plan.kept[i] === 0 && src.spans.offsets[i]! >= 0) return { record: src.journal!.read({ offset: src.spans.offsets[i]!, length: src.spans.lengths[i]! }) }
  // Kept, or due and not fetched: as it was in the bundle updated.
  const entry = src.old === undefined ? undefined : entryIn(src.old, key)
  return entry === undefined ? undefined : { entry }
}

/** Where a record's `rules_base64` starts: fetch writes it last (another tool may not). */
const RULES_FIELD = ',"rules_base64":"'

/**
 * A journal record's fields, and its rules' base64 text apart (fetch writes
 * it last: the rest is parsed as JSON, the rules are not copied into a
 * string of their own twice). An error names the journal: it was changed
 * by hand, or the disk failed.
 */
function parsed(src: OutputSource, text: string): Record<string, unknown> {
  return parseRecord(text, (why: string): never => {
    throw new CliError('ERR_READ', `cannot read the journal '${src.journal!.path}': a record is not one fetch wrote (${why})`)
  })
}

function parseRecord(text: string, fail: (why: string) => never): Record<string, unknown> {
  let o: unknown
  const at = text.lastIndexOf(RULES_FIELD)
  try {
    // Only when the rules are the last field, without an escape (`\/`: a tool that escapes slashes); else the record is parsed whole.
    const from = at + RULES_FIELD.length
    if (at > 0 && text.endsWith('"}') && text.indexOf('"', from) === text.length - 2 && text.indexOf('\\', from) < 0) {
      o = JSON.parse(`${text.slice(0, at)}}`)
      if (typeof o === 'object' && o !== null) (o as Record<string, unknown>).rules_base64 = text.slice(at + RULES_FIELD.length, -2)
    } else o = JSON.parse(text)
  } catch {
    fail('not JSON')
  }
  if (typeof o === 'object' && o !== null && !Array.isArray(o)) return o as Record<string, unknown>
  return fail('not an object')
}

/**
 * A journal record checked as {@link writeFetchOutput} reads it (its fields
 * in any order): its origin and fields, or why it cannot make an output entry.
 */
export function checkRecord(text: string): { readonly origin: string; readonly record: Record<string, unknown>; readonly problem?: undefined } | { readonly problem: string } {
  let problem: string | undefined
  const fail = (why: string): never => {
    problem ??= why
    throw new Error(why)
  }
  try {
    const o = parseRecord(text, fail)
    const origin = o.origin
    if (typeof origin !== 'string') return fail('no "origin"')
    // Named with its origin from here on.
    const failOf = (why: string): never => fail(`${origin}: ${why}`)
    const { kind, formLength } = recordRules(o, failOf)
    recordInfo(o, failOf)
    if (kind === 'robots') recordForm(o, formLength, failOf)
    return { origin, record: o }
  } catch (err) {
    if (problem !== undefined) return { problem }
    throw err
  }
}

/** An entry's bundle fields: its kind, its form (for a robots.txt) and its fetch info. */
function bundleFields(src: OutputSource, item: Item): { kind: BundleEntryKind; form?: Uint8Array; info: StoreFetchInfo | undefined } {
  if ('entry' in item) {
    const rules = item.entry.rules
    if (typeof rules === 'string') return { kind: rules, info: item.entry.info }
    return { kind: 'robots', form: rules.toBytes(), info: item.entry.info }
  }
  const o = parsed(src, item.record)
  const fail = (why: string): never => {
    throw new CliError('ERR_READ', `cannot read the journal '${src.journal!.path}': ${why}`)
  }
  const { kind, formLength } = recordRules(o, fail)
  const info = recordInfo(o, fail)
  if (kind !== 'robots') return { kind, info }
  // As fetch wrote it (Robots.toBytes(), checksum included): a bundle's loader checks every form's checksum.
  const form = new Uint8Array(Buffer.from(o.rules_base64 as string, 'base64'))
  if (form.length !== formLength) fail(`"rules_base64" is not base64`)
  return { kind, form, info }
}

/**
 * Writes the bundle into `w`, a file (it is read back and its head written
 * last): room for the head, every entry's bytes in one pass, the head, then
 * the checksum of what was written.
 */
async function writeBundle(src: OutputSource, present: readonly number[], w: OutputWriter): Promise<void> {
  const bundle = new BundleWriter(present.length)
  await w.write(new Uint8Array(bundle.headSize))
  for (const i of present) {
    const item = itemOf(src, i)!
    const f = bundleFields(src, item)
    let bytes: Uint8Array
    try {
      bytes = bundle.entry(src.plan.keys.key(i), f.kind, f.form, f.info)
    } catch (err) {
      // A journal's rules that are not the ones fetch wrote (the file changed since): named, not written into a bundle its loader would refuse whole.
      if (!(err instanceof RobotsFormatError) || !('record' in item)) throw err
      throw new CliError('ERR_READ', `cannot read the journal '${src.journal!.path}': the rules of ${src.plan.keys.key(i)} are not the ones fetch wrote (${err.message.replace(/^BundleWriter: the form of \S+: /, '')})`)
    }
    await w.write(bytes)
  }
  await w.writeAt(0, bundle.head())
  const sum = bundle.checksum()
  await w.readBack(bundle.headSize, (chunk) => sum.update(chunk))
  await w.writeAt(sum.offset, sum.digest())
}

/** Writes the output as JSON lines, or as a bundle; the number of entries written. */
export async function writeFetchOutput(src: OutputSource, format: 'bundle' | 'jsonl', target: OutputTarget): Promise<number> {
  const n = src.plan.keys.size
  if (format === 'jsonl') {
    const writer = await OutputWriter.open(target)
    try {
      let written = 0
      for (let i = 0; i < n; i++) {
        const item = itemOf(src, i)
        if (item === undefined) continue
        await writer.write(`${'record' in item ? item.record : fetchRecord(src.plan.keys.key(i), item.entry)}\n`)
        written++
      }
      await writer.commit()
      return written
    } catch (err) {
      writer.abort()
      throw err
    }
  }
  // Which keys have an entry: known without reading any record.
  const present: number[] = []
  for (let i = 0; i < n; i++) {
    if (src.plan.kept[i] === 1 || src.spans.offsets[i]! >= 0 || (src.old !== undefined && src.old.has(src.plan.keys.key(i)))) present.push(i)
  }
  if (target.kind === 'file') {
    const writer = await OutputWriter.open(target)
    try {
      await writeBundle(src, present, writer)
      await writer.commit()
    } catch (err) {
      writer.abort()
      throw err
    }
    return present.length
  }
  // A stream cannot be read back: the bundle is made in a file first, then copied to it.
  const dir = makeTempFolder('robots-fetch-bundle-')
  try {
    const spool = await OutputWriter.open(checkOutput(join(dir, 'bundle'), 'bundle'))
    try {
      await writeBundle(src, present, spool)
      const out = await OutputWriter.open(target)
      try {
        await spool.readBack(0, (chunk) => out.write(chunk))
        await out.commit()
      } catch (err) {
        out.abort()
        throw err
      }
    } finally {
      spool.abort()
    }
  } finally {
    removeTempFolder(dir)
  }
  return present.length
}
