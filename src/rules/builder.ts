/**
 * The parse handler that builds a {@link CompactRules} plus sitemaps and
 * diagnostics: what `parseRobots` keeps of a body.
 */
import { EventType, EventWriter, type CompactRules, type ExtensionEntry } from './compact-rules.js'
import { DiagnosticList } from './diagnostics.js'
import { extensionKind, readExtension } from './extensions.js'
import { latin1 } from '../parse/escape.js'
import { LineFlag, type ParseHandler } from '../parse/handler.js'
import { isValidUtf8 } from '../parse/utf8.js'
import { isSpace } from '../parse/ascii.js'
import { asciiLower, productTokenLength } from '../parse/product-token.js'

/** Keys the reference reports as "Unused": known, but carrying no access rule. */
export const UNUSED_KEYS: ReadonlySet<string> = new Set([
  'clean-param', 'content-signal', 'content-usage', 'crawl-delay', 'domain', 'host', 'noarchive',
  'nofollow', 'noindex', 'request-rate', 'revisit-after', 'visit-time',
])

const NO_BYTES = new Uint8Array(0)
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[]
const NO_EXTENSIONS: ExtensionEntry[] = Object.freeze([]) as unknown as ExtensionEntry[]

/** Length of the longest key with a meaning here (content-signal). */
const MAX_KNOWN_KEY = 14

const utf8 = new TextDecoder('utf-8', { fatal: false })

/** Builds the compact rules of one body; feed it to the parser, then call `finish()`. */
export class RobotsBuilder implements ParseHandler {
  readonly diagnostics = new DiagnosticList()
  readonly sitemaps: string[] = []
  private patterns = new Uint8Array(256)
  private patternsLen = 0
  private readonly events = new EventWriter()
  private readonly names: string[] = []
  private readonly nameIndex = new Map<string, number>()
  private readonly extensions: ExtensionEntry[] = []
  private inGroup = false
  private sawContent = false

  userAgent(line: number, bytes: Uint8Array, start: number, end: number): void {
    const value = bytes.subarray(start, end)
    this.inGroup = true
    if (value.length >= 1 && value[0] === 42 && (value.length === 1 || isSpace(value[1]))) {
      this.events.add(EventType.UaGlobal, line, 0)
      return
    }
    const n = productTokenLength(value)
    const name = asciiLower(latin1(value.subarray(0, n)))
    let index = this.nameIndex.get(name)
    if (index === undefined) {
      index = this.names.length
      this.names.push(name)
      this.nameIndex.set(name, index)
    }
    this.events.add(EventType.UaName, line, index)
    if (value.length === 0) this.diagnostics.add('empty-user-agent', line)
    else if (n < value.length && value[n] !== 47 && !isSpace(value[n])) {
      this.diagnostics.add('user-agent-cut', line, `"${utf8.decode(value)}" is read as "${latin1(value.subarray(0, n))}"`)
    }
  }

