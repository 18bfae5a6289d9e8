/**
 * Readers of the compact form's value sections (rules/compact-rules.ts):
 * sitemaps and extension entries, decoded into strings only when asked for.
 */
import { VarintReader } from './byte-buffer.js'
import { formLayout, FORMAT_VERSION } from './compact-rules.js'
import { forEachSitemap } from './sitemap-list.js'
import { latin1, utf8Text } from '../parse/escape.js'
import type { ExtensionKind } from './extensions.js'

/** The sitemap URLs of a form, in file order (bytes decoded as UTF-8, invalid sequences replaced). */
export function readSitemaps(form: Uint8Array): string[] {
  const out: string[] = []
  const l = formLayout(form)
  forEachSitemap(form, l.sitemapsStart, l.diagnosticsStart, l.version === FORMAT_VERSION, 'sitemaps', (b, start, end) => {
    out.push(utf8Text(b.subarray(start, end)))
  })
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
  const l = formLayout(form)
  const r = new VarintReader(form, l.extensionsStart, l.sitemapsStart, 'extensions')
  while (r.more) {
    const kind = form[r.at++] as ExtensionKind
    const start = r.readRun()
    out.push({ kind, text: latin1(form.subarray(start, r.at)) })
  }
  return out
}
