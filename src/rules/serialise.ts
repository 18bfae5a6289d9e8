/**
 * Serialisation of a parsed robots.txt. The serialised form is the compact
 * form itself (rules/compact-rules.ts, format version 4): `toBytes` copies
 * it and fills in its checksum; `fromBytes` checks a buffer completely
 * ({@link checkForm}: it is untrusted input) and keeps a copy, without
 * parsing the robots.txt again. Compiled matchers are not stored: they are
 * rebuilt lazily from the rules on first use.
 */
import { grownInt32, readU16, readU32, VarintReader, writeU32 } from './byte-buffer.js'
import {
  EventType, FORM_MAGIC, FORMAT_VERSION, FORMAT_VERSION_2, FormFlag, formLayout, Header, HEADER_TYPES, HeaderV3, knownFlags, MIN_FORM_BYTES,
} from './compact-rules.js'
import { forEachSitemap } from './sitemap-list.js'
import { RuleBlocks } from './pattern-table.js'
import { checkDiagnostics, MAX_DETAIL_BYTES } from './diagnostics.js'
import { ExtensionKind, readExtension } from './extensions.js'
import { isSitemapUrl } from './sitemap.js'
import { latin1 } from '../parse/escape.js'
import { isSpace } from '../parse/ascii.js'
import { asBytes, describeValue, RobotsFormatError, RobotsInputError } from '../errors.js'

export { FORMAT_VERSION, FORMAT_VERSION_2 }

/** Longest pattern or value a parse can keep: one line (16,663 bytes), escaped (3 bytes each at most). */
const MAX_VALUE_BYTES = MAX_DETAIL_BYTES

/**
 * The checksum of forms and bundles: FNV-1a (32-bit) over the little-endian
 * 32-bit words of `bytes[start, end)` (a last partial word zero-padded),
 * with the 4 bytes at `skip` (a checksum field, 4-aligned from `start`;
 * -1: none) read as 0. Word by word: a quarter of the multiplies of the
 * byte-wise FNV, so that a bundle of a million origins seals and checks in
 * a second or two.
 */
export function fnv1a(bytes: Uint8Array, start: number, end: number, skip = -1): number {
  const whole = start + ((end - start) & ~3)
  let h = fnvWords(bytes, start, whole, skip)
  if (whole < end) {
    let w = 0
    for (let k = 0; whole + k < end; k++) w |= bytes[whole + k] << (8 * k)
    h = Math.imul(h ^ w, 0x01000193)
  }
  return h >>> 0
}

/**
 * FNV-1a over the whole words of `bytes[start, end)` (`end - start` a
 * multiple of 4), the word at `skip` read as 0. A function of its own, so
 * that the loop is optimised apart from the tail: a first caller whose
 * length is a multiple of 4 leaves no feedback for the tail, and the tail of
 * each later call would throw the optimised loop away.
 */
function fnvWords(bytes: Uint8Array, start: number, end: number, skip: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i += 4) {
    const w = i === skip ? 0 : bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)
    h = Math.imul(h ^ w, 0x01000193)
  }
  return h
}

/** The checksum of the form at `form[at, at + length)`. */
export function formChecksum(form: Uint8Array, at = 0, length = form.length - at): number {
  return fnv1a(form, at, at + length, at + Header.Checksum)
}

/** Writes the checksum into the form at `form[at, at + length)`. */
export function sealForm(form: Uint8Array, at = 0, length = form.length - at): void {
  writeU32(form, at + Header.Checksum, formChecksum(form, at, length))
}

/** A copy of a form with its checksum filled in: `toBytes()`. */
export function encodeForm(form: Uint8Array): Uint8Array {
  const out = form.slice()
  sealForm(out)
  return out
}

/**
 * Checks a serialised form and returns a copy of it (the caller's buffer is
 * not kept). A buffer of another type is a RobotsInputError; see
 * {@link checkForm} for the rest.
 */
export function decodeForm(given: Uint8Array, what = 'Robots.fromBytes'): Uint8Array {
  const bytes = asBytes(given)
  if (bytes === undefined) throw new RobotsInputError(`${what} takes a Uint8Array, got ${describeValue(given)}`)
  checkForm(bytes, 0, bytes.length, what)
  return new Uint8Array(bytes)
}

