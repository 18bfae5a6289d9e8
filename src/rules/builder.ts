/**
 * The parse handler that writes the compact form (rules/compact-rules.ts):
 * what `parseRobots` keeps of a body. Each section is written into a
 * growable scratch buffer while the lines come in; `finish` lays them out
 * back to back in one exact-size `Uint8Array` (or `writeTo` into a store's
 * arena). No JS string is made per line: user-agent names, keys, sitemaps
 * and diagnostic details stay bytes.
 */
import { hostHash } from '../url/keyed-hash.js'
import { ByteBuffer, grownInt32, sameBytes } from './byte-buffer.js'
import { EventType, EventWriter, formSize, writeForm, type FormParts } from './compact-rules.js'
import { RuleBlocks } from './pattern-table.js'
import { DIAG_INDEX, DiagnosticWriter, MAX_HTML_DIAGNOSTICS, SEVERITY_INDEX, type DiagnosticTotals } from './diagnostics.js'
import { EXTENSION_KEYS, ExtensionKind, readExtension } from './extensions.js'
import { isSitemapUrl } from './sitemap.js'
import { SitemapWriter } from './sitemap-list.js'
import { latin1 } from '../parse/escape.js'
import { KeyKind, LineFlag, type ParseHandler } from '../parse/handler.js'
import { classifyKey, KEY_LENGTH, spelledKey, UNUSED_KEYS } from '../parse/keys.js'
import { MAX_LINE_BYTES, type LineFastPath } from '../parse/reader.js'
import { isValidUtf8 } from '../parse/utf8.js'
import { isSpace } from '../parse/ascii.js'
import { productTokenLength } from '../parse/product-token.js'
import { isPatternWord, isProseWord, printableEnd, WordView } from '../parse/words.js'
import { keptBytes, SCRATCH_KEEP_BYTES, SCRATCH_KEEP_SMALL_BYTES } from '../memory.js'

/** What an unknown line's key is, by {@link knownKey}, besides an ExtensionKind (0 or more): a key of no extension. */
const enum KeyMeaning {
  /** Not a key with a meaning here. */
  Unknown = -1,
  /** A key of UNUSED_KEYS that is not an extension. */
  Unused = -2,
}

/** Known keys by length: [lowercased key, ExtensionKind or KeyMeaning]. Extensions first (crawl-delay is both). */
const KNOWN_BY_LENGTH: [string, number][][] = []
for (const [key, meaning] of [
  ...EXTENSION_KEYS.map((k, kind) => [k, kind] as const),
  ...[...UNUSED_KEYS].map((k) => [k, KeyMeaning.Unused] as const),
] as [string, number][]) {
  const list = (KNOWN_BY_LENGTH[key.length] ??= [])
  if (!list.some(([k]) => k === key)) list.push([key, meaning])
}

/** The meaning of the key `b[start, end)` (ASCII-case-insensitive), without making a string. */
function knownKey(b: Uint8Array, start: number, end: number): number {
  const list = KNOWN_BY_LENGTH[end - start]
  if (list === undefined) return KeyMeaning.Unknown
  next: for (const [key, meaning] of list) {
    for (let i = 0; i < key.length; i++) {
      let c = b[start + i]
      if (c >= 65 && c <= 90) c += 32
      if (c !== key.charCodeAt(i)) continue next
    }
    return meaning
  }
  return KeyMeaning.Unknown
}

/** The error of a builder used out of order (a bug of the library, not of the input). */
const ORDER = 'RobotsBuilder: lines, then complete() once, then writeTo() once'

/** Bytes of an unknown key quoted in its diagnostic, at most. */
const MAX_QUOTED_KEY = 64

/** The growable buffers of one build; reused from parse to parse (see {@link acquire}). */
class Scratch {
  readonly patterns = new ByteBuffer(256)
  readonly events = new EventWriter(new ByteBuffer(64))
  readonly names = new ByteBuffer(64)
  readonly extensions = new ByteBuffer(16)
  readonly sitemaps = new SitemapWriter(new ByteBuffer(16))
  readonly diagnostics = new DiagnosticWriter(new ByteBuffer(64))
  /** Per name index `i`: its bytes' start in `names` (after the length) at `2i`, its length at `2i + 1`. */
  nameSpans: Int32Array = new Int32Array(32)
  nameCount = 0
  /** Open-addressing table of name indices + 1 by hash (0 = empty); its size is a power of two. */
  nameTable: Int32Array = new Int32Array(32)
  extensionCount = 0
  /** Views of `patterns.bytes` for writing four bytes at once (ask after `reserve`: it may move the bytes). */
  readonly patternWords = new WordView()

