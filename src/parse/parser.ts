/**
 * The robots.txt parser: one physical line at a time, exactly as
 * google/robotstxt's RobotsTxtParser reads it, reporting to a
 * {@link ParseHandler}. Per line: cut at a NUL byte; `#` starts a comment;
 * whitespace (space, tab, VT, FF) stripped around key and value; the key ends
 * at the first `:`, or without one at whitespace when the line holds exactly
 * two tokens; keys matched by prefix, with the reference's typos (keys.ts).
 */
import { isSpace } from './ascii.js'
import { escaped, escapeRange } from './escape.js'
import { KeyKind, LineFlag, type ParseHandler } from './handler.js'
import { classifyKey, KEY_LENGTH, spelledKey } from './keys.js'
import { checkLimit, LINE_HAS_PERCENT, LineReader, type LineFastPath, type LineSink } from './reader.js'
import { asBytes, describeValue, RobotsInputError } from '../errors.js'

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

/** createParser for the library's own handlers (known to be complete): no check; `fast` is the handler's own fast path, if any. */
export function readerFor(handler: ParseHandler, limit?: number, fast: LineFastPath | null = null): LineReader {
  // parseLine itself is the sink, the handler its context: one call target for every reader.
  return new LineReader(parseLine as unknown as LineSink, limit, handler, fast)
}

const encoder = new TextEncoder()

/** Bytes a short string body is encoded into (each UTF-16 unit takes at most 3 bytes). */
const STRING_SCRATCH_BYTES = 64 * 1024
let stringScratch: Uint8Array | null = null

/**
 * Bytes of a string or byte input; a RobotsInputError (ERR_INPUT) for any
 * other type. A string of up to 21,845 chars is encoded into one reusable
 * 64 KiB buffer (encodeInto: no allocation, and faster): the result is then
 * valid only until the next call, so parse it at once.
 */
export function toBytes(input: string | Uint8Array): Uint8Array {
  if (typeof input === 'string') {
    if (input.length * 3 > STRING_SCRATCH_BYTES) return encoder.encode(input)
    const scratch = (stringScratch ??= new Uint8Array(STRING_SCRATCH_BYTES))
    return scratch.subarray(0, encoder.encodeInto(input, scratch).written)
  }
  const bytes = asBytes(input)
  if (bytes !== undefined) return bytes
  throw new RobotsInputError(`robots.txt input must be a string or a Uint8Array, got ${describeValue(input)}`)
}

/** Parses a whole body into `handler`; returns the reader (bytesRead, truncated, lineCount). Arguments checked as by createParser and parseRobots. */
export function parseInto(input: string | Uint8Array, handler: ParseHandler, limit?: number): LineReader {
  return parseWith(input, checkHandler(handler), limit)
}

/** parseInto for the library's own handlers (known to be complete): no check; `fast` as for readerFor. */
export function parseWith(input: string | Uint8Array, handler: ParseHandler, limit?: number, fast: LineFastPath | null = null): LineReader {
  const reader = readerFor(handler, limit, fast)
  // A string past the limit: a char is at least one byte, so its first limit + 1 chars hold every byte
  // read and show that more follow; only they are encoded (memory and time bounded by the limit).
  const cut = checkLimit(limit)
  const bytes = toBytes(typeof input === 'string' && input.length > cut ? input.slice(0, cut + 1) : input)
  // The scratch may hold these bytes: a parse that a handler starts meanwhile gets one of its own
  // (and when a handler throws, the next parse makes a new one).
  const scratch = stringScratch
  stringScratch = null
  reader.pushLast(bytes)
  stringScratch = scratch
  return reader
}
