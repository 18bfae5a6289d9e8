/**
 * The robots.txt parser: one physical line at a time, exactly as
 * google/robotstxt's RobotsTxtParser reads it, reporting to a
 * {@link ParseHandler}.
 *
 * Per line: cut at a NUL byte; `#` starts a comment; whitespace (space, tab,
 * VT, FF) is stripped around key and value; the key ends at the first `:`, or,
 * when the line has none, at whitespace provided the line holds exactly two
 * whitespace-separated tokens. Keys are matched case-insensitively by prefix,
 * with the reference's accepted typos.
 */
import { isSpace } from './ascii.js'
import { escaped, escapeRange } from './escape.js'
import { KeyKind, LineFlag, type ParseHandler } from './handler.js'
import { LINE_HAS_PERCENT, LineReader, type LineSink } from './reader.js'
import { describeValue, RobotsInputError } from '../errors.js'

/** `s[from, to)` starts with `word` (lowercase ASCII), ASCII-case-insensitively. */
function startsWithLower(s: Uint8Array, from: number, to: number, word: string): boolean {
  const n = word.length
  if (to - from < n) return false
  for (let i = 0; i < n; i++) {
    let c = s[from + i]
    if (c >= 65 && c <= 90) c += 32
    if (c !== word.charCodeAt(i)) return false
  }
  return true
}

/**
 * Classifies a key like the reference's ParsedRobotsKey::Parse.
 * Returns a {@link KeyKind}, with `KeyKind.TypoFlag` set when the key was
 * read through an accepted typo.
 */
export function classifyKey(s: Uint8Array, from: number, to: number): number {
  // Dispatch on the first letter: one or two comparisons for the usual keys.
  switch (s[from] | 32) {
    case 117: // u
      if (startsWithLower(s, from, to, 'user-agent')) return KeyKind.UserAgent
      if (startsWithLower(s, from, to, 'useragent') || startsWithLower(s, from, to, 'user agent')) return KeyKind.UserAgent | KeyKind.TypoFlag
      return KeyKind.Unknown
    case 97: // a
      return startsWithLower(s, from, to, 'allow') ? KeyKind.Allow : KeyKind.Unknown
    case 100: // d
      if (startsWithLower(s, from, to, 'disallow')) return KeyKind.Disallow
      for (const typo of DISALLOW_TYPOS) if (startsWithLower(s, from, to, typo)) return KeyKind.Disallow | KeyKind.TypoFlag
      return KeyKind.Unknown
    case 115: // s
      if (startsWithLower(s, from, to, 'sitemap')) return KeyKind.Sitemap
      if (startsWithLower(s, from, to, 'site-map')) return KeyKind.Sitemap | KeyKind.TypoFlag
      return KeyKind.Unknown
    default:
      return KeyKind.Unknown
  }
}

/** Four bytes at `at`, little-endian, with 0x20 set in each (ASCII letters lowercased). */
function lower4(s: Uint8Array, at: number): number {
  return (s[at] | (s[at + 1] << 8) | (s[at + 2] << 16) | (s[at + 3] << 24) | 0x20202020) >>> 0
}

/** `word` (4 chars) as {@link lower4} reads it. */
function word4(word: string): number {
  return (word.charCodeAt(0) | (word.charCodeAt(1) << 8) | (word.charCodeAt(2) << 16) | (word.charCodeAt(3) << 24)) >>> 0
}

const DISA = word4('disa')
const LLOW = word4('llow')
const ALLO = word4('allo')
const USER = word4('user')
const _AGE = word4('-age')
const SITE = word4('site')
const MAP_ = word4('map:')

/** Length of the key of each KeyKind when spelled out (see {@link spelledKey}). */
const KEY_LENGTH = [0, 10, 5, 8, 7, 0]

/**
 * The kind of the line `s[from, to)` when it starts with `disallow`,
 * `allow`, `user-agent` or `sitemap` (any case) right followed by `:`, else
 * KeyKind.Unknown (then the general path finds the key). Comparing with
 * 0x20 set in every byte is exact here: a line holds no CR, the only other
 * byte that maps onto `-`.
 */
export function spelledKey(s: Uint8Array, from: number, to: number): number {
  const n = to - from
  if (n < 6) return KeyKind.Unknown
  const w = lower4(s, from)
  if (w === DISA) return n > 8 && lower4(s, from + 4) === LLOW && s[from + 8] === 58 ? KeyKind.Disallow : KeyKind.Unknown
  if (w === ALLO) return (s[from + 4] | 0x20) === 119 && s[from + 5] === 58 ? KeyKind.Allow : KeyKind.Unknown
  if (w === USER) {
    return n > 10 && lower4(s, from + 4) === _AGE && (s[from + 8] | 0x20) === 110 && (s[from + 9] | 0x20) === 116 && s[from + 10] === 58
      ? KeyKind.UserAgent
      : KeyKind.Unknown
  }
  if (w === SITE) return n > 7 && (lower4(s, from + 4) & 0xffffff) === (MAP_ & 0xffffff) && s[from + 7] === 58 ? KeyKind.Sitemap : KeyKind.Unknown
  return KeyKind.Unknown
}

/** The misspellings of `disallow` the reference accepts. */
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'] as const

/**
 * Parses one physical line and reports it to `handler`: the reader's sink
 * (see LineSink), for building readers of one's own. Low level and hot:
 * its arguments are not checked (`createParser` and `parseInto` check theirs).
 */
