/**
 * Diagnostics: problems found while parsing, each with a line number and a
 * stable code. Written into the compact form as a few bytes each
 * (rules/compact-rules.ts: code, line, and the raw bytes the message quotes)
 * and turned into objects and messages only when asked for.
 */
import { type ByteBuffer, VarintReader } from './byte-buffer.js'
import { CompactRules, EventCursor, EventType, formLayout, FORMAT_VERSION } from './compact-rules.js'
import { latin1, utf8Text } from '../parse/escape.js'
import { asciiLower, productTokenLength } from '../parse/product-token.js'

/** Most diagnostics kept per file (memory stays bounded on junk input); one more notes the cut. */
export const MAX_DIAGNOSTICS = 1000

/** Most kept of a body that looks like an HTML page (`html-body`): its other lines are markup, not directives worth listing one by one. */
export const MAX_HTML_DIAGNOSTICS = 50

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
  'utf16-body': [
    'error',
    'body is UTF-16 (it starts with a UTF-16 byte order mark): the reference reads a robots.txt as UTF-8 bytes, so its UTF-16 text is no rule',
  ],
  'sitemap-not-absolute': ['warning', 'sitemap is not an absolute http(s) URL; ignored'],
  'bad-crawl-delay': ['warning', 'crawl-delay is not a non-negative number of seconds; ignored'],
  'crawl-delay-clamped': ['warning', 'crawl-delay is larger than 86400 seconds; read as 86400'],
  'bad-request-rate': ['warning', 'request-rate is not "N/T[s|m|h|d]" with N >= 1 and T > 0; ignored'],
  'bad-visit-time': ['warning', 'visit-time is not "HHMM-HHMM" (UTC); ignored'],
  'bad-host': ['warning', 'host is not a host name with an optional port; ignored'],
  'too-many-diagnostics': ['info', 'too many diagnostics; the rest are not listed'],
  // Not of the file: of a call (Robots.agent and the others that take tokens), never stored in a form.
  'agent-not-product-token': ['warning', 'the crawler token asked about is not a product token ([A-Za-z_-]+), so only the * groups apply (for "": first the groups whose name reads as empty)'],
} as const satisfies Record<keyof typeof DIAG_INDEX, readonly [Severity, string]>

/** Counts of diagnostics by severity. */
export interface DiagnosticTotals {
  error: number
  warning: number
  info: number
}

/** Where each severity is counted in `DiagnosticWriter.totals`. */
export const SEVERITY_INDEX: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 }

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

/**
 * Each code's index, as the form stores it: its place in DIAGNOSTICS (the
 * same codes, in the same order: test/rules/diagnostics.test.ts checks it;
 * renumbering one changes the serialised format). What the builder passes to
 * DiagnosticWriter.add, written in place by the bundler
 * (`DIAG_INDEX['invalid-line']` is 0): a line costs no search by string.
 */
export enum DIAG_INDEX {
  'invalid-line',
  'unknown-directive',
  'unused-directive',
  'typo',
  'missing-colon',
  'line-too-long',
  'rule-outside-group',
  'directive-outside-group',
  'pattern-start',
  'dollar-not-at-end',
  'empty-user-agent',
  'user-agent-cut',
  'invalid-utf8',
  'control-character',
  'truncated',
  'html-body',
  'utf16-body',
  'sitemap-not-absolute',
  'bad-crawl-delay',
  'crawl-delay-clamped',
  'bad-request-rate',
  'bad-visit-time',
  'bad-host',
  'too-many-diagnostics',
  'agent-not-product-token',
}

/** Per code index: the index of its severity in `DiagnosticWriter.totals`. */
const SEVERITY_OF = Uint8Array.from(CODES, (c) => SEVERITY_INDEX[DIAGNOSTICS[c][0]])
const TOO_MANY = DIAG_INDEX['too-many-diagnostics']

/**
 * How a code's detail is stored and shown. The form keeps the raw bytes the
 * message quotes; the message is made from them when asked for.
 */
const enum Detail {
  /** No detail. */
  None = 0,
  /** JSON string of the bytes decoded as UTF-8 (invalid sequences replaced). */
  Json = 1,
  /** JSON string of the bytes read as Latin-1 (escaped patterns). */
  JsonLatin1 = 2,
  /** The bytes (a key) ASCII-lowercased. */
  LowerKey = 3,
  /** A user-agent value: `"<value>" is read as "<its [A-Za-z_-] prefix>"`. */
  UserAgentCut = 4,
  /** No bytes stored: `read N bytes`, N from the form's header. */
  BytesRead = 5,
  /** Version 4: no bytes stored, the pattern of the rule on the diagnostic's line, shown as JsonLatin1. */
  RulePattern = 6,
}

