/**
 * What a robots.txt body is when it is really another kind of file: JSON
 * (an API's answer), an XML sitemap or other XML. Told from its first bytes
 * (a byte order mark and blanks skipped); an HTML page is the library's
 * `html-body` diagnostic, which an XML body also raises, so XML is told
 * apart here.
 */

/** A body that is not a robots.txt, by what it is. */
export type BodyKind = 'json' | 'sitemap' | 'xml'

/** Words for each kind: `body is JSON, not a robots.txt`. */
export const BODY_KIND_WORDS: Record<BodyKind, string> = { json: 'JSON', sitemap: 'an XML sitemap', xml: 'XML' }

/** The code a diagnostic or warning names each kind by. */
export function bodyKindCode(kind: BodyKind): 'json-body' | 'xml-body' {
  return kind === 'json' ? 'json-body' : 'xml-body'
}

const BLANK = /^[\t\n\r\f ]*/

/** The kind of body whose first bytes are `head`, or undefined (a robots.txt, an HTML page, or too little to tell). */
export function bodyKind(head: Uint8Array | undefined): BodyKind | undefined {
  if (head === undefined || head.length === 0) return undefined
  let text = new TextDecoder('latin1').decode(head)
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3)
  text = text.replace(BLANK, '')
  // '{"' or '{}', '[{', '["', '[[', '[]', '[1': no robots.txt line starts so.
  if (/^\{[\t\n\r ]*["}]|^\[[\t\n\r ]*[[{"\]\d-]/.test(text)) return 'json'
  const lower = text.toLowerCase()
  if (/<(?:urlset|sitemapindex)\b/.test(lower) && /^<(?:\?xml|urlset|sitemapindex|!--)/.test(lower)) return 'sitemap'
  if (lower.startsWith('<?xml') && !/<(?:!doctype html|html)\b/.test(lower)) return 'xml'
  return undefined
}