/**
 * Checks the form that must fill `bytes[at, at + size)` exactly; nothing is
 * allocated before the lengths are known to be in range. Throws a
 * RobotsFormatError naming `what`.
 *
 * A serialised form is untrusted input. Before anything is allocated or
 * decoded, every length and offset is checked in plain (non-wrapping)
 * arithmetic against the buffer's real size; the sections must lie in
 * order inside the form, without overlapping. Then every section is checked
 * to hold exactly what a parse can produce: events of known types on
 * increasing lines, name and extension indices in range and in order of
 * first use, patterns that add up to the patterns section and hold only
 * bytes an escaped pattern can hold, names of `[a-z_-]`, extension values
 * that read, sitemaps that are absolute http(s) URLs, known diagnostic
 * codes. Anything else is a RobotsFormatError (ERR_FORMAT; ERR_VERSION for
 * another format version, such as version 1 of earlier releases; versions 2
 * and 3 are read). The
 * checksum (FNV-1a) detects accidents, not tampering: anyone can recompute
 * it, so the checks above are what protects a reader.
 */
export function checkForm(bytes: Uint8Array, at: number, size: number, what: string): void {
  const fail = (why: string): never => {
    throw new RobotsFormatError('ERR_FORMAT', `${what}: ${why}`)
  }
  if (!(Number.isSafeInteger(at) && Number.isSafeInteger(size) && at >= 0 && size >= 0 && at + size <= bytes.length)) {
    fail('form out of its buffer')
  }
  if (size < MIN_FORM_BYTES || FORM_MAGIC.some((m, i) => bytes[at + i] !== m)) fail('not a serialised robots.txt (bad magic or too short)')
  const version = readU16(bytes, at + Header.Version)
  if (!(version >= FORMAT_VERSION_2 && version <= FORMAT_VERSION)) {
    throw new RobotsFormatError('ERR_VERSION', `${what}: format version ${version} is not supported (this build reads ${FORMAT_VERSION_2} to ${FORMAT_VERSION})`)
  }
  // Version 2 is version 3 without repeats: every pattern written out.
  const repeats = version !== FORMAT_VERSION_2
  const frontCoded = version === FORMAT_VERSION
  if (version !== FORMAT_VERSION && size < HeaderV3.Size) fail('not a serialised robots.txt (bad magic or too short)')
  const flags = version === FORMAT_VERSION ? bytes[at + Header.Flags] : readU16(bytes, at + Header.Flags)
  if ((flags & ~knownFlags(version)) !== 0) fail(`unknown flags ${flags}`)
  if (frontCoded) checkHeaderV4(bytes, at, size, flags, fail, what)
  else if (readU32(bytes, at + HeaderV3.BytesRead + 4) >= 2 ** 21 || readU32(bytes, at + HeaderV3.LineCount + 4) >= 2 ** 21) {
    fail('bytesRead or lineCount past 2^53')
  }
  const layout = formLayout(bytes, at)
  const length = layout.length
  if (length !== size) fail(`length ${length} in the header does not match the ${size} bytes given (truncated or padded)`)
  if (readU32(bytes, at + Header.Checksum) !== formChecksum(bytes, at, size)) fail('checksum mismatch (corrupt buffer)')
  // Sections: in order, inside the form (so none overlaps another).
  const eventsStart = at + layout.eventsStart
  const namesStart = at + layout.namesStart
  const extensionsStart = at + layout.extensionsStart
  const sitemapsStart = at + layout.sitemapsStart
  const diagnosticsStart = at + layout.diagnosticsStart
  const patternsStart = at + layout.patternsStart
  const end = at + length
  if (
    !(patternsStart <= eventsStart && eventsStart <= namesStart && namesStart <= extensionsStart && extensionsStart <= sitemapsStart &&
      sitemapsStart <= diagnosticsStart && diagnosticsStart <= end)
  ) {
    fail('sections out of order or outside the form')
  }
  const bytesRead = layout.bytesRead
  const lineCount = layout.lineCount
  if (lineCount > bytesRead + 1) fail('more lines than bytes read')
  const eventCount = layout.eventCount
  // Every event takes at least one byte: a count past the section's size is wrong before any decoding.
  if (eventCount > namesStart - eventsStart) fail('event count larger than its section')

  // Names: [a-z_-] runs, distinct (compared pairwise while few, through a Set past that).
  const names = new VarintReader(bytes, namesStart, extensionsStart, what, 'names')
  let nameCount = 0
  let seen: Set<string> | null = null
  while (names.more) {
    const mark = names.at
    const s = names.readRun()
    const len = names.at - s
    if (len > MAX_VALUE_BYTES) fail('name too long')
    for (let i = s; i < names.at; i++) {
      const c = bytes[i]
      if (!((c >= 97 && c <= 122) || c === 45 || c === 95)) fail('a user-agent name holds a byte outside [a-z_-]')
    }
    if (nameCount < PAIRWISE_NAMES) {
      // Walk the names before this one and compare.
      const earlier = new VarintReader(bytes, namesStart, mark, what, 'names')
      while (earlier.more) {
        const t = earlier.readRun()
        if (earlier.at - t === len && sameRange(bytes, t, s, len)) fail('a user-agent name is listed twice')
      }
    } else {
      if (seen === null) {
        seen = new Set()
        const earlier = new VarintReader(bytes, namesStart, mark, what, 'names')
        while (earlier.more) {
          const t = earlier.readRun()
          seen.add(latin1(bytes.subarray(t, earlier.at)))
        }
      }
      const name = latin1(bytes.subarray(s, names.at))
      if (seen.has(name)) fail('a user-agent name is listed twice')
      seen.add(name)
    }
    nameCount++
  }

  // Extensions: a kind and a text that reads as a value of that kind.
  const ext = new VarintReader(bytes, extensionsStart, sitemapsStart, what, 'extensions')
  let extensionCount = 0
  while (ext.more) {
    const kind = bytes[ext.at++]
    if (!(kind < ExtensionKind.Count)) fail(`unknown extension kind ${kind}`)
    const s = ext.readRun()
    if (ext.at - s > MAX_VALUE_BYTES || !isEscapedValue(bytes, s, ext.at)) fail('bad extension value')
    if (readExtension(kind, latin1(bytes.subarray(s, ext.at))).value === undefined) fail('an extension value does not read')
    extensionCount++
  }

  // Sitemaps: absolute http(s) URLs, as one line's value.
  forEachSitemap(bytes, sitemapsStart, diagnosticsStart, frontCoded, what, (b, s, e) => {
    if (e - s > MAX_VALUE_BYTES || !isLineValue(b, s, e) || !isSitemapUrl(b, s, e)) fail('bad sitemap')
  }, (why) => fail(`sitemaps: ${why}`))

  // Patterns: as a whole, only the bytes an escaped value holds; per pattern (with the events) its ends and escapes.
  let percents = 0
  for (let i = patternsStart; i < eventsStart; i++) {
    const c = bytes[i]
    if (ESCAPED_BYTE[c] === 0) fail('a pattern holds bytes a parse cannot give')
    if (c === 37) {
      if (percents === PERCENTS.length) PERCENTS = grownInt32(PERCENTS)
      PERCENTS[percents++] = i
    }
  }
  let nextPercent = 0
  // The blocks of rules so far: a pattern is written, or repeats one of the previous block, exactly as a parse decides.
  WRITTEN.reset()

  // Events: known types on increasing lines, indices in range and in order, patterns adding up.
  const ev = new VarintReader(bytes, eventsStart, namesStart, what, 'events')
  let count = 0
  let line = 0
  let patternEnd = patternsStart
  let nextName = 0
  let nextExtension = 0
  let inGroup = false
  while (ev.more) {
    const header = ev.read()
    const type = header % HEADER_TYPES
    const delta = (header - type) / HEADER_TYPES
    if (delta < 1) fail(`event ${count} is not on a later line`)
    line += delta
    if (line > lineCount) fail(`event ${count} is past the last line`)
    switch (type) {
      case EventType.UaGlobal:
        inGroup = true
        WRITTEN.userAgent()
        break
      case EventType.UaName: {
        const index = ev.read()
        if (index > nextName || index >= nameCount) fail(`event ${count}: name index out of range or out of order`)
        if (index === nextName) nextName++
        inGroup = true
        WRITTEN.userAgent()
        break
      }
      case EventType.Allow:
      case EventType.Disallow: {
        const n = ev.read()
        if (!inGroup) fail(`event ${count}: a rule before any user-agent line`)
        if (n > eventsStart - patternEnd || n > MAX_VALUE_BYTES) fail(`event ${count}: pattern past its section`)
        if (n > 0 && (isSpace(bytes[patternEnd]) || isSpace(bytes[patternEnd + n - 1]))) fail(`event ${count}: a pattern with whitespace at an end`)
        // The '%' escapes inside this pattern (found by the section's scan) must be uppercase.
        for (; nextPercent < percents && PERCENTS[nextPercent] < patternEnd + n; nextPercent++) {
          const p = PERCENTS[nextPercent]
          if (p + 2 < patternEnd + n && isLowerEscape(bytes, p)) fail(`event ${count}: a pattern with a lowercase escape`)
        }
        if (repeats && WRITTEN.repeatOf(bytes, patternEnd, n, patternEnd) >= 0) fail(`event ${count}: a pattern written again where a parse repeats it`)
        patternEnd += n
        break
      }
      case EventType.AllowRepeat:
      case EventType.DisallowRepeat: {
        const n = ev.read()
        const back = ev.read()
        if (!inGroup) fail(`event ${count}: a rule before any user-agent line`)
        if (!repeats) fail(`event ${count} has unknown type ${type}`)
        // The pattern at its place in the previous block, where a parse would repeat it.
        if (!(n <= back && back <= patternEnd - patternsStart && WRITTEN.repeatOf(bytes, patternEnd - back, n, patternEnd) === patternEnd - back)) {
          fail(`event ${count}: a repeat of no earlier pattern, or one a parse writes`)
        }
        break
      }
      case EventType.Extension: {
        const index = ev.read()
        if (!inGroup) fail(`event ${count}: an extension before any user-agent line`)
        if (index !== nextExtension || index >= extensionCount) fail(`event ${count}: extension index out of order`)
        nextExtension++
        break
      }
      default:
        fail(`event ${count} has unknown type ${type}`)
    }
    count++
  }
  if (PERCENTS.length > 4096) PERCENTS = new Int32Array(64)
  if (count !== eventCount) fail(`${count} events where the header says ${eventCount}`)
  if (patternEnd !== eventsStart) fail('the patterns do not add up to their section')
  if (nextName !== nameCount) fail('a user-agent name no event uses')
  if (nextExtension !== extensionCount) fail('an extension no event uses')

  // Diagnostics: known codes, in line order; the truncated flag and diagnostic go together.
  const truncated = checkDiagnostics(bytes, at, diagnosticsStart, end, lineCount + 1, what, fail)
  if (truncated !== ((flags & FormFlag.Truncated) !== 0)) fail('the truncated flag and diagnostic disagree')
}