export function parseLine(
  raw: Uint8Array,
  lineStart: number,
  lineEnd: number,
  lineNumber: number,
  summary: number,
  contentEnd: number,
  handler: ParseHandler,
): void {
  // The reader found where the content ends (a '#' or a NUL) and which bytes
  // the line holds; see LineSink.
  let end = contentEnd
  const clean = (summary & (LineFlag.hasNonAscii | LINE_HAS_PERCENT)) === 0
  let flags = summary & ~LINE_HAS_PERCENT
  let start = lineStart
  while (start < end && isSpace(raw[start])) start++
  while (end > start && isSpace(raw[end - 1])) end--
  if (start === end) {
    flags |= flags & LineFlag.hasComment ? LineFlag.isComment : LineFlag.isEmpty
    handler.lineEnd?.(lineNumber, flags, raw, lineStart, lineEnd)
    return
  }
  // The usual lines start with a key spelled out and a colon: found at once.
  let kind = spelledKey(raw, start, end)
  let sep = kind === KeyKind.Unknown ? -1 : start + KEY_LENGTH[kind]
  if (sep < 0) {
    for (let i = start; i < end; i++) {
      if (raw[i] === 58) {
        sep = i
        break
      }
    }
  }
  if (sep < 0) {
    // Some people forget the colon: accept whitespace instead, when the line
    // has exactly two whitespace-separated tokens (space and tab only here).
    for (let i = start; i < end; i++) {
      const c = raw[i]
      if (c === 32 || c === 9) {
        sep = i
        break
      }
    }
    if (sep >= 0) {
      let v = sep
      while (v < end && (raw[v] === 32 || raw[v] === 9)) v++
      for (let i = v; i < end; i++) {
        const c = raw[i]
        if (c === 32 || c === 9) {
          handler.lineEnd?.(lineNumber, flags, raw, lineStart, lineEnd)
          return
        }
      }
      flags |= LineFlag.isMissingColonSeparator
    }
  }
  if (sep < 0) {
    handler.lineEnd?.(lineNumber, flags, raw, lineStart, lineEnd)
    return
  }
  let keyEnd = sep
  while (keyEnd > start && isSpace(raw[keyEnd - 1])) keyEnd--
  if (keyEnd === start) {
    handler.lineEnd?.(lineNumber, flags, raw, lineStart, lineEnd)
    return
  }
  let valStart = sep + 1
  while (valStart < end && isSpace(raw[valStart])) valStart++
  flags |= LineFlag.hasDirective
  if (kind === KeyKind.Unknown) kind = classifyKey(raw, start, keyEnd)
  if (kind & KeyKind.TypoFlag) flags |= LineFlag.isAcceptableTypo
  const type = kind & KeyKind.KindMask
  if (type === KeyKind.UserAgent) handler.userAgent(lineNumber, raw, valStart, end)
  else if (type === KeyKind.Sitemap) handler.sitemap(lineNumber, raw, valStart, end)
  else {
    // Escaping changes the bytes only when the value holds '%' or a byte >= 0x80.
    let bytes = raw
    let from = valStart
    let to = end
    if (!clean) {
      const n = escapeRange(raw, valStart, end)
      if (n >= 0) {
        bytes = escaped.bytes
        from = 0
        to = n
      }
    }
    if (type === KeyKind.Allow) handler.allow(lineNumber, bytes, from, to)
    else if (type === KeyKind.Disallow) handler.disallow(lineNumber, bytes, from, to)
    else handler.unknown(lineNumber, raw, start, keyEnd, bytes, from, to)
  }
  handler.lineEnd?.(lineNumber, flags, raw, lineStart, lineEnd)
}

const HANDLER_METHODS = ['userAgent', 'allow', 'disallow', 'sitemap', 'unknown'] as const

/** A handler must have the ParseHandler methods (lineEnd optional); a RobotsInputError otherwise. */
function checkHandler(handler: unknown): ParseHandler {
  const h = handler as Record<string, unknown> | null
  if (typeof h !== 'object' || h === null) throw new RobotsInputError(`a ParseHandler must be an object, got ${describeValue(handler)}`)
  for (const m of HANDLER_METHODS) {
    if (typeof h[m] !== 'function') throw new RobotsInputError(`a ParseHandler needs a ${m}() method`)
  }
  if (h.lineEnd !== undefined && typeof h.lineEnd !== 'function') throw new RobotsInputError('a ParseHandler\'s lineEnd must be a method')
  return handler as ParseHandler
}

/**
 * A reader wired to a handler: push chunks, then `end()`. A handler without
 * the ParseHandler methods is a RobotsInputError; a bad limit a
 * RobotsLimitError.
 */
export function createParser(handler: ParseHandler, limit?: number): LineReader {
  return readerFor(checkHandler(handler), limit)
}

/** createParser for the library's own handlers (known to be complete): no check. */
export function readerFor(handler: ParseHandler, limit?: number): LineReader {
  // parseLine itself is the sink, the handler its context: one call target for every reader.
  return new LineReader(parseLine as unknown as LineSink, limit, handler)
}

const encoder = new TextEncoder()

/** Bytes of a string or byte input; a RobotsInputError (ERR_INPUT) for any other type. */
export function toBytes(input: string | Uint8Array): Uint8Array {
  if (typeof input === 'string') return encoder.encode(input)
  if (input instanceof Uint8Array) return input
  throw new RobotsInputError(`robots.txt input must be a string or a Uint8Array, got ${describeValue(input)}`)
}

/** Parses a whole body into `handler`; returns the reader (bytesRead, truncated, lineCount). Arguments checked as by createParser and parseRobots. */
export function parseInto(input: string | Uint8Array, handler: ParseHandler, limit?: number): LineReader {
  return parseWith(input, checkHandler(handler), limit)
}

/** parseInto for the library's own handlers (known to be complete): no check. */
export function parseWith(input: string | Uint8Array, handler: ParseHandler, limit?: number): LineReader {
  const reader = readerFor(handler, limit)
  reader.pushLast(toBytes(input))
  return reader
}
