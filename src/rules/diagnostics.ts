/**
 * Diagnostics: problems found while parsing, each with a line number and a
 * stable code. Stored compactly (two integers each) and turned into objects
 * only when asked for.
 */
import { RobotsFormatError } from '../errors.js'
import { arrayBytes, objectBytes, stringBytes, typedArrayBytes } from '../memory.js'

/** Most diagnostics kept per file (memory stays bounded on junk input); one more notes the cut. */
export const MAX_DIAGNOSTICS = 1000

/** Severity of a diagnostic; `lint` exits 1 when any `error` is present. */
export type Severity = 'error' | 'warning' | 'info'

/** Every diagnostic code, with its severity and message. Codes are stable. */
export const DIAGNOSTICS = {
  'invalid-line': ['warning', 'line is not a directive ("key: value"), a comment or empty; ignored'],
  'unknown-directive': ['warning', 'unknown directive; ignored'],
  'unused-directive': ['info', 'directive carries no access rule; not used for matching'],
  typo: ['warning', 'key is a misspelling the reference accepts'],
  'missing-colon': ['warning', 'key and value are separated by whitespace instead of ":"'],
  'line-too-long': ['warning', 'line is longer than 16,663 bytes; the rest of it is ignored'],
  'rule-outside-group': ['error', 'rule before any User-agent line; ignored'],
  'directive-outside-group': ['warning', 'group directive before any User-agent line; ignored'],
  'pattern-start': ['error', 'pattern does not start with "/" or "*": it can never match a path'],
  'dollar-not-at-end': ['warning', '"$" is special only at the end of a pattern; here it matches a literal "$"'],
  'empty-user-agent': ['warning', 'empty User-agent value'],
  'user-agent-cut': ['warning', 'User-agent value is cut at the first character outside [A-Za-z_-]'],
  'invalid-utf8': ['warning', 'line is not valid UTF-8'],
  'control-character': ['warning', 'line contains a control character'],
  'truncated': ['error', 'file is larger than the parsing limit; the rest is ignored (the crossing line is dropped)'],
  'html-body': ['error', 'body looks like an HTML page, not a robots.txt'],
  'sitemap-not-absolute': ['warning', 'sitemap is not an absolute http(s) URL; ignored'],
  'bad-crawl-delay': ['warning', 'crawl-delay is not a non-negative number of seconds; ignored'],
  'crawl-delay-clamped': ['warning', 'crawl-delay is larger than 86400 seconds; read as 86400'],
  'bad-request-rate': ['warning', 'request-rate is not "N/T[s|m|h|d]" with N >= 1 and T > 0; ignored'],
  'bad-visit-time': ['warning', 'visit-time is not "HHMM-HHMM" (UTC); ignored'],
  'bad-host': ['warning', 'host is not a host name with an optional port; ignored'],
  'too-many-diagnostics': ['info', `more than ${MAX_DIAGNOSTICS} diagnostics; the rest are not listed`],
} as const satisfies Record<string, readonly [Severity, string]>

/** A stable diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTICS

/** One problem, on one line (0 for the whole file). */
export interface Diagnostic {
  line: number
  code: DiagnosticCode
  severity: Severity
  message: string
}

const CODES = Object.keys(DIAGNOSTICS) as DiagnosticCode[]
const NO_DATA = new Int32Array(0)
const CODE_INDEX = new Map<DiagnosticCode, number>(CODES.map((c, i) => [c, i]))

/** Growable compact list: `[codeIndex, line]` pairs, plus sparse detail strings. */
export class DiagnosticList {
  /** `[codeIndex, line]` pairs; shared and empty until the first diagnostic (most files have few or none). */
  private data: Int32Array = NO_DATA
  private n = 0
  /** Detail text by diagnostic index (sparse; most diagnostics have none). */
  private details: (string | undefined)[] | undefined

  get length(): number {
    return this.n
  }

  /** True once MAX_DIAGNOSTICS are held: further ones are dropped (skip computing them). */
  get full(): boolean {
    return this.n > MAX_DIAGNOSTICS
  }

  /**
   * Adds a diagnostic; past MAX_DIAGNOSTICS, one `too-many-diagnostics` and
   * then nothing, unless `always` (for the file-level ones, such as truncated).
   */
  add(code: DiagnosticCode, line: number, detail?: string, always = false): void {
    if (this.n >= MAX_DIAGNOSTICS && !always) {
      if (this.n > MAX_DIAGNOSTICS) return
      code = 'too-many-diagnostics'
      detail = undefined
    }
    if (this.n * 2 === this.data.length) {
      const grown = new Int32Array(Math.max(8, this.data.length * 2))
      grown.set(this.data)
      this.data = grown
    }
    if (detail !== undefined) (this.details ??= [])[this.n] = detail
    this.data[this.n * 2] = CODE_INDEX.get(code)!
    this.data[this.n * 2 + 1] = line
    this.n++
  }

  /** The diagnostics as objects, in the order found. */
  toArray(): Diagnostic[] {
    const out: Diagnostic[] = []
    for (let i = 0; i < this.n; i++) {
      const code = CODES[this.data[i * 2]]
      const [severity, text] = DIAGNOSTICS[code]
      const detail = this.details?.[i]
      out.push({ line: this.data[i * 2 + 1], code, severity, message: detail ? `${text}: ${detail}` : text })
    }
    return out
  }

  /** Compact copy: `[codeIndex, line]` pairs and details. */
  pack(): { pairs: Int32Array; details: [number, string][] } {
    const details: [number, string][] = []
    this.details?.forEach((d, i) => {
      if (d !== undefined) details.push([i, d])
    })
    return { pairs: this.data.slice(0, this.n * 2), details }
  }

  /** Rebuilds a list from {@link pack}'s output; a RobotsFormatError (ERR_FORMAT) when it does not fit together. */
  static unpack(pairs: Int32Array, details: [number, string][]): DiagnosticList {
    const list = new DiagnosticList()
    list.data = pairs.length ? pairs : NO_DATA
    list.n = pairs.length >> 1
    for (const entry of details) {
      if (!Array.isArray(entry) || !Number.isInteger(entry[0]) || entry[0] < 0 || entry[0] >= list.n || typeof entry[1] !== 'string') {
        throw new RobotsFormatError('ERR_FORMAT', 'bad diagnostic detail')
      }
      ;(list.details ??= [])[entry[0]] = entry[1]
    }
    for (let i = 0; i < list.n; i++) {
      if (!(list.data[i * 2] >= 0 && list.data[i * 2] < CODES.length)) throw new RobotsFormatError('ERR_FORMAT', 'bad diagnostic code')
    }
    return list
  }

  /** Bytes held, by the model of src/memory.ts (the shared empty data array is not counted). */
  memoryUsage(): number {
    let bytes = objectBytes(3) + (this.data === NO_DATA ? 0 : typedArrayBytes(this.data))
    if (this.details) {
      bytes += arrayBytes(this.details.length)
      for (const d of this.details) if (d !== undefined) bytes += stringBytes(d)
    }
    return bytes
  }
}
