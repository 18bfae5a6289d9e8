/**
 * The unit of `compare`: one robots.txt body, the crawler's product token(s),
 * one URL, the reference's answer and the categories the case exercises; and
 * the conventions for carrying body bytes in JSON (case files, the batch
 * protocol, the JSON report).
 */
import { isUtf8 } from 'node:buffer'
import { nodeCrypto } from '../tools/built-ins.js'
import { utf8SequenceLength } from '../tools/input-text.js'
import type { RuleRef } from '../index.js'
import type { Standard } from './categories.js'

/** The reference's answer to a case, from this library (`explain`). */
export interface Expected {
  readonly allowed: boolean
  /** The reference's matching line: the deciding rule's line, 0 when no rule decided. */
  readonly line: number
  /** The deciding rule (null when none). */
  readonly rule: RuleRef | null
}

/** What a case set reads or generates, before the oracle answers it. */
export interface CaseInput {
  /** Unique within the set, e.g. `unit:ID_LongestMatch#3`, `corpus:example.com#12`. */
  readonly id: string
  readonly robots: Uint8Array
  /** One product token, or several (the reference's multi-agent form). Never empty. */
  readonly agents: readonly string[]
  readonly url: string
  /** The set's own stated answer (unit vectors, spec-test `expected_outcome`, a JSONL `allowed`), checked against the oracle. */
  readonly stated?: { readonly allowed: boolean; readonly line?: number }
  /** Categories given by the set itself (JSONL `categories`), added to the automatic ones. */
  readonly extraCategories?: readonly string[]
  /** Where the body comes from, for messages: a file (`corpus/robots/example.com`, `case.textproto:12`), a case file's line. */
  readonly source?: string
  /** The file of the set the case belongs to (a spec-test `.textproto`), for pass rates per file. */
  readonly group?: string
  /** Why the set expects its answer (spec-test `additional_explanation`), shown on a disagreement. */
  readonly explanation?: string
  /** The case's content key when the set made it already ({@link caseKey}); the oracle makes it otherwise. */
  readonly key?: string
}

/** A case ready to run: its input, the reference's answer, RFC 9309's, which standard its answer follows, and its categories. */
export interface Case extends CaseInput {
  readonly expected: Expected
  /** RFC 9309's answer (rfc-oracle.ts): the reference's except where the RFC's text decides otherwise. */
  readonly rfc: Expected
  readonly standard: Standard
  readonly categories: readonly string[]
  /** The case's content key: the same body, tokens and URL give the same key in every run and set ({@link caseKey}). */
  readonly key: string
}

const bodyHashes = new WeakMap<Uint8Array, Buffer>()

/**
 * A case's content key: 16 hex digits of the SHA-1 of the body's SHA-1, the
 * tokens and the URL. Baselines match cases by it (and by id), so a case
 * keeps its key whatever set, count or order it comes in.
 */
export function caseKey(robots: Uint8Array, agents: readonly string[], url: string): string {
  let body = bodyHashes.get(robots)
  if (body === undefined) bodyHashes.set(robots, (body = nodeCrypto().createHash('sha1').update(robots).digest()))
  return nodeCrypto().createHash('sha1').update(body).update('\0').update(agents.join('\n')).update('\0').update(url).digest('hex').slice(0, 16)
}

/** Whether a string is well-formed UTF-16 (no lone surrogate), so that it encodes to UTF-8 and back unchanged. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text)
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A body as JSON fields: `robots` (a string) when the bytes are valid UTF-8, else `robots_base64`. */
export function robotsFields(bytes: Uint8Array): { robots: string } | { robots_base64: string } {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return isUtf8(b) ? { robots: b.toString('utf8') } : { robots_base64: b.toString('base64') }
}

/** The `agent` JSON field: a string for one token, an array for several. */
export function agentField(agents: readonly string[]): string | string[] {
  return agents.length === 1 ? agents[0] : [...agents]
}

const HEX = '0123456789ABCDEF'

/**
 * Bytes shown as text for reports: valid UTF-8 as is, LF and TAB kept, CR as
 * `\r` (with a line break after a CR that ends a line alone), NUL and other
 * control bytes, a BOM and bytes that are not UTF-8 as `\xHH`. Lines longer
 * than `maxLine` characters are cut with a note.
 */
export function visibleBytes(bytes: Uint8Array, maxLine = 400): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let out = ''
  let lineLength = 0
  let cut = 0
  const put = (s: string): void => {
    if (lineLength >= maxLine) {
      cut += s.length
      return
    }
    out += s
    lineLength += s.length
  }
  const endLine = (): void => {
    if (cut > 0) out += ` … (${cut} more)`
    cut = 0
    lineLength = 0
  }
  let i = 0
  while (i < b.length) {
    const c = b[i]
    if (c === 0x0a) {
      endLine()
      out += '\n'
      i++
      continue
    }
    if (c === 0x0d) {
      put('\\r')
      if (b[i + 1] !== 0x0a) {
        endLine()
        out += '\n'
      }
      i++
      continue
    }
    if (c < 0x80) {
      put(c === 0x09 || (c >= 0x20 && c !== 0x7f) ? String.fromCharCode(c) : `\\x${HEX[c >> 4]}${HEX[c & 15]}`)
      i++
      continue
    }
    const n = utf8SequenceLength(b, i)
    if (n === 0 || (n === 3 && b[i] === 0xef && b[i + 1] === 0xbb && b[i + 2] === 0xbf)) {
      const len = n || 1
      for (let k = 0; k < len; k++) put(`\\x${HEX[b[i + k] >> 4]}${HEX[b[i + k] & 15]}`)
      i += len
      continue
    }
    put(b.toString('utf8', i, i + n))
    i += n
  }
  endLine()
  return out
}

/**
 * A value taken from a case, an adapter or a file (an id, an agent, a
 * category, a file name, an error) on one line of a text report: control
 * characters, line breaks included, as `\xHH`, so that no value starts a line
 * of its own that reads as the report's.
 */
export function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${HEX[c.charCodeAt(0) >> 4]}${HEX[c.charCodeAt(0) & 15]}`)
}

/** A URL shown on one line ({@link oneLine}), cut after `max` characters. */
export function visibleUrl(url: string, max = 300): string {
  const text = oneLine(url.length > max ? url.slice(0, max) : url)
  return url.length > max ? `${text}… (${url.length - max} more)` : text
}