/**
 * Checks a version 4 header in `bytes[at, at + size)` before {@link formLayout}
 * reads it: every varint well-formed and inside the form, ending where the
 * header says it ends; a section the flags name is not empty (an empty one
 * is left out); and the sections add up to the length (plain arithmetic:
 * varints are below 2^49, so no sum wraps).
 */
function checkHeaderV4(bytes: Uint8Array, at: number, size: number, flags: number, fail: (why: string) => never, what: string): void {
  const headerBytes = bytes[at + Header.HeaderBytes]
  if (headerBytes > size || headerBytes < MIN_FORM_BYTES) fail('header size out of range')
  const r = new VarintReader(bytes, at + Header.Fields, at + headerBytes, what, 'header')
  const length = r.read()
  r.read() // the event count, checked against the events
  let sections = r.read() + r.read()
  for (const flag of [FormFlag.HasNames, FormFlag.HasExtensions, FormFlag.HasSitemaps]) {
    if ((flags & flag) === 0) continue
    const n = r.read()
    if (n === 0) fail('an empty section named in the header')
    sections += n
  }
  r.read()
  r.read()
  if (r.more) fail('header longer than its fields')
  if (length !== size) fail(`length ${length} in the header does not match the ${size} bytes given (truncated or padded)`)
  if (headerBytes + sections > length) fail('sections out of order or outside the form')
}

