/**
 * Serialisation of a parsed robots.txt. The serialised form is the compact
 * form itself (rules/compact-rules.ts, format version 2): `toBytes` copies
 * it and fills in its checksum; `fromBytes` checks a buffer completely and
 * keeps a copy, without parsing the robots.txt again. Compiled matchers are
 * not stored: they are rebuilt lazily from the rules on first use.
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
 * another format version, such as version 1 of earlier releases). The
 * checksum (FNV-1a) detects accidents, not tampering: anyone can recompute
 * it, so the checks above are what protects a reader.
 */
import { readU16, readU32, readU53, VarintReader, writeU32 } from './byte-buffer.js'
import { EventType, FORM_MAGIC, FORMAT_VERSION, FormFlag, Header, HEADER_TYPES } from './compact-rules.js'
import { checkDiagnostics, MAX_DETAIL_BYTES } from './diagnostics.js'
import { EXTENSION_KEYS, readExtension } from './extensions.js'
import { isSitemapUrl } from './sitemap.js'
import { latin1 } from '../parse/escape.js'
import { isSpace } from '../parse/ascii.js'
import { describeValue, RobotsFormatError, RobotsInputError } from '../errors.js'

export { FORMAT_VERSION }

/** Longest pattern or value a parse can keep: one line (16,663 bytes), escaped (3 bytes each at most). */
const MAX_VALUE_BYTES = MAX_DETAIL_BYTES

/** FNV-1a (32-bit) of `bytes[start, end)`, skipping the 4 bytes at `skip` (a checksum field; -1: none). */
export function fnv1a(bytes: Uint8Array, start: number, end: number, skip = -1): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) {
    if (i === skip) {
      i += 3
      continue
    }
    h = Math.imul(h ^ bytes[i], 0x01000193)
  }
  return h >>> 0
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
 * not kept). A buffer of another type is a RobotsInputError; see the module
 * comment for the rest.
 */
export function decodeForm(bytes: Uint8Array, what = 'Robots.fromBytes'): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new RobotsInputError(`${what} takes a Uint8Array, got ${describeValue(bytes)}`)
  checkForm(bytes, 0, bytes.length, what)
  return new Uint8Array(bytes)
}

/**
 * Checks the form that must fill `bytes[at, at + size)` exactly (see the
 * module comment); nothing is allocated before the lengths are known to be
 * in range. Throws a RobotsFormatError naming `what`.
 */