/** The detail of each code (codes not listed have none). */
const DETAIL_OF: Partial<Record<DiagnosticCode, number>> = {
  'unknown-directive': Detail.Json,
  'unused-directive': Detail.LowerKey,
  'directive-outside-group': Detail.LowerKey,
  'pattern-start': Detail.JsonLatin1,
  'user-agent-cut': Detail.UserAgentCut,
  truncated: Detail.BytesRead,
  'sitemap-not-absolute': Detail.Json,
  'bad-crawl-delay': Detail.Json,
  'crawl-delay-clamped': Detail.Json,
  'bad-request-rate': Detail.Json,
  'bad-visit-time': Detail.Json,
  'bad-host': Detail.Json,
}

/** Per code index: its Detail kind. */
const DETAIL = Uint8Array.from(CODES, (c) => DETAIL_OF[c] ?? Detail.None)

/**
 * Per code index, its Detail kind in a version 4 form: `pattern-start`
 * quotes the pattern of the rule on its line, which the form holds already.
 */
const DETAIL_V4 = DETAIL.map((d, i) => (CODES[i] === 'pattern-start' ? Detail.RulePattern : d))

/** True when diagnostics of code index `code` carry stored detail bytes (in a version 4 form when `v4`). */
function storesBytes(code: number, v4: boolean): boolean {
  const d = (v4 ? DETAIL_V4 : DETAIL)[code]
  return d !== Detail.None && d !== Detail.BytesRead && d !== Detail.RulePattern
}

/** The message detail of code index `code` from its stored bytes. */
function detailText(code: number, bytes: Uint8Array, form: Uint8Array): string {
  // DETAIL_V4 differs from DETAIL only where version 4 quotes a rule; its detail reads the same in every version.
  switch (DETAIL_V4[code]) {
    case Detail.Json:
      return JSON.stringify(utf8Text(bytes))
    case Detail.JsonLatin1:
    case Detail.RulePattern:
      return JSON.stringify(latin1(bytes))
    case Detail.LowerKey:
      return asciiLower(latin1(bytes))
    case Detail.UserAgentCut:
      return `"${utf8Text(bytes)}" is read as "${latin1(bytes.subarray(0, productTokenLength(bytes)))}"`
    case Detail.BytesRead:
      return `read ${formLayout(form).bytesRead} bytes`
    default:
      return ''
  }
}

/**
 * The rules of a form by line, for diagnostics in line order: `patternOn`
 * asks for lines that never go down, so one walk of the events serves them all.
 */
class RuleLines {
  private readonly cursor: EventCursor
  private more: boolean

  constructor(form: Uint8Array, at = 0) {
    this.cursor = new EventCursor(new CompactRules(at === 0 ? form : form.subarray(at)))
    this.more = this.cursor.next()
  }

  /** The pattern of the rule on `line` (a view of the form), or undefined when no rule is there. */
  patternOn(line: number): Uint8Array | undefined {
    const c = this.cursor
    while (this.more && c.line < line) this.more = c.next()
    if (!this.more || c.line !== line || !(c.type === EventType.Allow || c.type === EventType.Disallow)) return undefined
    return c.pattern()
  }
}

/** Longest detail kept: a value of one line, escaped (each byte at most 3). */
export const MAX_DETAIL_BYTES = 3 * 16_663

/**
 * Appends diagnostics to the form's diagnostics section: at most
 * MAX_DIAGNOSTICS, then one `too-many-diagnostics` and nothing more, except
 * the file-level ones added with `always` (truncated).
 */
export class DiagnosticWriter {
  readonly out: ByteBuffer
  /** Diagnostics written. */
  length = 0
  /** The line of the last one written (a form of version 4 stores each line as the step from the last). */
  private lastLine = 0
  /** Most kept: MAX_DIAGNOSTICS, or fewer once the body is found to be no robots.txt (rules/builder.ts lowers it). */
  cap = MAX_DIAGNOSTICS
  /**
   * Every diagnostic added, by severity (`SEVERITY_INDEX`), the ones dropped
   * past the cap included (the `too-many-diagnostics` note excluded):
   * the real totals `lint` reports. Three counters, whatever the file.
   */
  readonly totals = new Float64Array(3)

  constructor(out: ByteBuffer) {
    this.out = out
  }

  /** True once `cap` are held: further ones are dropped (skip computing them). */
  get full(): boolean {
    return this.length > this.cap
  }

  /**
   * Adds a diagnostic of code index `code` ({@link DIAG_INDEX}); the
   * detail, for codes that have one, is `bytes[start, end)` (the raw bytes
   * its message quotes, at most MAX_DETAIL_BYTES of them kept).
   */
  add(code: number, line: number, bytes?: Uint8Array, start = 0, end = 0, always = false): void {
    let index = code
    this.totals[SEVERITY_OF[code]]++
    if (this.length >= this.cap && !always) {
      if (this.length > this.cap) return
      index = TOO_MANY
    }
    const out = this.out
    const detail = storesBytes(index, true)
    out.varint(index * 2 + (detail ? 1 : 0))
    out.varint(line - this.lastLine)
    this.lastLine = line
    if (detail) {
      if (bytes === undefined) throw new Error(`diagnostic ${CODES[code]} needs its detail bytes`)
      out.run(bytes, start, end - start > MAX_DETAIL_BYTES ? start + MAX_DETAIL_BYTES : end)
    }
    this.length++
  }