/** Per byte: 1 for the bytes an escaped value may hold (ASCII but NUL, LF, CR and '#'). */
const ESCAPED_BYTE = new Uint8Array(256)
for (let c = 1; c < 0x80; c++) ESCAPED_BYTE[c] = c === 10 || c === 13 || c === 35 ? 0 : 1

/** A line's value as the parser gives it: no NUL, CR, LF or `#`, and no whitespace at either end. */
function isLineValue(b: Uint8Array, start: number, end: number): boolean {
  if (start < end && (isSpace(b[start]) || isSpace(b[end - 1]))) return false
  for (let i = start; i < end; i++) {
    const c = b[i]
    if (c === 0 || c === 10 || c === 13 || c === 35) return false
  }
  return true
}

/** Offsets of the '%' of the patterns being checked (reused; shrunk back after a form with many). */
let PERCENTS: Int32Array = new Int32Array(64)

/** The written patterns of the form being checked (reused). */
const WRITTEN = new RuleBlocks()


/** Names compared pairwise up to this many; a Set past it. */
const PAIRWISE_NAMES = 16

function sameRange(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false
  return true
}

/** `b[at]` is '%' followed by two hex digits, one of them a lowercase letter (escaping would have uppercased it). */
function isLowerEscape(b: Uint8Array, at: number): boolean {
  return isHex(b[at + 1]) && isHex(b[at + 2]) && (isLowerHex(b[at + 1]) || isLowerHex(b[at + 2]))
}

function isLowerHex(c: number): boolean {
  return c >= 97 && c <= 102
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || isLowerHex(c)
}

/**
 * An escaped value (a pattern, or an unknown line's value) as the parser
 * gives it: a line value of ASCII bytes whose `%xx` escapes are uppercase.
 */
function isEscapedValue(b: Uint8Array, start: number, end: number): boolean {
  if (start < end && (isSpace(b[start]) || isSpace(b[end - 1]))) return false
  for (let i = start; i < end; i++) {
    const c = b[i]
    if (ESCAPED_BYTE[c] === 0) return false
    if (c === 37 && i + 2 < end && isHex(b[i + 1]) && isHex(b[i + 2]) && (isLowerHex(b[i + 1]) || isLowerHex(b[i + 2]))) return false
  }
  return true
}