  /** The patterns written so far, for writing a repeated one once. */
  readonly written = new RuleBlocks()

  reset(): void {
    this.patterns.reset(SCRATCH_KEEP_BYTES)
    this.events.reset(SCRATCH_KEEP_BYTES)
    this.names.reset(SCRATCH_KEEP_SMALL_BYTES)
    this.extensions.reset(SCRATCH_KEEP_SMALL_BYTES)
    this.sitemaps.reset(SCRATCH_KEEP_SMALL_BYTES)
    this.diagnostics.reset(SCRATCH_KEEP_SMALL_BYTES)
    if (this.nameSpans.length > 2048) this.nameSpans = new Int32Array(32)
    if (this.nameTable.length > 2048) this.nameTable = new Int32Array(32)
    else if (this.nameCount > 0) this.nameTable.fill(0)
    this.nameCount = 0
    this.extensionCount = 0
    this.written.reset()
  }
}

/** Free scratches: a synchronous parse takes one and gives it back; concurrent stream parses take more. */
const pool: Scratch[] = []

function acquire(): Scratch {
  return pool.pop() ?? new Scratch()
}

function release(s: Scratch): void {
  s.reset()
  if (pool.length < 4) pool.push(s)
}

/** What the reader reports of a body, for the form's header. */
export interface ReadInfo {
  truncated: boolean
  bytesRead: number
  lineCount: number
}

/** Builds the compact form of one body; feed it to the parser, then `finish` it once. */
export class RobotsBuilder implements ParseHandler, LineFastPath {
  private s: Scratch | null = acquire()
  private inGroup = false
  private sawContent = false
  /** The line of the last rule added, and where its pattern starts and ends in the scratch. */
  private ruleLine = 0
  private ruleStart = 0
  private ruleEnd = 0
  private parts: FormParts | null = null
  /**
   * Set by `complete` when more diagnostics were found than the form keeps
   * (MAX_DIAGNOSTICS): the real totals by severity. Undefined otherwise (the
   * form's list is then complete).
   */
  cappedTotals: DiagnosticTotals | undefined

  /** The diagnostics written so far. */
  get diagnostics(): DiagnosticWriter {
    return this.scratch().diagnostics
  }

  userAgent(line: number, bytes: Uint8Array, start: number, end: number): void {
    const s = this.scratch()
    this.inGroup = true
    s.written.userAgent()
    if (end > start && bytes[start] === 42 && (end - start === 1 || isSpace(bytes[start + 1]))) {
      s.events.add(EventType.UaGlobal, line, 0)
      return
    }
    const n = productTokenLength(bytes, start, end)
    s.events.add(EventType.UaName, line, this.nameIndex(bytes, start, start + n))
    if (end === start) s.diagnostics.add(DIAG_INDEX['empty-user-agent'], line)
    else if (start + n < end && bytes[start + n] !== 47 && !isSpace(bytes[start + n])) {
      s.diagnostics.add(DIAG_INDEX['user-agent-cut'], line, bytes, start, end)
    }
  }