  reset(keep: number): void {
    this.out.reset(keep)
    this.length = 0
    this.lastLine = 0
    this.cap = MAX_DIAGNOSTICS
    // Stores, not fill(): a call into the runtime on every parse.
    const t = this.totals
    t[0] = t[1] = t[2] = 0
  }
}

/** Longest token quoted by an `agent-not-product-token` warning (its message stays one short line). */
const MAX_QUOTED_TOKEN = 100

/**
 * The `agent-not-product-token` warning for `token` (line 0: it is about a
 * call, not a line of the file), naming the product token it starts with
 * when there is one (`"MyBot/1.0"`: use `"MyBot"`).
 */
export function agentDiagnostic(token: string): Diagnostic {
  const [severity, text] = DIAGNOSTICS['agent-not-product-token']
  const shown = token.length > MAX_QUOTED_TOKEN ? `${token.slice(0, MAX_QUOTED_TOKEN)}…` : token
  const prefix = /^[A-Za-z_-]{1,100}/.exec(token)?.[0]
  const hint = prefix !== undefined ? ` (its product token: ${JSON.stringify(prefix)})` : ''
  return { line: 0, code: 'agent-not-product-token', severity, message: `${text}: ${JSON.stringify(shown)}${hint}` }
}

/** The diagnostics of a form, as objects, in the order found. */
export function readDiagnostics(form: Uint8Array): Diagnostic[] {
  const out: Diagnostic[] = []
  const l = formLayout(form)
  const v4 = l.version === FORMAT_VERSION
  const r = new VarintReader(form, l.diagnosticsStart, l.length, 'diagnostics')
  const rules = v4 ? new RuleLines(form) : null
  let line = 0
  while (r.more) {
    const head = r.read()
    const index = Math.floor(head / 2)
    line = v4 ? line + r.read() : r.read()
    const code = CODES[index]
    const [severity, text] = DIAGNOSTICS[code]
    let detail = ''
    if (head % 2 === 1) {
      const start = r.readRun()
      detail = detailText(index, form.subarray(start, r.at), form)
    } else if (DETAIL[index] === Detail.BytesRead) detail = detailText(index, form, form)
    else if (v4 && DETAIL_V4[index] === Detail.RulePattern) detail = detailText(index, rules!.patternOn(line) ?? new Uint8Array(0), form)
    out.push({ line, code, severity, message: detail ? `${text}: ${detail}` : text })
  }
  return out
}

/**
 * Checks `form[start, end)` as a diagnostics section (for fromBytes): known
 * codes, detail bytes exactly where the code has them (at most
 * MAX_DETAIL_BYTES), lines in order and at most `maxLine`, at most
 * MAX_DIAGNOSTICS + 2 entries. Returns whether a `truncated` diagnostic is
 * there; anything wrong is a RobotsFormatError (ERR_FORMAT) from `fail`
 * (`what` names the caller in a varint's error).
 */
export function checkDiagnostics(form: Uint8Array, at: number, start: number, end: number, maxLine: number, what: string, fail: (why: string) => never): boolean {
  const r = new VarintReader(form, start, end, what, 'diagnostics')
  const v4 = formLayout(form, at).version === FORMAT_VERSION
  const rules = v4 ? new RuleLines(form, at) : null
  let n = 0
  let last = 0
  let lastRule = -1
  let truncated = false
  const truncatedIndex = DIAG_INDEX.truncated
  while (r.more) {
    const head = r.read()
    const index = Math.floor(head / 2)
    if (index >= CODES.length) fail(`unknown diagnostic code ${index}`)
    if (head % 2 !== (storesBytes(index, v4) ? 1 : 0)) fail(`diagnostic ${CODES[index]} with${head % 2 ? '' : 'out'} detail`)
    const line = v4 ? last + r.read() : r.read()
    if (line < last || line > maxLine) fail('diagnostic lines out of order or past the last line')
    last = line
    if (v4 && DETAIL_V4[index] === Detail.RulePattern) {
      // As a parse gives it: once per line, for a rule on that line whose pattern starts with neither '/' nor '*'.
      const p = line > lastRule ? rules!.patternOn(line) : undefined
      if (p === undefined || p.length === 0 || p[0] === 47 || p[0] === 42) fail(`diagnostic ${CODES[index]} on line ${line}, which has no such rule`)
      lastRule = line
    }
    if (head % 2 === 1) {
      const s = r.readRun()
      if (r.at - s > MAX_DETAIL_BYTES) fail('diagnostic detail too long')
    }
    if (index === truncatedIndex) truncated = true
    if (++n > MAX_DIAGNOSTICS + 2) fail('too many diagnostics')
  }
  return truncated
}