  allow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.rule(EventType.Allow, line, bytes, start, end)
  }

  disallow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.rule(EventType.Disallow, line, bytes, start, end)
  }

  sitemap(line: number, bytes: Uint8Array, start: number, end: number): void {
    const text = utf8Text(bytes.subarray(start, end))
    if (/^https?:\/\/[^\s/?#]/i.test(text) && canParseUrl(text)) this.sitemaps.push(text)
    else this.diagnostics.add('sitemap-not-absolute', line, JSON.stringify(text))
  }

  unknown(line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number, bytes: Uint8Array, start: number, end: number): void {
    // Known keys are at most 14 bytes long: a longer key (HTML lines, ...) is unknown.
    const short = keyEnd - keyStart <= MAX_KNOWN_KEY
    const lowerKey = short ? asciiLower(latin1(keyBytes.subarray(keyStart, keyEnd))) : ''
    const kind = short ? extensionKind(lowerKey) : -1
    if (kind < 0) {
      if (this.diagnostics.full) return
      if (short && UNUSED_KEYS.has(lowerKey)) this.diagnostics.add('unused-directive', line, lowerKey)
      else this.diagnostics.add('unknown-directive', line, JSON.stringify(utf8Text(keyBytes.subarray(keyStart, Math.min(keyEnd, keyStart + 64)))))
      return
    }
    const value = bytes.subarray(start, end)
    if (!this.inGroup) {
      this.diagnostics.add('directive-outside-group', line, lowerKey)
      return
    }
    const text = utf8Text(value)
    const read = readExtension(kind, text)
    if (read.problem) this.diagnostics.add(read.problem, line, JSON.stringify(text))
    if (read.value !== undefined) {
      this.events.add(EventType.Extension, line, this.extensions.length)
      this.extensions.push({ kind, value: read.value })
    }
  }

  lineEnd(line: number, flags: number, bytes: Uint8Array, start: number, end: number): void {
    if (flags & LineFlag.isLineTooLong) this.diagnostics.add('line-too-long', line)
    if (flags & LineFlag.isMissingColonSeparator) this.diagnostics.add('missing-colon', line)
    if (flags & LineFlag.isAcceptableTypo) this.diagnostics.add('typo', line)
    if (!(flags & (LineFlag.hasDirective | LineFlag.isEmpty | LineFlag.isComment))) {
      this.diagnostics.add('invalid-line', line)
    }
    if (flags & LineFlag.hasControl) this.diagnostics.add('control-character', line)
    if (flags & LineFlag.hasNonAscii && !isValidUtf8(bytes, start, end, (flags & LineFlag.isLineTooLong) !== 0)) {
      this.diagnostics.add('invalid-utf8', line)
    }
    if (!this.sawContent && !(flags & (LineFlag.isEmpty | LineFlag.isComment))) {
      this.sawContent = true
      let i = start
      while (i < end && isSpace(bytes[i])) i++
      if (i < end && bytes[i] === 60 /* < */) this.diagnostics.add('html-body', line)
    }
  }

  /** The compact rules built so far (copies trimmed to size; empty parts shared). */
  finish(): CompactRules {
    return {
      patterns: this.patternsLen ? this.patterns.slice(0, this.patternsLen) : NO_BYTES,
      events: this.events.length ? this.events.bytes.slice(0, this.events.length) : NO_BYTES,
      eventCount: this.events.count,
      names: this.names.length ? this.names : NO_STRINGS,
      extensions: this.extensions.length ? this.extensions : NO_EXTENSIONS,
    }
  }

  /** Sitemaps found (a shared empty array when none). */
  sitemapList(): string[] {
    return this.sitemaps.length ? this.sitemaps : NO_STRINGS
  }

  private rule(type: number, line: number, bytes: Uint8Array, start: number, end: number): void {
    if (!this.inGroup) {
      this.diagnostics.add('rule-outside-group', line)
      return
    }
    const n = end - start
    if (n > 0 && bytes[start] !== 47 && bytes[start] !== 42) {
      this.diagnostics.add('pattern-start', line, JSON.stringify(latin1(bytes.subarray(start, end))))
    }
    if (this.patternsLen + n > this.patterns.length) {
      const grown = new Uint8Array(Math.max(this.patterns.length * 2, this.patternsLen + n))
      grown.set(this.patterns.subarray(0, this.patternsLen))
      this.patterns = grown
    }
    const out = this.patterns
    let at = this.patternsLen
    let dollar = -1
    for (let i = start; i < end; i++) {
      const b = bytes[i]
      if (b === 36 && dollar < 0) dollar = i
      out[at++] = b
    }
    if (dollar >= 0 && dollar < end - 1) this.diagnostics.add('dollar-not-at-end', line)
    this.events.add(type, line, n)
    this.patternsLen += n
  }
}

/** UTF-8 text of bytes; plain ASCII skips the decoder. */
function utf8Text(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return utf8.decode(bytes)
  return latin1(bytes)
}

function canParseUrl(text: string): boolean {
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}