  allow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.rule(EventType.Allow, line, bytes, start, end)
  }

  disallow(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.rule(EventType.Disallow, line, bytes, start, end)
  }

  sitemap(line: number, bytes: Uint8Array, start: number, end: number): void {
    const s = this.scratch()
    if (isSitemapUrl(bytes, start, end)) s.sitemaps.add(bytes, start, end)
    else s.diagnostics.add(DIAG_INDEX['sitemap-not-absolute'], line, bytes, start, end)
  }

  unknown(line: number, keyBytes: Uint8Array, keyStart: number, keyEnd: number, bytes: Uint8Array, start: number, end: number): void {
    const s = this.scratch()
    const meaning = knownKey(keyBytes, keyStart, keyEnd)
    if (meaning < 0) {
      if (meaning === KeyMeaning.Unknown) s.diagnostics.add(DIAG_INDEX['unknown-directive'], line, keyBytes, keyStart, keyEnd - keyStart > MAX_QUOTED_KEY ? keyStart + MAX_QUOTED_KEY : keyEnd)
      else s.diagnostics.add(DIAG_INDEX['unused-directive'], line, keyBytes, keyStart, keyEnd)
      return
    }
    if (!this.inGroup) {
      s.diagnostics.add(DIAG_INDEX['directive-outside-group'], line, keyBytes, keyStart, keyEnd)
      return
    }
    // The value arrives escaped (non-ASCII bytes as %XX): its text is its bytes.
    const read = readExtension(meaning as ExtensionKind, latin1(bytes.subarray(start, end)))
    if (read.problem !== undefined) s.diagnostics.add(read.problem, line, bytes, start, end)
    if (read.value !== undefined) {
      s.events.add(EventType.Extension, line, s.extensionCount++)
      s.extensions.byte(meaning)
      s.extensions.run(bytes, start, end)
    }
  }

  lineEnd(line: number, flags: number, bytes: Uint8Array, start: number, end: number): void {
    if (flags & LineFlag.hasDollar) {
      if (this.ruleLine === line) this.checkDollar(line)
      flags &= ~LineFlag.hasDollar
    }
    if ((flags & ~(LineFlag.hasDirective | LineFlag.hasComment | LineFlag.isComment | LineFlag.isEmpty)) === 0) {
      // The usual line: a directive, a comment or nothing, plain ASCII.
      if (flags === 0) this.scratch().diagnostics.add(DIAG_INDEX['invalid-line'], line)
      if (!this.sawContent && (flags & (LineFlag.isEmpty | LineFlag.isComment)) === 0) this.firstContent(line, bytes, start, end)
      return
    }
    const d = this.scratch().diagnostics
    if (line === 1 && end - start >= 2 && isUtf16Bom(bytes[start], bytes[start + 1])) d.add(DIAG_INDEX['utf16-body'], line)
    if (flags & LineFlag.isLineTooLong) d.add(DIAG_INDEX['line-too-long'], line)
    if (flags & LineFlag.isMissingColonSeparator) d.add(DIAG_INDEX['missing-colon'], line)
    if (flags & LineFlag.isAcceptableTypo) d.add(DIAG_INDEX['typo'], line)
    if (!(flags & (LineFlag.hasDirective | LineFlag.isEmpty | LineFlag.isComment))) d.add(DIAG_INDEX['invalid-line'], line)
    if (flags & LineFlag.hasControl) d.add(DIAG_INDEX['control-character'], line)
    // Checked past MAX_DIAGNOSTICS too: the writer counts what it drops (lint's real totals).
    if (flags & LineFlag.hasNonAscii && !isValidUtf8(bytes, start, end, (flags & LineFlag.isLineTooLong) !== 0, this.words.of(bytes))) {
      d.add(DIAG_INDEX['invalid-utf8'], line)
    }
    if (!this.sawContent && !(flags & (LineFlag.isEmpty | LineFlag.isComment))) this.firstContent(line, bytes, start, end)
  }

  /** Views of the bytes the fast path reads, for reading four bytes at once. */
  private readonly words = new WordView()

  /** Lines the last {@link fastLines} call took (parse/reader.ts LineFastPath). */
  taken = 0
  /** Whether the last byte the last {@link fastLines} call took was a CR. */
  endedWithCR = false

  /**
   * The fast path (parse/reader.ts LineFastPath): takes lines from `b[i]`
   * while {@link fastLine} (or the fastRule or fastProse it picks for the
   * line, without a call of fastLine's own) takes them, and blank lines (an LF right after a
   * CR that ended a line is the rest of a CRLF, not a line). Runs of rule
   * lines, comments and blank lines go through here without a call per line
   * from the reader.
   */
  fastLines(b: Uint8Array, i: number, limit: number, line: number, afterCR: boolean): number {
    let taken = 0
    let cr = afterCR
    while (i < limit) {
      const x = b[i]
      if (x === 10) {
        // A blank line (nothing to record), or the LF of a CRLF.
        if (!cr) taken++
        cr = false
        i++
        continue
      }
      if (x === 13) {
        taken++
        cr = true
        i++
        continue
      }
      // One line from b[i] (not a line end), dispatched here rather than in a call of its own (see fastLine).
      // A line longer than MAX_LINE_BYTES, or not ended within the bytes in hand, goes the general way.
      // (Integer compares, not Math.min: the optimised code keeps `stop` an int32.)
      const stop = limit - i > MAX_LINE_BYTES ? i + MAX_LINE_BYTES + 1 : limit
      let end = -1
      if (x === 32 || x === 9 || x === 35) end = this.fastProse(b, i, stop, line + taken)
      else {
        const kind = spelledKey(b, i, limit)
        if (kind === KeyKind.Allow || kind === KeyKind.Disallow) {
          if (this.inGroup) end = this.fastRule(b, i, stop, line + taken, kind)
        } else if (kind === KeyKind.UserAgent ? b[i + 4] !== 45 : kind !== KeyKind.Sitemap) {
          // spelledKey reads a CR as '-' (see there): the user-agent key's '-' is checked as itself.
          end = this.fastProse(b, i, stop, line + taken)
        } else end = this.fastLine(b, i, stop, line + taken, kind)
      }
      if (end < 0) break
      taken++
      cr = b[end] === 13
      i = end + 1
    }
    this.taken = taken
    this.endedWithCR = cr
    return i
  }

  /**
   * One line of the fast path, starting at `b[i]` (not a line end), read
   * up to `stop` (the bytes in hand, at most MAX_LINE_BYTES + 1): an
   * `Allow:` or `Disallow:` line inside a group (fastRule), a `User-agent:`
   * or `Sitemap:` line (here: `kind`), or a line without a key (fastProse);
   * fastLines picks which by the line's start. One
   * pass finds its end, reads the value (a rule's pattern is copied into
   * the scratch as it goes) and records what the reader's summary would
   * (`#`, `$`); then the value goes to the same handler method as on the
   * general path, and so does the line end. It takes only lines that start
   * with the key spelled out and its colon (or with `#`, a space or a tab),
   * hold printable ASCII, tabs and `#` comments (a rule's pattern is
   * escaped as it is copied: the hex digits of a `%xx` uppercased; no byte
   * >= 0x80 in a sitemap, which the UTF-8 check would look at), and end
   * before `stop`, within
   * MAX_LINE_BYTES; it declines every other line (-1), which then goes the
   * general way. Returns the offset of the line's LF or CR.
   *
   * COPY: this repeats, for the lines it takes, the reader's line end and
   * cut (parse/reader.ts), parseLine's whitespace and key rules
   * (parse/parser.ts), and `rule()` and `lineEnd()` below. test/rules/fast-line.test.ts runs
   * one data suite through both paths (whole bodies against byte-by-byte
   * streams, where no line is whole in a chunk).
   */
  private fastLine(b: Uint8Array, i: number, stop: number, line: number, kind: number): number {
    // Whitespace after the colon (the other whitespace bytes are controls: the general path).
    let j = i + KEY_LENGTH[kind] + 1
    while (j < stop && (b[j] === 32 || b[j] === 9)) j++
    const valueStart = j
    // The value's end without trailing whitespace.
    let keep = j
    const dv = this.words.of(b)
    for (let words = j; j < stop; j++) {
      // Four bytes at a time while none is special (see isPatternWord; a sitemap's URL), as in fastRule.
      if (j >= words) {
        const j0 = j
        while (j + 4 <= stop && isPatternWord(dv.getInt32(j, true))) j += 4
        if (j !== j0) keep = j
        words = j + 4
        if (j >= stop) break
      }
      const x = b[j]
      if (x > 32 && x < 127) {
        if (x === 35) break
        keep = j + 1
        continue
      }
      if (x === 32 || x === 9) continue
      if (x === 10 || x === 13) break
      return -1 // a control or NUL, a non-ASCII byte
    }
    if (j < stop && b[j] === 35) j = this.commentEnd(b, j + 1, stop)
    if (j < 0 || j >= stop) return -1
    if (kind === KeyKind.UserAgent) this.userAgent(line, b, valueStart, keep)
    else this.sitemap(line, b, valueStart, keep)
    // lineEnd() for a directive line of plain ASCII, without the call.
    if (!this.sawContent) this.firstContent(line, b, i, j)
    return j
  }

  /**
   * fastLine for a line that holds no key: spaces and tabs, a comment, or
   * words without a `:` (an HTML page's lines). parseLine makes no directive
   * of it unless it is exactly two words (the key and value of a missing
   * colon: fastMissingColon) or holds a `:` before its comment
   * (fastUnknown); else the line end is recorded as there (the line is
   * empty, a comment, or not a directive: `invalid-line`). Its words may
   * hold bytes >= 0x80 (text): lineEnd then checks them as UTF-8, as it
   * does on the general path; before a `:` they are declined.
   */
  private fastProse(b: Uint8Array, i: number, stop: number, line: number): number {
    let j = i
    let x = -1
    while (j < stop && ((x = b[j]) === 32 || x === 9)) j++
    if (j < stop && x === 35) {
      // Whitespace and a comment: nothing to record.
      j = this.commentEnd(b, j + 1, stop)
      return j >= 0 && j < stop ? j : -1
    }
    if (j < stop && (x === 10 || x === 13)) return j
    // Words: count the gaps between them (a gap before the line end or a comment is no gap), up to two;
    // past two only a ':', a comment or the line end matters. A byte >= 0x80 is part of a word (text
    // in UTF-8, or not: lineEnd checks, as on the general path).
    const start = j
    let gaps = 0
    let flags = 0
    for (;;) {
      if (gaps > 1) {
        // Past two gaps only a ':', a '#', the line end and the bytes to flag matter: four bytes at a time while none is one.
        const dv = this.words.of(b)
        // As in fastRule, the word that stopped a run of words goes a byte at a time.
        for (let words = j; ; ) {
          if (j >= words) {
            while (j + 4 <= stop && isProseWord(dv.getInt32(j, true))) j += 4
            words = j + 4
          }
          if (j >= stop) return -1
          x = b[j]
          if (((x - 32 >>> 0) < 95 && x !== 35 && x !== 58) || x === 9) j++
          else if (x > 127) {
            flags = LineFlag.hasNonAscii
            j++
          } else break
        }
        break
      }
      while (j < stop && (((x = b[j]) - 33 >>> 0 < 94 && x !== 35 && x !== 58) || (x > 127 && (flags = LineFlag.hasNonAscii) > 0))) j++
      if (j >= stop) return -1
      if (x !== 32 && x !== 9) break
      while (++j < stop && ((x = b[j]) === 32 || x === 9));
      if (j >= stop) return -1
      if ((x - 33 >>> 0 < 94 && x !== 35 && x !== 58) || x > 127) gaps++
    }
    // A key (before the ':') with bytes >= 0x80: the general path.
    if (x === 58) return flags === 0 ? this.fastUnknown(b, i, start, j, stop, line) : -1
    if (x === 35) {
      flags |= LineFlag.hasComment
      j = this.commentEnd(b, j + 1, stop)
      if (j < 0 || j >= stop) return -1
    } else if (x !== 10 && x !== 13) return -1 // a control or NUL
    if (gaps === 1) return this.fastMissingColon(b, i, start, j, flags, line)
    this.lineEnd(line, flags, b, i, j)
    return j
  }

  /**
   * fastProse for a line of exactly two words from `b[start]` (parseLine
   * reads them as a key and a value whose colon is missing): a key that is
   * none of the reference's nor an extension goes to `unknown`, whose value
   * is then never read, and to lineEnd as a directive without its colon;
   * any other key is declined.
   */
  private fastMissingColon(b: Uint8Array, i: number, start: number, j: number, flags: number, line: number): number {
    let keyEnd = start
    while (b[keyEnd] !== 32 && b[keyEnd] !== 9) keyEnd++
    if ((classifyKey(b, start, keyEnd) & KeyKind.KindMask) !== KeyKind.Unknown) return -1
    const meaning = knownKey(b, start, keyEnd)
    if (meaning >= 0) return -1
    this.unknown(line, b, start, keyEnd, b, keyEnd, keyEnd)
    this.lineEnd(line, flags | LineFlag.hasDirective | LineFlag.isMissingColonSeparator, b, i, j)
    return j
  }

  /**
   * fastProse for a line whose first `:` (before any comment) is at
   * `b[colon]`, its content starting at `b[start]`: a key that is none of
   * the reference's (classifyKey: Unknown) goes to `unknown` as on the
   * general path; a known key (a typo, a prefix) is declined. The value
   * of a key that is no extension is never read (fastUnread); in an
   * extension's, a `%` (escaping would change it) and any byte other than
   * printable ASCII or tab are declined. An empty key makes no directive.
   */
  private fastUnknown(b: Uint8Array, i: number, start: number, colon: number, stop: number, line: number): number {
    let keyEnd = colon
    while (keyEnd > start && (b[keyEnd - 1] === 32 || b[keyEnd - 1] === 9)) keyEnd--
    if (keyEnd > start) {
      if ((classifyKey(b, start, keyEnd) & KeyKind.KindMask) !== KeyKind.Unknown) return -1
      const meaning = knownKey(b, start, keyEnd)
      if (meaning < 0) return this.fastUnread(b, i, start, keyEnd, colon + 1, stop, line)
    }
    let j = colon + 1
    while (j < stop && (b[j] === 32 || b[j] === 9)) j++
    const valueStart = j
    let keep = j
    for (; j < stop; j++) {
      const x = b[j]
      if (x > 32 && x < 127) {
        if (x === 35) break
        if (x === 37) return -1
        keep = j + 1
        continue
      }
      if (x === 32 || x === 9) continue
      if (x === 10 || x === 13) break
      return -1 // a control or NUL, a non-ASCII byte
    }
    let flags = LineFlag.hasDirective
    if (j < stop && b[j] === 35) {
      flags |= LineFlag.hasComment
      j = this.commentEnd(b, j + 1, stop)
    }
    if (j < 0 || j >= stop) return -1
    if (keyEnd === start) flags &= ~LineFlag.hasDirective
    else this.unknown(line, b, start, keyEnd, b, valueStart, keep)
    this.lineEnd(line, flags, b, i, j)
    return j
  }

  /**
   * fastUnknown for a key `b[start, keyEnd)` whose value `unknown` never
   * reads: the rest of the line, from `b[j]`, is only summarised for
   * lineEnd (controls and NULs, non-ASCII bytes: its checks see the whole
   * line, as on the general path), so neither `%` nor a comment matters.
   */
  private fastUnread(b: Uint8Array, i: number, start: number, keyEnd: number, j: number, stop: number, line: number): number {
    let flags = LineFlag.hasDirective
    const dv = this.words.of(b)
    for (;; j++) {
      // Past printable ASCII and tabs: the line end, or a byte to flag.
      j = printableEnd(b, dv, j, stop)
      if (j >= stop) return -1
      const x = b[j]
      if (x === 10 || x === 13) break
      flags |= x > 127 ? LineFlag.hasNonAscii : LineFlag.hasControl
    }
    this.unknown(line, b, start, keyEnd, b, j, j)
    this.lineEnd(line, flags, b, i, j)
    return j
  }

  /** The LF or CR ending a comment whose text starts at `b[j]`, or -1 when a byte other than printable ASCII or tab comes first (or `stop`). */
  private commentEnd(b: Uint8Array, j: number, stop: number): number {
    const e = printableEnd(b, this.words.of(b), j, stop)
    if (e >= stop) return stop
    const y = b[e]
    return y === 10 || y === 13 ? e : -1
  }

  /** fastLine for an `Allow:` or `Disallow:` line in a group: the pattern is copied into the scratch as the line is read. */
  private fastRule(b: Uint8Array, i: number, stop: number, line: number, kind: number): number {
    let j = i + KEY_LENGTH[kind] + 1
    // Whitespace after the colon (the other whitespace bytes are controls: the general path).
    while (j < stop && (b[j] === 32 || b[j] === 9)) j++
    const s = this.scratch()
    const p = s.patterns
    // At most stop - j bytes (fewer than MAX_LINE_BYTES: see fastLines' `stop`).
    p.reserve(stop - j)
    const out = p.bytes
    const valueStart = p.length
    let at = valueStart
    // The value's end without trailing whitespace.
    let keep = valueStart
    let flags = LineFlag.hasDirective
    const ov = s.patternWords.of(out)
    const dv = this.words.of(b)
    // Where words are tried again: past the word that stopped the last run (its bytes go one at a time).
    let words = j
    for (; j < stop; j++) {
      // Four bytes at a time while none is special (see isPatternWord).
      if (j >= words && j + 4 <= stop) {
        const at0 = at
        for (let w = 0; j + 4 <= stop && isPatternWord((w = dv.getInt32(j, true))); j += 4, at += 4) ov.setInt32(at, w, true)
        if (at !== at0) keep = at
        if (j >= stop) break
        words = j + 4
      }
      const x = b[j]
      if (x > 37 && x < 127) {
        out[at++] = x
        keep = at
        continue
      }
      if (x === 32 || x === 9) {
        out[at++] = x
        continue
      }
      if (x === 33 || x === 34 || x === 36) {
        // '!', '"', '$'
        out[at++] = x
        keep = at
        if (x === 36) flags |= LineFlag.hasDollar
        continue
      }
      if (x === 10 || x === 13) break
      if (x === 37) {
        // '%': escaping uppercases the two hex digits of an escape, and keeps anything else.
        out[at++] = x
        if (j + 2 < stop && isHexDigit(b[j + 1]) && isHexDigit(b[j + 2])) {
          out[at++] = upperHex(b[++j])
          out[at++] = upperHex(b[++j])
        }
        keep = at
        continue
      }
      if (x !== 35) return -1 // a control or NUL, a non-ASCII byte
      // A comment: the rest of the line is only summarised.
      flags |= LineFlag.hasComment
      for (j++; j < stop; j++) {
        const y = b[j]
        if (y > 31 && y < 127) {
          if (y === 36) flags |= LineFlag.hasDollar
          continue
        }
        if (y === 10 || y === 13) break
        if (y !== 9) return -1
      }
      break
    }
    if (j >= stop) return -1
    // rule(), for the pattern now in the scratch.
    const n = keep - valueStart
    if (n > 0 && out[valueStart] !== 47 && out[valueStart] !== 42) s.diagnostics.add(DIAG_INDEX['pattern-start'], line, out, valueStart, keep)
    this.ruleLine = line
    p.length = keep
    this.addRule(kind === KeyKind.Allow ? EventType.Allow : EventType.Disallow, line, valueStart, n)
    // lineEnd() for this line (a directive, maybe with a comment and a '$'), without the call.
    if (flags & LineFlag.hasDollar) this.checkDollar(line)
    if (!this.sawContent) this.firstContent(line, b, i, j)
    return j
  }
  // END COPY

  /**
   * Ends the build with the reader's figures (a body cut at the limit gets
   * its `truncated` diagnostic here) and returns the form's size; then
   * `writeTo` lays it out. Call once.
   */
  complete(info: ReadInfo): number {
    const s = this.scratch()
    if (this.parts !== null) throw new Error(ORDER)
    if (info.truncated) s.diagnostics.add(DIAG_INDEX['truncated'], info.lineCount + 1, undefined, 0, 0, true)
    if (s.diagnostics.full) {
      const t = s.diagnostics.totals
      this.cappedTotals = { error: t[SEVERITY_INDEX.error], warning: t[SEVERITY_INDEX.warning], info: t[SEVERITY_INDEX.info] }
    }
    this.parts = {
      patterns: s.patterns,
      events: s.events.out,
      eventCount: s.events.count,
      names: s.names,
      extensions: s.extensions,
      sitemaps: s.sitemaps.out,
      diagnostics: s.diagnostics.out,
      truncated: info.truncated,
      bytesRead: info.bytesRead,
      lineCount: info.lineCount,
    }
    return formSize(this.parts)
  }

  /** Writes the form (of `complete`'s size) at `target[at…]`, and gives the scratch buffers back. */
  writeTo(target: Uint8Array, at: number): void {
    const s = this.scratch()
    if (this.parts === null) throw new Error(ORDER)
    writeForm(target, at, this.parts)
    this.parts = null
    this.s = null
    release(s)
  }

  /** `complete` and `writeTo` into a new exact-size buffer: the form. */
  finish(info: ReadInfo): Uint8Array {
    const form = keptBytes(this.complete(info))
    this.writeTo(form, 0)
    return form
  }

  private scratch(): Scratch {
    if (this.s === null) throw new Error(ORDER)
    return this.s
  }

  /** The first line with content: an HTML page starts with `<`. */
  private firstContent(line: number, bytes: Uint8Array, start: number, end: number): void {
    this.sawContent = true
    let i = start
    while (i < end && isSpace(bytes[i])) i++
    if (i < end && bytes[i] === 60 /* < */) {
      const d = this.scratch().diagnostics
      d.add(DIAG_INDEX['html-body'], line)
      // The html-body error is kept; past it, MAX_HTML_DIAGNOSTICS or those kept already, then the cut.
      if (!d.full) d.cap = Math.max(MAX_HTML_DIAGNOSTICS, d.length)
    }
  }

  /** The index of the user-agent name `b[start, end)` (its `[A-Za-z_-]` prefix), lowercased; a new name is added. */
  private nameIndex(b: Uint8Array, start: number, end: number): number {
    const s = this.scratch()
    const names = s.names
    const len = end - start
    const mark = names.length
    // Write the candidate (length, lowercased bytes); drop it again when known. The table is keyed
    // (src/url/keyed-hash.ts): a file's names cannot be made to collide.
    names.varint(len)
    const at = names.length
    names.reserve(len)
    const out = names.bytes
    for (let i = start; i < end; i++) {
      let c = b[i]
      if (c >= 65 && c <= 90) c += 32
      out[at + i - start] = c
    }
    const h = hostHash(out, at, at + len)
    names.length = at + len
    const table = s.nameTable
    const mask = table.length - 1
    const spans = s.nameSpans
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = table[slot]
      if (e === 0) break
      if (spans[2 * e - 1] === len && sameBytes(out, spans[2 * e - 2], at, len)) {
        names.length = mark
        return e - 1
      }
    }
    const index = s.nameCount++
    if (2 * index + 2 > spans.length) s.nameSpans = grownInt32(spans)
    s.nameSpans[2 * index] = at
    s.nameSpans[2 * index + 1] = len
    if (s.nameCount * 2 > table.length) s.nameTable = rehash(s, table.length * 2)
    else insert(table, h, index + 1)
    return index
  }

  private rule(type: number, line: number, bytes: Uint8Array, start: number, end: number): void {
    const s = this.scratch()
    if (!this.inGroup) {
      s.diagnostics.add(DIAG_INDEX['rule-outside-group'], line)
      return
    }
    const n = end - start
    if (n > 0 && bytes[start] !== 47 && bytes[start] !== 42) s.diagnostics.add(DIAG_INDEX['pattern-start'], line, bytes, start, end)
    // A '$' before the pattern's last byte is diagnosed in lineEnd, which knows whether the line holds one.
    this.ruleLine = line
    const at = s.patterns.length
    s.patterns.append(bytes, start, end)
    this.addRule(type, line, at, n)
  }

  /**
   * The event of the rule whose `n`-byte pattern was just written at the
   * end of the patterns (at `at`): a pattern that repeats a written one
   * (rules/pattern-table.ts says which) is taken back out, and the event
   * points to the written one.
   */
  private addRule(type: number, line: number, at: number, n: number): void {
    const s = this.scratch()
    const e = s.written.repeatOf(s.patterns.bytes, at, n, at)
    if (e < 0) {
      this.ruleStart = at
      s.events.add(type, line, n)
    } else {
      this.ruleStart = e
      s.patterns.length = at
      s.events.repeat(type, line, n, at - e)
    }
    this.ruleEnd = this.ruleStart + n
  }


  /** `dollar-not-at-end` for the rule just added, when a '$' comes before its last byte. */
  private checkDollar(line: number): void {
    const s = this.scratch()
    const p = s.patterns.bytes
    const last = this.ruleEnd - 1
    for (let i = this.ruleStart; i < last; i++) {
      if (p[i] === 36) {
        s.diagnostics.add(DIAG_INDEX['dollar-not-at-end'], line)
        return
      }
    }
  }
}

/** `0-9`, `A-F` or `a-f`. */
function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102)
}

/** A hex digit, uppercased. */
function upperHex(c: number): number {
  return c >= 97 ? c - 32 : c
}

/** `FF FE` or `FE FF`: a UTF-16 byte order mark. */
function isUtf16Bom(a: number, b: number): boolean {
  return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)
}

/** A name table of `size` slots (a power of two) holding every name of `s`. */
function rehash(s: Scratch, size: number): Int32Array {
  const table = new Int32Array(size)
  const names = s.names.bytes
  for (let i = 0; i < s.nameCount; i++) {
    const start = s.nameSpans[2 * i]
    const end = start + s.nameSpans[2 * i + 1]
    insert(table, hostHash(names, start, end), i + 1)
  }
  return table
}

function insert(table: Int32Array, h: number, value: number): void {
  const mask = table.length - 1
  let slot = h & mask
  while (table[slot] !== 0) slot = (slot + 1) & mask
  table[slot] = value
}
