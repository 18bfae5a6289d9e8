/**
 * Readers of the compact form's value sections (rules/compact-rules.ts):
 * sitemaps and extension entries, decoded into strings only when asked for.
 */
import { readU32, VarintReader } from './byte-buffer.js'
import { Header } from './compact-rules.js'
import { latin1 } from '../parse/escape.js'
import type { ExtensionKind } from './extensions.js'

const utf8 = new TextDecoder('utf-8', { fatal: false })

/** The sitemap URLs of a form, in file order (bytes decoded as UTF-8, invalid sequences replaced). */
export function readSitemaps(form: Uint8Array): string[] {
  const out: string[] = []
  const r = new VarintReader(form, readU32(form, Header.SitemapsStart), readU32(form, Header.DiagnosticsStart), 'sitemaps')
  while (r.more) {
    const start = r.readRun()
    const view = form.subarray(start, r.at)
    let ascii = true
    for (let i = 0; i < view.length && ascii; i++) if (view[i] >= 0x80) ascii = false
    out.push(ascii ? latin1(view) : utf8.decode(view))
  }
  return out
}

/** One extension line's value: its kind and its text (ASCII: escaped). */
export interface ExtensionEntry {
  kind: ExtensionKind
  text: string
}

/** The extension entries of a form, in file order. */
export function extensionEntries(form: Uint8Array): ExtensionEntry[] {
  const out: ExtensionEntry[] = []
  const r = new VarintReader(form, readU32(form, Header.ExtensionsStart), readU32(form, Header.SitemapsStart), 'extensions')
  while (r.more) {
    const kind = form[r.at++] as ExtensionKind
    const start = r.readRun()
    out.push({ kind, text: latin1(form.subarray(start, r.at)) })
  }
  return out
}