export function checkForm(bytes: Uint8Array, at: number, size: number, what: string): void {
  const fail = (why: string): never => {
    throw new RobotsFormatError('ERR_FORMAT', `${what}: ${why}`)
  }
  if (!(Number.isSafeInteger(at) && Number.isSafeInteger(size) && at >= 0 && size >= 0 && at + size <= bytes.length)) {
    fail('form out of its buffer')
  }
  if (size < Header.Size || FORM_MAGIC.some((m, i) => bytes[at + i] !== m)) fail('not a serialised robots.txt (bad magic or too short)')
  const version = readU16(bytes, at + Header.Version)
  if (version !== FORMAT_VERSION) {
    throw new RobotsFormatError('ERR_VERSION', `${what}: format version ${version} is not supported (this build reads ${FORMAT_VERSION})`)
  }
  const field = (offset: number): number => readU32(bytes, at + offset)
  const length = field(Header.Length)
  if (length !== size) fail(`length ${length} in the header does not match the ${size} bytes given (truncated or padded)`)
  if (field(Header.Checksum) !== formChecksum(bytes, at, size)) fail('checksum mismatch (corrupt buffer)')
  const flags = readU16(bytes, at + Header.Flags)
  if ((flags & ~FormFlag.Truncated) !== 0) fail(`unknown flags ${flags}`)
  // Sections: in order, inside the form (so none overlaps another).
  const starts = [
    Header.Size,
    field(Header.EventsStart),
    field(Header.NamesStart),
    field(Header.ExtensionsStart),
    field(Header.SitemapsStart),
    field(Header.DiagnosticsStart),
    length,
  ]
  for (let i = 1; i < starts.length; i++) if (!(starts[i] >= starts[i - 1])) fail('sections out of order or outside the form')
  const [patternsStart, eventsStart, namesStart, extensionsStart, sitemapsStart, diagnosticsStart] = starts.map((s) => at + s)
  const end = at + length
  if (readU32(bytes, at + Header.BytesRead + 4) >= 2 ** 21 || readU32(bytes, at + Header.LineCount + 4) >= 2 ** 21) {
    fail('bytesRead or lineCount past 2^53')
  }
  const bytesRead = readU53(bytes, at + Header.BytesRead)
  const lineCount = readU53(bytes, at + Header.LineCount)
  if (lineCount > bytesRead + 1) fail('more lines than bytes read')
  const eventCount = field(Header.EventCount)
  // Every event takes at least one byte: a count past the section's size is wrong before any decoding.
  if (eventCount > namesStart - eventsStart) fail('event count larger than its section')

  // Names: [a-z_-] runs, distinct.
  const names = new VarintReader(bytes, namesStart, extensionsStart, `${what}: names`)
  const seen = new Set<string>()
  while (names.more) {
    const s = names.readRun()
    if (names.at - s > MAX_VALUE_BYTES) fail('name too long')
    for (let i = s; i < names.at; i++) {
      const c = bytes[i]
      if (!((c >= 97 && c <= 122) || c === 45 || c === 95)) fail('a user-agent name holds a byte outside [a-z_-]')
    }
    const name = latin1(bytes.subarray(s, names.at))
    if (seen.has(name)) fail('a user-agent name is listed twice')
    seen.add(name)
  }
  const nameCount = seen.size

  // Extensions: a kind and a text that reads as a value of that kind.
  const ext = new VarintReader(bytes, extensionsStart, sitemapsStart, `${what}: extensions`)
  let extensionCount = 0
  while (ext.more) {
    const kind = bytes[ext.at++]
    if (!(kind < EXTENSION_KEYS.length)) fail(`unknown extension kind ${kind}`)
    const s = ext.readRun()
    if (ext.at - s > MAX_VALUE_BYTES || !isEscapedValue(bytes, s, ext.at)) fail('bad extension value')
    if (readExtension(kind, latin1(bytes.subarray(s, ext.at))).value === undefined) fail('an extension value does not read')
    extensionCount++
  }

  // Sitemaps: absolute http(s) URLs, as one line's value.
  const maps = new VarintReader(bytes, sitemapsStart, diagnosticsStart, `${what}: sitemaps`)
  while (maps.more) {
    const s = maps.readRun()
    if (maps.at - s > MAX_VALUE_BYTES || !isLineValue(bytes, s, maps.at) || !isSitemapUrl(bytes, s, maps.at)) fail('bad sitemap')
  }

  // Events: known types on increasing lines, indices in range and in order, patterns adding up.
  const ev = new VarintReader(bytes, eventsStart, namesStart, `${what}: events`)
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
        break
      case EventType.UaName: {
        const index = ev.read()
        if (index > nextName || index >= nameCount) fail(`event ${count}: name index out of range or out of order`)
        if (index === nextName) nextName++
        inGroup = true
        break
      }
      case EventType.Allow:
      case EventType.Disallow: {
        const n = ev.read()
        if (!inGroup) fail(`event ${count}: a rule before any user-agent line`)
        if (n > eventsStart - patternEnd || n > MAX_VALUE_BYTES) fail(`event ${count}: pattern past its section`)
        if (!isEscapedValue(bytes, patternEnd, patternEnd + n)) fail(`event ${count}: a pattern holds bytes a parse cannot give`)
        patternEnd += n
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
  if (count !== eventCount) fail(`${count} events where the header says ${eventCount}`)
  if (patternEnd !== eventsStart) fail('the patterns do not add up to their section')
  if (nextName !== nameCount) fail('a user-agent name no event uses')
  if (nextExtension !== extensionCount) fail('an extension no event uses')

  // Diagnostics: known codes, in line order; the truncated flag and diagnostic go together.
  const truncated = checkDiagnostics(bytes, diagnosticsStart, end, lineCount + 1, what, fail)
  if (truncated !== ((flags & FormFlag.Truncated) !== 0)) fail('the truncated flag and diagnostic disagree')
}

/** A line's value as the parser gives it: no NUL, CR, LF or `#`, and no whitespace at either end. */
function isLineValue(b: Uint8Array, start: number, end: number): boolean {
  if (start < end && (isSpace(b[start]) || isSpace(b[end - 1]))) return false
  for (let i = start; i < end; i++) {
    const c = b[i]
    if (c === 0 || c === 10 || c === 13 || c === 35) return false
  }
  return true
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
  if (!isLineValue(b, start, end)) return false
  for (let i = start; i < end; i++) {
    const c = b[i]
    if (c >= 0x80) return false
    if (c === 37 && i + 2 < end && isHex(b[i + 1]) && isHex(b[i + 2]) && (isLowerHex(b[i + 1]) || isLowerHex(b[i + 2]))) return false
  }
  return true
}
